"""The vocabulary of a Four Card Poker round: its phases, the kinds of action, each action a
player (or the host) takes, and the options open now (:class:`LegalAction`).

* :class:`Phase` - where a round stands; :class:`ActionKind` - the kinds of action (the JSON
  ``kind`` of the records);
* :class:`PlaceWagers`, :class:`WithdrawWagers` (before the deal), :class:`Fold`, :class:`Play`
  (the decisions), :class:`Void` (the host's ruling), :class:`Forfeit` (leaving out of turn);
* :class:`LegalAction` - one option offered now (the engine protocol's legal action).

The deal (a chance step) and the history's other records are :mod:`fourcards.poker.history`;
the state machine that applies them is :class:`fourcards.poker.round.PokerRound`. Players are
0-based; amounts are whole chips.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from fourcards.errors import IllegalActionError

__all__ = ["Phase", "ActionKind", "PlaceWagers", "WithdrawWagers", "Fold", "Play", "Void", "Forfeit", "LegalAction",
           "is_chips"]


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


def is_chips(v: object) -> bool:
    """Whether ``v`` is a whole number of chips (an ``int``, not a ``bool``)."""
    return isinstance(v, int) and not isinstance(v, bool)


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
            if not is_chips(action.amount):
                return False
            if self.amounts is not None:
                return action.amount in self.amounts
            return self.min_amount <= action.amount <= self.max_amount
        if isinstance(action, PlaceWagers):
            a, u = action.ante, action.aces_up
            if not (is_chips(a) and is_chips(u)) or (a == 0 and u == 0):
                return False
            return (a == 0 or self.min_amount <= a <= self.max_amount) and \
                (u == 0 or self.aces_up_min <= u <= self.aces_up_max)
        return True

    def action(self, amount: int | None = None, aces_up: int = 0) -> PlaceWagers | WithdrawWagers | Fold | Play | Void:
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
