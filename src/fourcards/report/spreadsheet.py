"""The par sheet as a spreadsheet (``poker analyze --xlsx FILE``, the ``xlsx`` extra: openpyxl) and
as CSV files (``--csv DIR``, no extra).

Both are written from the par sheet's JSON form (:meth:`ParSheet.to_dict`), so every figure is the
one ``--json`` prints: numbers are numbers (never text), exact fractions are text beside them. The
workbook holds each float with 16 significant digits (openpyxl's format; Excel shows 15), the CSV
files with all 17; whole numbers (the combinations) are exact in both.

Workbook: a ``Summary`` sheet (rules, headline figures, every wager's figures, the strategies
compared, the named Aces Up tables) and a sheet per wager (``Base game``, ``Ante and play``,
``Ante bonus``, ``Aces Up``): the return table - outcome, pays, combinations, probability,
return, wagered - with a total row of ``SUM`` formulas a reader can check, the wager's figures
and its hold intervals. The summary checks ``Ante and play`` + ``Ante bonus`` = ``Base game``
with a formula. openpyxl writes formulas without their values: a spreadsheet program computes
them on opening.

CSV files (``summary.csv``, one ``<wager>.csv`` each, ``hold_intervals.csv``): cells that start
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return and are not numbers get a leading
apostrophe (OWASP's rule against formula injection); numbers are written as numbers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["SHEET_NAMES", "summary_rows", "write_xlsx", "write_csv", "csv_cell"]

#: Sheet (and CSV file) of each wager: :attr:`ParSheet.wagers` key -> sheet name.
SHEET_NAMES = {"game": "Base game", "ante_play": "Ante and play", "ante_bonus": "Ante bonus", "aces_up": "Aces Up"}
_COLUMNS = ("outcome", "pays", "combinations", "probability", "return", "wagered")
_FIRST_ROW = 5  # the return table's first outcome row on a wager sheet (1-based)
_PCT = "0.0000%"


def _wager_figures(w: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """``(label, value, number format)`` of a wager's figures (from its JSON form)."""
    rows: list[tuple[str, Any, str]] = [
        (f"expected value (per {w['unit']})", w["expected_value"], _PCT),
        (f"house edge (per {w['unit']})", w["house_edge"], _PCT),
        ("element of risk (per total wagered)", w["element_of_risk"], _PCT),
    ]
    if w["return_to_player"] is not None:
        rows.append(("return to player (per total wagered)", w["return_to_player"], _PCT))
    rows += [
        (f"average wagered ({w['unit']}s)", w["average_wagered"], "0.000000"),
        ("hit frequency", w["hit_frequency"], "0.000000"),
        (f"standard deviation (per {w['unit']})", w["standard_deviation"], "0.000000"),
    ]
    rows += [(f"volatility index {c}% (z x SD)", v, "0.000000") for c, v in w["volatility_index"].items()]
    return rows


def summary_rows(d: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """``(label, value, number format)`` of the summary's headline figures (from the JSON form)."""
    r = d["rules"]
    rows: list[tuple[str, Any, str]] = [
        ("rules", r["name"], "@"),
        ("ante bonus (quads/SF/trips)", r["ante_bonus"], "@"),
        ("Aces Up (4K/SF/3K/F/S/2P/AA)", r["aces_up"], "@"),
        ("play bet", (f"any whole amount from {r['min_play_multiple']}x to {r['max_play_multiple']}x the ante"
                      if r["play_any_amount"] else " or ".join(f"{m}x" for m in r["play_multiples"]) + " the ante"),
         "@"),
        ("strategy", d["strategy"], "@"),
        ("house edge (per ante)", d["house_edge"], _PCT),
        ("element of risk (per total wagered)", d["element_of_risk"], _PCT),
        ("return to player (1 - element of risk)", d["return_to_player"], _PCT),
        ("average total bet (antes)", d["average_total_bet"], "0.000000"),
        ("standard deviation (of a round's net, antes)", d["standard_deviation"], "0.000000"),
        ("ante bonus return (per ante)", d["ante_bonus_return"], _PCT),
    ]
    rows += [(f"P({k})", v, "0.000000") for k, v in d["decisions"].items()]
    rows += [(f"P({k})", v, "0.000000") for k, v in d["frequencies"].items() if k != "fold"]
    rows += [("Aces Up return", d["aces_up"]["return"], _PCT), ("Aces Up house edge", d["aces_up"]["house_edge"], _PCT)]
    return rows


def _hold_header() -> list[str]:
    return ["rounds"] + [f"{denom} {c}% {end}" for denom in ("per unit", "per total wagered")
                         for c in ("90", "95", "99") for end in ("low", "high")]


def _hold_rows(w: dict[str, Any]) -> list[list[Any]]:
    return [[h["rounds"]] + [x for denom in ("per_unit", "per_total_wagered") for c in ("90", "95", "99")
                             for x in h[denom][c]] for h in w["hold_intervals"]]


def write_xlsx(d: dict[str, Any], path: str | Path) -> Path:
    """Write the par sheet (its JSON form, :meth:`ParSheet.to_dict`) as an ``.xlsx`` workbook.

    Returns the path written.

    Raises:
        MissingExtraError: openpyxl is not installed (the ``xlsx`` extra).
        OSError: the file cannot be written.
    """
    from fourcards.extras import require

    require("xlsx", "poker analyze --xlsx")
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    bold = Font(bold=True)
    wb = Workbook()
    summary = wb.active
    summary.title = "Summary"
    summary.append(["Four Card Poker par sheet"])
    summary["A1"].font = Font(bold=True, size=14)
    summary.append(["exact figures, complete enumeration of every deal (docs/analysis.md)"])
    summary.append([])
    for label, value, fmt in summary_rows(d):
        summary.append([label, value])
        summary.cell(summary.max_row, 2).number_format = fmt
    summary.append([])
    header = ["wager", "expected value (per unit)", "house edge (per unit)", "element of risk",
              "return to player", "hit frequency", "standard deviation", "volatility index 90%",
              "volatility index 95%"]
    summary.append(header)
    for c in range(1, len(header) + 1):
        summary.cell(summary.max_row, c).font = bold
    totals: dict[str, str] = {}
    for key, w in d["wagers"].items():
        name = SHEET_NAMES[key]
        summary.append([name, w["expected_value"], w["house_edge"], w["element_of_risk"], w["return_to_player"],
                        w["hit_frequency"], w["standard_deviation"], w["volatility_index"]["90"],
                        w["volatility_index"]["95"]])
        row = summary.max_row
        for c in (2, 3, 4, 5):
            summary.cell(row, c).number_format = _PCT
        totals[key] = f"'{name}'!E{_FIRST_ROW + len(w['rows'])}"
    summary.append([])
    summary.append(["check: ante and play + ante bonus = base game (per ante)",
                    f"={totals['ante_play']}+{totals['ante_bonus']}", f"={totals['game']}"])
    summary.cell(summary.max_row, 2).number_format = _PCT
    summary.cell(summary.max_row, 3).number_format = _PCT
    summary.append([])
    summary.append(["strategy", "house edge", "element of risk", "return to player", "average total bet",
                    "standard deviation", "cost vs optimal (per ante)"])
    for c in range(1, 8):
        summary.cell(summary.max_row, c).font = bold
    for name, f in d["strategies"].items():
        summary.append([name, f["house_edge"], f["element_of_risk"], f["return_to_player"], f["average_total_bet"],
                        f["standard_deviation"], f["loss_vs_optimal"]])
        for c in (2, 3, 4, 7):
            summary.cell(summary.max_row, c).number_format = _PCT
    summary.append([])
    summary.append(["Aces Up table", "return", "house edge"])
    for c in range(1, 4):
        summary.cell(summary.max_row, c).font = bold
    for t in d["aces_up_tables"]:
        summary.append([t["table"], t["return"], t["house_edge"]])
        summary.cell(summary.max_row, 2).number_format = _PCT
        summary.cell(summary.max_row, 3).number_format = _PCT
    summary.append([])
    summary.append(["exact figures (fractions)"])
    summary.cell(summary.max_row, 1).font = bold
    for k, v in d["exact"].items():
        if isinstance(v, str):
            summary.append([k, v])
    summary.column_dimensions["A"].width = 48
    for c in range(2, 10):
        summary.column_dimensions[get_column_letter(c)].width = 18

    for key, w in d["wagers"].items():
        ws = wb.create_sheet(SHEET_NAMES[key])
        ws.append([w["title"]])
        ws["A1"].font = Font(bold=True, size=14)
        ws.append([f"per {w['unit']}; combinations out of", w["deals"]])
        ws["B2"].number_format = "#,##0"
        ws.append([])
        ws.append(list(_COLUMNS))
        for c in range(1, len(_COLUMNS) + 1):
            ws.cell(4, c).font = bold
        for r in w["rows"]:
            ws.append([r[c] for c in _COLUMNS])
            row = ws.max_row
            ws.cell(row, 3).number_format = "#,##0"
            ws.cell(row, 4).number_format = "0.0000000000"
            ws.cell(row, 5).number_format = "0.00000000"
        last = ws.max_row
        ws.append(["total", None, f"=SUM(C{_FIRST_ROW}:C{last})", f"=SUM(D{_FIRST_ROW}:D{last})",
                   f"=SUM(E{_FIRST_ROW}:E{last})"])
        row = ws.max_row
        for c in range(1, 6):
            ws.cell(row, c).font = bold
        ws.cell(row, 3).number_format = "#,##0"
        ws.cell(row, 4).number_format = "0.0000000000"
        ws.cell(row, 5).number_format = "0.00000000"
        ws.append([])
        for label, value, fmt in _wager_figures(w):
            ws.append([label, value])
            ws.cell(ws.max_row, 2).number_format = fmt
        ws.append([])
        ws.append(["hold intervals: the house's hold after N rounds (normal approximation)"])
        ws.cell(ws.max_row, 1).font = bold
        ws.append(_hold_header())
        for c in range(1, 14):
            ws.cell(ws.max_row, c).font = bold
        for values in _hold_rows(w):
            ws.append(values)
            ws.cell(ws.max_row, 1).number_format = "#,##0"
            for c in range(2, 14):
                ws.cell(ws.max_row, c).number_format = "0.000%"
        ws.append([])
        ws.append(["exact figures (fractions)"])
        ws.cell(ws.max_row, 1).font = bold
        for k, v in w["exact"].items():
            ws.append([k, v])
        ws.column_dimensions["A"].width = 40
        for c in range(2, 14):
            ws.column_dimensions[get_column_letter(c)].width = 20
        ws.freeze_panes = "B5"
    out = Path(path)
    wb.save(out)
    return out


def csv_cell(value: Any) -> Any:
    """A CSV cell: numbers as they are; text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return gets a leading apostrophe (a spreadsheet would otherwise run it as a formula)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _write(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow([csv_cell(h) for h in header])
        for row in rows:
            w.writerow([csv_cell(v) for v in row])
    return path


def write_csv(d: dict[str, Any], directory: str | Path) -> list[Path]:
    """Write the par sheet (its JSON form) as CSV files into ``directory`` (created if missing):
    ``summary.csv`` (figure, value), ``<wager>.csv`` per wager (the return table and a total row),
    ``hold_intervals.csv`` (wager, rounds, then the intervals). Returns the paths written.

    Raises:
        OSError: the folder or a file cannot be written.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = [_write(out / "summary.csv", ("figure", "value"),
                    [(label, value) for label, value, _ in summary_rows(d)]
                    + [(f"{SHEET_NAMES[k]}: {label}", value) for k, w in d["wagers"].items()
                       for label, value, _ in _wager_figures(w)])]
    for key, w in d["wagers"].items():
        rows = [[r[c] for c in _COLUMNS] for r in w["rows"]]
        rows.append(["total", "", w["total"]["combinations"], w["total"]["probability"], w["total"]["return"], ""])
        paths.append(_write(out / f"{key}.csv", _COLUMNS, rows))
    paths.append(_write(out / "hold_intervals.csv", ["wager", *_hold_header()],
                        [[SHEET_NAMES[k], *values] for k, w in d["wagers"].items() for values in _hold_rows(w)]))
    return paths
