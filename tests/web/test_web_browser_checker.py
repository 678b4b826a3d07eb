"""The payout checker in real headless Chromium (issue 15, "Browser test of the payout checker
on the seed 002 worked examples"): a dealer on a phone enters each worked example of seed
002 (OPR-803) as printed - suit symbols and all - and every result the page shows is
checked: each wager's line, both best four-card hands card by card and by name, the net.
Bad input is shown next to the input at fault, with nothing computed; the page is
axe-core clean in every state. A table's checker uses that table's rules (seed 004's win cap).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browsing import PHONE, axe_violations, shot, watch_errors

pytestmark = pytest.mark.browser


def enter(page: Any, player: str, dealer: str, *, up: str = "", ante: int = 10, decision: str = "play",
          play: int | None = None, aces_up: int = 0) -> None:
    """Fill the form as a dealer would and press the button."""
    page.fill("#player", player)
    page.fill("#dealer", dealer)
    page.fill("#up", up)
    page.fill("#ante", str(ante))
    page.fill("#aces_up", str(aces_up))
    page.check(f"input[name=decision][value={decision}]")
    if play is not None:
        page.fill("#play", str(play))
    page.click("#check-btn")


def lines(page: Any) -> dict[str, tuple[int, str]]:
    """The result table as shown: line -> (chips, result words)."""
    page.wait_for_selector("#result:not([hidden]) #payout")
    out = {}
    for row in page.locator("#payout tr[data-line]").all():
        out[row.get_attribute("data-line")] = (int(row.get_attribute("data-chips")), row.get_attribute("data-result"))
    return out


def best(page: Any, who: str) -> tuple[list[str], str]:
    """A best four-card hand as shown: its cards (``"9s"``) in order and its name."""
    box = page.locator(f"#{who}-best")
    return ([c.get_attribute("data-card") for c in box.locator(".card").all()],
            box.locator(".hand-name").inner_text())


def check_clean(page: Any, errors: list[str]) -> None:
    assert axe_violations(page) == []
    assert errors == []


def test_seed002_worked_examples_on_a_phone(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(base_url + "/")
    page.click("#checker-link")
    page.wait_for_url("**/poker/checker")
    # the rules in words for people (issue 21 item 9), not the rule book's citation
    assert page.locator("#rules option:checked").inner_text() == "Casino rules: play 1x\u20133x"
    assert "ante bonus 25/20/2, Aces Up 50/40/8/5/4/3/1" in page.locator("#rules-summary").inner_text()
    check_clean(page, errors)

    # Article 4, "Three of a kind with a 3x play bet": ante 10, play 30 -> +10, +30, ante bonus 2 to 1 (+20): 60
    enter(page, "9♥ 9♦ 9♠ K♣ 3♦", "Q♦ Q♠ 8♣ 8♥ 4♠ 2♦", up="Q♦", ante=10, play=30)
    assert lines(page) == {"ante": (10, "win"), "play": (30, "win"), "ante_bonus": (20, "paid 2 to 1"),
                           "aces_up": (0, "no bet"), "net": (60, None)}
    assert best(page, "player") == (["9s", "9h", "9d", "Kc"], "three of a kind, nines")
    assert best(page, "dealer") == (["Qs", "Qd", "8h", "8c"], "two pair, queens and eights")
    assert page.locator("#dealer-best .card.up").get_attribute("data-card") == "Qd"  # the up card is marked
    assert page.locator("#net").inner_text() == "+60"
    assert "wins 60" in page.locator("#payout tfoot").inner_text()
    assert "beats the dealer's" in page.locator("#outcome").inner_text()
    shot(page, "checker-seed002.png")
    check_clean(page, errors)

    # Article 4, "A tie goes to the player": both A-K-8-5; the ante and the play bet win even money
    enter(page, "A♥ K♠ 8♦ 5♣ 2♥", "A♦ K♣ 8♠ 5♥ 3♣ 2♠", ante=10, play=20)
    assert lines(page) == {"ante": (10, "win"), "play": (20, "win"), "ante_bonus": (0, "not paid"),
                           "aces_up": (0, "no bet"), "net": (30, None)}
    assert page.locator("#net").inner_text() == "+30"
    assert page.locator("#outcome").inner_text().startswith("A tie: ")  # the checker says so (issue 21 item 9)
    assert "win (a tie: the player's)" in page.locator("#payout tr[data-line=play]").inner_text()
    assert best(page, "player") == (["Ah", "Ks", "8d", "5c"], "high card, ace high")
    assert best(page, "dealer") == (["Ad", "Kc", "8s", "5h"], "high card, ace high")
    check_clean(page, errors)
    ctx.close()


def test_seed002_3_1_a_fold_and_art6_aces_up_with_text_cards(browser: Any, base_url: str) -> None:
    """§3.1(a): a fold loses the ante (no ante bonus); Article 6: Aces Up is settled on the player's
    hand alone, 8 to 1 for three of a kind; cards typed as "10h", "Th", "T♥"."""
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(base_url + "/poker/checker")
    enter(page, "Ah, Ad, Ac, 10h, 2d", "Ks Kd Kc Kh Td 3c", up="kh", ante=25, decision="fold", aces_up=5)
    shown = lines(page)
    assert shown["ante"] == (-25, "lose (fold)") and shown["play"] == (0, "no bet")
    assert shown["ante_bonus"] == (0, "not paid (fold)") and shown["aces_up"] == (40, "win, 8 to 1")
    assert shown["net"][0] == 15
    assert best(page, "player") == (["Ah", "Ad", "Ac", "Th"], "three of a kind, aces")
    assert best(page, "dealer") == (["Ks", "Kh", "Kd", "Kc"], "four of a kind, kings")
    assert page.locator("#dealer-best .card.up").get_attribute("data-card") == "Kh"  # typed "kh"
    check_clean(page, errors)
    page.close()


@pytest.mark.parametrize("fields, field, message", [
    ({"player": "9h 9d 9s Kc 3x"}, "player", "malformed card '3x'"),
    ({"dealer": "9h Qs 8c 8h 4s 2d"}, "dealer", "duplicate card 9h"),
    ({"up": "Ah"}, "up", "the up card 'Ah' is not one of the dealer's six cards"),
    ({"play": 40}, "play", "play bet 40 is not allowed on an ante of 10"),
    ({"ante": "2.5"}, "ante", "the ante must be a whole number of chips"),
])
def test_seed002_bad_input_shown_next_to_the_field_nothing_computed(browser: Any, base_url: str,
                                                                     fields: dict[str, Any], field: str,
                                                                     message: str) -> None:
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(base_url + "/poker/checker")
    good: dict[str, Any] = {"player": "9h 9d 9s Kc 3d", "dealer": "Qd Qs 8c 8h 4s 2d", "up": "Qd", "ante": 10,
                            "play": 30}
    good.update(fields)
    enter(page, good["player"], good["dealer"], up=good["up"], ante=good["ante"], play=good["play"])
    page.wait_for_selector(f"#{field}-error:not([hidden])")
    assert message in page.locator(f"#{field}-error").inner_text()
    assert message in page.locator("#checker-error").inner_text()
    assert page.locator(f"#{field}").get_attribute("aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == field
    assert page.locator("#result").is_hidden()
    check_clean(page, errors)
    # corrected, the error goes and the result comes
    enter(page, "9h 9d 9s Kc 3d", "Qd Qs 8c 8h 4s 2d", up="Qd", ante=10, play=30)
    assert lines(page)["net"][0] == 60
    assert page.locator(f"#{field}-error").is_hidden() and page.locator(f"#{field}").get_attribute("aria-invalid") is None
    page.close()


def test_seed004_win_cap_on_an_online_tables_checker(browser: Any, base_url: str) -> None:
    """FCP-7 (seed 004): the win cap withholds what the wins exceed, shown as its own line."""
    r = httpx.post(base_url + "/api/tables", json={"game": "poker", "preset": "online", "host_name": "Rob"})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{base_url}/t/{tid}")
    page.click("#checker-link")
    page.wait_for_url(f"**/t/{tid}/checker")
    assert page.locator("#rules").count() == 0 and "win cap 8,400 chips" in page.locator("#rules-summary").inner_text()
    enter(page, "5c 5d 5h 5s 2c", "9c 9d 9h 9s Kd 3c", up="Kd", ante=200, play=600, aces_up=100)
    shown = lines(page)
    assert shown["ante"] == (-200, "lose") and shown["play"] == (-600, "lose")
    assert shown["ante_bonus"] == (5000, "paid 25 to 1") and shown["aces_up"] == (5000, "win, 50 to 1")
    assert shown["win_cap"] == (-1600, "wins 10,000 capped at 8,400")
    assert shown["net"][0] == 7600 and page.locator("#net").inner_text() == "+7,600"
    check_clean(page, errors)
    ctx.close()
