"""``fourcards poker win-cap``: the exact return under a win cap at each ante and Aces Up bet
(:mod:`fourcards.poker.exact.win_cap`)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from fourcards.cli.app import console, fail, poker_app
from fourcards.errors import FourcardsError, RulesError

#: The antes of the default table (with the binding ante, the one below it and the table's maximum).
DEFAULT_ANTES = (1, 10, 25, 50, 100, 200, 300, 500)


def _aces_up_bets(values: list[str] | None) -> list[int | None]:
    """``--aces-up-bet`` values: chips, or ``ante`` (an Aces Up bet equal to the ante: None)."""
    if not values:
        return [0, None]
    out: list[int | None] = []
    for v in values:
        t = v.strip().lower()
        if t == "ante":
            out.append(None)
        elif t.isascii() and t.isdigit() and len(t) <= 9:
            out.append(int(t))
        else:
            raise RulesError(f"--aces-up-bet takes chips or 'ante', got {v[:20]!r}")
    return out


@poker_app.command("win-cap")
def win_cap_cmd(
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: online (seed 004, cap 8,400) or live.")]
    = "online",
    cap: Annotated[int | None, typer.Option("--cap", min=1, help="Win cap in chips (default the rules').")] = None,
    ante: Annotated[list[int] | None, typer.Option("--ante", min=1, help="Ante in chips (repeatable; default "
                                                   "a range up to the table's maximum).")] = None,
    aces_up_bet: Annotated[list[str] | None, typer.Option("--aces-up-bet", help="Aces Up bet in chips, or 'ante' "
                                                          "(equal to the ante); repeatable; default 0 and "
                                                          "ante.")] = None,
    ante_bonus: Annotated[str | None, typer.Option("--ante-bonus", help="Ante bonus table.")] = None,
    aces_up: Annotated[str | None, typer.Option("--aces-up", help="Aces Up table.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The win cap's cost: exact RTP under the cap at each ante, the ante where it starts to bind,
    the probability a round hits it (the play re-optimised under the cap)."""
    try:
        from fourcards.poker import analysis as an
        from fourcards.poker.exact import win_cap as wc
        from fourcards.poker.rules import get_rules
        from fourcards.report.analyze import progress_bar

        r = get_rules(rules, ante_bonus=ante_bonus, aces_up=aces_up)
        limit = cap if cap is not None else r.win_cap
        if limit is None:
            raise RulesError(f"the {r.name!r} rules have no win cap: give one (e.g. --cap 8400)")
        bets = _aces_up_bets(aces_up_bet)
        if ante is not None and len(ante) > 100:
            raise RulesError(f"at most 100 antes a run, got {len(ante)}")
        with progress_bar() as progress:
            counts = an.exact_counts(progress=progress)
        scenarios: list[dict[str, Any]] = []
        for b in bets:
            binding = wc.binding_ante(r, b, cap=limit)
            antes = sorted(set(ante)) if ante else sorted(
                {a for a in (*DEFAULT_ANTES, r.max_ante, *(() if binding is None else (binding - 1, binding)))
                 if r.min_ante <= a <= r.max_ante})
            rows = [wc.win_cap_figures(r, a, min(a, r.max_aces_up) if b is None else b, cap=limit, counts=counts)
                    for a in antes]
            scenarios.append({"aces_up_bet": "ante" if b is None else b, "binding_ante": binding,
                              "rows": rows})
        top = wc.win_cap_figures(r, r.max_ante, r.max_aces_up, cap=limit, counts=counts)
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps({"rules": r.to_dict(), "cap": limit, "maximum_bets": top.to_dict(),
                          "scenarios": [{**s, "rows": [f.to_dict() for f in s["rows"]]} for s in scenarios]},
                         indent=2))
        return
    _print(r, limit, scenarios, top)


def _pct(x: Any, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


def _print(r: Any, cap: int, scenarios: list[dict[str, Any]], top: Any) -> None:
    from rich.table import Table

    for s in scenarios:
        b = s["aces_up_bet"]
        bet = "no Aces Up bet" if b == 0 else ("an Aces Up bet equal to the ante" if b == "ante"
                                               else f"an Aces Up bet of {b:,}")
        binding = s["binding_ante"]
        t = Table(title=f"Win cap {cap:,} ({r.name}), {bet}: the cap binds from an ante of "
                        + (f"{binding:,}" if binding is not None else "- (never, up to the table's maximum)"))
        for col in ("ante", "Aces Up", "RTP under the cap", "RTP uncapped", "cost of the cap", "P(round hits cap)"):
            t.add_column(col, justify="right")
        for f in s["rows"]:
            t.add_row(f"{f.ante:,}", f"{f.aces_up:,}", _pct(f.return_to_player), _pct(f.return_to_player_uncapped),
                      _pct(f.cost), f"{float(f.hits_cap):.3e}")
        console.print(t)
    console.print(f"at the table's maximum bets (ante {top.ante:,}, Aces Up {top.aces_up:,}): RTP "
                  f"{_pct(top.return_to_player)} under the cap against {_pct(top.return_to_player_uncapped)} "
                  f"uncapped; {float(top.hits_cap) * 100:.2f}% of rounds hit the cap")
    console.print("RTP per total wagered (ante, play bet and Aces Up bet); the play re-optimised under the cap")
