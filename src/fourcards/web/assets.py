"""How the web app delivers its pages' files: versioned static URLs, caching, compression, local API docs.

* **Versioned static URLs**: templates link ``static_url("table.js")`` →
  ``/static/table.js?v=<first 12 hex digits of the file's SHA-256>``. A request
  carrying the file's current ``v`` is answered ``Cache-Control: public,
  max-age=31536000, immutable`` (a new file gets a new URL); any other request
  for a static file gets ``Cache-Control: no-cache`` and is revalidated with
  its ``ETag`` (a ``304`` when unchanged). HTML pages carry ``no-cache`` too.
* **Compression**: every response of 500 bytes or more is gzip-compressed when
  the client accepts it (Starlette's ``GZipMiddleware``; websockets are not
  touched).
* **API docs without internet**: ``/docs`` is Swagger UI served from this
  server (the assets of the pinned ``fastapi-offline`` package, mounted at
  ``/docs-assets``), never from a CDN, so it works on a LAN with no internet. Its
  one inline script runs by a nonce of the response's Content-Security-Policy
  (:mod:`fourcards.web.security`).
"""

from __future__ import annotations

import hashlib
import pathlib
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from fourcards.web.security import new_nonce, nonce_csp

__all__ = ["IMMUTABLE", "REVALIDATE", "VersionedStatic", "install"]

#: Cache-Control of a static file requested under its current version.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Cache-Control of everything else the browser may keep: ask the server first (ETag).
REVALIDATE = "no-cache"
#: Responses smaller than this (bytes) are sent uncompressed.
GZIP_MIN_BYTES = 500


def _digests(directory: pathlib.Path) -> dict[str, str]:
    """Relative path -> the first 12 hex digits of the file's SHA-256, for every file under ``directory``."""
    return {p.relative_to(directory).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()[:12]
            for p in sorted(directory.rglob("*")) if p.is_file()}


class VersionedStatic(StaticFiles):
    """Static files whose versioned URLs are cached for a year and the rest revalidated.

    Args:
        directory: the folder served.
        prefix: the URL path it is mounted at (``"/static"``), used by :meth:`url`.
    """

    def __init__(self, directory: pathlib.Path, prefix: str) -> None:
        super().__init__(directory=str(directory))
        self.prefix = prefix.rstrip("/")
        self.root = directory.resolve()
        self.digests: Mapping[str, str] = _digests(directory)

    def url(self, name: str) -> str:
        """The versioned URL of ``name`` (a path relative to the folder).

        Raises:
            KeyError: no such file (a template naming a missing file fails loudly).
        """
        return f"{self.prefix}/{name}?v={self.digests[name]}"

    def file_response(self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200) -> Response:
        """The file with its ``ETag`` (Starlette's) and our ``Cache-Control``."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        rel = pathlib.Path(full_path).resolve().relative_to(self.root).as_posix()
        query = scope.get("query_string", b"").decode("latin-1")
        current = self.digests.get(rel)
        fresh = current is not None and f"v={current}" in query.split("&")
        response.headers["Cache-Control"] = IMMUTABLE if fresh else REVALIDATE
        return response


def swagger_assets() -> pathlib.Path:
    """The folder of Swagger UI's JavaScript and CSS (from the ``fastapi-offline`` package)."""
    return pathlib.Path(str(files("fastapi_offline") / "static"))


def install(app: FastAPI, static_dir: pathlib.Path) -> VersionedStatic:
    """Mount ``/static`` and ``/docs-assets``, serve ``/docs`` locally and compress responses.

    The app must be built with ``docs_url=None`` (this adds ``/docs``).
    Returns the ``/static`` mount, whose :meth:`VersionedStatic.url` the
    templates call as ``static_url``.
    """
    static = VersionedStatic(static_dir, "/static")
    docs = VersionedStatic(swagger_assets(), "/docs-assets")
    app.mount("/static", static, name="static")
    app.mount("/docs-assets", docs, name="docs-assets")
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES)

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title=f"{app.title} - API",
            swagger_js_url=docs.url("swagger-ui-bundle.js"), swagger_css_url=docs.url("swagger-ui.css"),
            swagger_favicon_url=docs.url("favicon.png"),
            swagger_ui_parameters={"validatorUrl": None})  # no badge fetched from swagger.io
        # Swagger UI starts from one inline script: it alone runs, by a nonce of this response
        nonce = new_nonce()
        html = bytes(page.body).decode().replace("<script>", f'<script nonce="{nonce}">')
        return HTMLResponse(html, headers={"Cache-Control": REVALIDATE, "Content-Security-Policy": nonce_csp(nonce)})

    return static
