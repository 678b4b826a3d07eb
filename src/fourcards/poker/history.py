"""The records of a Four Card Poker round's history and their JSON form.

A round's history is the :class:`Start` record, then every applied action in order
(:mod:`fourcards.poker.actions`), the :class:`Deal` (the chance step) among them;
:meth:`fourcards.poker.round.PokerRound.replay` rebuilds the round from it exactly.

Records as JSON (``to_dict()``; :func:`action_from_dict` reads them back): players are 0-based
under the key ``"player"``. Records stored before the engine protocol named 1-based seats under
``"seat"`` (and a deal's ``hands`` as ``{"<seat>": [cards]}``); :func:`action_from_dict` still
reads them (seat ``s`` is player ``s - 1``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from fourcards.cards import Card, check_distinct, parse_card, parse_cards
from fourcards.engine import seat_label
from fourcards.errors import CardError, HistoryError, IllegalActionError, IllegalChanceError
from fourcards.poker.actions import (
    ActionKind,
    Fold,
    Forfeit,
    PlaceWagers,
    Play,
    Void,
    WithdrawWagers,
    is_chips,
)

__all__ = ["Start", "Deal", "Action", "Record", "action_from_dict", "deal_of_cards"]


@dataclass(frozen=True, slots=True)
class Start:
    """The first record of a round's history: ``players`` at the table (1-9)."""

    players: int
    kind: ClassVar[str] = "start"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "start", "players": n}``."""
        return {"kind": "start", "players": self.players}


@dataclass(frozen=True, slots=True)
class Deal:
    """The deal (the chance step): five cards per wagering player, six to the dealer.

    ``hands`` pairs each player with its five cards (player order); ``dealer``
    holds the dealer's six cards, one of which is ``up_card``. In a player's view
    of the history (:attr:`PokerObservation.history`, :meth:`seen_by`) the cards
    that player may not see are ``None``: another player's hand, the dealer's
    cards before showdown (the up card stays). Such a deal cannot be applied.
    """

    hands: tuple[tuple[int, tuple[Card, ...] | None], ...]
    dealer: tuple[Card, ...] | None
    up_card: Card
    kind: ClassVar[ActionKind] = ActionKind.DEAL

    def seen_by(self, players: Iterable[int], dealer: bool) -> Deal:
        """This deal with only the hands of ``players`` shown, and the dealer's six cards
        only when ``dealer`` (the up card always): what one viewer may see of it."""
        shown = set(players)
        return Deal(tuple((p, h if p in shown else None) for p, h in self.hands),
                    self.dealer if dealer else None, self.up_card)

    @classmethod
    def of(cls, hands: Mapping[int, Iterable[Card | str] | str], dealer: Iterable[Card | str] | str,
           up_card: Card | str) -> Deal:
        """Build a deal from card text, e.g. ``Deal.of({0: "9h 9d 9s Kc 3d"}, "Qd Qs 8c 8h 4s 2d", "Qd")``
        (keys are players, 0-based).

        Raises:
            CardError: malformed cards, a hand not of five, a dealer hand not of
                six, the up card not among the dealer's cards, or a card twice.
        """
        parsed = tuple(sorted((int(p), tuple(parse_cards(h, count=5))) for p, h in hands.items()))
        dealer_cards = tuple(parse_cards(dealer, count=6))
        up = parse_card(up_card)
        if up not in dealer_cards:
            raise CardError(f"the up card {up} is not one of the dealer's six cards")
        check_distinct(dealer_cards, *(h for _, h in parsed))
        return cls(parsed, dealer_cards, up)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``kind``, ``hands`` (a list of ``{"player": p, "cards": five cards as "Th"}``),
        ``dealer`` (six cards) and ``up_card``; the inverse is :func:`action_from_dict`.
        """
        return {
            "kind": self.kind.value,
            "hands": [{"player": p, "cards": None if h is None else [str(c) for c in h]} for p, h in self.hands],
            "dealer": None if self.dealer is None else [str(c) for c in self.dealer],
            "up_card": str(self.up_card),
        }


Action = Union[PlaceWagers, WithdrawWagers, Deal, Fold, Play, Void, Forfeit]


Record = Union[Start, PlaceWagers, WithdrawWagers, Deal, Fold, Play, Void, Forfeit]


def _record_cards(cards: object, what: str) -> tuple[Card, ...] | None:
    """The cards of a deal record's hand or dealer's hand: a list or tuple of :class:`Card`
    objects or text that parses to one card each (``None``: hidden, kept for the check).

    Raises:
        IllegalChanceError: anything else, naming ``what``.
    """
    if cards is None:
        return None
    if not isinstance(cards, (tuple, list)):
        raise IllegalChanceError(f"{what} must be a list of cards, got {cards!r:.60}")
    try:
        return tuple(parse_card(c) for c in cards)
    except CardError as exc:
        raise IllegalChanceError(f"{what}: {exc}") from None


def deal_of_cards(d: Deal) -> Deal:
    """The deal record ``d`` with every card a :class:`Card` (see :func:`_record_cards`).

    Raises:
        IllegalActionError: ``hands`` is not a list of (player, cards) pairs.
        IllegalChanceError: a card that is neither a :class:`Card` nor the text of one.
    """
    if not isinstance(d.hands, (tuple, list)) or not all(isinstance(h, (tuple, list)) and len(h) == 2
                                                         for h in d.hands):
        raise IllegalActionError(f"a deal's hands must be (player, five cards) pairs, got {d.hands!r:.80}")
    for p, _ in d.hands:
        if not is_chips(p):
            raise IllegalChanceError(f"a deal's hands are given to players (0-based whole numbers), got {p!r:.40}")
    hands = tuple((p, _record_cards(h, f"the cards of {seat_label(p)}")) for p, h in d.hands)
    dealer = _record_cards(d.dealer, "the dealer's cards")
    try:
        up = parse_card(d.up_card)
    except CardError as exc:
        raise IllegalChanceError(f"the up card: {exc}") from None
    return Deal(hands, dealer, up)


def _player_of(data: Mapping[str, Any]) -> int:
    """The 0-based player of a record: ``"player"``, or a legacy 1-based ``"seat"``."""
    if "player" in data:
        return int(data["player"])
    return int(data["seat"]) - 1


def action_from_dict(data: Mapping[str, Any]) -> Record:
    """Inverse of ``record.to_dict()`` (JSON history records), legacy records included.

    Records written before the engine protocol name 1-based seats under
    ``"seat"`` and give a deal's hands as ``{"<seat>": cards}``; seat ``s``
    becomes player ``s - 1``.

    Raises:
        HistoryError: unknown kind or missing fields.
        CardError: bad cards in a deal.
    """
    try:
        kind = data["kind"]
        if kind == "start":
            return Start(int(data["players"]))
        if kind == "place_wagers":
            return PlaceWagers(_player_of(data), int(data["ante"]), int(data.get("aces_up", 0)))
        if kind == "deal":
            hands = data["hands"]
            if isinstance(hands, Mapping):  # legacy: {"<seat>": cards}
                by_player = {int(s) - 1: h for s, h in hands.items()}
            else:
                by_player = {int(h["player"]): h["cards"] for h in hands}
            return Deal.of(by_player, data["dealer"], data["up_card"])
        if kind == "fold":
            return Fold(_player_of(data))
        if kind == "withdraw_wagers":
            return WithdrawWagers(_player_of(data))
        if kind == "play":
            return Play(_player_of(data), int(data["amount"]))
        if kind == "void":
            reason = data.get("reason", "host ruling")
            if not isinstance(reason, str):
                raise TypeError(f"the reason must be text, got {reason!r}")
            return Void(reason)
        if kind == "forfeit":
            return Forfeit(_player_of(data))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, CardError):
            raise
        raise HistoryError(f"malformed action record {dict(data)!r}: {exc}") from None
    raise HistoryError(f"unknown action kind {data.get('kind')!r}")
