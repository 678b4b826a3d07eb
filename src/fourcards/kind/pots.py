"""Pots, side pots and the high-low split of Four of a Kind. Whole chips throughout.

Rules (docs/rules.md FOAK-7 to FOAK-9; seed 001 Article 4; seed 000 "Continuation of
play and winning"):

* the pot is split between the **high** hand (the player holding four of a
  kind) and the **low** hand (the active player with the fewest cards, a tie
  going to the lowest rank); the odd chip goes to high (seed 001 §4.4);
* table stakes make side pots: a pot is shared by the players who are still in
  and have put in at least its level. In each pot, high goes to the four-of-a-
  kind holder if eligible, else to the eligible player with the highest hand
  (most cards, then higher rank); low to the eligible player with the fewest
  cards (lowest rank on a tie), chosen among the eligible players other than
  high; a pot with one eligible player goes to that player whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fourcards.errors import RulesError
from fourcards.kind.holdings import Holding, check_holdings, high_key, low_key

__all__ = ["Pot", "Award", "side_pots", "settle_pots", "split_pot"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: ``amount`` chips shared by the ``eligible`` seats (main pot first)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"amount": chips, "eligible": [seat indices]}``."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


@dataclass(frozen=True, slots=True)
class Award:
    """``amount`` chips of pot number ``pot`` (0 = main) to ``seat`` as ``share``.

    ``share`` is ``"high"``, ``"low"`` or ``"whole"`` (one eligible player).
    """

    pot: int
    seat: int
    amount: int
    share: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``pot`` (0 = main), ``seat``, ``amount`` in chips and ``share``."""
        return {"pot": self.pot, "seat": self.seat, "amount": self.amount, "share": self.share}


def side_pots(contributed: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Split the chips put in into a main pot and side pots.

    Args:
        contributed: chips each seat has put in this deal (ante included).
        live: whether each seat is still in (not folded, dealt in).

    Returns:
        Pots from the lowest level (main pot) up; their amounts sum to
        ``sum(contributed)``. Chips above the highest live level (dead money
        of folded players) go to the top pot. Empty when nothing was put in.

    Raises:
        RulesError: lengths differ, a negative amount, or chips in with no live seat.
    """
    if len(contributed) != len(live):
        raise RulesError("contributed and live must have one entry per seat")
    if any(c < 0 for c in contributed):
        raise RulesError("a seat cannot have put in a negative amount")
    total = sum(contributed)
    if total == 0:
        return []
    levels = sorted({c for c, lv in zip(contributed, live) if lv and c > 0})
    if not levels:
        raise RulesError("chips are in the pot but no player is still in")
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contributed)
        eligible = tuple(s for s, (c, lv) in enumerate(zip(contributed, live)) if lv and c >= level)
        pots.append(Pot(amount, eligible))
        prev = level
    dead = total - sum(p.amount for p in pots)
    if dead:
        top = pots[-1]
        pots[-1] = Pot(top.amount + dead, top.eligible)
    return pots


def settle_pots(pots: Sequence[Pot], holdings: Mapping[int, Holding]) -> list[Award]:
    """Award every pot by the high-low split (see the module docstring).

    Args:
        pots: from :func:`side_pots`.
        holdings: each eligible seat's holding at the end of play; the four-of-
            a-kind holder, if any, takes high in every pot it is eligible for.

    Returns:
        Awards whose amounts sum to the pots' total (chips conserved).

    Raises:
        RulesError: an eligible seat without a holding, or an empty pot list
            entry with no eligible seat.
    """
    awards: list[Award] = []
    for index, pot in enumerate(pots):
        if not pot.eligible:
            raise RulesError(f"pot {index} has no eligible player")
        missing = [s for s in pot.eligible if s not in holdings]
        if missing:
            raise RulesError(f"no holding for eligible seat(s) {missing}")
        if len(pot.eligible) == 1:
            awards.append(Award(index, pot.eligible[0], pot.amount, "whole"))
            continue
        high = max(pot.eligible, key=lambda s: high_key(holdings[s]))  # a four has the most cards
        low = min((s for s in pot.eligible if s != high), key=lambda s: low_key(holdings[s]))
        low_amount = pot.amount // 2
        awards.append(Award(index, high, pot.amount - low_amount, "high"))  # odd chip to high, §4.4
        awards.append(Award(index, low, low_amount, "low"))
    return awards


def split_pot(pot: int, holdings: Sequence[Holding]) -> list[int]:
    """Settle a finished deal with one pot and every listed player active.

    This is seed 001's "Settling the pot" example: ``split_pot(60, [7, QQ, 3,
    9999])`` -> ``[0, 0, 30, 30]``.

    Args:
        pot: chips in the pot (>= 0).
        holdings: the active players' holdings in seat order; exactly one
            holds four of a kind (seed 001 §4.1).

    Returns:
        Chips won per player, in the given order; they sum to ``pot``.

    Raises:
        RulesError: a negative pot, fewer than two players, or not exactly one four.
        CardError: a rank held twice.
    """
    if not isinstance(pot, int) or isinstance(pot, bool) or pot < 0:
        raise RulesError(f"the pot must be a whole, non-negative number of chips, got {pot!r}")
    if len(holdings) < 2:
        raise RulesError("settling needs at least two active players")
    check_holdings(holdings)
    fours = [i for i, h in enumerate(holdings) if h.is_four]
    if len(fours) != 1:
        raise RulesError(
            f"a finished deal has exactly one holding of four cards, got {len(fours)} "
            "(play ends at the first four of a kind, seed 001 §4.1)"
        )
    shares = [0] * len(holdings)
    awards = settle_pots([Pot(pot, tuple(range(len(holdings))))], dict(enumerate(holdings)))
    for a in awards:
        shares[a.seat] += a.amount
    return shares
