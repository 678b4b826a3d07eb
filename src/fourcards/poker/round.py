"""One round of Four Card Poker at a table of 1-9 seats against the dealer.

The round is a state machine (seed 002 Articles 2-6, seed 004 "How To Play"):

1. ``WAGERS`` - each seat places an ante and/or an Aces Up bet
   (:class:`PlaceWagers`), within the table limits of :class:`PokerRules`.
2. :class:`Deal` (a chance event) - five cards to each seat with a wager, six to
   the dealer of which one is the up card; dealt from a shuffled deck by
   :meth:`PokerRound.deal` or supplied explicitly (replays, tests).
3. ``DECISIONS`` - in seat order, each seat with an ante folds (:class:`Fold`)
   or makes a play bet (:class:`Play`) of 1x-3x the ante (``live``) or exactly
   1x or 3x (``online``). Seats with only an Aces Up bet make no decision.
4. ``SETTLED`` - after the last decision the dealer's hand is revealed and
   every wager is settled (:class:`SeatResult`).

:class:`Void` (the host's ruling; seed 004 "Malfunction voids all pays and
plays") ends the round at any point before settlement with every wager
returned. Every action is validated before anything changes: an illegal one
raises :class:`~fourcards.errors.IllegalActionError` (or
:class:`~fourcards.errors.CardError` for bad cards) and leaves the round as it
was. Every applied action is appended to :attr:`PokerRound.history`;
:meth:`PokerRound.replay` rebuilds the round from it exactly.

Money is whole chips. :attr:`PokerRound.payoffs` gives each seat's net result;
the house's result is minus their sum, so chips are conserved.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Union

from fourcards.cards import Card, Deck, check_distinct, make_rng, parse_card, parse_cards
from fourcards.errors import CardError, IllegalActionError
from fourcards.hands import HandValue, best_hand
from fourcards.poker.rules import PokerRules
from fourcards.poker.settlement import Settlement, settle

__all__ = [
    "Phase",
    "PlaceWagers",
    "Deal",
    "Fold",
    "Play",
    "Void",
    "Action",
    "LegalAction",
    "SeatResult",
    "PokerRound",
    "settle_hand",
    "action_from_dict",
    "describe_result",
]


class _Record:
    """Mixin: JSON-ready record of an action (see :func:`action_from_dict`)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]


class Phase(str, Enum):
    """Where a round stands."""

    WAGERS = "wagers"
    DECISIONS = "decisions"
    SETTLED = "settled"
    VOIDED = "voided"


# --------------------------------------------------------------------- actions


@dataclass(frozen=True)
class PlaceWagers(_Record):
    """A seat's wagers before the deal, in chips (seed 002 "Before the deal").

    ``ante`` may be 0 only for an Aces Up bet alone, where the rules allow it.
    """

    seat: int
    ante: int
    aces_up: int = 0
    kind: str = field(default="place_wagers", init=False)


@dataclass(frozen=True)
class Deal(_Record):
    """The deal (a chance event): five cards per wagering seat, six to the dealer.

    ``hands`` maps seat -> its five cards; ``dealer`` holds the dealer's six
    cards, one of which is ``up_card``.
    """

    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]
    up_card: Card
    kind: str = field(default="deal", init=False)

    @classmethod
    def of(cls, hands: Mapping[int, Iterable[Card | str] | str], dealer: Iterable[Card | str] | str,
           up_card: Card | str) -> Deal:
        """Build a deal from card text, e.g. ``Deal.of({1: "9h 9d 9s Kc 3d"}, "Qd Qs 8c 8h 4s 2d", "Qd")``.

        Raises:
            CardError: malformed cards, a hand not of five, a dealer hand not of
                six, the up card not among the dealer's cards, or a card twice.
        """
        parsed = tuple(sorted((int(s), tuple(parse_cards(h, count=5))) for s, h in hands.items()))
        dealer_cards = tuple(parse_cards(dealer, count=6))
        up = parse_card(up_card)
        if up not in dealer_cards:
            raise CardError(f"the up card {up} is not one of the dealer's six cards")
        check_distinct(dealer_cards, *(h for _, h in parsed))
        return cls(parsed, dealer_cards, up)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``kind``, ``hands`` (seat as a string -> five cards as ``"Th"``), ``dealer`` (six
        cards) and ``up_card``; the inverse is :func:`action_from_dict`.
        """
        return {
            "kind": "deal",
            "hands": {str(s): [str(c) for c in h] for s, h in self.hands},
            "dealer": [str(c) for c in self.dealer],
            "up_card": str(self.up_card),
        }


@dataclass(frozen=True)
class Fold(_Record):
    """Fold: the ante is lost (seed 002 §3.1(a))."""

    seat: int
    kind: str = field(default="fold", init=False)


@dataclass(frozen=True)
class Play(_Record):
    """A play bet of ``amount`` chips (seed 002 §3.1(b); seed 004: 1x or 3x only)."""

    seat: int
    amount: int
    kind: str = field(default="play", init=False)


@dataclass(frozen=True)
class Void(_Record):
    """Void the round: every wager is returned (seed 004 "Malfunction voids all pays
    and plays"; the host's ruling, DESIGN.md)."""

    reason: str = "host ruling"
    kind: str = field(default="void", init=False)


Action = Union[PlaceWagers, Deal, Fold, Play, Void]


@dataclass(frozen=True)
class LegalAction:
    """An option open now (same shape as :class:`fourcards.kind.actions.LegalAction`).

    Attributes:
        kind: ``"place_wagers"``, ``"deal"``, ``"fold"``, ``"play"`` or ``"void"``.
        seat: the seat it belongs to (``None`` for ``deal`` and ``void``).
        min_amount / max_amount: chips - the play bet's bounds, or the ante's table
            limits for ``place_wagers`` (0 where no amount is involved).
        amounts: the only legal play bets when the rules fix them (seed 004: 1x
            or 3x), else ``None`` (any whole amount in the bounds).
        aces_up_min / aces_up_max: the Aces Up limits (``place_wagers`` only).
    """

    kind: str
    seat: int | None = None
    min_amount: int = 0
    max_amount: int = 0
    amounts: tuple[int, ...] | None = None
    aces_up_min: int = 0
    aces_up_max: int = 0

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is this option with a legal amount (table limits only
        for wagers; the round's own checks are the authority)."""
        if action.kind != self.kind or getattr(action, "seat", None) != self.seat:
            return False
        if isinstance(action, Play):
            if self.amounts is not None:
                return action.amount in self.amounts
            return self.min_amount <= action.amount <= self.max_amount
        return True

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``kind`` and ``seat`` when set; ``min_amount``/``max_amount`` (chips) for ``play`` and
        ``place_wagers``; ``amounts`` when fixed; ``aces_up_min``/``aces_up_max`` for ``place_wagers``.
        """
        d: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.kind in ("play", "place_wagers"):
            d["min_amount"], d["max_amount"] = self.min_amount, self.max_amount
        if self.amounts is not None:
            d["amounts"] = list(self.amounts)
        if self.kind == "place_wagers":
            d["aces_up_min"], d["aces_up_max"] = self.aces_up_min, self.aces_up_max
        return d


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Inverse of ``action.to_dict()`` (JSON history records).

    Raises:
        IllegalActionError: unknown kind or missing fields.
        CardError: bad cards in a deal.
    """
    try:
        kind = data["kind"]
        if kind == "place_wagers":
            return PlaceWagers(int(data["seat"]), int(data["ante"]), int(data.get("aces_up", 0)))
        if kind == "deal":
            return Deal.of({int(s): h for s, h in data["hands"].items()}, data["dealer"], data["up_card"])
        if kind == "fold":
            return Fold(int(data["seat"]))
        if kind == "play":
            return Play(int(data["seat"]), int(data["amount"]))
        if kind == "void":
            return Void(str(data.get("reason", "host ruling")))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, CardError):
            raise
        raise IllegalActionError(f"malformed action record {dict(data)!r}: {exc}") from None
    raise IllegalActionError(f"unknown action kind {data.get('kind')!r}")


# ------------------------------------------------------------------ settlement


@dataclass(frozen=True)
class SeatResult:
    """How one seat's wagers were settled, in signed chips (+ won, - lost).

    Attributes:
        seat: the seat.
        player_hand / player_best: the seat's best four of five and which cards.
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

    seat: int
    player_hand: HandValue
    player_best: tuple[Card, ...]
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

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the fields, hands as ``{category, description[, cards]}`` (the player's best four
        cards as ``"Th"``); ``wagers``, ``win_cap_adjustment`` and ``net`` in signed chips.
        """
        return {
            "seat": self.seat,
            "player_hand": {"category": self.player_hand.category.key,
                            "description": self.player_hand.describe(),
                            "cards": [str(c) for c in self.player_best]},
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
    seat: int = 1,
) -> SeatResult:
    """Settle one seat's wagers against the dealer's six cards.

    Values both hands and applies :func:`fourcards.poker.settlement.settle` (the
    rules and their sources are in that module's doc).

    Args:
        rules: pay tables and win cap.
        player_cards: the seat's five cards; dealer_cards: the dealer's six.
        ante, aces_up: wagers in chips; ``play``: the play bet in chips, or
            ``None`` for a fold (ignored when ``ante`` is 0).

    Returns:
        the :class:`SeatResult`; its ``net`` is the seat's gain in chips.

    Raises:
        IllegalActionError: a wager that is not a whole number of chips >= 0.
    """
    player_value, player_best = best_hand(player_cards)
    dealer_value, _ = best_hand(dealer_cards)
    result = settle(rules, player_value, dealer_value, ante=ante, play=play, aces_up=aces_up)
    return SeatResult(seat, player_value, player_best, dealer_value, result)


# ----------------------------------------------------------------------- round


class PokerRound:
    """One round of Four Card Poker: seats against the dealer (see module doc).

    Args:
        rules: the table's :class:`PokerRules`.
        seats: seat numbers at the table (1-9 distinct positive ints), or a count
            ``n`` meaning seats ``1..n``.

    Raises:
        IllegalActionError: a bad seat list.
    """

    def __init__(self, rules: PokerRules, seats: int | Iterable[int] = 1) -> None:
        seat_list = list(range(1, seats + 1)) if isinstance(seats, int) else [int(s) for s in seats]
        if not 1 <= len(seat_list) <= rules.max_seats:
            raise IllegalActionError(f"a round has 1 to {rules.max_seats} seats, got {len(seat_list)}")
        if len(set(seat_list)) != len(seat_list) or any(s < 1 for s in seat_list):
            raise IllegalActionError(f"seats must be distinct positive numbers, got {seat_list}")
        self.rules = rules
        self.seats: tuple[int, ...] = tuple(sorted(seat_list))
        self.phase = Phase.WAGERS
        self.wagers: dict[int, PlaceWagers] = {}
        self.hands: dict[int, tuple[Card, ...]] = {}
        self.dealer_cards: tuple[Card, ...] = ()
        self.up_card: Card | None = None
        self.decisions: dict[int, Fold | Play] = {}
        self.results: dict[int, SeatResult] = {}
        self.void_reason: str | None = None
        self._history: list[Action] = []

    # ---------------------------------------------------------------- queries

    @property
    def history(self) -> tuple[Action, ...]:
        """Every applied action in order (chance events included)."""
        return tuple(self._history)

    @property
    def is_terminal(self) -> bool:
        """Whether the round is over: settled or voided (no action is legal any more)."""
        return self.phase in (Phase.SETTLED, Phase.VOIDED)

    @property
    def deciding_seats(self) -> tuple[int, ...]:
        """Seats with an ante, in seat order: the ones that fold or play."""
        return tuple(s for s in self.seats if s in self.wagers and self.wagers[s].ante > 0)

    @property
    def actor(self) -> int | None:
        """The seat whose decision is due (seat order), or ``None`` outside ``DECISIONS``."""
        if self.phase is not Phase.DECISIONS:
            return None
        for s in self.deciding_seats:
            if s not in self.decisions:
                return s
        return None

    def play_amounts(self, seat: int) -> list[int]:
        """The legal play bets of ``seat`` in chips (increasing; :meth:`PokerRules.play_amounts`)."""
        return list(self.rules.play_amounts(self.wagers[seat].ante))

    def legal_actions(self) -> list[LegalAction]:
        """What may be done now.

        In ``WAGERS``: ``place_wagers`` for each seat without wagers (with the ante
        and Aces Up limits) and ``deal`` once any seat has wagered; in
        ``DECISIONS``: ``fold`` and ``play`` (bounds in chips and, for fixed
        multiples, the ``amounts``) for the :attr:`actor`; ``void`` until the round
        is settled.
        """
        r = self.rules
        out: list[LegalAction] = []
        if self.phase is Phase.WAGERS:
            out += [LegalAction("place_wagers", s, r.min_ante, r.max_ante, None, r.min_aces_up, r.max_aces_up)
                    for s in self.seats if s not in self.wagers]
            if self.wagers:
                out.append(LegalAction("deal"))
        elif self.phase is Phase.DECISIONS and self.actor is not None:
            amounts = self.play_amounts(self.actor)
            out.append(LegalAction("fold", self.actor))
            out.append(LegalAction("play", self.actor, amounts[0], amounts[-1],
                                   None if r.play_any_amount else tuple(amounts)))
        if not self.is_terminal:
            out.append(LegalAction("void"))
        return out

    @property
    def payoffs(self) -> dict[int, int]:
        """Net chips per seat (0 for every seat of a voided or unfinished round)."""
        if self.phase is not Phase.SETTLED:
            return {s: 0 for s in self.seats}
        return {s: (self.results[s].net if s in self.results else 0) for s in self.seats}

    @property
    def house_net(self) -> int:
        """The house's net result in chips: minus the sum of the seats' payoffs."""
        return -sum(self.payoffs.values())

    def total_wagered(self, seat: int) -> int:
        """Chips the seat has put at risk so far (ante + Aces Up + play bet)."""
        w = self.wagers.get(seat)
        if w is None:
            return 0
        d = self.decisions.get(seat)
        return w.ante + w.aces_up + (d.amount if isinstance(d, Play) else 0)

    def observation(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (JSON-ready). ``seat=None``: a spectator's view.

        Before settlement a seat sees its own five cards and the dealer's up card
        only - never the dealer's hole cards, another seat's cards or the deck.
        At showdown the dealer's cards and the cards of every seat that played
        are revealed; folded hands stay hidden from other seats.

        Raises:
            IllegalActionError: ``seat`` is not at this table.
        """
        if seat is not None and seat not in self.seats:
            raise IllegalActionError(f"seat {seat} is not at this table (seats {list(self.seats)})")
        showdown = self.phase is Phase.SETTLED
        seats_view = []
        for s in self.seats:
            w = self.wagers.get(s)
            d = self.decisions.get(s)
            entry: dict[str, Any] = {
                "seat": s,
                "ante": w.ante if w else 0,
                "aces_up": w.aces_up if w else 0,
                "decision": None if d is None else ("fold" if isinstance(d, Fold) else "play"),
                "play": d.amount if isinstance(d, Play) else 0,
                "cards": None,
            }
            visible = s in self.hands and (s == seat or (showdown and not isinstance(d, Fold)))
            if visible:
                entry["cards"] = [str(c) for c in self.hands[s]]
            if showdown and s in self.results:
                entry["result"] = self.results[s].to_dict()
                if not visible:
                    entry["result"]["player_hand"] = None
            seats_view.append(entry)
        obs: dict[str, Any] = {
            "game": "four_card_poker",
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "seat": seat,
            "actor": self.actor,
            "up_card": str(self.up_card) if self.up_card else None,
            "dealer_cards": [str(c) for c in self.dealer_cards] if showdown else None,
            "seats": seats_view,
            "legal_actions": [a.to_dict() for a in self.legal_actions()
                              if a.seat in (None, seat) and a.kind != "void"],
            "void_reason": self.void_reason,
        }
        if showdown:
            obs["dealer_hand"] = best_hand(self.dealer_cards)[0].describe()
        return obs

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action) -> None:
        """Apply an action; validate fully first, so a refused action changes nothing.

        Raises:
            IllegalActionError: wrong phase, out of turn, an unknown seat, an
                amount outside the rules or table limits.
            CardError: a deal with bad cards.
        """
        if isinstance(action, PlaceWagers):
            self._check_wagers(action)
            self.wagers[action.seat] = action
        elif isinstance(action, Deal):
            self._check_deal(action)
            self.hands = dict(action.hands)
            self.dealer_cards = action.dealer
            self.up_card = action.up_card
            self.phase = Phase.DECISIONS
        elif isinstance(action, (Fold, Play)):
            self._check_decision(action)
            self.decisions[action.seat] = action
        elif isinstance(action, Void):
            if self.is_terminal:
                raise IllegalActionError(f"the round is already {self.phase.value}; it cannot be voided")
            self.phase = Phase.VOIDED
            self.void_reason = action.reason
        else:
            raise IllegalActionError(f"unknown action {action!r}")
        self._history.append(action)
        if self.phase is Phase.DECISIONS and self.actor is None:
            self._showdown()

    def place_wagers(self, seat: int, ante: int, aces_up: int = 0) -> None:
        """Shortcut for ``apply(PlaceWagers(seat, ante, aces_up))``."""
        self.apply(PlaceWagers(seat, ante, aces_up))

    def deal(self, rng: random.Random | None = None) -> Deal:
        """Shuffle a fresh deck and deal (the OS CSPRNG unless ``rng`` is given).

        Returns:
            the :class:`Deal` recorded in the history.
        Raises:
            IllegalActionError: not in the wagers phase, or nobody has wagered.
        """
        self._check_phase(Phase.WAGERS, "deal")
        if not self.wagers:
            raise IllegalActionError("cannot deal: no seat has placed a wager")
        deck = Deck(rng or make_rng())
        hands = tuple((s, tuple(deck.deal(5))) for s in self.seats if s in self.wagers)
        dealer = tuple(deck.deal(6))
        action = Deal(hands, dealer, dealer[-1])
        self.apply(action)
        return action

    def fold(self, seat: int) -> None:
        """Shortcut for ``apply(Fold(seat))``."""
        self.apply(Fold(seat))

    def play(self, seat: int, amount: int) -> None:
        """Shortcut for ``apply(Play(seat, amount))``."""
        self.apply(Play(seat, amount))

    def void(self, reason: str = "host ruling") -> None:
        """Void the round: every wager returned, every payoff 0 (seed 004)."""
        self.apply(Void(reason))

    def clone(self) -> PokerRound:
        """An independent deep copy."""
        return copy.deepcopy(self)

    @classmethod
    def replay(cls, rules: PokerRules, seats: int | Iterable[int],
               history: Iterable[Action | Mapping[str, Any]]) -> PokerRound:
        """Rebuild a round by applying ``history`` (actions or their ``to_dict()`` records)."""
        rnd = cls(rules, seats)
        for item in history:
            rnd.apply(item if not isinstance(item, Mapping) else action_from_dict(item))
        return rnd

    # -------------------------------------------------------------- internals

    def _check_phase(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"cannot {what}: the round is in the {self.phase.value} phase")

    def _check_seat(self, seat: int) -> None:
        if seat not in self.seats:
            raise IllegalActionError(f"seat {seat} is not at this table (seats {list(self.seats)})")

    def _check_wagers(self, a: PlaceWagers) -> None:
        r = self.rules
        self._check_phase(Phase.WAGERS, f"place wagers for seat {a.seat}")
        self._check_seat(a.seat)
        if a.seat in self.wagers:
            raise IllegalActionError(f"seat {a.seat} has already placed its wagers")
        for name, v in (("ante", a.ante), ("Aces Up", a.aces_up)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise IllegalActionError(f"seat {a.seat}: the {name} must be a whole number of chips >= 0, got {v!r}")
        if a.ante == 0 and a.aces_up == 0:
            raise IllegalActionError(f"seat {a.seat}: place an ante, an Aces Up bet, or both")
        if a.ante and not r.min_ante <= a.ante <= r.max_ante:
            raise IllegalActionError(f"seat {a.seat}: ante {a.ante} is outside the table limits {r.min_ante}-{r.max_ante}")
        if a.aces_up:
            if not r.min_aces_up <= a.aces_up <= r.max_aces_up:
                raise IllegalActionError(
                    f"seat {a.seat}: Aces Up bet {a.aces_up} is outside the table limits "
                    f"{r.min_aces_up}-{r.max_aces_up}")
            if a.ante == 0 and r.aces_up_requires_ante:
                raise IllegalActionError(f"seat {a.seat}: under the {r.name} rules the Aces Up bet needs an ante")

    def _check_deal(self, d: Deal) -> None:
        self._check_phase(Phase.WAGERS, "deal")
        if not self.wagers:
            raise IllegalActionError("cannot deal: no seat has placed a wager")
        dealt_seats = [s for s, _ in d.hands]
        if sorted(dealt_seats) != sorted(self.wagers):
            raise IllegalActionError(
                f"the deal must give cards to exactly the seats with wagers {sorted(self.wagers)}, got {dealt_seats}")
        for s, h in d.hands:
            if len(h) != 5:
                raise CardError(f"seat {s} must get 5 cards, got {len(h)}")
        if len(d.dealer) != 6:
            raise CardError(f"the dealer must get 6 cards, got {len(d.dealer)}")
        if d.up_card not in d.dealer:
            raise CardError(f"the up card {d.up_card} is not one of the dealer's cards")
        check_distinct(d.dealer, *(h for _, h in d.hands))

    def _check_decision(self, a: Fold | Play) -> None:
        what = "fold" if isinstance(a, Fold) else f"play {a.amount}"
        self._check_phase(Phase.DECISIONS, f"{what} for seat {a.seat}")
        self._check_seat(a.seat)
        if a.seat not in self.deciding_seats:
            raise IllegalActionError(f"seat {a.seat} has no ante, so it has no decision to make")
        if a.seat in self.decisions:
            raise IllegalActionError(f"seat {a.seat} has already decided")
        if a.seat != self.actor:
            raise IllegalActionError(f"seat {a.seat} cannot act out of turn: seat {self.actor} decides first")
        if isinstance(a, Play):
            ante = self.wagers[a.seat].ante
            if not isinstance(a.amount, int) or isinstance(a.amount, bool) or \
                    not self.rules.play_amount_allowed(ante, a.amount):
                raise IllegalActionError(
                    f"seat {a.seat}: play bet {a.amount!r} is not allowed on an ante of {ante}: "
                    f"the play bet must be {self.rules.describe_play_bets(ante)}")

    def _showdown(self) -> None:
        for s in self.seats:
            if s not in self.wagers:
                continue
            w = self.wagers[s]
            d = self.decisions.get(s)
            self.results[s] = settle_hand(
                self.rules, self.hands[s], self.dealer_cards, ante=w.ante,
                play=d.amount if isinstance(d, Play) else None, aces_up=w.aces_up, seat=s)
        self.phase = Phase.SETTLED

    def __repr__(self) -> str:
        return f"PokerRound({self.rules.name!r}, seats={list(self.seats)}, phase={self.phase.value})"


def describe_result(result: SeatResult) -> str:
    """One line per wager, e.g. ``"ante +10, play +30, ante bonus +20 -> net +60"``; a capped win adds
    ``"win cap -1600 (wins 10000 capped at 8400)"``."""
    parts = [f"{k.replace('_', ' ')} {v:+d}" for k, v in result.wagers.items() if v]
    if result.win_cap_adjustment:
        wins = result.settlement.wins
        parts.append(f"win cap {result.win_cap_adjustment:+d} (wins {wins} capped at "
                     f"{wins + result.win_cap_adjustment})")
    return ", ".join(parts or ["no wagers"]) + f" -> net {result.net:+d}"

