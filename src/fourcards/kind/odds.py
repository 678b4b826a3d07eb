"""Exact chances of taking high and low in Four of a Kind, from any position.

Every card is face up and every unseen card of an active player's rank is still
in the deck (a card of an active rank is never discarded, seed 001 §3.3), so
the rest of a deal, assuming no further folds, is a uniformly random order of
the deck. Only the cards of the active ranks matter: player ``i`` (rank ``r_i``,
``c_i`` cards) misses ``m_i = 4 - c_i`` cards, and the relevant cards come in a
uniformly random order of the multiset ``{i: m_i}``. High goes to the player
whose last missing card comes first (seed 001 §4.1); low to the player, among
the others, with the fewest cards at that moment, the lowest rank on a tie
(§4.2(b), §4.3).

Method (exact, integer arithmetic):

1. Give each relevant card an independent uniform time in (0, 1); the order of
   the times is a uniform random order. Player ``w`` completes at ``T``, the
   largest of its ``m_w`` times (density ``m_w t^(m_w-1)``). Given ``T = t``,
   every other player ``j`` has received ``k_j ~ Binomial(m_j, t)`` cards,
   independently; ``w`` is first iff every ``k_j < m_j``. Integrating,

   ``P(high = w, k) = m_w * prod_j C(m_j, k_j) * (m_w+K-1)! (M'-K)! / M!``

   with ``K = sum k_j``, ``M' = sum_{j != w} m_j``, ``M = m_w + M'``.
2. So for each ``w`` the others enter as polynomials ``sum_k C(m_j,k) x^k``
   and the answer is the dot product of their product with the Beta weights
   ``W[K]``. Low is the smallest key ``(c_j + k_j, rank_j)``: sweeping the keys
   upward and removing each (player, count) term from its polynomial in turn
   (exact polynomial division, then multiplication) gives
   ``P(high = w, low = j, final count of j)`` for every key, in
   ``O(n * 3n * 3n)`` small-integer operations per ``w``.
3. Speed: each polynomial is packed into one Python integer (64 bits per
   coefficient; no coefficient reaches 2**44), so a product or an exact division
   is one big-integer operation; and high players missing the same number of
   cards share their Beta weights, so the low terms are summed per missing count
   before the (huge) weights multiply in: about 0.3 ms for 8 players, 0.6 ms for 13.

Every probability is a :class:`fractions.Fraction` with denominator dividing
``M!``; floats are derived from them. Checked against brute-force enumeration of
all orders and against Monte Carlo runs of the engine in ``tests/kind``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from operator import mul
from typing import Any

from fourcards.cards import Rank
from fourcards.errors import CardError, RulesError
from fourcards.kind.holdings import Holding, check_holdings, low_key
from fourcards.kind.pots import Pot, settle_pots

__all__ = ["PlayerOdds", "exact_odds", "joint_odds", "pot_equity"]

_FACT = [factorial(i) for i in range(64)]


@dataclass(frozen=True, slots=True)
class PlayerOdds:
    """One active player's exact chances, assuming no further folds.

    Attributes:
        rank, cards: the player's holding.
        p_high: probability of taking high (being first to four of a kind).
        p_low: probability of taking low.
        expected_share: expected fraction of the pot, ``(p_high + p_low) / 2``
            (the odd chip ignored; see :meth:`expected_chips`). A lone active
            player has ``p_high = 1``, ``p_low = 0`` and ``expected_share = 1``
            (last player standing takes the pot, docs/rules.md FOAK-8).
    """

    rank: Rank
    cards: int
    p_high: Fraction
    p_low: Fraction
    expected_share: Fraction

    @property
    def high(self) -> float:
        """``p_high`` as a float."""
        return float(self.p_high)

    @property
    def low(self) -> float:
        """``p_low`` as a float."""
        return float(self.p_low)

    @property
    def share(self) -> float:
        """``expected_share`` as a float (fraction of the pot)."""
        return float(self.expected_share)

    def expected_chips(self, pot: int) -> Fraction:
        """Expected chips won from a single pot of ``pot`` chips, odd chip to high (§4.4)."""
        if self.p_low == 0 and self.p_high == 1 and self.expected_share == 1:
            return Fraction(pot)
        return self.p_high * (pot - pot // 2) + self.p_low * (pot // 2)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready floats: ``rank``, ``cards``, ``p_high``, ``p_low``, ``expected_share``."""
        return {
            "rank": self.rank.char,
            "cards": self.cards,
            "p_high": self.high,
            "p_low": self.low,
            "expected_share": self.share,
        }


#: Bits per coefficient of a packed polynomial: ``sum c_i x^i`` is held as the integer
#: ``sum c_i 2**(_B * i)``. Every coefficient here is below 2**44 (products of at most
#: 12 factors whose coefficients sum to 7 or less, times at most 3 x 3 x 13), so
#: multiplying, exactly dividing and adding polynomials are single big-integer
#: operations with no carries between coefficients.
_B = 64
_MASK = (1 << _B) - 1
#: The factor of a player missing ``m`` cards, ``sum C(m, k) x^k`` over ``k < m`` (not yet
#: complete), and what it becomes each time a key of that player passes: its lowest
#: term dropped (``(1, 3, 3) -> (3, 3) -> (3,) -> ()``), as ``(g0, packed g)`` pairs.
_STAGES = {m: tuple((comb(m, s), sum(comb(m, k) << (_B * (k - s)) for k in range(s, m))) for s in range(m))
           for m in (1, 2, 3)}


def _coefficients(packed: int, length: int) -> list[int]:
    """The first ``length`` coefficients of a packed polynomial."""
    return [(packed >> (_B * i)) & _MASK for i in range(length)]


def _sweep(counts: tuple[int, ...]) -> tuple[list[int], list[int], list[dict[int, int]]]:
    """For each possible high player ``w``: the packed polynomial of the others (``others[w]``)
    and, per possible low player ``j``, the packed sum of its terms (``terms[w][j]``).

    See the module docstring: sweeping the low keys upwards, each key of a player
    ``j`` contributes ``g0 * (product of the others' factors) * x**shift``, then drops
    the lowest term of ``j``'s factor (``j`` now holds more than that key).
    """
    n = len(counts)
    m = [4 - c for c in counts]
    everyone = 1
    for mj in m:
        everyone *= _STAGES[mj][0][1]
    keys = sorted((counts[j] + k, j) for j in range(n) for k in range(m[j]))
    others = [everyone // _STAGES[mw][0][1] for mw in m]
    terms: list[dict[int, int]] = []
    for w in range(n):
        stage = [0] * n
        poly = others[w]
        row: dict[int, int] = {}
        shift = 0  # poly is x**shift times the product of the others' current factors
        for _final, j in keys:
            if j == w:
                continue
            mj = m[j]
            g0, g = _STAGES[mj][stage[j]]
            q = poly // g  # the product of the others' factors, j's excluded (exact)
            row[j] = row.get(j, 0) + ((g0 * q) << (_B * shift))
            stage[j] += 1
            if stage[j] == mj:  # j can no longer exceed this key: no larger low key is possible
                break
            poly = q * _STAGES[mj][stage[j]][1]
            shift += 1
        terms.append(row)
    return others, m, terms


def _weights(mw: int, total: int) -> list[int]:
    """The Beta weights ``(mw + k - 1)! (total - mw - k)!`` of a high player missing ``mw`` cards."""
    rest = total - mw
    return [_FACT[mw + k - 1] * _FACT[rest - k] for k in range(rest + 1)]


@lru_cache(maxsize=65536)
def _solve(counts: tuple[int, ...]) -> tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Exact numerators for players sorted by rank, lowest first, holding ``counts`` (1..3).

    Returns ``(denominator, high, joint)`` where ``high[w] / denominator`` is
    P(high = w) and ``joint[w][j] / denominator`` is P(high = w and low = j).
    """
    n = len(counts)
    total = sum(4 - c for c in counts)
    others, m, terms = _sweep(counts)
    high = [0] * n
    joint = [[0] * n for _ in range(n)]
    for w in range(n):
        weights = _weights(m[w], total)
        size = len(weights)
        high[w] = m[w] * sum(map(mul, _coefficients(others[w], size), weights))
        for j, packed in terms[w].items():
            joint[w][j] = m[w] * sum(map(mul, _coefficients(packed, size), weights))
    return _FACT[total], tuple(high), tuple(tuple(r) for r in joint)


def _solve_marginals(counts: tuple[int, ...]) -> tuple[int, list[int], list[int]]:
    """``(denominator, high, low)`` numerators: :func:`_solve` summed over the other player.

    High players missing the same number of cards share their Beta weights, so the
    low terms are summed per missing count first: 3 dot products per low player
    instead of one per (high, low) pair.
    """
    n = len(counts)
    total = sum(4 - c for c in counts)
    others, m, terms = _sweep(counts)
    high = [0] * n
    by_m: dict[int, list[int]] = {}
    for w in range(n):
        weights = _weights(m[w], total)
        high[w] = m[w] * sum(map(mul, _coefficients(others[w], len(weights)), weights))
        acc = by_m.setdefault(m[w], [0] * n)
        for j, packed in terms[w].items():
            acc[j] += packed
    low = [0] * n
    for mw, acc in by_m.items():
        weights = _weights(mw, total)
        for j in range(n):
            if acc[j]:
                low[j] += mw * sum(map(mul, _coefficients(acc[j], len(weights)), weights))
    return _FACT[total], high, low


@lru_cache(maxsize=65536)
def _fractions(counts: tuple[int, ...], cache: bool = True) -> tuple[tuple[Fraction, Fraction, Fraction], ...]:
    """(P(high), P(low), expected share) per player sorted by rank, as reduced fractions."""
    den, high, low = _solve_marginals(counts)
    return tuple((Fraction(h, den), Fraction(lo, den), Fraction(h + lo, 2 * den))
                 for h, lo in zip(high, low, strict=True))


def _as_holdings(items: Sequence[Holding | tuple[Rank | int, int]]) -> list[Holding]:
    return [h if isinstance(h, Holding) else Holding(Rank(h[0]), h[1]) for h in items]


def _prepare(holdings: Sequence[Holding]) -> list[int]:
    if not holdings:
        raise CardError("odds need at least one active player")
    check_holdings(holdings)
    return sorted(range(len(holdings)), key=lambda i: holdings[i].rank)


def joint_odds(holdings: Sequence[Holding | tuple[Rank | int, int]], *,
               cache: bool = True) -> dict[tuple[int, int], Fraction]:
    """Exact P(high = i and low = j) for the active players, as ``{(i, j): Fraction}``.

    Args:
        holdings: active players' holdings (any order; indices refer to it).
        cache: reuse results for positions already solved (keyed by counts in rank order).

    Returns:
        Nonzero entries only; they sum to 1 when there are at least two players.

    Raises:
        CardError: ranks repeated, more than one four, fewer than one player.
    """
    hs = _as_holdings(holdings)
    order = _prepare(hs)
    if len(hs) < 2:
        return {}
    fours = [i for i, h in enumerate(hs) if h.is_four]
    if fours:
        w = fours[0]
        low = min((i for i in range(len(hs)) if i != w), key=lambda i: low_key(hs[i]))
        return {(w, low): Fraction(1)}
    counts = tuple(hs[i].count for i in order)
    den, _high, joint = (_solve if cache else _solve.__wrapped__)(counts)
    out: dict[tuple[int, int], Fraction] = {}
    for a, row in enumerate(joint):
        for b, num in enumerate(row):
            if num:
                out[(order[a], order[b])] = Fraction(num, den)
    return out


def exact_odds(holdings: Sequence[Holding | tuple[Rank | int, int]], *, cache: bool = True) -> list[PlayerOdds]:
    """Each active player's exact chance of high and low, and expected share of the pot.

    Args:
        holdings: the active (not folded) players' holdings, e.g.
            ``[Holding(Rank.SEVEN, 1), Holding(Rank.QUEEN, 2)]`` or ``(rank, count)``
            pairs. All-in players are active. Any order; results follow it.
        cache: reuse results for positions already solved.

    Returns:
        One :class:`PlayerOdds` per holding, same order. ``sum(p_high) == 1``;
        ``sum(p_low) == 1`` with two or more players. If a holding already has
        four, high and low are certain (seed 001 §4.1-4.3).

    Raises:
        CardError: a rank held twice, more than one four, no players.

    Performance (uncached, 2-core machine): about 0.3 ms for 8 players, 0.6 ms
    for 13 (``benchmarks/bench_kind.py``, ``docs/kind.md``).
    """
    hs = _as_holdings(holdings)
    order = _prepare(hs)
    n = len(hs)
    if n == 1:
        h = hs[0]
        return [PlayerOdds(h.rank, h.count, Fraction(1), Fraction(0), Fraction(1))]
    result: list[PlayerOdds | None] = [None] * n
    fours = [i for i, h in enumerate(hs) if h.is_four]
    if fours:
        p_high = [Fraction(0)] * n
        p_low = [Fraction(0)] * n
        for (w, lo), p in joint_odds(hs, cache=cache).items():
            p_high[w] += p
            p_low[lo] += p
        return [PlayerOdds(h.rank, h.count, p_high[i], p_low[i], (p_high[i] + p_low[i]) / 2)
                for i, h in enumerate(hs)]
    counts = tuple(hs[i].count for i in order)
    solved = _fractions(counts) if cache else _fractions.__wrapped__(counts, cache=False)
    for a, (ph, pl, share) in enumerate(solved):
        i = order[a]
        result[i] = PlayerOdds(hs[i].rank, hs[i].count, ph, pl, share)
    return result  # type: ignore[return-value]


# ------------------------------------------------------------------ side pots


def _polymul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _polydiv_exact(p: list[int], g: list[int]) -> list[int]:
    """``p / g`` for an exact divisor ``g`` with ``g[0] != 0`` (low-order long division)."""
    n = len(p) - len(g) + 1
    q = [0] * n
    g0 = g[0]
    lg = len(g)
    for i in range(n):
        acc = p[i]
        for s in range(1, min(i + 1, lg)):
            acc -= g[s] * q[i - s]
        q[i] = acc // g0
    return q


@lru_cache(maxsize=65536)
def _solve_pot(counts: tuple[int, ...], eligible: tuple[bool, ...]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Exact numerators of P(top = j) and P(bottom = j) among the ``eligible`` players at the end.

    Players sorted by rank (lowest first) hold ``counts`` (1..3); the final key of a
    player is ``(cards, rank)``, the one who completes four having 4 cards. In a pot
    with two or more eligible players, high goes to the eligible player with the
    largest key (the four's holder when eligible, else the highest hand) and low to
    the one with the smallest key (:func:`fourcards.kind.pots.settle_pots`).

    Returns ``(denominator, top, bottom)``, numerators over ``denominator = M!``.
    The method of the module docstring: for each ``w`` completing first, the others are
    polynomials in ``x`` (``x^k`` with weight ``C(m_j, k)``) weighted by ``W[K]``;
    sweeping the eligible players' keys upward (bottom) or downward (top) and
    dividing out one player's factor at a time gives each ``P(j at key, others of
    the pot beyond it)``.
    """
    n = len(counts)
    m = [4 - c for c in counts]
    total = sum(m)
    top = [0] * n
    bottom = [0] * n
    binoms = [[comb(mj, k) for k in range(mj)] for mj in m]
    elig = [j for j in range(n) if eligible[j]]
    for w in range(n):
        mw = m[w]
        rest = total - mw
        weights = [_FACT[mw + k - 1] * _FACT[rest - k] for k in range(rest + 1)]
        others = [j for j in range(n) if j != w]
        full = [1]
        for j in others:
            full = _polymul(full, binoms[j])
        p_w = mw * sum(c * weights[i] for i, c in enumerate(full))
        if eligible[w]:
            top[w] += p_w  # a four is the highest hand of any pot it is in
        # bottom: the smallest key among the eligible players other than w
        factors = {j: list(binoms[j]) for j in others}
        poly, shift = full, 0
        ascending = sorted((counts[i] + k, i) for i in elig if i != w for k in range(m[i]))
        for _final, j in ascending:
            g = factors[j]
            q = _polydiv_exact(poly, g)
            bottom[j] += mw * g[0] * sum(c * weights[shift + i] for i, c in enumerate(q) if c)
            g = g[1:]
            if not g:
                break
            factors[j] = g
            poly = _polymul(q, g)
            shift += 1
        if eligible[w]:
            continue
        # top (w not eligible): the largest key among the eligible players
        factors = {j: list(binoms[j]) for j in others}
        poly = full
        descending = sorted(((counts[i] + k, i) for i in elig for k in range(m[i])), reverse=True)
        for _final, j in descending:
            g = factors[j]
            q = _polydiv_exact(poly, g)
            k = len(g) - 1  # j holds exactly this many more cards: the top term of its factor
            top[j] += mw * g[k] * sum(c * weights[k + i] for i, c in enumerate(q) if c)
            g = g[:-1]
            if not g:
                break
            factors[j] = g
            poly = _polymul(q, g)
    return _FACT[total], tuple(top), tuple(bottom)


def pot_equity(holdings: Mapping[int, Holding], pots: Sequence[Pot]) -> dict[int, Fraction]:
    """Each active seat's exact expected chips from every pot, side pots included.

    Assumes no further folds and no more chips: the deal is played out by turning
    the deck (seed 001 §3.3-3.5) and the pots are settled as
    :func:`fourcards.kind.pots.settle_pots` does (DESIGN.md ruling 8): in each pot
    high goes to the eligible four-of-a-kind holder, else the eligible highest
    hand, low to the eligible player with the fewest cards (lowest rank on a tie),
    the odd chip to high; a pot with one eligible player goes to it whole.

    Args:
        holdings: every active seat's holding (all-in seats included; folded seats
            left out), by seat index.
        pots: main pot then side pots (:func:`~fourcards.kind.pots.side_pots`),
            their eligible seats among ``holdings``.

    Returns:
        Expected chips by seat (every seat of ``holdings``); they add up to the
        pots' total.

    Raises:
        CardError: a rank held twice, more than one four, no holdings.
        RulesError: a pot whose eligible seats are empty or not all in ``holdings``.
    """
    seats = list(holdings)
    hs = [holdings[s] for s in seats]
    order = _prepare(hs)
    out = dict.fromkeys(seats, Fraction(0))
    for index, pot in enumerate(pots):
        if not pot.eligible or any(s not in holdings for s in pot.eligible):
            raise RulesError(f"pot {index} has eligible seats {list(pot.eligible)} that are not all "
                             f"active holdings {seats}")
    if len(hs) == 1 or any(h.is_four for h in hs):  # the deal is decided: settle it
        for award in settle_pots(pots, dict(holdings)):
            out[award.seat] += award.amount
        return out
    counts = tuple(hs[i].count for i in order)
    for pot in pots:
        if len(pot.eligible) == 1:
            out[pot.eligible[0]] += pot.amount
            continue
        members = set(pot.eligible)
        den, top, bottom = _solve_pot(counts, tuple(seats[i] in members for i in order))
        hi, lo = pot.amount - pot.amount // 2, pot.amount // 2  # odd chip to high, §4.4
        for a, i in enumerate(order):
            if top[a] or bottom[a]:
                out[seats[i]] += Fraction(top[a] * hi + bottom[a] * lo, den)
    return out
