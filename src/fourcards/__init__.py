"""fourcards: Four Card Poker and Four of a Kind.

Rules engines (:mod:`fourcards.poker`, :mod:`fourcards.kind`), exact game
mathematics, web and terminal play, and simulation. See README.md.

``fourcards.__version__`` is the package's version as installed (its metadata, from
``pyproject.toml``): the one source for ``fourcards --version``, the web app and the par
sheet's identity block. A source tree that is not installed reports ``0+unknown``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["__version__"]


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fourcards")
    except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    # read on first use: importing the package stays free of the metadata look-up
    if name == "__version__":
        value = _installed_version()
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module 'fourcards' has no attribute {name!r}")
