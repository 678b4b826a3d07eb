"""Four of a Kind at the terminal (Rich): play against bots, write and replay hand histories.

The play loop reads one action per line from a text stream (stdin by default,
so it can be driven by piped input): ``check``, ``bet 5``, ``call``,
``raise 10``, ``fold`` (``bet``/``raise`` alone mean the minimum); ``quit`` or
end of input stops the session. Between deals an empty line continues and
``quit`` stops. A bad or illegal action prints why and asks again.

The table shows every seat's cards, stack and chips in, the pot, whose turn it
is, the legal actions with their amounts, and each active player's live exact
odds (P(high), P(low), expected share of the pot).

Everything printed numbers the seats 1..n, as people count them ("Seat 1"; the
engine and the history files count 0..n-1, docs/rules.md TP-1).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table

from fourcards.cards import make_rng
from fourcards.engine import seat_label
from fourcards.errors import FourcardsError, RulesError
from fourcards.kind.actions import Action, ActionKind
from fourcards.kind.bots import Bot, make_bot
from fourcards.kind.game import Game, can_play
from fourcards.kind.history import (
    AwardChips,
    BettingRound,
    DealCard,
    Finish,
    Forfeit,
    Op,
    PlayerAction,
    ReturnCard,
    ReturnUncalled,
    Shuffle,
    TurnCard,
    dumps_history,
    read_histories,
)
from fourcards.kind.rules import KindRules

__all__ = ["render_table", "describe_op", "play_session", "replay_session", "QuitSession"]


class QuitSession(Exception):
    """The player typed ``quit`` or the input ended."""


def _seat(seat: int) -> str:
    """``"Seat 3"`` for engine seat 2: :func:`fourcards.engine.seat_label`, capitalised for the table."""
    return seat_label(seat).capitalize()


def _name(seat: int, labels: Sequence[str]) -> str:
    """``"Seat 3 (odds)"``: the seat as people number it (1..n), then its label if any."""
    label = labels[seat] if seat < len(labels) else ""
    return _seat(seat) + (f" ({label})" if label else "")


def describe_op(op: Op, labels: Sequence[str]) -> str | None:
    """One line about a history record for the table log (``None`` to skip).

    Seats are named as people number them, ``Seat 1``..``Seat n``, followed by
    ``labels[seat]`` (who plays it: ``"you"``, a bot's kind) when not empty.
    """
    if isinstance(op, DealCard):
        return f"{_name(op.seat, labels)} is dealt {op.card.pretty}"
    if isinstance(op, ReturnCard):
        return f"{op.card.pretty} duplicates a rank: it goes back to the deck"
    if isinstance(op, Shuffle):
        return "the undealt cards are reshuffled"
    if isinstance(op, BettingRound):
        if op.skipped:
            return f"round {op.number}: no betting (fewer than two players can bet)"
        return f"[bold]betting round {op.number}[/bold], opened by {_name(op.opener, labels)}"
    if isinstance(op, PlayerAction):
        amount = f" {op.amount}" if op.kind in ("bet", "raise", "call") else ""
        return f"{_name(op.seat, labels)}: {op.kind}{amount}"
    if isinstance(op, Forfeit):
        return f"{_name(op.seat, labels)} forfeits: out of the deal, its chips stay in the pot"
    if isinstance(op, ReturnUncalled):
        return f"uncalled {op.amount} goes back to {_name(op.seat, labels)}"
    if isinstance(op, TurnCard):
        if op.seat is None:
            return f"turned {op.card.pretty}: discarded"
        return f"turned {op.card.pretty}: to {_name(op.seat, labels)}"
    if isinstance(op, Finish):
        if op.reason == "four":
            return f"[bold]{_name(op.seat, labels)} has four of a kind[/bold]"
        return f"[bold]{_name(op.seat, labels)} is the last player standing[/bold]"
    if isinstance(op, AwardChips):
        pot = "main pot" if op.pot == 0 else f"side pot {op.pot}"
        return f"{_name(op.seat, labels)} takes {op.amount} ({op.share}, {pot})"
    return None


def render_table(game: Game, console: Console, labels: Sequence[str], deal_number: int = 1) -> None:
    """Print the table: seats, cards, chips, status, live odds; pot and whose turn."""
    odds = game.odds()
    title = (f"Deal {deal_number} · round {game.round_number} · pot {game.pot} · "
             f"bet {game.level} · {game.phase.value}")
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True, caption="▶ to act · D dealer")
    for col in ("seat", "player", "cards", "stack", "in pot", "bet", "status", "P hi", "P lo", "share"):
        t.add_column(col, no_wrap=True, justify="right" if col in ("stack", "in pot", "bet") else "left")
    obs = game.observation(None)
    for v in obs.seats:
        mark = ("▶" if v.seat == game.actor else "") + str(v.seat + 1) + ("D" if v.seat == game.button else "")
        o = odds.get(v.seat)
        t.add_row(mark, labels[v.seat] or "-", "".join(c.pretty for c in v.cards) or "-",
                  str(v.stack), str(v.contributed), str(v.stake), v.status.replace("_", "-"),
                  f"{o.high:.2f}" if o else "", f"{o.low:.2f}" if o else "", f"{o.share:.2f}" if o else "")
    console.print(t)
    if game.discards:
        console.print("discards: " + " ".join(c.pretty for c in game.discards))


def _read_line(stream: TextIO) -> str:
    line = stream.readline()
    if not line:
        raise QuitSession
    text = line.strip()
    if text.lower() in ("quit", "q", "exit"):
        raise QuitSession
    return text


def _human_action(game: Game, stream: TextIO, console: Console, labels: Sequence[str]) -> Action:
    seat = game.actor
    assert seat is not None
    legal = game.legal_actions()
    while True:
        console.print(f"{_name(seat, labels)}, your move: " + " | ".join(str(la) for la in legal)
                      + f"  (to call: {max(0, game.to_call(seat))})")
        text = _read_line(stream)
        try:
            action = Action.parse(text)
            if action.kind in (ActionKind.BET, ActionKind.RAISE) and action.amount == 0:
                option = next((la for la in legal if la.kind is action.kind), None)
                if option is not None:
                    action = option.action()
            if game.is_legal(action):
                return action
            game.apply(action)  # raises with the reason, changes nothing
        except FourcardsError as exc:
            console.print(f"[red]{exc}[/red]")


def play_session(
    *,
    players: int = 6,
    bots: int | None = None,
    bot_kinds: Sequence[str] = ("odds", "cautious", "random"),
    seed: int | None = None,
    rules: KindRules | None = None,
    stack: int = 200,
    deals: int | None = None,
    history_path: Path | None = None,
    stream: TextIO | None = None,
    console: Console | None = None,
) -> list[Game]:
    """Play deals at the terminal: the first ``players - bots`` seats (Seat 1 ..) are
    people (hot seat), the rest bots (``bot_kinds`` cycled).

    Args:
        players: seats at the table (4-13 by default rules).
        bots: computer players (default ``players - 1``).
        seed: seeds the deck and the bots (default: OS CSPRNG).
        stack: starting chips per seat.
        deals: stop after this many deals (default: until ``quit``/end of
            input; 1 when every seat is a bot).
        history_path: write every deal's records there (JSON lines).
        stream: where actions are read (default ``sys.stdin``).

    Returns:
        The games played (the last may be unfinished if the player quit).

    Raises:
        RulesError: bad counts or bot names.
    """
    rules = rules or KindRules()
    console = console or Console()
    stream = stream if stream is not None else sys.stdin
    bots = players - 1 if bots is None else bots
    if not 0 <= bots <= players:
        raise RulesError(f"--bots must be between 0 and --players ({players}), got {bots}")
    if not rules.min_players <= players <= rules.max_players:
        raise RulesError(f"--players must be {rules.min_players} to {rules.max_players}, got {players}")
    humans = players - bots
    kinds = list(bot_kinds) or ["odds"]
    seat_bots: list[Bot | None] = [None] * humans + [make_bot(kinds[i % len(kinds)]) for i in range(bots)]
    labels = ["you" if humans == 1 else "human"] * humans
    labels += [str(kinds[i % len(kinds)]).strip().lower() for i in range(bots)]
    if deals is None and humans == 0:
        deals = 1
    rng: random.Random = make_rng(seed)
    stacks = [stack] * players
    button = players - 1
    games: list[Game] = []
    log = open(history_path, "w", encoding="utf-8") if history_path else None  # noqa: SIM115
    try:
        number = 0
        while deals is None or number < deals:
            if sum(can_play(s, rules) for s in stacks) < rules.min_players:
                console.print("Not enough players can pay the ante: the session is over.")
                break
            number += 1
            game = Game(rules, stacks, button, rng=rng, seat_labels=[_name(s, labels) for s in range(players)])
            games.append(game)
            shown = 0
            try:
                while True:
                    for op in game.history[shown:]:
                        line = describe_op(op, labels)
                        if line:
                            console.print(line)
                    shown = len(game.history)
                    if game.is_terminal:
                        break
                    seat = game.actor
                    assert seat is not None
                    bot = seat_bots[seat]
                    if bot is None:
                        render_table(game, console, labels, number)
                        game.apply(_human_action(game, stream, console, labels))
                    else:
                        obs = game.observation(seat)
                        game.apply(bot.act(obs, obs.legal_actions, rng))
            finally:
                if log is not None:
                    log.write(dumps_history(game.history))
                    log.flush()
            render_table(game, console, labels, number)
            console.print("net: " + ", ".join(f"{_seat(s)} {p:+d}" for s, p in enumerate(game.returns())))
            stacks = list(game.stacks)
            button = game.next_button
            if deals is None or number < deals:
                if humans:
                    console.print("Enter for the next deal, or quit.")
                    _read_line(stream)
    except QuitSession:
        console.print("Goodbye.")
    finally:
        if log is not None:
            log.close()
    return games


def replay_session(path: Path, console: Console | None = None) -> list[Game]:
    """Replay every deal of a hand-history file, printing each record and the final table.

    Raises:
        HistoryError: a malformed file or a history that does not replay.
        OSError: the file cannot be read.
    """
    console = console or Console()
    text = Path(path).read_text(encoding="utf-8")
    games = []
    for number, ops in enumerate(read_histories(text), start=1):
        game = Game.from_history(ops)
        labels = [""] * game.n_seats
        console.print(f"[bold]Deal {number}[/bold] (button: {_seat(game.button)})")
        for op in ops:
            line = describe_op(op, labels)
            if line:
                console.print(line)
        render_table(game, console, labels, number)
        if game.is_terminal:
            console.print("net: " + ", ".join(f"{_seat(s)} {p:+d}" for s, p in enumerate(game.returns())))
        else:
            console.print("(the deal was not finished)")
        games.append(game)
    return games
