"""An open table page heals by itself when the server is killed and started again
(issue 11 item 3): it says the connection is lost, reconnects with backoff, takes
the restarted server's state (whatever its version) and plays on - no reload.

The server is the real ``fourcards serve`` subprocess (tests/web/test_web_restart.py),
killed with SIGKILL; the page is headless Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import DESKTOP, launch, require_browser, watch_errors
from test_web_restart import Server

pytestmark = pytest.mark.browser


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    s = Server(database_url, tmp_path / "server.log")
    yield s
    s.stop()


@pytest.fixture
def chromium() -> Iterator[Any]:
    require_browser()
    yield from launch()


def test_issue11_3_an_open_page_recovers_by_itself_after_sigkill_and_restart(
        server: Server, chromium: Any) -> None:
    server.start()
    r = httpx.post(server.base + "/api/tables", json={"game": "poker", "host_name": "Rob", "bots": 1})
    assert r.status_code == 201, r.text
    tid, token = r.json()["table"]["id"], r.json()["token"]
    ctx = chromium.new_context(**DESKTOP)
    ctx.add_init_script(f"localStorage.setItem('fourcards:token:{tid}', '{token}')")
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#place-bets")
    page.click("#place-bets")
    page.wait_for_selector("#host-deal:not([hidden])")
    page.click("#host-deal")
    page.wait_for_selector("#play-1x")  # a deal in progress, this seat to decide

    server.kill()
    page.wait_for_function("document.getElementById('conn').textContent.startsWith('reconnecting')")
    assert page.title().startswith("Reconnecting")
    server.start()
    # the restarted server voided the interrupted round: the page shows it without a reload
    page.wait_for_function("document.getElementById('conn').textContent === 'connected'", timeout=30000)
    page.wait_for_selector("#place-bets", timeout=10000)
    assert page.locator("#play-1x").count() == 0
    assert "void" in page.inner_text("#log")
    page.wait_for_function("document.getElementById('announce').textContent.includes('Reconnected')")
    assert not page.title().startswith("Reconnecting")
    # and play goes on from the same page
    page.click("#place-bets")
    page.wait_for_selector("#host-deal:not([hidden])")
    page.click("#host-deal")
    page.wait_for_selector("#play-1x")
    assert errors == []
    ctx.close()
