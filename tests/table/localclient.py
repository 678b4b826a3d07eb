"""The table's requests without HTTP: a server's execution path on an in-memory store.

:class:`LocalClient` answers ``post``/``get`` as the web tests' ``TestClient`` does - a status and
JSON - but no HTTP, ASGI or middleware is involved and no database: the path finds the route's
function in the web's route table, its path parameters and body are validated by the route's
own types and schemas, and the function runs on a :class:`~fourcards.web.hub.Hub` over a
:class:`~fourcards.store.memory.MemoryStore` (the one command path, the execution, the
publisher's views). What only HTTP does - headers, limits, origins, pages, the websocket - is
tested in tests/web.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import typing
from types import SimpleNamespace
from typing import Any

from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError

from fourcards.store.memory import MemoryStore
from fourcards.table import TableError
from fourcards.web.deps import TOKEN_HEADER, validation_detail
from fourcards.web.hub import Hub
from fourcards.web.routes import ahead, chat, hands, history, host, lobby, night, settle, tables

_ROUTES = [r for m in (lobby, tables, ahead, host, chat, history, settle, night, hands) for r in m.router.routes
           if isinstance(r, APIRoute)]


class LocalResponse:
    """A route's answer: ``status_code`` and its JSON (``json()``, ``text``)."""

    def __init__(self, status_code: int, body: Any) -> None:
        self.status_code = status_code
        self._body = body
        self.text = json.dumps(body)

    def json(self) -> Any:
        return self._body


class _Errors:
    """A validation error with FastAPI's locations (``path``/``query``/``body``)."""

    def __init__(self, exc: ValidationError, where: tuple[str, ...]) -> None:
        self._errors = [{**e, "loc": (*where, *e.get("loc", ()))} for e in exc.errors()]

    def errors(self) -> list[dict[str, Any]]:
        return self._errors


class LocalClient:
    __test__ = False  # imported as the web tests' TestClient: not a test class
    """See the module doc. ``bot_delay`` 0: bots move at once, inside the request; ``rng``:
    chance outcomes (``None``: the OS CSPRNG)."""

    def __init__(self, *, bot_delay: float = 0, rng: random.Random | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.store = MemoryStore()
        self.hub = Hub("memory", bot_delay=bot_delay, rng=rng, store=self.store)
        self.app = SimpleNamespace(state=SimpleNamespace(hub=self.hub))  # as a TestClient's ``app.state.hub``
        self.loop.run_until_complete(self.hub.start())

    def close(self) -> None:
        """Stop the hub and its event loop."""
        self.loop.run_until_complete(self.hub.stop())
        self.loop.close()

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> LocalResponse:
        return self.request("POST", path, json, headers)

    def get(self, path: str, headers: dict[str, str] | None = None, params: dict[str, Any] | None = None
            ) -> LocalResponse:
        return self.request("GET", path, None, headers, params)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                params: dict[str, Any] | None = None) -> LocalResponse:
        """Run the route of ``method path`` (404 for none)."""
        path, _, query = path.partition("?")
        params = {**dict(p.split("=", 1) for p in query.split("&") if "=" in p), **(params or {})}
        for route in _ROUTES:
            match = route.path_regex.match(path)
            if match is not None and method in route.methods:
                try:
                    kwargs = self._arguments(route, match.groupdict(), body, headers or {}, params)
                    out = self.loop.run_until_complete(route.endpoint(**kwargs))
                except TableError as exc:
                    return LocalResponse(exc.status, {"detail": exc.detail})
                except _Invalid as exc:
                    status, detail = validation_detail(exc.errors)  # type: ignore[arg-type]
                    return LocalResponse(status, {"detail": detail})
                if isinstance(out, Response):
                    return LocalResponse(out.status_code, json.loads(bytes(out.body)))
                return LocalResponse(route.status_code or 200, jsonable_encoder(out))
        return LocalResponse(404, {"detail": "Not Found"})

    def _arguments(self, route: APIRoute, path: dict[str, str], body: Any, headers: dict[str, str],
                   params: dict[str, Any]) -> dict[str, Any]:
        hints = typing.get_type_hints(route.endpoint, include_extras=True)
        out: dict[str, Any] = {}
        for name, p in inspect.signature(route.endpoint).parameters.items():
            hint = hints.get(name, Any)
            if name == "hub":
                out[name] = self.hub
            elif name == "x_seat_token":
                out[name] = headers.get(TOKEN_HEADER)
            elif name in path:
                out[name] = _validate(hint, path[name], ("path", name))
            elif name in params:
                out[name] = _validate(hint, params[name], ("query", name))
            elif p.default is not inspect.Parameter.empty and (body is None or not _is_model(hint)):
                out[name] = p.default
            else:
                out[name] = _validate(hint, body, ("body",))
        return out


class _Invalid(Exception):
    def __init__(self, errors: _Errors) -> None:
        self.errors = errors


def _is_model(hint: Any) -> bool:
    args = typing.get_args(hint) or (hint,)
    return any(isinstance(a, type) and hasattr(a, "model_validate") for a in args)


def _validate(hint: Any, value: Any, where: tuple[str, ...]) -> Any:
    try:
        return TypeAdapter(hint).validate_python(value)
    except ValidationError as exc:
        raise _Invalid(_Errors(exc, where)) from None
