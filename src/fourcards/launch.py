"""The ``fourcards`` console script: ``poker analyze`` directly, every other command through Typer.

Typer validates every option through pydantic, and Typer, Click, Rich and pydantic together take
about 0.3 s to import: most of a warm ``poker analyze`` (issue 23, item 6: a warm ``poker analyze
--json`` in at most 0.5 s). So the launcher reads ``poker analyze``'s options itself (the same
options as the Typer command, :func:`fourcards.cli.poker_analysis.analyze_cmd`; a test checks both
accept the same and print the same) and runs :func:`fourcards.report.analyze.run`. Anything it
does not recognise - ``--help``, an unknown or malformed option, an argument, a path that is a
folder - goes to the Typer application (:func:`fourcards.cli.main`) unchanged, so its messages
stay Typer's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["ANALYZE_OPTIONS", "parse_analyze", "version_line", "main"]

#: ``poker analyze``'s options: flag -> (destination, takes a value). The Typer command has the same.
ANALYZE_OPTIONS: dict[str, tuple[str, bool]] = {
    "--rules": ("rules", True),
    "--ante-bonus": ("ante_bonus", True),
    "--aces-up": ("aces_up", True),
    "--strategy": ("strategy", True),
    "--json": ("as_json", False),
    "--out": ("out", True),
    "--xlsx": ("xlsx", True),
    "--csv": ("csv_dir", True),
    "--pdf": ("pdf", True),
    "--side-bet": ("side_bets", True),
    "--aces-up-lost-on-fold": ("aces_up_lost_on_fold", False),
    "--ante-bonus-on-fold": ("ante_bonus_on_fold", False),
}
#: Options that may be given more than once (a list).
_REPEATABLE = {"--side-bet"}


class _Refused(Exception):
    """The arguments are not a plain ``poker analyze`` call: Typer takes them."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # never print or exit: hand over to Typer instead
        raise _Refused(message)


def _parser() -> _Parser:
    p = _Parser(prog="fourcards poker analyze", add_help=False, allow_abbrev=False)
    for flag, (dest, takes_value) in ANALYZE_OPTIONS.items():
        if takes_value and flag in _REPEATABLE:
            p.add_argument(flag, dest=dest, action="append", default=None)
        elif takes_value:
            p.add_argument(flag, dest=dest, default=None)
        else:
            p.add_argument(flag, dest=dest, action="store_true")
    return p


def parse_analyze(argv: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of :func:`fourcards.report.analyze.run` for ``argv`` (the words after
    ``poker analyze``), or None where Typer must take them (help, anything unknown or malformed)."""
    if any(a in ("--help", "-h") or a == "--" for a in argv):
        return None
    try:
        ns = _parser().parse_args(argv)
    except _Refused:
        return None
    kw = vars(ns)
    for name in ("out", "xlsx", "pdf"):  # Typer: a file, never an existing folder
        if kw[name] is not None:
            if kw[name] == "" or Path(kw[name]).is_dir():
                return None
            kw[name] = Path(kw[name])
    if kw["csv_dir"] is not None:  # a folder, never an existing file
        if kw["csv_dir"] == "" or Path(kw["csv_dir"]).is_file():
            return None
        kw["csv_dir"] = Path(kw["csv_dir"])
    if kw["rules"] is None:
        kw["rules"] = "live"
    if kw["strategy"] is None:
        kw["strategy"] = "optimal"
    return kw


def version_line() -> str:
    """What ``fourcards --version`` prints: ``"fourcards <version>"`` (:data:`fourcards.__version__`,
    the installed package's metadata)."""
    from fourcards import __version__

    return f"fourcards {__version__}"


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``fourcards`` console script (see the module doc). Bad input prints one
    ``error: ...`` line on stderr and exits with status 2, as :func:`fourcards.cli.main` does.
    ``fourcards --version`` prints :func:`version_line` and exits 0 (without importing Typer)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:
        print(version_line())
        raise SystemExit(0)
    kw = parse_analyze(args[2:]) if args[:2] == ["poker", "analyze"] else None
    if kw is None:
        from fourcards.cli import main as typer_main

        typer_main(args)
        return
    from fourcards.errors import FourcardsError
    from fourcards.report.analyze import run

    try:
        run(**kw)
    except FourcardsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    raise SystemExit(0)
