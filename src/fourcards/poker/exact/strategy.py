"""Four Card Poker strategies: optimal, the published simple strategy, charts, files.

A strategy decides, from the player's five cards and the dealer's up card,
whether to fold (0) or which play multiple to bet (1, 2 or 3 times the ante).

* :class:`Strategy` - decisions for every (up rank, player-hand orbit) of
  :mod:`fourcards.poker.analysis` (what :func:`analysis.analyze` evaluates);
* :func:`optimal_strategy` - the exact optimal decisions for a rule set;
* :func:`simple_strategy` - Shuffle Master's published simple strategy (fold a
  pair of 2s or less, 1x with a pair of 3s-9s, 3x with a pair of 10s or better);
* :class:`StrategyChart` - a compact human strategy: one decision per hand class
  (high card by top rank, pair by rank, two pair, ... four of a kind) and up-card
  rank; :func:`optimal_chart` is the best chart of that shape, read/written as CSV
  (:meth:`StrategyChart.to_csv`, :func:`load_chart`); shown as a Rich table or a PNG
  heat map by :mod:`fourcards.report.charts`;
* for simulators: :func:`decision_table` and :func:`decide` (numba, vectorised;
  compiled on first use).

Decision table layout (:func:`decision_table`): a ``uint8`` array of shape
``(13, 2_598_960)``; ``table[r, i]`` is the play multiple (0 = fold) for a
player hand whose colex index is ``i`` *after swapping the up card's suit with
clubs* and an up card of rank ``r + 2``. Colex index of sorted card indices
``c0 < ... < c4`` (card index = (rank-2)*4 + suit, clubs = 0): ``sum C(c_j, j+1)``.
Entries for hands that hold the (mapped) up card are 0 and meaningless. 34 MB.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from fourcards.cards import Card, Rank, parse_rank
from fourcards.csvtext import csv_text
from fourcards.errors import CardError, RulesError
from fourcards.hands import BINOM, N_VALUES
from fourcards.poker.exact.counts import ExactCounts, counts_cached, exact_counts
from fourcards.poker.exact.figures import bonus_pays, class_of_rank, class_sums, options
from fourcards.poker.exact.hand_ev import HandEV, hand_ev
from fourcards.poker.exact.tables import (
    N_DEALER_HANDS,
    N_HANDS5,
    _kernels,
    _validate_hand,
    base_tables,
    locate,
)
from fourcards.poker.rules import PokerRules, as_rules

__all__ = [
    "Strategy",
    "StrategyChart",
    "optimal_strategy",
    "simple_strategy",
    "optimal_chart",
    "simple_chart",
    "load_chart",
    "get_strategy",
    "decision_table",
    "decide",
    "decide_hand",
    "advise",
    "HAND_CLASSES",
    "hand_class_of_rank",
]

# ---------------------------------------------------------------------------
# Hand classes
# ---------------------------------------------------------------------------

_MADE = ("two_pair", "straight", "flush", "three_of_a_kind", "straight_flush", "four_of_a_kind")


def _class_keys() -> list[str]:
    keys = [f"high:{Rank(r).char}" for r in range(2, 15)]
    keys += [f"pair:{Rank(r).char}" for r in range(2, 15)]
    keys += list(_MADE)
    return keys


#: Class keys by id: ``high:2``..``high:A`` (0-12), ``pair:2``..``pair:A`` (13-25),
#: ``two_pair`` (26), ``straight``, ``flush``, ``three_of_a_kind``, ``straight_flush``,
#: ``four_of_a_kind`` (31).
HAND_CLASSES: tuple[str, ...] = tuple(_class_keys())
_CLASS_ID = {k: i for i, k in enumerate(HAND_CLASSES)}


def _class_label(key: str) -> str:
    if key.startswith("high:"):
        return f"{Rank(parse_rank(key[5:])).char} high"
    if key.startswith("pair:"):
        return f"pair of {parse_rank(key[5:]).char}s"
    return key.replace("_", " ")


#: Hand class id (index into :data:`HAND_CLASSES`) of each dense hand rank.
hand_class_of_rank: np.ndarray = class_of_rank()
assert len(hand_class_of_rank) == N_VALUES


@cache
def _present_classes() -> list[int]:
    """Class ids that occur as a player's best four of five."""
    seen = np.bincount(hand_class_of_rank[base_tables().orbit_rank], minlength=len(HAND_CLASSES))
    return np.flatnonzero(seen).tolist()


# ---------------------------------------------------------------------------
# Strategy
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Strategy:
    """Decisions (play multiples, 0 = fold) per (up rank 0..12, player-hand orbit).

    ``decisions`` has the shape of :attr:`analysis.ExactCounts.le`: ``(13, n_orbits)``.
    """

    name: str
    decisions: np.ndarray

    def decide(self, cards: Iterable[Card | str] | str, up: Card | str) -> int:
        """The play multiple (0 = fold) for one hand and up card."""
        ur, o = locate(cards, up)
        return int(self.decisions[ur, o])


def _allowed(rules: PokerRules, wanted: int) -> int:
    """The allowed multiple nearest to ``wanted`` (ties: the smaller)."""
    if wanted == 0:
        return 0
    return min(rules.decision_multiples, key=lambda m: (abs(m - wanted), m))


def optimal_strategy(rules: PokerRules | str = "live", counts: ExactCounts | None = None) -> Strategy:
    """The exact optimal strategy: the option of highest EV for every hand and up card.

    On an exact tie of EVs the smaller wager is chosen (fold before 1x before 3x),
    which leaves the house edge unchanged and keeps the money at risk lowest.
    """
    rules = as_rules(rules)
    if counts is None and not counts_cached() and rules.ante_bonus_requires_play:
        shipped = _shipped_optimal(rules)
        if shipped is not None:
            return Strategy("optimal", shipped)
    counts = counts or exact_counts()
    b = bonus_pays(rules)[counts.tables.orbit_rank].astype(np.int64)
    if not rules.ante_bonus_requires_play:  # docs/rules.md FCP-17: the bonus is paid whatever the decision,
        b = np.zeros_like(b)                # so it never tips one: decide as without it
    # the EV is linear in k: the best play is the largest multiple when 2 le > n, else the smallest;
    # a tie with folding folds (one pass: fourcards.poker.kernels.optimal_decisions)
    dec = np.empty(counts.le.shape, dtype=np.uint8)
    _kernels().optimal_decisions(counts.le, counts.valid, b, N_DEALER_HANDS, min(rules.decision_multiples),
                                    max(rules.decision_multiples), dec)
    dec.setflags(write=False)
    return Strategy("optimal", dec)


#: The ante bonus tables whose optimal decisions ship with the package (``poker/data``).
SHIPPED_ANTE_BONUS = ("25/20/2", "30/15/2")


def _shipped_name(rules: PokerRules) -> str:
    m = rules.decision_multiples
    return f"optimal-{str(rules.ante_bonus).replace('/', '-')}-{min(m)}-{max(m)}.u8.xz"


def _shipped_optimal(rules: PokerRules) -> np.ndarray | None:
    """The optimal decisions shipped as package data for these rules' ante bonus and play
    multiples (computed once from the exact counts, see :func:`ship_optimal_decisions`), or None.

    They let a first simulation with the optimal strategy start without computing the
    dealer counts; ``tests/poker/test_strategy.py`` checks them against the counts.
    """
    import lzma
    from importlib import resources

    try:
        data = resources.files("fourcards.poker").joinpath("data", _shipped_name(rules)).read_bytes()
        dec = np.frombuffer(lzma.decompress(data), dtype=np.uint8)
    except (OSError, lzma.LZMAError):
        return None
    n = len(dec) // 13
    if len(dec) != 13 * n or n != 484_731:
        return None
    dec = dec.reshape(13, n)
    dec.setflags(write=False)
    return dec


def ship_optimal_decisions(directory: str | Path) -> list[Path]:
    """Write the optimal decisions of :data:`SHIPPED_ANTE_BONUS` (1x-3x play) into ``directory``
    (``src/fourcards/poker/data`` when releasing; needs the exact counts)."""
    import lzma

    from fourcards.poker.rules import get_rules

    out = []
    for table in SHIPPED_ANTE_BONUS:
        rules = get_rules("live", ante_bonus=table)
        dec = optimal_strategy(rules, exact_counts()).decisions
        path = Path(directory) / _shipped_name(rules)
        path.write_bytes(lzma.compress(np.ascontiguousarray(dec).tobytes(), preset=9))
        out.append(path)
    return out


# ---------------------------------------------------------------------------
# Charts
# ---------------------------------------------------------------------------

_UP_CHARS = [Rank(r).char for r in range(2, 15)]
_DEC_TEXT = {0: "fold", 1: "1x", 2: "2x", 3: "3x"}


@dataclass(frozen=True)
class StrategyChart:
    """A compact strategy: a play multiple per hand class and up-card rank.

    Attributes:
        name: shown in reports.
        table: ``(32, 13)`` uint8 - row = class id (:data:`HAND_CLASSES`), column =
            up rank 2..A.
    """

    name: str
    table: np.ndarray

    def strategy(self, rules: PokerRules | None = None, counts: ExactCounts | None = None) -> Strategy:
        """The chart as a :class:`Strategy` (for :func:`analysis.analyze`).

        Raises:
            RulesError: the chart bets a multiple the rules do not allow.
        """
        tables = counts.tables if counts is not None else base_tables()
        cls = hand_class_of_rank[tables.orbit_rank]
        dec = np.ascontiguousarray(self.table.T)[:, cls]  # (13, n_orbits), gathered row by row
        if rules is not None:
            opts = options(rules)
            used = set(np.unique(self.table[_present_classes()]).tolist())
            if not used <= set(opts):
                raise RulesError(
                    f"strategy {self.name!r} bets {sorted(used - set(opts))}x, which the rules "
                    f"({rules.describe_play_bets()}) do not allow"
                )
        dec.setflags(write=False)
        return Strategy(self.name, dec)

    def rows(self) -> list[tuple[str, str, np.ndarray]]:
        """Display rows, best hands first, neighbours with equal decisions merged.

        Returns ``(key, label, decisions)`` where ``key`` is a CSV key such as
        ``"pair:4-7"`` or ``"two_pair+"``.
        """
        present = _present_classes()
        made = [c for c in present if c >= 26][::-1]
        pairs = [c for c in present if 13 <= c < 26][::-1]
        highs = [c for c in present if c < 13][::-1]
        out: list[tuple[str, str, np.ndarray]] = []
        # made hands: merge from the top while equal
        groups: list[list[int]] = []
        for family in (made, pairs, highs):
            cur: list[int] = []
            for c in family:
                if cur and np.array_equal(self.table[c], self.table[cur[0]]):
                    cur.append(c)
                else:
                    if cur:
                        groups.append(cur)
                    cur = [c]
            if cur:
                groups.append(cur)
        for g in groups:
            lo, hi = g[-1], g[0]  # g is best-first
            klo, khi = HAND_CLASSES[lo], HAND_CLASSES[hi]
            if lo >= 26:
                if len(g) == 1:
                    key, label = klo, _class_label(klo)
                elif hi == 31:
                    key, label = f"{klo}+", f"{_class_label(klo)} or better"
                else:
                    key, label = f"{klo}-{khi}", f"{_class_label(klo)} to {_class_label(khi)}"
            else:
                fam = klo.split(":")[0]
                rlo, rhi = klo.split(":")[1], khi.split(":")[1]
                if lo == hi:
                    key, label = klo, _class_label(klo)
                else:
                    key = f"{fam}:{rlo}-{rhi}"
                    if fam == "pair":
                        label = f"pairs {rlo}-{rhi}"
                    else:
                        label = f"{rlo}-{rhi} high"
            out.append((key, label, self.table[hi]))
        return out

    def to_csv(self) -> str:
        """CSV text: ``hand,2,3,...,A`` then one row per merged class (fold/1x/2x/3x), written by
        :func:`fourcards.csvtext.csv_text` like every CSV of fourcards."""
        return csv_text([["hand", *_UP_CHARS], *([key, *[_DEC_TEXT[int(v)] for v in row]]
                                                 for key, _, row in self.rows())], lineterminator="\n")

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``name``, ``up_ranks`` (``"2"``..``"A"``) and :meth:`rows` as ``{hand, label, decisions}``,
        13 decisions per row (``"fold"``, ``"1x"``, ``"2x"``, ``"3x"`` the ante), one per up rank.
        """
        return {
            "name": self.name,
            "up_ranks": _UP_CHARS,
            "rows": [{"hand": key, "label": label, "decisions": [_DEC_TEXT[int(v)] for v in row]}
                     for key, label, row in self.rows()],
        }


def _parse_class_key(key: str) -> list[int]:
    k = key.strip().lower().replace(" ", "_")
    if k == "default":
        return list(range(len(HAND_CLASSES)))
    if k.endswith("+") and k[:-1] in _MADE:
        return list(range(_CLASS_ID[k[:-1]], 32))
    if k in _MADE:
        return [_CLASS_ID[k]]
    if "-" in k and k.split("-")[0] in _MADE:
        first, last = k.split("-", 1)
        if last not in _MADE:
            raise RulesError(f"unknown hand class {key!r}")
        return list(range(_CLASS_ID[first], _CLASS_ID[last] + 1))
    if ":" in k:
        fam, ranks = k.split(":", 1)
        if fam not in ("high", "pair"):
            raise RulesError(f"unknown hand class {key!r}: use high:R, pair:R, pair:R-R, two_pair, ...")
        base = 0 if fam == "high" else 13
        try:
            if "-" in ranks:
                a, b = (parse_rank(x) for x in ranks.split("-", 1))
            else:
                a = b = parse_rank(ranks)
        except CardError:
            raise RulesError(f"unknown hand class {key!r}: bad rank") from None
        lo, hi = sorted((int(a), int(b)))
        return [base + r - 2 for r in range(lo, hi + 1)]
    raise RulesError(f"unknown hand class {key!r}: use high:R, pair:R, pair:R-R, two_pair, straight+, ...")


_DEC_PARSE = {"fold": 0, "f": 0, "0": 0, "1x": 1, "1": 1, "2x": 2, "2": 2, "3x": 3, "3": 3}


def load_chart(source: str | Path, name: str | None = None) -> StrategyChart:
    """A :class:`StrategyChart` from a CSV file (or CSV text containing a newline).

    Format: header ``hand,2,3,4,5,6,7,8,9,T,J,Q,K,A``; one row per hand class
    key (``high:A``, ``high:7-K``, ``pair:9``, ``pair:3-9``, ``two_pair``,
    ``straight+``, ``default``, ...), cells ``fold``/``1x``/``2x``/``3x``. Later
    rows override earlier ones; every hand class that occurs must be covered.

    Raises:
        RulesError: unreadable file, bad header, unknown class or decision, a
            class not covered.
    """
    text = str(source)
    if "\n" not in text:
        try:
            text = Path(source).read_text()
        except OSError as exc:
            raise RulesError(f"cannot read strategy file {str(source)!r}: {exc.strerror}") from None
        name = name or Path(source).stem
    rows = [r for r in csv.reader(io.StringIO(text)) if r and not r[0].startswith("#")]
    if not rows:
        raise RulesError("strategy file is empty")
    header = [h.strip().upper() for h in rows[0][1:]]
    try:
        ups = [parse_rank(h) for h in header]
    except CardError:
        raise RulesError(f"strategy file header must be 'hand,2,3,...,A', got {','.join(rows[0])!r}") from None
    if sorted(int(r) for r in ups) != list(range(2, 15)):
        raise RulesError("strategy file header must list the 13 up-card ranks 2..A once each")
    table = np.full((32, 13), 255, dtype=np.uint8)
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != 14:
            raise RulesError(f"strategy file line {line}: expected 14 fields, got {len(row)}")
        cls = _parse_class_key(row[0])
        for up_rank, cell in zip(ups, row[1:], strict=True):
            v = _DEC_PARSE.get(cell.strip().lower())
            if v is None:
                raise RulesError(f"strategy file line {line}: bad decision {cell!r} (use fold, 1x, 2x or 3x)")
            table[cls, int(up_rank) - 2] = v
    missing = [HAND_CLASSES[c] for c in _present_classes() if (table[c] == 255).any()]
    if missing:
        raise RulesError(f"strategy file does not cover {', '.join(missing[:5])}")
    table[table == 255] = 0
    return StrategyChart(name or "file", table)


def optimal_chart(rules: PokerRules | str = "live", counts: ExactCounts | None = None) -> StrategyChart:
    """The best chart by hand class and up rank: each cell takes the option with the
    highest total EV over the hands of its class (so its loss against perfect play
    is the least any chart of this shape can have)."""
    rules = as_rules(rules)
    counts = counts or exact_counts()
    opts = options(rules)
    sums = class_sums(counts)  # (class, up rank): weights, weight x le
    w, wle = sums[:, :, 0], sums[:, :, 2]
    cat_bonus = np.array(rules.ante_bonus.pays_by_category(), dtype=np.int64)
    cls_cat = np.array([0] * 13 + [1] * 13 + [2, 3, 4, 5, 6, 7], dtype=np.int64)  # HAND_CLASSES' categories
    bonus = cat_bonus[cls_cat][:, None]
    n = N_DEALER_HANDS
    # the total EV (x n) of each option over the hands of each class against each up rank, exact
    ev = np.stack([-n * w if k == 0 else (1 + k) * (2 * wle - n * w) + bonus * n * w for k in opts])
    best = np.argmax(ev, axis=0)  # the first maximum: the smaller wager on a tie
    table = np.asarray(opts, dtype=np.uint8)[best]
    return StrategyChart("chart", table)


def simple_chart(rules: PokerRules | str = "live") -> StrategyChart:
    """Shuffle Master's published simple strategy as a chart (up card ignored): fold
    anything below a pair of 3s, 1x with a pair of 3s-9s, 3x with a pair of 10s or
    better (two pair and up included). Where the rules lack 1x or 3x the nearest
    allowed multiple is used."""
    rules = as_rules(rules)
    one, three = _allowed(rules, 1), _allowed(rules, 3)
    table = np.zeros((32, 13), dtype=np.uint8)
    for r in range(3, 10):
        table[13 + r - 2] = one
    for r in range(10, 15):
        table[13 + r - 2] = three
    table[26:] = three
    return StrategyChart("simple", table)


def simple_strategy(rules: PokerRules | str = "live") -> Strategy:
    """The published simple strategy as a :class:`Strategy` (see :func:`simple_chart`)."""
    r = as_rules(rules)
    return simple_chart(r).strategy(r)


def get_strategy(spec: Any, rules: PokerRules | str = "live", *,
                 counts: ExactCounts | None = None) -> Strategy:
    """Resolve a strategy: ``"optimal"``, ``"simple"``, ``"chart"``, a CSV chart path,
    a :class:`Strategy`, a :class:`StrategyChart` or a ``(13, n_orbits)`` array.

    Raises:
        RulesError: unknown name / unreadable file / wrong shape / bets not allowed.
    """
    rules = as_rules(rules)
    if isinstance(spec, Strategy):
        return spec
    if isinstance(spec, StrategyChart):
        return spec.strategy(rules, counts)
    if isinstance(spec, np.ndarray):
        return Strategy("custom", spec)
    if not isinstance(spec, (str, Path)):
        raise RulesError(f"unknown strategy {spec!r}")
    s = str(spec)
    if s == "optimal":
        return optimal_strategy(rules, counts)
    if s == "simple":
        return simple_strategy(rules)
    if s == "chart":
        return optimal_chart(rules, counts).strategy(rules, counts)
    if Path(s).exists():
        return load_chart(s).strategy(rules, counts)
    raise RulesError(f"unknown strategy {s!r}: use optimal, simple, chart or a CSV chart file")


# ---------------------------------------------------------------------------
# Vectorised decisions for simulators
# ---------------------------------------------------------------------------


def decision_table(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
                   counts: ExactCounts | None = None) -> np.ndarray:
    """A ``(13, 2_598_960)`` uint8 lookup table of play multiples (0 = fold).

    See the module docstring for the layout; use it with :func:`decide`.
    ``strategy`` is anything :func:`get_strategy` accepts (``"optimal"``,
    ``"simple"``, ``"chart"``, a file...). The simple strategy needs no dealer counts.
    """
    rules = as_rules(rules)
    if isinstance(strategy, str) and strategy == "simple":
        s = simple_strategy(rules)
    else:
        s = get_strategy(strategy, rules, counts=counts)
    tables = base_tables()
    table = np.ascontiguousarray(s.decisions[:, tables.orbit_of])
    table.setflags(write=False)
    return table


def decide(player: np.ndarray, up: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Play multiples (``(N,)`` uint8, 0 = fold) for many hands at once.

    Args:
        player: ``(N, 5)`` card indices (any order, distinct, 0..51).
        up: ``(N,)`` the dealer's up cards (not among the row's cards).
        table: from :func:`decision_table`.

    Not checked per row (the caller's contract): distinct cards, up card not in
    the hand. Shapes and ranges are checked.

    Raises:
        CardError: wrong shapes or card indices outside 0..51.
    """
    p = np.asarray(player)
    u = np.asarray(up)
    if p.ndim != 2 or p.shape[1] != 5 or u.shape != (p.shape[0],):
        raise CardError(f"decide needs player (N, 5) and up (N,), got {p.shape} and {u.shape}")
    if p.size and (p.min() < 0 or p.max() > 51 or u.min() < 0 or u.max() > 51):
        raise CardError("card indices must lie in 0..51")
    if table.shape != (13, N_HANDS5) or table.dtype != np.uint8:
        raise RulesError("table must be a (13, 2598960) uint8 array from decision_table()")
    from fourcards import jit
    from fourcards.poker import kernels as pk

    with jit.compiling("the vectorised decision look-up", pk.decide):
        return pk.decide(np.ascontiguousarray(p, dtype=np.uint8), np.ascontiguousarray(u, dtype=np.uint8),
                         np.ascontiguousarray(table), BINOM)


def decide_hand(cards: Iterable[Card | str] | str, up: Card | str, table: np.ndarray) -> int:
    """The play multiple for one hand (validated) from a :func:`decision_table`."""
    hand, upc = _validate_hand(cards, up)
    return int(decide(np.array([[c.index for c in hand]]), np.array([upc.index]), table)[0])


def advise(cards: Iterable[Card | str] | str, up: Card | str, rules: PokerRules | str | None = None, *,
           counts: ExactCounts | None = None) -> HandEV:
    """For a trainer: the optimal decision and the exact EV of every option
    (:class:`analysis.HandEV`; ``.ev_lost(option)`` is the EV given up)."""
    return hand_ev(cards, up, rules, counts=counts)
