"""Run the ``fourcards`` command in the test's process: ``(exit status, stdout, stderr)``."""

from __future__ import annotations

from collections.abc import Callable

from fourcards.cli import main


def run(capsys, *argv: str, entry: Callable[[list[str]], object] = main) -> tuple[int, str, str]:
    """``entry(argv)`` (default :func:`fourcards.cli.main`, the Typer application) with its output
    captured by pytest's ``capsys``; a normal return is status 0."""
    try:
        entry(list(argv))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return int(code), out.out, out.err
