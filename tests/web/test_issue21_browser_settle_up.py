"""Issue 21 items 5 and 6 in real headless Chromium at 390×844, both databases (docs/web.md "Who
pays whom", "Clubs across nights"):

* the settle-up of a night with a bot and a top-up adds up on the history page: the people's
  nets and the bank's to zero, the transfers settling every amount, at the chip value the host
  types in, with the bank held by the host and then on its own;
* a club made on its page, two nights started from it at two tables (Four Card Poker, Four of
  a Kind), the standings across them on the club's page;
* axe-core finds no violation on the new pages (the settle-up with the host's terms, a new club,
  a club's page, the lobby making a club's table), no horizontal scrolling at 390 px.

Screenshots ``settle-up.png`` and ``club.png`` with ``FOURCARDS_SCREENSHOT_DIR``. Skipped when
Chromium is missing unless ``FOURCARDS_REQUIRE_BROWSER=1``; traffic to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import (
    PHONE,
    TABLE_URL,
    axe_violations,
    host_token,
    sit_guest,
    table_id,
    wait_until,
    watch_errors,
)
from test_web_game_night import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def api(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    r = httpx.request(method, base + path, json=body, headers={"X-Seat-Token": token} if token else {})
    assert r.status_code < 300, r.text
    return r.json()


def poker_round(base: str, tid: str, antes: dict[str, int]) -> None:
    """The people wager, the host (the first token) deals, each plays the smallest play bet; the
    bots move by themselves; back when the round is settled."""
    tokens = list(antes)
    for tok, ante in antes.items():
        api(base, "POST", f"/api/tables/{tid}/actions", tok, {"kind": "wager", "ante": ante})
    api(base, "POST", f"/api/tables/{tid}/deal", tokens[0])
    for tok in tokens:
        acts = wait_for(lambda t=tok: {a["kind"]: a for a in api(base, "GET", f"/api/tables/{tid}/state", t)["actions"]
                                    if a["kind"] == "play"})
        api(base, "POST", f"/api/tables/{tid}/actions", tok, {"kind": "play", "amount": acts["play"]["min"]})
    wait_for(lambda: api(base, "GET", f"/api/tables/{tid}/settlement")["in_play"] == 0
          and api(base, "GET", f"/api/tables/{tid}/state")["table"]["in_progress"] is False)


def kind_deal(base: str, tid: str, token: str) -> None:
    """The host deals and checks or calls on each of its turns until the deal is over (bots move
    by themselves)."""
    api(base, "POST", f"/api/tables/{tid}/deal", token)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        s = api(base, "GET", f"/api/tables/{tid}/state", token)
        if s["deal"] is None:
            return
        if s["deal"].get("actor") == s["you"]["seat"] and s["actions"]:
            kinds = {a["kind"] for a in s["actions"]}
            r = httpx.post(f"{base}/api/tables/{tid}/actions", json={"kind": "check" if "check" in kinds else "call"},
                           headers={"X-Seat-Token": token})
            assert r.status_code in (200, 409), r.text  # 409: a bot's move got there first
        time.sleep(0.05)
    raise AssertionError("the deal did not end")


def make_table(page: Any, host: str, game: str, bots: int) -> tuple[str, str]:
    """Create a table from the lobby form the page shows (a club's night keeps its ``?club=``);
    returns the table's id and the host's seat token once the table page is open."""
    page.fill("#host_name", host)
    page.check(f"input[name=game][value={game}]")
    page.fill("input[name=bots]", str(bots))
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    return table_id(page), host_token(page)


def no_overflow(page: Any, where: str) -> None:
    sw, iw = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert sw <= iw, f"{where}: the page scrolls sideways ({sw} > {iw})"


def panel_shot(page: Any, selector: str, name: str) -> None:
    folder = os.environ.get("FOURCARDS_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator(selector).screenshot(path=str(Path(folder) / name))


def settled_on_the_page(page: Any) -> dict[str, int]:
    """The settle-up as the page shows it: every party's amount is settled by the listed
    transfers; returns the amounts by name."""
    amounts = {}
    for row in page.locator("#settle-parties tbody tr").all():
        name = row.locator("th").inner_text().split(" (holds")[0]
        amounts[name] = int(row.locator("td[data-amount]").get_attribute("data-amount"))
    assert sum(amounts.values()) == 0 and page.inner_text("#settle-total") == "0"
    moved: dict[str, int] = defaultdict(int)
    for li in page.locator("#transfers li").all():
        amount = int(li.get_attribute("data-amount"))
        assert amount > 0
        moved[li.get_attribute("data-from")] -= amount
        moved[li.get_attribute("data-to")] += amount
    shown = {("The bank" if k == "the bank" else k): v for k, v in moved.items() if v}
    assert {k: v for k, v in amounts.items() if v} == shown
    assert len(moved) == 0 or page.locator("#transfers li").count() <= sum(1 for v in amounts.values() if v) - 1
    return amounts


def test_issue21_5_the_settle_up_of_a_night_with_a_bot_and_a_top_up_adds_up(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(base_url + "/")
    tid, ann = make_table(page, "Ann", "poker", bots=1)
    ben = sit_guest(page, base_url, "Ben")
    assert api(base_url, "POST", f"/api/tables/{tid}/top-ups", ann, {"amount": 250})["status"] == "done"
    for antes in ({ann: 10, ben: 40}, {ann: 20, ben: 10}):
        poker_round(base_url, tid, antes)
    page.goto(f"{base_url}/t/{tid}/history")
    page.wait_for_selector("#settle-parties")
    # the settlement: the people's nets and the bank's (the bot's and the house's) add up to zero
    nets = [int(x) for x in page.locator("#settlement-table td[data-net]").evaluate_all(
        "els => els.map(e => e.dataset.net)")]
    assert len(nets) == 3 and sum(nets) == 0 and page.inner_text("#settlement-total") == "0"
    s = api(base_url, "GET", f"/api/tables/{tid}/settlement")
    assert int(page.get_attribute("#bank-net", "data-net")) == s["bank"]["net"] == s["house"] + s["bank"]["bots"][0]["net"]
    assert "250" in page.locator("#settlement-table tr", has_text="Ann").inner_text()  # the top-up
    words = page.inner_text("#bank-words")
    assert "Ada" in words and "Ann, the host, holds the bank" in words and "add up to zero" in words
    settled_on_the_page(page)
    # the host's terms: 100 chips = 1.00 €
    page.wait_for_selector("#terms-form:not([hidden])")
    page.fill("#value-chips", "100")
    page.fill("#value-money", "1,00")
    page.fill("#value-currency", "€")
    page.click("#terms-save")
    wait_until(page, "document.getElementById('chip-value').textContent === 'At 100 chips = 1.00 €.'")
    amounts = settled_on_the_page(page)
    up = api(base_url, "GET", f"/api/tables/{tid}/settle-up")
    assert amounts == {p["name"]: p["amount"] for p in up["parties"]}
    assert [li.inner_text() for li in page.locator("#transfers li").all()] == [t["text"] for t in up["transfers"]]
    assert all(t["text"].endswith(" €") for t in up["transfers"]), up["transfers"]
    found = {"settle-up (host's terms)": axe_violations(page)}
    no_overflow(page, "history page with the settle-up")
    panel_shot(page, "#settle-up-panel", "settle-up.png")
    # a chip value the page cannot read is refused next to the form, nothing sent
    page.fill("#value-money", "1.005")
    page.click("#terms-save")
    page.wait_for_selector("#terms-error:not([hidden])")
    assert "two decimals at most" in page.inner_text("#terms-error")
    assert api(base_url, "GET", f"/api/tables/{tid}/settle-up")["terms"]["cents"] == 100
    # the bank settles on its own: a party of its own
    page.fill("#value-money", "1.00")
    page.select_option("#banker", "bank")
    page.click("#terms-save")
    wait_until(page, "document.getElementById('bank-words').textContent.includes('Nobody holds the bank')")
    amounts = settled_on_the_page(page)
    assert set(amounts) == {"Ann", "Ben", "The bank"} and amounts["The bank"] == s["bank"]["net"]
    assert found == {k: [] for k in found}
    assert errors == []
    ctx.close()


def test_issue21_6_a_clubs_standings_after_two_nights_at_two_tables(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(base_url + "/")
    page.click("#new-club-link")
    page.wait_for_selector("#club-form")
    found = {"new club": axe_violations(page)}
    page.fill("#club-name", "Thursday cards")
    page.fill("#owner-name", "Ann")
    page.fill("#club-members", "Ben\nCat")
    page.click("#club-create")
    page.wait_for_url(re.compile(r".*/c/[a-z0-9]{12}$"))
    club_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#standings-table")
    found["club, no nights yet"] = axe_violations(page)
    # night 1: Four Card Poker with a bot, Ben joins
    page.click("#new-night")
    page.wait_for_selector("#club-note:not([hidden])")
    assert "This table counts for the club Thursday cards." == page.inner_text("#club-note")
    found["lobby, a club's night"] = axe_violations(page)
    tid1, ann1 = make_table(page, "Ann", "poker", bots=1)
    ben1 = sit_guest(page, base_url, "Ben")
    poker_round(base_url, tid1, {ann1: 10, ben1: 30})
    poker_round(base_url, tid1, {ann1: 30, ben1: 10})
    # night 2: Four of a Kind at another table, Ann with three bots
    page.goto(f"{base_url}/c/{club_id}")
    page.click("#new-night")
    page.wait_for_selector("#club-note:not([hidden])")
    tid2, ann2 = make_table(page, "ann", "kind", bots=3)
    assert tid2 != tid1
    kind_deal(base_url, tid2, ann2)
    # the club's page: both nights, standings matched by name
    page.goto(f"{base_url}/c/{club_id}")
    page.wait_for_selector("#night-" + tid2)
    nets = {}
    for tid in (tid1, tid2):
        s = api(base_url, "GET", f"/api/tables/{tid}/settlement")
        nets[tid] = {p["name"].casefold(): p["net"] for p in s["players"] if not p["is_bot"]}
    ann_row = page.locator("#standings-table tr[data-name='Ann']")
    cells = ann_row.locator("td").all_inner_texts()
    assert cells[0] == "2"  # nights
    assert int(ann_row.locator("td[data-net]").get_attribute("data-net")) == nets[tid1]["ann"] + nets[tid2]["ann"]
    assert int(cells[2]) == 1 and int(cells[6]) == 2  # one Four of a Kind deal, two poker rounds
    ben_row = page.locator("#standings-table tr[data-name='Ben']")
    assert ben_row.locator("td").all_inner_texts()[0] == "1"
    assert int(ben_row.locator("td[data-net]").get_attribute("data-net")) == nets[tid1]["ben"]
    cat_row = page.locator("#standings-table tr[data-name='Cat']").locator("td").all_inner_texts()
    assert cat_row[0] == "0"  # listed, yet to play
    standings = api(base_url, "GET", f"/api/clubs/{club_id}/standings")["standings"]
    assert [r["name"] for r in standings] == page.locator("#standings-table tbody th").all_inner_texts()
    assert page.inner_text("#club-count") == "2"
    assert page.get_attribute(f"#night-{tid1} a", "href") == f"/t/{tid1}/history"
    # the owner lists a member
    page.fill("#new-members", "Dot")
    page.click("#add-members")
    wait_until(page, "document.getElementById('members').textContent.includes('Dot')")
    found["club after two nights"] = axe_violations(page)
    no_overflow(page, "club page")
    panel_shot(page, "#club-app", "club.png")
    # the history page of a club's night links the club
    page.goto(f"{base_url}/t/{tid2}/history")
    page.wait_for_selector("#club-line:not([hidden])")
    assert page.get_attribute("#club-link", "href") == f"/c/{club_id}"
    assert found == {k: [] for k in found}
    assert errors == []
    ctx.close()
