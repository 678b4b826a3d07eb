"""The Typer application objects shared by the command modules."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer
from rich.console import Console

app = typer.Typer(
    name="fourcards",
    help="Four Card Poker and Four of a Kind: rules, exact odds, play and simulation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
poker_app = typer.Typer(help="Four Card Poker: hand values, settlement, exact analysis, simulation.",
                        no_args_is_help=True)
kind_app = typer.Typer(help="Four of a Kind: exact odds, settlement, terminal play, simulation.",
                       no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        from fourcards import __version__

        print(f"fourcards {__version__}")  # as fourcards.launch.version_line prints it
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                       help="Print the version (fourcards.__version__) and exit.")) -> None:
    """Four Card Poker and Four of a Kind: rules, exact odds, play and simulation."""


app.add_typer(poker_app, name="poker")
app.add_typer(kind_app, name="kind")

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` as one line on stderr and exit with ``code`` (default 2)."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)
