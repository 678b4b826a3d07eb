"""Chunked, reproducible execution: in process, in local processes, or on Dask.

A simulation is cut into fixed-size **chunks**; chunk ``i`` draws its random
numbers from ``numpy.random.SeedSequence(seed, spawn_key=(i,))`` alone, and every
chunk's result is made of exact integers. Chunks are grouped into **tasks**
(contiguous chunk ranges) only to spread the work; results are combined in
chunk order. So a run gives bit-identical results whatever the backend, the
number of workers or the task grouping.

Backends (:func:`run_tasks`):

* ``"serial"`` - this process (``workers=1``);
* ``"threads"`` - ``workers`` threads in this process, for tasks whose compiled
  kernels release the GIL (Four Card Poker): no start-up cost, nothing copied;
* ``"processes"`` - a :class:`concurrent.futures.ProcessPoolExecutor` of
  ``workers`` spawned processes (pure-Python tasks: Four of a Kind bots);
* ``"dask"`` - a :class:`distributed.LocalCluster` of ``workers`` processes
  (one thread each), or an existing cluster when ``scheduler`` is given
  (``tcp://host:8786``), or a ready :class:`distributed.Client`; needs the ``sim``
  extra (the others need no extra).

``"auto"`` (the default) picks by job size, so that more workers are never slower
than one: Dask only for a given scheduler or client; one worker or one task runs
serially; GIL-free tasks use threads; other tasks run the first task here, time
it, and start processes only if the rest would take well over the
:data:`PROCESS_START_S` it costs to start them.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from typing import Any

from fourcards.errors import FourcardsError
from fourcards.extras import require
from fourcards.inputs import MAX_WORKERS

__all__ = [
    "SimulationError",
    "plan_chunks",
    "group_tasks",
    "run_tasks",
    "connect",
    "usable_cpus",
    "BACKENDS",
]

BACKENDS = ("auto", "serial", "threads", "processes", "dask")

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT_S = 3.0
#: Seconds it costs to start a pool of worker processes (spawn, imports, sending the
#: shared data), as measured on the 2-core development machine; ``"auto"`` starts
#: processes only when the remaining work would take several times this serially.
PROCESS_START_S = 0.5


class SimulationError(FourcardsError):
    """Bad simulation arguments (negative hands, unknown strategy or bot, players out of
    range), or a cluster that cannot be reached."""


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity mask where the system has one
    (``os.sched_getaffinity``: a container or ``taskset`` may allow fewer than the machine
    has), else ``os.cpu_count()``; at least 1, at most :data:`fourcards.inputs.MAX_WORKERS`.
    The default of ``--workers`` (DESIGN: Monte Carlo on all cores)."""
    getaffinity = getattr(os, "sched_getaffinity", None)
    n = len(getaffinity(0)) if getaffinity is not None else (os.cpu_count() or 1)
    return max(1, min(n, MAX_WORKERS))


def plan_chunks(total: int, chunk: int) -> list[int]:
    """Sizes of the chunks covering ``total`` units: ``chunk`` each, the last one shorter.

    Raises:
        SimulationError: ``total`` < 0 or ``chunk`` < 1.
    """
    if total < 0:
        raise SimulationError(f"the number of units must be >= 0, got {total}")
    if chunk < 1:
        raise SimulationError(f"the chunk size must be >= 1, got {chunk}")
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


def group_tasks(n_chunks: int, workers: int, *, min_tasks_per_worker: int = 4,
                max_chunks_per_task: int = 32) -> list[tuple[int, int]]:
    """Contiguous ``(first_chunk, end_chunk)`` ranges spreading ``n_chunks`` over ``workers``.

    The grouping only affects scheduling, never results.
    """
    if n_chunks <= 0:
        return []
    n_tasks = max(workers * min_tasks_per_worker, math.ceil(n_chunks / max_chunks_per_task))
    n_tasks = min(n_tasks, n_chunks)
    per = math.ceil(n_chunks / n_tasks)
    return [(lo, min(lo + per, n_chunks)) for lo in range(0, n_chunks, per)]


# ------------------------------------------------------------------ processes

_SHARED: Any = None


def _init_shared(shared: Any) -> None:
    global _SHARED
    _SHARED = shared


def _call_shared(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    return fn(_SHARED, *args)


# ----------------------------------------------------------------------- dask

def connect(scheduler: str, timeout: float = CONNECT_TIMEOUT_S) -> Any:
    """A :class:`distributed.Client` connected to ``scheduler`` (``tcp://host:port``).

    Raises:
        SimulationError: a malformed address, or no scheduler answered within ``timeout`` s.
        MissingExtraError: Dask is not installed (the ``sim`` extra).
    """
    if not isinstance(scheduler, str) or "://" not in scheduler and ":" not in scheduler:
        raise SimulationError(f"malformed scheduler address {scheduler!r}: expected tcp://host:port")
    require("sim", "Dask")
    from distributed import Client

    try:
        return Client(scheduler, timeout=f"{timeout}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimulationError(
            f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s ({type(exc).__name__})"
        ) from None


def _local_cluster(workers: int) -> tuple[Any, Any]:
    require("sim", "Dask")
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, host="127.0.0.1")
    return cluster, Client(cluster, set_as_default=False)


def _run_dask(client: Any, fn: Callable[..., Any], shared: Any, tasks: Sequence[tuple[Any, ...]],
              on_done: Callable[[int], None] | None) -> list[Any]:
    from distributed import as_completed as dask_completed

    shared_f = client.scatter(shared, broadcast=True, hash=False)
    futures = [client.submit(fn, shared_f, *args, pure=False) for args in tasks]
    index = {f.key: i for i, f in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    try:
        with client.as_current():
            for fut in dask_completed(futures):
                i = index[fut.key]
                results[i] = fut.result()
                if on_done is not None:
                    on_done(i)
    finally:
        client.cancel(futures)
    return results


def progress_counter(sizes: Sequence[int], total: int,
                     progress: Callable[[int, int], None] | None) -> Callable[[int], None]:
    """An ``on_done`` callback for :func:`run_tasks`: when task ``i`` completes, add
    ``sizes[i]`` units (rounds, deals) to the count and report ``progress(done, total)``."""
    done = 0

    def on_done(i: int) -> None:
        nonlocal done
        done += sizes[i]
        if progress is not None:
            progress(done, total)

    return on_done


def run_tasks(fn: Callable[..., Any], shared: Any, tasks: Sequence[tuple[Any, ...]], *,
              workers: int = 1, scheduler: str | None = None, client: Any = None,
              backend: str = "auto", on_done: Callable[[int], None] | None = None,
              releases_gil: bool = False, used: list[str] | None = None) -> list[Any]:
    """Run ``fn(shared, *args)`` for every ``args`` in ``tasks``; results in task order.

    Args:
        fn: a module-level (picklable) function.
        shared: data every task needs (sent once per worker).
        tasks: argument tuples.
        workers: threads or processes (``"threads"``, ``"processes"``, a new ``LocalCluster``).
        scheduler: address of an existing Dask scheduler (implies ``"dask"``).
        client: a ready :class:`distributed.Client` (implies ``"dask"``).
        backend: ``"auto"`` (see the module docstring), ``"serial"``, ``"threads"``,
            ``"processes"`` or ``"dask"``.
        on_done: called (in this thread) with a task's index as it completes (progress).
        releases_gil: ``fn`` spends its time in compiled code that releases the GIL,
            so ``"auto"`` runs it in threads.
        used: if given, the backend actually used is appended to it.

    Raises:
        SimulationError: bad ``workers``/``backend``, an unreachable scheduler.
        MissingExtraError: the ``"dask"`` backend without the ``sim`` extra.
    """
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"--workers must be a whole number >= 1, got {workers!r}")
    if client is not None or scheduler is not None:
        backend = "dask"
    elif backend == "auto":
        if workers == 1 or len(tasks) <= 1:
            backend = "serial"
        elif releases_gil:
            backend = "threads"
    results: list[Any] = [None] * len(tasks)

    def done(i: int, value: Any) -> None:
        results[i] = value
        if on_done is not None:
            on_done(i)

    if backend == "auto":  # pure-Python tasks: time the first one, then decide
        t0 = time.perf_counter()
        done(0, fn(shared, *tasks[0]))
        rest = (time.perf_counter() - t0) * (len(tasks) - 1)
        backend = "processes" if rest > 4 * PROCESS_START_S else "serial"
        first = 1
    else:
        first = 0
    if used is not None:
        used.append(backend)
    if backend == "serial":
        for i in range(first, len(tasks)):
            done(i, fn(shared, *tasks[i]))
        return results
    if backend in ("threads", "processes"):
        pool: Executor
        if backend == "threads":
            pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fourcards-sim")
            submit = lambda args: pool.submit(fn, shared, *args)  # noqa: E731
        else:
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                                       initializer=_init_shared, initargs=(shared,))
            submit = lambda args: pool.submit(_call_shared, fn, args)  # noqa: E731
        with pool:
            futs = {submit(tasks[i]): i for i in range(first, len(tasks))}
            try:
                for fut in as_completed(futs):
                    done(futs[fut], fut.result())
            except BaseException:
                for f in futs:
                    f.cancel()
                raise
        return results
    # dask
    if client is not None:
        return _run_dask(client, fn, shared, tasks, on_done)
    if scheduler is not None:
        cl = connect(scheduler)
        try:
            return _run_dask(cl, fn, shared, tasks, on_done)
        finally:
            cl.close()
    cluster, cl = _local_cluster(workers)
    try:
        return _run_dask(cl, fn, shared, tasks, on_done)
    finally:
        cl.close()
        cluster.close()
