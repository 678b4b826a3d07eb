"""How pages and their files travel (issue 11 item 7): gzip, cache headers, local API docs.

* responses of 500 bytes or more are gzip-compressed when the client accepts it;
* static files linked by the pages carry a version (the file's digest) and are
  cached for a year; other static requests revalidate with the ETag (304);
* ``/docs`` (Swagger UI) loads every asset from this server: nothing from a CDN.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from fourcards.web import create_app
from fourcards.web.assets import GZIP_MIN_BYTES, IMMUTABLE, REVALIDATE


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    """The app on SQLite: how files travel does not depend on the database."""
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        yield c


def _asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_issue11_7_responses_are_gzip_compressed(client: TestClient) -> None:
    for path in ("/", "/api/presets", "/openapi.json"):
        r = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers.get("content-encoding") == "gzip", path
    r = client.get("/api/presets", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in r.headers


def test_issue11_7_static_files_linked_with_a_version_are_cached_for_a_year(client: TestClient) -> None:
    html = client.get("/").text
    linked = [u for u in _asset_urls(html) if u.startswith("/static/")]
    assert {re.sub(r"\?.*", "", u) for u in linked} >= {"/static/app.css", "/static/lobby.js"}
    for url in linked:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        r = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers["cache-control"] == IMMUTABLE
        # the icons (issue 21) are compressed images already; files under GZIP_MIN_BYTES (install.js,
        # issue 26) are sent as they are, like every response that small
        if not url.split("?")[0].endswith(".png") and len(r.content) >= GZIP_MIN_BYTES:
            assert r.headers.get("content-encoding") == "gzip"
        assert r.headers.get("etag")


def test_issue11_7_unversioned_static_files_revalidate_with_their_etag(client: TestClient) -> None:
    r = client.get("/static/table.js")
    assert r.headers["cache-control"] == REVALIDATE
    etag = r.headers["etag"]
    again = client.get("/static/table.js", headers={"If-None-Match": etag})
    assert again.status_code == 304
    # an old version's URL is not cached as if it were the current file
    assert client.get("/static/table.js?v=000000000000").headers["cache-control"] == REVALIDATE


def test_issue11_7_pages_are_revalidated(client: TestClient) -> None:
    assert client.get("/").headers["cache-control"] == REVALIDATE
    assert client.get("/t/nosuchtb").headers["cache-control"] == REVALIDATE


def test_issue11_7_api_docs_load_nothing_from_another_server(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    html = r.text
    assert "SwaggerUIBundle" in html
    assert not re.search(r"https?://", html), "the docs page names another server"
    urls = _asset_urls(html)
    assert any("swagger-ui-bundle.js" in u for u in urls) and any("swagger-ui.css" in u for u in urls)
    for url in urls:
        assert url.startswith("/docs-assets/"), url
        a = client.get(url)
        assert a.status_code == 200, url
        assert a.headers["cache-control"] == IMMUTABLE
    assert client.get("/openapi.json").json()["info"]["title"] == "fourcards"
