"""``fourcards serve``: the web app on uvicorn (see docs/web.md).

Needs the ``web`` extra (``pip install 'fourcards[web]'``); without it the command
prints one error line naming the extra and exits with status 2. Every start-up and
configuration error - a bad option, a database URL that cannot be used, a database that does not answer, an address that cannot be
listened on - prints one ``error: ...`` line on stderr and exits with status 2,
before the server starts: the database is opened (and migrated) and the
listening socket bound here, then handed to uvicorn.
"""

from __future__ import annotations

import errno
import math
import os
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


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0 to let phones on your "
                                                "network join)."),
    port: int = typer.Option(8000, min=1, max=65535, help="TCP port."),
    database_url: str | None = typer.Option(
        None, "--database-url",
        help="SQLAlchemy URL: sqlite:///path/to/file.db or postgresql+psycopg://user:pw@host/db. "
             "Default: env FOURCARDS_DATABASE_URL, else a SQLite file in the user data directory."),
    bot_delay: float = typer.Option(0.7, min=0.0, max=10.0, help="Seconds between bot moves."),
    log_level: LogLevel = typer.Option(LogLevel.info, case_sensitive=False, help="uvicorn log level."),
) -> None:
    """Serve the web app: lobby, Four Card Poker and Four of a Kind tables, hand histories."""
    require("web", "fourcards serve")
    import uvicorn

    from fourcards.store import Store, StoreError
    from fourcards.web import create_app

    if not math.isfinite(bot_delay):
        fail(f"--bot-delay must be a number of seconds from 0 to 10, got {bot_delay}")
    if not host.strip():
        fail("--host is empty: give an address such as 127.0.0.1, or 0.0.0.0 for every network")
    url, source = _database_url(database_url)
    try:
        Store(url).close()  # reachable, migrated; the app opens its own when it starts
    except StoreError as exc:
        fail(f"{source}: {exc}")
    sock = _listen(host, port)
    application = create_app(url, bot_delay=bot_delay)
    shown = url.split("@")[-1] if "@" in url else url
    console.print(f"fourcards web app on [bold]http://{host}:{port}/[/bold]  (database: {shown})")
    server = uvicorn.Server(uvicorn.Config(application, host=host, port=port, log_level=log_level.value,
                                           ws_max_size=65536, proxy_headers=False, server_header=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        fail("the web app did not start (see the log above)")
