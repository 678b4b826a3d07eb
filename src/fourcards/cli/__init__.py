"""The ``fourcards`` command (Typer + Rich).

Sub-commands live in one module each and register on the apps defined in
:mod:`fourcards.cli.app`:

* ``fourcards poker hand|settle`` - :mod:`fourcards.cli.poker`
* ``fourcards poker analyze|strategy`` - :mod:`fourcards.cli.poker_analysis`
* ``fourcards poker simulate`` / ``fourcards kind simulate`` - :mod:`fourcards.cli.sim`
* ``fourcards kind odds|settle|play`` - :mod:`fourcards.cli.kind`
* ``fourcards serve`` - :mod:`fourcards.cli.serve`

Errors from bad input (:class:`~fourcards.errors.FourcardsError`) print one line
on stderr and exit with status 2.
"""

from __future__ import annotations

import importlib
import sys

from fourcards.cli.app import app, fail
from fourcards.errors import FourcardsError

_COMMAND_MODULES = ("poker", "poker_analysis", "kind", "sim", "serve")

for _name in _COMMAND_MODULES:
    try:
        importlib.import_module(f"fourcards.cli.{_name}")
    except ModuleNotFoundError as exc:  # a command module not written yet
        if exc.name != f"fourcards.cli.{_name}":
            raise


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``fourcards`` console script."""
    try:
        app(args=argv, prog_name="fourcards", standalone_mode=True)
    except FourcardsError as exc:
        fail(str(exc))


__all__ = ["app", "main"]

if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
