"""Holdings (a player's rank and number of cards), their parsing, and high/low order.

A holding is what a Four of a Kind player shows: ``count`` (1-4) face-up cards
of one ``rank``; suits never matter (seed 001 §1.2). Text form: the rank
repeated, ``"7"``, ``"QQ"``, ``"999"``; tens as ``"T"``, ``"t"`` or ``"10"``
(``"TT"``, ``"tt"``, ``"1010"``, mixed ``"T10"`` also accepted).

Orders (docs/rules.md FOAK-4 and FOAK-7; seed 001 §3.4, §4.2-4.3):

* the **highest hand** has the most cards, then the higher rank
  (:func:`high_key`, larger is higher);
* the **low hand** has the fewest cards, then the lowest rank
  (:func:`low_key`, smaller is lower).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fourcards.cards import Rank, parse_rank
from fourcards.errors import CardError

__all__ = ["Holding", "parse_holding", "parse_holdings", "check_holdings", "high_key", "low_key"]

_TOKEN = re.compile(r"10|[2-9TJQKAtjqka]")


@dataclass(frozen=True, slots=True)
class Holding:
    """``count`` cards (1..4) of ``rank``. ``str(Holding(Rank.QUEEN, 2)) == "QQ"``.

    Raises:
        CardError: count outside 1..4.
    """

    rank: Rank
    count: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "rank", Rank(self.rank))
        if not isinstance(self.count, int) or not 1 <= self.count <= 4:
            raise CardError(f"a holding has 1 to 4 cards of its rank, got {self.count!r}")

    @property
    def missing(self) -> int:
        """Cards still needed for four of a kind (0..3)."""
        return 4 - self.count

    @property
    def is_four(self) -> bool:
        """Whether the holding is four of a kind (``count == 4``; ends the deal, seed 001 §4.1)."""
        return self.count == 4

    def __str__(self) -> str:
        return self.rank.char * self.count


def high_key(h: Holding) -> tuple[int, int]:
    """Sort key of the highest hand: most cards, then higher rank (seed 001 §3.4)."""
    return (h.count, int(h.rank))


def low_key(h: Holding) -> tuple[int, int]:
    """Sort key of the low hand: fewest cards, then lowest rank (seed 001 §4.2(b), §4.3)."""
    return (h.count, int(h.rank))


def parse_holding(text: str) -> Holding:
    """Parse ``"QQ"``, ``"999"``, ``"7"``, ``"TT"``, ``"10"`` into a :class:`Holding`. Several tens
    are written ``T`` (``"TT"``, ``"tt"``); ``"1010"`` reads like a number and is refused.

    Raises:
        CardError: an unknown rank character, mixed ranks, more than 4 cards, or ``10`` written
            with other cards (``"1010"``).
    """
    s = text.strip()
    if not s:
        raise CardError("empty holding: expected a rank repeated, e.g. 'QQ'")
    tokens: list[str] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None:
            raise CardError(
                f"malformed holding {text!r}: {s[pos]!r} is not a rank (use 2-9, T or 10, J, Q, K, A)"
            )
        tokens.append(m.group(0))
        pos = m.end()
    if len(tokens) > 1 and "10" in tokens:  # "1010" reads as the number 1,010: tens together are T
        raise CardError(f"malformed holding {text!r}: it reads like a number; write tens as T "
                        f"({'T' * len(tokens)}) - 10 is a ten alone")
    ranks = {parse_rank(t) for t in tokens}
    if len(ranks) != 1:
        raise CardError(f"malformed holding {text!r}: a player holds cards of one rank only")
    if len(tokens) > 4:
        raise CardError(f"holding {text!r} has {len(tokens)} cards: there are only 4 of each rank")
    return Holding(ranks.pop(), len(tokens))


def check_holdings(holdings: Sequence[Holding]) -> None:
    """Check that the ranks differ (seed 001 §2.2) and at most one holding has four.
    Messages number the holdings from 1, in the given (seat) order, as people count seats.

    Raises:
        CardError: a rank held by two players, or two holdings of four.
    """
    seen: dict[Rank, int] = {}
    for i, h in enumerate(holdings):
        if h.rank in seen:
            raise CardError(
                f"rank {h.rank.char} is held by seats {seen[h.rank] + 1} and {i + 1}: "
                "every player holds a different rank"
            )
        seen[h.rank] = i
    fours = [i for i, h in enumerate(holdings) if h.is_four]
    if len(fours) > 1:
        raise CardError("only one player can hold four of a kind: play ends at the first (seed 001 §4.1)")


def parse_holdings(texts: Iterable[str]) -> list[Holding]:
    """Parse several holdings (seat order) and :func:`check_holdings` them.

    Raises:
        CardError: as :func:`parse_holding` and :func:`check_holdings`.
    """
    holdings = [parse_holding(t) for t in texts]
    check_holdings(holdings)
    return holdings
