"""The table core's edges on phones, in real headless Chromium (issue 20; docs/rules.md TP-5 to
TP-7), both databases:

* a player taps "Leave the table" mid-deal: the hand is forfeited at once on every phone, the
  turn moves on, the seat is never waited for and takes nothing from the pot;
* the server is SIGKILLed while a turn clock runs and is started again after longer than the
  clock: the phone of the player to act reconnects, still has its time, and its tap works;
* the host pauses: a banner on every phone, the clock stops, the host resumes.

Skipped when Chromium is missing unless ``FOURCARDS_REQUIRE_BROWSER=1``; loopback only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import PHONE, ThreadServer, launch, require_browser, wait_until, watch_errors
from servers import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_browser()
    yield from launch()


def api(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    r = httpx.request(method, base + path, json=body, headers={"X-Seat-Token": token} if token else {}, timeout=30)
    assert r.status_code < 300, r.text
    return r.json()


def kind_table(base: str, clock: int) -> tuple[str, dict[str, str]]:
    """Ann (host), Ben, Cat, Dan at a public Four of a Kind table, no bots, the first deal dealt."""
    t = api(base, "POST", "/api/tables", body={"game": "kind", "host_name": "Ann", "bots": 0, "public": True,
                                                "turn_clock": clock})
    tid, tok = t["table"]["id"], {"Ann": t["token"]}
    for name in ("Ben", "Cat", "Dan"):
        tok[name] = api(base, "POST", f"/api/tables/{tid}/seats", body={"name": name})["token"]
    api(base, "POST", f"/api/tables/{tid}/deal", tok["Ann"])
    return tid, tok


def phone(browser: Any, base: str, tid: str, token: str, errors: list[str]) -> Any:
    """A phone (its own browser context) at the table, holding the seat ``token``."""
    page = browser.new_context(**PHONE).new_page()
    errors += watch_errors(page)
    page.goto(base + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"fourcards:token:{tid}", token])
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#players li.me")
    return page


def to_act(base: str, tid: str) -> str:
    s = api(base, "GET", f"/api/tables/{tid}/state")
    return next(p["name"] for p in s["deal"]["seats"] if p["seat"] == s["deal"]["actor"])


def test_tp5_a_player_who_leaves_mid_deal_forfeits_at_once_on_every_phone(browser: Any, database_url: str) -> None:
    from fourcards.web import create_app

    require_browser()
    errors: list[str] = []
    with ThreadServer(create_app(database_url, bot_delay=0)) as srv:
        base = srv.base
        tid, tok = kind_table(base, clock=0)
        while to_act(base, tid) == "Ann":  # the host leaves from the players' list: let a guest be to act
            kinds = {a["kind"] for a in api(base, "GET", f"/api/tables/{tid}/state", tok["Ann"])["actions"]}
            api(base, "POST", f"/api/tables/{tid}/actions", tok["Ann"], {"kind": "check" if "check" in kinds else "call"})
        leaver = to_act(base, tid)  # the player to act leaves: nobody must wait for them
        others = [n for n in tok if n != leaver]
        pages = {n: phone(browser, base, tid, tok[n], errors) for n in (leaver, others[0])}
        mine = pages[leaver]
        mine.once("dialog", lambda d: (d.message.startswith("Leave the table? Your hand in this deal is forfeited")
                                       and d.accept()) or d.dismiss())
        mine.click("#leave")
        mine.wait_for_selector("#my-status:has-text('your hand is forfeited')")
        assert mine.locator("#topup-form").count() == 0  # a seat that has left asks for no chips
        watcher = pages[others[0]]
        seat = api(base, "GET", f"/api/tables/{tid}")["seats"]
        number = next(p["seat"] for p in seat if p["name"] == leaver)
        watcher.wait_for_selector(f"#seat-{number}:has-text('left: hand forfeited')")
        assert f"{leaver} leaves the table: the hand is forfeited" in watcher.inner_text("#log")
        assert to_act(base, tid) != leaver
        # the deal goes on to the end without the leaver; they take nothing
        for _ in range(300):
            s = api(base, "GET", f"/api/tables/{tid}/state")
            if s["deal"] is None:
                break
            who = to_act(base, tid)
            assert who != leaver
            mine_view = api(base, "GET", f"/api/tables/{tid}/state", tok[who])
            kinds = {a["kind"] for a in mine_view["actions"]}
            api(base, "POST", f"/api/tables/{tid}/actions", tok[who], {"kind": "check" if "check" in kinds else "call"})
        last = api(base, "GET", f"/api/tables/{tid}/state")
        assert all(a["name"] != leaver for a in last["last"]["awards"])
        watcher.wait_for_selector(f"#log :text('{leaver} leaves the table and cashes out 995 chips')")
        assert api(base, "GET", f"/api/tables/{tid}/ledger")["audit"]["total"] == 0
    assert errors == []


def test_tp6_a_server_killed_while_a_clock_runs_gives_the_player_their_time_back(browser: Any, database_url: str,
                                                                                tmp_path: Path) -> None:
    require_browser()
    errors: list[str] = []
    server = Server(database_url, tmp_path / "server.log")
    try:
        server.start()
        base = server.base
        tid, tok = kind_table(base, clock=20)
        who = to_act(base, tid)
        page = phone(browser, base, tid, tok[who], errors)
        page.wait_for_selector("#clock:has-text('Your time')")
        time.sleep(2)
        left = int(page.locator("#clock .secs").inner_text())  # what the page showed as the server died
        server.kill()  # SIGKILL, no shutdown code
        wait_until(page, "document.getElementById('conn').textContent.startsWith('reconnecting')")
        # the clock line says its seconds are only the last heard of
        page.wait_for_selector("#clock:has-text('reconnecting: the server keeps the time')")
        time.sleep(23)  # longer than the whole clock: no server alive
        server.start()  # the same port: the page reconnects by itself
        wait_until(page, "document.getElementById('conn').textContent === 'connected'", timeout=30000)
        page.wait_for_selector("#log :text('No server was running for')")
        line = next(x for x in page.inner_text("#log").splitlines() if x.startswith("No server was running for"))
        given = int(re.search(r"has (\d+) s left", line).group(1))  # type: ignore[union-attr]
        # the time it had left when the server died (~18 s on a quiet machine; the page's last second
        # shown, less the page's rounding and a slow machine's delay), not 0 and not only the 10 s floor
        assert given >= max(11, left - 2), (line, left)
        assert int(page.locator("#clock .secs").inner_text()) > 0  # still running on the page
        assert "reconnecting" not in page.inner_text("#clock")
        assert "time ran out" not in page.inner_text("#log")
        page.click("#act-check, #act-call")
        wait_until(page, f"!document.getElementById('log').textContent.includes('{who}\u2019s time')")
        s = api(base, "GET", f"/api/tables/{tid}/state")
        assert any(line.startswith(f"{who} ") and ("checks" in line or "calls" in line) for line in s["log"])
    finally:
        server.stop()
    assert errors == []


def test_tp7_the_host_pauses_and_every_phone_says_so(browser: Any, database_url: str) -> None:
    from fourcards.web import create_app

    require_browser()
    errors: list[str] = []
    with ThreadServer(create_app(database_url, bot_delay=0)) as srv:
        base = srv.base
        tid, tok = kind_table(base, clock=60)
        who = to_act(base, tid)
        host = phone(browser, base, tid, tok["Ann"], errors)
        other = phone(browser, base, tid, tok[who if who != "Ann" else "Ben"], errors)
        host.click("#host-pause")
        for p in (host, other):
            p.wait_for_selector("#paused:not([hidden])")
            p.wait_for_selector("#clock:has-text('(paused)')")
        frozen = other.locator("#clock .secs").inner_text()
        time.sleep(1.5)
        assert other.locator("#clock .secs").inner_text() == frozen  # no clock runs
        r = httpx.post(f"{base}/api/tables/{tid}/actions", json={"kind": "check"}, headers={"X-Seat-Token": tok[who]})
        assert r.status_code in (409, 422) and ("paused" in r.json()["detail"] or r.status_code == 422)
        host.click("#host-resume")
        for p in (host, other):
            p.wait_for_selector("#paused", state="hidden")
        assert "The host pauses the table" in host.inner_text("#log")
    assert errors == []
