"""The dealer counts' disk cache: where it lives and its file format.

One ``.npy`` int32 array ``(28, n_orbits)`` in ``$FOURCARDS_CACHE_DIR`` or the user cache
directory (:mod:`fourcards.cachedir`): rows 0-12 ``le``, 13-25 ``lt`` (by up rank), 26
``orbit_colex``, 27 ``orbit_rank * 256 + orbit_size`` - one read, and a run that starts from
the cache needs no base tables. Written atomically. :func:`fourcards.poker.analysis.exact_counts`
checks what it reads and recomputes a file that fails the checks.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

__all__ = ["CACHE_VERSION", "cache_dir", "read_counts", "write_counts", "read_class_sums", "write_class_sums"]


#: Format of the on-disk cache; bump when the layout or the method changes.
#: (2: one ``.npy`` holding the counts and the orbit arrays.)
CACHE_VERSION = 2


def cache_dir() -> Path:
    """Where the dealer counts are cached: ``$FOURCARDS_CACHE_DIR`` or the user cache dir."""
    from fourcards.cachedir import cache_dir as user_cache_dir

    return user_cache_dir()


def _cache_file(directory: Path) -> Path:
    """The cache: one ``.npy`` int32 array ``(28, n_orbits)``: rows 0-12 ``le``, 13-25 ``lt`` (by up
    rank), 26 ``orbit_colex``, 27 ``orbit_rank * 256 + orbit_size`` (one read, no zip)."""
    return directory / f"fcp-dealer-counts-v{CACHE_VERSION}.npy"


def _class_sums_file(directory: Path) -> Path:
    """The win cap's summary of the counts (:func:`fourcards.poker.exact.win_cap.class_sums`), next to
    the counts and versioned with them."""
    return directory / f"fcp-win-cap-classes-v{CACHE_VERSION}.npy"


def read_counts(path: Path) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``(le, lt, (orbit_colex, orbit_size, orbit_rank))`` read from a cache file (not checked
    beyond its layout: the caller checks the counts). ``le`` and ``lt`` are read-only views of the
    file mapped into memory (the writer replaces the file atomically, never in place).

    Raises:
        OSError: the file cannot be read.
        ValueError: not an int32 ``(28, n)`` array (a corrupt or foreign file).
    """
    a = np.load(path, mmap_mode="r")  # mapped, not copied: the counts stay in the page cache, read-only
    if a.dtype != np.int32 or a.ndim != 2 or a.shape[0] != 28:
        raise ValueError("layout")
    orbits = (np.ascontiguousarray(a[26]), (a[27] & 255).astype(np.uint8),
              (a[27] >> 8).astype(np.uint16))
    return a[:13], a[13:26], orbits


def write_counts(path: Path, le: np.ndarray, lt: np.ndarray, orbit_colex: np.ndarray, orbit_size: np.ndarray,
                 orbit_rank: np.ndarray) -> None:
    """Write the cache file atomically (a temporary file, then renamed); its folder is created.
    A folder that cannot be written is ignored: it only costs time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
        np.save(tmp, np.vstack([le, lt, orbit_colex,
                                orbit_rank.astype(np.int32) * 256 + orbit_size]).astype(np.int32))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache dir only costs time


def read_class_sums(path: Path) -> np.ndarray:
    """The int64 array of a class-sums file, mapped read-only (its layout is checked by the reader,
    :func:`fourcards.poker.exact.win_cap.class_sums`).

    Raises:
        OSError: the file cannot be read.
        ValueError: not a 1-d int64 array (a corrupt or foreign file).
    """
    a = np.load(path, mmap_mode="r")
    if a.dtype != np.int64 or a.ndim != 1:
        raise ValueError("layout")
    return a


def write_class_sums(path: Path, data: np.ndarray) -> None:
    """Write a class-sums file atomically; a folder that cannot be written is ignored (it only costs time)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
        np.save(tmp, np.ascontiguousarray(data, dtype=np.int64))
        os.replace(tmp, path)
    except OSError:
        pass
