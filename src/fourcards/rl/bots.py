"""Bots from learners: a (tensor, mask) policy as a bot plug-in of either game, and the learned
Four of a Kind bot.

**The bridge.** A learner's policy sees the tensors of :mod:`fourcards.rl.encoding` and picks an
action id; a bot plug-in sees the engine's observation and legal actions. :func:`policy_bot`
makes the one from the other for Four of a Kind (entry-point group ``fourcards.bots``)::

    # mypackage/bots.py
    from fourcards.rl.bots import policy_bot

    def my_policy(tensor, mask):          # float32[28 n + 6], int8[3 + max_bet] -> an id the mask allows
        return int(mask.nonzero()[0][-1])

    MyBot = policy_bot(my_policy, "mybot")

    # pyproject.toml
    [project.entry-points."fourcards.bots"]
    mybot = "mypackage.bots:MyBot"

and :func:`poker_policy_bot` for Four Card Poker (``fourcards.poker_bots``; the policy sees
``int8[104]`` and the mask ``int8[4]`` of fold / 1x / 2x / 3x, the encoding of
:class:`~fourcards.rl.PokerEnv`). Each bot's observation is built exactly as the environments
build theirs: chip amounts over all the chips at the table (the stacks plus the chips put in).

**The learned bot.** :class:`LearnedKindBot` (bot name ``learned``, a plug-in of the package
itself) plays a table of 7,260 action classes, one per cell of the features of
:mod:`fourcards.rl.kind_learn`, learned on :class:`~fourcards.rl.kind_vector.KindVectorEnv`
(``examples/train_kind_bot.py``) and shipped as ``fourcards/rl/data/kind_learned.npy`` (7 KB).
Playing it needs numpy and the package only (no framework); it is deterministic. docs/rl.md
"A learned bot" has its results against ``pots``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from fourcards.cards import Card
from fourcards.errors import IllegalActionError
from fourcards.kind.actions import Action, ActionKind, LegalAction
from fourcards.kind.observation import Observation
from fourcards.kind.odds import exact_odds
from fourcards.rl.encoding import KindActions, encode, kind_tensor

__all__ = ["PolicyBot", "policy_bot", "PokerPolicyBot", "poker_policy_bot", "LearnedKindBot", "kind_features",
           "class_action", "learned_table"]

KindPolicy = Callable[[np.ndarray, np.ndarray], Any]


def _table_chips(observation: Observation) -> int:
    """All the chips at the table: every seat's stack plus what it has put in (constant through a deal)."""
    return sum(v.stack + v.contributed for v in observation.seats)


class PolicyBot:
    """A Four of a Kind bot that plays ``policy(tensor, mask) -> action id`` (see the module doc).

    Args:
        policy: the learner's policy: :func:`~fourcards.rl.encoding.kind_tensor` of the bot's view and
            the :class:`~fourcards.rl.encoding.KindActions` mask of its legal actions, to an id.
        name: the bot's name.

    Raises:
        IllegalActionError: (from :meth:`act`) the policy chose an id the mask forbids.
    """

    def __init__(self, policy: KindPolicy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act(self, observation: Observation, legal_actions: Sequence[LegalAction], rng: random.Random) -> Action:
        """The policy's action for ``observation`` (``rng`` unused: a random policy keeps its own)."""
        encoder = KindActions(observation.rules)
        tensor = kind_tensor(observation, _table_chips(observation))
        choice = self.policy(tensor, encoder.mask(legal_actions))
        try:
            return encoder.action(int(choice), legal_actions)
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(f"bot {self.name!r}: {exc}") from None


def policy_bot(policy: KindPolicy, name: str = "policy") -> Callable[[], PolicyBot]:
    """A factory of :class:`PolicyBot` for ``policy``: the object a ``fourcards.bots`` entry point names."""

    def make() -> PolicyBot:
        return PolicyBot(policy, name)

    make.__name__ = make.__qualname__ = f"{name}_bot"
    return make


class PokerPolicyBot:
    """A Four Card Poker bot (``decide(cards, up_card)``, :mod:`fourcards.poker.bots`) that plays
    ``policy(observation int8[104], mask int8[4]) -> 0..3`` (fold, play 1x, 2x, 3x).

    Args:
        policy: the learner's policy on :class:`~fourcards.rl.PokerEnv`'s encoding.
        rules: the table's rules (the mask: ``online`` has no 2x).
        name: the bot's name.
    """

    def __init__(self, policy: KindPolicy, rules: Any = None, name: str = "policy") -> None:
        from fourcards.poker.exact.figures import options
        from fourcards.poker.rules import as_rules as _as_rules

        self.policy = policy
        self.rules = _as_rules(rules)
        self.name = name
        allowed = options(self.rules)
        self.mask = np.array([int(k in allowed) for k in range(4)], dtype=np.int8)

    def decide(self, cards: Sequence[Card], up_card: Card) -> int:
        """The play multiple (0 = fold) the policy picks for five ``cards`` against ``up_card``.

        Raises:
            IllegalActionError: the policy chose an action the mask forbids.
        """
        k = int(self.policy(encode(cards, up_card), self.mask.copy()))
        if not 0 <= k < 4 or not self.mask[k]:
            raise IllegalActionError(f"bot {self.name!r}: action {k} is not allowed "
                                     f"({self.rules.describe_play_bets()})")
        return k


def poker_policy_bot(policy: KindPolicy, name: str = "policy") -> Callable[..., PokerPolicyBot]:
    """A factory of :class:`PokerPolicyBot` (called with the table's rules): the object a
    ``fourcards.poker_bots`` entry point names."""

    def make(rules: Any = None) -> PokerPolicyBot:
        return PokerPolicyBot(policy, rules, name)

    make.__name__ = make.__qualname__ = f"{name}_bot"
    return make


# ----------------------------------------------------------------- the learned bot


def kind_features(observation: Observation) -> tuple[int, float, float | None]:
    """``(cell, edge, ratio)`` of the observing seat, to act (the features of :mod:`fourcards.rl.kind_features`;
    ``ratio`` ``None`` with no bet to face)."""
    from fourcards.rl.kind_features import cell_index

    seat = observation.seat
    assert seat is not None, "the features are those of a seat"
    me = observation.seats[seat]
    holdings = observation.holdings()
    seats = list(holdings)
    odds = exact_odds([holdings[s] for s in seats])
    mine = odds[seats.index(seat)]
    active = [v for v in observation.seats if v.is_active]
    able = sum(1 for v in active if v.stack > 0)
    edge = (mine.high + mine.low) / 2.0 * able if me.stack > 0 and able >= 2 else 0.0
    to_call = observation.bet - me.stake
    ratio = None
    if to_call > 0:
        c = min(to_call, me.stack)
        after = sum(v.contributed for v in observation.seats) + c
        take = mine.high * (after - after // 2) + mine.low * (after // 2)
        ratio = take / c
    race = max(h.count for h in holdings.values())
    return cell_index(edge, ratio, observation.full_wagers, len(active), race), edge, ratio


def class_action(cls: int, legal_actions: Sequence[LegalAction]) -> Action:
    """The action of class ``cls`` (0 fold, 1 check/call, 2 bet/raise the minimum, 3 the maximum) among
    ``legal_actions``; a class that is not legal falls back to check, else call."""
    by_kind = {la.kind: la for la in legal_actions}
    wager = by_kind.get(ActionKind.BET) or by_kind.get(ActionKind.RAISE)
    if cls == 3 and wager is not None:
        return wager.action(wager.max_amount)
    if cls == 2 and wager is not None:
        return wager.action(wager.min_amount)
    if cls == 0 and ActionKind.FOLD in by_kind:
        return Action.fold()
    passive = by_kind.get(ActionKind.CHECK) or by_kind[ActionKind.CALL]
    return passive.action()


@lru_cache(maxsize=1)
def learned_table() -> np.ndarray:
    """The shipped table of the learned bot (``uint8[N_CELLS]``, read-only)."""
    from importlib import resources

    with resources.files("fourcards.rl").joinpath("data", "kind_learned.npy").open("rb") as f:
        table = np.load(f)
    table.setflags(write=False)
    return table


class LearnedKindBot:
    """The Four of a Kind bot learned on the batched environment (see the module doc). Deterministic.

    Args:
        table: a table of classes per cell (default :func:`learned_table`, the shipped one).
    """

    name = "learned"

    def __init__(self, table: np.ndarray | None = None) -> None:
        self.table = learned_table() if table is None else np.asarray(table)

    def act(self, observation: Observation, legal_actions: Sequence[LegalAction], rng: random.Random) -> Action:
        """The table's class for the features of the position, as an action (``rng`` unused)."""
        cell, _, _ = kind_features(observation)
        return class_action(int(self.table[cell]), legal_actions)

    def __repr__(self) -> str:
        return "LearnedKindBot()"
