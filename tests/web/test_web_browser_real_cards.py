"""Four of a Kind with real cards in real headless Chromium (issue 15; docs/rules.md FOAK-14
to FOAK-16), both databases: the host creates a "Real cards" table from the lobby; Ann and
Ben join on their own phones (browser contexts of their own), Cat has no phone (the host
seats her and enters her moves); the host enters every card - the first deal with a
duplicated rank that the re-deal rule replaces, a card already seen (refused), a mistyped
card taken back - and the deal runs to the split; balances, the referee's view on every
phone, the history page and axe-core checked.

Skipped when Chromium is missing unless ``FOURCARDS_REQUIRE_BROWSER=1``. Traffic goes to
127.0.0.1 only.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from browsing import (
    PHONE,
    axe_violations,
    chips_of,
    host_token,
    join_on_a_phone,
    shot,
    table_id,
    until,
    wait_until,
    watch_errors,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _deal(base: str, tid: str) -> Any:
    r = httpx.get(f"{base}/api/tables/{tid}/state")
    assert r.status_code == 200, r.text
    return r.json()["deal"]


def _sig(base: str, tid: str) -> Any:
    """Where the deal stands (``None`` once it is over)."""
    d = _deal(base, tid)
    return None if d is None else (d["actor"], d["round_number"], d["turned"], d["cards_in_deck"])


def _has_card(base: str, tid: str, seat: int, card: str) -> bool:
    d = _deal(base, tid)
    return d is not None and any(e["seat"] == seat and card in e["cards"] for e in d["seats"])


def _pick(host: Any, card: str) -> None:
    """The host's card picker: the rank, then the suit."""
    host.click(f"#rank-{card[0]}")
    host.wait_for_selector(f"#suit-{card[1]}:not([disabled])")
    host.click(f"#suit-{card[1]}")


def _type(host: Any, text: str) -> None:
    host.fill("#card-text", text)
    host.click("#card-enter")


def test_foak14_a_four_player_assisted_deal_entered_by_the_host_to_the_split(browser: Any, base_url: str) -> None:
    host_ctx = browser.new_context(**PHONE)
    host = host_ctx.new_page()
    errors = watch_errors(host)
    host.on("dialog", lambda d: d.accept())  # the card that ends the deal asks first
    host.goto(base_url + "/")
    host.fill("#host_name", "Rob")
    host.check("input[name=game][value=kind]")
    assert host.input_value("input[name=bots]") == "3"
    host.check("#dealing")
    assert host.input_value("input[name=bots]") == "0"  # real cards: the players are people
    host.click("#create-btn")
    host.wait_for_url(re.compile(r".*/t/[a-z0-9]{8}$"))
    tid, link = table_id(host), host.input_value("#share-link")
    host.wait_for_selector("#table-rules:has-text('real cards, entered by the host')")
    phones = {name: join_on_a_phone(browser, host, link, name, errors) for name in ("Ann", "Ben")}
    host.fill("#seat-name", "Cat")  # no phone: the host seats her and enters her moves
    host.click("#seat-add")
    wait_until(host, "document.querySelectorAll('#players li').length === 4")
    ann, ben = phones["Ann"], phones["Ben"]
    host.click("#host-deal")
    host.wait_for_selector("#card-entry")
    assert host.inner_text("#card-entry-title") == "Enter the card dealt to Ann"
    assert ann.locator("#card-entry").count() == 0  # only the host enters cards
    ann.wait_for_selector("#ref-next")
    assert "dealt to Ann" in ann.inner_text("#ref-next")
    # the first deal: Ann 9\u2663 with the picker
    _pick(host, "9c")
    until(lambda: _has_card(base_url, tid, 2, "9c"), "Ann's 9c")
    # a card already seen is refused, named, and nothing changes
    host.wait_for_selector("#card-entry-title:has-text('dealt to Ben')")
    before = _deal(base_url, tid)
    _type(host, "9c")
    host.wait_for_selector("#card-error:not([hidden])")  # next to the entry box (issue 21 item 9)
    assert "9\u2663 has already been seen: it is Ann's card" in host.inner_text("#card-error")
    assert _deal(base_url, tid) == before
    # Ben's 9\u2665 duplicates Ann's rank: it goes back and Ben gets a new card - every phone says why
    host.click("#rank-9")
    assert host.is_disabled("#suit-c") and host.get_attribute("#rank-9", "aria-pressed") == "true"
    host.click("#suit-h")
    for page in (host, ann, ben):
        page.wait_for_selector("#ref-redeal")
        assert "Ben's 9\u2665 has the rank of Ann's card" in page.inner_text("#ref-redeal")
    assert host.inner_text("#card-entry-title") == "Enter the card dealt to Ben"
    assert axe_violations(host) == [] and axe_violations(ben) == []  # the picker and the referee's view
    shot(host, "kind-real-cards-picker.png")
    _pick(host, "Kd")
    until(lambda: _has_card(base_url, tid, 3, "Kd"), "Ben's Kd")
    host.wait_for_selector("#card-entry-title:has-text('dealt to Cat')")
    _type(host, "Qc")
    until(lambda: _has_card(base_url, tid, 4, "Qc"), "Cat's Qc")
    # a mistyped card (it even opened the betting) is taken back
    host.wait_for_selector("#card-entry-title:has-text('dealt to Rob')")
    _type(host, "2s")
    until(lambda: (_deal(base_url, tid) or {}).get("actor") == 3, "Ben to act")
    host.click("#take-back")
    host.wait_for_selector("#card-entry-title:has-text('dealt to Rob')")
    assert "The host takes back 2\u2660 (dealt to Rob)" in host.inner_text("#log")
    assert not _has_card(base_url, tid, 1, "2s")
    _type(host, "10h")
    until(lambda: _has_card(base_url, tid, 1, "Th"), "Rob's 10h")
    # betting: Ann and Ben on their phones, Cat through the host, the host for himself;
    # the host turns the cards; the referee's view on the phones
    turned = iter(["2c", "9d", "Kh", "9h", "9s"])
    saw_odds = saw_turn = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        d = _deal(base_url, tid)
        if d is None:
            break
        actor = d["actor"]
        before = _sig(base_url, tid)
        if actor is None:
            card = next(turned)
            _type(host, card)
            until(lambda b=before: _sig(base_url, tid) != b, f"the turned {card}")
            continue
        if not saw_turn:
            ann.wait_for_selector("#ref-turn")
            assert re.search(r"to act: check, bet 5\u201310 \u00b7 3 raises left", ann.inner_text("#ref-turn"))
            assert ann.locator("#unseen li").count() == 13
            saw_turn = True
        if d["phase"] == "betting" and d["round_number"] > 1 and not saw_odds:
            ben.wait_for_selector(".seat .odds")
            saw_odds = True
        page, button = {2: (ann, "#act-check, #act-call"), 3: (ben, "#act-check, #act-call"),
                        4: (host, "#for-check, #for-call"), 1: (host, "#act-check, #act-call")}[actor]
        page.locator(button).first.click()
        until(lambda b=before: _sig(base_url, tid) != b, "the move")
    else:
        raise AssertionError("the deal did not reach the split")
    assert saw_odds and saw_turn
    for page in (host, ann, ben):
        page.wait_for_selector("#split")
    split = host.inner_text("#split")
    assert "Ann takes 10 (high)" in split and "Rob takes 10 (low)" in split, split  # four nines; the ten low
    assert ann.inner_text("#split") == split
    wait_until(host, "document.querySelector('#player-1 .balance').textContent === '1,005'")  # thousands separated (issue 29)
    balances = [chips_of(x) for x in host.locator("#players .balance").all_inner_texts()]
    assert balances == [1005, 1005, 995, 995]
    assert "(entered by the host)" in host.inner_text("#log")
    # stored like any other deal: the history page replays it
    r = httpx.post(f"{base_url}/api/tables/{tid}/cards/take-back", headers={"X-Seat-Token": host_token(host)})
    assert r.status_code == 409
    host.goto(f"{base_url}/t/{tid}/history")
    host.click("#deal-1 button[data-deal]")
    host.wait_for_selector("#replay:not([hidden])")
    host.click("#step-last")
    assert "completes four of a kind" in host.inner_text("#replay-log")
    assert errors == []
    for ctx in (host_ctx, ann.context, ben.context):
        ctx.close()
