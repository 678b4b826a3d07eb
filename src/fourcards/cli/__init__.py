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
* ``fourcards db upgrade|downgrade|current|history|backup|restore|prune`` - :mod:`fourcards.cli.db`
* ``fourcards admin create-user|users|verify-audit|audit-log|tables|close-abandoned`` - :mod:`fourcards.cli.admin`

Errors from bad input (:class:`~fourcards.errors.FourcardsError`) print one line
on stderr and exit with status 2.
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import Any

import typer

try:  # Typer >= 0.20 ships its own copy of Click; its exceptions are what it raises
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older Typer on top of Click
    from click import exceptions as click_exceptions  # type: ignore[no-redef]

from fourcards.cli.app import app, fail
from fourcards.errors import FourcardsError

_COMMAND_MODULES = ("poker", "poker_analysis", "design", "protect", "win_cap", "kind", "sim", "match", "serve", "db",
                    "admin")

for _name in _COMMAND_MODULES:
    try:
        importlib.import_module(f"fourcards.cli.{_name}")
    except ModuleNotFoundError as exc:  # a command module not written yet
        if exc.name != f"fourcards.cli.{_name}":
            raise


_WHOLE = re.compile(r"[+-]?[0-9]+")


def _whole(process: Any, param: Any) -> Any:
    def process_value(ctx: Any, value: Any) -> Any:
        for text in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(text, str) and not _WHOLE.fullmatch(text):
                raise click_exceptions.BadParameter(
                    f"{text[:40]!r} is not a whole number: write it in digits, e.g. 30", ctx=ctx, param=param)
        return process(ctx, value)

    return process_value


def strict_whole_numbers(command: Any) -> Any:
    """``command`` (a Click command or group built by Typer) with every whole-number option and
    argument - and its sub-commands' - refusing text that is not a whole number written in digits
    (``30``, ``-1``; not ``30.0``, ``3e1`` or ``1_000``): Typer reads ``--play 30.0`` as 30 through
    pydantic's lax mode (issue 26 item 7). Returns ``command``."""
    for param in getattr(command, "params", ()):
        desc = getattr(param, "type_descriptor", None)
        if desc is not None and desc.annotation in (int, list[int]):
            param.process_value = _whole(param.process_value, param)
    for sub in getattr(command, "commands", {}).values():
        strict_whole_numbers(sub)
    return command


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``fourcards`` console script.

    Bad input - a FourcardsError from a command, or a usage error such as a
    missing argument or a value of the wrong type - prints one ``error: ...``
    line on stderr and exits with status 2.
    """
    try:
        code = strict_whole_numbers(typer.main.get_command(app)).main(args=argv, prog_name="fourcards",
                                                                      standalone_mode=False)
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


__all__ = ["app", "main", "strict_whole_numbers"]

if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
