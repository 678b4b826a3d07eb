"""``fourcards serve``: the web app on uvicorn (see docs/web.md).

Needs the ``web`` extra (``pip install 'fourcards[web]'``); without it the command
prints one error line naming the extra and exits with status 2. Every start-up and
configuration error - a bad option, a database URL that cannot be used, a database
that does not answer, an address that cannot be listened on - prints one
``error: ...`` line on stderr and exits with status 2, before the server starts: the
database is opened (and migrated) and the listening socket bound here, and both are
handed to uvicorn.

``--workers N`` runs N server processes on that one socket (uvicorn's supervisor
restarts one that dies, or one that does not answer its health check within
``--timeout-worker-healthcheck`` seconds: 60 by default, not uvicorn's 5); they share the
database like servers on several machines do (docs/deploy.md): any of them serves any table.

Open to the internet (docs/web.md "Security"): the access log never prints a seat token;
``--forwarded-allow-ips`` names the reverse proxies trusted for ``X-Forwarded-For`` (and
``X-Forwarded-Proto``, ``X-Request-ID``); ``--allowed-origins`` other sites whose pages may open
websockets; ``--rate-limits`` the limits per client address.

Running it for real (docs/deploy.md): every option also comes from ``FOURCARDS_<OPTION>`` and from
a TOML file (``--config``; :mod:`fourcards.web.settings`: flag > variable > file > default); the
log's first line names the version, each line carries its request's id, ``--log-format json``
writes one JSON object per line (:mod:`fourcards.web.logs`); ``/api/ready`` and ``/metrics`` are
for monitoring (with ``--workers N`` the workers' metrics are added up through a folder
``PROMETHEUS_MULTIPROC_DIR`` emptied at start and removed at the end); ``--retention 90d`` prunes
old closed tables every hour, one server at a time (:mod:`fourcards.web.retention`).

``--lan`` listens on every interface and prints the address phones on the same
network open (this machine's LAN address, never 127.0.0.1 or 0.0.0.0) with a
QR code of it; invitation links and the tables' QR codes use that address.
"""

from __future__ import annotations

import errno
import json
import os
import re
import socket
from enum import Enum
from typing import Any

import typer

from fourcards.cli.app import app, console, fail
from fourcards.extras import require

#: Seconds a worker process may take to answer the supervisor's health check (``--workers N``):
#: uvicorn's 5 s killed healthy workers on a machine at load average 8 (their answering thread got
#: no CPU in time); a worker that is truly hung is still replaced, a minute later.
DEFAULT_HEALTHCHECK_S = 60.0


class LogLevel(str, Enum):
    """uvicorn's log levels."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


class LogFormat(str, Enum):
    """The log's form."""

    text = "text"
    json = "json"


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (as uvicorn binds it), or one error line and exit 2."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        reason = exc.strerror or str(exc)
        fail(f"cannot listen on {host}:{port}: {reason}" + (" (another server uses the port? try --port)"
                                                             if exc.errno == errno.EADDRINUSE else ""))
    return sock


def _given(ctx: typer.Context, values: dict[str, Any]) -> dict[str, Any]:
    """The options given on the command line (not their defaults), by setting name."""
    out = {}
    for name, value in values.items():
        source = ctx.get_parameter_source(name)  # Typer's own Click's ParameterSource: compared by name
        if source is not None and source.name == "COMMANDLINE":
            out[name] = value.value if isinstance(value, Enum) else value
    return out


def metrics_folder(workers: int) -> tuple[str | None, bool]:
    """Before prometheus-client is imported: with several workers (or ``PROMETHEUS_MULTIPROC_DIR``
    set by the operator) point ``PROMETHEUS_MULTIPROC_DIR`` at an empty folder - the operator's,
    emptied, else a new temporary one - where every process writes its metrics
    (:mod:`fourcards.web.metrics`). Returns the folder (``None``: one process, its own metrics) and
    whether it is ours to remove when the server stops."""
    import glob
    import tempfile

    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder and workers == 1:
        return None, False
    ours = not folder
    folder = folder or tempfile.mkdtemp(prefix="fourcards-metrics-")
    os.makedirs(folder, exist_ok=True)
    for old in glob.glob(os.path.join(folder, "*.db")):
        os.remove(old)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    return folder, ours


def _workers_env(cfg: Any, url: str, base: str | None) -> dict[str, str]:
    """The settings as the worker processes read them (:func:`fourcards.web.settings.load`)."""
    from fourcards.web.settings import env_name

    out = {env_name("database_url"): url, env_name("public_url"): base or ""}
    for field in ("bot_delay", "allowed_origins", "rate_limits", "forwarded_allow_ips", "retention",
                  "metrics_allow_ips"):
        value = getattr(cfg, field)
        out[env_name(field)] = "" if value is None else repr(value) if isinstance(value, float) else str(value)
    token = cfg.metrics_token
    out[env_name("metrics_token")] = token.get_secret_value() if token is not None else ""
    return out


def _register_agents(specs: list[str]) -> None:
    """Check each ``NAME=PATH`` (a new bot name, a readable agent file) and name them for every server process
    in the environment (:data:`fourcards.table.players.AGENTS_ENV`)."""
    if not specs:
        return
    from fourcards.kind.bots import bot_names
    from fourcards.poker.bots import poker_bot_names
    from fourcards.rl.agents import AgentError, load
    from fourcards.table.players import AGENTS_ENV

    taken = set(bot_names()) | set(poker_bot_names())
    agents: dict[str, dict[str, str]] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        name = name.strip()
        if not sep or not path.strip():
            fail(f"--agent takes NAME=PATH (an agent file), got {spec!r}")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_.-]{0,15}", name):
            fail(f"--agent {spec!r}: a bot name is 1-16 lower-case letters, digits, '_', '-' or '.'")
        if name in taken or name in agents:
            fail(f"--agent {spec!r}: the bot name {name!r} is taken")
        try:
            found = load(path.strip())
        except (AgentError, ImportError) as exc:
            fail(f"--agent {spec!r}: {exc}")
        agents[name] = {"game": found.game, "path": os.path.abspath(path.strip())}
        console.print(f"agent {name!r}: {found.name} ({found.learner}, "
                      f"{'Four of a Kind' if found.game == 'kind' else 'Four Card Poker'})")
    os.environ[AGENTS_ENV] = json.dumps(agents)


@app.command()
def serve(
    ctx: typer.Context,
    host: str | None = typer.Option(None, help="Address to listen on. Default 127.0.0.1 (this machine "
                                               "only); with --lan 0.0.0.0 (every network)."),
    port: int = typer.Option(8000, min=1, max=65535, help="TCP port."),
    lan: bool = typer.Option(False, "--lan", help="Let phones on your network join: listen on every "
                                                   "interface and print the join link (this machine's LAN "
                                                   "address) with a QR code."),
    public_url: str | None = typer.Option(
        None, "--public-url", help="The address people open, for invitation links and QR codes (e.g. "
                                   "http://192.168.1.20:8000 or https://cards.example.org). Default: found "
                                   "from --host, or this machine's LAN address with --lan."),
    database_url: str | None = typer.Option(
        None, "--database-url",
        help="SQLAlchemy URL: sqlite:///path/to/file.db or postgresql+psycopg://user:pw@host/db. "
             "Default: a SQLite file in the user data directory."),
    bot_delay: float = typer.Option(0.7, min=0.0, max=10.0, help="Seconds between bot moves."),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="Server processes sharing the socket and the database (any serves any "
                                     "table; one that dies is restarted)."),
    log_level: LogLevel = typer.Option(LogLevel.info, case_sensitive=False, help="Log level."),
    log_format: LogFormat = typer.Option(LogFormat.text, "--log-format", case_sensitive=False,
                                         help="text (uvicorn's lines with a request id), or json: one JSON "
                                              "object per line (time, level, logger, message, request_id, "
                                              "client...)."),
    forwarded_allow_ips: str | None = typer.Option(
        None, "--forwarded-allow-ips",
        help="Trusted reverse proxies (comma-separated addresses or networks, or * for any): only a request "
             "from one of them gives the client address in X-Forwarded-For (rate limits count per client "
             "address, logs show it), https in X-Forwarded-Proto and its X-Request-ID. Default: none - the "
             "connection's own address."),
    allowed_origins: str | None = typer.Option(
        None, "--allowed-origins",
        help="Other sites whose pages may open this server's websockets (comma-separated "
             "https://host[:port]). This server's own address and --public-url's are always allowed."),
    rate_limits: str | None = typer.Option(
        None, "--rate-limits",
        help="Per client address: KIND=COUNT/SECONDS for tables, clubs, seats, logins (e.g. tables=20/600), "
             "comma-separated, or off. Default: tables=20/600,clubs=10/3600,seats=60/600,logins=10/600."),
    timeout_worker_healthcheck: float = typer.Option(
        DEFAULT_HEALTHCHECK_S, "--timeout-worker-healthcheck", min=1.0, max=3600.0,
        help="With --workers: seconds a worker may take to answer the supervisor's health check before it is "
             "restarted (uvicorn's default of 5 kills healthy workers on a busy machine)."),
    retention: str | None = typer.Option(
        None, "--retention", help="Prune closed tables last written longer ago than this, every hour, one "
                                  "server at a time (e.g. 90d; at least 1d). Default: off."),
    metrics_allow_ips: str | None = typer.Option(
        None, "--metrics-allow-ips", help="Addresses or networks that may read /metrics besides this machine "
                                          "and the trusted proxies (e.g. your Prometheus: 10.0.0.5)."),
    metrics_token: str | None = typer.Option(
        None, "--metrics-token", help="A secret (16+ characters) that reads /metrics from anywhere as "
                                      "'Authorization: Bearer TOKEN' (give it in FOURCARDS_METRICS_TOKEN: a "
                                      "command line is visible to every user of the machine)."),
    config: str | None = typer.Option(
        None, "--config", help="A TOML file of these settings (keys as the options, with underscores: "
                               "rate_limits = \"seats=120/600\"). Default: env FOURCARDS_CONFIG."),
    agent: list[str] = typer.Option([], "--agent", help="Seat an agent file (fourcards.rl.agents.save) as a bot "
                                                       "at this server's tables: NAME=PATH, NAME 1-16 lower-case "
                                                       "letters, digits, '_', '-', '.'; repeat for more. Trust the "
                                                       "file: a network's holds pickled objects."),
) -> None:
    """Serve the web app: lobby, Four Card Poker and Four of a Kind tables, hand histories, the admin console.

    Every option is also read from an environment variable FOURCARDS_<OPTION> (--rate-limits:
    FOURCARDS_RATE_LIMITS) and from the --config file; a flag wins over the variable, the variable over
    the file (docs/deploy.md "Settings")."""
    require("web", "fourcards serve")
    from fourcards.web.settings import SettingsError, env_name, load
    from fourcards.web.settings import database_url as database_url_of

    values = {"host": host, "port": port, "lan": lan, "public_url": public_url, "database_url": database_url,
              "bot_delay": bot_delay, "workers": workers, "log_level": log_level, "log_format": log_format,
              "forwarded_allow_ips": forwarded_allow_ips, "allowed_origins": allowed_origins,
              "rate_limits": rate_limits, "timeout_worker_healthcheck": timeout_worker_healthcheck,
              "retention": retention, "metrics_allow_ips": metrics_allow_ips, "metrics_token": metrics_token,
              "agent": agent}
    given = _given(ctx, values)
    try:
        cfg = load(given, config)
        if cfg.database_url:
            env = env_name("database_url")
            source = "--database-url" if "database_url" in given else env if os.environ.get(env) \
                else f"{config or os.environ.get('FOURCARDS_CONFIG')}, key database_url"
            url = cfg.database_url
        else:
            url, source = database_url_of(None)
    except SettingsError as exc:
        fail(str(exc))
    _run(cfg, url, source)


def _run(cfg: Any, url: str, source: str) -> None:
    """Start the server of the settings ``cfg`` on the database ``url`` (from ``source``)."""
    import logging
    import logging.config
    import shutil

    import uvicorn

    from fourcards import __version__
    from fourcards.store import Store, StoreError
    from fourcards.web import invite
    from fourcards.web.transport import SERVER_WS_OPTIONS

    host = cfg.host if cfg.host is not None else ("0.0.0.0" if cfg.lan else "127.0.0.1")
    base = invite.public_url(host, cfg.port, lan=cfg.lan, given=cfg.public_url)
    if cfg.lan and base is None:
        fail("--lan: this machine has no address on a network (only 127.0.0.1): connect it to the network "
             "the phones use, or give --public-url http://ADDRESS:PORT")
    _register_agents(cfg.agent)
    try:
        Store(url).close()  # reachable, migrated (once, before any worker starts)
    except StoreError as exc:
        fail(f"{source}: {exc}")
    sock = _listen(host, cfg.port)
    folder, ours = metrics_folder(cfg.workers)  # before prometheus-client is imported
    from fourcards.web import create_app, logs

    json_log = cfg.log_format.value == "json"
    log_config = logs.log_config(cfg.log_format.value, cfg.log_level.value)
    logging.config.dictConfig(log_config)
    log = logging.getLogger("fourcards.serve")
    shown = url.split("@")[-1] if "@" in url else url
    processes = f"{cfg.workers} server processes" if cfg.workers > 1 else "1 server process"
    logs.first_line(log, __version__, f"starting: {processes} on {host}:{cfg.port}, database {shown}"
                                      + (f", retention {cfg.retention}" if cfg.retention else ""))
    if cfg.lan or host in invite.WILDCARD_HOSTS:
        join = f"{base}/" if base else f"http://{host}:{cfg.port}/"
        if json_log:
            log.info("join from phones on this network: %s", join)
        else:
            print(f"Join from phones on this network: {join}", flush=True)
            if base:
                print(invite.qr_text(join), flush=True)
            console.print(f"fourcards web app listening on {host}:{cfg.port}  (database: {shown})")
    else:  # a log line, with the others
        log.info("fourcards web app on %s/", base)
    # the websocket transport reads messages of any size, keeping the first WS_MAX_CHARS + 1
    # characters (a bigger one is answered 413), with no per-message deflate (web/transport.py);
    # the app itself reads X-Forwarded-* from trusted proxies only (web/context.py), so uvicorn does not;
    # the log never prints a token (web/security.py) and carries request ids (web/logs.py)
    options: dict = {"host": host, "port": cfg.port, "log_level": cfg.log_level.value, **SERVER_WS_OPTIONS,
                     "log_config": log_config, "proxy_headers": False, "server_header": False}
    if cfg.workers > 1:
        from uvicorn.supervisors import Multiprocess

        # the workers are new processes: they build the app from the environment (create_app's defaults)
        os.environ.update(_workers_env(cfg, url, base))
        config = uvicorn.Config("fourcards.web.app:create_app", factory=True, workers=cfg.workers,
                                timeout_worker_healthcheck=cfg.timeout_worker_healthcheck,
                                **options)
        try:
            Multiprocess(config, sockets=[sock]).run()
        finally:
            sock.close()
            if ours and folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        return
    app = create_app(url, bot_delay=cfg.bot_delay, public_url=base, allowed_origins=cfg.allowed_origins or "",
                     rate_limits=cfg.rate_limits, forwarded_allow_ips=cfg.forwarded_allow_ips or "",
                     retention=cfg.retention or "off", metrics_allow_ips=cfg.metrics_allow_ips or "",
                     metrics_token=cfg.metrics_token.get_secret_value() if cfg.metrics_token else "", settings=cfg)
    server = uvicorn.Server(uvicorn.Config(app, **options))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        if ours and folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    if not server.started:
        fail("the web app did not start (see the log above)")
