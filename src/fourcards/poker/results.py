"""How a Four Card Poker round's wagers were settled, seat by seat: :class:`SeatResult` (the
hands and each wager's signed chips), :func:`settle_hand` (value the cards, then settle by
:func:`fourcards.poker.settlement.settle`) and :func:`describe_result` (one line of text).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fourcards.cards import Card
from fourcards.hands import HandValue, best_hand
from fourcards.poker.rules import PokerRules
from fourcards.poker.settlement import Settlement, settle

__all__ = ["SeatResult", "settle_hand", "describe_result"]


@dataclass(frozen=True)
class SeatResult:
    """How one player's wagers were settled, in signed chips (+ won, - lost).

    Attributes:
        player: the player (0-based).
        player_hand / player_best: the player's best four of five and which cards
            (``None`` in another player's view of a folded hand: it stays mucked).
        dealer_hand: the dealer's best four of six.
        settlement: each wager's result (:class:`~fourcards.poker.settlement.Settlement`);
            its fields are also read here:
        decision: ``"fold"``, ``"play"`` or ``"none"`` (Aces Up only).
        outcome: ``"win"`` (player >= dealer), ``"lose"``, ``"fold"`` or ``"none"``.
        wagers: ``{"ante", "play", "ante_bonus", "aces_up"}`` -> signed chips.
        win_cap_adjustment: chips withheld by the win cap (<= 0): the wins (the
            lines above 0) are capped, the losing lines are lost in full.
        net: sum of ``wagers`` plus ``win_cap_adjustment``.
    """

    player: int
    player_hand: HandValue | None
    player_best: tuple[Card, ...] | None
    dealer_hand: HandValue
    settlement: Settlement

    @property
    def decision(self) -> str:
        """``"fold"``, ``"play"`` or ``"none"`` (an Aces Up bet alone)."""
        return self.settlement.decision

    @property
    def outcome(self) -> str:
        """``"win"`` (the player's best four >= the dealer's), ``"lose"``, ``"fold"`` or ``"none"``."""
        return self.settlement.outcome

    @property
    def wagers(self) -> dict[str, int]:
        """``{"ante", "play", "ante_bonus", "aces_up"}`` -> signed chips."""
        return self.settlement.wagers

    @property
    def win_cap_adjustment(self) -> int:
        """Chips withheld by the win cap (<= 0)."""
        return self.settlement.win_cap_adjustment

    @property
    def net(self) -> int:
        """The seat's net result in chips: the wager lines plus :attr:`win_cap_adjustment`."""
        return self.settlement.net

    def without_hand(self) -> SeatResult:
        """This result as other players see a folded hand: no hand, no cards."""
        return replace(self, player_hand=None, player_best=None)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the fields, hands as ``{category, description[, cards]}`` (the player's best four
        cards as ``"Th"``; ``player_hand`` is ``None`` when hidden); ``wagers``, ``win_cap_adjustment``
        and ``net`` in signed chips. ``player`` is the 0-based player; ``seat`` the seat as people
        see it (``player + 1``), the key this record has always had.
        """
        return {
            "player": self.player,
            "seat": self.player + 1,
            "player_hand": None if self.player_hand is None else {
                "category": self.player_hand.category.key,
                "description": self.player_hand.describe(),
                "cards": [str(c) for c in self.player_best or ()]},
            "dealer_hand": {"category": self.dealer_hand.category.key,
                            "description": self.dealer_hand.describe()},
            "decision": self.decision,
            "outcome": self.outcome,
            "wagers": dict(self.wagers),
            "win_cap_adjustment": self.win_cap_adjustment,
            "net": self.net,
        }


def settle_hand(
    rules: PokerRules,
    player_cards: Sequence[Card],
    dealer_cards: Sequence[Card],
    *,
    ante: int,
    play: int | None,
    aces_up: int = 0,
    player: int = 0,
) -> SeatResult:
    """Settle one player's wagers against the dealer's six cards.

    Values both hands and applies :func:`fourcards.poker.settlement.settle` (the
    rules and their sources are in that module's doc).

    Args:
        rules: pay tables and win cap.
        player_cards: the player's five cards; dealer_cards: the dealer's six.
        ante, aces_up: wagers in chips; ``play``: the play bet in chips, or
            ``None`` for a fold (ignored when ``ante`` is 0).
        player: the player (0-based) the result is for.

    Returns:
        the :class:`SeatResult`; its ``net`` is the player's gain in chips.

    Raises:
        IllegalActionError: a wager that is not a whole number of chips >= 0.
    """
    player_value, player_best = best_hand(player_cards)
    dealer_value, _ = best_hand(dealer_cards)
    result = settle(rules, player_value, dealer_value, ante=ante, play=play, aces_up=aces_up)
    return SeatResult(player, player_value, player_best, dealer_value, result)


def describe_result(result: SeatResult) -> str:
    """One line per wager, e.g. ``"ante +10, play +30, ante bonus +20 -> net +60"``; a capped win adds
    ``"win cap -1,600 (wins 10,000 capped at 8,400)"`` (amounts thousands separated, as the README
    writes them)."""
    parts = [f"{k.replace('_', ' ')} {v:+,d}" for k, v in result.wagers.items() if v]
    if result.win_cap_adjustment:
        wins = result.settlement.wins
        parts.append(f"win cap {result.win_cap_adjustment:+,d} (wins {wins:,} capped at "
                     f"{wins + result.win_cap_adjustment:,})")
    return ", ".join(parts or ["no wagers"]) + f" -> net {result.net:+,d}"
