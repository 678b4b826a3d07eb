"""Four of a Kind bot tournaments: many deals, each bot's mean result per deal with a 95% CI.

Setup: ``players`` seats, each with a bot from :mod:`fourcards.kind.bots`
(``"odds"``, ``"cautious"``, ``"random"``, or an installed plug-in's,
:func:`~fourcards.kind.bots.bot_names`). Every deal starts from equal stacks
of ``stack`` chips (so deals are independent and the confidence intervals are
honest) and the button rotates: deal ``g`` has the button at seat ``g % players``,
so every bot sits in every position equally often. Results are whole chips.

Reproducibility: deals are played in chunks of :data:`CHUNK_DEALS`; chunk ``i``
shuffles with a :class:`random.Random` seeded from
``numpy.random.SeedSequence(seed, spawn_key=(i,))``; per-seat results are kept as
exact integer sums and histograms, so a run is identical for any worker count.

Per bot name (when several seats run the same bot), the per-deal figure is the
sum over its seats divided by its number of seats; the CI uses the per-deal sums,
which are independent across deals (seats within one deal are not).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fourcards.errors import FourcardsError
from fourcards.sim.runner import SimulationError, group_tasks, plan_chunks, progress_counter, run_tasks
from fourcards.sim.stats import Summary, summarize_sums

__all__ = ["CHUNK_DEALS", "parse_bot_specs", "KindSimResult", "BotStats", "simulate_kind"]

#: Deals per chunk (the unit of seeding).
CHUNK_DEALS = 32


def parse_bot_specs(specs: Sequence[str], players: int) -> list[str]:
    """Seat-by-seat bot names from ``specs``: names (``odds``; ``file:PATH``, an agent file), or
    ``name:count`` / ``name*count``.

    Fewer seats than ``players`` are filled by repeating the list in order.

    Raises:
        SimulationError: unknown bot name, bad count, no bots, more bots than players.
    """
    from fourcards.kind.bots import bot_names, is_file_bot

    names = bot_names()
    seats: list[str] = []
    for spec in specs:
        for part in str(spec).replace(",", " ").split():
            name, count = part, 1
            for sep in (":", "*"):
                if sep in part and part.rsplit(sep, 1)[1].isdigit():
                    name, c = part.rsplit(sep, 1)
                    count = int(c)
                    break
            name = name.strip()
            if not is_file_bot(name):  # file:PATH keeps its case: a path
                name = name.lower()
            if not is_file_bot(name) and name not in names:
                raise SimulationError(f"unknown bot {name!r}: choose from {', '.join(names)}")
            if count < 1:
                raise SimulationError(f"bot count must be >= 1 in {part!r}")
            seats.extend([name] * count)
    if not seats:
        raise SimulationError("give at least one bot (--bots odds cautious random ...)")
    if len(seats) > players:
        raise SimulationError(f"{len(seats)} bots for {players} players: give at most one bot per seat")
    base = list(seats)
    while len(seats) < players:
        seats.append(base[len(seats) % len(base)])
    return seats


@dataclass(frozen=True)
class _Job:
    seed: int
    rules: Any
    bots: tuple[str, ...]
    stack: int
    deals: int


@dataclass
class _Partial:
    n: int
    seat_sum: list[int]
    seat_sq: list[int]
    bot_sum: dict[str, int]
    bot_sq: dict[str, int]
    hist: dict[str, dict[int, int]]


def _chunk_rng(seed: int, chunk: int) -> random.Random:
    words = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(8, np.uint32)
    return random.Random(int.from_bytes(words.tobytes(), "little"))


def _kind_task(job: _Job, lo: int, hi: int) -> _Partial:
    """Chunks ``lo..hi-1`` of ``job`` (runs in a worker)."""
    from fourcards.kind.bots import make_bot, play_deal

    p = len(job.bots)
    names = sorted(set(job.bots))
    part = _Partial(0, [0] * p, [0] * p, dict.fromkeys(names, 0), dict.fromkeys(names, 0),
                    {b: {} for b in names})
    for c in range(lo, hi):
        rng = _chunk_rng(job.seed, c)
        bots = [make_bot(b) for b in job.bots]
        first = c * CHUNK_DEALS
        for g in range(first, min(first + CHUNK_DEALS, job.deals)):
            game = play_deal(job.rules, bots, [job.stack] * p, rng, g % p)
            pay = game.returns()
            per_bot = dict.fromkeys(names, 0)
            for s, v in enumerate(pay):
                part.seat_sum[s] += v
                part.seat_sq[s] += v * v
                b = job.bots[s]
                per_bot[b] += v
                h = part.hist[b]
                h[v] = h.get(v, 0) + 1
            for b, v in per_bot.items():
                part.bot_sum[b] += v
                part.bot_sq[b] += v * v
            part.n += 1
    return part


@dataclass(frozen=True)
class BotStats:
    """One bot's results. ``summary``: chips per deal per seat (mean, std, 95% CI)."""

    bot: str
    seats: tuple[int, ...]
    summary: Summary
    values: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``bot``, ``seats``, and in chips per deal per seat ``mean_per_deal``, ``ci95``,
        ``std_per_deal`` and ``standard_error``.
        """
        s = self.summary
        return {"bot": self.bot, "seats": list(self.seats), "mean_per_deal": s.mean, "ci95": list(s.ci95),
                "std_per_deal": s.std, "standard_error": s.sem}


@dataclass(frozen=True)
class KindSimResult:
    """What :func:`simulate_kind` measured (chips per deal)."""

    rules: Any
    players: int
    bots: tuple[str, ...]
    seed: int
    stack: int
    deals: int
    by_bot: tuple[BotStats, ...]
    by_seat: tuple[Summary, ...]
    seconds: float = 0.0
    workers: int = 1

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the run's settings (rules preset name, stack in chips, seed, workers, seconds), each
        seat's and each bot's results in chips per deal (``mean_per_deal``, ``ci95``, ``std_per_deal``).
        """
        return {
            "game": "four_of_a_kind",
            "deals": self.deals,
            "players": self.players,
            "rules": getattr(self.rules, "name", str(self.rules)),
            "stack": self.stack,
            "seed": self.seed,
            "seats": [{"seat": i, "bot": b, "mean_per_deal": s.mean, "ci95": list(s.ci95), "std_per_deal": s.std}
                      for i, (b, s) in enumerate(zip(self.bots, self.by_seat, strict=True))],
            "bots": [b.to_dict() for b in self.by_bot],
            "workers": self.workers,
            "seconds": self.seconds,
        }


def _check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise SimulationError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def simulate_kind(deals: int, players: int, bots: Sequence[str], *, rules: Any = "family", seed: int = 0,
                  stack: int | None = None, workers: int = 1, scheduler: str | None = None,
                  client: Any = None, backend: str = "auto",
                  progress: Callable[[int, int], None] | None = None) -> KindSimResult:
    """Play ``deals`` deals of Four of a Kind between bots; each bot's mean result per deal.

    Args:
        deals: number of deals (>= 1).
        players: seats, within the rules' 4..13.
        bots: bot specs (see :func:`parse_bot_specs`).
        rules: a :class:`~fourcards.kind.rules.KindRules` or preset name.
        seed: the run's seed (>= 0).
        stack: chips per seat at the start of every deal (default 40 x the ante).
        workers, scheduler, client, backend: see :func:`fourcards.sim.runner.run_tasks`.
        progress: ``progress(done_deals, deals)``.

    Raises:
        SimulationError: bad counts, players out of range, unknown bot, bad stack,
            an unreachable scheduler.
    """
    from fourcards.kind.rules import KindRules, get_rules

    deals = _check_int("--deals", deals, 1)
    seed = _check_int("--seed", seed, 0)
    if not isinstance(rules, KindRules):
        try:
            rules = get_rules(str(rules))
        except FourcardsError as exc:
            raise SimulationError(str(exc)) from None
    players = _check_int("--players", players, 1)
    if not rules.min_players <= players <= rules.max_players:
        raise SimulationError(f"--players must be {rules.min_players} to {rules.max_players}, got {players}")
    seats = tuple(parse_bot_specs(bots, players))
    stack = 40 * rules.ante if stack is None else _check_int("--stack", stack, 1)
    if stack < rules.ante:
        raise SimulationError(f"--stack {stack} cannot pay the ante of {rules.ante}")
    job = _Job(seed, rules, seats, stack, deals)
    n_chunks = len(plan_chunks(deals, CHUNK_DEALS))
    n_workers = _check_int("--workers", workers, 1)
    tasks = group_tasks(n_chunks, n_workers, max_chunks_per_task=4)
    deals_of = [min(hi * CHUNK_DEALS, deals) - lo * CHUNK_DEALS for lo, hi in tasks]
    on_done = progress_counter(deals_of, deals, progress)

    t0 = time.perf_counter()
    parts = run_tasks(_kind_task, job, tasks, workers=n_workers, scheduler=scheduler, client=client,
                      backend=backend, on_done=on_done)
    seconds = time.perf_counter() - t0
    p = players
    n = sum(x.n for x in parts)
    seat_sum = [sum(x.seat_sum[s] for x in parts) for s in range(p)]
    seat_sq = [sum(x.seat_sq[s] for x in parts) for s in range(p)]
    by_seat = tuple(summarize_sums(n, seat_sum[s], seat_sq[s]) for s in range(p))
    by_bot = []
    for b in sorted(set(seats)):
        k = seats.count(b)
        total = sum(x.bot_sum[b] for x in parts)
        sq = sum(x.bot_sq[b] for x in parts)
        per_deal = summarize_sums(n, total, sq)
        summ = Summary(n, per_deal.mean / k, per_deal.std / k)
        hist: dict[int, int] = {}
        for x in parts:
            for v, c in x.hist[b].items():
                hist[v] = hist.get(v, 0) + c
        vals = np.array(sorted(hist), dtype=np.int64)
        cnts = np.array([hist[v] for v in vals.tolist()], dtype=np.int64)
        by_bot.append(BotStats(b, tuple(i for i, x in enumerate(seats) if x == b), summ, vals, cnts))
    return KindSimResult(rules, players, seats, seed, stack, n, tuple(by_bot), by_seat, seconds, n_workers)
