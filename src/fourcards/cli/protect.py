"""``fourcards poker protect``: what seeing dealer hole cards or other players' cards is worth
(:mod:`fourcards.poker.exact.protect`)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from fourcards.cli.app import console, err_console, fail, poker_app
from fourcards.errors import FourcardsError, RulesError

#: The scenarios of the default table: (hole cards seen, colluders) by Monte Carlo.
DEFAULT_SCENARIOS = ((2, 0), (0, 1), (0, 2), (0, 3))


def _pct(x: Any, digits: int = 2) -> str:
    return f"{float(x) * 100:+.{digits}f}%"


@poker_app.command("protect")
def protect_cmd(
    hole_cards: Annotated[int | None, typer.Option("--hole-cards", min=0, max=4, help="Dealer hole cards seen "
                                                   "(1: exact; 2-4: Monte Carlo).")] = None,
    colluders: Annotated[int | None, typer.Option("--colluders", min=0, max=8, help="Other players showing the "
                                                  "player their five cards (Monte Carlo).")] = None,
    rounds: Annotated[int | None, typer.Option("--rounds", min=1, max=1_000_000, help="Deals per Monte Carlo "
                                               "scenario (default 20,000 with hole cards, 2,000 with "
                                               "colluders).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the Monte Carlo deals.")] = 1,
    cards: Annotated[str | None, typer.Option("--hand", help="One situation: the player's five cards.")] = None,
    up: Annotated[str | None, typer.Option("--up", help="With --hand: the dealer's up card.")] = None,
    hole: Annotated[str | None, typer.Option("--hole", help="With --hand: dealer hole cards seen.")] = None,
    others: Annotated[str | None, typer.Option("--others", help="With --hand: other players' cards seen.")]
    = None,
    pairs: Annotated[bool, typer.Option("--pairs", help="The exact table per (up card, flashed hole card) pair "
                                        "(one hole card).")] = False,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: live or online.")] = "live",
    ante_bonus: Annotated[str | None, typer.Option("--ante-bonus", help="Ante bonus table.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Game protection: the player's edge with a flashed hole card (exact), more hole cards and
    colluders (Monte Carlo, every decision the exact best given the known cards)."""
    try:
        from fourcards.poker import analysis as an
        from fourcards.poker.exact import protect as pr
        from fourcards.poker.rules import get_rules
        from fourcards.report.analyze import progress_bar

        r = get_rules(rules, ante_bonus=ante_bonus)
        if cards is not None or up is not None or hole is not None or others is not None:
            if cards is None or up is None:
                raise RulesError("one situation needs --hand CARDS and --up CARD (and --hole / --others)")
            _situation(pr.hand_with_cards(cards, up, hole or (), others or (), r), as_json)
            return
        with progress_bar(err_console) as progress:
            counts = an.exact_counts(progress=progress)
        if pairs:
            if hole_cards not in (None, 1) or colluders:
                raise RulesError("--pairs is the exact table of one flashed hole card: no --hole-cards N > 1 or "
                                 "--colluders")
            _pairs(_exact(pr, r, counts), r, as_json)
            return
        base = an.analyze(r, counts=counts)
        exact = None
        if (hole_cards is None and colluders is None) or (hole_cards == 1 and not colluders):
            exact = _exact(pr, r, counts)
        if hole_cards is None and colluders is None:
            scenarios = list(DEFAULT_SCENARIOS)
        elif (hole_cards or 0) + (colluders or 0) == 0:
            scenarios = []
        elif hole_cards == 1 and not colluders:
            scenarios = []
        else:
            scenarios = [(hole_cards or 0, colluders or 0)]
        estimates = [pr.protection_mc(r, hole_cards=h, colluders=c, rounds=rounds, seed=seed, counts=counts)
                     for h, c in scenarios]
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps({"rules": r.to_dict(), "no_extra_cards": {"expected_value": float(base.expected_value),
                                                                   "house_edge": float(base.house_edge)},
                          "one_hole_card": None if exact is None else exact.to_dict(),
                          "monte_carlo": [e.to_dict() for e in estimates]}, indent=2))
        return
    _table(r, base, exact, estimates)


def _exact(pr: Any, r: Any, counts: Any) -> Any:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    if pr.hole_card_cached(r):
        return pr.hole_card_exact(r, counts=counts)
    with Progress(TextColumn("one hole card, exact (first run, cached afterwards)"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} (up card, hole card) pairs"), TimeElapsedColumn(),
                  console=err_console, transient=True) as bar:
        task = bar.add_task("hole", total=325)
        return pr.hole_card_exact(r, counts=counts, progress=lambda done, total: bar.update(task, completed=done))


def _table(r: Any, base: Any, exact: Any, estimates: list[Any]) -> None:
    from rich.table import Table

    t = Table(title=f"Game protection ({r.name}): the player's edge per ante (+ the player wins) with "
                    "cards seen")
    for col in ("what the player sees", "player's edge", "95% interval", "vs nothing seen", "decisions changed",
                "method"):
        t.add_column(col, justify="left" if col in ("what the player sees", "method") else "right")
    t.add_row("the up card only (the game)", _pct(base.expected_value, 3), "exact", "", "", "exact")
    if exact is not None:
        t.add_row("one hole card (flashed)", _pct(exact.expected_value, 3), "exact", _pct(exact.gain, 3),
                  f"{float(exact.changed) * 100:.2f}%", "exact, every deal")
    for e in estimates:
        what = ", ".join(x for x in (f"{e.hole_cards} hole card{'s' if e.hole_cards != 1 else ''}" if e.hole_cards
                                     else "", f"{e.colluders} colluder{'s' if e.colluders != 1 else ''}"
                                     if e.colluders else "") if x)
        lo, hi = e.interval(0.95)
        t.add_row(what, _pct(e.expected_value, 3), f"{lo * 100:+.3f} to {hi * 100:+.3f}",
                  f"{e.gain_mean * 100:+.3f}%", f"{e.changed * 100:.2f}%",
                  f"Monte Carlo, {e.rounds:,} deals, seed {e.seed}")
    console.print(t)
    lines = []
    if exact is not None:
        lines.append(f"one hole card seen: the player's edge becomes {_pct(exact.expected_value)} "
                     f"(from {_pct(base.expected_value)})")
    for e in estimates:
        who = (f"{e.hole_cards} hole cards" if e.hole_cards else "") + (" and " if e.hole_cards and e.colluders
                                                                       else "") + (
            f"{e.colluders} colluder{'s' if e.colluders != 1 else ''}" if e.colluders else "")
        lines.append(f"{who}: {_pct(e.expected_value)} (+- {1.96 * e.standard_error * 100:.2f}%)")
    for line in lines:
        console.print(line)
    if exact is not None:
        g = exact.gain_by_hole_rank
        console.print("value of the flashed card by its rank (per ante): "
                      + ", ".join(f"{k} {float(v) * 100:+.2f}%" for k, v in g.items()))


def _pairs(exact: Any, r: Any, as_json: bool) -> None:
    """``--pairs``: every (up card, flashed card) pair, exactly (325 up to suit symmetry)."""
    if as_json:
        print(json.dumps({"rules": r.to_dict(), "one_hole_card": exact.to_dict(pairs=True)}, indent=2))
        return
    from rich.table import Table

    t = Table(title=f"One flashed hole card ({r.name}), per (up card, flashed card): the player's edge per ante, "
                    "exact (suited: the flashed card has the up card's suit)")
    for col in ("up card", "flashed card", "player's edge", "without the card", "gain", "decisions changed",
                "deals"):
        t.add_column(col, justify="right")
    for p in exact.pairs:
        t.add_row(p.up, p.hole + (" suited" if p.suited else ""), _pct(p.expected_value, 4),
                  _pct(p.expected_value_without, 4), _pct(p.gain, 4), f"{float(p.changed) * 100:.2f}%", f"{p.triples:,}")
    console.print(t)
    console.print(f"all pairs: the player's edge {_pct(exact.expected_value, 4)} per ante "
                  f"(gain {_pct(exact.gain, 4)}); {exact.triples:,} (hand, up card, hole card) triples")


def _situation(res: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps({**res, "ev": {k: float(v) for k, v in res["ev"].items()}}, indent=2))
        return
    from rich.table import Table

    t = Table(title=f"{res['completions']:,} dealer completions: {res['le']:,} beaten or tied")
    t.add_column("option")
    t.add_column("EV (antes)", justify="right")
    for k, v in res["ev"].items():
        t.add_row(k + (" [bold green]<- best[/]" if k == res["decision"] else ""), f"{float(v):+.6f}")
    console.print(t)
