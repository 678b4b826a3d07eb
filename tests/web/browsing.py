"""Helpers of the browser tests: Debian's Chromium through Playwright, the app in a thread,
axe-core (the copy shipped in the pinned ``axe-playwright-python`` package; nothing is
fetched at test time).

Skipped (with the reason) when Chromium is missing, unless
``FOURCARDS_REQUIRE_BROWSER=1`` (CI), which makes that a failure. Set
``FOURCARDS_SCREENSHOT_DIR`` to save the screenshots used in the docs.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dbtesting import database_url_for
from webhelpers import until

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
TABLE_URL = re.compile(r".*/t/[a-z0-9]{8}$")


def require_browser() -> None:
    """Skip (or fail under ``FOURCARDS_REQUIRE_BROWSER=1``) without Chromium and Playwright."""
    reason = None
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:  # pragma: no cover
            reason = "the playwright Python package is not installed"
    if reason:
        if os.environ.get("FOURCARDS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"FOURCARDS_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)


class ThreadServer:
    """uvicorn serving the app in a thread on a free loopback port, with ``fourcards serve``'s
    websocket transport."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from fourcards.web.transport import SERVER_WS_OPTIONS

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        # the websocket transport of `fourcards serve` (fourcards.web.transport)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    **SERVER_WS_OPTIONS))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app on a fresh SQLite file or PostgreSQL schema (see tests/dbtesting.py)."""
    require_browser()
    from fourcards.web import create_app

    for url in database_url_for(request.param, tmp_path_factory.mktemp("browser")):
        with ThreadServer(create_app(url, bot_delay=0.02, rate_limits="off")) as srv:  # many tables, one address
            yield srv.base


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Any]:
    """One headless Chromium per test module."""
    yield from launch()


def launch() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shot(page: Any, name: str, full_page: bool = True, at: str | None = None) -> None:
    """Save a screenshot as ``name`` when ``FOURCARDS_SCREENSHOT_DIR`` is set: the whole
    page, or (``full_page=False``, for phones) the screen as a person sees it, from the top -
    or scrolled to the element ``at`` (a selector)."""
    folder = os.environ.get("FOURCARDS_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if at is not None:
            page.locator(at).scroll_into_view_if_needed()
        elif not full_page:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(folder) / name), full_page=full_page)


def watch_errors(page: Any) -> list[str]:
    """A list that collects the page's uncaught JavaScript errors and what its Content-Security-Policy
    refused (docs/web.md "Security": the pages run under it, as they do for people)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    return errors


def wait_until(page: Any, expression: str, timeout: float = 10000) -> Any:
    """Wait until the JavaScript ``expression`` is truthy in ``page`` (``timeout`` in ms; :func:`until`):
    Playwright's ``wait_for_function`` compiles its predicate with eval inside the page, which the
    pages' Content-Security-Policy refuses (no 'unsafe-eval'); ``page.evaluate`` is not subject to it."""
    return until(lambda: page.evaluate(expression), expression, timeout / 1000)


def join_on_a_phone(browser: Any, host: Any, url: str, name: str, errors: list[str]) -> Any:
    """A new phone (its own browser context) opens the invitation ``url`` and asks for a
    seat as ``name``; the host, whose page is open, lets them sit. Returns the phone's page
    (its JavaScript errors collected in ``errors``)."""
    phone = browser.new_context(**PHONE).new_page()
    errors += watch_errors(phone)
    phone.goto(url)
    phone.fill("#join-name", name)
    phone.click("#join-btn")
    phone.wait_for_selector("#my-request:not([hidden])")  # a private table: the host lets them sit
    host.click("#requests button[data-op=approve]")
    phone.wait_for_selector("#players li.me")
    return phone


def create(page: Any, base_url: str, game: str, bots: int, chips: str = "1000", name: str = "Pat") -> None:
    """Create a table from the lobby form (the page goes on to the table when it is made)."""
    page.goto(base_url + "/")
    page.fill("#host_name", name)
    page.check(f"input[name=game][value={game}]")
    page.fill("input[name=bots]", str(bots))
    page.fill("input[name=starting_chips]", chips)
    page.click("#create-btn")


def table_id(page: Any) -> str:
    """The id of the table the page shows."""
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def host_token(page: Any) -> str:
    """The seat token this page's browser keeps for the table it shows."""
    return str(page.evaluate("localStorage.getItem('fourcards:token:' + location.pathname.split('/').pop())"))


def sit_guest(page: Any, base_url: str, name: str) -> str:
    """Seat ``name`` at the page's table through the API - the host (this page's browser)
    approving the request when the table asks for it - and return the seat's token."""
    import httpx

    tid = table_id(page)
    r = httpx.post(f"{base_url}/api/tables/{tid}/seats", json={"name": name})
    assert r.status_code in (201, 202), r.text
    if r.status_code == 202:
        ok = httpx.post(f"{base_url}/api/tables/{tid}/requests/{r.json()['request']}", json={"approve": True},
                        headers={"X-Seat-Token": host_token(page)})
        assert ok.status_code == 200, ok.text
    return str(r.json()["token"])


_AXE: str | None = None


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now (all rules axe runs by default):
    one line per rule and element, empty when there are none."""
    global _AXE
    if _AXE is None:
        import axe_playwright_python

        _AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    page.evaluate(_AXE)
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} - {n['target']} {n.get('failureSummary', '')!r}"
            for v in result["violations"] for n in v["nodes"]]


def chips_of(text: str) -> int:
    """An amount as the pages show it ("1,250", "+1,250", "-4,001,000": issue 29, thousands separated)
    as an int."""
    return int(text.strip().replace(",", ""))


def on_screen(page: Any, selector: str) -> bool:
    """Is every element matching ``selector`` wholly inside the viewport (as it is scrolled now)?"""
    return bool(page.evaluate("""sel => {
        const els = Array.from(document.querySelectorAll(sel));
        return els.length > 0 && els.every(e => {
            const r = e.getBoundingClientRect();
            return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
        });
    }""", selector))


def only_this_server(ctx: Any, base_url: str) -> list[str]:
    """Let the browser context ``ctx`` reach only the server at ``base_url``: a request to any
    other host is aborted and its address kept in the list returned (empty: none was made)."""
    elsewhere: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(base_url):
            r.continue_()
        else:
            elsewhere.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    return elsewhere

