"""``fourcards serve``: the web app on uvicorn (see docs/web.md)."""

from __future__ import annotations

import os

import typer

from fourcards.cli.app import app, console, fail


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
    log_level: str = typer.Option("info", help="uvicorn log level."),
) -> None:
    """Serve the web app: lobby, Four Card Poker and Four of a Kind tables, hand histories."""
    import uvicorn

    from fourcards.store import default_database_url
    from fourcards.web import create_app

    url = database_url or os.environ.get("FOURCARDS_DATABASE_URL") or default_database_url()
    try:
        application = create_app(url, bot_delay=bot_delay)
    except Exception as exc:  # pragma: no cover - bad URL etc.
        fail(f"cannot start the web app: {exc}")
    shown = url.split("@")[-1] if "@" in url else url
    console.print(f"fourcards web app on [bold]http://{host}:{port}/[/bold]  (database: {shown})")
    uvicorn.run(application, host=host, port=port, log_level=log_level, ws_max_size=65536,
                proxy_headers=False, server_header=False)
