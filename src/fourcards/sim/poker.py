"""Four Card Poker Monte Carlo: millions of rounds per second, reproducible, streamed.

Each round: one seat with an ante of ``ante`` chips (and optionally an Aces Up
bet of ``aces_up`` chips) against the dealer, from a fresh 52-card deck: five
cards to the player, six to the dealer (one up card). The strategy decides fold
or a play bet of 1x-3x the ante from the player's five cards and the up card;
settlement is :func:`fourcards.poker.settlement.settle`, the round's (ties to
the player, the dealer always qualifies, the ante bonus paid whenever the
player plays, Aces Up settled on the player's hand even on a fold, the win cap).

Money is whole chips (``int64``); figures "per ante" divide by the ante.

Public API:

* :func:`simulate_poker` -> :class:`PokerSimResult` (mean net per ante with a
  95% CI, standard deviation per round, hit frequencies, session results and
  risk of ruin; ``to_dict()`` for JSON);
* :func:`load_sim_strategy` -> :class:`SimStrategy` (``"optimal"``,
  ``"simple"``, ``"chart"``, a CSV chart file - the formats of
  :mod:`fourcards.poker.strategy`);
* :func:`settle_rounds` - vectorised settlement of given deals and decisions;
* :func:`deal_rounds` - the deals of a seeded run (what the simulator plays);
* :func:`net_table` - net chips by (play multiple, win, player hand class).

Reproducibility: rounds are dealt in chunks of :data:`CHUNK_ROUNDS` (with
sessions: whole sessions per chunk), chunk ``i`` seeded from
``SeedSequence(seed, spawn_key=(i,))``; every chunk's result is integers, so a
run is bit-identical for any worker count, backend or task grouping. The same
seed deals the same cards whatever the strategy (common random numbers for
strategy comparisons).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from fourcards.errors import FourcardsError
from fourcards.hands import N_VALUES, HandCategory, HandValue, dense_to_value
from fourcards.poker.rules import PokerRules, as_rules
from fourcards.poker.settlement import settle
from fourcards.sim import tables as T
from fourcards.sim.runner import SimulationError, group_tasks, plan_chunks, progress_counter, run_tasks
from fourcards.sim.stats import Summary, quantiles_from_histogram, summarize_counts

__all__ = [
    "CHUNK_ROUNDS",
    "SimStrategy",
    "load_sim_strategy",
    "net_table",
    "deal_rounds",
    "settle_rounds",
    "PokerSimResult",
    "SessionStats",
    "simulate_poker",
    "session_paths",
    "exact_house_edge",
]

#: Rounds per chunk (the unit of seeding); with sessions, whole sessions per chunk.
CHUNK_ROUNDS = 1 << 16
#: Quantiles reported for session results.
SESSION_QUANTILES = (0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99)

_PCLASS_CATEGORY = (0, 1, 1, 2, 3, 4, 5, 6, 7)
_ACES_UP_FIELD = (None, None, "pair_of_aces", "two_pair", "straight", "flush", "three_of_a_kind",
                  "straight_flush", "four_of_a_kind")


def _kernels() -> Any:
    """The compiled kernels of :mod:`fourcards.sim.kernels` (ahead of time, or numba on first use)."""
    from fourcards import native

    return native.load("fourcards.sim.kernels", "the simulation kernels")


# ------------------------------------------------------------------ strategy

@dataclass(frozen=True)
class SimStrategy:
    """A strategy in the form the kernels use.

    Attributes:
        name: shown in reports (``"optimal"``, ``"simple"``, a file stem...).
        decisions: ``(13, n_orbits) uint8`` play multiples (0 = fold) per (up rank,
            player-hand orbit) - :attr:`fourcards.poker.strategy.Strategy.decisions`.
            Expanded to the ``(13, 2_598_960)`` colex table in each worker.
        key: a content hash of ``decisions`` (caches the expanded table per process).
    """

    name: str
    decisions: np.ndarray = field(repr=False)
    key: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.key:
            import hashlib

            digest = hashlib.blake2b(np.ascontiguousarray(self.decisions).tobytes(), digest_size=16).hexdigest()
            object.__setattr__(self, "key", digest)


def load_sim_strategy(spec: Any, rules: PokerRules) -> SimStrategy:
    """Resolve ``"optimal"``, ``"simple"``, ``"chart"`` or a CSV chart file for ``rules``.

    Uses :func:`fourcards.poker.strategy.get_strategy` (the optimal strategy needs
    the exact dealer counts: a few seconds once, then cached on disk).

    Raises:
        SimulationError: unknown strategy, unreadable file, or play bets the rules
            do not allow.
    """
    from fourcards.poker import analysis as an
    from fourcards.poker.exact import strategy as st

    if isinstance(spec, SimStrategy):
        s_name, dec = spec.name, spec.decisions
    else:
        try:
            if isinstance(spec, str) and spec == "simple":
                s = st.simple_strategy(rules)
            else:
                s = st.get_strategy(spec, rules)
        except FourcardsError as exc:
            raise SimulationError(str(exc)) from None
        s_name, dec = s.name, s.decisions
    dec = np.ascontiguousarray(dec, dtype=np.uint8)
    allowed = set(an.options(rules))
    used = set(np.unique(dec).tolist())
    if not used <= allowed:
        raise SimulationError(
            f"strategy {s_name!r} bets {sorted(used - allowed)}x the ante, which the rules "
            f"({rules.describe_play_bets()}) do not allow")
    dec.setflags(write=False)
    return SimStrategy(s_name, dec)


_TABLE_CACHE: dict[str, tuple[np.ndarray, np.ndarray]] = {}
_TABLE_LOCK = threading.Lock()


def _decision_tables(strategy: SimStrategy) -> tuple[np.ndarray, np.ndarray]:
    """``(small, big)`` decision tables of ``strategy`` (memoised per process).

    ``big``: the ``(13, 2_598_960) uint8`` colex table; ``small``: decisions by
    (player dense rank, up rank) with :data:`~fourcards.sim.tables.AMBIGUOUS`
    where ``big`` must be consulted (:func:`~fourcards.sim.kernels.rank_decisions`).
    """
    key = strategy.key
    with _TABLE_LOCK:
        tables = _TABLE_CACHE.get(key)
        if tables is None:
            from fourcards.hands import N_VALUES
            from fourcards.poker import analysis as an

            bt = an.base_tables()
            big = np.ascontiguousarray(strategy.decisions[:, bt.orbit_of])
            small = np.empty((N_VALUES, 13), dtype=np.uint8)
            _kernels().rank_decisions(big, bt.combos, bt.rank5, small)
            tables = (small, big)
            _TABLE_CACHE.clear()  # one strategy at a time: 34 MB each
            _TABLE_CACHE[key] = tables
        return tables


# -------------------------------------------------------------- settlement

def _class_hands() -> list[tuple[HandValue, HandValue, HandValue]]:
    """Per player hand class: (the class's lowest hand value, a dealer hand that beats it, one it
    beats or ties). The settlement depends on the player's hand only through its class (the
    ante bonus and Aces Up pay lines), so these stand for every hand of the class."""
    top = dense_to_value(N_VALUES - 1)  # four aces: beats the lowest hand of every class
    out = []
    for pc in range(T.N_PCLASS):
        low = dense_to_value(int(np.flatnonzero(T.PCLASS_OF_DENSE == pc)[0]))
        out.append((low, top, low))
    return out


def net_table(rules: PokerRules, ante: int = 1, aces_up: int = 0) -> np.ndarray:
    """Net chips of one round by (play multiple 0..3, win 0/1, player hand class).

    Shape ``(4, 2, 9) int64``; the player hand class is an index into
    :data:`fourcards.sim.tables.PCLASS_NAMES` (the category of the best four,
    pairs split into below aces / aces). ``win`` = the player's best four is equal
    to or better than the dealer's. Each cell is
    :func:`fourcards.poker.settlement.settle` of a hand of the class (fold for
    multiple 0), so the simulator settles exactly as the round does, win cap
    included.

    Raises:
        SimulationError: ``ante`` < 1 or ``aces_up`` < 0.
    """
    if not isinstance(ante, int) or ante < 1:
        raise SimulationError(f"the ante must be a whole number of chips >= 1, got {ante!r}")
    if not isinstance(aces_up, int) or aces_up < 0:
        raise SimulationError(f"the Aces Up bet must be a whole number of chips >= 0, got {aces_up!r}")
    out = np.zeros((4, 2, T.N_PCLASS), dtype=np.int64)
    for pc, (player, beats_it, loses_to_it) in enumerate(_class_hands()):
        for w, dealer in ((0, beats_it), (1, loses_to_it)):
            for m in range(4):
                out[m, w, pc] = settle(rules, player, dealer, ante=ante, play=m * ante if m else None,
                                       aces_up=aces_up).net
    return out


def deal_rounds(seed: int, n: int, chunk: int = 0) -> np.ndarray:
    """The first ``n`` rounds of chunk ``chunk`` of a run seeded ``seed``.

    Returns ``(n, 11) uint8`` card indices: the player's five cards, then the
    dealer's six (the up card last) - exactly the rounds :func:`simulate_poker` plays.
    """
    out = np.empty((n, 11), dtype=np.uint8)
    _kernels().deal_chunk(T.chunk_state(seed, chunk), n, out)
    return out


def settle_rounds(rules: PokerRules, cards: np.ndarray, multiples: np.ndarray, *,
                  ante: int = 1, aces_up: int = 0) -> np.ndarray:
    """Net chips of each round (vectorised :func:`~fourcards.poker.results.settle_hand`).

    Args:
        cards: ``(N, 11)`` card indices: player's five, then the dealer's six.
        multiples: ``(N,)`` play multiples (0 = fold, else 1..3 x the ante).
        ante, aces_up: wagers in chips.

    Returns:
        ``(N,) int64`` net chips per round (the seat's gain; the house's is minus it).

    Raises:
        SimulationError: bad shapes or card indices, or a multiple outside 0..3.
    """
    cards = np.ascontiguousarray(cards)
    mult = np.ascontiguousarray(multiples)
    if cards.ndim != 2 or cards.shape[1] != 11 or mult.shape != (cards.shape[0],):
        raise SimulationError(f"expected cards (N, 11) and multiples (N,), got {cards.shape} and {mult.shape}")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise SimulationError("card indices must lie in 0..51")
    if mult.size and (mult.min() < 0 or mult.max() > 3):
        raise SimulationError("play multiples must lie in 0..3")
    nets = net_table(rules, ante, aces_up)
    ranks = np.empty((len(cards), 2), dtype=np.int64)
    _kernels().eval_rounds(np.ascontiguousarray(cards, dtype=np.uint8), *T.tables(), ranks)
    m = mult.astype(np.int64)
    win = ((m > 0) & (ranks[:, 0] >= ranks[:, 1])).astype(np.int64)
    return nets[m, win, T.PCLASS_OF_DENSE[ranks[:, 0]]]


# --------------------------------------------------------------- the tasks

@dataclass(frozen=True)
class _Job:
    """What every task needs (sent once per worker)."""

    seed: int
    strategy: SimStrategy
    nets: np.ndarray
    chunk_units: int  # rounds per chunk, or sessions per chunk
    total_units: int
    session_k: int
    bankroll: int
    stake_max: int


@dataclass
class _Partial:
    counts: np.ndarray
    ruined: int = 0
    sessions: int = 0
    sess_values: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    sess_counts: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))


def _chunk_size(job: _Job, c: int) -> int:
    return min(job.chunk_units, job.total_units - c * job.chunk_units)


def _run_chunk(job: _Job, c: int, counts: np.ndarray, paths: np.ndarray | None = None) -> tuple[int, np.ndarray]:
    units = _chunk_size(job, c)
    k = job.session_k
    n = units * k if k else units
    sess = np.zeros(units if k else 0, dtype=np.int64)
    p = paths if paths is not None else np.empty((0, k + 1), dtype=np.int64)
    small, big = _decision_tables(job.strategy)
    ruined = _kernels().sim_chunk(T.chunk_state(job.seed, c), n, small, big, *T.tables(), T.PCLASS_OF_DENSE,
                                  job.nets, k, job.bankroll, job.stake_max, counts, sess, p)
    return int(ruined), sess


def _poker_task(job: _Job, lo: int, hi: int) -> _Partial:
    """Chunks ``lo..hi-1`` of ``job`` (runs in a worker)."""
    counts = np.zeros((4, 2, T.N_PCLASS), dtype=np.int64)
    part = _Partial(counts)
    sess_all = []
    for c in range(lo, hi):
        ruined, sess = _run_chunk(job, c, counts)
        part.ruined += ruined
        if job.session_k:
            sess_all.append(sess)
    if sess_all:
        v, n = np.unique(np.concatenate(sess_all), return_counts=True)
        part.sessions = int(n.sum())
        part.sess_values, part.sess_counts = v, n.astype(np.int64)
    return part


def _merge(parts: list[_Partial]) -> _Partial:
    counts = np.zeros((4, 2, T.N_PCLASS), dtype=np.int64)
    hist: dict[int, int] = {}
    ruined = sessions = 0
    for p in parts:  # chunk order; integer sums are exact
        counts += p.counts
        ruined += p.ruined
        sessions += p.sessions
        for v, n in zip(p.sess_values.tolist(), p.sess_counts.tolist(), strict=True):
            hist[v] = hist.get(v, 0) + n
    vals = np.array(sorted(hist), dtype=np.int64)
    cnts = np.array([hist[v] for v in vals.tolist()], dtype=np.int64)
    return _Partial(counts, ruined, sessions, vals, cnts)


# --------------------------------------------------------------- the result

@dataclass(frozen=True)
class SessionStats:
    """Session results: ``sessions`` sessions of ``session_hands`` hands from ``bankroll`` chips.

    A session stops (ruined) as soon as its bankroll falls below the most one round
    can stake (``stake_max`` = ante + Aces Up + the largest play bet).

    Attributes:
        quantiles: session net result in chips at each of :data:`SESSION_QUANTILES`.
        values, counts: the exact histogram of session net results (chips).
        risk_of_ruin: fraction of sessions ruined.
    """

    session_hands: int
    bankroll: int
    stake_max: int
    sessions: int
    ruined: int
    values: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)

    @property
    def risk_of_ruin(self) -> float:
        """Probability of ruin: the fraction of sessions ruined, ``ruined / sessions`` (0.0 with no sessions)."""
        return self.ruined / self.sessions if self.sessions else 0.0

    @property
    def mean(self) -> float:
        """Mean session net result in chips (0.0 with no sessions)."""
        return float((self.values * self.counts).sum() / self.sessions) if self.sessions else 0.0

    @property
    def quantiles(self) -> dict[str, int]:
        """Session net result in chips at each of :data:`SESSION_QUANTILES`, keyed ``"p01"`` .. ``"p99"``
        (lower empirical quantiles of the exact histogram).
        """
        qs = quantiles_from_histogram(self.values, self.counts, SESSION_QUANTILES)
        return {f"p{round(q * 100):02d}": v for q, v in zip(SESSION_QUANTILES, qs, strict=True)}

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the settings (chips), ``sessions``, ``ruined``, ``risk_of_ruin`` with its Wilson 95%
        interval, and in chips ``mean_result``, ``min_result``, ``max_result``, the probability
        ``fraction_ahead`` (net > 0) and :attr:`quantiles`.
        """
        ahead = int(self.counts[self.values > 0].sum())
        return {
            "session_hands": self.session_hands,
            "bankroll": self.bankroll,
            "stake_max": self.stake_max,
            "sessions": self.sessions,
            "ruined": self.ruined,
            "risk_of_ruin": self.risk_of_ruin,
            "risk_of_ruin_ci95": list(_wilson(self.ruined, self.sessions)),
            "mean_result": self.mean,
            "min_result": int(self.values[0]) if self.sessions else 0,
            "max_result": int(self.values[-1]) if self.sessions else 0,
            "fraction_ahead": ahead / self.sessions if self.sessions else 0.0,
            "quantiles": self.quantiles,
        }


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


@dataclass(frozen=True)
class PokerSimResult:
    """What :func:`simulate_poker` measured. Money in chips; "per ante" divides by the ante.

    Attributes:
        hands: rounds simulated.
        counts: ``(4, 2, 9) int64`` rounds by (play multiple, win, player hand class).
        net_chips: the player's total net result (exact).
        wagered_chips: total ante + play + Aces Up wagered.
        summary: mean / std / 95% CI per round, in antes (:class:`~fourcards.sim.stats.Summary`).
        sessions: :class:`SessionStats` when sessions were requested.
    """

    rules: PokerRules
    strategy: str
    seed: int
    ante: int
    aces_up: int
    hands: int
    counts: np.ndarray = field(repr=False)
    nets: np.ndarray = field(repr=False)
    summary: Summary
    sessions: SessionStats | None = None
    seconds: float = 0.0
    workers: int = 1
    backend: str = "serial"

    @property
    def net_chips(self) -> int:
        """The player's total net result over all rounds, in chips (exact; negative = the player lost)."""
        return int((self.counts * self.nets).sum())

    @property
    def wagered_chips(self) -> int:
        """Total wagered over all rounds, in chips: ante and Aces Up every round plus the play bets."""
        plays = sum(m * int(self.counts[m].sum()) for m in range(4))
        return self.hands * (self.ante + self.aces_up) + plays * self.ante

    @property
    def mean_net_per_ante(self) -> float:
        """Mean net result per round, in fractions of the ante (``summary.mean``; minus the house edge per ante)."""
        return self.summary.mean

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of :attr:`mean_net_per_ante`, in fractions of the ante."""
        return self.summary.ci95

    @property
    def std_per_round(self) -> float:
        """Standard deviation of one round's net result, in fractions of the ante."""
        return self.summary.std

    def frequencies(self) -> dict[str, Any]:
        """Hit frequencies (fractions of all hands unless stated)."""
        n = self.hands or 1
        c = self.counts
        dec = {("fold" if m == 0 else f"play_{m}x"): int(c[m].sum()) / n for m in range(4)}
        plays = int(c[1:].sum())
        wins = int(c[1:, 1].sum())
        bonus = self.rules.ante_bonus.pays_by_category()
        bonus_hits = {}
        for cat in (HandCategory.THREE_OF_A_KIND, HandCategory.STRAIGHT_FLUSH, HandCategory.FOUR_OF_A_KIND):
            pcs = [pc for pc in range(T.N_PCLASS) if _PCLASS_CATEGORY[pc] == cat]
            hits = int(c[1:, :, pcs].sum()) if bonus[cat] else 0
            bonus_hits[cat.key] = hits / n
        out: dict[str, Any] = {
            "decisions": dec,
            "outcomes": {"win": wins / n, "lose": (plays - wins) / n, "fold": int(c[0].sum()) / n},
            "win_given_play": wins / plays if plays else 0.0,
            "ante_bonus": bonus_hits,
            "ante_bonus_any": sum(bonus_hits.values()),
            "player_hands": {name: int(c[:, :, pc].sum()) / n for pc, name in enumerate(T.PCLASS_NAMES)},
        }
        if self.aces_up:
            au = {}
            for pc, f in enumerate(_ACES_UP_FIELD):
                if f is not None:
                    au[f] = int(c[:, :, pc].sum()) / n
            won = sum(au.values())
            pays = self.rules.aces_up.as_dict()
            ret = sum(au[f] * pays[f] for f in au) - (1 - won)
            out["aces_up"] = {"hits": au, "win": won, "lose": 1 - won, "return_per_bet": ret}
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``hands``, ``mean_net_per_ante``, ``ci95``, ``std_per_round`` and more."""
        s = self.summary
        d: dict[str, Any] = {
            "game": "four_card_poker",
            "hands": self.hands,
            "mean_net_per_ante": s.mean,
            "ci95": list(s.ci95),
            "std_per_round": s.std,
            "standard_error": s.sem,
            "house_edge": -s.mean,
            "element_of_risk": -self.net_chips / self.wagered_chips if self.wagered_chips else 0.0,
            "average_total_bet_per_ante": self.wagered_chips / (self.hands * self.ante) if self.hands else 0.0,
            "net_chips": self.net_chips,
            "wagered_chips": self.wagered_chips,
            "strategy": self.strategy,
            "rules": self.rules.name,
            "seed": self.seed,
            "ante": self.ante,
            "aces_up": self.aces_up,
            "frequencies": self.frequencies(),
            "workers": self.workers,
            "backend": self.backend,
            "seconds": self.seconds,
            "rounds_per_second": self.hands / self.seconds if self.seconds else None,
        }
        if self.sessions is not None:
            d["sessions"] = self.sessions.to_dict()
        return d


# ------------------------------------------------------------------ the run

def _check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise SimulationError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def simulate_poker(hands: int, *, rules: PokerRules | str = "live", strategy: Any = "optimal",
                   seed: int = 0, ante: int = 1, aces_up: int = 0,
                   session_hands: int | None = None, bankroll: int | None = None,
                   workers: int = 1, scheduler: str | None = None, client: Any = None,
                   backend: str = "auto", progress: Callable[[int, int], None] | None = None,
                   ) -> PokerSimResult:
    """Simulate ``hands`` rounds of one seat against the dealer.

    Args:
        hands: rounds (>= 1). With sessions, ``hands // session_hands`` whole
            sessions are played (``hands`` must be at least ``session_hands``).
        rules: a :class:`PokerRules` or preset name (``"live"``, ``"online"``).
        strategy: ``"optimal"``, ``"simple"``, ``"chart"``, a CSV chart file
            (:func:`fourcards.poker.strategy.load_chart`) or a :class:`SimStrategy`.
        seed: the run's seed (>= 0); same seed -> same deals and results.
        ante, aces_up: wagers per round in chips (ante >= 1, Aces Up >= 0).
        session_hands, bankroll: play sessions of ``session_hands`` hands starting
            from ``bankroll`` chips (both or neither); reports session quantiles
            and the risk of ruin.
        workers: 1: this thread; more: that many threads (the kernel releases the GIL),
            unless ``backend`` says otherwise.
        scheduler: a Dask scheduler address (``tcp://host:8786``); client: a ready
            :class:`distributed.Client`.
        backend: see :func:`fourcards.sim.runner.run_tasks` (``"auto"``: serial for one
            worker or one task, else threads).
        progress: ``progress(done_rounds, total_rounds)`` as tasks finish.

    Raises:
        SimulationError: bad counts, unknown strategy, bankroll below one round's
            stake, an unreachable scheduler.
        RulesError: unknown rules preset.
    """
    import time

    hands = _check_int("--hands", hands, 1)
    seed = _check_int("--seed", seed, 0)
    ante = _check_int("--ante", ante, 1)
    aces_up = _check_int("--aces-up-bet", aces_up, 0)
    if (session_hands is None) != (bankroll is None):
        raise SimulationError("--session-hands and --bankroll go together: give both or neither")
    rules = as_rules(rules)
    if aces_up and not ante and rules.aces_up_requires_ante:  # pragma: no cover - ante >= 1 here
        raise SimulationError("the Aces Up bet needs an ante under these rules")
    k = 0
    bank = 0
    stake_max = ante + aces_up + max(rules.decision_multiples) * ante
    if session_hands is not None:
        k = _check_int("--session-hands", session_hands, 1)
        bank = _check_int("--bankroll", bankroll, 1)
        if bank < stake_max:
            raise SimulationError(
                f"--bankroll {bank} cannot cover one round's stake of {stake_max} chips "
                f"(ante + Aces Up + a {max(rules.decision_multiples)}x play bet)")
        if hands < k:
            raise SimulationError(f"--hands {hands} is less than one session of {k} hands")
    strat = load_sim_strategy(strategy, rules)
    nets = net_table(rules, ante, aces_up)
    if k:
        units = hands // k
        chunk_units = max(1, CHUNK_ROUNDS // k)
        hands = units * k
    else:
        units, chunk_units = hands, CHUNK_ROUNDS
    job = _Job(seed, strat, nets, chunk_units, units, k, bank, stake_max)
    n_chunks = len(plan_chunks(units, chunk_units))
    n_workers = _check_int("--workers", workers, 1)
    tasks = group_tasks(n_chunks, 1 if (scheduler is None and client is None and n_workers == 1) else n_workers)
    rounds_of = [sum(_chunk_size(job, c) for c in range(lo, hi)) * (k or 1) for lo, hi in tasks]
    on_done = progress_counter(rounds_of, hands, progress)

    if scheduler is None and client is None and backend not in ("processes", "dask"):
        _decision_tables(strat)  # build before timing the rounds (worker processes build their own)
    t0 = time.perf_counter()
    used: list[str] = []
    parts = run_tasks(_poker_task, job, tasks, workers=n_workers, scheduler=scheduler, client=client,
                      backend=backend, on_done=on_done, releases_gil=True, used=used)
    seconds = time.perf_counter() - t0
    total = _merge(parts)
    summary = summarize_counts(total.counts.ravel(), nets.ravel(), ante)
    sessions = None
    if k:
        sessions = SessionStats(k, bank, stake_max, total.sessions, total.ruined, total.sess_values,
                                total.sess_counts)
    return PokerSimResult(rules, strat.name, seed, ante, aces_up, hands, total.counts, nets, summary,
                          sessions, seconds, n_workers, used[0])


def session_paths(result: PokerSimResult, strategy: SimStrategy | Any, n_paths: int = 20) -> np.ndarray:
    """Bankroll paths (chips, ``(P, session_hands + 1) int64``) of the first sessions of ``result``.

    Replays chunk 0 of the same run, so the paths are exactly the sessions the run
    played. Without sessions in ``result``: running totals of 200-hand stretches
    from a bankroll of 0 (no ruin).
    """
    strat = strategy if isinstance(strategy, SimStrategy) else load_sim_strategy(strategy, result.rules)
    nets = net_table(result.rules, result.ante, result.aces_up)
    if result.sessions is not None:
        ss = result.sessions
        job = _Job(result.seed, strat, nets, max(1, CHUNK_ROUNDS // ss.session_hands), ss.sessions,
                   ss.session_hands, ss.bankroll, ss.stake_max)
        paths = np.zeros((min(n_paths, _chunk_size(job, 0)), ss.session_hands + 1), dtype=np.int64)
        _run_chunk(job, 0, np.zeros((4, 2, T.N_PCLASS), dtype=np.int64), paths)
        return paths
    # a plain run: the first rounds of its chunk 0, read as consecutive 200-hand stretches
    k = 200
    p = max(1, min(n_paths, min(result.hands, CHUNK_ROUNDS) // k))
    n = min(p * k, result.hands)
    paths = np.zeros((p, k + 1), dtype=np.int64)
    sess = np.zeros(p, dtype=np.int64)
    counts = np.zeros((4, 2, T.N_PCLASS), dtype=np.int64)
    _kernels().sim_chunk(T.chunk_state(result.seed, 0), n, *_decision_tables(strat), *T.tables(),
                         T.PCLASS_OF_DENSE, nets, k, 0, -(1 << 62), counts, sess, paths)
    if n < k:
        paths[0, n + 1:] = paths[0, n]
    return paths


def exact_house_edge(rules: PokerRules, strategy: Any, *, ante: int = 1, aces_up: int = 0) -> Fraction:
    """The exact house edge per ante (:func:`fourcards.poker.analysis.analyze`).

    With an Aces Up bet of ``aces_up`` chips per ``ante`` chips, the Aces Up house
    edge (:func:`fourcards.poker.analysis.aces_up`) is added in proportion. The win
    cap is ignored (it cannot bind unless the wagers are large).

    Raises:
        RulesError / SimulationError: a strategy the rules do not allow.
    """
    from fourcards.poker import analysis as an

    spec = strategy.decisions if isinstance(strategy, SimStrategy) else strategy
    edge = an.analyze(rules, spec).house_edge
    if aces_up:
        edge += Fraction(aces_up, ante) * an.aces_up(rules.aces_up).house_edge
    return edge
