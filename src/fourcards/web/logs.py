"""The server's log: uvicorn's lines and fourcards' own, as text (the default) or one JSON object
per line (``fourcards serve --log-format json``), each with its request's id.

:func:`log_config` is the ``logging.config.dictConfig`` of ``fourcards serve`` (uvicorn applies it
in every worker process):

* **text**: uvicorn's lines with the request id after the level (``INFO:     [3f2a...]
  127.0.0.1:53422 - "GET / HTTP/1.1" 200 OK``; ``[-]`` for a line of no request);
* **json**: one object per line - ``time`` (ISO 8601 UTC), ``level``, ``logger``, ``message``,
  ``request_id``, ``client`` (the client's address, from trusted proxies), and for an access line
  ``method``, ``path``, ``status``; ``exception`` with a traceback; ``version`` on the first line.

Every handler passes :class:`fourcards.web.security.RedactTokens` (no seat token, even one an old
page put in a URL) and :class:`Context` (the id and address of :mod:`fourcards.web.context`; in
text, line breaks in what a client chose - a path - written as ``\\n``; records at ERROR or above
counted in :mod:`fourcards.web.metrics`). No hand's cards are logged: the table's rules and log
lines stay in the database.
"""

from __future__ import annotations

import copy
import json
import logging
from datetime import UTC, datetime
from typing import Any

from fourcards.web import metrics
from fourcards.web.context import CLIENT, REQUEST_ID

__all__ = ["Context", "JsonFormatter", "log_config", "FORMATS", "first_line"]

#: The log's forms.
FORMATS = ("text", "json")
_TEXT_PREFIX = "%(levelprefix)s [%(request_id)s] "


def _escaped(value: Any) -> Any:
    return value.replace("\r", "\\r").replace("\n", "\\n") if isinstance(value, str) else value


class Context(logging.Filter):
    """A logging filter: the record gets ``request_id`` and ``client`` (``-`` outside a request); in
    text (``escape``) its arguments' line breaks are written as ``\\n``; a record at ERROR or above is
    counted (:func:`fourcards.web.metrics.error`)."""

    def __init__(self, escape: bool = True) -> None:
        super().__init__()
        self.escape = escape

    def filter(self, record: logging.LogRecord) -> bool:
        """Add the context to the record; keep it."""
        record.request_id = REQUEST_ID.get() or "-"
        record.client = CLIENT.get() or "-"
        if self.escape:
            if isinstance(record.args, tuple):
                record.args = tuple(_escaped(a) for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: _escaped(v) for k, v in record.args.items()}
        if record.levelno >= logging.ERROR:
            metrics.error(record.name)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module doc)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name}
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, http, status = record.args
            out["message"] = f"{method} {path} HTTP/{http} {status}"
            out.update({"method": method, "path": path, "status": int(str(status)), "client": client})
        else:
            out["message"] = record.getMessage()
            client = getattr(record, "client", "-")
            if client != "-":
                out["client"] = client
        rid = getattr(record, "request_id", "-")
        out["request_id"] = None if rid == "-" else rid
        version = getattr(record, "version", None)
        if version is not None:
            out["version"] = version
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def log_config(log_format: str = "text", level: str = "info") -> dict[str, Any]:
    """uvicorn's logging configuration in the form ``log_format`` (:data:`FORMATS`), every handler
    redacting tokens and adding the request's context, and fourcards' own loggers (``fourcards.*``)
    on the same handler at ``level``."""
    from uvicorn.config import LOGGING_CONFIG

    if log_format not in FORMATS:
        raise ValueError(f"unknown log format {log_format!r}: choose text or json")
    config = copy.deepcopy(LOGGING_CONFIG)
    json_lines = log_format == "json"
    config["filters"] = {"redact_tokens": {"()": "fourcards.web.security.RedactTokens"},
                         "context": {"()": "fourcards.web.logs.Context", "escape": not json_lines}}
    if json_lines:
        config["formatters"] = {"json": {"()": "fourcards.web.logs.JsonFormatter"}}
    else:
        config["formatters"]["default"]["fmt"] = _TEXT_PREFIX + "%(message)s"
        config["formatters"]["access"]["fmt"] = _TEXT_PREFIX + '%(client_addr)s - "%(request_line)s" %(status_code)s'
    for handler in config["handlers"].values():
        handler["filters"] = ["redact_tokens", "context"]
        if json_lines:
            handler["formatter"] = "json"
    config["loggers"]["fourcards"] = {"handlers": ["default"], "level": level.upper() if level != "trace" else "DEBUG",
                                      "propagate": False}
    return config


def first_line(log: logging.Logger, version: str, words: str) -> None:
    """Log the server's first line: ``fourcards <version> <words>`` (``version`` also a field in JSON)."""
    log.info("fourcards %s %s", version, words, extra={"version": version})
