"""A page that respects the person using it (issue 11 items 3, 7 and 8), in headless Chromium.

* axe-core finds no violation on the lobby and both table pages, on a desktop and a phone;
* an amount being typed, and the keyboard focus, survive another player's move; Enter
  submits the amount;
* your turn, results and reconnects are announced (an aria-live region and the title);
  cards have spoken names, face-down cards a text;
* on a 390x844 phone the action buttons are on screen on your turn;
* a double click sends one request; an error banner goes when the table moves on;
* the trainer speaks only about a decision; the log shows whole lines; the connection
  marker says "connected"; the four-colour deck is a remembered toggle;
* ``/docs`` renders with no internet.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from browsing import (
    DESKTOP,
    PHONE,
    TABLE_URL,
    axe_violations,
    create,
    on_screen,
    only_this_server,
    shot,
    sit_guest,
    table_id,
    wait_until,
    watch_errors,
)

pytestmark = pytest.mark.browser

SPOKEN = re.compile(r"(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of "
                    r"(clubs|diamonds|hearts|spades)")


def _poker_at_decision(page: Any, base_url: str, bots: int = 2) -> None:
    create(page, base_url, "poker", bots)
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#place-bets")
    page.click("#place-bets")
    page.wait_for_selector("#host-deal:not([hidden])")
    page.click("#host-deal")
    page.wait_for_selector("#play-1x")


def _kind_deal(page: Any, base_url: str, bots: int = 3, guest: bool = False) -> str | None:
    """A Four of a Kind deal in progress; with ``guest``, a seat taken through the API
    (its token returned)."""
    create(page, base_url, "kind", bots)
    page.wait_for_url(TABLE_URL)
    token = None
    if guest:
        token = sit_guest(page, base_url, "Gus")
        page.wait_for_selector("#player-4")
    page.click("#host-deal")
    page.wait_for_selector("#pot")
    return token


def _api_state(base_url: str, tid: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{base_url}/api/tables/{tid}/state", headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _fold_the_guest(page: Any, base_url: str, token: str | None) -> None:
    """The host (this page) bets when it may; the guest (the API, seat 4) folds when it may."""
    assert token
    tid = table_id(page)
    for _ in range(300):
        s = _api_state(base_url, tid, token)
        assert s["deal"] is not None, "the deal ended before the guest folded"
        if any(e["seat"] == 4 and e["status"] == "folded" for e in s["deal"]["seats"]):
            page.wait_for_selector("#seat-4.folded")
            return
        kinds = {a["kind"] for a in s["actions"]}
        if kinds:
            move = "fold" if "fold" in kinds else "check" if "check" in kinds else "call"
            r = httpx.post(f"{base_url}/api/tables/{tid}/actions", json={"kind": move},
                           headers={"X-Seat-Token": token})
            assert r.status_code == 200, r.text
        elif page.locator("#act-bet, #act-raise").count():
            page.locator("#act-bet, #act-raise").first.click()
        page.wait_for_timeout(50)
    raise AssertionError("the guest did not fold")




@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_issue11_7_axe_finds_no_violation_on_the_lobby_both_tables_and_the_history(browser: Any, base_url: str,
                                                                      size: str) -> None:
    ctx = browser.new_context(**(DESKTOP if size == "desktop" else PHONE))
    page = ctx.new_page()
    errors = watch_errors(page)
    found: dict[str, list[str]] = {}
    page.goto(base_url + "/")
    found["lobby"] = axe_violations(page)
    _poker_at_decision(page, base_url)
    page.check("#trainer-toggle")
    found["poker decision"] = axe_violations(page)
    page.click("#play-1x")
    wait_until(page, "document.querySelectorAll('.seat .result').length === 3")
    found["poker showdown"] = axe_violations(page)
    poker_table = page.url
    guest_token = _kind_deal(page, base_url, bots=2, guest=True)
    found["Four of a Kind deal"] = axe_violations(page)
    _fold_the_guest(page, base_url, guest_token)  # a folded seat is as readable as the others
    found["Four of a Kind, a seat folded"] = axe_violations(page)
    guest = ctx.browser.new_context(**(DESKTOP if size == "desktop" else PHONE)).new_page()
    guest.goto(page.url)
    guest.wait_for_selector("#join-form")
    found["table, not seated"] = axe_violations(guest)
    guest.fill("#join-name", "Vic")
    guest.click("#join-btn")
    guest.wait_for_selector("#my-request:not([hidden])")
    found["table, waiting for the host"] = axe_violations(guest)
    page.wait_for_selector("#requests button[data-op=approve]")
    found["host, a request waiting"] = axe_violations(page)
    guest.context.close()
    page.goto(poker_table + "/history")
    page.wait_for_selector("#settlement-table")
    page.click("#deals button[data-deal]")
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#step-next")
    found["history"] = axe_violations(page)
    page.goto(base_url + "/")
    page.wait_for_selector("#mine:not([hidden])")
    found["lobby with your tables"] = axe_violations(page)
    page.goto(base_url + "/offline")  # the service worker's page when the server cannot be reached (issue 21)
    found["offline"] = axe_violations(page)
    page.goto(poker_table + "/history?deal=1")
    page.wait_for_selector("#replay:not([hidden])")
    if size == "desktop":
        page.click("#step-last")
        shot(page, "history.png")
    assert {k: v for k, v in found.items() if v} == {}
    assert errors == []
    ctx.close()


def test_issue11_7_a_typed_amount_and_the_focus_survive_another_players_move(browser: Any, base_url: str) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    errors = watch_errors(page)
    create(page, base_url, "poker", 0)
    page.wait_for_url(TABLE_URL)
    tid = table_id(page)
    guest = sit_guest(page, base_url, "Gus")
    page.wait_for_selector("#player-2")
    page.focus("#ante")
    page.keyboard.press("Control+A")
    page.keyboard.type("35")
    r = httpx.post(f"{base_url}/api/tables/{tid}/actions", json={"kind": "wager", "ante": 20},
                   headers={"X-Seat-Token": guest})
    assert r.status_code == 200, r.text
    wait_until(page, "document.getElementById('log').innerText.includes('Gus bets ante 20')")
    assert page.input_value("#ante") == "35"
    assert page.evaluate("document.activeElement.id") == "ante"
    page.keyboard.press("Enter")  # Enter submits the amount
    wait_until(page, "document.getElementById('log').innerText.includes('Pat bets ante 35')")
    assert errors == []
    page.context.close()


def test_issue11_7_your_turn_and_results_are_announced_and_cards_have_spoken_names(browser: Any,
                                                                                  base_url: str) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    _poker_at_decision(page, base_url, bots=1)
    wait_until(page, "document.getElementById('announce').textContent.includes('Your turn')")
    assert page.title().startswith("Your turn")
    mine = page.locator(".seat.me .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(mine) == 5 and all(SPOKEN.fullmatch(x) for x in mine), mine
    assert set(page.locator("#dealer .card.back").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")) == {"face-down card"}
    assert SPOKEN.fullmatch(page.get_attribute("#up-card .pip", "aria-label") or "")
    page.click("#play-1x")
    wait_until(page, "document.getElementById('announce').textContent.includes('Round 1')")
    assert "Your net" in page.inner_text("#announce")
    assert not page.title().startswith("Your turn")
    page.context.close()


@pytest.mark.parametrize("game", ["poker", "kind"])
def test_issue11_8_on_a_phone_the_action_buttons_are_on_screen_on_your_turn(browser: Any, base_url: str,
                                                                           game: str) -> None:
    page = browser.new_context(**PHONE).new_page()
    if game == "poker":
        _poker_at_decision(page, base_url, bots=4)
        buttons = "#decision button"
    else:
        _kind_deal(page, base_url, bots=5)
        page.wait_for_selector("#kind-actions button")
        buttons = "#kind-actions button"
    page.evaluate("window.scrollTo(0, 0)")
    assert on_screen(page, buttons), "at the top of the page"
    if game == "poker":  # and your cards, above the actions
        assert on_screen(page, ".seat.me .card"), "your cards at the top of the page"
        assert page.evaluate("""Math.max(...Array.from(document.querySelectorAll('.seat.me .card')).map(
            c => c.getBoundingClientRect().bottom)) <= document.getElementById('my-actions').getBoundingClientRect().top""")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert on_screen(page, buttons), "at the bottom of the page"
    page.context.close()


def test_issue11_3_a_double_click_sends_one_request_and_a_banner_goes_when_the_table_moves_on(
        browser: Any, base_url: str) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/actions" in r.url else None)
    create(page, base_url, "poker", 1)
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#host-deal:not([hidden])")  # with a bot the host may deal at once
    page.click("#place-bets")  # two different requests in a row: both sent, in that order
    page.click("#host-deal")
    page.wait_for_selector("#play-1x")
    posts.clear()
    page.dblclick("#play-1x")
    page.wait_for_selector("#dealer-hand")
    page.wait_for_timeout(200)
    assert len(posts) == 1, posts
    # a refused request shows its message until the table moves on
    page.fill("#ante", "0")
    page.click("#place-bets")
    page.wait_for_selector("#error:not([hidden])")
    sit_guest(page, base_url, "Gus")
    page.wait_for_selector("#player-3")
    page.wait_for_selector("#error", state="hidden")
    page.context.close()


def test_issue11_8_the_trainer_speaks_only_about_a_decision(browser: Any, base_url: str) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    create(page, base_url, "poker", 1)
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#place-bets")
    page.check("#trainer-toggle")
    assert page.locator("#trainer").count() == 0  # bets are placed, there is nothing to decide
    page.click("#place-bets")
    page.wait_for_selector("#host-deal:not([hidden])")
    assert page.locator("#trainer").count() == 0
    page.click("#host-deal")
    page.wait_for_selector("#trainer")
    page.context.close()


def test_issue11_8_connected_marker_whole_log_lines_and_a_remembered_four_colour_deck(browser: Any,
                                                                                      base_url: str) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    _poker_at_decision(page, base_url, bots=3)
    assert page.inner_text("#conn").strip() == "connected"
    # the log is not a box that hides part of a line
    clipped = page.evaluate("""() => { const l = document.getElementById('log');
        return l.scrollHeight > l.clientHeight + 1 || getComputedStyle(l).overflowY !== 'visible'; }""")
    assert not clipped
    colours = """() => Array.from(document.querySelectorAll('.card[data-card]')).map(
        e => [e.dataset.card.slice(-1), getComputedStyle(e).color])"""
    two = {"h": "rgb(200, 16, 46)", "d": "rgb(200, 16, 46)", "c": "rgb(17, 17, 17)", "s": "rgb(17, 17, 17)"}
    four = {**two, "d": "rgb(23, 70, 176)", "c": "rgb(11, 107, 43)"}
    assert all(two[s] == c for s, c in page.evaluate(colours))
    page.check("#four-colour")
    assert all(four[s] == c for s, c in page.evaluate(colours))
    page.reload()
    page.wait_for_selector("#play-1x")
    assert page.is_checked("#four-colour")
    assert all(four[s] == c for s, c in page.evaluate(colours))
    page.context.close()


def test_issue11_7_api_docs_render_without_internet(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**DESKTOP)
    elsewhere = only_this_server(ctx, base_url)
    page = ctx.new_page()
    page.goto(base_url + "/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "fourcards" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")
    assert elsewhere == []
    ctx.close()


def test_issue11_6_the_history_page_replays_a_deal_and_the_settlement_adds_to_zero(browser: Any,
                                                                                 base_url: str) -> None:
    page = browser.new_context(**PHONE).new_page()
    errors = watch_errors(page)
    _poker_at_decision(page, base_url, bots=2)
    page.click("#play-1x")
    wait_until(page, "document.querySelectorAll('.seat .result').length === 3")
    mine = int(page.locator(".seat.me .result").get_attribute("data-net"))
    page.click("#history-link")
    page.wait_for_selector("#settlement-table")
    nets = [int(x) for x in page.locator("#settlement-table td[data-net]").evaluate_all(
        "els => els.map(e => e.dataset.net)")]
    assert len(nets) == 2 and sum(nets) == 0, nets  # the one person and the bank (issue 21: the bots and the house)
    parts = [int(x) for x in page.locator("#settlement-table td[data-bank-part]").evaluate_all(
        "els => els.map(e => e.dataset.bankPart)")]
    assert len(parts) == 3 and sum(parts) == nets[1]  # two bots and the house make the bank's line
    assert page.inner_text("#settlement-total") == "0"
    assert page.get_attribute("#settlement-csv", "href").endswith("/settlement.csv")
    assert "Round 1" in page.inner_text("#deals")
    page.click("#deals button[data-deal='1']")
    page.wait_for_selector("#replay:not([hidden])")
    assert page.inner_text("#step-status").startswith("Step 1 of ")
    assert page.is_disabled("#step-prev")
    page.click("#step-last")
    wait_until(page, "document.getElementById('step-next').disabled")
    assert "Showdown" in page.inner_text("#replay-log")
    # this seat sees its own cards in the replay (five) and the dealer's six at the end
    assert page.locator("#replay-table .dealer .card:not(.back)").count() == 6
    assert (f"{mine:+d}" if mine else "0") in page.inner_text("#replay-table")
    page.click("#step-first")
    wait_until(page, "document.getElementById('step-prev').disabled")
    assert "?deal=1" in page.url
    assert errors == []
    page.context.close()


def test_issue11_2_host_controls_in_the_page(browser: Any, base_url: str) -> None:
    """The host approves a seat, sits a player out and deals them in again, hands the seat to a
    new phone (the link shown on the host's page), approves a top-up, and removes a bot."""
    host = browser.new_context(**DESKTOP).new_page()
    host.on("dialog", lambda d: d.accept())
    errors = watch_errors(host)
    create(host, base_url, "poker", 1)
    host.wait_for_url(TABLE_URL)
    zoe_ctx = browser.new_context(**PHONE)
    zoe = zoe_ctx.new_page()
    zoe.goto(host.url)
    zoe.fill("#join-name", "Zoe")
    zoe.click("#join-btn")
    zoe.wait_for_selector("#my-request:not([hidden])")
    assert "Waiting for the host" in zoe.inner_text("#my-request")
    host.click("#requests button[data-op=approve]")
    zoe.wait_for_selector("#players li.me")
    seat = int(zoe.locator("#players li.me").get_attribute("data-seat"))
    # sit out and back, by the host
    host.click(f"#player-{seat} button[data-op=sit-out]")
    zoe.wait_for_selector("#im-back")
    assert "sitting out" in host.inner_text(f"#player-{seat}")
    host.click(f"#player-{seat} button[data-op=back]")
    zoe.wait_for_selector("#sit-out")
    # a top-up asked for on the phone, approved by the host
    zoe.fill("#topup-amount", "250")
    zoe.click("#topup-btn")
    zoe.wait_for_selector("#topup-note")
    host.click("#requests button[data-op=approve]")
    wait_until(zoe, "document.querySelector('#players li.me .balance').innerText === '1,250'")  # thousands separated (issue 29)
    # a new phone for Zoe: the host's page shows the link
    host.click(f"#player-{seat} button[data-op=new-device]")
    host.wait_for_selector("#device-link")
    link = host.input_value("#device-link")
    assert "#token=" in link
    new_ctx = browser.new_context(**PHONE)
    new = new_ctx.new_page()
    new.goto(link)
    new.wait_for_selector("#players li.me")
    assert new.inner_text("#players li.me .balance") == "1,250"
    zoe.wait_for_selector("#join:not([hidden])")  # the old phone is a spectator now
    host.click("button[data-op=device-done]")
    host.wait_for_selector("#device-link", state="detached")
    # the host removes the bot: its chips are cashed out
    host.click("#player-2 button[data-op=leave]")
    host.wait_for_selector("#player-2", state="detached")
    assert errors == []
    for c in (host.context, zoe_ctx, new_ctx):
        c.close()


def test_issue11_2_the_turn_clock_counts_down_on_the_page(browser: Any, base_url: str) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    _kind_deal(page, base_url, bots=3)  # Four of a Kind: 30 s a turn by default
    page.wait_for_selector("#kind-actions button")  # this seat's turn
    page.wait_for_selector("#clock")
    first = int(page.inner_text("#clock .secs"))
    assert page.inner_text("#clock").startswith("Your time") and 25 <= first <= 30
    wait_until(page, f"Number(document.querySelector('#clock .secs').textContent) < {first}")
    page.context.close()


def test_issue11_5_the_host_lists_a_table_in_the_lobby(browser: Any, base_url: str) -> None:
    host = browser.new_context(**DESKTOP).new_page()
    create(host, base_url, "kind", 3, name="Lou")
    host.wait_for_url(TABLE_URL)
    tid = table_id(host)
    stranger = browser.new_context(**DESKTOP).new_page()
    stranger.goto(base_url + "/")
    assert tid not in stranger.content()
    host.check("#set-public")
    wait_until(host, "document.getElementById('log').innerText.includes('public')")
    stranger.goto(base_url + "/")
    assert f"/t/{tid}" in stranger.content()
    host.context.close()
    stranger.context.close()
