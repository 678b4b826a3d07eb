"""Build ``fourcards._aot``: the kernels of :data:`fourcards.native.KERNEL_MODULES`, compiled ahead of time.

Used by ``setup.py`` only (it needs numba and a C compiler, at build time): each
kernel is compiled with numba.pycc for its one signature
(:mod:`fourcards.kernel_signatures`), releasing the GIL like the JIT versions
(``nogil=True``) so that threads can run them side by side. The module also
records :func:`fourcards.native.source_hash` of the sources it was built from;
:mod:`fourcards.native` ignores a module built from other sources.

Build by hand (an editable checkout): ``python setup.py build_ext --inplace``.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

__all__ = ["build_cc", "extension"]


def build_cc() -> Any:
    """A ``numba.pycc.CC`` exporting every kernel as ``<short>__<name>`` and ``source_hash()``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is "pending deprecation"
        import numba.pycc.compiler as pycc_compiler
        from numba.core.compiler import Flags
        from numba.pycc import CC

    class _ReleaseGIL(Flags):
        """Compile the exported wrappers like ``nogil=True`` does for the JIT."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True  # type: ignore[assignment]

    pycc_compiler.Flags = _ReleaseGIL  # type: ignore[misc]
    compile_extra = pycc_compiler.compile_extra

    def compile_afresh(typingctx: Any, targetctx: Any, func: Any, args: Any, return_type: Any, flags: Any,
                       locals: Any, **kwargs: Any) -> Any:
        """Each kernel with flags of its own, as the JIT compiles it: numba.pycc shares one ``Flags``
        between all exports, and inlining a function (``inline="always"``) switches its SSA off
        (``enable_ssa = False``), which would leave every later kernel without SSA - slower, and a
        name holding two integer types typed as a float."""
        return compile_extra(typingctx, targetctx, func, args, return_type, flags.copy(), locals, **kwargs)

    pycc_compiler.compile_extra = compile_afresh  # type: ignore[assignment]

    from fourcards.kernel_signatures import SIGNATURES
    from fourcards.native import KERNEL_MODULES, source_hash

    cc = CC("_aot")
    cc.verbose = False
    for module, short in KERNEL_MODULES.items():
        mod = importlib.import_module(module)
        for name, sig in SIGNATURES[module].items():
            cc.export(f"{short}__{name}", sig)(getattr(mod, name).py_func)
    digest = source_hash()
    namespace: dict[str, Any] = {}
    exec(f"def source_hash():\n    return {digest}\n", namespace)  # a constant the compiled module returns
    cc.export("source_hash", "i8()")(namespace["source_hash"])
    return cc


def extension() -> Any:
    """The setuptools ``Extension`` of ``fourcards._aot`` (see ``setup.py``)."""
    return build_cc().distutils_extension()
