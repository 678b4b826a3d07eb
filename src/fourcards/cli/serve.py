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
``--forwarded-allow-ips`` names the reverse proxies trusted for ``X-Forwarded-For``;
``--allowed-origins`` other sites whose pages may open websockets; ``--rate-limits`` the limits
per client address.

``--lan`` listens on every interface and prints the address phones on the same
network open (this machine's LAN address, never 127.0.0.1 or 0.0.0.0) with a
QR code of it; invitation links and the tables' QR codes use that address.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import socket
from enum import Enum

import typer

from fourcards.cli.app import app, console, fail
from fourcards.extras import require


class LogLevel(str, Enum):
    """uvicorn's log levels."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


def _database_url(option: str | None) -> tuple[str, str]:
    """The database URL and where it came from (for the error message)."""
    from fourcards.store import default_database_url

    if option is not None:
        if not option.strip():
            fail("--database-url is empty: give a database URL such as sqlite:///path/to/file.db")
        return option, "--database-url"
    env = os.environ.get("FOURCARDS_DATABASE_URL")
    if env:
        return env, "FOURCARDS_DATABASE_URL"
    try:
        return default_database_url(), "the default database"
    except OSError as exc:
        fail(f"cannot create the default database folder {exc.filename!r}: {exc.strerror} "
             "(give --database-url)")


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


#: Seconds a worker process may take to answer the supervisor's health check (``--workers N``):
#: uvicorn's 5 s killed healthy workers on a machine at load average 8 (their answering thread got
#: no CPU in time); a worker that is truly hung is still replaced, a minute later.
DEFAULT_HEALTHCHECK_S = 60.0


def _proxies(text: str | None) -> str | None:
    """The trusted proxies as uvicorn takes them (``None``: none, X-Forwarded-For ignored), or one
    error line and exit 2 for an entry that is not an address, a network or ``*``."""
    import ipaddress

    if text is None or not text.strip():
        return None
    items = [x for x in re.split(r"[,\s]+", text.strip()) if x]
    for item in items:
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                fail(f"--forwarded-allow-ips: {item!r} is not an address, a network (10.0.0.0/8) or *")
    return ",".join(items)


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
             "Default: env FOURCARDS_DATABASE_URL, else a SQLite file in the user data directory."),
    bot_delay: float = typer.Option(0.7, min=0.0, max=10.0, help="Seconds between bot moves."),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="Server processes sharing the socket and the database (any serves any "
                                     "table; one that dies is restarted)."),
    log_level: LogLevel = typer.Option(LogLevel.info, case_sensitive=False, help="uvicorn log level."),
    forwarded_allow_ips: str | None = typer.Option(
        None, "--forwarded-allow-ips", envvar="FOURCARDS_FORWARDED_ALLOW_IPS",
        help="Trusted reverse proxies (comma-separated addresses or networks, or * for any): only a request "
             "from one of them gives the client address in X-Forwarded-For (rate limits count per client "
             "address). Default: none - the connection's own address."),
    allowed_origins: str | None = typer.Option(
        None, "--allowed-origins", envvar="FOURCARDS_ALLOWED_ORIGINS",
        help="Other sites whose pages may open this server's websockets (comma-separated "
             "https://host[:port]). This server's own address and --public-url's are always allowed."),
    rate_limits: str | None = typer.Option(
        None, "--rate-limits", envvar="FOURCARDS_RATE_LIMITS",
        help="Per client address: KIND=COUNT/SECONDS for tables, clubs, seats (e.g. tables=20/600), comma-"
             "separated, or off. Default: tables=20/600,clubs=10/3600,seats=60/600."),
    timeout_worker_healthcheck: float = typer.Option(
        DEFAULT_HEALTHCHECK_S, "--timeout-worker-healthcheck", envvar="FOURCARDS_TIMEOUT_WORKER_HEALTHCHECK",
        min=1.0, max=3600.0,
        help="With --workers: seconds a worker may take to answer the supervisor's health check before it is "
             "restarted (uvicorn's default of 5 kills healthy workers on a busy machine)."),
    agent: list[str] = typer.Option([], "--agent", help="Seat an agent file (fourcards.rl.agents.save) as a bot "
                                                       "at this server's tables: NAME=PATH, NAME 1-16 lower-case "
                                                       "letters, digits, '_', '-', '.'; repeat for more. Trust the "
                                                       "file: a network's holds pickled objects."),
) -> None:
    """Serve the web app: lobby, Four Card Poker and Four of a Kind tables, hand histories."""
    require("web", "fourcards serve")
    import uvicorn

    from fourcards.store import Store, StoreError
    from fourcards.web import create_app, invite
    from fourcards.web.limits import RateLimits
    from fourcards.web.security import log_config, parse_origins
    from fourcards.web.transport import SERVER_WS_OPTIONS

    if not math.isfinite(bot_delay):
        fail(f"--bot-delay must be a number of seconds from 0 to 10, got {bot_delay}")
    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    if not host.strip():
        fail("--host is empty: give an address such as 127.0.0.1, or 0.0.0.0 for every network")
    if public_url is not None:
        public_url = public_url.strip().rstrip("/")
        if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", public_url):
            fail(f"--public-url must be an http:// or https:// address such as http://192.168.1.20:{port}, "
                 f"got {public_url!r}")
    if not math.isfinite(timeout_worker_healthcheck):
        fail(f"--timeout-worker-healthcheck must be a number of seconds from 1 to 3600, got {timeout_worker_healthcheck}")
    proxies = _proxies(forwarded_allow_ips)
    try:
        parse_origins(allowed_origins)
    except ValueError as exc:
        fail(f"--allowed-origins: {exc}")
    try:
        limits = RateLimits.parse(rate_limits)
    except ValueError as exc:
        fail(f"--rate-limits: {exc}")
    base = invite.public_url(host, port, lan=lan, given=public_url)
    if lan and base is None:
        fail("--lan: this machine has no address on a network (only 127.0.0.1): connect it to the network "
             "the phones use, or give --public-url http://ADDRESS:PORT")
    _register_agents(agent)
    url, source = _database_url(database_url)
    try:
        Store(url).close()  # reachable, migrated (once, before any worker starts)
    except StoreError as exc:
        fail(f"{source}: {exc}")
    sock = _listen(host, port)
    shown = url.split("@")[-1] if "@" in url else url
    if lan or host in invite.WILDCARD_HOSTS:
        join = f"{base}/" if base else f"http://{host}:{port}/"
        print(f"Join from phones on this network: {join}", flush=True)
        if base:
            print(invite.qr_text(join), flush=True)
        console.print(f"fourcards web app listening on {host}:{port}  (database: {shown})")
    else:
        console.print(f"fourcards web app on [bold]{base}/[/bold]  (database: {shown})")
    # the websocket transport reads messages of any size, keeping the first WS_MAX_CHARS + 1
    # characters (a bigger one is answered 413), with no per-message deflate (web/transport.py)
    # the access log never prints a token (web/security.py); X-Forwarded-For only from trusted proxies
    options: dict = {"host": host, "port": port, "log_level": log_level.value, **SERVER_WS_OPTIONS,
                     "log_config": log_config(), "proxy_headers": proxies is not None,
                     "forwarded_allow_ips": proxies, "server_header": False}
    if workers > 1:
        from uvicorn.supervisors import Multiprocess

        # the workers are new processes: they build the app from the environment (create_app's defaults)
        os.environ.update({"FOURCARDS_DATABASE_URL": url, "FOURCARDS_BOT_DELAY": repr(bot_delay),
                           "FOURCARDS_PUBLIC_URL": base or "", "FOURCARDS_ALLOWED_ORIGINS": allowed_origins or "",
                           "FOURCARDS_RATE_LIMITS": rate_limits or ""})
        config = uvicorn.Config("fourcards.web.app:create_app", factory=True, workers=workers,
                                timeout_worker_healthcheck=timeout_worker_healthcheck,  # type: ignore[arg-type]
                                **options)
        console.print(f"{workers} server processes")
        try:
            Multiprocess(config, sockets=[sock]).run()
        finally:
            sock.close()
        return
    app = create_app(url, bot_delay=bot_delay, public_url=base, allowed_origins=allowed_origins or "",
                     rate_limits=limits)
    server = uvicorn.Server(uvicorn.Config(app, **options))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        fail("the web app did not start (see the log above)")
