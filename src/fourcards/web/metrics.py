"""Prometheus metrics (``GET /metrics``; docs/deploy.md "Monitoring" lists the series for a board).

The series are ``prometheus-client``'s; the server counts with one-line calls where a command is
applied or refused (:func:`command`, around :meth:`fourcards.web.repository.Repository.run`), a
table written (:func:`commits`, :mod:`fourcards.web.committer`; a chained move: :func:`applied`), views pushed (:func:`published`), websockets opened and
closed (:func:`websocket`), responses sent (:func:`response`, :mod:`fourcards.web.context`) and
errors logged (:func:`error`, :mod:`fourcards.web.logs`). No label holds a table id, a name or
anything a client chooses: a command's kind is its class's name, a status its class (``4xx``).

**Several processes** (``fourcards serve --workers N``): ``serve`` points ``PROMETHEUS_MULTIPROC_DIR``
at an empty folder before prometheus-client is imported (:func:`fourcards.cli.serve.metrics_folder`); each process writes its
values there and a scrape of any of them adds them up (prometheus-client's multiprocess mode;
the open websockets of live processes only). Without it (one process) the values are the
process's own.

**From the database** at each scrape (cached :data:`DB_CACHE_S`): tables with a deal in progress
and open tables written in the last 15 minutes - figures of every server sharing the database.
"""

from __future__ import annotations

import glob
import os
import re
import time
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

__all__ = ["CONTENT_TYPE_LATEST", "MULTIPROC_ENV", "DB_CACHE_S", "database_figures", "command", "applied", "commits",
           "published", "table_read", "websocket", "response", "error", "retention_run", "exposition", "kind_of"]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: Seconds a scrape's database figures are kept before they are read again.
DB_CACHE_S = 5.0
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ACTIONS = Counter("fourcards_actions", "Commands at tables (a seat's move, a bot's, a deal started, a seat taken, "
                                       "a chat message...) by kind and result: applied, repeated (an action id seen "
                                       "before), unchanged, refused (4xx) or failed (5xx)", ["kind", "result"])
ACTION_SECONDS = Histogram("fourcards_action_seconds", "Seconds to apply and commit one command (a lost race's "
                                                       "retries included)", buckets=_FAST)
COMMIT_SECONDS = Histogram("fourcards_commit_seconds", "Seconds of one table write's database transaction",
                           buckets=_FAST)
BOT_MOVES = Counter("fourcards_bot_moves", "Bots' moves applied")
VIEWS = Counter("fourcards_views_pushed", "Table views pushed to websockets")
TABLE_READS = Counter("fourcards_table_reads", "Tables read whole from the database: a table's first use on this "
                                               "server, or its copy here made stale by another server's write")
WEBSOCKETS = Gauge("fourcards_websockets_open", "Open websockets (live tables' pages)", multiprocess_mode="livesum")
RESPONSES = Counter("fourcards_http_responses", "HTTP responses by status class", ["code"])
ERRORS = Counter("fourcards_errors", "Log records at ERROR or above, by logger", ["logger"])
RETENTION_RUNS = Counter("fourcards_retention_runs", "Automatic retention runs (serve --retention) by result: pruned, "
                                                      "nothing (nothing old enough), skipped (another server's turn), "
                                                      "failed", ["result"])
RETENTION_TABLES = Counter("fourcards_retention_pruned_tables", "Closed tables pruned by the automatic retention")
RETENTION_DEALS = Counter("fourcards_retention_pruned_deals", "Deals whose histories the automatic retention removed")
RETENTION_LAST = Gauge("fourcards_retention_last_run_timestamp_seconds", "When the automatic retention last ran "
                                                                         "(Unix seconds)", multiprocess_mode="max")
BUILD = Gauge("fourcards_build_info", "1, labelled with this server's version", ["version"], multiprocess_mode="max")

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def kind_of(command: Any) -> str:
    """A command's kind as a label: its class's name in snake case (``BotMove`` -> ``bot_move``)."""
    return _CAMEL.sub("_", type(command).__name__).lower()


def command(run: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate ``Repository.run(table_id, make, ...)``: time it and count its command by kind and
    result (the kind is read from the command ``make`` builds)."""

    @wraps(run)
    async def counted(self: Any, table_id: str, make: Callable[[Any], Any], *args: Any, **kwargs: Any) -> Any:
        kind = "unknown"

        def making(state: Any) -> Any:
            nonlocal kind
            cmd = make(state)
            kind = kind_of(cmd)
            return cmd

        started = time.perf_counter()
        try:
            outcome = await run(self, table_id, making, *args, **kwargs)
        except Exception as exc:
            status = int(getattr(exc, "status", 500))
            ACTIONS.labels(kind, "failed" if status >= 500 else "refused").inc()
            raise
        finally:
            ACTION_SECONDS.observe(time.perf_counter() - started)
        result = "repeated" if outcome.repeated else "applied" if outcome.changed else "unchanged"
        ACTIONS.labels(kind, result).inc()
        if kind == "bot_move" and result == "applied":
            BOT_MOVES.inc()
        return outcome

    return counted


def table_read() -> None:
    """A table was read whole from the database (:meth:`fourcards.web.repository.Repository.read`)."""
    TABLE_READS.inc()


def applied(command: Any) -> None:
    """``command`` was applied and committed with another (a bot's move chained to the command
    before it, in its commit): counted as :func:`command` counts an applied one."""
    kind = kind_of(command)
    ACTIONS.labels(kind, "applied").inc()
    if kind == "bot_move":
        BOT_MOVES.inc()


def commits(tables: int, seconds: float) -> None:
    """A transaction of ``seconds`` wrote (or tried to write) ``tables`` tables' changes (a group
    commit): one observation per table write in :data:`COMMIT_SECONDS`."""
    for _ in range(tables):
        COMMIT_SECONDS.observe(seconds)


def published(views: int) -> None:
    """``views`` table views were pushed to websockets."""
    if views:
        VIEWS.inc(views)


def websocket(change: int) -> None:
    """A websocket opened (``+1``) or closed (``-1``)."""
    WEBSOCKETS.inc(change)


def response(status: int) -> None:
    """An HTTP response was sent with ``status``."""
    RESPONSES.labels(f"{status // 100}xx").inc()


def error(logger: str) -> None:
    """A record at ERROR or above was logged by ``logger`` (a module's name, never a client's text)."""
    ERRORS.labels(logger[:60]).inc()


def retention_run(result: str, tables: int = 0, deals: int = 0) -> None:
    """An automatic retention run ended with ``result`` (pruned, nothing, skipped, failed)."""
    RETENTION_RUNS.labels(result).inc()
    if result in ("pruned", "nothing"):
        RETENTION_TABLES.inc(tables)
        RETENTION_DEALS.inc(deals)
        RETENTION_LAST.set(time.time())


class _Database:
    """Figures read from the database at a scrape (cached :data:`DB_CACHE_S`)."""

    def __init__(self, read: Callable[[], dict[str, int]]) -> None:
        self.read = read
        self._at = -DB_CACHE_S
        self._figures: dict[str, int] | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = time.monotonic()
        if self._figures is None or now - self._at >= DB_CACHE_S:
            try:
                self._figures, self._at = self.read(), now
            except Exception:  # the database does not answer: no figure rather than a stale one
                self._figures = None
                return
        for name, value in self._figures.items():
            text = {"fourcards_tables_in_play": "Tables with a deal in progress (every server of the database)",
                    "fourcards_tables_live": "Open tables written in the last 15 minutes (every server of the "
                                             "database)"}.get(name, name)
            yield GaugeMetricFamily(name, text, value=value)


def _sweep_dead(folder: str) -> None:
    """Forget the live gauges of processes that died (a worker restarted by uvicorn's supervisor)."""
    from prometheus_client import multiprocess

    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        pid = path.rsplit("_", 1)[-1][:-3]
        if pid.isdigit():
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                multiprocess.mark_process_dead(int(pid), folder)
            except PermissionError:  # pragma: no cover - alive, another user's
                pass


def exposition(database: Any) -> bytes:
    """The metrics in Prometheus's text format: this process's (or, in multiprocess mode, every
    process's) and the database's (``database``: a :class:`_Database` from :func:`database_figures`)."""
    from fourcards import __version__

    BUILD.labels(__version__).set(1)
    folder = os.environ.get(MULTIPROC_ENV)
    if folder:
        from prometheus_client import multiprocess

        _sweep_dead(folder)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, folder)
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    extra = CollectorRegistry()
    extra.register(database)
    return text + generate_latest(extra)


def database_figures(store: Callable[[], Any]) -> _Database:
    """The database's figures of :func:`exposition` for the store ``store()`` (read when scraped)."""

    def read() -> dict[str, int]:
        from fourcards.store.operator import Operator

        got = Operator(store()).figures()
        return {"fourcards_tables_in_play": got["in_play"], "fourcards_tables_live": got["live"]}

    return _Database(read)
