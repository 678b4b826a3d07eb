"""What ``fourcards poker analyze`` does, apart from reading its options: the par sheet computed,
printed (Rich tables, or JSON) and written (``--out``, ``--xlsx``, ``--csv``).

Shared by the Typer command (:mod:`fourcards.cli.poker_analysis`) and the launcher's direct path
(:mod:`fourcards.launch`), which runs this command without importing Typer: a warm ``poker
analyze --json`` then imports only numpy and the analysis (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fourcards.errors import FourcardsError

__all__ = ["OutputError", "run", "progress_bar"]


class OutputError(FourcardsError):
    """A report file or folder cannot be written (the message names it and why)."""


@contextmanager
def progress_bar(err_console: Any | None = None) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr while the dealer counts are computed (first run only); yields
    the progress callback, or None when the counts are cached (then Rich is not imported)."""
    from fourcards.poker import analysis as an

    if an.counts_cached():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("exact dealer counts (first run, cached afterwards)"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} up ranks"), TimeElapsedColumn(),
                  console=err_console or Console(stderr=True), transient=True) as bar:
        task = bar.add_task("counts", total=13)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _write_text(text: str, path: Path) -> None:
    try:
        path.write_text(text)
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror}") from None


def run(rules: str = "live", ante_bonus: str | None = None, aces_up: str | None = None,
        strategy: str = "optimal", as_json: bool = False, out: Path | None = None, xlsx: Path | None = None,
        csv_dir: Path | None = None, pdf: Path | None = None, side_bets: list[str] | None = None,
        aces_up_lost_on_fold: bool = False, ante_bonus_on_fold: bool = False, *,
        console: Any | None = None, err_console: Any | None = None) -> None:
    """Compute the par sheet and print it: Rich tables on ``console`` (a Rich console; made here
    when None), or JSON on stdout with ``as_json``; also write ``out`` (the same report as text or
    JSON), ``xlsx`` (a workbook: the ``xlsx`` extra), ``csv_dir`` (CSV files) and ``pdf`` (a par sheet
    to print: the ``pdf`` extra). ``side_bets``: side bets to analyse too (names or ``HAND:KEY=N,...``,
    :func:`fourcards.poker.side_bets.parse_side_bet`); ``aces_up_lost_on_fold`` and
    ``ante_bonus_on_fold`` set the rule switches (docs/rules.md FCP-16, FCP-17). Every output carries
    the identity block (:func:`fourcards.report.identity.identity`).

    Raises:
        FourcardsError: bad input (an unknown preset, a malformed table or side bet, an unknown
            strategy), the ``xlsx`` or ``pdf`` extra missing (:class:`~fourcards.extras.MissingExtraError`,
            before any work), or a file that cannot be written (:class:`OutputError`).
    """
    from fourcards.extras import require

    if xlsx is not None:
        require("xlsx", "poker analyze --xlsx")
    if pdf is not None:
        require("pdf", "poker analyze --pdf")
    from fourcards.poker import analysis as an
    from fourcards.poker.rules import get_rules
    from fourcards.poker.side_bets import parse_side_bet

    r = get_rules(rules, ante_bonus=ante_bonus, aces_up=aces_up, aces_up_lost_on_fold=aces_up_lost_on_fold or None,
                  ante_bonus_requires_play=False if ante_bonus_on_fold else None)
    bets = [parse_side_bet(b) for b in side_bets or ()]
    if len(bets) > 8:
        raise OutputError(f"at most 8 side bets a sheet, got {len(bets)}")
    with progress_bar(err_console) as progress:
        counts = an.exact_counts(progress=progress)
    sheet = an.par_sheet(r, strategy, counts=counts, side_bets=bets)
    from fourcards.report.identity import identity

    data = sheet.to_dict()
    data["identity"] = identity(data)
    if as_json:
        text = json.dumps(data, indent=2)
        sys.stdout.write(text + "\n")
        if out is not None:
            _write_text(text + "\n", out)
    else:
        from fourcards.report import par_sheet as report

        if console is None:
            from rich.console import Console

            console = Console()
        report.render(sheet, console, data["identity"])
        if out is not None:
            _write_text(report.to_text(sheet, identity=data["identity"]), out)
    if xlsx is not None or csv_dir is not None or pdf is not None:
        from fourcards.report import spreadsheet

        try:
            if xlsx is not None:
                spreadsheet.write_xlsx(data, xlsx)
            if csv_dir is not None:
                spreadsheet.write_csv(data, csv_dir)
            if pdf is not None:
                from fourcards.report import pdf as pdf_report

                pdf_report.write_par_sheet(data, pdf)
        except OSError as exc:
            where = exc.filename or next(p for p in (xlsx, csv_dir, pdf) if p is not None)
            raise OutputError(f"cannot write {str(where)!r}: {exc.strerror}") from None
