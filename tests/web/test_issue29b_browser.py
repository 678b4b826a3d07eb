"""Issue 29 part B in real headless Chromium (docs/web.md "The pages", "A game night"):

* before your turn (docs/rules.md TP-12): a choice made ahead is made the moment the turn comes;
  a bet clears "Check" and the page says so;
* away: the seat checks or folds at once, the page says you are away, "I'm back" ends it;
* the time bank (TP-13): set in the host's settings, spent once the turn clock has run out, shown;
* buy-in rules (TP-14): set in the host's settings; a new seat chooses its buy-in within them;
* one hand's page ``/t/{id}/h/{n}``: the replay, a share button (copy fallback), an Open Graph
  preview naming no hidden card; axe-core clean;
* the history page: the night in numbers, a payment handle shown beside what its person receives,
  the settle-up copied as text, a finished night added to a club; axe-core clean;
* play-test faults 2 (why no deal; "sitting out", not "folded") and 8 (why low went where it did),
  and your best four raised while you decide.

One server (SQLite) and one Chromium per module; loopback only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import (
    PHONE,
    ThreadServer,
    axe_violations,
    launch,
    on_screen,
    require_browser,
    shot,
    wait_until,
    watch_errors,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_browser()
    from fourcards.web import create_app

    db = Path(tmp_path_factory.mktemp("issue29b")) / "fourcards.db"
    with ThreadServer(create_app(f"sqlite:///{db}", bot_delay=0.02, rate_limits="off")) as srv:
        yield srv.base


@pytest.fixture(scope="module")
def chromium(app_url: str) -> Iterator[Any]:
    yield from launch()


def api(base: str, method: str, path: str, token: str | None = None, body: Any = None, ok: bool = True) -> Any:
    r = httpx.request(method, base + path, json=body, headers={"X-Seat-Token": token} if token else {}, timeout=30)
    if ok:
        assert r.status_code < 300, r.text
    return r.json()


def kind_table(base: str, names: tuple[str, ...] = ("Ben", "Cat", "Dan"), **extra: Any) -> tuple[str, dict[str, str]]:
    """A Four of a Kind table of people only (no bots), Pat the host: their tokens by name."""
    t = api(base, "POST", "/api/tables", body={"game": "kind", "host_name": "Pat", "bots": 0, "turn_clock": 0,
                                              "public": True, **extra})
    tid, tokens = t["table"]["id"], {"Pat": t["token"]}
    for n in names:
        tokens[n] = api(base, "POST", f"/api/tables/{tid}/seats", body={"name": n})["token"]
    return tid, tokens


def open_seat(page: Any, base: str, tid: str, token: str) -> None:
    page.goto(base + "/offline")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"fourcards:token:{tid}", token])
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#players li.me")


def turn_order(base: str, tid: str, tokens: dict[str, str]) -> list[str]:
    """Names in turn order from the person to act."""
    s = api(base, "GET", f"/api/tables/{tid}/state", tokens["Pat"])
    d = s["deal"]
    seats = sorted(e["seat"] for e in d["seats"])
    names = {e["seat"]: e["name"] for e in d["seats"]}
    i = seats.index(d["actor"])
    return [names[seats[(i + k) % len(seats)]] for k in range(len(seats))]


def act(base: str, tid: str, token: str, kind: str, amount: int | None = None) -> Any:
    body = {"kind": kind} if amount is None else {"kind": kind, "amount": amount}
    return api(base, "POST", f"/api/tables/{tid}/actions", token, body)


def test_tp12_a_move_chosen_ahead_in_the_browser(chromium: Any, app_url: str) -> None:
    tid, tokens = kind_table(app_url)
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    first, second, third, fourth = turn_order(app_url, tid, tokens)
    page = chromium.new_context(**PHONE).new_page()
    errors = watch_errors(page)
    open_seat(page, app_url, tid, tokens[second])
    page.wait_for_selector("#pre-actions")
    assert axe_violations(page) == []
    heights = page.evaluate("Array.from(document.querySelectorAll('#pre-actions button')).map(b => b.getBoundingClientRect().height)")
    assert heights and min(heights) >= 43.5, heights  # phone play test: 44 px touch targets (they were 36)
    page.click("#pre-check")
    page.wait_for_selector("#pre-check[aria-pressed=true]")
    act(app_url, tid, tokens[first], "check")
    page.wait_for_selector(f"#log li:has-text('{second} checks (chosen ahead)')")
    # the fourth chose "Check" too, then the third bets: the choice is cleared and the page says so
    third_page = chromium.new_context(**PHONE).new_page()
    errors += watch_errors(third_page)
    open_seat(third_page, app_url, tid, tokens[fourth])
    third_page.click("#pre-check")
    third_page.wait_for_selector("#pre-check[aria-pressed=true]")
    act(app_url, tid, tokens[third], "bet", 5)
    third_page.wait_for_selector("#pre-cleared")
    third_page.wait_for_selector("#act-call")  # their turn: they act themselves
    assert errors == []
    page.context.close()
    third_page.context.close()


def test_tp12_away_im_back_where_the_table_is(chromium: Any, app_url: str) -> None:
    """Play test: away during a deal, the page's line under the table said so but "I'm back" was
    only in "Your seat", below the table off a phone's screen; it is now right under the table."""
    tid, tokens = kind_table(app_url)
    page = chromium.new_context(**PHONE).new_page()
    errors = watch_errors(page)
    open_seat(page, app_url, tid, tokens["Ben"])
    page.click("#away")
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    page.wait_for_selector("#dock-back")
    page.evaluate("window.scrollTo(0, 0)")
    assert on_screen(page, "#dock-back")
    box = page.locator("#dock-back").bounding_box()
    assert box is not None and box["height"] >= 44
    page.click("#dock-back")
    page.wait_for_selector("#away", state="attached")
    assert page.locator("#dock-back").count() == 0
    assert errors == []
    page.context.close()

def test_tp12_away_in_the_browser(chromium: Any, app_url: str) -> None:
    tid, tokens = kind_table(app_url)
    page = chromium.new_context(**PHONE).new_page()
    errors = watch_errors(page)
    open_seat(page, app_url, tid, tokens["Ben"])
    page.click("#away")
    page.wait_for_selector("#away-note")
    assert "You are away" in page.inner_text("#away-note")
    page.wait_for_selector("#player-2 .tag:has-text('away')")
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    for _ in range(8):  # the others check until Ben's turn has come and gone: it never waits
        s = api(app_url, "GET", f"/api/tables/{tid}/state", tokens["Pat"])
        if any("Ben checks (away)" in line for line in s["log"]):
            break
        actor = next(e["name"] for e in s["deal"]["seats"] if e["seat"] == s["deal"]["actor"])
        assert actor != "Ben"
        act(app_url, tid, tokens[actor], "check")
    page.wait_for_selector("#log li:has-text('Ben checks (away)')")
    page.click("#away-back")
    page.wait_for_selector("#away", state="attached")
    assert page.locator("#away-note").count() == 0
    assert errors == []
    page.context.close()


def test_tp13_the_time_bank_in_the_browser(chromium: Any, app_url: str) -> None:
    tid, tokens = kind_table(app_url)
    host = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(host)
    open_seat(host, app_url, tid, tokens["Pat"])
    host.fill("#set-clock", "1")
    host.click("#set-clock-btn")
    host.fill("#set-bank", "30")
    host.click("#set-bank-btn")
    host.wait_for_selector("#log li:has-text('time bank of 30 s')")
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    host.wait_for_selector("#clock")
    host.wait_for_selector("#clock.in-bank", timeout=8000)  # the 1 s turn clock ran out: the bank runs
    assert "bank:" in host.inner_text("#clock")
    who = host.get_attribute("#clock", "data-seat")
    assert host.locator(f"#seat-{who} .seat-clock span.bank").count() == 1
    assert errors == []
    host.context.close()


def test_tp14_buy_in_rules_in_the_browser(chromium: Any, app_url: str) -> None:
    tid, tokens = kind_table(app_url, ())
    host = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = watch_errors(host)
    open_seat(host, app_url, tid, tokens["Pat"])
    host.fill("#set-min-buy-in", "500")
    host.fill("#set-max-buy-in", "3000")
    host.fill("#set-max-top-up", "1000")
    host.check("#set-match")
    host.click("#set-buy-in-btn")
    host.wait_for_selector("#log li:has-text('The host sets the buy-in: 500 to 3,000 chips')")
    guest = chromium.new_context(**PHONE).new_page()
    errors += watch_errors(guest)
    guest.goto(f"{app_url}/t/{tid}")
    guest.wait_for_selector("#join-buy-in-box:not([hidden])")
    assert guest.input_value("#join-buy-in") == "1000"
    assert "Buy-in 500 to 3,000 chips" in guest.inner_text("#join-buy-in-limits")
    guest.fill("#join-name", "Eve")
    guest.fill("#join-buy-in", "2500")
    guest.click("#join-btn")
    guest.wait_for_selector("#players li.me")
    assert "2,500" in guest.inner_text("#my-status")
    assert guest.get_attribute("#topup-amount", "max") == "500"  # at most 3,000 after the top-up
    assert axe_violations(guest) == []
    assert errors == []
    host.context.close()
    guest.context.close()


def _poker_round_with_a_fold(base: str) -> tuple[str, dict[str, str]]:
    t = api(base, "POST", "/api/tables", body={"game": "poker", "host_name": "Pat", "bots": 0, "public": True})
    tid, tokens = t["table"]["id"], {"Pat": t["token"]}
    for n in ("Ben", "Cat"):
        tokens[n] = api(base, "POST", f"/api/tables/{tid}/seats", body={"name": n})["token"]
    for n in ("Pat", "Ben", "Cat"):
        act_body = {"kind": "wager", "ante": 10}
        api(base, "POST", f"/api/tables/{tid}/actions", tokens[n], act_body)
    api(base, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    act(base, tid, tokens["Pat"], "play", 10)
    act(base, tid, tokens["Ben"], "fold")
    act(base, tid, tokens["Cat"], "play", 30)
    return tid, tokens


def test_issue29_3_one_hands_page_replays_shares_and_previews_no_hidden_card(chromium: Any, app_url: str) -> None:
    tid, tokens = _poker_round_with_a_fold(app_url)
    ben_cards = api(app_url, "GET", f"/api/tables/{tid}/deals/1", tokens["Ben"])["history"]
    folded = next(h for r in ben_cards if r.get("kind") == "deal" for h in r["hands"] if h["player"] == 1)["cards"]
    ctx = chromium.new_context(**PHONE)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{app_url}/t/{tid}/h/1")
    page.wait_for_selector("#replay:not([hidden])")
    description = page.get_attribute("meta[property='og:description']", "content")
    assert description.startswith("Round 1 at Pat's Four Card Poker table (Four Card Poker): the dealer has ")
    assert "Ben folds" in description and not any(c in description for c in folded)
    assert page.get_attribute("meta[property='og:url']", "content").endswith(f"/t/{tid}/h/1")
    page.click("#step-last")
    assert "Showdown" in page.inner_text("#replay-log")
    page.click("#share-hand")
    page.wait_for_selector("#shared:has-text('link')")
    assert axe_violations(page) == []
    shot(page, "hand.png", full_page=False)
    assert errors == []
    ctx.close()


def test_issue29_history_numbers_handles_copy_and_a_club(chromium: Any, app_url: str) -> None:
    tid, tokens = _poker_round_with_a_fold(app_url)
    club = api(app_url, "POST", "/api/clubs", body={"name": "Thursday club", "owner_name": "Pat"})
    api(app_url, "POST", f"/api/tables/{tid}/settle-up", tokens["Pat"], {  # Ben holds the bank: a person receives
        "chip_value": {"chips": 100, "cents": 100, "currency": "€"}, "banker": 2})
    ctx = chromium.new_context(**PHONE)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(app_url + "/offline")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"fourcards:token:{tid}", tokens["Pat"]])
    page.goto(f"{app_url}/t/{tid}/history")
    page.wait_for_selector("#numbers-table")
    rows = page.locator("#numbers-table tbody tr").all_inner_texts()
    assert len(rows) == 3 and any(r.startswith("Ben") for r in rows)
    ben_row = page.locator("#numbers-table tr[data-name=Ben]").inner_text()
    assert ben_row.split()[1:3] == ["1", "0"]  # played 1, won 0
    # a payment handle, from the page; shown (as text) beside every transfer its person receives
    page.wait_for_selector("#handle-form:not([hidden])")
    page.fill("#handle", "<b>IBAN DE89</b>")
    page.click("#handle-save")
    wait_until(page, "document.getElementById('handle').value === '<b>IBAN DE89</b>'")
    for n in ("Ben", "Cat"):
        api(app_url, "POST", f"/api/tables/{tid}/handle", tokens[n], {"handle": f"paypal.me/{n.lower()}"})
    up = api(app_url, "GET", f"/api/tables/{tid}/settle-up")
    assert {p["name"]: p["handle"] for p in up["parties"] if p["kind"] == "person"} == {
        "Pat": "<b>IBAN DE89</b>", "Ben": "paypal.me/ben", "Cat": "paypal.me/cat"}
    page.reload()
    page.wait_for_selector("#settle-up table")
    received = [t for t in up["transfers"] if t["to"]["kind"] == "person"]
    assert received
    for tr in received:
        li = page.locator(f"#transfers li[data-to='{tr['to']['name']}']").first.inner_text()
        assert f"{tr['to']['name']}: {tr['to']['handle']}" in li, li
    assert page.locator("#settle-up b b, #settle-up script").count() == 0  # the handle is text, never markup
    page.click("#copy-settle-up")
    page.wait_for_selector("#copied:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()").startswith("Who pays whom: ")
    # the finished night goes to a club from the page
    page.wait_for_selector("#club-form:not([hidden])")
    page.fill("#club-id", f"{app_url}/c/{club['club']['id']}")
    page.click("#club-add")
    page.wait_for_selector("#club-line:not([hidden])")
    assert page.inner_text("#club-link") == "Thursday club"
    assert axe_violations(page) == []
    # the club's standings on a phone: a card per person, not a table that scrolls sideways (play test)
    page.click("#club-link")
    page.wait_for_selector("#standings-table")
    assert page.evaluate("(() => { const e = document.getElementById('standings'); return e.scrollWidth <= e.clientWidth; })()")
    assert page.locator("#standings-table tr[data-name=Ben] td[data-label=Nights]").inner_text() == "1"
    assert errors == []
    ctx.close()


def test_issue29_fault2_why_no_deal_and_sitting_out_not_folded(chromium: Any, app_url: str) -> None:
    tid, tokens = kind_table(app_url)
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    order = turn_order(app_url, tid, tokens)
    act(app_url, tid, tokens[order[0]], "bet", 5)
    for n in order[1:]:
        act(app_url, tid, tokens[n], "fold")  # the deal ends: three folded
    for n in order[1:3]:
        api(app_url, "POST", f"/api/tables/{tid}/seats/{_seat(app_url, tid, n)}/sit-out", tokens[n])
    page = chromium.new_context(**PHONE).new_page()
    open_seat(page, app_url, tid, tokens["Pat"])
    status = page.inner_text("#round-status")
    assert "at least 4 players with chips for the ante are needed to deal; 2 can play now" in status
    assert page.is_hidden("#host-deal")
    assert "everyone else folded" in page.inner_text("#split")  # fault 8: the split says why
    for n in order[1:3]:
        badges = page.locator(f"#seat-{_seat(app_url, tid, n)} .badge").all_inner_texts()  # yours: "you" first
        assert "sitting out" in badges and "folded" not in badges, badges
    page.context.close()


def _seat(base: str, tid: str, name: str) -> int:
    return next(p["seat"] for p in api(base, "GET", f"/api/tables/{tid}")["seats"] if p["name"] == name)


def test_issue29_your_best_four_is_raised_while_you_decide(chromium: Any, app_url: str) -> None:
    t = api(app_url, "POST", "/api/tables", body={"game": "poker", "host_name": "Pat", "bots": 0})
    tid, token = t["table"]["id"], t["token"]
    page = chromium.new_context(**PHONE).new_page()
    open_seat(page, app_url, tid, token)
    page.click("#place-bets")
    page.wait_for_selector("#host-deal:not([hidden])")
    page.click("#host-deal")
    page.wait_for_selector("#play-1x")
    assert page.locator("#seat-1 .card.best").count() == 4 and page.locator("#seat-1 .card.rest").count() == 1
    page.click("#play-1x")
    wait_until(page, "document.querySelectorAll('#dealer .card.best').length === 4")
    page.context.close()


#: Seats whose text runs past their box (onto the next seat's): [id, box height, text height].
SPILLS = """() => Array.from(document.querySelectorAll('#oval .seat')).filter(s => s.scrollHeight > s.clientHeight + 1)
  .map(s => [s.id, s.clientHeight, s.scrollHeight])"""
SPILL_TEXT = """() => Array.from(document.querySelectorAll('#oval .seat')).filter(s => s.scrollHeight > s.clientHeight + 1)
  .map(s => [s.id, s.innerText, s.clientWidth, Array.from(s.children).map(c => c.className + ":" + c.offsetHeight)])"""


def test_issue29_small_seats_keep_their_showdown_inside_their_box_on_a_phone(chromium: Any, app_url: str) -> None:
    """Phone play test: at 360x640 with 4 Four Card Poker seats after the showdown, the side seats'
    wagers, hand name and net ran past their box; the next seat's text ran into them."""
    t = api(app_url, "POST", "/api/tables", body={"game": "poker", "host_name": "Pat", "bots": 0, "public": True})
    tid, tokens = t["table"]["id"], {"Pat": t["token"]}
    for n in ("Benedict", "Cat", "Dan"):
        tokens[n] = api(app_url, "POST", f"/api/tables/{tid}/seats", body={"name": n})["token"]
    for n in tokens:
        act_body = {"kind": "wager", "ante": 10, "aces_up": 5}
        api(app_url, "POST", f"/api/tables/{tid}/actions", tokens[n], act_body)
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    # the layout as it settles, not a frame of the cards' slide or the chips' glide (CI once read one)
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                                reduced_motion="reduce").new_page()
    errors = watch_errors(page)
    open_seat(page, app_url, tid, tokens["Pat"])
    for n, kind in (("Pat", "play"), ("Benedict", "play"), ("Cat", "fold"), ("Dan", "play")):
        if n == "Dan":
            assert page.evaluate(SPILLS) == []  # in the round: the wagers are the bets in front
        act(app_url, tid, tokens[n], kind, 30 if kind == "play" else None)
    page.wait_for_selector("#round-status:has-text('settled')")
    for width, height in ((360, 640), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        assert page.evaluate(SPILLS) == [], (width, height, page.evaluate(SPILL_TEXT))
        # the longest hand kinds a seat may show, whatever this deal's hands were (CI once drew one
        # that took a second line, in CI's fonts): each small seat shown with each, and with a
        # text longer than any kind in any font (it stays on one line, cut with an ellipsis)
        for kind in ("three of a kind", "straight flush", "four of a kind", "three of a kind " * 3):
            page.evaluate("""k => document.querySelectorAll('#oval .seat:not(.me) .hand-name')
              .forEach(e => { e.firstChild.textContent = k; })""", kind)
            assert page.evaluate(SPILLS) == [], (width, height, kind, page.evaluate(SPILL_TEXT))
        # the widest stack and net a small seat may show here (CI once drew "1,100" and "+100": the
        # line took two and ran out of the box)
        for stack, net in (("1,100", "+100"), ("1,000,000", "+1,000"), ("999,990", "-10")):
            page.evaluate("""([stack, net]) => document.querySelectorAll('#oval .seat:not(.me)').forEach(s => {
              s.querySelector('.stack').lastChild.textContent = stack;
              const b = s.querySelector('.net b');
              if (b) b.textContent = net; })""", [stack, net])
            assert page.evaluate(SPILLS) == [], (width, height, stack, net, page.evaluate(SPILL_TEXT))
    dan = page.locator(f"#seat-{_seat(app_url, tid, 'Dan')}")
    assert "net" in dan.locator(".line").inner_text()  # the net beside the stack (the word for screen readers)
    assert errors == []
    page.context.close()


#: Small seats whose stack or stack-and-net line is cut on the screen: [id, the line's text].
CUT_STACKS = """() => Array.from(document.querySelectorAll('#oval .seat:not(.me) .line')).filter(l => {
  const s = l.querySelector('.stack');
  return l.scrollWidth > l.clientWidth + 1 || (s && s.scrollWidth > s.clientWidth + 1);
}).map(l => [l.closest('.seat').id, l.innerText])"""


@pytest.mark.parametrize("game", ["poker", "kind"])
def test_issue29_a_small_seat_shows_a_big_stack_whole_in_its_compact_form_on_a_phone(
        chromium: Any, app_url: str, game: str) -> None:
    """Phone play test (a 1,000,000-chip table): a small Four Card Poker seat's stack beside the
    round's net was cut to "1,..." or hidden; from 10,000 chips a small poker seat shows its stack and
    net in compact form ("9.9M", "-12K"; a crowded Four of a Kind table its stack from 1,000,000),
    never cut, while screen readers read the whole counts and your own seat shows yours whole."""
    if game == "poker":
        t = api(app_url, "POST", "/api/tables", body={"game": "poker", "host_name": "Pat", "bots": 0,
                                                      "public": True, "starting_chips": 10_000_000})
        tid, tokens = t["table"]["id"], {"Pat": t["token"]}
        for n in ("Benedict", "Cat", "Dan"):
            tokens[n] = api(app_url, "POST", f"/api/tables/{tid}/seats", body={"name": n})["token"]
        for n in tokens:
            api(app_url, "POST", f"/api/tables/{tid}/actions", tokens[n], {"kind": "wager", "ante": 1000, "aces_up": 5})
        api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    else:
        t = api(app_url, "POST", "/api/tables", body={"game": "kind", "host_name": "Pat", "bots": 12, "turn_clock": 0,
                                                      "starting_chips": 10_000_000})
        tid, tokens = t["table"]["id"], {"Pat": t["token"]}
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                                reduced_motion="reduce").new_page()
    errors = watch_errors(page)
    open_seat(page, app_url, tid, tokens["Pat"])
    if game == "poker":
        for n, kind in (("Pat", "play"), ("Benedict", "play"), ("Cat", "fold"), ("Dan", "play")):
            act(app_url, tid, tokens[n], kind, 3000 if kind == "play" else None)
        page.wait_for_selector("#round-status:has-text('settled')")
    page.wait_for_timeout(150)
    assert page.evaluate(CUT_STACKS) == []
    assert page.evaluate(SPILLS) == [], page.evaluate(SPILL_TEXT)
    small = page.locator("#oval .seat:not(.me) .stack").first
    assert small.locator(".n-short").is_visible()  # 9,99x,xxx chips: "9.9M"
    assert small.locator(".n-short").inner_text() in ("9.9M", "10M") and small.locator(".n-short").get_attribute("aria-hidden") == "true"
    assert "," in small.locator(".n-whole").text_content()  # the whole count, for screen readers
    mine = page.locator("#oval .seat.me .stack")
    assert mine.locator(".n-whole").is_visible() and not mine.locator(".n-short").is_visible()
    # the widest pairs a small seat may show, built by the page's own formatter
    pairs = [(9_999, -9_999), (99_999, 99_999), (9_995_995, -1_005), (1_003_995, 3_995), (998_995, -999_999),
             (10_003_995, 9_999_999), (5_000, 1_234_567)] if game == "poker" else [(999_995, None), (9_999_995, None)]
    for stack, net in pairs:
        page.evaluate("""([stack, net]) => document.querySelectorAll('#oval .seat:not(.me)').forEach(s => {
          const st = s.querySelector('.stack');
          if (st) st.innerHTML = '<span class="sr-only">stack </span>' + window.fourcardsCards.fitted(stack);
          const b = s.querySelector('.net b');
          if (b && net !== null) b.innerHTML = window.fourcardsCards.fitted(net, true); })""", [stack, net])
        assert page.evaluate(CUT_STACKS) == [], (stack, net)
        assert page.evaluate(SPILLS) == [], (stack, net, page.evaluate(SPILL_TEXT))
    assert errors == []
    page.context.close()


def test_issue29_a_big_bet_is_shown_in_compact_form_on_a_phone(chromium: Any, app_url: str) -> None:
    """Phone play test (a 10,000,000-chip table, antes of 250,000): the bets in front of the seats,
    "1,050,000", ran over their seats' boxes; on a phone a bet from 100,000 reads "1.05M" (three
    digits, cut, never rounded up), and a wider screen shows it whole."""
    t = api(app_url, "POST", "/api/tables", body={"game": "poker", "host_name": "Pat", "bots": 0, "public": True,
                                                  "starting_chips": 10_000_000,
                                                  "rules": {"max_ante": 1_000_000, "max_aces_up": 100_000}})
    tid, tokens = t["table"]["id"], {"Pat": t["token"]}
    for n in ("Benedict", "Cat"):
        tokens[n] = api(app_url, "POST", f"/api/tables/{tid}/seats", body={"name": n})["token"]
    for n in tokens:
        api(app_url, "POST", f"/api/tables/{tid}/actions", tokens[n], {"kind": "wager", "ante": 250_000, "aces_up": 49_999})
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    act(app_url, tid, tokens["Pat"], "play", 750_000)
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                                reduced_motion="reduce").new_page()
    errors = watch_errors(page)
    open_seat(page, app_url, tid, tokens["Pat"])
    mine = page.locator(f"#bet-{_seat(app_url, tid, 'Pat')}")
    other = page.locator(f"#bet-{_seat(app_url, tid, 'Cat')}")
    assert mine.inner_text().strip() == "1.04M"  # 250,000 + 49,999 + 750,000 = 1,049,999: cut, not "1.05M"
    assert other.inner_text().strip() == "299K"  # 299,999
    assert page.evaluate(SPILLS) == []
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(150)
    assert mine.inner_text().strip() == "1,049,999" and other.inner_text().strip() == "299,999"
    assert errors == []
    page.context.close()


#: The table's name and rules line as cut on the screen: [id, what is cut].
CUT_HEAD = """() => ['table-name', 'table-rules'].flatMap(id => {
  const e = document.getElementById(id);
  return e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 ? [[id, e.textContent]] : [];
})"""


@pytest.mark.parametrize("game", ["kind", "poker"])
def test_issue29_the_table_name_and_rules_are_shown_whole_on_a_tap_on_a_phone(chromium: Any, app_url: str, game: str) -> None:
    """Phone play test: the table's name and its rules line ended in "…" at 360 px, with no way to
    read them; two lines each would take the height the table needs, so a tap shows them whole."""
    t = api(app_url, "POST", "/api/tables", body={"game": game, "host_name": "Bartholomew", "bots": 3})
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
    open_seat(page, app_url, t["table"]["id"], t["token"])
    assert page.evaluate(CUT_HEAD) != []  # one line each: the table needs the screen's height
    page.tap("#table-name")
    assert page.evaluate(CUT_HEAD) == []  # a tap on the name shows both whole
    assert page.get_attribute("#table-name", "title") == "Bartholomew's " + ("Four of a Kind" if game == "kind" else "Four Card Poker") + " table"
    page.tap("#table-name")
    assert page.evaluate(CUT_HEAD) != []
    page.context.close()


def test_issue29_the_night_in_numbers_fits_a_phone_without_scrolling_sideways(chromium: Any, app_url: str) -> None:
    """Phone play test: the night in numbers (eight columns at Four of a Kind) scrolled sideways at
    390 px; on a phone each person is a card of labelled numbers."""
    tid, tokens = kind_table(app_url, ("Benedict", "Catherine", "Dan"))
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    order = turn_order(app_url, tid, tokens)
    act(app_url, tid, tokens[order[0]], "bet", 5)
    for n in order[1:]:
        act(app_url, tid, tokens[n], "fold")
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
    errors = watch_errors(page)
    page.goto(f"{app_url}/t/{tid}/history")
    page.wait_for_selector("#numbers-table")
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        wide = page.evaluate("(() => { const e = document.getElementById('numbers'); return [e.scrollWidth, e.clientWidth]; })()")
        assert wide[0] <= wide[1], wide
    winner = page.locator(f"#numbers-table tr[data-name='{order[0]}']")
    assert winner.locator("td[data-label=Won]").inner_text() == "1"
    assert page.evaluate("getComputedStyle(document.querySelector('#numbers-table td'), '::before').content") == '"Played"'
    assert axe_violations(page) == []
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("game", ["kind", "poker"])
def test_issue29_a_closed_table_says_it_is_closed_not_that_the_next_deal_comes(chromium: Any, app_url: str, game: str) -> None:
    """Phone play test: after the host closed the table, its middle still said "The host deals the
    next one" (Four of a Kind) or "Round 2: place your bets" (Four Card Poker); and its Players
    panel was a heading over nothing."""
    if game == "kind":
        tid, tokens = kind_table(app_url)
        api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
        order = turn_order(app_url, tid, tokens)
        act(app_url, tid, tokens[order[0]], "bet", 5)
        for n in order[1:]:
            act(app_url, tid, tokens[n], "fold")
    else:
        tid, tokens = _poker_round_with_a_fold(app_url)
    api(app_url, "POST", f"/api/tables/{tid}/close", tokens["Pat"])
    page = chromium.new_context(**PHONE).new_page()
    errors = watch_errors(page)
    page.goto(f"{app_url}/t/{tid}")
    page.wait_for_selector("#round-status")
    status = page.inner_text("#round-status")
    assert "The table is closed." in status and "place your bets" not in status and "deals the" not in status, status
    # noticed after issue 29: the Players panel was a heading over nothing; it says everyone left
    assert "Everyone has left" in page.inner_text("#players-none")
    assert page.get_attribute("#players-none a", "href") == f"/t/{tid}/history"
    assert errors == []
    page.context.close()


def test_issue29_the_turned_card_line_breaks_no_word_on_a_phone(chromium: Any, app_url: str) -> None:
    """Phone play test: at 360 px the middle's "Turned K → Ana" read "Turne d"."""
    tid, tokens = kind_table(app_url, ("Benedict", "Catherine", "Dan"))
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    for n in turn_order(app_url, tid, tokens):
        act(app_url, tid, tokens[n], "check")  # a betting round: the next card is turned
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
    open_seat(page, app_url, tid, tokens["Pat"])
    page.wait_for_selector("#last-turn")
    broken = page.evaluate("""() => Array.from(document.getElementById('last-turn').childNodes)
      .filter(t => t.nodeType === 3 && t.textContent.trim()).map(t => {
        const r = document.createRange(); r.selectNodeContents(t);
        return [t.textContent.trim(), new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size];
      }).filter(x => x[1] > 1 && !x[0].includes(' '))""")
    assert broken == []
    page.context.close()


def test_issue29_what_a_seat_takes_leaves_the_middle_readable_on_a_phone(chromium: Any, app_url: str) -> None:
    """Phone play test: at the end of a deal the chips a seat took ("+10") stayed on the middle's
    words ("Turned K → Ana", "Deal 2 is over"); they come back to the seat, then fade."""
    tid, tokens = kind_table(app_url)
    page = chromium.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True).new_page()
    open_seat(page, app_url, tid, tokens["Pat"])
    api(app_url, "POST", f"/api/tables/{tid}/deal", tokens["Pat"])
    order = turn_order(app_url, tid, tokens)
    act(app_url, tid, tokens[order[0]], "bet", 5)
    for n in order[1:]:
        act(app_url, tid, tokens[n], "fold")
    page.wait_for_selector(".bet.won")
    wait_until(page, "Array.from(document.querySelectorAll('.bet.won')).every(b => getComputedStyle(b).opacity === '0')")
    page.context.close()


def test_issue29_a_closed_tables_history_page_asks_for_no_seat(chromium: Any, app_url: str) -> None:
    """Noticed after issue 29: a closed table's history page asked ``/state`` with the host's token,
    which no longer holds a seat (a 403 in the console). It now reads the settle-up alone: the
    host still sets the terms, the bank held by the host or the bank."""
    tid, tokens = kind_table(app_url)
    api(app_url, "POST", f"/api/tables/{tid}/close", tokens["Pat"])
    page = chromium.new_context(**PHONE).new_page()
    errors = watch_errors(page)
    asked: list[tuple[str, int]] = []
    page.on("response", lambda r: asked.append((r.url, r.status)) if "/api/tables/" in r.url else None)
    open_history = f"{app_url}/t/{tid}/history"
    page.goto(app_url + "/offline")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"fourcards:token:{tid}", tokens["Pat"]])
    page.goto(open_history)
    page.wait_for_selector("#terms-form:not([hidden])")  # the host's terms, from the settle-up
    assert [o for o in page.eval_on_selector_all("#banker option", "os => os.map(o => o.value)")] == ["host", "bank"]
    page.wait_for_load_state("networkidle")
    assert not [u for u, _ in asked if u.endswith("/state")], asked
    assert not [(u, s) for u, s in asked if s >= 400], asked
    assert errors == []
    page.context.close()

