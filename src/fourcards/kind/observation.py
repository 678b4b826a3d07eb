"""What a seat sees of a Four of a Kind deal: the whole face-up table, never the deck.

Built by :meth:`fourcards.kind.game.Game.observation`; bots and user interfaces
work from this object (docs/engine.md: UIs and bots see an
observation, never the state). JSON-ready through :meth:`Observation.to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourcards.cards import Card
from fourcards.kind.actions import LegalAction
from fourcards.kind.history import DealCard, Forfeit, Op, PlayerAction, TurnCard
from fourcards.kind.holdings import Holding
from fourcards.kind.pots import Award, Pot
from fourcards.kind.rules import KindRules

__all__ = ["SeatView", "Observation"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everyone sees it. Chips are whole chips.

    ``status``: ``"out"`` (sat the deal out), ``"folded"``, ``"all_in"`` or
    ``"active"``; ``stake`` is what the seat put in during this betting round,
    ``contributed`` during the whole deal (ante included). ``forfeited``: the seat
    folded out of turn, leaving the deal (docs/rules.md FOAK-17; its status is
    ``"folded"``), so a user interface can tell it from a fold of the turn.
    """

    seat: int
    status: str
    cards: tuple[Card, ...]
    stack: int
    contributed: int
    stake: int
    forfeited: bool = False

    @property
    def holding(self) -> Holding | None:
        """The seat's rank and card count, or ``None`` when it has no cards (or cards of more than one rank)."""
        if not self.cards or len({c.rank for c in self.cards}) != 1:
            return None
        return Holding(self.cards[0].rank, len(self.cards))

    @property
    def is_active(self) -> bool:
        """Still in the deal (all-in included)."""
        return self.status in ("active", "all_in")

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the fields (cards as ``"Th"``, chips as ints, ``forfeited`` a bool) plus
        ``holding`` as text (``"QQ"``) or None."""
        h = self.holding
        return {"seat": self.seat, "status": self.status, "cards": [str(c) for c in self.cards],
                "holding": str(h) if h else None, "stack": self.stack, "contributed": self.contributed,
                "stake": self.stake, "forfeited": self.forfeited}


@dataclass(frozen=True, slots=True)
class Observation:
    """The table as seen by ``seat`` (``None`` for a spectator; also :attr:`player`).

    Attributes:
        phase: ``"deal"``, ``"betting"``, ``"turning"`` or ``"finished"``.
        actor: the seat to act, or ``None``.
        seats: every seat's :class:`SeatView`.
        discards: turned cards that matched no active rank (seed 001 §3.3(b)).
        cards_in_deck: how many cards are undealt (never which, nor their order).
        pot: chips in all pots; ``pots``: main pot then side pots, from completed betting rounds (this round's bets are in each seat's ``stake``).
        bet: the current bet of this round; ``full_wagers``: full bets/raises made
            this round (the raise cap allows ``rules.max_wagers``).
        legal_actions: the options of ``seat`` when it is to act, else empty.
        history: every record so far (public: only face-up cards appear).
        awards / payoffs: once the deal is over.
        deal_queue: the players still due a card in the initial deal, the next one first
            (after a returned duplicate, the player(s) re-dealt: docs/rules.md FOAK-2);
            empty once the deal is done (:attr:`fourcards.kind.game.Game.deal_queue`).
    """

    seat: int | None
    rules: KindRules
    phase: str
    button: int
    round_number: int
    actor: int | None
    seats: tuple[SeatView, ...]
    discards: tuple[Card, ...]
    cards_in_deck: int
    pot: int
    pots: tuple[Pot, ...]
    bet: int
    full_wagers: int
    legal_actions: tuple[LegalAction, ...]
    history: tuple[Op, ...]
    awards: tuple[Award, ...]
    payoffs: tuple[int, ...] | None
    deal_queue: tuple[int, ...] = ()

    @property
    def player(self) -> int | None:
        """The observing player, ``seat`` (the engine protocol's name, :mod:`fourcards.engine`)."""
        return self.seat

    @property
    def to_call(self) -> int:
        """Chips the observing seat needs to match the current bet (0 if none)."""
        if self.seat is None:
            return 0
        return max(0, self.bet - self.seats[self.seat].stake)

    def holdings(self) -> dict[int, Holding]:
        """Active seats' holdings (empty during the deal)."""
        if self.phase == "deal":
            return {}
        out = {}
        for v in self.seats:
            h = v.holding
            if v.is_active and h is not None:
                out[v.seat] = h
        return out

    @property
    def last_card(self) -> DealCard | TurnCard | None:
        """The record of the last card dealt or turned while no player has acted (nor forfeited:
        docs/rules.md FOAK-17) since and the deal is not over - the card a host dealing real cards
        may still take back (docs/rules.md FOAK-15; the deal before it is the engine's replay of
        the history up to that record) - else ``None``."""
        if self.phase in ("finished", "voided"):
            return None
        for op in reversed(self.history):
            if isinstance(op, (DealCard, TurnCard)):
                return op
            if isinstance(op, (PlayerAction, Forfeit)):
                return None
        return None

    def to_dict(self, *, with_history: bool = True) -> dict[str, Any]:
        """JSON form of every field plus ``to_call`` (chips); ``history`` records only when ``with_history``."""
        d: dict[str, Any] = {
            "seat": self.seat, "rules": self.rules.to_dict(), "phase": self.phase, "button": self.button,
            "round_number": self.round_number, "actor": self.actor,
            "seats": [v.to_dict() for v in self.seats], "discards": [str(c) for c in self.discards],
            "cards_in_deck": self.cards_in_deck, "pot": self.pot, "pots": [p.to_dict() for p in self.pots],
            "bet": self.bet, "full_wagers": self.full_wagers, "to_call": self.to_call,
            "legal_actions": [la.to_dict() for la in self.legal_actions],
            "awards": [a.to_dict() for a in self.awards],
            "payoffs": list(self.payoffs) if self.payoffs is not None else None,
            "deal_queue": list(self.deal_queue),
        }
        if with_history:
            d["history"] = [op.to_dict() for op in self.history]
        return d
