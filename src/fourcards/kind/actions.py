"""Betting actions of Four of a Kind: what a player does and what a player may do.

* :class:`Action` - a player's choice: check, bet, call, raise or fold, with an
  amount in chips. For a bet or raise the amount is what the player adds
  **above the current bet** (spread limit: ``min_bet``..``max_bet``, seed 000
  "A minimum and maximum bet/raise should be agreed in advance"); for a call it
  is the chips put in (0 on input means "whatever the call costs").
* :class:`LegalAction` - one option offered to the player to act, with the
  allowed amount range (``min_amount``..``max_amount``, whole chips): the
  engine protocol's legal action (:mod:`fourcards.engine`).

An action acts for the player to act; give it a ``player`` (0-based) to have
the game also check that it is that player's turn.

Text form (terminal, logs): ``check``, ``bet 5``, ``call``, ``raise 10``, ``fold``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from fourcards.errors import IllegalActionError

__all__ = ["ActionKind", "Action", "LegalAction"]


class ActionKind(str, Enum):
    """The five betting moves (seed 000 "Initial deal and betting"; seed 001 §3.1)."""

    CHECK = "check"
    BET = "bet"
    CALL = "call"
    RAISE = "raise"
    FOLD = "fold"


@dataclass(frozen=True, slots=True)
class Action:
    """A betting action. ``amount`` in chips: the bet/raise size above the current
    bet, or the chips a call puts in (0 = "the call amount"); 0 for check and fold.
    ``player``: whose action it is (0-based), or ``None`` for "the player to act".

    Raises:
        IllegalActionError: a negative or non-integer amount, a non-integer player.
    """

    kind: ActionKind
    amount: int = 0
    player: int | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", ActionKind(self.kind))
        except ValueError:
            raise IllegalActionError(
                f"unknown action {self.kind!r}: use check, bet, call, raise or fold"
            ) from None
        if not isinstance(self.amount, int) or isinstance(self.amount, bool) or self.amount < 0:
            raise IllegalActionError(f"an amount must be a whole, non-negative number of chips, got {self.amount!r}")
        if self.player is not None and (not isinstance(self.player, int) or isinstance(self.player, bool)):
            raise IllegalActionError(f"a player is a whole number (0-based), got {self.player!r}")

    @classmethod
    def check(cls) -> Action:
        """A check (amount 0)."""
        return cls(ActionKind.CHECK)

    @classmethod
    def bet(cls, amount: int) -> Action:
        """A bet of ``amount`` chips above the current bet (spread limit ``min_bet``..``max_bet``, seed 000)."""
        return cls(ActionKind.BET, amount)

    @classmethod
    def call(cls, amount: int = 0) -> Action:
        """A call putting in ``amount`` chips (0: whatever the call costs)."""
        return cls(ActionKind.CALL, amount)

    @classmethod
    def raise_(cls, amount: int) -> Action:
        """A raise of ``amount`` chips above the current bet (spread limit, raise cap; seed 000, seed 001 §3.2)."""
        return cls(ActionKind.RAISE, amount)

    @classmethod
    def fold(cls) -> Action:
        """A fold (amount 0)."""
        return cls(ActionKind.FOLD)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"check"``, ``"bet 5"``, ``"call"``, ``"raise 10"``, ``"fold"``.

        ``bet``/``raise`` without an amount mean 0, which the game rejects unless
        a short all-in allows it; the terminal fills in the minimum instead.

        Raises:
            IllegalActionError: unknown word or a malformed amount.
        """
        parts = text.strip().lower().split()
        if not parts:
            raise IllegalActionError("empty action: use check, bet N, call, raise N or fold")
        word, rest = parts[0], parts[1:]
        aliases = {"k": "check", "x": "check", "c": "call", "b": "bet", "r": "raise", "f": "fold"}
        word = aliases.get(word, word)
        if len(rest) > 1:
            raise IllegalActionError(f"malformed action {text!r}: expected e.g. 'raise 10'")
        amount = 0
        if rest:
            try:
                amount = int(rest[0])
            except ValueError:
                raise IllegalActionError(f"malformed amount {rest[0]!r} in {text!r}: use whole chips") from None
        return cls(word, amount)  # type: ignore[arg-type]

    def __str__(self) -> str:
        if self.kind in (ActionKind.BET, ActionKind.RAISE) or (self.kind is ActionKind.CALL and self.amount):
            return f"{self.kind.value} {self.amount}"
        return self.kind.value

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "check"|"bet"|"call"|"raise"|"fold", "amount": chips}``, plus
        ``"player"`` (0-based) when set."""
        d: dict[str, Any] = {"kind": self.kind.value, "amount": self.amount}
        if self.player is not None:
            d["player"] = self.player
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Rebuild an action from :meth:`to_dict` output (``amount`` in chips, default 0, passed through ``int``).

        Raises:
            KeyError: no ``kind``.
            IllegalActionError: an unknown kind or a negative amount.
            ValueError, TypeError: an amount ``int()`` cannot convert.
        """
        player = data.get("player")
        return cls(data["kind"], int(data.get("amount", 0)), None if player is None else int(player))


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An option open to the player to act.

    Attributes:
        kind: the move.
        min_amount / max_amount: allowed amounts in chips (inclusive). For a
            bet or raise, chips above the current bet; for a call, the exact
            chips it costs (both equal); 0 for check and fold.
        all_in: whether ``max_amount`` (with the call, for a raise) is the
            player's whole stack.
        player: the player to act (0-based).
        amounts: always ``None`` (any whole amount in the range; the engine
            protocol's field for games with fixed amounts).
    """

    kind: ActionKind
    min_amount: int = 0
    max_amount: int = 0
    all_in: bool = False
    player: int | None = None
    amounts: tuple[int, ...] | None = None

    def action(self, amount: int | None = None) -> Action:
        """The :class:`Action` with ``amount`` (default ``min_amount``), for the player to act."""
        return Action(self.kind, self.min_amount if amount is None else amount)

    def allows(self, action: object) -> bool:
        """Whether ``action`` is this option with an allowed amount (and, when the action
        names a player, this option's player)."""
        if not isinstance(action, Action) or action.kind is not self.kind:
            return False
        if action.player is not None and self.player is not None and action.player != self.player:
            return False
        if self.kind is ActionKind.CALL:
            return action.amount in (0, self.min_amount)
        return self.min_amount <= action.amount <= self.max_amount

    def __str__(self) -> str:
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            rng = f"{self.min_amount}" if self.min_amount == self.max_amount else f"{self.min_amount}-{self.max_amount}"
            return f"{self.kind.value} {rng}" + (" (all-in)" if self.all_in and self.min_amount == self.max_amount else "")
        if self.kind is ActionKind.CALL:
            return f"call {self.min_amount}" + (" (all-in)" if self.all_in else "")
        return self.kind.value

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``kind``, ``min_amount`` and ``max_amount`` (chips) and ``all_in``; ``player``
        (0-based) when set."""
        d: dict[str, Any] = {"kind": self.kind.value, "min_amount": self.min_amount,
                             "max_amount": self.max_amount, "all_in": self.all_in}
        if self.player is not None:
            d["player"] = self.player
        return d
