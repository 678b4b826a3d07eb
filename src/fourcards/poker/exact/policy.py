"""Exact figures of any Four Card Poker policy: a function of the player's five cards and the
dealer's up card to fold / play 1x / 2x / 3x, scored over every deal (:func:`score_policy`).

A *policy* is either

* a per-hand callable ``policy(cards, up) -> decision``: ``cards`` a tuple of five
  :class:`~fourcards.cards.Card` (ascending), ``up`` a :class:`~fourcards.cards.Card`;
  the decision a play multiple ``0..3`` (0 = fold) or its name (``"fold"``, ``"1x"``,
  ``"play_3x"``, ...); or
* its vectorised form ``policy(cards, up) -> decisions`` over arrays: ``cards`` an
  ``(N, 5)`` ``uint8`` array of card indices ``(rank - 2) * 4 + suit`` (each row
  ascending), ``up`` ``(N,)`` ``uint8``, the result ``(N,)`` integer multiples. Say so
  with ``vectorized=True`` or an attribute ``policy.vectorized = True``.

**Exact.** The dealer's other five cards never need sampling: for every player hand and
up card the exact analysis counts the 1,370,754 dealer completions the hand beats, ties
and loses to (:func:`fourcards.poker.analysis.exact_counts`, cached on disk). The policy
is asked once per (five cards, up card) pair - all 122,151,120 of them, ``N`` a few million
at a time - and every answer is weighted by those counts, so the house edge, element of
risk and return to player are exact fractions (:class:`~fourcards.poker.analysis.GameFigures`).
With ``symmetric=True`` (or ``policy.suit_symmetric = True``) the policy is asked only once
per suit pattern: the up card in clubs and one hand of each orbit of the other three suits
(6.3 million pairs), which is exact for a policy that plays suit-relabelled deals alike (any
strategy that reads ranks, pairs and flushes; not, in general, a network fed one-hot cards).

Speed (the shared 2-core machine): a vectorised policy over every pair takes seconds plus
the policy's own time; a per-hand Python callable is called once per pair (use
``symmetric=True``: about 6.3 million calls).

``fourcards poker analyze --strategy module:function`` scores a policy found by import
(:func:`load_policy`). docs/rl.md "Exact scoring of any policy".
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from fourcards.cards import FULL_DECK
from fourcards.errors import RulesError
from fourcards.jit import nb
from fourcards.poker.exact.counts import ExactCounts, exact_counts
from fourcards.poker.exact.figures import GameFigures, figures_from_decisions, options
from fourcards.poker.exact.tables import base_tables
from fourcards.poker.rules import PokerRules, as_rules

__all__ = ["score_policy", "load_policy", "is_policy_spec", "N_DEALS"]

#: (five cards, up card) pairs a policy is asked about: C(52, 5) x 47.
N_DEALS = 2_598_960 * 47

_NAMES = {"fold": 0, "0": 0, "1x": 1, "play_1x": 1, "1": 1, "2x": 2, "play_2x": 2, "2": 2, "3x": 3,
          "play_3x": 3, "3": 3}
_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def _decision(value: Any) -> int:
    if isinstance(value, str):
        k = _NAMES.get(value.strip().lower())
        if k is None:
            raise RulesError(f"a policy decides fold, 1x, 2x or 3x (or 0-3), got {value!r}")
        return k
    return int(value)


def _per_hand(policy: Callable[..., Any]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The vectorised form of a per-hand policy (one call per row)."""
    cards_of = FULL_DECK

    def vectorised(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        out = np.empty(len(cards), dtype=np.int64)
        for i, (row, u) in enumerate(zip(cards.tolist(), up.tolist(), strict=True)):
            out[i] = _decision(policy(tuple(cards_of[c] for c in row), cards_of[u]))
        return out

    return vectorised


@nb.njit(cache=True, nogil=True)
def _rows_without(combos, up, cards, index):  # pragma: no cover - compiled
    """The hands (rows of ``combos``) that do not hold ``up``: their cards and colex indices; returns how many."""
    j = 0
    for h in range(combos.shape[0]):
        held = False
        for i in range(5):
            if combos[h, i] == up:
                held = True
        if not held:
            for i in range(5):
                cards[j, i] = combos[h, i]
            index[j] = h
            j += 1
    return j


@nb.njit(cache=True, nogil=True)
def _swap_map(combos, s, binom, out):  # pragma: no cover - compiled
    """``out[h]``: the colex index of hand ``h`` with suit ``s`` and clubs swapped."""
    m = np.empty(5, np.int64)
    for h in range(combos.shape[0]):
        for i in range(5):
            c = np.int64(combos[h, i])
            t = c & 3
            if t == s:
                t = 0
            elif t == 0:
                t = s
            m[i] = (c & ~3) | t
        m.sort()
        x = np.int64(0)
        for i in range(5):
            x += binom[m[i], i + 1]
        out[h] = x


@nb.njit(cache=True, nogil=True)
def _tally(dec, index, mapped, orbit_of, ur, acc):  # pragma: no cover - compiled
    """``acc[k, ur, orbit] += 1`` for the decision ``k`` of every row (hand ``index[j]``)."""
    for j in range(dec.shape[0]):
        acc[dec[j], ur, orbit_of[mapped[index[j]]]] += 1


def _check(dec: Any, n: int, opts: tuple[int, ...], where: Callable[[int], str]) -> np.ndarray:
    d = np.asarray(dec)
    if d.shape != (n,):
        raise RulesError(f"a vectorised policy must return {n} decisions, got shape {d.shape}")
    if d.dtype.kind not in "iub":
        try:
            d = np.array([_decision(x) for x in d.tolist()], dtype=np.int64)
        except (TypeError, ValueError):
            raise RulesError(f"a policy decides 0-3 (fold, 1x, 2x, 3x), got {d.dtype} values") from None
    d = d.astype(np.int64, copy=False)
    allowed = np.zeros(4, dtype=bool)
    allowed[list(opts)] = True
    if n and (d.min() < 0 or d.max() > 3 or not allowed[d].all()):
        i = int(np.flatnonzero((d < 0) | (d > 3) | ~allowed[np.clip(d, 0, 3)])[0])
        raise RulesError(f"the policy plays {int(d[i])} with {where(i)}: the rules allow {list(opts)} "
                         "(0 = fold, k = play k x the ante)")
    return d


def _text(cards: np.ndarray, up: int) -> str:
    return " ".join(str(FULL_DECK[int(c)]) for c in cards) + f" against up card {FULL_DECK[int(up)]}"


def _where(cards: np.ndarray, up: int) -> Callable[[int], str]:
    """Names row ``i`` of ``cards`` (against ``up``) in an error message."""
    return lambda i: _text(cards[i], up)


def _combine(parts: list[tuple[int, GameFigures]], rules: PokerRules, name: str) -> GameFigures:
    """The figures of a mix of single-decision parts, each ``(weight, figures)``: exact weighted sums."""
    total = sum(w for w, _ in parts)

    def mix(attr: str) -> Fraction:
        return sum((Fraction(w, total) * getattr(f, attr) for w, f in parts), Fraction(0))

    decisions: dict[str, Fraction] = {}
    for w, f in parts:
        for key, p in f.decisions.items():
            decisions[key] = decisions.get(key, Fraction(0)) + Fraction(w, total) * p
    folded: dict[str, Fraction] = {}
    for w, f in parts:
        for key, p in f.folded.items():
            folded[key] = folded.get(key, Fraction(0)) + Fraction(w, total) * p
    rows = tuple(replace(r, probability=Fraction(w, total) * r.probability) for w, f in parts for r in f.outcomes)
    return GameFigures(rules=rules, strategy=name, house_edge=mix("house_edge"),
                       average_total_bet=mix("average_total_bet"), decisions=decisions, win=mix("win"),
                       tie=mix("tie"), lose=mix("lose"), fold=mix("fold"),
                       ante_bonus_return=mix("ante_bonus_return"), outcomes=rows, folded=folded)


def score_policy(policy: Callable[..., Any], rules: PokerRules | str = "live", *, vectorized: bool | None = None,
                 symmetric: bool | None = None, counts: ExactCounts | None = None,
                 name: str | None = None) -> GameFigures:
    """The exact figures of ``policy`` over every deal (see the module docstring).

    Args:
        policy: a per-hand or vectorised policy (module docstring).
        rules: a :class:`~fourcards.poker.rules.PokerRules` or a preset name.
        vectorized: whether ``policy`` takes arrays (default: its ``vectorized`` attribute, else False).
        symmetric: ask once per suit pattern, exact for a suit-blind policy (default: its
            ``suit_symmetric`` attribute, else False: every one of the :data:`N_DEALS` pairs).
        counts: the dealer counts (default :func:`~fourcards.poker.analysis.exact_counts`).
        name: the strategy name in the figures (default: the policy's ``__name__``).

    Returns:
        :class:`~fourcards.poker.analysis.GameFigures`: ``house_edge`` (per ante),
        ``element_of_risk`` and ``return_to_player`` (per total wagered), decision and
        outcome frequencies, all exact fractions; the win cap is not modelled (per unit wagered).

    Raises:
        RulesError: a decision that is not fold or a play multiple the rules allow (naming
            the hand), or a vectorised policy returning the wrong number of decisions.
    """
    rules = as_rules(rules)
    counts = counts or exact_counts()
    vectorized = bool(getattr(policy, "vectorized", False)) if vectorized is None else vectorized
    symmetric = bool(getattr(policy, "suit_symmetric", False)) if symmetric is None else symmetric
    name = name or getattr(policy, "__name__", None) or type(policy).__name__
    fn = policy if vectorized else _per_hand(policy)
    opts = options(rules)
    tables = counts.tables
    if symmetric:
        reps = tables.orbit_cards().astype(np.uint8)
        dec = np.zeros(counts.le.shape, dtype=np.uint8)
        for ur in range(13):
            rows = np.flatnonzero(counts.valid[ur])
            up = np.full(len(rows), 4 * ur, dtype=np.uint8)  # the up card in clubs
            cards = np.ascontiguousarray(reps[rows])
            d = _check(fn(cards, up), len(rows), opts, _where(cards, 4 * ur))
            dec[ur, rows] = d
        return figures_from_decisions(counts, rules, dec, name)
    from fourcards.hands import BINOM

    full = base_tables()
    combos = full.combos
    binom = BINOM.astype(np.int64)
    maps = np.empty((4, len(combos)), dtype=np.int64)
    for s in range(4):
        _swap_map(combos, s, binom, maps[s])
    orbit_of = full.orbit_of
    acc = np.zeros((4, *counts.le.shape), dtype=np.int64)
    n_rows = len(combos) * 47 // 52  # the hands without a given card: C(51, 5)
    for up_card in range(52):
        cards = np.empty((n_rows, 5), dtype=np.uint8)
        index = np.empty(n_rows, dtype=np.int64)
        assert _rows_without(combos, up_card, cards, index) == n_rows
        up = np.full(n_rows, up_card, dtype=np.uint8)
        d = _check(fn(cards, up), n_rows, opts, _where(cards, up_card))
        _tally(d, index, maps[up_card & 3], orbit_of, up_card >> 2, acc)
    parts = []
    for k in opts:
        w = int(acc[k].sum())
        if w:
            part = replace(counts, weight=acc[k])
            parts.append((w, figures_from_decisions(part, rules, np.full(counts.le.shape, k, np.uint8), name)))
    return _combine(parts, rules, name)


def is_policy_spec(spec: Any) -> bool:
    """Whether ``spec`` names a policy as ``module:function`` (and is not an existing file)."""
    return isinstance(spec, str) and bool(_SPEC.match(spec)) and not os.path.exists(spec)


def load_policy(spec: str) -> Callable[..., Any]:
    """The policy named ``module:function`` (the current directory is searched first, as ``python -m``).

    Raises:
        RulesError: a malformed name, a module that cannot be imported, or no such callable.
    """
    if not is_policy_spec(spec):
        raise RulesError(f"a policy is named module:function (e.g. mypolicies:three_x), got {spec!r}")
    module_name, attr = spec.split(":")
    added = os.getcwd() not in sys.path
    if added:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # the module's own error, named
        raise RulesError(f"cannot import the policy module {module_name!r}: {type(exc).__name__}: {exc}") from None
    finally:
        if added:
            sys.path.remove(os.getcwd())
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise RulesError(f"{module_name!r} has no callable {attr!r}")
    return fn
