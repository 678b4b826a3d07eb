"""Who pays whom: the fewest transfers that settle a list of nets, and money rounded so it still adds up.

Pure arithmetic on whole numbers (chips, or cents of a currency); nothing here knows a table.

**The fewest transfers** (:func:`fewest_transfers`). Parties whose nets add to zero are settled
by transfers; a set of transfers links the parties into groups, each group's nets add to zero,
and a group of *m* parties needs at least *m* - 1 transfers. So the fewest transfers are
*n* - *g*, where *n* counts the parties with a non-zero net and *g* is the largest number of
groups the parties split into with each group adding to zero. Finding *g* is NP-hard in
general (it contains subset sum), so:

* for up to :data:`EXACT_LIMIT` parties with a non-zero net (a table seats at most 13 people,
  and the bank makes 14) the split is found exactly, by dynamic programming over the subsets
  (``best[S]`` = the most zero-sum blocks an ordering of the parties of ``S`` can end, each
  subset's sum from the one without its lowest party: O(2^n · n) steps, at most 2^14 · 14 ≈
  230,000, some 20 ms) - the result is **the minimum number of transfers**;
* beyond that, parties with equal and opposite nets are paired off first (one transfer
  each: always part of some minimum), and the rest is settled greedily - **at most n - 1
  transfers** (each transfer settles at least one party, the last one two).

Within each zero-sum group the transfers are greedy: the largest debtor pays the largest
creditor as much as settles one of them (ties to the earlier party), so nobody both pays and
receives, every amount is positive and each transfer settles at least one party: *m* - 1
transfers for a group of *m*. Deterministic: the same nets give the same transfers.

**Money that adds up** (:func:`round_conserving`). A net in chips is worth
``net × cents / chips`` cents at a chip value of ``chips`` chips = ``cents`` cents - a fraction
when the chip value does not divide it. Each amount is rounded down to whole cents, then the
cents missing to keep the sum are given, one each, to the amounts with the largest fractions
cut off (the largest remainder method, Hamilton's; ties to the earlier party). Every rounded
amount is within one cent of the exact one and the rounded amounts add up to exactly what
the exact ones do (zero, for a settlement), so the transfers computed from them settle
everyone to the cent. No floating point anywhere: :class:`fractions.Fraction` and ``int``.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Transfer", "EXACT_LIMIT", "fewest_transfers", "zero_sum_groups", "round_conserving", "apply_transfers"]

#: Most parties with a non-zero net settled with the proven minimum number of transfers.
EXACT_LIMIT = 14


@dataclass(frozen=True, slots=True)
class Transfer:
    """Party ``payer`` pays party ``payee`` ``amount`` (whole units, > 0); parties are indices
    into the nets given to :func:`fewest_transfers`."""

    payer: int
    payee: int
    amount: int


def _check(nets: Sequence[int]) -> list[int]:
    values = []
    for x in nets:
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError(f"nets are whole numbers, got {type(x).__name__}")
        values.append(x)
    if sum(values) != 0:
        raise ValueError(f"nets must add up to zero to be settled, they add up to {sum(values)}")
    return values


def zero_sum_groups(nets: Sequence[int]) -> list[list[int]]:
    """The most groups the parties with a non-zero net split into, each adding up to zero
    (exactly, by dynamic programming over subsets; see the module doc). Each group lists party
    indices in increasing order; groups are in the order of their first party.

    Raises:
        ValueError: more than :data:`EXACT_LIMIT` parties with a non-zero net, or nets that do
            not add up to zero.
        TypeError: a net that is not a whole number.
    """
    values = _check(nets)
    parties = [i for i, x in enumerate(values) if x]
    n = len(parties)
    if n > EXACT_LIMIT:
        raise ValueError(f"{n} parties are more than the {EXACT_LIMIT} an exact split is computed for")
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[parties[low.bit_length() - 1]]
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > top:
                top = best[mask ^ bit]
            rest ^= bit
        best[mask] = top + (sums[mask] == 0)
    # walk back: the last party of an ordering of `mask` that reaches best[mask]
    order = []
    mask = full
    while mask:
        gain = sums[mask] == 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] + gain == best[mask]:
                break
            rest ^= bit
        order.append(bit.bit_length() - 1)
        mask ^= bit
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for k in order:
        current.append(parties[k])
        running += values[parties[k]]
        if running == 0:
            groups.append(sorted(current))
            current = []
    assert not current and len(groups) == best[full]
    return sorted(groups)


def _greedy(values: list[int], members: Sequence[int], out: list[Transfer]) -> None:
    """Settle ``members`` (their nets add to zero) greedily: the largest debtor pays the largest
    creditor; ``values`` is updated."""
    debtors = [(values[i], i) for i in members if values[i] < 0]  # most negative first
    creditors = [(-values[i], i) for i in members if values[i] > 0]  # largest first
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    while debtors and creditors:
        owe, d = heapq.heappop(debtors)
        due, c = heapq.heappop(creditors)
        amount = min(-owe, -due)
        out.append(Transfer(d, c, amount))
        values[d] += amount
        values[c] -= amount
        if values[d]:
            heapq.heappush(debtors, (values[d], d))
        if values[c]:
            heapq.heappush(creditors, (-values[c], c))
    assert not debtors and not creditors


def fewest_transfers(nets: Sequence[int]) -> tuple[list[Transfer], bool]:
    """Transfers that settle every net (``nets[i]`` > 0: party ``i`` is owed that much; < 0:
    owes it), and whether their number is the proven minimum.

    Up to :data:`EXACT_LIMIT` parties with a non-zero net: the minimum (``True``); beyond,
    equal and opposite nets paired off, then greedy: at most n - 1 (``False``). Every amount
    is positive, a payer only pays and a payee only receives, and applying the transfers
    (:func:`apply_transfers`) leaves every net at zero. See the module doc.

    Raises:
        ValueError: nets that do not add up to zero.
        TypeError: a net that is not a whole number.
    """
    values = _check(nets)
    out: list[Transfer] = []
    nonzero = [i for i, x in enumerate(values) if x]
    if len(nonzero) <= EXACT_LIMIT:
        for group in zero_sum_groups(values):
            _greedy(values, group, out)
        return out, True
    waiting: dict[int, list[int]] = {}
    for i in nonzero:  # pair equal and opposite nets, in party order
        partners = waiting.get(-values[i])
        if partners:
            j = partners.pop(0)
            payer, payee = (i, j) if values[i] < 0 else (j, i)
            out.append(Transfer(payer, payee, abs(values[i])))
            values[i] = values[j] = 0
        else:
            waiting.setdefault(values[i], []).append(i)
    _greedy(values, [i for i in nonzero if values[i]], out)
    return out, False


def apply_transfers(nets: Sequence[int], transfers: Sequence[Transfer]) -> list[int]:
    """The nets after the transfers are made: a payer's net goes up, a payee's down (all zero
    when the transfers settle them)."""
    left = list(nets)
    for t in transfers:
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


def round_conserving(amounts: Sequence[Fraction | int]) -> list[int]:
    """Each amount rounded to a whole number so that the rounded ones add up to the same
    whole number as the exact ones: rounded down, then the units missing go, one each, to the
    amounts with the largest remainders (ties to the earlier one) - the largest remainder
    method. Each result is within one unit of its amount (less than one).

    Raises:
        ValueError: amounts whose sum is not a whole number (nothing could keep it).
    """
    exact = [Fraction(a) for a in amounts]
    total = sum(exact, Fraction(0))
    if total.denominator != 1:
        raise ValueError(f"the amounts add up to {total}, not a whole number: no rounding keeps it")
    floors = [a.numerator // a.denominator for a in exact]
    missing = int(total) - sum(floors)
    by_remainder = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in by_remainder[:missing]:
        floors[i] += 1
    return floors
