"""One round of Four Card Poker: players 0..n-1 (n = 1-9) against the dealer.

The round is a state machine (seed 002 Articles 2-6, seed 004 "How To Play")
implementing the engine protocol (:class:`fourcards.engine.GameState`):

1. ``WAGERS`` - each player places an ante and/or an Aces Up bet
   (:class:`PlaceWagers`), within the table limits of :class:`PokerRules`, in
   any order (an open phase: :attr:`PokerRound.actor` is ``None``; each
   player's option is in ``legal_actions(player)``). Until the deal a player
   may take its wagers back (:class:`WithdrawWagers`) and place others: wagers
   are placed "before the deal" (seed 002 Article 2) and nothing is at risk yet.
2. :class:`Deal` - the chance step ``"deal"``, open once anyone has wagered:
   five cards to each player with a wager, six to the dealer of which one is
   the up card; drawn by :meth:`PokerRound.apply_chance` from a shuffled deck
   or applied as a given :class:`Deal` record (replays, tests).
3. ``DECISIONS`` - in player order, each player with an ante folds
   (:class:`Fold`) or makes a play bet (:class:`Play`) of 1x-3x the ante
   (``live``) or exactly 1x or 3x (``online``). Players with only an Aces Up
   bet make no decision.
4. ``SETTLED`` - after the last decision the dealer's hand is revealed and
   every wager is settled (:class:`SeatResult`).

:class:`Void` (the host's ruling; seed 004 "Malfunction voids all pays and
plays") ends the round at any point before settlement with every wager
returned. :class:`Forfeit` (docs/rules.md FCP-15: a person leaves, the host removes
a seat) folds an undecided player with an ante out of turn in ``DECISIONS``. Every action is validated before anything changes: an illegal one
raises :class:`~fourcards.errors.IllegalActionError` (a deal with impossible
cards: :class:`~fourcards.errors.IllegalChanceError`) naming the player as
people see it ("seat 4" for player 3) and leaves the round as it was. The
history starts with a :class:`Start` record and holds every applied action;
:meth:`PokerRound.replay` rebuilds the round from it exactly.

Money is whole chips. :meth:`PokerRound.returns` gives each player's net
result; the house's result (:attr:`PokerRound.house_net`) is minus their sum,
so chips are conserved.

Records as JSON (``to_dict()``; :func:`action_from_dict` reads them back):
players are 0-based under the key ``"player"``. Records stored before the
engine protocol named 1-based seats under ``"seat"`` (and a deal's ``hands``
as ``{"<seat>": [cards]}``); :func:`action_from_dict` still reads them
(seat ``s`` is player ``s - 1``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Union

from fourcards.cards import Card, Deck, check_distinct, make_rng, parse_card, parse_cards
from fourcards.engine import check_void_reason, seat_label
from fourcards.errors import CardError, HistoryError, IllegalActionError, IllegalChanceError, RulesError
from fourcards.hands import HandValue, best_hand
from fourcards.poker.rules import PokerRules
from fourcards.poker.settlement import Settlement, settle

if TYPE_CHECKING:  # pragma: no cover
    from fourcards.engine import GameState

__all__ = [
    "Phase",
    "ActionKind",
    "Start",
    "PlaceWagers",
    "WithdrawWagers",
    "Deal",
    "Fold",
    "Play",
    "Void",
    "Forfeit",
    "Action",
    "Record",
    "LegalAction",
    "PlayerView",
    "PokerObservation",
    "SeatResult",
    "PokerRound",
    "settle_hand",
    "action_from_dict",
    "describe_result",
]


class Phase(str, Enum):
    """Where a round stands."""

    WAGERS = "wagers"
    DECISIONS = "decisions"
    SETTLED = "settled"
    VOIDED = "voided"


class ActionKind(str, Enum):
    """The kinds of action of a round (the values are the JSON ``kind`` of the records)."""

    PLACE_WAGERS = "place_wagers"
    WITHDRAW_WAGERS = "withdraw_wagers"
    DEAL = "deal"
    FOLD = "fold"
    PLAY = "play"
    VOID = "void"
    FORFEIT = "forfeit"  # a record, never an option (docs/rules.md FCP-15)


def _is_chips(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# --------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Start:
    """The first record of a round's history: ``players`` at the table (1-9)."""

    players: int
    kind: ClassVar[str] = "start"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "start", "players": n}``."""
        return {"kind": "start", "players": self.players}


@dataclass(frozen=True, slots=True)
class PlaceWagers:
    """A player's wagers before the deal, in chips (seed 002 "Before the deal").

    ``ante`` may be 0 only for an Aces Up bet alone, where the rules allow it.
    """

    player: int
    ante: int
    aces_up: int = 0
    kind: ClassVar[ActionKind] = ActionKind.PLACE_WAGERS

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``kind``, ``player`` (0-based), ``ante`` and ``aces_up`` in chips."""
        return {"kind": self.kind.value, "player": self.player, "ante": self.ante, "aces_up": self.aces_up}


@dataclass(frozen=True, slots=True)
class WithdrawWagers:
    """A player takes back its wagers before the deal (nothing is at risk until the cards
    are out: seed 002 Article 2, "Before the deal")."""

    player: int
    kind: ClassVar[ActionKind] = ActionKind.WITHDRAW_WAGERS

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "withdraw_wagers", "player": p}`` (0-based)."""
        return {"kind": self.kind.value, "player": self.player}


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


@dataclass(frozen=True, slots=True)
class Fold:
    """Fold: the ante is lost (seed 002 §3.1(a))."""

    player: int
    kind: ClassVar[ActionKind] = ActionKind.FOLD

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "fold", "player": p}``."""
        return {"kind": self.kind.value, "player": self.player}


@dataclass(frozen=True, slots=True)
class Play:
    """A play bet of ``amount`` chips (seed 002 §3.1(b); seed 004: 1x or 3x only)."""

    player: int
    amount: int
    kind: ClassVar[ActionKind] = ActionKind.PLAY

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "play", "player": p, "amount": chips}``."""
        return {"kind": self.kind.value, "player": self.player, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Void:
    """Void the round: every wager is returned (seed 004 "Malfunction voids all pays
    and plays"; the host's ruling, docs/rules.md FCP-9)."""

    reason: str = "host ruling"
    kind: ClassVar[ActionKind] = ActionKind.VOID

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "void", "reason": text}``."""
        return {"kind": self.kind.value, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``player`` forfeits the round out of turn (docs/rules.md FCP-15: a person leaves the
    table, the host removes the seat): in ``DECISIONS``, a player with an ante who has not
    decided folds at once - the ante is lost, no ante bonus, the Aces Up bet is still settled
    on the hand (FCP-5, FCP-6). :meth:`PokerRound.apply` takes it at any point of the
    decisions, whoever's turn it is; it is never one of the ``legal_actions`` (it is no
    decision of the turn)."""

    player: int
    kind: ClassVar[ActionKind] = ActionKind.FORFEIT

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "forfeit", "player": p}`` (0-based)."""
        return {"kind": self.kind.value, "player": self.player}


Action = Union[PlaceWagers, WithdrawWagers, Deal, Fold, Play, Void, Forfeit]
Record = Union[Start, PlaceWagers, WithdrawWagers, Deal, Fold, Play, Void, Forfeit]


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An option open now (the engine protocol's legal action; see :mod:`fourcards.engine`).

    Attributes:
        kind: an :class:`ActionKind`.
        player: the player it belongs to (``None`` for ``void``, the host's ruling).
        min_amount / max_amount: chips - the play bet's bounds, or the ante's table
            limits for ``place_wagers`` (0 where no amount is involved).
        amounts: the only legal play bets when the rules fix them (seed 004: 1x
            or 3x), else ``None`` (any whole amount in the bounds).
        aces_up_min / aces_up_max: the Aces Up limits (``place_wagers`` only).
    """

    kind: ActionKind
    player: int | None = None
    min_amount: int = 0
    max_amount: int = 0
    amounts: tuple[int, ...] | None = None
    aces_up_min: int = 0
    aces_up_max: int = 0

    def allows(self, action: object) -> bool:
        """Whether ``action`` is this option with legal amounts (the table limits for
        wagers; the round's own checks are the authority)."""
        if getattr(action, "kind", None) != self.kind or getattr(action, "player", None) != self.player:
            return False
        if isinstance(action, Play):
            if not _is_chips(action.amount):
                return False
            if self.amounts is not None:
                return action.amount in self.amounts
            return self.min_amount <= action.amount <= self.max_amount
        if isinstance(action, PlaceWagers):
            a, u = action.ante, action.aces_up
            if not (_is_chips(a) and _is_chips(u)) or (a == 0 and u == 0):
                return False
            return (a == 0 or self.min_amount <= a <= self.max_amount) and \
                (u == 0 or self.aces_up_min <= u <= self.aces_up_max)
        return True

    def action(self, amount: int | None = None, aces_up: int = 0) -> Action:
        """The action of this option: ``place_wagers`` with an ante of ``amount`` (default the
        minimum) and ``aces_up`` chips; ``play`` of ``amount`` (default the least legal bet);
        ``fold``; ``withdraw_wagers``; ``void``.

        Raises:
            IllegalActionError: for ``deal``, a chance step, not an option (use
                :meth:`PokerRound.apply_chance` or apply a :class:`Deal`); for
                ``forfeit``, a record, never an option (apply a :class:`Forfeit`).
        """
        k, p = self.kind, self.player
        if k is ActionKind.PLACE_WAGERS and p is not None:
            return PlaceWagers(p, self.min_amount if amount is None else amount, aces_up)
        if k is ActionKind.PLAY and p is not None:
            low = self.amounts[0] if self.amounts else self.min_amount
            return Play(p, low if amount is None else amount)
        if k is ActionKind.FOLD and p is not None:
            return Fold(p)
        if k is ActionKind.WITHDRAW_WAGERS and p is not None:
            return WithdrawWagers(p)
        if k is ActionKind.VOID:
            return Void()
        if k is ActionKind.FORFEIT:
            raise IllegalActionError("a forfeit is no option of the turn: apply Forfeit(player) (docs/rules.md FCP-15)")
        raise IllegalActionError("the deal is a chance step: use apply_chance(rng) or apply a Deal record")

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``kind`` and ``player`` when set; ``min_amount``/``max_amount`` (chips) for ``play``
        and ``place_wagers``; ``amounts`` when fixed; ``aces_up_min``/``aces_up_max`` for ``place_wagers``.
        """
        d: dict[str, Any] = {"kind": self.kind.value}
        if self.player is not None:
            d["player"] = self.player
        if self.kind in (ActionKind.PLAY, ActionKind.PLACE_WAGERS):
            d["min_amount"], d["max_amount"] = self.min_amount, self.max_amount
        if self.amounts is not None:
            d["amounts"] = list(self.amounts)
        if self.kind is ActionKind.PLACE_WAGERS:
            d["aces_up_min"], d["aces_up_max"] = self.aces_up_min, self.aces_up_max
        return d


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


def _deal_of_cards(d: Deal) -> Deal:
    """The deal record ``d`` with every card a :class:`Card` (see :func:`_record_cards`).

    Raises:
        IllegalActionError: ``hands`` is not a list of (player, cards) pairs.
        IllegalChanceError: a card that is neither a :class:`Card` nor the text of one.
    """
    if not isinstance(d.hands, (tuple, list)) or not all(isinstance(h, (tuple, list)) and len(h) == 2
                                                         for h in d.hands):
        raise IllegalActionError(f"a deal's hands must be (player, five cards) pairs, got {d.hands!r:.80}")
    for p, _ in d.hands:
        if not _is_chips(p):
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


# ------------------------------------------------------------------ settlement


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



# ----------------------------------------------------------------- observation


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


# ----------------------------------------------------------------------- round


class PokerRound:
    """One round of Four Card Poker: players against the dealer (see module doc).

    Implements :class:`fourcards.engine.GameState`.

    Args:
        rules: the table's :class:`PokerRules`.
        players: how many players are at the table, 1 to ``rules.max_seats``;
            they are players ``0..players-1`` (people see seats ``1..players``).
        seat_labels: how messages name each player to a person (a table passes its players'
            names); ``None``: ``"seat 1"``, ``"seat 2"``, ...
            (:func:`fourcards.engine.seat_label`; docs/rules.md TP-1), as for Four of a Kind's
            :class:`fourcards.kind.Game`.

    Raises:
        RulesError: a bad number of players, or labels that do not name each player with a
            non-empty text.
    """

    def __init__(self, rules: PokerRules, players: int = 1, *, seat_labels: Sequence[str] | None = None) -> None:
        if not _is_chips(players) or not 1 <= players <= rules.max_seats:
            raise RulesError(f"a round has 1 to {rules.max_seats} players, got {players!r}")
        if seat_labels is None:
            labels = tuple(seat_label(p) for p in range(players))
        else:
            labels = tuple(seat_labels)
            if len(labels) != players or not all(isinstance(x, str) and x.strip() for x in labels):
                raise RulesError(f"seat_labels must name each of the {players} players with a non-empty text, "
                                 f"got {seat_labels!r}")
        self.seat_labels: tuple[str, ...] = labels
        self.rules = rules
        self.num_players: int = players
        self.phase = Phase.WAGERS
        self.wagers: dict[int, PlaceWagers] = {}
        self.hands: dict[int, tuple[Card, ...]] = {}
        self.dealer_cards: tuple[Card, ...] = ()
        self.up_card: Card | None = None
        self.decisions: dict[int, Fold | Play | Forfeit] = {}  # a forfeit is a fold (FCP-15)
        self.results: dict[int, SeatResult] = {}
        self.void_reason: str | None = None
        self._history: list[Record] = [Start(players)]

    # ---------------------------------------------------------------- queries

    def seat_label(self, player: int) -> str:
        """``player`` as people see it: its ``seat_labels`` entry, by default ``"seat 4"`` for
        player 3 (:func:`fourcards.engine.seat_label`, also for an index off the table)."""
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.num_players:
            return self.seat_labels[player]
        return seat_label(player)

    @property
    def history(self) -> tuple[Record, ...]:
        """The :class:`Start` record, then every applied action in order (the deal included)."""
        return tuple(self._history)

    @property
    def is_terminal(self) -> bool:
        """Whether the round is over: settled or voided (no action is legal any more)."""
        return self.phase in (Phase.SETTLED, Phase.VOIDED)

    @property
    def deciding_players(self) -> tuple[int, ...]:
        """Players with an ante, in order: the ones that fold or play."""
        return tuple(sorted(p for p, w in self.wagers.items() if w.ante > 0))

    @property
    def actor(self) -> int | None:
        """The player whose decision is due (player order), or ``None`` outside ``DECISIONS``
        (the wagers are open to every player at once)."""
        if self.phase is not Phase.DECISIONS:
            return None
        return min((p for p, w in self.wagers.items() if w.ante > 0 and p not in self.decisions), default=None)

    @property
    def chance_step(self) -> str | None:
        """``"deal"`` while the deal may be made (wagers phase, someone has wagered), else ``None``."""
        return "deal" if self.phase is Phase.WAGERS and self.wagers else None

    def play_amounts(self, player: int) -> Sequence[int]:
        """The legal play bets of ``player`` in chips, increasing (:meth:`PokerRules.play_amounts`:
        a ``range`` when any whole amount is allowed - never a list as long as the range, which
        the table's limits decide - or the fixed amounts as a tuple)."""
        return self.rules.play_amounts(self.wagers[player].ante)

    def legal_actions(self, player: int | None = None) -> list[LegalAction]:
        """What may be done now: every option (``player=None``) or ``player``'s own.

        In ``WAGERS``: ``place_wagers`` for each player without wagers (with the ante
        and Aces Up limits), ``withdraw_wagers`` for each player with wagers; in ``DECISIONS``: ``fold`` and ``play`` (bounds in chips
        and, for fixed multiples, the ``amounts``) for the :attr:`actor`; ``void``
        (the host's ruling, no player) until the round is over. The deal is a chance
        step, not an option: see :attr:`chance_step`.

        Raises:
            IllegalActionError: ``player`` is not at this table.
        """
        if player is not None:
            self._check_player(player)
        r = self.rules
        out: list[LegalAction] = []
        if self.phase is Phase.WAGERS:
            out += [LegalAction(ActionKind.PLACE_WAGERS, p, r.min_ante, r.max_ante, None,
                                r.min_aces_up, r.max_aces_up) if p not in self.wagers
                    else LegalAction(ActionKind.WITHDRAW_WAGERS, p)
                    for p in (range(self.num_players) if player is None else (player,))]
        elif self.phase is Phase.DECISIONS:
            actor = self.actor
            if actor is not None and player in (None, actor):
                amounts = self.play_amounts(actor)
                out.append(LegalAction(ActionKind.FOLD, actor))
                out.append(LegalAction(ActionKind.PLAY, actor, amounts[0], amounts[-1],
                                       None if r.play_any_amount else tuple(amounts)))
        if player is not None:
            return out
        if not self.is_terminal:
            out.append(LegalAction(ActionKind.VOID))
        return out

    def returns(self) -> tuple[int, ...]:
        """Each player's net chips from the settlement (0 without wagers); all zeros
        until the round is settled, and for a voided round."""
        if self.phase is not Phase.SETTLED:
            return (0,) * self.num_players
        return tuple(self.results[p].net if p in self.results else 0 for p in range(self.num_players))

    @property
    def house_net(self) -> int:
        """The house's net result in chips: minus the sum of the players' :meth:`returns`."""
        return -sum(self.returns())

    def observation(self, player: int | None = None) -> PokerObservation:
        """What ``player`` may see (``None``: a spectator); see :class:`PokerObservation`.

        Raises:
            IllegalActionError: ``player`` is not at this table.
        """
        if player is not None:
            self._check_player(player)
        showdown = self.phase is Phase.SETTLED
        views = []
        shown = []
        for p in range(self.num_players):
            w = self.wagers.get(p)
            d = self.decisions.get(p)
            visible = p in self.hands and (p == player or (showdown and not isinstance(d, (Fold, Forfeit))))
            if visible:
                shown.append(p)
            res = self.results.get(p) if showdown else None
            if res is not None and not visible:
                res = res.without_hand()
            views.append(PlayerView(
                p, w.ante if w else 0, w.aces_up if w else 0,
                None if d is None else ("play" if isinstance(d, Play) else "fold"),
                d.amount if isinstance(d, Play) else 0,
                self.hands[p] if visible else None, res, isinstance(d, Forfeit)))
        return PokerObservation(
            player=player, rules=self.rules, phase=self.phase, actor=self.actor, chance_step=self.chance_step,
            up_card=self.up_card,
            dealer_cards=self.dealer_cards if showdown else None,
            dealer_hand=best_hand(self.dealer_cards)[0] if showdown else None,
            players=tuple(views),
            legal_actions=tuple(self.legal_actions(player)) if player is not None else (),
            void_reason=self.void_reason,
            history=tuple(r.seen_by(shown, showdown) if isinstance(r, Deal) else r for r in self._history),
        )

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action) -> None:
        """Apply an action or the :class:`Deal` record; validate fully first, so a refused
        action changes nothing.

        A :class:`Forfeit` folds its player out of turn (docs/rules.md FCP-15; see
        :meth:`_check_forfeit`); if that player was to act, the next undecided player acts,
        and with nobody left to decide the showdown follows.

        Raises:
            IllegalActionError: wrong phase, out of turn, a player not at the table,
                an amount outside the rules or table limits, after the end; a forfeit
                that has nothing to forfeit.
            IllegalChanceError: a deal with impossible cards (also a ``CardError``): a card
                that is neither a :class:`Card` nor text that parses to one (the deal is
                recorded with the parsed cards: ``"9h"`` and ``"9♥"`` are one card), a card
                twice, the wrong number. A malformed record of any kind is an
                ``IllegalActionError``, never a ``TypeError``; a void's reason must be text
                (:func:`fourcards.engine.check_void_reason`).
        """
        if isinstance(action, PlaceWagers):
            self._check_wagers(action)
            self.wagers[action.player] = action
        elif isinstance(action, WithdrawWagers):
            self._check_player(action.player)
            who = self.seat_label(action.player)
            self._check_phase(Phase.WAGERS, f"take back the wagers of {who}")
            if action.player not in self.wagers:
                raise IllegalActionError(f"{who} has no wagers to take back")
            del self.wagers[action.player]
        elif isinstance(action, Deal):
            action = self._check_deal(action)
            assert action.dealer is not None
            self.hands = {p: h for p, h in action.hands if h is not None}
            self.dealer_cards = action.dealer
            self.up_card = action.up_card
            self.phase = Phase.DECISIONS
        elif isinstance(action, (Fold, Play)):
            self._check_decision(action)
            self.decisions[action.player] = action
        elif isinstance(action, Forfeit):
            self._check_forfeit(action)
            self.decisions[action.player] = action
        elif isinstance(action, Void):
            check_void_reason(action.reason)
            if self.is_terminal:
                raise IllegalActionError(f"the round is already {self.phase.value}; it cannot be voided")
            self.phase = Phase.VOIDED
            self.void_reason = action.reason
        elif isinstance(action, Start):
            raise IllegalActionError("a start record opens a history; it is not an action (see replay)")
        else:
            raise IllegalActionError(f"unknown action {action!r}")
        self._history.append(action)
        if self.phase is Phase.DECISIONS and self.actor is None:
            self._showdown()

    def apply_chance(self, rng: random.Random | None = None) -> Deal:
        """The chance step ``"deal"``: shuffle a fresh deck (the OS CSPRNG unless ``rng``
        is given; a seeded :class:`random.Random` reproduces) and deal.

        Returns:
            the :class:`Deal` recorded in the history.
        Raises:
            IllegalActionError: not in the wagers phase, or nobody has wagered.
        """
        self._check_phase(Phase.WAGERS, "deal")
        if not self.wagers:
            raise IllegalActionError("cannot deal: no seat has placed a wager")
        deck = Deck(rng or make_rng())
        hands = tuple((p, tuple(deck.deal(5))) for p in range(self.num_players) if p in self.wagers)
        dealer = tuple(deck.deal(6))
        action = Deal(hands, dealer, dealer[-1])
        self.apply(action)
        return action

    def deal(self, rng: random.Random | None = None) -> Deal:
        """Same as :meth:`apply_chance`."""
        return self.apply_chance(rng)

    def place_wagers(self, player: int, ante: int, aces_up: int = 0) -> None:
        """Shortcut for ``apply(PlaceWagers(player, ante, aces_up))``."""
        self.apply(PlaceWagers(player, ante, aces_up))

    def fold(self, player: int) -> None:
        """Shortcut for ``apply(Fold(player))``."""
        self.apply(Fold(player))

    def play(self, player: int, amount: int) -> None:
        """Shortcut for ``apply(Play(player, amount))``."""
        self.apply(Play(player, amount))

    def forfeit(self, player: int) -> None:
        """Shortcut for ``apply(Forfeit(player))`` (docs/rules.md FCP-15)."""
        self.apply(Forfeit(player))

    def void(self, reason: str = "host ruling") -> None:
        """Void the round: every wager returned, every return 0 (seed 004)."""
        self.apply(Void(reason))

    def clone(self) -> PokerRound:
        """An independent copy: the containers are copied, the frozen records shared."""
        new = object.__new__(PokerRound)
        new.__dict__.update(self.__dict__)
        new.wagers = dict(self.wagers)
        new.hands = dict(self.hands)
        new.decisions = dict(self.decisions)
        new.results = dict(self.results)
        new._history = list(self._history)
        return new

    @classmethod
    def replay(cls, rules: PokerRules, history: Iterable[Record | Mapping[str, Any]], *,
               players: int | None = None, seat_labels: Sequence[str] | None = None) -> PokerRound:
        """Rebuild a round from ``history`` (records or their ``to_dict()`` forms, legacy ones included).

        The :class:`Start` record gives the number of players; a history without
        one (records stored before the engine protocol) needs ``players``. ``seat_labels``: as
        for a new round.

        Raises:
            HistoryError: no start record and no ``players``, a start record
                elsewhere or disagreeing with ``players``, a record's JSON form that is
                no record.
            IllegalActionError: a recorded action is illegal, or a record object is
                malformed (never a ``TypeError``); ``IllegalChanceError`` for a deal
                whose cards are not cards or cannot be dealt.
        """
        records: list[Any] = []
        for i, item in enumerate(history):
            if isinstance(item, Mapping):
                try:
                    item = action_from_dict(item)
                except CardError as exc:
                    if isinstance(exc, IllegalChanceError):
                        raise
                    raise IllegalChanceError(f"record {i + 1}: {exc}") from None
            records.append(item)
        if records and isinstance(records[0], Start):
            start = records.pop(0)
            assert isinstance(start, Start)
            if players is not None and players != start.players:
                raise HistoryError(f"the history is of {start.players} players, not {players}")
            players = start.players
        if players is None:
            raise HistoryError("a history without a start record needs the number of players (players=n)")
        try:
            rnd = cls(rules, players, seat_labels=seat_labels)
        except RulesError as exc:
            raise HistoryError(f"bad start record: {exc}") from None
        for i, rec in enumerate(records):
            if isinstance(rec, Start):
                raise HistoryError(f"record {i + 1}: a start record can only come first")
            rnd.apply(rec)
        return rnd

    # -------------------------------------------------------------- internals

    def _check_phase(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"cannot {what}: the round is in the {self.phase.value} phase")

    def _check_player(self, player: object) -> None:
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.num_players:
            return
        who = seat_label(player) if isinstance(player, int) else f"player {player!r}"
        raise IllegalActionError(f"{who} is not at this table (seats 1-{self.num_players})")

    def _check_wagers(self, a: PlaceWagers) -> None:
        r = self.rules
        self._check_player(a.player)
        who = self.seat_label(a.player)
        self._check_phase(Phase.WAGERS, f"place wagers for {who}")
        if a.player in self.wagers:
            raise IllegalActionError(f"{who} has already placed its wagers")
        for name, v in (("ante", a.ante), ("Aces Up", a.aces_up)):
            if not _is_chips(v) or v < 0:
                raise IllegalActionError(f"{who}: the {name} must be a whole number of chips >= 0, got {v!r}")
        if a.ante == 0 and a.aces_up == 0:
            raise IllegalActionError(f"{who}: place an ante, an Aces Up bet, or both")
        if a.ante and not r.min_ante <= a.ante <= r.max_ante:
            raise IllegalActionError(f"{who}: ante {a.ante} is outside the table limits {r.min_ante}-{r.max_ante}")
        if a.aces_up:
            if not r.min_aces_up <= a.aces_up <= r.max_aces_up:
                raise IllegalActionError(
                    f"{who}: Aces Up bet {a.aces_up} is outside the table limits "
                    f"{r.min_aces_up}-{r.max_aces_up}")
            if a.ante == 0 and r.aces_up_requires_ante:
                raise IllegalActionError(f"{who}: under the {r.name} rules the Aces Up bet needs an ante")

    def _check_deal(self, given: Deal) -> Deal:
        """``given`` checked in full, its cards as :class:`Card` objects (text parsed: ``"9h"``
        and ``"9♥"`` are one card): the record to apply. Raises ``IllegalActionError`` for a
        malformed record, ``IllegalChanceError`` for cards that cannot be dealt now."""
        self._check_phase(Phase.WAGERS, "deal")
        if not self.wagers:
            raise IllegalActionError("cannot deal: no seat has placed a wager")
        d = _deal_of_cards(given)
        dealt = [p for p, _ in d.hands]
        if sorted(dealt) != sorted(self.wagers):
            raise IllegalChanceError(
                "the deal must give cards to exactly the seats with wagers "
                f"({', '.join(self.seat_label(p) for p in sorted(self.wagers))}), "
                f"got {', '.join(self.seat_label(p) for p in dealt) or 'none'}")
        if d.dealer is None or any(h is None for _, h in d.hands):
            raise IllegalChanceError("a deal with hidden cards (a player's view of it) cannot be applied")
        for p, h in d.hands:
            if h is None or len(h) != 5:
                raise IllegalChanceError(f"{self.seat_label(p)} must get 5 cards, got {len(h or ())}")
        if len(d.dealer) != 6:
            raise IllegalChanceError(f"the dealer must get 6 cards, got {len(d.dealer)}")
        if d.up_card not in d.dealer:
            raise IllegalChanceError(f"the up card {d.up_card} is not one of the dealer's cards")
        try:
            check_distinct(d.dealer, *(h for _, h in d.hands if h is not None))
        except CardError as exc:
            raise IllegalChanceError(str(exc)) from None
        return d

    def _check_decision(self, a: Fold | Play) -> None:
        self._check_player(a.player)
        who = self.seat_label(a.player)
        what = "fold" if isinstance(a, Fold) else f"play {a.amount!r}"
        self._check_phase(Phase.DECISIONS, f"{what} for {who}")
        if a.player not in self.deciding_players:
            raise IllegalActionError(f"{who} has no ante, so it has no decision to make")
        if a.player in self.decisions:
            raise IllegalActionError(f"{who} has already decided")
        if a.player != self.actor:
            assert self.actor is not None
            raise IllegalActionError(f"{who} cannot act out of turn: {self.seat_label(self.actor)} decides first")
        if isinstance(a, Play):
            ante = self.wagers[a.player].ante
            if not _is_chips(a.amount) or not self.rules.play_amount_allowed(ante, a.amount):
                raise IllegalActionError(
                    f"{who}: play bet {a.amount!r} is not allowed on an ante of {ante}: "
                    f"the play bet must be {self.rules.describe_play_bets(ante)}")

    def _check_forfeit(self, a: Forfeit) -> None:
        """docs/rules.md FCP-15: only an undecided player with an ante forfeits, in ``DECISIONS``."""
        self._check_player(a.player)
        who = self.seat_label(a.player)
        if self.is_terminal:
            raise IllegalActionError(f"{who} cannot forfeit: the round is already {self.phase.value}")
        if self.phase is Phase.WAGERS:
            raise IllegalActionError(f"{who} cannot forfeit before the deal: nothing is at risk yet "
                                     "(take the wagers back with withdraw_wagers)")
        w = self.wagers.get(a.player)
        if w is None:
            raise IllegalActionError(f"{who} cannot forfeit: it has no wagers in this round")
        if w.ante == 0:
            raise IllegalActionError(f"{who} cannot forfeit: it has only an Aces Up bet, which is settled on "
                                     "its hand (nothing to forfeit)")
        d = self.decisions.get(a.player)
        if d is not None:
            how = "played" if isinstance(d, Play) else "forfeited" if isinstance(d, Forfeit) else "folded"
            raise IllegalActionError(f"{who} cannot forfeit: it has already {how}; its wagers are settled "
                                     "at the showdown")

    def _showdown(self) -> None:
        for p in range(self.num_players):
            if p not in self.wagers:
                continue
            w = self.wagers[p]
            d = self.decisions.get(p)
            self.results[p] = settle_hand(
                self.rules, self.hands[p], self.dealer_cards, ante=w.ante,
                play=d.amount if isinstance(d, Play) else None, aces_up=w.aces_up, player=p)
        self.phase = Phase.SETTLED

    def __repr__(self) -> str:
        return f"PokerRound({self.rules.name!r}, players={self.num_players}, phase={self.phase.value})"


def describe_result(result: SeatResult) -> str:
    """One line per wager, e.g. ``"ante +10, play +30, ante bonus +20 -> net +60"``; a capped win adds
    ``"win cap -1600 (wins 10000 capped at 8400)"``."""
    parts = [f"{k.replace('_', ' ')} {v:+d}" for k, v in result.wagers.items() if v]
    if result.win_cap_adjustment:
        wins = result.settlement.wins
        parts.append(f"win cap {result.win_cap_adjustment:+d} (wins {wins} capped at "
                     f"{wins + result.win_cap_adjustment})")
    return ", ".join(parts or ["no wagers"]) + f" -> net {result.net:+d}"


if TYPE_CHECKING:  # pragma: no cover - mypy checks that the round implements the engine protocol
    def _implements_protocol(r: PokerRound) -> GameState:
        return r
