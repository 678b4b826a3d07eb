"""The Four Card Poker par sheet (:class:`~fourcards.poker.analysis.ParSheet`) for people: Rich
tables, printed to a console or as plain text (``fourcards poker analyze``, ``--out``).

Rendering only: every figure comes from the sheet (``ParSheet.to_dict`` is its JSON form).
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

from fourcards.poker.analysis import N_HANDS5, GameFigures, ParSheet

__all__ = ["strategy_rows", "renderables", "render", "to_text"]


def _pct(x: Fraction | float, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


def strategy_rows(sheet: ParSheet) -> list[tuple[str, GameFigures]]:
    """The strategies compared on the sheet: optimal, chart, simple, and the requested one if another."""
    rows = [("optimal", sheet.optimal), ("chart (by hand class and up card)", sheet.chart),
            ("simple (published)", sheet.simple)]
    if sheet.game.strategy not in ("optimal", "chart", "simple"):
        rows.append((sheet.game.strategy, sheet.game))
    return rows


def renderables(sheet: ParSheet) -> list[Any]:
    """Rich renderables (tables) of the sheet, in order."""
    from rich.table import Table

    r, g = sheet.rules, sheet.game
    out: list[Any] = []
    head = Table(title=f"Four Card Poker par sheet - rules {r.name!r}", show_header=False)
    head.add_column(justify="left")
    head.add_column(justify="left")
    head.add_row("play bet", r.describe_play_bets())
    head.add_row("ante bonus (quads/SF/trips)", str(r.ante_bonus))
    head.add_row("Aces Up (4K/SF/3K/F/S/2P/AA)", str(r.aces_up))
    head.add_row("strategy", g.strategy)
    head.add_row("ties", "go to the player; the dealer always qualifies")
    out.append(head)

    t = Table(title="Ante and play: exact figures")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_row("house edge (per ante)", _pct(g.house_edge, 5))
    t.add_row("element of risk (per total wagered)", _pct(g.element_of_risk, 5))
    t.add_row("return to player (1 - element of risk)", _pct(g.return_to_player, 5))
    t.add_row("average total bet (antes)", f"{float(g.average_total_bet):.6f}")
    t.add_row("standard deviation (of a round's net, antes)", f"{g.standard_deviation:.6f}")
    t.add_row("ante bonus return (per ante)", _pct(g.ante_bonus_return, 5))
    for k, v in g.decisions.items():
        t.add_row(f"P({k})", f"{float(v):.6f}")
    t.add_row("P(win)", f"{float(g.win):.6f}")
    t.add_row("P(tie, paid to the player)", f"{float(g.tie):.6f}")
    t.add_row("P(lose)", f"{float(g.lose):.6f}")
    out.append(t)

    o = Table(title="Outcomes (per ante)")
    for col in ("decision", "hand", "result", "net", "probability", "return"):
        o.add_column(col, justify="right" if col in ("net", "probability", "return") else "left")
    for row in g.outcomes:
        o.add_row(row.option, row.hand, row.result, f"{row.net:+d}", f"{float(row.probability):.8f}",
                  f"{float(row.contribution):+.6f}")
    o.add_row("total", "", "", "", "1", f"{float(g.expected_value):+.6f}")
    out.append(o)

    s = Table(title="Strategies compared")
    for col in ("strategy", "house edge", "element of risk", "RTP", "avg total bet", "cost vs optimal"):
        s.add_column(col, justify="right" if col != "strategy" else "left")
    for name, f in strategy_rows(sheet):
        s.add_row(name, _pct(f.house_edge), _pct(f.element_of_risk), _pct(f.return_to_player),
                  f"{float(f.average_total_bet):.4f}", _pct(f.house_edge - sheet.optimal.house_edge))
    out.append(s)

    a = Table(title=f"Aces Up {sheet.aces_up.table}: return {_pct(sheet.aces_up.return_)}, "
                    f"house edge {_pct(sheet.aces_up.house_edge)}, standard deviation "
                    f"{sheet.aces_up.standard_deviation:.6f} per unit bet")
    for col in ("hand", "pays", "count", "probability", "return"):
        a.add_column(col, justify="left" if col == "hand" else "right")
    for _, label, p, c in sheet.aces_up.hands:
        a.add_row(label, f"{p} to 1" if p >= 0 else "loses", f"{c:,}", f"{c / N_HANDS5:.8f}",
                  f"{c * (p + 1) / N_HANDS5:.6f}" if p >= 0 else "0")
    a.add_row("total", "", f"{N_HANDS5:,}", "1", f"{float(sheet.aces_up.return_):.6f}")
    out.append(a)

    n = Table(title="Aces Up: named pay tables")
    for col in ("table", "return", "house edge"):
        n.add_column(col, justify="right" if col != "table" else "left")
    for named in sheet.aces_up_tables:
        n.add_row(str(named.table), _pct(named.return_), _pct(named.house_edge))
    out.append(n)
    return out


def render(sheet: ParSheet, console: Any) -> None:
    """Print the sheet's tables (:func:`renderables`) and its timings to a Rich ``console``."""
    for r in renderables(sheet):
        console.print(r)
    console.print(f"dealer counts: {sheet.counts_source} ({sheet.counts_seconds:.2f} s); "
                  f"sheet in {sheet.seconds:.2f} s")


def to_text(sheet: ParSheet, width: int = 110) -> str:
    """The sheet as plain text (for ``--out``)."""
    from rich.console import Console

    buf = io.StringIO()
    render(sheet, Console(file=buf, width=width, no_color=True, force_terminal=False))
    return buf.getvalue()
