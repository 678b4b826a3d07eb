"""Computer players and the trainer of the shared tables: the engines' own, nothing new.

* Four Card Poker bots play a strategy of :mod:`fourcards.poker.strategy`:
  ``simple`` (Shuffle Master's published simple strategy: fold a pair of 2s or
  less, 1x with a pair of 3s-9s, 3x with a pair of 10s or better; DESIGN.md
  "Published figures") or ``optimal`` (the exact optimal strategy), the play bet
  kept within the legal amounts (``legal_actions``) and the bot's chips;
* Four of a Kind bots are :mod:`fourcards.kind.bots` (by name: ``odds``,
  ``cautious``, ``random``, ``pots``, or an installed plug-in's), acting on their
  observation and legal actions;
* agent files the server's operator names (``fourcards serve --agent NAME=PATH``, carried
  to every server process in the environment variable :data:`AGENTS_ENV`): bots of either
  game under ``NAME`` (:func:`agent_bots`; the file is read by ``fourcards.rl.agents``, a
  client never names a path);
* :func:`default_action` - check if the player may, else fold (what a table
  does when a bot fails);
* :func:`advise` - the trainer: the optimal decision and the EV given up
  (:func:`fourcards.poker.strategy.advise`, the exact analysis).
"""

from __future__ import annotations

import json
import logging
import os
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from fourcards.cards import make_rng
from fourcards.engine import LegalAction, Observation
from fourcards.kind import bots as kind_bots
from fourcards.poker import bots as poker_bots
from fourcards.poker import strategy
from fourcards.poker.rules import PokerRules

__all__ = ["POKER_BOTS", "AGENTS_ENV", "agent_bots", "poker_bot_names", "kind_bot_names", "poker_play", "kind_move",
           "default_action", "advise"]

log = logging.getLogger(__name__)

#: Four Card Poker bots built in: the strategies of :mod:`fourcards.poker.strategy` they play
#: (installed plug-ins add more: :func:`poker_bot_names`).
POKER_BOTS = poker_bots.POKER_BOTS


#: The environment variable naming the agent files a server seats: JSON ``{"NAME": {"game": "kind" or "poker",
#: "path": "..."}}``, written by ``fourcards serve --agent NAME=PATH``.
AGENTS_ENV = "FOURCARDS_AGENTS"


@lru_cache(maxsize=1)
def agent_bots() -> dict[str, tuple[str, str]]:
    """The agent files this server seats as bots: ``NAME -> (game, path)`` from :data:`AGENTS_ENV`, read when a
    server starts (an entry that is not a name, a game and a path is left out, and logged)."""
    raw = os.environ.get(AGENTS_ENV, "")
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        log.warning("%s is not JSON: no agent bots", AGENTS_ENV)
        return {}
    out: dict[str, tuple[str, str]] = {}
    for name, entry in (data.items() if isinstance(data, dict) else ()):
        if isinstance(entry, dict) and entry.get("game") in ("kind", "poker") and isinstance(entry.get("path"), str):
            out[str(name)] = (entry["game"], entry["path"])
        else:
            log.warning("%s: agent %r left out (it needs a game and a path)", AGENTS_ENV, name)
    return out


def _agents_of(game: str, taken: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n, (g, _) in agent_bots().items() if g == game and n not in taken)


@lru_cache(maxsize=1)
def poker_bot_names() -> tuple[str, ...]:
    """Four Card Poker bots a table offers: the built-in strategies, then the installed plug-ins
    (entry points ``fourcards.poker_bots``; :func:`fourcards.poker.bots.poker_bot_names`), then the server's
    agent files (:func:`agent_bots`), read when a server starts."""
    names = poker_bots.poker_bot_names()
    return (*names, *_agents_of("poker", names))

_RNG: random.Random = make_rng()  # the OS CSPRNG: live bots' random choices


@lru_cache(maxsize=1)
def kind_bot_names() -> tuple[str, ...]:
    """Four of a Kind bots a table offers: the built-in :data:`fourcards.kind.bots.BOTS`, then the
    installed plug-ins (entry points ``fourcards.bots``; :func:`fourcards.kind.bots.bot_names`),
    read when a server starts (a plug-in installed later shows after a restart), then the server's agent
    files (:func:`agent_bots`): every table view lists them."""
    names = kind_bots.bot_names()
    return (*names, *_agents_of("kind", names))


def poker_play(name: str, rules: PokerRules, cards: Sequence[Any], up_card: Any, ante: int,
               play: LegalAction, balance: int) -> int | None:
    """A Four Card Poker bot's play bet in chips, or ``None`` to fold.

    Args:
        name: the bot (:func:`poker_bot_names`: a built-in strategy or a plug-in). rules: the table's rules.
        cards / up_card: the bot's five cards and the dealer's up card.
        ante: the bot's ante (chips). play: its ``play`` option (the legal amounts).
        balance: the chips the bot has left for the play bet.

    Returns:
        the largest legal multiple of the ante up to the strategy's, that the bot
        can afford (else the smallest it can afford), or ``None`` (fold; also when
        it can afford none). Constant time whatever the table's limits (issue 19).
    """
    agent = agent_bots().get(name)
    bot = name if agent is None or name in poker_bots.poker_bot_names() else f"file:{agent[1]}"
    multiple = int(poker_bots.make_poker_bot(bot, rules).decide(tuple(cards), up_card))
    if not multiple:
        return None
    return play_bet(play, ante, balance, multiple)


def play_bet(play: LegalAction, ante: int, balance: int, multiple: int) -> int | None:
    """The play bet (chips) of a bot whose strategy says ``multiple`` x the ante: the largest
    multiple of the ante that ``play`` allows, the bot affords (``balance`` chips) and is at
    most ``multiple`` x ``ante``; else the smallest it affords; ``None`` when it affords none.
    Constant time whatever the range of ``play`` (issue 19)."""
    if play.amounts:  # the rules fix them (seed 004: 1x or 3x): a few amounts
        affordable = [a for a in play.amounts if a <= balance and a % ante == 0]
        if not affordable:
            return None
        return max((a for a in affordable if a <= multiple * ante), default=affordable[0])
    # any whole amount from min to max (seed 002 §3.1(b)): the multiples of the ante in it that
    # the bot affords, by arithmetic - never a list as long as the range (the table's limits)
    low = -(-play.min_amount // ante) * ante
    high = min(play.max_amount, balance) // ante * ante
    if low > high:
        return None
    return max(low, min(high, multiple * ante))


def kind_move(name: str, observation: Observation, options: Sequence[LegalAction],
              rng: random.Random | None = None) -> Any:
    """The move of the Four of a Kind bot ``name`` (:func:`fourcards.kind.bots.make_bot`)
    seeing ``observation`` with ``options``; its random choices from ``rng`` (``None``: the
    OS CSPRNG).

    Raises:
        RulesError: an unknown bot.
    """
    agent = agent_bots().get(name)
    bot = name if agent is None or name in kind_bots.bot_names() else f"file:{agent[1]}"
    return kind_bots.make_bot(bot).act(observation, options, rng or _RNG)  # type: ignore[arg-type]


def default_action(options: Sequence[LegalAction]) -> Any:
    """Check if an option allows it, else fold (else the first option at its least amount)."""
    by_kind = {o.kind.value: o for o in options}
    option = by_kind.get("check") or by_kind.get("fold") or options[0]
    return option.action()


def advise(cards: Sequence[str], up_card: str, rules: PokerRules, ante: int, decision: str,
           play: int | None) -> dict[str, Any]:
    """Trainer advice for one Four Card Poker decision (blocking: run it in a worker thread).

    Args:
        cards: the five cards; up_card: the dealer's up card (``"Th"``); rules;
        ante (chips); decision: ``"fold"`` or ``"play"``; play: the play bet in chips.

    Returns:
        ``{"status": "ok", "hand", "optimal": "play_3x", "chosen": "play_1x",
        "ev": {option: antes}, "ev_lost": antes, "ev_lost_chips": chips}`` or
        ``{"status": "error", "message": ...}``.
    """
    try:
        ev = strategy.advise(list(cards), up_card, rules)
        chosen, chosen_ev = "fold", float(ev.ev["fold"])
        if decision != "fold" and play:
            multiple = play / ante
            if multiple == int(multiple) and f"play_{int(multiple)}x" in ev.ev:
                chosen = f"play_{int(multiple)}x"
                chosen_ev = float(ev.ev[chosen])
            else:  # the EV is linear in the play bet: interpolate between 1x and 3x
                chosen = f"play {play}"
                e1, e3 = float(ev.ev["play_1x"]), float(ev.ev["play_3x"])
                chosen_ev = e1 + (e3 - e1) * (multiple - 1) / 2
        lost = float(ev.ev[ev.decision]) - chosen_ev
        return {"status": "ok", "hand": ev.hand.describe(), "optimal": ev.decision, "chosen": chosen,
                "ev": {k: round(float(v), 4) for k, v in ev.ev.items()},
                "ev_lost": round(float(lost), 4), "ev_lost_chips": round(float(lost) * ante, 2)}
    except Exception as exc:  # pragma: no cover - advice must never break play
        log.exception("trainer advice failed")
        return {"status": "error", "message": f"analysis failed: {exc}"}
