"""``fourcards kind match BOT BOT ...`` and ``fourcards poker match BOT BOT ...``: duplicate matches with ratings.

Every deal is played with the same cards in every seat rotation of the bots (:mod:`fourcards.sim.match`);
the table gives each bot's chips per deal with its 95% interval and the rating table (openskill, extra
``match``). Bots by name: built-in, plug-in, or ``file:PATH`` (an agent file, :mod:`fourcards.rl.agents`).
Bad arguments print one ``error: ...`` line on stderr and exit 2.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, Any

import typer

from fourcards.cli.app import console, fail, kind_app, poker_app
from fourcards.errors import FourcardsError
from fourcards.extras import require
from fourcards.inputs import MAX_CHIPS, MAX_DEALS, MAX_SEATS, MAX_SEED, MAX_WORKERS

BotsArg = Annotated[list[str], typer.Argument(help="Two or more bots: a built-in or plug-in name, or file:PATH "
                                                   "(an agent file).", show_default=False)]
SeedOpt = Annotated[int | None, typer.Option("--seed", min=0, max=MAX_SEED,
                                             help="The cards' seed (>= 0); default: a random seed, reported.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def _show(d: dict[str, Any], title: str, unit: str) -> None:
    from rich.table import Table

    t = Table(title=title)
    first = d["bots"][0]["bot"]
    for col in ("bot", "seats", f"mean {unit}", "95% CI", "std/deal", f"against {first} (95% CI)"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for b in d["bots"]:
        lo, hi = b["ci95"]
        v = b["vs_first"]
        versus = "" if v is None else f"{v['mean']:+.3f} [{v['ci95'][0]:+.3f}, {v['ci95'][1]:+.3f}]"
        t.add_row(b["bot"], str(b["seats"]), f"{b['mean_per_deal']:+.3f}", f"[{lo:+.3f}, {hi:+.3f}]",
                  f"{b['std_per_deal']:.2f}", versus)
    console.print(t)
    r = Table(title="ratings (openskill Plackett-Luce: a game per deal, per block of deals past 1,000)")
    for col in ("rank", "bot", "mu", "sigma", "ordinal"):
        r.add_column(col, justify="left" if col == "bot" else "right")
    for row in d["ratings"]:
        r.add_row(str(row["rank"]), row["bot"], f"{row['mu']:.2f}", f"{row['sigma']:.2f}", f"{row['ordinal']:.2f}")
    console.print(r)


@kind_app.command("match")
def kind_match_command(
    bots: BotsArg,
    deals: Annotated[int, typer.Option("--deals", min=1, max=MAX_DEALS, help="Deals, each played in every "
                                       "rotation of the bots' seats.")] = 1000,
    players: Annotated[int, typer.Option("--players", min=2, max=MAX_SEATS, help="Seats (4-13 with the presets); "
                                         "the bots fill them in order, repeating.")] = 4,
    rules: Annotated[str, typer.Option("--rules", help="Four of a Kind preset.")] = "family",
    stack: Annotated[int | None, typer.Option("--stack", min=1, max=MAX_CHIPS, help="Chips per seat at the start "
                                              "of every deal (default 40 antes).")] = None,
    seed: SeedOpt = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=MAX_WORKERS, help="Processes (the result does not "
                                         "depend on it).")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Four of a Kind bots in a duplicate match: chips per deal per seat (95% CI) and ratings."""
    from fourcards.sim.match import kind_match

    try:
        require("match", "fourcards kind match")
        s = random.SystemRandom().randrange(2 ** 31) if seed is None else seed
        d = kind_match(bots, deals, players=players, rules=rules, stack=stack, seed=s, workers=workers).to_dict()
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(d))
        return
    _show(d, f"Four of a Kind match - {d['deals']:,} duplicate deals x {d['rotations']} seatings, {d['players']} "
             f"seats, {d['rules']}, seed {d['seed']}", "chips/deal/seat")


@poker_app.command("match")
def poker_match_command(
    bots: BotsArg,
    deals: Annotated[int, typer.Option("--deals", min=1, max=MAX_DEALS, help="Deals, every bot playing each.")] = 100000,
    rules: Annotated[str, typer.Option("--rules", help="Four Card Poker preset (live, online).")] = "live",
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Four Card Poker bots on the same deals: chips per deal (antes; 95% CI) and ratings."""
    from fourcards.sim.match import poker_match

    try:
        require("match", "fourcards poker match")
        s = random.SystemRandom().randrange(2 ** 31) if seed is None else seed
        d = poker_match(bots, deals, rules=rules, seed=s).to_dict()
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(d))
        return
    _show(d, f"Four Card Poker match - {d['deals']:,} deals, every bot on each, {d['rules']}, seed {d['seed']}",
          "chips/deal")
