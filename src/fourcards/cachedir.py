"""Where fourcards keeps what it computes once: the exact dealer counts and the compiled kernels.

``$FOURCARDS_CACHE_DIR`` if set, else the user cache directory
(``platformdirs.user_cache_dir("fourcards")``, e.g. ``~/.cache/fourcards`` on Linux).
Compiled numba kernels go to its ``numba`` sub-folder unless ``$NUMBA_CACHE_DIR`` is set.
Light: importing this module imports neither numpy nor numba.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir", "numba_cache_dir"]


def cache_dir() -> Path:
    """The fourcards cache directory: ``$FOURCARDS_CACHE_DIR`` or the user cache dir (not created here)."""
    env = os.environ.get("FOURCARDS_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("fourcards"))


def numba_cache_dir() -> Path:
    """Where compiled kernels are cached: ``$NUMBA_CACHE_DIR`` or :func:`cache_dir` / ``numba``."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env)
    return cache_dir() / "numba"
