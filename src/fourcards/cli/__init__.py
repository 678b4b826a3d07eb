"""The ``fourcards`` command (Typer + Rich).

Sub-commands live in one module each and register on the apps defined in
:mod:`fourcards.cli.app`:

* ``fourcards poker hand|settle`` - :mod:`fourcards.cli.poker`
* ``fourcards poker analyze|strategy`` - :mod:`fourcards.cli.poker_analysis`
* ``fourcards poker design`` / ``protect`` / ``win-cap`` - :mod:`fourcards.cli.design`,
  :mod:`fourcards.cli.protect`, :mod:`fourcards.cli.win_cap`
* ``fourcards poker simulate`` / ``fourcards kind simulate`` - :mod:`fourcards.cli.sim`
* ``fourcards kind odds|settle|play`` - :mod:`fourcards.cli.kind` (the terminal table and play
  loop: :mod:`fourcards.cli.kind_terminal`)
* ``fourcards kind match`` / ``fourcards poker match`` - :mod:`fourcards.cli.match`
* ``fourcards serve`` - :mod:`fourcards.cli.serve`

Errors from bad input (:class:`~fourcards.errors.FourcardsError`) print one line
on stderr and exit with status 2.
"""

from __future__ import annotations

import importlib
import sys

import typer

try:  # Typer >= 0.20 ships its own copy of Click; its exceptions are what it raises
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click import exceptions as click_exceptions  # type: ignore[no-redef]

from fourcards.cli.app import app, fail
from fourcards.errors import FourcardsError

_COMMAND_MODULES = ("poker", "poker_analysis", "design", "protect", "win_cap", "kind", "sim", "match", "serve")

for _name in _COMMAND_MODULES:
    try:
        importlib.import_module(f"fourcards.cli.{_name}")
    except ModuleNotFoundError as exc:  # a command module not written yet
        if exc.name != f"fourcards.cli.{_name}":
            raise


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``fourcards`` console script.

    Bad input - a FourcardsError from a command, or a usage error such as a
    missing argument or a value of the wrong type - prints one ``error: ...``
    line on stderr and exits with status 2.
    """
    try:
        code = app(args=argv, prog_name="fourcards", standalone_mode=False)
    except FourcardsError as exc:
        fail(str(exc))
    except click_exceptions.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if exc.ctx else str(exc), file=sys.stderr)
        raise SystemExit(2) from None
    except click_exceptions.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        fail(exc.format_message() + hint)
    except click_exceptions.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except typer.Abort:
        fail("aborted", 1)
    raise SystemExit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]

if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
