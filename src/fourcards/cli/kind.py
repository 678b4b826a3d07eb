"""``fourcards kind odds|settle|play`` - Four of a Kind at the command line.

* ``fourcards kind odds 7 QQ 3 999 [--json]`` - exact P(high), P(low) and
  expected share of each player (holdings in seat order: a rank repeated, tens
  as ``T`` or ``t``, a ten alone also ``10``; ``1010`` reads like a number and is refused);
* ``fourcards kind settle --pot 60 7 QQ 3 9999 [--json]`` - settle a finished
  deal (seed 001 "Settling the pot": 0/0/30/30);
* ``fourcards kind play --players 6 [--bots 5] [--seed N] [--history FILE]
  [--replay FILE]`` - play against bots in the terminal, or replay a history.

Tables and messages number the seats 1..n, as people count them; the JSON
output keeps the engine's indices 0..n-1 for programs (docs/rules.md TP-1).
Bad input prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from fourcards.cli.app import console, fail, kind_app
from fourcards.errors import FourcardsError, RulesError
from fourcards.inputs import MAX_CHIPS, MAX_DEALS, MAX_SEATS, MAX_SEED, MIN_SEATS

HOLDINGS_HELP = "Players' cards in seat order, as ranks: 7 QQ 3 999 (tens: T or t, e.g. TT; a ten alone also 10)."


def _holdings(texts: list[str]) -> Any:
    from fourcards.kind.holdings import parse_holdings

    holdings = parse_holdings(texts)
    if len(holdings) < 2:
        raise RulesError(f"give at least two holdings (one per active player), got {len(holdings)}")
    return holdings


@kind_app.command("odds")
def odds_command(
    holdings: list[str] = typer.Argument(..., help=HOLDINGS_HELP, metavar="HOLDINGS..."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list in seat order (\"seat\": index from 0)."),
) -> None:
    """Exact chance of each active player taking high and low (no further folds)."""
    from rich.table import Table

    from fourcards.kind.odds import exact_odds

    try:
        hs = _holdings(holdings)
        odds = exact_odds(hs)
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        out = []
        for seat, o in enumerate(odds):
            d = {"seat": seat, **o.to_dict(), "p_high_exact": str(o.p_high), "p_low_exact": str(o.p_low)}
            out.append(d)
        print(json.dumps(out))
        return
    t = Table(title="Four of a Kind: exact odds (assuming no further folds)")
    for col in ("seat", "holding", "P(high)", "P(low)", "exp. share of pot"):
        t.add_column(col, justify="left" if col == "holding" else "right")
    for seat, (h, o) in enumerate(zip(hs, odds)):
        t.add_row(str(seat + 1), str(h), f"{o.high:.4f}", f"{o.low:.4f}", f"{o.share:.4f}")
    console.print(t)


@kind_app.command("settle")
def settle_command(
    holdings: list[str] = typer.Argument(..., help=HOLDINGS_HELP, metavar="HOLDINGS..."),
    pot: int = typer.Option(..., "--pot", min=0, max=MAX_CHIPS, help="Chips in the pot."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list of chips in seat order."),
) -> None:
    """Settle a finished deal: exactly one holding has four cards; all listed players are active."""
    from rich.table import Table

    from fourcards.kind.holdings import low_key
    from fourcards.kind.pots import split_pot

    try:
        hs = _holdings(holdings)
        shares = split_pot(pot, hs)
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(shares))
        return
    high = next(i for i, h in enumerate(hs) if h.is_four)
    low = min((i for i in range(len(hs)) if i != high), key=lambda i: low_key(hs[i]))
    t = Table(title=f"Four of a Kind: settling a pot of {pot}")
    for col in ("seat", "holding", "share", ""):
        t.add_column(col, justify="right" if col == "share" else "left")
    for seat, (h, s) in enumerate(zip(hs, shares)):
        role = "high" if seat == high else ("low" if seat == low else "")
        t.add_row(str(seat + 1), str(h), str(s), role)
    console.print(t)


@kind_app.command("play")
def play_command(
    players: int = typer.Option(6, "--players", min=MIN_SEATS, max=MAX_SEATS, help="Seats at the table (4-13)."),
    bots: int = typer.Option(None, "--bots", min=0, max=MAX_SEATS,
                             help="Computer players (default: players - 1)."),
    seed: int = typer.Option(None, "--seed", min=0, max=MAX_SEED,
                             help="Seed the deck and bots (default: OS CSPRNG)."),
    history: Path = typer.Option(None, "--history", dir_okay=False,
                                 help="Write the hand history (JSON lines) here."),
    replay: Path = typer.Option(None, "--replay", exists=True, dir_okay=False,
                                help="Replay a hand-history file instead of playing."),
    deals: int = typer.Option(None, "--deals", min=1, max=MAX_DEALS,
                              help="Stop after this many deals (default: until quit)."),
    stack: int = typer.Option(200, "--stack", min=1, max=MAX_CHIPS, help="Starting chips per seat."),
    bot_kind: list[str] = typer.Option(["odds", "cautious", "random"], "--bot-kind",
                                       help="Bot types, cycled over the bot seats: odds, cautious, random, "
                                            "pots, learned, an installed plug-in's name (entry points "
                                            "'fourcards.bots'), or file:PATH (an agent file)."),
    preset: str = typer.Option("family", "--rules", help="Rules preset: family (seed 000) or opr903 (seed 001)."),
) -> None:
    """Play full deals against bots in the terminal (actions read from stdin:
    check, bet N, call, raise N, fold; quit or end of input stops)."""
    from fourcards.cli.kind_terminal import play_session, replay_session
    from fourcards.kind.rules import get_rules

    try:
        if replay is not None:
            replay_session(replay, console)
            return
        rules = get_rules(preset)
        if seed is not None and seed < 0:
            raise RulesError(f"--seed must be a whole number >= 0, got {seed}")
        if deals is not None and deals < 1:
            raise RulesError(f"--deals must be at least 1, got {deals}")
        if stack < max(rules.ante, 1):
            raise RulesError(f"--stack {stack} cannot pay the ante of {rules.ante}")
        play_session(players=players, bots=bots, bot_kinds=bot_kind, seed=seed, rules=rules,
                     stack=stack, deals=deals, history_path=history, console=console)
    except FourcardsError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot use history file: {exc}")
