"""Four of a Kind rules: ante, spread limit, raise cap, players, the re-deal variant.

Sources: seed 000 (pagat.com, William Moore's family game) and seed 001
(OPR-903, a formal rulebook); docs/rules.md "Four of a Kind" fixes the
defaults. Every amount is whole chips (``int``).

Presets (:data:`PRESETS`, :func:`get_rules`):

* ``"family"`` (default, seed 000): ante 5, bets and raises of 5-10, a bet and
  three raises per round, a duplicate rank is replaced one card at a time.
* ``"opr903"`` (seed 001 §2.3 reading): as ``family`` but every player holding a
  duplicated rank gets a new card.
* ``"nickel"``: seed 000's "nickel ante, bets and raises of a nickel or a dime"
  in cents (ante 5, min 5, max 10) - the same figures as ``family``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from fourcards.errors import RulesError

__all__ = ["Redeal", "KindRules", "PRESETS", "get_rules", "MAX_PLAYERS"]

#: 13 ranks, one per player (seed 001 §2.2): never more than 13 players.
MAX_PLAYERS = 13


class Redeal(str, Enum):
    """How duplicate ranks in the initial deal are resolved.

    * ``REPLACE`` (seed 000 "Initial deal and betting"; docs/rules.md FOAK-2
      default): a player dealt a rank already held gets a replacement - that
      card goes back, the undealt cards are reshuffled, dealing continues.
    * ``ALL_DUPLICATES`` (seed 001 §2.3): after each pass every player holding a
      duplicated rank returns the card, the returned cards are shuffled into the
      undealt deck, and those players get new cards; repeat until all differ.
    """

    REPLACE = "replace"
    ALL_DUPLICATES = "all_duplicates"


def _whole(name: str, value: Any, minimum: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{name} must be a whole number of chips, got {value!r}")
    if value < minimum:
        raise RulesError(f"{name} must be at least {minimum}, got {value}")


@dataclass(frozen=True)
class KindRules:
    """The rules of a Four of a Kind table. All amounts in whole chips.

    Attributes:
        ante: paid by every player before the deal (seed 001 §2.1; seed 000
            "Initial deal and betting"). A player whose stack is below the ante
            (or empty) sits the deal out (docs/rules.md FOAK-9).
        min_bet / max_bet: spread limit - a bet or raise adds between
            ``min_bet`` and ``max_bet`` chips above the current bet (seed 000
            "A minimum and maximum bet/raise should be agreed in advance").
            A player with fewer chips may go all-in for less (table stakes).
        max_raises: the raise cap - raises allowed after the bet in one betting
            round (seed 000 "a limit of three raises"; seed 001 §3.2).
        min_players / max_players: players dealt in (seed 001 §1.2 "four or
            more"; at most 13, one per rank).
        redeal: the duplicate-rank deal variant, see :class:`Redeal`.
        name: the preset these rules come from (``"family"``, ``"opr903"``,
            ``"nickel"``), ``"<preset>+custom"`` when fields were overridden.

    Raises:
        RulesError: a non-integer or negative amount, ``max_bet < min_bet``,
            ``min_bet < 1``, a player range outside 2..13 or inverted, an
            unknown re-deal variant.
    """

    ante: int = 5
    min_bet: int = 5
    max_bet: int = 10
    max_raises: int = 3
    min_players: int = 4
    max_players: int = MAX_PLAYERS
    redeal: Redeal = Redeal.REPLACE
    name: str = "family"

    def __post_init__(self) -> None:
        _whole("ante", self.ante, 0)
        _whole("min_bet", self.min_bet, 1)
        _whole("max_bet", self.max_bet, 1)
        if self.max_bet < self.min_bet:
            raise RulesError(f"max_bet ({self.max_bet}) must not be below min_bet ({self.min_bet})")
        _whole("max_raises", self.max_raises, 0)
        _whole("min_players", self.min_players, 2)
        _whole("max_players", self.max_players, 2)
        if self.max_players > MAX_PLAYERS:
            raise RulesError(f"max_players must be at most {MAX_PLAYERS} (one rank each), got {self.max_players}")
        if self.min_players > self.max_players:
            raise RulesError(
                f"min_players ({self.min_players}) must not exceed max_players ({self.max_players})"
            )
        try:
            object.__setattr__(self, "redeal", Redeal(self.redeal))
        except ValueError:
            raise RulesError(
                f"unknown redeal variant {self.redeal!r}: use 'replace' (seed 000) "
                "or 'all_duplicates' (seed 001)"
            ) from None

    @property
    def max_wagers(self) -> int:
        """Full bets and raises allowed per betting round: the bet plus ``max_raises``."""
        return 1 + self.max_raises

    def with_(self, **changes: Any) -> KindRules:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``redeal`` as its string value)."""
        d = {name: getattr(self, name) for name in self.__dataclass_fields__}  # every field a scalar
        d["redeal"] = self.redeal.value
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KindRules:
        """Inverse of :meth:`to_dict`.

        Raises:
            RulesError: unknown keys or invalid values.
        """
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise RulesError(f"unknown rules fields: {', '.join(sorted(unknown))}")
        return cls(**data)


PRESETS: dict[str, KindRules] = {
    "family": KindRules(),
    "opr903": KindRules(redeal=Redeal.ALL_DUPLICATES, name="opr903"),
    "nickel": KindRules(ante=5, min_bet=5, max_bet=10, name="nickel"),
}


def get_rules(name: str = "family", **overrides: Any) -> KindRules:
    """A preset by name, optionally with fields overridden.

    Raises:
        RulesError: unknown preset name or invalid override.
    """
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown Four of a Kind preset {name!r}: choose from {', '.join(PRESETS)}") from None
    if not overrides:
        return base
    changed = base.with_(**overrides)
    if "name" not in overrides and changed != base:
        changed = changed.with_(name=f"{name}+custom")
    return changed
