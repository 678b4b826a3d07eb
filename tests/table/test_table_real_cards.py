"""Real cards at a Four of a Kind table (docs/rules.md FOAK-14 to FOAK-16), moved from tests/web
(issue 28): the host enters the cards dealt and turned, takes back a mistyped one, enters a
person's move; every refusal changes nothing - asked for as the web's routes are, on a server's
execution path over an in-memory store without HTTP (tests/table/localclient.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from localclient import LocalClient as TestClient

from webhelpers import REAL_CARDS_GUESTS as NAMES
from webhelpers import comparable, create, post, sit, state
from webhelpers import enter_cards as cards
from webhelpers import real_cards_table as assisted


def views(client: TestClient, tid: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [comparable(state(client, tid, tok)) for tok in [*tokens, None]]


def refused(client: TestClient, tid: str, tokens: list[str], token: str | None, text: str, status: int,
            *words: str) -> str:
    """POST the cards, expect ``status`` with a detail naming ``words``; every view unchanged."""
    before = views(client, tid, tokens)
    r = cards(client, tid, token, text)
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert all(w in detail for w in words), detail
    assert views(client, tid, tokens) == before
    return str(detail)


def test_foak14_table_dealing_is_a_kind_option_defaulting_to_the_deck(client: TestClient) -> None:
    deck = client.post("/api/tables", json={"game": "kind", "host_name": "Rob"}).json()
    settings = deck["table"]["settings"]
    assert settings["dealing"] == "deck" and settings["turn_clock"] == 30 and deck["table"]["players"] == 4
    real = client.post("/api/tables", json={"game": "kind", "host_name": "Rob", "dealing": "table"}).json()
    settings = real["table"]["settings"]  # people at a real table: no bots, no clock, unless asked for
    assert settings["dealing"] == "table" and settings["turn_clock"] == 0 and real["table"]["players"] == 1
    assert state(client, real["table"]["id"], real["token"])["dealing"] == "table"
    r = client.post("/api/tables", json={"game": "poker", "host_name": "Rob", "dealing": "table"})
    assert r.status_code == 422 and "Four of a Kind tables only" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "kind", "host_name": "Rob", "dealing": "shoe"})
    assert r.status_code == 422 and "dealing" in r.json()["detail"]


def test_foak14_cards_api_good_and_bad_input_clear_4xx_and_state_unchanged(client: TestClient) -> None:
    tid, host, guests = assisted(client)
    tokens = [host, *guests.values()]
    s = state(client, tid, host)
    assert s["deal"]["phase"] == "deal" and s["deal"]["seats"][1]["cards"] == []  # the server never shuffles
    assert s["deal"]["next_card"] == {"step": "deal", "seat": 2, "name": "Ann", "redeal": [], "why": None}
    # bad card text: 422 naming the token
    refused(client, tid, tokens, host, "9x", 422, "cards:", "'9x'")
    refused(client, tid, tokens, host, "9c 1h", 422, "'1h'")
    r = cards(client, tid, host, "")
    assert r.status_code == 422 and "cards" in r.json()["detail"]
    # not the host: 403; no token: 401
    refused(client, tid, tokens, guests["Ann"], "9c", 403, "host")
    refused(client, tid, tokens, None, "9c", 401, "token")
    # good input: the view says who the next card goes to
    r = cards(client, tid, host, "9c")
    assert r.status_code == 200, r.text
    deal = r.json()["deal"]
    assert deal["seats"][1]["cards"] == ["9c"] and deal["next_card"]["name"] == "Ben"
    assert deal["deal_queue"] == [3, 4, 1]  # table seats, as everywhere in the view (TP-1)
    assert deal["take_back"] == {"card": "9c", "step": "deal", "seat": 2, "name": "Ann"}
    # a card already seen: 409 naming the card and where it lies
    refused(client, tid, tokens, host, "9\u2663", 409, "9\u2663 has already been seen", "Ann's card")
    # a whole batch is refused when one card is (nothing entered)
    refused(client, tid, tokens, host, "Kd, 9c", 409, "After K\u2666, 9\u2663 has already been seen",
            "none of the cards was entered")
    # several cards at once, "10h" and "T\u2660" alike
    r = cards(client, tid, host, "Kd, 10h")
    assert r.status_code == 200, r.text
    r = cards(client, tid, host, "2c")
    deal = r.json()["deal"]
    assert deal["next_card"] is None and deal["actor"] == 3  # Ben's king opens the betting (FOAK-4)
    # no card due: a player is to act
    refused(client, tid, tokens, host, "Ts", 409, "no card is due", "Ben is to act")
    # the deck's tables take no cards
    deck = create(client, "kind", bots=3)
    post(client, deck["table"]["id"], "/deal", deck["token"])
    r = cards(client, deck["table"]["id"], deck["token"], "9c")
    assert r.status_code == 409 and "shuffled deck" in r.json()["detail"]
    # no deal in progress
    fresh = create(client, "kind", dealing="table")
    r = cards(client, fresh["table"]["id"], fresh["token"], "9c")
    assert r.status_code == 409 and "no deal is in progress" in r.json()["detail"]


def test_foak2_the_view_names_who_gets_a_new_card_and_why(client: TestClient) -> None:
    tid, host, _ = assisted(client)
    r = cards(client, tid, host, "9c 9h")  # Ben's nine pairs Ann's: it goes back, Ben is dealt again
    nxt = r.json()["deal"]["next_card"]
    assert nxt["name"] == "Ben" and nxt["redeal"] == [{"seat": 3, "name": "Ben", "card": "9h"}]
    assert "Ben's 9\u2665 has the rank of Ann's card" in nxt["why"] and "reshuffled" in nxt["why"]
    assert nxt["why"].endswith("Ben gets a new card")  # no "(seed 000)" reaches the players (issue 21 item 9)
    assert "9\u2665 duplicates a rank" in " ".join(r.json()["log"])
    r = cards(client, tid, host, "9h")  # the returned card is back in the deck: it may come again
    assert r.status_code == 200 and r.json()["deal"]["next_card"]["redeal"]
    r = cards(client, tid, host, "Kd")
    assert r.json()["deal"]["next_card"] == {"step": "deal", "seat": 4, "name": "Cat", "redeal": [], "why": None}
    # seed 001's variant: every holder of a duplicated rank gets a new card, in turn
    tid, host, _ = assisted(client, preset="opr903")
    nxt = cards(client, tid, host, "9c 9h Kd Qc").json()["deal"]["next_card"]
    assert [x["name"] for x in nxt["redeal"]] == ["Ann", "Ben"] and nxt["name"] == "Ann"
    assert "Ann and Ben held a duplicated rank" in nxt["why"] and "each gets a new card, in turn" in nxt["why"]
    assert "seed" not in nxt["why"]  # words for people, no rule-book citation (issue 21 item 9)
    nxt = cards(client, tid, host, "2c").json()["deal"]["next_card"]
    assert [x["name"] for x in nxt["redeal"]] == ["Ben"] and nxt["name"] == "Ben"


def test_foak15_the_host_takes_back_a_mistyped_card_until_the_next_action(client: TestClient) -> None:
    tid, host, guests = assisted(client)
    tokens = [host, *guests.values()]
    cards(client, tid, host, "9c Kd Qc")
    before = views(client, tid, tokens)
    r = cards(client, tid, host, "Js")  # the last card: it opens the betting
    assert r.json()["deal"]["actor"] == 3
    r = post(client, tid, "/cards/take-back", guests["Ann"])
    assert r.status_code == 403
    r = post(client, tid, "/cards/take-back", host)
    assert r.status_code == 200, r.text
    assert r.json()["log"][-1] == "The host takes back J\u2660 (dealt to Rob)"
    after = views(client, tid, tokens)
    for b, a in zip(before, after):  # the deal is as it was before the card; only the log grew
        assert {k: v for k, v in a.items() if k != "log"} == {k: v for k, v in b.items() if k != "log"}
    r = cards(client, tid, host, "Jh")
    assert r.status_code == 200 and r.json()["deal"]["seats"][0]["cards"] == ["Jh"]
    r = post(client, tid, "/actions", guests["Ben"], {"kind": "check"})
    assert r.status_code == 200, r.text
    before = views(client, tid, tokens)
    r = post(client, tid, "/cards/take-back", host)
    assert r.status_code == 409 and "Ben has acted since J\u2665" in r.json()["detail"]
    assert views(client, tid, tokens) == before
    deck = create(client, "kind", bots=3)
    post(client, deck["table"]["id"], "/deal", deck["token"])
    r = post(client, deck["table"]["id"], "/cards/take-back", deck["token"])
    assert r.status_code == 409 and "shuffled deck" in r.json()["detail"]


def test_foak16_the_host_enters_a_players_move(client: TestClient) -> None:
    tid, host, guests = assisted(client)
    cards(client, tid, host, "9c Kd Qc Jh")  # Ben (seat 3) opens
    tokens = [host, *guests.values()]
    before = views(client, tid, tokens)
    r = post(client, tid, "/seats/4/actions", host, {"kind": "check"})  # Cat: out of turn
    assert r.status_code == 409 and "not Cat's turn: Ben is to act" in r.json()["detail"]
    r = post(client, tid, "/seats/3/actions", guests["Ann"], {"kind": "check"})
    assert r.status_code == 403
    assert views(client, tid, tokens) == before
    r = post(client, tid, "/seats/3/actions", host, {"kind": "bet", "amount": 5})
    assert r.status_code == 200, r.text
    assert "Ben bets 5 (entered by the host)" in r.json()["log"][-2:]  # the move and its note on one line
    assert r.json()["deal"]["actor"] == 4
    deck = create(client, "kind", bots=2)
    guest = sit(client, deck["table"]["id"], "Ann")
    post(client, deck["table"]["id"], "/deal", deck["token"])
    r = post(client, deck["table"]["id"], f"/seats/{guest['seat']}/actions", deck["token"], {"kind": "check"})
    assert r.status_code == 409 and "real cards" in r.json()["detail"]


def test_foak14_the_referee_view_on_every_phone(client: TestClient) -> None:
    tid, host, guests = assisted(client)
    s = cards(client, tid, host, "9c Kd Qc Jh").json()
    deal = s["deal"]
    assert deal["unseen"]["9"] == 3 and deal["unseen"]["A"] == 4 and list(deal["unseen"])[0] == "A"
    assert deal["raises_left"] == 3
    spectator = state(client, tid)["deal"]  # everyone sees the actor's options, not only the actor
    assert spectator["actor_actions"] == [{"kind": "check", "min_amount": 0, "max_amount": 0, "all_in": False},
                                          {"kind": "bet", "min_amount": 5, "max_amount": 10, "all_in": False}]
    post(client, tid, "/actions", guests["Ben"], {"kind": "bet", "amount": 5})
    post(client, tid, "/actions", guests["Cat"], {"kind": "raise", "amount": 5})
    assert state(client, tid)["deal"]["raises_left"] == 2
    for who in ("Rob", "Ann", "Ben"):
        post(client, tid, "/actions", host if who == "Rob" else guests[who], {"kind": "call"})
    deal = state(client, tid)["deal"]
    assert deal["next_card"]["step"] == "turn" and deal["next_card"]["completes"] == []
    for card in ("9d", "9h"):
        cards(client, tid, host, card)
        while (d := state(client, tid)["deal"])["actor"] is not None:
            actor = d["actor"]
            post(client, tid, "/actions", host if actor == 1 else guests[NAMES[actor - 2]], {"kind": "check"})
    assert state(client, tid)["deal"]["next_card"]["completes"] == [{"seat": 2, "name": "Ann", "rank": "9"}]


def test_foak14_an_assisted_deal_runs_to_the_split_and_is_stored_like_any_other(client: TestClient) -> None:
    tid, host, guests = assisted(client)
    token = {1: host, **{i + 2: guests[n] for i, n in enumerate(NAMES)}}
    cards(client, tid, host, "9c Kd Qc Jh")
    turned = iter(["2c", "9d", "Kh", "9h", "9s"])
    for _ in range(200):
        d = state(client, tid, host)["deal"]
        if d is None:
            break
        if d["actor"] is None:
            r = cards(client, tid, host, next(turned))
        else:
            me = state(client, tid, token[d["actor"]])
            move = {"kind": "check"} if any(a["kind"] == "check" for a in me["actions"]) else {"kind": "call"}
            r = post(client, tid, "/actions", token[d["actor"]], move)
        assert r.status_code == 200, r.text
    last = state(client, tid, host)["last"]
    assert last["awards"] and {a["name"] for a in last["awards"]} == {"Ann", "Rob"}  # nines high, the jack low
    balances = [p["balance"] for p in state(client, tid)["players"]]
    assert sum(balances) == 4000 and balances[1] > 1000 and balances[0] > 1000
    r = post(client, tid, "/cards/take-back", host)
    assert r.status_code == 409
    deal = client.get(f"/api/tables/{tid}/deals/1").json()
    assert [r["card"] for r in deal["history"] if r["op"] in ("deal", "turn")] == \
        ["9c", "Kd", "Qc", "Jh", "2c", "9d", "Kh", "9h", "9s"]
    replay = client.get(f"/api/tables/{tid}/deals/1/replay")
    assert replay.status_code == 200 and replay.json()["steps"]
    led = client.get(f"/api/tables/{tid}/ledger").json()
    assert led["audit"] == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


@pytest.mark.parametrize("text", ["10h", "T\u2665", "th", " 10H ", "t\u2661"])
def test_foak14_card_text_forms(client: TestClient, text: str) -> None:
    tid, host, _ = assisted(client)
    r = cards(client, tid, host, text)
    assert r.status_code == 200, r.text
    assert r.json()["deal"]["seats"][1]["cards"] == ["Th"]
