"""One hand: the exact EV of every option and the optimal decision for a player hand and up
card (:func:`hand_ev`: what a trainer needs). Part of :mod:`fourcards.poker.analysis`
(which re-exports the public names).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fourcards.cards import Card
from fourcards.errors import RulesError
from fourcards.hands import dense_to_value
from fourcards.poker.exact.counts import ExactCounts, count_hand, counts_cached, exact_counts
from fourcards.poker.exact.figures import _frac, option_name, options, settle_per_ante
from fourcards.poker.exact.tables import N_DEALER_HANDS, _rank5_of, _validate_hand
from fourcards.poker.rules import PokerRules, as_rules

__all__ = ["HandEV", "hand_ev"]


@dataclass(frozen=True)
class HandEV:
    """The exact EV (in antes, Aces Up excluded) of every option for one hand and up card.

    Attributes:
        cards, up: the player's five cards and the dealer's up card.
        hand: the player's best four-card value.
        le, lt: of the 1,370,754 dealer completions, how many the hand beats or
            ties / beats.
        ev: EV per option name (``"fold"``, ``"play_1x"``, ...), exact.
        decision: the optimal option (ties go to the smaller wager).
    """

    cards: tuple[Card, ...]
    up: Card
    hand: Any
    le: int
    lt: int
    ev: dict[str, Fraction]
    decision: str

    @property
    def win_or_tie(self) -> Fraction:
        """Probability that the hand beats or ties the dealer's best four of six (exact, over all completions)."""
        return Fraction(self.le, N_DEALER_HANDS)

    @property
    def tie(self) -> Fraction:
        """Probability that the hand ties the dealer's best four of six (exact; ties go to the player)."""
        return Fraction(self.le - self.lt, N_DEALER_HANDS)

    def ev_lost(self, option: str | int) -> Fraction:
        """EV given up (>= 0, in antes) by choosing ``option`` instead of the optimal one.

        Raises:
            RulesError: an option the rules do not allow.
        """
        name = option_name(option) if isinstance(option, int) else option
        if name not in self.ev:
            raise RulesError(f"{name!r} is not an option here: choose one of {', '.join(self.ev)}")
        return self.ev[self.decision] - self.ev[name]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: cards as ``"Th"``, ``hand`` description, ``decision``, EV per option in antes
        (``ev`` floats, ``ev_exact`` fractions as strings, ``ev_lost``) and dealer completion counts
        (``dealer_hands``, ``win``, ``tie``, ``lose``).
        """
        return {
            "cards": [str(c) for c in self.cards],
            "up": str(self.up),
            "hand": self.hand.describe(),
            "decision": self.decision,
            "ev": {k: float(v) for k, v in self.ev.items()},
            "ev_exact": {k: _frac(v) for k, v in self.ev.items()},
            "ev_lost": {k: float(self.ev_lost(k)) for k in self.ev},
            "dealer_hands": N_DEALER_HANDS,
            "win": self.lt,
            "tie": self.le - self.lt,
            "lose": N_DEALER_HANDS - self.le,
        }


def hand_ev(cards: Iterable[Card | str] | str, up: Card | str, rules: PokerRules | str | None = None, *,
            counts: ExactCounts | None = None) -> HandEV:
    """The EV of every option and the optimal decision for one hand and up card.

    Uses ``counts`` (or the cached :func:`exact_counts` when it is in memory or
    on disk: microseconds) and otherwise enumerates the 1,370,754 dealer hands
    directly (:func:`count_hand`, a fraction of a second). A web trainer should
    call :func:`exact_counts` once at start-up.

    Raises:
        CardError: malformed or duplicate cards, not five cards, the up card among
            the player's cards.
        RulesError: unknown preset.
    """
    rules = as_rules(rules)
    hand, upc = _validate_hand(cards, up)
    if counts is None and counts_cached():
        counts = exact_counts()
    if counts is not None:
        le, lt = counts.lookup(hand, upc)
    else:
        le, lt = count_hand(hand, upc)
    rank = _rank5_of(hand)
    value = dense_to_value(rank)
    evs: dict[str, Fraction] = {}
    for k in options(rules):
        win, tie, lose = settle_per_ante(rules, value, k)
        evs[option_name(k)] = Fraction(lt * win.net + (le - lt) * tie.net + (N_DEALER_HANDS - le) * lose.net,
                                       N_DEALER_HANDS)
    best = max(evs, key=lambda name: evs[name])  # first maximum: the smaller wager on a tie
    return HandEV(tuple(hand), upc, value, le, lt, evs, best)

