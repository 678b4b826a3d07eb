"""Par sheets and strategy cards to print, as PDF (the ``pdf`` extra: fpdf2; no browser).

* :func:`write_par_sheet` - ``poker analyze --pdf FILE``: the par sheet a regulator reads: the
  identity block, the headline figures, every wager's return table and figures, the strategies
  compared, the rule switches' effects, the win cap (when the rules have one), side bets, the
  named Aces Up tables and the strategy chart assumed; A4 portrait, a footer with the game, the
  rules, the software version, the date and "page n of m" on every page.
* :func:`write_strategy_card` - ``poker strategy --card --pdf FILE``: a one-page card (A4
  landscape) of a strategy chart, its house edge and its cost against optimal play.

Rendering only, from the par sheet's JSON form with its identity block: every figure printed is
the JSON's, formatted as the terminal report formats it (percentages to 4 places in the
summaries; a return table's probability to 10 places and return to 8). Text is Latin-1 (the PDF
core fonts); anything else is replaced by ``?``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fourcards.report.identity import identity_rows

__all__ = ["write_par_sheet", "write_strategy_card", "pct", "return_row_cells"]

_DECISION_FILL = {"fold": (217, 217, 217), "1x": (253, 217, 106), "2x": (143, 211, 232), "3x": (76, 175, 80)}


def pct(x: float, digits: int = 4) -> str:
    """``0.0278785 -> "2.7879%"`` (the format of every percentage on the sheet)."""
    return f"{x * 100:.{digits}f}%"


def return_row_cells(row: dict[str, Any]) -> list[str]:
    """A return table row as printed: outcome, pays (signed), combinations (with separators),
    probability (10 places), return (8 places, signed)."""
    return [row["outcome"], f"{row['pays']:+d}", f"{row['combinations']:,}", f"{row['probability']:.10f}",
            f"{row['return']:+.8f}"]


def _latin1(text: str) -> str:
    return str(text).encode("latin-1", "replace").decode("latin-1")


def _document(footer: str, orientation: str = "P") -> Any:
    from fpdf import FPDF

    class _Doc(FPDF):
        def footer(self) -> None:
            self.set_y(-11)
            self.set_font("Helvetica", size=7)
            self.cell(0, 5, _latin1(f"{footer}   page {self.page_no()} of {{nb}}"), align="C")

    doc = _Doc(orientation=orientation, unit="mm", format="A4")
    doc.set_margins(12, 12, 12)
    doc.set_auto_page_break(True, margin=14)
    doc.alias_nb_pages()
    return doc


def _heading(doc: Any, text: str, size: int = 11) -> None:
    doc.set_font("Helvetica", "B", size)
    doc.ln(2)
    doc.multi_cell(0, 5.5, _latin1(text), new_x="LMARGIN", new_y="NEXT")
    doc.set_font("Helvetica", size=8)


def _table(doc: Any, header: Sequence[str] | None, rows: Sequence[Sequence[str]], widths: Sequence[float],
           align: Sequence[str] | None = None, fills: Sequence[Sequence[Any]] | None = None) -> None:
    from fpdf.fonts import FontFace

    doc.set_font("Helvetica", size=8)
    aligns = tuple(align or ["LEFT"] + ["RIGHT"] * (len(widths) - 1))
    with doc.table(col_widths=tuple(widths), text_align=aligns, first_row_as_headings=header is not None,
                   line_height=4.2, width=sum(widths), align="LEFT",
                   headings_style=FontFace(emphasis="BOLD")) as t:
        if header is not None:
            r = t.row()
            for h in header:
                r.cell(_latin1(h))
        for i, row in enumerate(rows):
            r = t.row()
            for j, cell in enumerate(row):
                fill = fills[i][j] if fills is not None else None
                r.cell(_latin1(cell), style=FontFace(fill_color=fill) if fill else None)
    doc.ln(1)


def _footer_text(d: dict[str, Any]) -> str:
    ident = d["identity"]
    r = d["rules"]
    return (f"{ident['game']} par sheet, rules {r['name']} (ante bonus {r['ante_bonus']}, Aces Up {r['aces_up']}); "
            f"{ident['software']} {ident['version']}, {ident['date']}")


def _figure_rows(d: dict[str, Any]) -> list[list[str]]:
    rows = [["house edge (per ante)", pct(d["house_edge"])],
            ["element of risk (per total wagered)", pct(d["element_of_risk"])],
            ["return to player (1 - element of risk)", pct(d["return_to_player"])],
            ["average total bet (antes)", f"{d['average_total_bet']:.6f}"],
            ["standard deviation (of a round's net, antes)", f"{d['standard_deviation']:.4f}"],
            ["ante bonus return (per ante)", pct(d["ante_bonus_return"])],
            ["Aces Up return", pct(d["aces_up"]["return"])],
            ["Aces Up house edge", pct(d["aces_up"]["house_edge"])]]
    rows += [[f"P({k})", f"{v:.6f}"] for k, v in d["decisions"].items()]
    rows += [[f"P({k})", f"{v:.6f}"] for k, v in d["frequencies"].items() if k != "fold"]
    return rows


def _wager_summary(name: str, w: dict[str, Any]) -> list[str]:
    rtp = "" if w["return_to_player"] is None else pct(w["return_to_player"])
    return [name, pct(w["expected_value"]), pct(w["house_edge"]), pct(w["element_of_risk"]), rtp,
            f"{w['hit_frequency']:.6f}", f"{w['standard_deviation']:.4f}", f"{w['volatility_index']['90']:.4f}",
            f"{w['volatility_index']['95']:.4f}"]


def _return_table(doc: Any, w: dict[str, Any], title: str | None = None) -> None:
    _heading(doc, title or f"{w['title']}: return table (per {w['unit']}, {w['deals']:,} combinations)", 10)
    rows = [return_row_cells(r) for r in w["rows"]]
    rows.append(["total", "", f"{w['total']['combinations']:,}", f"{w['total']['probability']:.10f}",
                 f"{w['total']['return']:+.8f}"])
    _table(doc, ["outcome", "pays", "combinations", "probability", "return"], rows, (72, 16, 38, 30, 30))
    hold = [h for h in w["hold_intervals"] if h["rounds"] in (1_000, 100_000)]
    notes = [f"house edge {pct(w['house_edge'])} per {w['unit']}", f"hit frequency {w['hit_frequency']:.6f}",
             f"SD {w['standard_deviation']:.4f}", f"VI 90% {w['volatility_index']['90']:.4f}"]
    notes += [f"hold after {h['rounds']:,} rounds (95%): {pct(h['per_total_wagered']['95'][0], 2)} to "
              f"{pct(h['per_total_wagered']['95'][1], 2)} per total wagered" for h in hold]
    doc.set_font("Helvetica", size=8)
    doc.multi_cell(0, 4, _latin1("; ".join(notes)), new_x="LMARGIN", new_y="NEXT")


def _chart(doc: Any, chart: dict[str, Any], widths: tuple[float, float] = (46, 10.5)) -> None:
    rows = [[row["label"], *row["decisions"]] for row in chart["rows"]]
    fills = [[None, *(_DECISION_FILL.get(x) for x in row["decisions"])] for row in chart["rows"]]
    _table(doc, ["your hand", *chart["up_ranks"]], rows, (widths[0], *([widths[1]] * len(chart["up_ranks"]))),
           ["LEFT"] + ["CENTER"] * len(chart["up_ranks"]), fills)


def write_par_sheet(d: dict[str, Any], path: str | Path) -> Path:
    """Write the par sheet (its JSON form with ``identity``) as a PDF to print (module doc). Returns
    the path written.

    Raises:
        MissingExtraError: fpdf2 is not installed (the ``pdf`` extra).
        OSError: the file cannot be written.
    """
    from fourcards.extras import require

    require("pdf", "poker analyze --pdf")
    ident = d["identity"]
    doc = _document(_footer_text(d))
    doc.set_title(_latin1(f"{ident['game']} par sheet ({d['rules']['name']})"))
    doc.set_author(_latin1(f"{ident['software']} {ident['version']}"))
    doc.set_creator(_latin1(f"{ident['software']} {ident['version']}"))
    doc.set_subject(_latin1(f"content hash {ident['content_hash']}"))
    doc.add_page()
    _heading(doc, f"{ident['game']} par sheet", 15)
    doc.set_font("Helvetica", size=8)
    doc.multi_cell(0, 4, "Exact figures: a complete enumeration of every deal (no sampling).",
                   new_x="LMARGIN", new_y="NEXT")
    _heading(doc, "Identity")
    _table(doc, None, [[label, text] for label, text in identity_rows(ident)], (58, 128), ["LEFT", "LEFT"])
    _heading(doc, f"Ante and play: the game under the {d['strategy']} strategy")
    _table(doc, None, _figure_rows(d), (80, 40))
    cap = d.get("win_cap")
    if cap:
        def binds(a: int | None) -> str:
            return "never (within the table's limits)" if a is None else f"{a:,}"

        _heading(doc, f"Win cap: {cap['cap']:,} chips a round; it binds from an ante of {binds(cap['binding_ante'])} "
                      f"(no Aces Up bet), {binds(cap['binding_ante_with_aces_up'])} (Aces Up bet = ante)")
        _table(doc, ["ante", "Aces Up bet", "RTP under the cap", "RTP uncapped", "cost of the cap",
                     "P(round hits the cap)"],
               [[f"{f['ante']:,}", f"{f['aces_up']:,}", pct(f["return_to_player"]), pct(f["return_to_player_uncapped"]),
                 pct(f["cost"]), pct(f["hits_cap"])] for f in cap["rows"]], (20, 24, 34, 34, 34, 38))
    _heading(doc, "Every wager (per unit: the ante, the Aces Up bet or the side bet)")
    wagers = [(n, d["wagers"][k]) for k, n in (("game", "base game"), ("ante_play", "ante and play"),
                                               ("ante_bonus", "ante bonus"), ("aces_up", "Aces Up"))]
    wagers += [(f"side bet {b['bet']['name']}", b) for b in d.get("side_bets", [])]
    _table(doc, ["wager", "return", "house edge", "per total wagered", "RTP", "hit frequency", "SD", "VI 90%",
                 "VI 95%"], [_wager_summary(n, w) for n, w in wagers], (30, 19, 19, 24, 19, 21, 17, 17, 17))
    _heading(doc, "Strategies compared")
    _table(doc, ["strategy", "house edge", "element of risk", "RTP", "average total bet", "SD", "cost vs optimal"],
           [[n, pct(f["house_edge"]), pct(f["element_of_risk"]), pct(f["return_to_player"]),
             f"{f['average_total_bet']:.4f}", f"{f['standard_deviation']:.4f}", pct(f["loss_vs_optimal"])]
            for n, f in d["strategies"].items()], (40, 22, 24, 22, 28, 18, 26))
    sw = d["rule_switches"]
    _heading(doc, "Rule switches in force: " + "; ".join(ident["rule_switches"])
             + ". The change each switch makes, by strategy (zero when the strategy folds no pair of aces or better):")
    _table(doc, ["strategy", "ante bonus only with a play bet, per ante", "per total wagered",
                 "Aces Up lost on a fold, per Aces Up bet"],
           [[n, pct(e["ante_bonus_requires_play"]["per_ante"], 6), pct(e["ante_bonus_requires_play"]["per_total_wagered"], 6),
             pct(e["aces_up_lost_on_fold"]["per_aces_up_bet"], 6)] for n, e in sw["effects"].items()],
           (40, 52, 34, 52))
    for key in ("game", "ante_play", "ante_bonus", "aces_up"):
        _return_table(doc, d["wagers"][key])
    for b in d.get("side_bets", []):
        _return_table(doc, b, f"{b['title']}: {b['bet']['description']}")
    _heading(doc, "Aces Up: named pay tables")
    _table(doc, ["table", "return", "house edge"],
           [[t["table"], pct(t["return"]), pct(t["house_edge"])] for t in d["aces_up_tables"]], (40, 30, 30))
    chart = d.get("strategy_chart")
    if chart is not None:
        doc.add_page()
        _heading(doc, f"Strategy chart assumed: {chart['name']} (your best four against the dealer's up card; "
                      "fold, or the play bet in antes)")
        _chart(doc, chart)
    doc.output(str(path))
    return Path(path)


def write_strategy_card(chart: dict[str, Any], summary: dict[str, dict[str, float]], rules: dict[str, Any],
                        path: str | Path, *, name: str = "chart") -> Path:
    """Write a one-page strategy card (A4 landscape): the chart (``StrategyChart.to_dict``), coloured
    by decision, with its house edge and its cost against optimal play (``summary``: the
    ``strategies`` of ``poker strategy --chart --json``; ``name`` the chart's entry there). Returns the
    path written.

    Raises:
        MissingExtraError: fpdf2 is not installed (the ``pdf`` extra).
        OSError: the file cannot be written.
    """
    from fourcards import __version__
    from fourcards.extras import require
    from fourcards.report.identity import GAME, SOFTWARE, today

    require("pdf", "poker strategy --card --pdf")
    mine, best = summary[name], summary["optimal"]
    footer = (f"{GAME} strategy card, rules {rules['name']} (ante bonus {rules['ante_bonus']}); "
              f"{SOFTWARE} {__version__}, {today()}")
    doc = _document(footer, "L")
    doc.set_title(_latin1(f"{GAME} strategy card ({rules['name']})"))
    doc.set_author(_latin1(f"{SOFTWARE} {__version__}"))
    doc.add_page()
    _heading(doc, f"{GAME} strategy card: rules {rules['name']}, ante bonus {rules['ante_bonus']}", 14)
    doc.set_font("Helvetica", size=9)
    doc.multi_cell(0, 4.5, _latin1(
        "Find your best four cards (row) and the dealer's up card (column): fold, or play 1x, 2x or 3x the ante. "
        f"House edge with this card {pct(mine['house_edge'])} per ante against {pct(best['house_edge'])} with "
        f"optimal play: it costs {pct(mine['loss_vs_optimal'])} of the ante (return to player "
        f"{pct(mine['return_to_player'])} against {pct(best['return_to_player'])})."), new_x="LMARGIN", new_y="NEXT")
    doc.ln(1)
    _chart(doc, chart, (62, 15.5))
    doc.set_font("Helvetica", size=8)
    doc.multi_cell(0, 4, _latin1("Colours: grey fold, yellow 1x, blue 2x, green 3x. Ties go to the player; the dealer "
                                 "always qualifies."), new_x="LMARGIN", new_y="NEXT")
    doc.output(str(path))
    return Path(path)
