"""The Four Card Poker par sheet (:class:`~fourcards.poker.analysis.ParSheet`) for people: Rich
tables, printed to a console or as plain text (``fourcards poker analyze``, ``--out``).

Rendering only: every figure comes from the sheet (``ParSheet.to_dict`` is its JSON form).
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

from fourcards.poker.analysis import GameFigures, ParSheet
from fourcards.poker.exact.returns import CONFIDENCES, HOLD_ROUNDS, VOLATILITY_CONFIDENCES, ReturnTable

__all__ = ["WAGER_NAMES", "strategy_rows", "return_table", "wager_figures", "hold_table", "identity_table",
           "switch_table", "win_cap_table", "renderables", "render", "to_text"]


def _pct(x: Fraction | float, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


def strategy_rows(sheet: ParSheet) -> list[tuple[str, GameFigures]]:
    """The strategies compared on the sheet: optimal, chart, simple, and the requested one if another."""
    rows = [("optimal", sheet.optimal), ("chart (by hand class and up card)", sheet.chart),
            ("simple (published)", sheet.simple)]
    if sheet.game.strategy not in ("optimal", "chart", "simple"):
        rows.append((sheet.game.strategy, sheet.game))
    return rows


def identity_table(identity: dict[str, Any]) -> Any:
    """The identity block (:func:`fourcards.report.identity.identity`) as a Rich table."""
    from rich.table import Table

    from fourcards.report.identity import identity_rows

    t = Table(title="Identity", show_header=False)
    t.add_column(justify="left")
    t.add_column(justify="left", overflow="fold")
    for label, text in identity_rows(identity):
        t.add_row(label, text)
    return t


def switch_table(sheet: ParSheet) -> Any:
    """The rule switches (docs/rules.md FCP-16, FCP-17) and the exact change each makes, by strategy."""
    from rich.table import Table

    r = sheet.rules
    t = Table(title="Rule switches: " + "; ".join(r.describe_switches()) + " - the change each makes")
    for col in ("strategy", "ante bonus only with a play bet (per ante)", "Aces Up lost on a fold (per Aces Up bet)"):
        t.add_column(col, justify="left" if col == "strategy" else "right")
    for name, f in sheet.strategy_figures().items():
        e = f.switch_effects(r.aces_up)
        t.add_row(name, _pct(e["ante_bonus_requires_play"], 6), _pct(e["aces_up_lost_on_fold"], 6))
    return t


def win_cap_table(sheet: ParSheet) -> Any | None:
    """The win cap (issue 31, item 4): where it binds, RTP and the chance a round hits it at the largest
    bets; None without a cap."""
    wc = sheet.win_cap
    if wc is None:
        return None
    from rich.table import Table

    def binds(a: int | None) -> str:
        return "never (within the table's limits)" if a is None else f"{a:,}"

    t = Table(title=f"Win cap {wc.cap:,} chips a round: binds from an ante of {binds(wc.binding_ante)} "
                    f"(no Aces Up bet), {binds(wc.binding_ante_with_aces_up)} (Aces Up bet = ante)")
    for col in ("ante", "Aces Up", "RTP under the cap", "RTP uncapped", "cost of the cap", "P(round hits cap)"):
        t.add_column(col, justify="right")
    for f in wc.rows:
        t.add_row(f"{f.ante:,}", f"{f.aces_up:,}", _pct(f.return_to_player), _pct(f.return_to_player_uncapped),
                  _pct(f.cost), _pct(f.hits_cap))
    return t


def renderables(sheet: ParSheet, identity: dict[str, Any] | None = None) -> list[Any]:
    """Rich renderables (tables) of the sheet, in order (the identity block first when given)."""
    from rich.table import Table

    r, g = sheet.rules, sheet.game
    out: list[Any] = [] if identity is None else [identity_table(identity)]
    head = Table(title=f"Four Card Poker par sheet - rules {r.name!r}", show_header=False)
    head.add_column(justify="left")
    head.add_column(justify="left")
    head.add_row("play bet", r.describe_play_bets())
    head.add_row("ante bonus (quads/SF/trips)", str(r.ante_bonus))
    head.add_row("Aces Up (4K/SF/3K/F/S/2P/AA)", str(r.aces_up))
    head.add_row("strategy", g.strategy)
    head.add_row("ties", "go to the player; the dealer always qualifies")
    head.add_row("rule switches", "; ".join(r.describe_switches()))
    head.add_row("win cap", "none" if r.win_cap is None else f"{r.win_cap:,} chips a round (see the win cap table)")
    out.append(head)
    cap = win_cap_table(sheet)
    if cap is not None:
        out.append(cap)

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

    out.append(wager_figures(sheet))
    out.append(return_table(sheet.wagers["game"]))
    out.append(return_table(sheet.wagers["ante_play"]))
    out.append(return_table(sheet.wagers["ante_bonus"]))
    out.append(hold_table(sheet.wagers["game"]))

    s = Table(title="Strategies compared")
    for col in ("strategy", "house edge", "element of risk", "RTP", "avg total bet", "cost vs optimal"):
        s.add_column(col, justify="right" if col != "strategy" else "left")
    for name, f in strategy_rows(sheet):
        s.add_row(name, _pct(f.house_edge), _pct(f.element_of_risk), _pct(f.return_to_player),
                  f"{float(f.average_total_bet):.4f}", _pct(f.house_edge - sheet.optimal.house_edge))
    out.append(s)

    au = sheet.aces_up
    out.append(return_table(sheet.wagers["aces_up"],
                            f"Aces Up {au.table}: return {_pct(au.return_)}, house edge {_pct(au.house_edge)}, "
                            f"standard deviation {au.standard_deviation:.6f} per unit bet"))
    out.append(hold_table(sheet.wagers["aces_up"]))

    out.append(switch_table(sheet))
    for b in sheet.side_bets:
        out.append(return_table(b.table, f"{b.table.title}: return {_pct(b.return_)}, house edge "
                                         f"{_pct(b.table.house_edge)} per unit bet ({b.bet.describe()})"))
    n = Table(title="Aces Up: named pay tables")
    for col in ("table", "return", "house edge"):
        n.add_column(col, justify="right" if col != "table" else "left")
    for named in sheet.aces_up_tables:
        n.add_row(str(named.table), _pct(named.return_), _pct(named.house_edge))
    out.append(n)
    return out


#: Short names of the wagers (:attr:`ParSheet.wagers` keys) for tables and sheet names.
WAGER_NAMES = {"game": "Base game", "ante_play": "Ante and play", "ante_bonus": "Ante bonus", "aces_up": "Aces Up"}


def return_table(table: ReturnTable, title: str | None = None) -> Any:
    """A wager's return table as a Rich table: outcome, pays, combinations, probability, return
    (pays x probability), and the total row (its return is the wager's expected value)."""
    from rich.table import Table

    t = Table(title=title or f"{table.title}: return table (per {table.unit})")
    for col in ("outcome", "pays", "combinations", "probability", "return"):
        t.add_column(col, justify="left" if col == "outcome" else "right")
    for row in table.rows:
        t.add_row(row.outcome, f"{row.pays:+d}", f"{row.combinations:,}", f"{float(table.probability(row)):.10f}",
                  f"{float(table.contribution(row)):+.8f}")
    t.add_row("total", "", f"{table.deals:,}", "1", f"{float(table.expected_value):+.8f}")
    return t


def wager_figures(sheet: ParSheet) -> Any:
    """The par sheet figures of every wager (:attr:`ParSheet.wagers`) as one Rich table."""
    from rich.table import Table

    t = Table(title="Par sheet: every wager (per unit: the ante, or the Aces Up bet)")
    cols = ["wager", "return per unit", "return per total wagered", "hit frequency", "standard deviation",
            *(f"volatility index {c * 100:g}%" for c in VOLATILITY_CONFIDENCES)]
    for col in cols:
        t.add_column(col, justify="left" if col == "wager" else "right")
    for key, table in sheet.wagers.items():
        t.add_row(WAGER_NAMES.get(key, table.title), _pct(table.expected_value), _pct(-table.element_of_risk),
                  f"{float(table.hit_frequency):.6f}", f"{table.standard_deviation:.6f}",
                  *(f"{table.volatility_index(c):.4f}" for c in VOLATILITY_CONFIDENCES))
    return t


def hold_table(table: ReturnTable) -> Any:
    """The hold intervals of a wager per total wagered: after 100 ... 1,000,000 rounds, the range
    the house's hold falls in with 90, 95 and 99 % probability (normal approximation)."""
    from rich.table import Table

    t = Table(title=f"{table.title}: hold per total wagered after N rounds, % "
                    f"(expected {_pct(table.element_of_risk, 3)})")
    t.add_column("rounds", justify="right")
    for c in CONFIDENCES:
        t.add_column(f"{c * 100:g}% interval", justify="right")
    for n in HOLD_ROUNDS:
        cells = []
        for c in CONFIDENCES:
            lo, hi = table.hold_interval(n, c, per_total_wagered=True)
            cells.append(f"{lo * 100:+.2f} to {hi * 100:+.2f}")
        t.add_row(f"{n:,}", *cells)
    return t


def render(sheet: ParSheet, console: Any, identity: dict[str, Any] | None = None) -> None:
    """Print the sheet's tables (:func:`renderables`, the identity block first when given) and its
    timings to a Rich ``console``."""
    for r in renderables(sheet, identity):
        console.print(r)
    console.print(f"dealer counts: {sheet.counts_source} ({sheet.counts_seconds:.2f} s); "
                  f"sheet in {sheet.seconds:.2f} s")


def to_text(sheet: ParSheet, width: int = 110, identity: dict[str, Any] | None = None) -> str:
    """The sheet as plain text (for ``--out``)."""
    from rich.console import Console

    buf = io.StringIO()
    render(sheet, Console(file=buf, width=width, no_color=True, force_terminal=False), identity)
    return buf.getvalue()
