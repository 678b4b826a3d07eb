"""The engine protocol: one state API that every fourcards game implements.

Both games are state machines of the same shape, after OpenSpiel's ``State``
and PokerKit's ``State`` (docs/engine.md has the table of how each maps on it):

* players are ``0..num_players-1`` in the API; people see ``1..n``
  (:func:`seat_label`: player 3 is ``"seat 4"`` in every message);
* at any point either a player is to act (:attr:`GameState.actor`), a chance
  step may be applied (:attr:`GameState.chance_step`: ``"deal"``, ``"turn"``),
  or the game is over (:attr:`GameState.is_terminal`). A phase open to every
  player at once (the wagers of Four Card Poker) has no ``actor``; each
  player's options are in ``legal_actions(player)``;
* :meth:`GameState.legal_actions` gives typed, frozen :class:`LegalAction`
  options: an :class:`~enum.Enum` ``kind``, the ``player`` (``None`` for a
  table-level option such as a host's void), ``min_amount``/``max_amount``
  and ``amounts`` (the only legal amounts when the rules fix them, else
  ``None``), in whole chips; ``option.action(amount)`` builds the action;
* :meth:`GameState.apply` validates an action - or a chance record, which
  scripts the chance step - in full before changing anything; a refused one
  raises :class:`~fourcards.errors.IllegalActionError` and the state is
  exactly as before;
* :meth:`GameState.apply_chance` draws the due chance outcome (the OS CSPRNG
  unless a seeded :class:`random.Random` is given), applies it and returns its
  record;
* :meth:`GameState.returns` - each player's net chips from the settlement,
  whole chips, all zeros until the game is over (and for a voided round);
* :meth:`GameState.observation` - a frozen view of what one player may see
  (``None``: a spectator), ``to_dict()`` for JSON; its ``history`` is the
  history as that player may see it (hidden cards left out), which is what a
  hand history may show that player;
* :attr:`GameState.history` - frozen records (chance events included), each
  with ``to_dict()``; :meth:`GameState.replay` rebuilds the state from them;
* :meth:`GameState.clone` - an independent copy, cheap enough to apply an
  action to a copy and keep the original if anything goes wrong.

The protocol holds no code of the games; :mod:`fourcards.poker.round` and
:mod:`fourcards.kind.game` implement it natively.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, Protocol, Self, runtime_checkable

from fourcards.errors import IllegalActionError, InputError
from fourcards.inputs import check_reason

__all__ = ["seat_label", "check_void_reason", "LegalAction", "Record", "Observation", "GameState"]


def seat_label(player: int) -> str:
    """How people see engine player ``player`` (0-based): ``seat_label(3) == "seat 4"``.

    docs/rules.md TP-1: seats are numbered 1..n for people;
    engines count players 0..n-1. Every engine message names players this way.
    """
    return f"seat {player + 1}"


def check_void_reason(reason: object) -> str:
    """The reason of a ``Void`` record, checked the same way in both games (issue 19): text that
    :func:`fourcards.inputs.check_reason` accepts (printable, not blank, at most 500
    characters), returned as given.

    Raises:
        IllegalActionError: anything else (``None``, a number, a blank or control-character text).
    """
    try:
        return check_reason(reason)
    except InputError as exc:
        raise IllegalActionError(str(exc)) from None


@runtime_checkable
class LegalAction(Protocol):
    """One option open now (each game has its own frozen class and ``kind`` enum).

    Attributes:
        kind: the option, a member of the game's action-kind :class:`~enum.Enum`.
        player: whose option it is (0-based), ``None`` for a table-level option.
        min_amount / max_amount: the amount's bounds in whole chips (0 where none).
        amounts: the only legal amounts when the rules fix them, else ``None``.
    """

    @property
    def kind(self) -> Enum: ...

    @property
    def player(self) -> int | None: ...

    @property
    def min_amount(self) -> int: ...

    @property
    def max_amount(self) -> int: ...

    @property
    def amounts(self) -> tuple[int, ...] | None: ...

    def allows(self, action: Any) -> bool:
        """Whether ``action`` is this option with an amount it allows."""

    def action(self, amount: int | None = None) -> Any:
        """The action of this option with ``amount`` chips (default ``min_amount``)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""


@runtime_checkable
class Record(Protocol):
    """A frozen history record (an action or a chance event)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form; the game's ``replay`` reads it back."""


@runtime_checkable
class Observation(Protocol):
    """A frozen view of the game as ``player`` (``None``: a spectator) may see it."""

    @property
    def player(self) -> int | None: ...

    @property
    def legal_actions(self) -> tuple[Any, ...]: ...

    @property
    def history(self) -> tuple[Any, ...]:
        """The records as this player may see them: the game's history with every card the
        player may not see left out (e.g. another player's hole cards); their ``to_dict()``
        is what a published hand history shows this player."""

    def to_dict(self, *, with_history: bool = True) -> dict[str, Any]:
        """JSON form (its ``history`` records only when ``with_history``)."""


@runtime_checkable
class GameState(Protocol):
    """The state of one game (a Four Card Poker round, a Four of a Kind deal).

    See the module docstring; docs/engine.md maps each game onto it.
    """

    @property
    def rules(self) -> Any:
        """The game's rules (a frozen dataclass)."""

    @property
    def num_players(self) -> int:
        """Players at the table; they are ``0..num_players-1``."""

    def seat_label(self, player: int) -> str:
        """``player`` as people see it (``"seat 4"`` for player 3)."""

    @property
    def actor(self) -> int | None:
        """The player who must act now, or ``None`` (chance, an open phase, or the end)."""

    @property
    def chance_step(self) -> str | None:
        """The chance step that may be applied now (``"deal"``, ``"turn"``), or ``None``."""

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (settled or voided)."""

    def legal_actions(self, player: int | None = None) -> Sequence[LegalAction]:
        """The options open now: of ``player``, or every option (``None``)."""

    def apply(self, action: Any) -> None:
        """Apply an action or a chance record; validated in full first.

        Raises:
            IllegalActionError: refused; the state is unchanged.
        """

    def apply_chance(self, rng: random.Random | None = None) -> Any:
        """Draw the due chance outcome, apply it and return its record.

        Raises:
            IllegalActionError: no chance step is due.
        """

    def returns(self) -> tuple[int, ...]:
        """Each player's net chips from the settlement; all zeros until the end."""

    def observation(self, player: int | None = None) -> Observation:
        """What ``player`` may see (``None``: a spectator)."""

    @property
    def history(self) -> tuple[Any, ...]:
        """Every record so far, chance events included."""

    @classmethod
    def replay(cls, rules: Any, history: Iterable[Any | Mapping[str, Any]]) -> Self:
        """Rebuild a state from its history records (or their ``to_dict()`` forms)."""

    def clone(self) -> Self:
        """An independent copy."""
