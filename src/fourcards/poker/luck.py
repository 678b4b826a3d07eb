"""Luck in a Four Card Poker round: a seat's result against the exact EV of the decision it
took (docs/analysis.md "Luck at the table").

The decision - fold, or a play bet of ``k`` antes - is the player's; what the dealer then holds
is chance. The exact analysis gives the decision's expected result over every dealer hand the
deck could still hold (:func:`fourcards.poker.analysis.hand_ev`: the 1,370,754 dealer
completions of the up card, in antes); the round's *luck* is the result of the ante, the play
bet and the ante bonus minus that expectation, in chips. A fold has no luck (its result is what
it was expected to be). The Aces Up bet, settled on the player's cards alone, and the win cap
(which the per-ante analysis leaves out) are not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from fourcards.cards import Card
from fourcards.poker.exact.counts import ExactCounts, counts_cached, exact_counts
from fourcards.poker.exact.hand_ev import hand_ev
from fourcards.poker.rules import PokerRules

__all__ = ["decision_ev", "load_counts", "round_luck"]

#: The dealer counts once found in memory or on disk (the same figures wherever they were read:
#: a table settles every round with them, and finding them costs file-system look-ups).
_COUNTS: list[ExactCounts] = []


def _counts() -> ExactCounts | None:
    """The dealer counts when in memory or on disk (:func:`load_counts`), else ``None`` (count directly)."""
    return load_counts() if _COUNTS or counts_cached() else None


def load_counts() -> ExactCounts:
    """The dealer counts every later :func:`round_luck` looks its EVs up in: read from the disk cache
    (mapped, a fraction of a second) or, where it has none, computed (about 1 s of CPU; 54 MB
    written to ``$FOURCARDS_CACHE_DIR`` or the user cache directory, kept in memory when that
    cannot be written) - :func:`fourcards.poker.analysis.exact_counts`. Without them each seat's
    luck counts its 1,370,754 dealer hands directly: about 7 ms a settled seat. A server calls this
    in its warm-up (:mod:`fourcards.web.warmup`), off the event loop."""
    if not _COUNTS:
        _COUNTS.append(exact_counts())
    return _COUNTS[0]


def decision_ev(rules: PokerRules, cards: Sequence[Card | str], up: Card | str, ante: int,
                play: int | None) -> Fraction:
    """The exact expected result, in chips, of folding (``play`` ``None`` or 0) or playing
    ``play`` chips with ``cards`` against the up card ``up`` and an ante of ``ante`` chips (the
    ante, the play bet and the ante bonus; :func:`~fourcards.poker.analysis.hand_ev`). A play bet
    between the multiples the analysis names is interpolated: the EV is linear in the play bet.

    Raises:
        CardError: malformed or repeated cards.
    """
    ev = hand_ev(list(cards), up, rules, counts=_counts()).ev
    if not play:
        return ev["fold"] * ante
    multiple = Fraction(play, ante)
    name = f"play_{multiple}x"
    if multiple.denominator == 1 and name in ev:
        return ev[name] * ante
    one, three = ev["play_1x"], ev.get("play_3x", ev["play_1x"])
    return (one + (three - one) * (multiple - 1) / 2) * ante


def round_luck(rules: PokerRules, cards: Sequence[Card | str], up: Card | str, ante: int, play: int | None,
               wagers: Mapping[str, int]) -> Fraction:
    """A seat's luck in a round, in chips (see the module doc): ``wagers``' ante, play and ante
    bonus lines (signed chips, :attr:`fourcards.poker.results.SeatResult.wagers`) minus
    :func:`decision_ev`; 0 without an ante."""
    if not ante:
        return Fraction(0)
    result = wagers.get("ante", 0) + wagers.get("play", 0) + wagers.get("ante_bonus", 0)
    return result - decision_ev(rules, cards, up, ante, play)
