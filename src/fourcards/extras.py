"""The optional parts of fourcards and the extras that install them (``pyproject.toml``).

``pip install fourcards`` (no extra) gives the rules engines, hand values, the exact
analysis, local simulation and the engine commands of the CLI, on numpy, numba, typer,
rich and platformdirs. The rest comes with an extra:

========  ======================================================  ===========================
extra     installs                                                for
========  ======================================================  ===========================
``web``   FastAPI, uvicorn, websockets, wsproto, Jinja2,          ``fourcards serve``
          pydantic, SQLAlchemy, Alembic, psycopg, segno (QR
          codes), fastapi-offline (Swagger UI's files for
          ``/docs``), argon2-cffi (admin       ``fourcards db``, ``admin``
          passwords), PyICU (look-alike names)
``sim``   Dask (``distributed``)                                  ``simulate --scheduler``
``plots`` matplotlib                                              ``--plot``, ``--png``
``rl``    OpenSpiel, PettingZoo, Gymnasium                        ``fourcards.openspiel``,
                                                                  ``fourcards.rl``
``xlsx``  XlsxWriter                                              ``poker analyze --xlsx``
``pdf``   fpdf2                                                   ``poker analyze --pdf``,
                                                                  ``poker strategy --pdf``
``match`` openskill                                               ``kind match``, ``poker match``
                                                                  (the rating table)
``sb3``   ``rl``, Stable-Baselines3, sb3-contrib (PyTorch)         ``fourcards.rl.sb3``, agent
                                                                  files of networks
``all``   every extra above but ``sb3``
========  ======================================================  ===========================

:func:`require` is called where a feature starts: without its extra it raises
:class:`MissingExtraError`, which the command line prints as one ``error:`` line
naming the extra to install (exit status 2).

Light: imports nothing but :mod:`importlib` (it only looks the packages up).
"""

from __future__ import annotations

import importlib.util

from fourcards.errors import FourcardsError

__all__ = ["EXTRAS", "MissingExtraError", "missing", "require"]

#: The top-level packages each extra provides that fourcards imports (``web``: what
#: ``fourcards serve`` needs with the default SQLite database; psycopg, for PostgreSQL
#: URLs, is checked by the store when such a URL is given; pydantic, which the web app
#: imports too, also comes with every install: typer needs it).
EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "websockets", "wsproto", "jinja2", "sqlalchemy", "alembic", "segno", "fastapi_offline",
            "argon2", "icu"),
    "sim": ("dask", "distributed"),
    "plots": ("matplotlib",),
    "rl": ("pyspiel", "pettingzoo", "gymnasium"),
    "sb3": ("stable_baselines3", "sb3_contrib", "gymnasium"),
    "xlsx": ("xlsxwriter",),
    "pdf": ("fpdf",),
    "match": ("openskill",),
}


class MissingExtraError(FourcardsError, ImportError):
    """A feature needs an extra that is not installed (also an :class:`ImportError`).

    Attributes:
        extra: the extra's name (``"web"``, ``"sim"``, ``"plots"``, ``"rl"``, ``"sb3"``, ``"xlsx"``, ``"pdf"``,
            ``"match"``).
        modules: the packages of the extra that are missing.
    """

    def __init__(self, message: str, extra: str, modules: tuple[str, ...]) -> None:
        super().__init__(message)
        self.extra = extra
        self.modules = modules


def missing(extra: str) -> tuple[str, ...]:
    """The packages of ``extra`` that cannot be imported here (found by name, not imported).

    Raises:
        KeyError: an unknown extra.
    """
    out = []
    for module in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a finder refused it, or a broken module in sys.modules
            found = False
        if not found:
            out.append(module)
    return tuple(out)


def require(extra: str, what: str) -> None:
    """Check that ``extra`` is installed before ``what`` (e.g. ``"fourcards serve"``) starts.

    Raises:
        MissingExtraError: ``"<what> needs the <extra> extra: pip install 'fourcards[<extra>]'"``.
    """
    gone = missing(extra)
    if gone:
        raise MissingExtraError(f"{what} needs the {extra} extra: pip install 'fourcards[{extra}]'", extra, gone)
