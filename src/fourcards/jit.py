"""Numba set-up shared by the compiled kernels: the kernel cache, and saying when it compiles.

Importing this module imports numba (0.2-0.3 s), so only the modules holding
kernels import it, and they are imported only by the commands that need them
(``fourcards --help`` and the engine commands never import numba).

* Compiled machine code is cached (``cache=True``) in :func:`fourcards.cachedir.numba_cache_dir`
  (the user cache directory, or ``$NUMBA_CACHE_DIR``), so an installed package
  compiles each kernel once per machine, not once per process.
* :func:`compiling` prints one progress line on stderr while kernels that are
  not cached yet compile (a first run): never a silent pause.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fourcards.cachedir import numba_cache_dir

os.environ.setdefault("NUMBA_CACHE_DIR", str(numba_cache_dir()))

import numba as nb  # noqa: E402  (after NUMBA_CACHE_DIR is set)
from numba.core import config as _config  # noqa: E402

if not getattr(_config, "CACHE_DIR", ""):  # numba was imported before us: point its cache to ours all the same
    _config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]  # type: ignore[attr-defined]

__all__ = ["nb", "is_compiled", "compiling"]


def is_compiled(dispatcher: Any) -> bool:
    """Whether a numba function is compiled in this process or has machine code in the cache.

    A cache written for another version of the source does not count.
    """
    if getattr(dispatcher, "overloads", None):
        return True
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # pragma: no cover - numba internals changed: assume a compile
        return False


#: Where the progress lines go (a test may replace it).
notice: Callable[[str], None] = lambda text: print(text, file=sys.stderr, end="", flush=True)  # noqa: E731


@contextmanager
def compiling(what: str, *dispatchers: Any) -> Iterator[bool]:
    """Around the first calls of ``dispatchers``: if any is not compiled yet, print
    ``fourcards: compiling WHAT (first run only; cached in DIR)... done in S s`` on stderr.

    Yields whether a compile was announced.
    """
    if all(is_compiled(d) for d in dispatchers):
        yield False
        return
    t0 = time.perf_counter()
    where = getattr(_config, "CACHE_DIR", "")
    notice(f"fourcards: compiling {what} (first run only; cached in {where})...")
    try:
        yield True
    finally:
        notice(f" done in {time.perf_counter() - t0:.1f} s\n")
