"""Compiled kernels: ahead-of-time (built with the package) or just-in-time (numba, cached).

The inner loops of the exact analysis and the simulation are numba functions in
the kernel modules (:data:`KERNEL_MODULES`), each with one explicit signature
(its module's ``SIGNATURES``). Installing the package compiles them ahead of time
into the extension module ``fourcards._aot`` (``setup.py``, numba.pycc), so a
first run compiles nothing and does not even import numba. Without that module -
no C compiler at install, an editable checkout whose kernel sources changed since
it was built, or ``FOURCARDS_JIT=1`` - the same functions are compiled by numba
on first use, with a progress line on stderr, and cached in the user cache
directory (:mod:`fourcards.jit`).

Light: importing this module imports neither numpy nor numba.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["KERNEL_MODULES", "Kernels", "load", "aot_module", "source_hash"]

#: The modules holding ahead-of-time compiled kernels, and their short names in ``fourcards._aot``.
KERNEL_MODULES = {"fourcards.poker.kernels": "poker", "fourcards.poker.protect_kernels": "protect",
                  "fourcards.poker.side_bet_kernels": "side", "fourcards.sim.kernels": "sim"}
#: Sources the compiled code depends on (the kernel modules, their shared helpers - the one compiled
#: ranking they all inline among them - and the signatures).
_SOURCES = ("fourcards.jit", "fourcards.ranking", "fourcards.kernel_signatures", *KERNEL_MODULES)
_DTYPES = {"b1": "bool", "u1": "uint8", "u2": "uint16", "u8": "uint64", "i4": "int32", "i8": "int64"}

_LOCK = threading.Lock()
_AOT: list[ModuleType | None] = []
_LOADED: dict[str, Kernels] = {}


def _source_path(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:  # pragma: no cover - broken install
        raise ImportError(f"cannot find {module}")
    return Path(spec.origin)


def source_hash() -> int:
    """A 63-bit hash of the kernel sources (what ``fourcards._aot`` was built from)."""
    h = hashlib.blake2b(digest_size=8)
    for module in _SOURCES:
        h.update(module.encode())
        h.update(_source_path(module).read_bytes())
    return int.from_bytes(h.digest(), "little") >> 1


def aot_module() -> ModuleType | None:
    """``fourcards._aot`` if it is built from the current kernel sources, else None.

    ``FOURCARDS_JIT=1`` ignores it (every kernel then compiles with numba).
    """
    with _LOCK:
        if not _AOT:
            mod = None
            if os.environ.get("FOURCARDS_JIT", "") in ("", "0"):
                try:
                    mod = importlib.import_module("fourcards._aot")
                    if int(mod.source_hash()) != source_hash():
                        mod = None  # stale: built from other sources
                except ImportError:
                    mod = None
            _AOT.append(mod)
        return _AOT[0]


def _parse(sig: str) -> list[tuple[str, int] | None]:
    """Argument specs of a signature string: ``(dtype, ndim)`` per array (C-contiguous), None per int."""
    args = sig[sig.index("(") + 1:sig.rindex(")")]
    parts, depth, cur = [], 0, ""
    for ch in args:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out: list[tuple[str, int] | None] = []
    for part in (p.strip() for p in parts):
        if "[" in part:
            out.append((_DTYPES[part[:part.index("[")]], part.count(",") + 1 if part.endswith("::1]") else 0))
        else:
            out.append(None)
    return out


def _checked(fn: Any, name: str, sig: str) -> Any:
    """``fn`` behind a check of its arguments against ``sig`` (TypeError instead of a crash)."""
    import numpy as np

    spec = _parse(sig)
    for s in spec:
        if s is not None and s[1] < 1:  # pragma: no cover - a signature typo
            raise ValueError(f"{name}: only C-contiguous arrays are supported in {sig!r}")
    dtypes = [np.dtype(s[0]) if s is not None else None for s in spec]

    def call(*args: Any) -> Any:
        if len(args) != len(spec):
            raise TypeError(f"{name} takes {len(spec)} arguments, got {len(args)}")
        conv: list[Any] = []
        for i, (a, s, dt) in enumerate(zip(args, spec, dtypes, strict=True)):
            if s is None:
                conv.append(int(a))
                continue
            if not (isinstance(a, np.ndarray) and a.dtype == dt and a.ndim == s[1] and a.flags.c_contiguous):
                got = f"{a.dtype}[{a.ndim}-d]" if isinstance(a, np.ndarray) else type(a).__name__
                raise TypeError(f"{name}: argument {i} must be a C-contiguous {s[1]}-d {dt} array, got {got}")
            conv.append(a)
        return fn(*conv)

    call.__name__ = name
    call.__doc__ = getattr(fn, "__doc__", None)
    call.compiled = fn  # type: ignore[attr-defined]
    return call


class Kernels:
    """The kernels of one kernel module, resolved on first use of each.

    ``kernels.name`` is the ahead-of-time compiled function if available, else the
    module's numba function, compiled now for its signature (``SIGNATURES[name]``)
    with a progress line on stderr unless it is in the cache.
    """

    def __init__(self, module: str, what: str) -> None:
        self._module = module
        self._what = what
        self._short = KERNEL_MODULES[module]
        self._lock = threading.Lock()

    @property
    def ahead_of_time(self) -> bool:
        """Whether the kernels come from ``fourcards._aot`` (no compilation in this process)."""
        return aot_module() is not None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        with self._lock:
            if name in self.__dict__:
                return self.__dict__[name]
            from fourcards.kernel_signatures import SIGNATURES

            sig = SIGNATURES[self._module].get(name)
            if sig is None:
                raise AttributeError(f"{self._module} has no compiled kernel {name!r}")
            aot = aot_module()
            fn = getattr(aot, f"{self._short}__{name}", None) if aot is not None else None
            if fn is None:
                fn = self._jit(name, sig)
            fn = self.__dict__[name] = _checked(fn, name, sig)
            return fn

    def _jit(self, name: str, sig: str) -> Any:
        from fourcards import jit

        disp = getattr(importlib.import_module(self._module), name)
        if not jit.is_compiled(disp):
            with jit.compiling(f"{self._what} ({name})", disp):
                disp.compile(sig)
        else:
            disp.compile(sig)  # from the cache
        return disp


def load(module: str, what: str) -> Kernels:
    """The :class:`Kernels` of ``module`` (one of :data:`KERNEL_MODULES`); ``what`` names them in
    the compile notice, e.g. ``"the simulation kernels"``."""
    with _LOCK:
        k = _LOADED.get(module)
        if k is None:
            k = _LOADED[module] = Kernels(module, what)
        return k
