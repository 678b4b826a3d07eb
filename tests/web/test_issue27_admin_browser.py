"""Issue 27 item 6 in real headless Chromium, both databases: the admin console at 390x844 (a
phone) and on a desktop - signing in, the tables found and closed, a club's name banned, a table's
ledger audit, the audit log checked, a viewer's pages without action forms - under the pages'
Content-Security-Policy (no inline script), axe-core clean on every page, nothing wider than the
phone's screen."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsing import DESKTOP, PHONE, ThreadServer, axe_violations, launch, require_browser, shot, watch_errors
from sqlalchemy import update

from dbtesting import database_url_for
from fourcards.store import Store
from fourcards.store.admins import AdminUsers
from fourcards.store.models import GameTable

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def console(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The app on a fresh database with an admin (Alice) and a viewer (Vic), a club night with Ben
    seated, and a table nobody wrote for 8 days."""
    require_browser()
    from fourcards.web import create_app

    for url in database_url_for(request.param, tmp_path_factory.mktemp("admin")):
        with ThreadServer(create_app(url, bot_delay=0.02, rate_limits="off")) as srv:
            store = Store(url, run_migrations=False)
            users = AdminUsers(store)
            users.create("Alice", PASSWORD, "admin", "cli:test")
            users.create("Vic", PASSWORD, "viewer", "cli:test")
            base = srv.base
            club = httpx.post(f"{base}/api/clubs", json={"name": "Thursday cards", "owner_name": "Ann",
                                                         "members": ["Ben"]}).json()["club"]["id"]
            night = httpx.post(f"{base}/api/tables", json={"game": "poker", "host_name": "Ann", "club": club,
                                                          "seat_approval": False, "name": "Thursday night"}).json()
            httpx.post(f"{base}/api/tables/{night['table']['id']}/seats", json={"name": "Ben"})
            quiet = httpx.post(f"{base}/api/tables", json={"game": "kind", "host_name": "Quinn",
                                                          "name": "Quiet corner"}).json()["table"]["id"]
            with store.Session.begin() as s:
                s.execute(update(GameTable).where(GameTable.id == quiet).values(active_at=time.time() - 8 * 86400))
            yield {"base": base, "club": club, "night": night["table"]["id"], "quiet": quiet, "store": store}
            store.close()


@pytest.fixture(scope="module")
def chromium(console: dict[str, Any]) -> Iterator[Any]:
    yield from launch()


def _sign_in(page: Any, base: str, name: str) -> None:
    page.goto(base + "/admin")
    page.wait_for_selector("#login-form")
    page.fill("#admin-name", name)
    page.fill("#admin-password", PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#tables")


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_issue27_6_on_a_phone_an_admin_signs_in_closes_a_table_and_bans_a_name(console: dict[str, Any],
                                                                                chromium: Any) -> None:
    base = console["base"]
    ctx = chromium.new_context(**PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(base + "/admin")
    page.wait_for_selector("#login-form")
    assert axe_violations(page) == [] and _fits(page)
    shot(page, "admin-login-phone.png", full_page=False)
    page.fill("#admin-name", "Alice")
    page.fill("#admin-password", "not the password")
    page.click("#login-btn")
    assert "Wrong name or password" in page.inner_text("#login-error")
    _sign_in(page, base, "Alice")
    assert axe_violations(page) == [] and _fits(page)
    shot(page, "admin-tables-phone.png", full_page=False)
    night = console["night"]
    page.check(f"input[name=table][value='{night}']")
    page.fill("#close-reason", "the club moved rooms")
    page.click("#close-selected")
    page.wait_for_selector("#admin-message")
    assert "Closed 1 tables." in page.inner_text("#admin-message")
    assert page.get_attribute(f"tr[data-id='{night}']", "data-state") == "closed"
    page.click(f"tr[data-id='{night}'] td:nth-child(7) a")  # the table's club
    page.wait_for_selector("#ban-form")
    assert axe_violations(page) == [] and _fits(page)
    page.fill("#ban-name", "Ben")
    page.fill("#ban-reason", "collusion")
    page.click("#ban-btn")
    page.wait_for_selector("#banned")
    assert "Ben" in page.inner_text("#banned") and "collusion" in page.inner_text("#banned")
    assert axe_violations(page) == [] and _fits(page)
    shot(page, "admin-club-phone.png", full_page=False)
    page.goto(base + "/admin/audit?verify=true")
    assert "The chain holds" in page.inner_text("#verify-result")
    assert axe_violations(page) == [] and _fits(page)
    assert errors == []
    ctx.close()


def test_issue27_6_on_a_desktop_abandoned_tables_close_a_ledger_audits_and_a_viewer_only_reads(
        console: dict[str, Any], chromium: Any) -> None:
    base = console["base"]
    ctx = chromium.new_context(**DESKTOP)
    page = ctx.new_page()
    errors = watch_errors(page)
    _sign_in(page, base, "Alice")
    page.select_option("#search-state", "abandoned")
    page.click("#search-btn")
    page.wait_for_selector("#tables")
    assert [r.get_attribute("data-id") for r in page.query_selector_all("#tables tbody tr")] == [console["quiet"]]
    assert axe_violations(page) == []
    shot(page, "admin-tables-desktop.png")
    page.click("#close-abandoned")
    page.wait_for_selector("#admin-message")
    assert "Closed 1 abandoned tables." in page.inner_text("#admin-message")
    page.goto(f"{base}/admin/tables/{console['quiet']}")
    assert "Balanced" in page.inner_text("#audit-result")
    assert axe_violations(page) == []
    with page.expect_download() as got:
        page.click("#export-txt")
    assert got.value.suggested_filename == f"fourcards-{console['quiet']}-hands.txt"
    page.click("button:has-text('Sign out')")
    page.wait_for_selector("#login-form")

    _sign_in(page, base, "Vic")  # a viewer: the same pages, no action
    assert page.query_selector("#close-selected") is None and page.query_selector("#close-abandoned") is None
    page.goto(f"{base}/admin/clubs/{console['club']}")
    assert page.query_selector("#ban-form") is None and "Ben" in page.inner_text("#banned")
    assert axe_violations(page) == []
    assert errors == []
    ctx.close()
