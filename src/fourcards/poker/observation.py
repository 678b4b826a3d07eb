"""What a player (or a spectator) sees of a Four Card Poker round: :class:`PokerObservation`,
with a :class:`PlayerView` per player; never the dealer's hole cards before showdown, another
player's hand, or the deck.

Built by :meth:`fourcards.poker.round.PokerRound.observation`; bots and user interfaces work
from this object (docs/engine.md: UIs and bots see an observation, never the state).
JSON-ready through :meth:`PokerObservation.to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourcards.cards import Card
from fourcards.hands import HandValue
from fourcards.poker.actions import LegalAction, Phase
from fourcards.poker.history import Record
from fourcards.poker.results import SeatResult
from fourcards.poker.rules import PokerRules

__all__ = ["PlayerView", "PokerObservation"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's place as the observer may see it. Chips are whole chips.

    Attributes:
        player: the player (0-based).
        ante / aces_up / play: wagers in chips (0 when none).
        decision: ``"fold"``, ``"play"`` or ``None`` (not yet, or no ante); a forfeit
            reads ``"fold"``.
        forfeited: the player folded out of turn, leaving the round (docs/rules.md FCP-15).
        cards: the five cards when the observer may see them, else ``None``
            (before the deal, another player's hand before showdown, a folded hand).
        result: the settlement at showdown (``None`` before); a folded hand's
            result carries no hand for other players (:meth:`SeatResult.without_hand`).
    """

    player: int
    ante: int
    aces_up: int
    decision: str | None
    play: int
    cards: tuple[Card, ...] | None
    result: SeatResult | None
    forfeited: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the fields, cards as ``"Th"`` (or ``None``), ``result`` as :meth:`SeatResult.to_dict`,
        ``forfeited`` a bool."""
        return {"player": self.player, "ante": self.ante, "aces_up": self.aces_up, "decision": self.decision,
                "play": self.play, "cards": None if self.cards is None else [str(c) for c in self.cards],
                "result": None if self.result is None else self.result.to_dict(), "forfeited": self.forfeited}


@dataclass(frozen=True, slots=True)
class PokerObservation:
    """A Four Card Poker round as ``player`` (``None``: a spectator) may see it.

    Before settlement a player sees its own five cards and the dealer's up card
    only - never the dealer's hole cards, another player's cards or the deck.
    At showdown the dealer's cards and the cards of every player who did not
    fold are shown; folded hands stay hidden from the other players.

    Attributes:
        phase / actor / chance_step: as on the round.
        up_card: the dealer's up card once dealt.
        dealer_cards / dealer_hand: the dealer's six cards and best four, at showdown only.
        players: a :class:`PlayerView` per player, in order.
        legal_actions: the observer's own options now (empty for a spectator).
        void_reason: the host's reason when the round was voided.
        history: the round's records as the observer may see them: the :class:`Deal`
            record shows only the hands shown in ``players`` and, at showdown, the
            dealer's cards (:meth:`Deal.seen_by`); every other record as it is.
    """

    player: int | None
    rules: PokerRules
    phase: Phase
    actor: int | None
    chance_step: str | None
    up_card: Card | None
    dealer_cards: tuple[Card, ...] | None
    dealer_hand: HandValue | None
    players: tuple[PlayerView, ...]
    legal_actions: tuple[LegalAction, ...]
    void_reason: str | None
    history: tuple[Record, ...] = ()

    def to_dict(self, *, with_history: bool = True) -> dict[str, Any]:
        """JSON form: ``game`` (``"four_card_poker"``), ``rules``, ``phase``, ``player``, ``actor``,
        ``chance_step``, ``up_card``, ``dealer_cards`` and ``dealer_hand`` (its description) or
        ``None``, ``players``, ``legal_actions``, ``void_reason`` and, when ``with_history``,
        ``history`` (the records' ``to_dict()``); cards as ``"Th"``.
        """
        d = {
            "game": "four_card_poker",
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "player": self.player,
            "actor": self.actor,
            "chance_step": self.chance_step,
            "up_card": None if self.up_card is None else str(self.up_card),
            "dealer_cards": None if self.dealer_cards is None else [str(c) for c in self.dealer_cards],
            "dealer_hand": None if self.dealer_hand is None else self.dealer_hand.describe(),
            "players": [v.to_dict() for v in self.players],
            "legal_actions": [a.to_dict() for a in self.legal_actions],
            "void_reason": self.void_reason,
        }
        if with_history:
            d["history"] = [r.to_dict() for r in self.history]
        return d
