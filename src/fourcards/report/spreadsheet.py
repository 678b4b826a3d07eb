"""The par sheet as a workbook (``poker analyze --xlsx FILE``, the ``xlsx`` extra: XlsxWriter) and as
CSV files (``--csv DIR``, no extra).

Both are written from the par sheet's JSON form with its identity block (:meth:`ParSheet.to_dict`,
:func:`fourcards.report.identity.identity`), so every figure is the one ``--json`` prints: numbers
are numbers (never text), exact fractions are text beside them.

Workbook (issue 31, item 1): made to print and to be read by any reader.

* Sheets: ``Summary`` (the identity block, the headline figures, every wager's figures, the
  strategies compared with the rule switches' effects, the win cap when the rules have one, the
  named Aces Up tables, exact fractions), one per wager (``Base game``, ``Ante and play``, ``Ante
  bonus``, ``Aces Up``, each side bet: the return table with a total row, the wager's figures, its
  hold intervals, exact fractions) and ``Strategy chart`` (the chart of the strategy assumed).
* Every formula is stored with its computed value (the totals' ``SUM``, the check that ante and
  play + ante bonus = base game), so a reader that does not recalculate - a viewer, a preview,
  pandas - shows the figures.
* Page set-up: landscape, A4, one page wide (the summary at most two pages tall, every other
  sheet one), the title and header rows repeated, a footer with the game, the rules and pay
  tables, the software version and "page n of m". Number formats: percentages to 4 places,
  standard deviations and volatility indexes to 4, combinations with thousands separators.
* Every column is as wide as the longest text it shows (:func:`displayed`), so nothing is cut.

CSV files (``identity.csv``, ``summary.csv``, one ``<wager>.csv`` each, ``hold_intervals.csv``,
``strategy_chart.csv``, ``side_bet_<name>.csv``): cells that start with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return and are not numbers get a leading apostrophe (OWASP's rule against
formula injection); numbers are written as numbers.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from fourcards.report.identity import identity_rows

__all__ = ["SHEET_NAMES", "FORMATS", "summary_rows", "displayed", "wrapped_lines", "write_xlsx", "write_csv", "csv_cell"]

#: Sheet (and CSV file) of each wager: :attr:`ParSheet.wagers` key -> sheet name.
SHEET_NAMES = {"game": "Base game", "ante_play": "Ante and play", "ante_bonus": "Ante bonus", "aces_up": "Aces Up"}
_COLUMNS = ("outcome", "pays", "combinations", "probability", "return", "wagered")
_FIRST_ROW = 5  # the return table's first outcome row on a wager sheet (1-based)

#: The number formats used (Excel codes): percentages to 4 places, SD to 4, counts with separators.
FORMATS = {"pct": "0.0000%", "sd": "0.0000", "count": "#,##0", "prob": "0.0000000000", "ret": "0.00000000",
           "avg": "0.000000", "hold": "0.000%", "conf": "0%", "int": "0", "text": "@"}


def _wager_figures(w: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """``(label, value, format key)`` of a wager's figures (from its JSON form)."""
    rows: list[tuple[str, Any, str]] = [
        (f"expected value (per {w['unit']})", w["expected_value"], "pct"),
        (f"house edge (per {w['unit']})", w["house_edge"], "pct"),
        ("element of risk (per total wagered)", w["element_of_risk"], "pct"),
    ]
    if w["return_to_player"] is not None:
        rows.append(("return to player (per total wagered)", w["return_to_player"], "pct"))
    rows += [
        (f"average wagered ({w['unit']}s)", w["average_wagered"], "avg"),
        ("hit frequency", w["hit_frequency"], "avg"),
        (f"standard deviation (per {w['unit']})", w["standard_deviation"], "sd"),
    ]
    rows += [(f"volatility index {c}% (z x SD)", v, "sd") for c, v in w["volatility_index"].items()]
    return rows


def summary_rows(d: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """``(label, value, format key)`` of the summary's headline figures (from the JSON form)."""
    r = d["rules"]
    rows: list[tuple[str, Any, str]] = [
        ("rules", r["name"], "text"),
        ("ante bonus (quads/SF/trips)", r["ante_bonus"], "text"),
        ("Aces Up (4K/SF/3K/F/S/2P/AA)", r["aces_up"], "text"),
        ("play bet", (f"any whole amount from {r['min_play_multiple']}x to {r['max_play_multiple']}x the ante"
                      if r["play_any_amount"] else " or ".join(f"{m}x" for m in r["play_multiples"]) + " the ante"),
         "text"),
        ("strategy", d["strategy"], "text"),
        ("house edge (per ante)", d["house_edge"], "pct"),
        ("element of risk (per total wagered)", d["element_of_risk"], "pct"),
        ("return to player (1 - element of risk)", d["return_to_player"], "pct"),
        ("average total bet (antes)", d["average_total_bet"], "avg"),
        ("standard deviation (of a round's net, antes)", d["standard_deviation"], "sd"),
        ("ante bonus return (per ante)", d["ante_bonus_return"], "pct"),
    ]
    rows += [(f"P({k})", v, "avg") for k, v in d["decisions"].items()]
    rows += [(f"P({k})", v, "avg") for k, v in d["frequencies"].items() if k != "fold"]
    rows += [("Aces Up return", d["aces_up"]["return"], "pct"), ("Aces Up house edge", d["aces_up"]["house_edge"], "pct")]
    cap = d.get("win_cap")
    if cap:
        top = cap["maximum_bets"]
        rows += [("win cap (chips a round)", cap["cap"], "count"),
                 ("win cap binds from an ante of (no Aces Up bet)", _or_never(cap["binding_ante"]), "count"),
                 ("win cap binds from an ante of (Aces Up bet = ante)", _or_never(cap["binding_ante_with_aces_up"]),
                  "count"),
                 (f"RTP at the maximum bets ({top['ante']:,} + Aces Up {top['aces_up']:,}) under the cap",
                  top["return_to_player"], "pct"),
                 ("RTP at the maximum bets without the cap", top["return_to_player_uncapped"], "pct"),
                 ("P(a round hits the cap) at the maximum bets", top["hits_cap"], "pct")]
    return rows


def _or_never(ante: int | None) -> Any:
    return "never (within the table's limits)" if ante is None else ante


def _hold_header() -> list[str]:
    return ["rounds"] + [f"{denom} {c}% {end}" for denom in ("per unit", "per total wagered")
                         for c in ("90", "95", "99") for end in ("low", "high")]


def _hold_rows(w: dict[str, Any]) -> list[list[Any]]:
    return [[h["rounds"]] + [x for denom in ("per_unit", "per_total_wagered") for c in ("90", "95", "99")
                             for x in h[denom][c]] for h in w["hold_intervals"]]


def wrapped_lines(text: str, width: float) -> int:
    """How many lines ``text`` takes wrapped at word boundaries in a column ``width`` characters wide."""
    lines, cur = 1, 0
    for word in text.split():
        need = len(word) if cur == 0 else cur + 1 + len(word)
        if cur and need > width - 1:
            lines, cur = lines + 1, len(word)
        else:
            cur = need
    return lines


def displayed(value: Any, fmt: str | None) -> str:
    """The text a spreadsheet shows for ``value`` under the number format code ``fmt`` (the codes of
    :data:`FORMATS`, and General for None): what a column must be wide enough for."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if fmt == "0%":
        return f"{value * 100:.0f}%"
    if fmt in (None, "General", "@"):
        if isinstance(value, float) and not value.is_integer():
            return f"{value:.10G}"  # General shows at most about 11 characters of a number
        return str(int(value)) if isinstance(value, float) else str(value)
    if fmt == "#,##0":
        return f"{round(value):,}"
    pct = fmt.endswith("%")
    body = fmt[:-1] if pct else fmt
    places = len(body.split(".")[1]) if "." in body else 0
    x = value * 100 if pct else value
    return f"{x:.{places}f}" + ("%" if pct else "")


class _Sheet:
    """One worksheet being written: cells with their format codes, remembered to size the columns."""

    def __init__(self, wb: Any, name: str, styles: dict[Any, Any]) -> None:
        self.ws = wb.add_worksheet(name)
        self.name = name
        self.styles = styles
        self.row = 0  # the next row (0-based)
        self.widths: dict[int, int] = {}
        self.merged: list[tuple[int, int, int]] = []  # (row, first col, last col)
        self.merged_texts: dict[tuple[int, int, int], str] = {}
        self.headers: list[tuple[int, list[str], int]] = []  # (row, texts, first wrapped column)

    def _track(self, col: int, text: str, extra: int = 0) -> None:
        self.widths[col] = max(self.widths.get(col, 0), len(text) + extra)

    def put(self, r: int, c: int, value: Any, fmt: str = "General", bold: bool = False) -> None:
        style = self.styles[(fmt, bold)]
        if value is None:
            self.ws.write_blank(r, c, None, style)
        elif isinstance(value, str):
            self.ws.write_string(r, c, value, style)
        elif isinstance(value, bool):
            self.ws.write_boolean(r, c, value, style)
        else:
            self.ws.write_number(r, c, value, style)
        self._track(c, displayed(value, FORMATS.get(fmt, fmt)), 1 if bold else 0)

    def formula(self, r: int, c: int, text: str, value: Any, fmt: str, bold: bool = False) -> None:
        """A formula with its computed value stored (readers that do not recalculate show it)."""
        self.ws.write_formula(r, c, text, self.styles[(fmt, bold)], value)
        self._track(c, displayed(value, FORMATS.get(fmt, fmt)), 1 if bold else 0)

    def line(self, values: Sequence[Any], fmts: Sequence[str] | None = None, bold: bool = False) -> int:
        fmts = fmts or ["General"] * len(values)
        for c, (v, f) in enumerate(zip(values, fmts, strict=True)):
            if v is not None or bold:
                self.put(self.row, c, v, f, bold)
        self.row += 1
        return self.row - 1

    def header(self, values: Sequence[str], wrap_from: int = 1) -> int:
        """A table's header row: bold, the columns from ``wrap_from`` on wrapped (a heading never makes
        a column wider than its longest word)."""
        for c, v in enumerate(values):
            if c >= wrap_from:
                self.ws.write_string(self.row, c, v, self.styles[("head", True)])
                self._track(c, max(v.split(), key=len), 1)
            else:
                self.put(self.row, c, v, bold=True)
        self.headers.append((self.row, list(values), wrap_from))
        self.row += 1
        return self.row - 1

    def text(self, r: int, first: int, last: int, value: str, bold: bool = False) -> None:
        """Text over columns ``first``..``last`` (merged; :func:`_merged_fits` widens them if needed)."""
        if last > first:
            self.ws.merge_range(r, first, r, last, value, self.styles[("General", bold)])
            self.merged_texts[(r, first, last)] = value
        else:
            self.put(r, first, value, bold=bold)

    def note(self, text: str, last_col: int, bold: bool = False, size: int = 0) -> None:
        """Text across columns A..``last_col`` (merged: it is as wide as they are together)."""
        style = self.styles[("title", True)] if size else self.styles[("General", bold)]
        if last_col > 0:
            self.ws.merge_range(self.row, 0, self.row, last_col, text, style)
            self.merged.append((self.row, 0, last_col))
        else:
            self.ws.write_string(self.row, 0, text, style)
            self._track(0, text, 1 if bold else 0)
        self.row += 1

    def skip(self) -> None:
        self.row += 1

    def finish(self, title_rows: int, footer: str, pages_tall: int = 1) -> None:
        """Column widths from the longest text (merged notes spread over their columns), page set-up."""
        for r, first, last in self.merged:  # a merged note widens its last column if needed
            del r
            self.widths.setdefault(first, 8)
            for c in range(first, last + 1):
                self.widths.setdefault(c, 8)
        for c, w in self.widths.items():
            self.ws.set_column(c, c, max(w + 2, 8))
        for r, texts, wrap_from in self.headers:  # a wrapped heading's row as tall as its lines
            lines = max([wrapped_lines(t, max(self.widths.get(c, 8) + 2, 8))
                         for c, t in enumerate(texts) if c >= wrap_from] or [1])
            self.ws.set_row(r, 13.5 * lines)
        self.ws.set_landscape()
        self.ws.set_paper(9)  # A4
        self.ws.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.6)
        self.ws.fit_to_pages(1, pages_tall)
        self.ws.repeat_rows(0, max(0, title_rows - 1))
        self.ws.set_footer(footer)


#: How much wider than body text (10 points) a title (13 points, bold) is.
_TITLE_SCALE = 1.45


def _merged_fits(sheet: _Sheet, texts: dict[tuple[int, int, int], str], titles: Sequence[int] = (0,)) -> None:
    """Widen the last column of a merged note until the merged cells hold its text (``titles``: the
    rows set in the title's larger type)."""
    for (r, first, last), text in {**texts, **sheet.merged_texts}.items():
        have = sum(sheet.widths.get(c, 8) + 2 for c in range(first, last + 1))
        need = math.ceil(len(text) * (_TITLE_SCALE if r in titles else 1.0)) + 2
        if need > have:
            sheet.widths[last] = sheet.widths.get(last, 8) + need - have


def _footer(d: dict[str, Any]) -> str:
    ident = d["identity"]
    r = d["rules"]
    left = (f"{ident['game']}: rules {r['name']}, ante bonus {r['ante_bonus']}, Aces Up {r['aces_up']}"
            .replace("&", "&&"))
    return f"&L&8{left}&C&8{ident['software']} {ident['version']}, {ident['date']}&R&8page &P of &N"


def _styles(wb: Any) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key in (*FORMATS, "General"):
        code = FORMATS.get(key, key)
        for bold in (False, True):
            props: dict[str, Any] = {"font_size": 10, "bold": bold}
            if code != "General":
                props["num_format"] = code
            out[(code, bold)] = wb.add_format(props)
            out[(key, bold)] = out[(code, bold)]
    out[("title", True)] = wb.add_format({"bold": True, "font_size": 13})
    for v, color in (("fold", "#D9D9D9"), ("1x", "#FDD96A"), ("2x", "#8FD3E8"), ("3x", "#4CAF50")):
        out[("decision", v)] = wb.add_format({"font_size": 10, "align": "center", "bg_color": color, "border": 1,
                                              "border_color": "#FFFFFF"})
    out[("head", True)] = wb.add_format({"bold": True, "font_size": 10, "text_wrap": True, "valign": "bottom",
                                         "bottom": 1})
    return out


def _return_table_sheet(wb: Any, styles: dict[Any, Any], name: str, w: dict[str, Any], footer: str) -> tuple[str, int]:
    """A wager's sheet; returns the sheet name and the row (1-based) of its total."""
    s = _Sheet(wb, name, styles)
    notes: dict[tuple[int, int, int], str] = {}
    s.note(w["title"], 5, size=13)
    notes[(0, 0, 5)] = w["title"]
    s.put(1, 0, f"per {w['unit']}; combinations out of")
    s.put(1, 2, w["deals"], "count")
    s.row = 3
    s.header(list(_COLUMNS))
    fmts = ["General", "int", "count", "prob", "ret", "int"]
    for r in w["rows"]:
        s.line([r[c] for c in _COLUMNS], fmts)
    first, last = _FIRST_ROW, _FIRST_ROW + len(w["rows"]) - 1
    t = s.row
    s.put(t, 0, "total", bold=True)
    s.formula(t, 2, f"=SUM(C{first}:C{last})", w["total"]["combinations"], "count", True)
    s.formula(t, 3, f"=SUM(D{first}:D{last})", w["total"]["probability"], "prob", True)
    s.formula(t, 4, f"=SUM(E{first}:E{last})", w["total"]["return"], "ret", True)
    s.row += 2
    for label, value, fmt in _wager_figures(w):
        s.put(s.row, 0, label)
        s.put(s.row, 1, value, fmt)
        s.row += 1
    s.skip()
    text = "hold intervals: the house's hold after N rounds (normal approximation)"
    notes[(s.row, 0, 5)] = text
    s.note(text, 5, bold=True)
    s.header(["rounds", "confidence", "per unit: low", "per unit: high", "per total wagered: low",
              "per total wagered: high"])
    for h in w["hold_intervals"]:
        for c in ("90", "95", "99"):
            s.line([h["rounds"], int(c) / 100, *h["per_unit"][c], *h["per_total_wagered"][c]],
                   ["count", "conf", "hold", "hold", "hold", "hold"])
    s.skip()
    s.note("exact figures (fractions)", 0, bold=True)
    for k, v in w["exact"].items():
        s.put(s.row, 0, k)
        s.text(s.row, 1, 5, v)
        s.row += 1
    _merged_fits(s, notes)
    s.finish(4, footer)
    return name, t + 1


def write_xlsx(d: dict[str, Any], path: str | Path) -> Path:
    """Write the par sheet (its JSON form with ``identity``: see the module doc) as an ``.xlsx``
    workbook. Returns the path written.

    Raises:
        MissingExtraError: XlsxWriter is not installed (the ``xlsx`` extra).
        OSError: the file cannot be written.
    """
    from fourcards.extras import require

    require("xlsx", "poker analyze --xlsx")
    import xlsxwriter

    out = Path(path)
    wb = xlsxwriter.Workbook(str(out), {"strings_to_numbers": False, "strings_to_formulas": False,
                                        "strings_to_urls": False, "nan_inf_to_errors": True})
    ident = d["identity"]
    wb.set_properties({"title": f"{ident['game']} par sheet ({d['rules']['name']})",
                       "subject": f"exact figures: house edge {d['house_edge'] * 100:.4f}% per ante",
                       "author": f"{ident['software']} {ident['version']}",
                       "company": ident["software"],
                       "keywords": f"par sheet, {d['rules']['name']}, {ident['content_hash']}",
                       "comments": f"generated {ident['date']}; content hash {ident['content_hash']}"})
    styles = _styles(wb)
    footer = _footer(d)

    s = _Sheet(wb, "Summary", styles)
    notes: dict[tuple[int, int, int], str] = {}
    title = f"{ident['game']} par sheet"
    notes[(0, 0, 3)] = title
    s.note(title, 3, size=13)
    sub = "exact figures, complete enumeration of every deal"
    notes[(1, 0, 3)] = sub
    s.note(sub, 3)
    s.skip()
    for label, text in identity_rows(ident):
        s.put(s.row, 0, label, bold=True)
        s.text(s.row, 1, 6, text)
        s.row += 1
    s.skip()
    for label, value, fmt in summary_rows(d):
        s.put(s.row, 0, label)
        if isinstance(value, str):
            s.text(s.row, 1, 4, value)
        else:
            s.put(s.row, 1, value, fmt)
        s.row += 1
    s.skip()
    s.header(["wager", "expected value (per unit)", "house edge (per unit)", "element of risk", "return to player",
              "hit frequency", "standard deviation", "volatility index 90%", "volatility index 95%"])
    fmts = ["General", "pct", "pct", "pct", "pct", "avg", "sd", "sd", "sd"]
    wagers = [(SHEET_NAMES[k], w) for k, w in d["wagers"].items()]
    wagers += [(_side_sheet(b), b) for b in d.get("side_bets", [])]
    for name, w in wagers:
        s.line([name, w["expected_value"], w["house_edge"], w["element_of_risk"], w["return_to_player"],
                w["hit_frequency"], w["standard_deviation"], w["volatility_index"]["90"],
                w["volatility_index"]["95"]], fmts)
    s.skip()
    check_row = s.row
    s.skip()
    s.header(["strategy", "house edge", "element of risk", "return to player", "average total bet",
              "standard deviation", "cost vs optimal (per ante)"])
    for name, f in d["strategies"].items():
        s.line([name, f["house_edge"], f["element_of_risk"], f["return_to_player"], f["average_total_bet"],
                f["standard_deviation"], f["loss_vs_optimal"]], ["General", "pct", "pct", "pct", "avg", "sd", "pct"])
    s.skip()
    sw = d["rule_switches"]
    s.note("rule switches: the change each makes, by strategy", 0, bold=True)
    s.put(s.row, 0, "in force")
    s.text(s.row, 1, 6, "; ".join(ident["rule_switches"]))
    s.row += 1
    s.header(["strategy", "ante bonus only with a play bet (per ante)", "(per total wagered)",
              "Aces Up lost on a fold (per Aces Up bet)"])
    for name, e in sw["effects"].items():
        s.line([name, e["ante_bonus_requires_play"]["per_ante"], e["ante_bonus_requires_play"]["per_total_wagered"],
                e["aces_up_lost_on_fold"]["per_aces_up_bet"]], ["General", "pct", "pct", "pct"])
    s.skip()
    s.header(["Aces Up table", "return", "house edge"])
    for t in d["aces_up_tables"]:
        s.line([t["table"], t["return"], t["house_edge"]], ["General", "pct", "pct"])
    s.skip()
    s.note("exact figures (fractions)", 0, bold=True)
    for k, v in d["exact"].items():
        if isinstance(v, str):
            s.put(s.row, 0, k)
            s.text(s.row, 1, 4, v)
            s.row += 1

    totals: dict[str, tuple[str, int]] = {}
    for key, w in d["wagers"].items():
        totals[key] = _return_table_sheet(wb, styles, SHEET_NAMES[key], w, footer)
    for b in d.get("side_bets", []):
        _return_table_sheet(wb, styles, _side_sheet(b), b, footer)
    ap, ab, g = totals["ante_play"], totals["ante_bonus"], totals["game"]
    s.put(check_row, 0, "check: ante and play + ante bonus = base game (per ante)")
    s.formula(check_row, 1, f"='{ap[0]}'!E{ap[1]}+'{ab[0]}'!E{ab[1]}",
              d["wagers"]["ante_play"]["total"]["return"] + d["wagers"]["ante_bonus"]["total"]["return"], "pct")
    s.formula(check_row, 2, f"='{g[0]}'!E{g[1]}", d["wagers"]["game"]["total"]["return"], "pct")
    _merged_fits(s, notes)
    s.finish(3, footer, pages_tall=2)

    chart = d.get("strategy_chart")
    c = _Sheet(wb, "Strategy chart", styles)
    if chart is None:
        text = f"strategy {d['strategy']}: a policy, scored over every deal (no chart)"
        c.note(text, 0, bold=True)
    else:
        text = (f"Strategy chart: {chart['name']} (your best four against the dealer's up card; "
                f"fold, or the play bet in antes)")
        c.note(text, 13, size=13)
        c.header(["your hand", *chart["up_ranks"]])
        for row in chart["rows"]:
            c.put(c.row, 0, row["label"])
            for j, v in enumerate(row["decisions"]):
                c.ws.write_string(c.row, j + 1, v, styles[("decision", v)])
                c._track(j + 1, v)
            c.row += 1
        cost = d["strategies"].get({"optimal": "chart"}.get(d["strategy"], d["strategy"]))
        if cost is not None:
            c.skip()
            c.put(c.row, 0, "this chart's house edge (per ante)")
            c.put(c.row, 1, cost["house_edge"], "pct")
            c.row += 1
            c.put(c.row, 0, "its cost against optimal play (per ante)")
            c.put(c.row, 1, cost["loss_vs_optimal"], "pct")
            c.row += 1
        _merged_fits(c, {(0, 0, 13): text})
    c.finish(2, footer)
    wb.close()
    return out


def _side_sheet(b: dict[str, Any]) -> str:
    """The sheet (and CSV file) name of a side bet: ``Side bet <name>`` (31 characters at most)."""
    name = "".join(ch for ch in b["bet"]["name"] if ch.isalnum() or ch in "-_ ")
    return f"Side bet {name}"[:31]


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
    """Write the par sheet (its JSON form with ``identity``) as CSV files into ``directory`` (created if
    missing): ``identity.csv`` (field, value), ``summary.csv`` (figure, value), ``<wager>.csv`` per wager
    (the return table and a total row), ``hold_intervals.csv`` (wager, rounds, then the intervals),
    ``strategy_chart.csv`` (when the strategy has a chart) and ``side_bet_<name>.csv`` per side bet.
    Returns the paths written.

    Raises:
        OSError: the folder or a file cannot be written.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = [_write(out / "identity.csv", ("field", "value"), identity_rows(d["identity"]))]
    summary = [(label, value) for label, value, _ in summary_rows(d)]
    summary += [(f"{SHEET_NAMES[k]}: {label}", value) for k, w in d["wagers"].items()
                for label, value, _ in _wager_figures(w)]
    for name, e in d["rule_switches"]["effects"].items():
        summary += [(f"{name}: ante bonus only with a play bet, change per ante",
                     e["ante_bonus_requires_play"]["per_ante"]),
                    (f"{name}: Aces Up lost on a fold, change per Aces Up bet",
                     e["aces_up_lost_on_fold"]["per_aces_up_bet"])]
    paths.append(_write(out / "summary.csv", ("figure", "value"), summary))
    tables = [(k, w) for k, w in d["wagers"].items()]
    tables += [(_side_sheet(b).lower().replace(" ", "_"), b) for b in d.get("side_bets", [])]
    for key, w in tables:
        rows = [[r[c] for c in _COLUMNS] for r in w["rows"]]
        rows.append(["total", "", w["total"]["combinations"], w["total"]["probability"], w["total"]["return"], ""])
        paths.append(_write(out / f"{key}.csv", _COLUMNS, rows))
    paths.append(_write(out / "hold_intervals.csv", ["wager", *_hold_header()],
                        [[SHEET_NAMES[k], *values] for k, w in d["wagers"].items() for values in _hold_rows(w)]))
    chart = d.get("strategy_chart")
    if chart is not None:
        paths.append(_write(out / "strategy_chart.csv", ["hand", *chart["up_ranks"]],
                            [[row["hand"], *row["decisions"]] for row in chart["rows"]]))
    return paths

