"""``fourcards poker design``: the whole-number pay tables nearest a target return, or one pay swept
(:mod:`fourcards.poker.exact.design`)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from fourcards.cli.app import console, fail, poker_app
from fourcards.errors import FourcardsError, RulesError


def _sweep_key(text: str) -> tuple[str, str]:
    """``("aces_up" | "ante_bonus", key)`` of ``--sweep``: ``AA``, ``aces-up:AA`` or ``ante-bonus:3K``."""
    from fourcards.poker.exact import design as d

    wager, sep, pay = text.partition(":")
    if not sep:
        return "aces_up", d.parse_pay_key(text, d.ACES_UP_KEYS)
    w = wager.strip().lower().replace("_", "-")
    if w == "aces-up":
        return "aces_up", d.parse_pay_key(pay, d.ACES_UP_KEYS)
    if w in ("ante-bonus", "bonus"):
        return "ante_bonus", d.parse_pay_key(pay, d.ANTE_BONUS_KEYS)
    raise RulesError(f"--sweep takes PAY, aces-up:PAY or ante-bonus:PAY, got {text[:40]!r}")


def _pct(x: Any, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


@poker_app.command("design")
def design_cmd(
    aces_up_rtp: Annotated[str | None, typer.Option("--aces-up-rtp", help="Target Aces Up return, percent "
                                                    "(e.g. 96.5).")] = None,
    game_rtp: Annotated[str | None, typer.Option("--game-rtp", help="Target game RTP per total wagered, percent: "
                                                 "searches ante bonus tables, the play re-optimised.")] = None,
    sweep: Annotated[str | None, typer.Option("--sweep", help="Vary one pay: AA, aces-up:4K, ante-bonus:3K, "
                                              "...")] = None,
    sweep_from: Annotated[int, typer.Option("--from", min=0, help="First pay of --sweep.")] = 0,
    sweep_to: Annotated[int | None, typer.Option("--to", min=0, help="Last pay of --sweep (default "
                                                 "--max-pay).")] = None,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: live or online.")] = "live",
    ante_bonus: Annotated[str | None, typer.Option("--ante-bonus", help="The ante bonus table to start from "
                                                   "(default the preset's).")] = None,
    aces_up: Annotated[str | None, typer.Option("--aces-up", help="The Aces Up table to start from (a --sweep; "
                                                "default the preset's).")] = None,
    max_pay: Annotated[int, typer.Option("--max-pay", min=0, help="Largest pay, N to 1.")] = 50,
    min_pay: Annotated[int, typer.Option("--min-pay", min=0, help="Smallest pay, N to 1.")] = 1,
    fix: Annotated[list[str] | None, typer.Option("--fix", help="Keep a pay fixed, e.g. 4K=50 (repeatable).")]
    = None,
    allow_equal: Annotated[bool, typer.Option("--allow-equal", help="Let neighbouring hands pay the same "
                                              "(default: pays strictly decrease down the ranking).")] = False,
    top: Annotated[int, typer.Option("--top", min=1, max=100, help="How many tables to list.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Pay tables nearest a target return (Aces Up, or the ante bonus for a game RTP), exact."""
    try:
        chosen = [o for o, v in (("--aces-up-rtp", aces_up_rtp), ("--game-rtp", game_rtp), ("--sweep", sweep))
                  if v is not None]
        if len(chosen) != 1:
            fail("give one of --aces-up-rtp PCT, --game-rtp PCT or --sweep PAY"
                 + (f" (got {' and '.join(chosen)})" if chosen else ""))
        from fourcards.poker.exact import design as d
        from fourcards.poker.rules import get_rules

        r = get_rules(rules, ante_bonus=ante_bonus, aces_up=aces_up)
        if sweep is not None:
            _sweep(r, sweep, sweep_from, max_pay if sweep_to is None else sweep_to, as_json)
            return
        wager = "aces_up" if aces_up_rtp is not None else "ante_bonus"
        keys = d.ACES_UP_KEYS if wager == "aces_up" else d.ANTE_BONUS_KEYS
        fixed = d.parse_fixed(fix or [], keys)
        limits: dict[str, Any] = {"max_pay": max_pay, "min_pay": min_pay, "fixed": fixed, "strict": not allow_equal,
                                  "top": top}
        if wager == "aces_up":
            target = d.parse_target(aces_up_rtp or "", "--aces-up-rtp")
            found: list[Any] = d.design_aces_up(target, **limits)
        else:
            from fourcards.report.analyze import progress_bar

            target = d.parse_target(game_rtp or "", "--game-rtp")
            from fourcards.poker import analysis as an

            with progress_bar() as progress:
                counts = an.exact_counts(progress=progress)
            found = d.design_ante_bonus(target, r, counts=counts, **limits)
    except FourcardsError as exc:
        fail(str(exc))
    constraints = {"max_pay": max_pay, "min_pay": min_pay, "fixed": {keys[k]: v for k, v in fixed.items()},
                   "pays": "never increasing" if allow_equal else "strictly decreasing"}
    if as_json:
        print(json.dumps({"wager": wager, "target": float(target), "rules": r.to_dict(),
                          "constraints": constraints, "tables": [f.to_dict() for f in found]}, indent=2))
        return
    _print_designs(wager, target, found, constraints)


def _print_designs(wager: str, target: Any, found: list[Any], constraints: dict[str, Any]) -> None:
    from rich.table import Table

    fixed = ", ".join(f"{k}={v}" for k, v in constraints["fixed"].items()) or "none"
    what = "Aces Up (4K/SF/3K/F/S/2P/AA)" if wager == "aces_up" else "ante bonus (4K/SF/3K), game RTP"
    t = Table(title=f"{what} nearest {_pct(target)}: pays {constraints['pays']}, "
                    f"{constraints['min_pay']}..{constraints['max_pay']} to 1, fixed {fixed}")
    cols: tuple[str, ...]
    if wager == "aces_up":
        cols = ("#", "table", "return", "vs target", "house edge", "standard deviation")
    else:
        cols = ("#", "table", "game RTP", "vs target", "house edge (per ante)", "ante bonus return",
                "decisions changed")
    for col in cols:
        t.add_column(col, justify="left" if col == "table" else "right", no_wrap=col == "table")
    for i, f in enumerate(found, 1):
        if wager == "aces_up":
            t.add_row(str(i), str(f.table), _pct(f.figures.return_), f"{float(f.distance) * 100:+.4f}",
                      _pct(f.figures.house_edge), f"{f.figures.standard_deviation:.4f}")
        else:
            t.add_row(str(i), str(f.table), _pct(f.figures.return_to_player), f"{float(f.distance) * 100:+.4f}",
                      _pct(f.figures.house_edge), _pct(f.figures.ante_bonus_return), f"{f.decisions_changed:,}")
    console.print(t)
    if not found:
        console.print("no table satisfies the constraints")
    elif wager == "ante_bonus":
        console.print("each table's play strategy re-optimised exactly; 'decisions changed': (hand, up card) "
                      "decisions that differ from the optimal play under the starting table")


def _sweep(r: Any, spec: str, lo: int, hi: int, as_json: bool) -> None:
    from fourcards.poker.exact import design as d

    wager, key = _sweep_key(spec)
    if hi < lo:
        raise RulesError(f"--to ({hi}) must not be below --from ({lo})")
    if hi - lo + 1 > d.MAX_SWEEP_POINTS[wager]:
        raise RulesError(f"a sweep of the {wager.replace('_', ' ')} takes at most {d.MAX_SWEEP_POINTS[wager]} "
                         f"points, got {hi - lo + 1}")
    values = list(range(lo, hi + 1))
    short = (d.ACES_UP_KEYS if wager == "aces_up" else d.ANTE_BONUS_KEYS)[key]
    if wager == "aces_up":
        points: list[dict[str, Any]] = [
            {"pay": v, "table": str(f.table), "return": float(f.return_), "house_edge": float(f.house_edge),
             "standard_deviation": f.standard_deviation}
            for v, f in zip(values, d.sweep_aces_up(key, values, r.aces_up))]
    else:
        from fourcards.poker import analysis as an
        from fourcards.report.analyze import progress_bar

        with progress_bar() as progress:
            counts = an.exact_counts(progress=progress)
        points = [{"pay": v, **f.to_dict()} for v, f in zip(values, d.sweep_ante_bonus(key, values, r, counts=counts))]
        for p in points:
            p.pop("distance")
    if as_json:
        print(json.dumps({"wager": wager, "pay": key, "rules": r.to_dict(), "points": points}, indent=2))
        return
    from rich.table import Table

    if wager == "aces_up":
        t = Table(title=f"Aces Up {r.aces_up} with {short} from {lo} to {hi} to 1")
        cols: tuple[str, ...] = ("pays", "table", "return", "house edge")
    else:
        t = Table(title=f"Ante bonus {r.ante_bonus} with {short} from {lo} to {hi} to 1 (play re-optimised)")
        cols = ("pays", "table", "game RTP", "house edge (per ante)", "decisions changed")
    for col in cols:
        t.add_column(col, justify="left" if col == "table" else "right", no_wrap=col == "table")
    for p in points:
        if wager == "aces_up":
            t.add_row(str(p["pay"]), p["table"], _pct(p["return"]), _pct(p["house_edge"]))
        else:
            t.add_row(str(p["pay"]), p["table"], _pct(p["return_to_player"]), _pct(p["house_edge"]),
                      f"{p['decisions_changed']:,}")
    console.print(t)
