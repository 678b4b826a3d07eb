"""The Four Card Poker payout checker's API, ``POST /api/poker/settle`` (issue 15, item 3).

It answers exactly what ``fourcards poker settle --json`` prints (one function,
:func:`fourcards.poker.payout.check_payout`, behind both), under a rules preset or a
table's rules (pay tables and win cap included). Bad input is a 422 naming the
input at fault (``field``) with a clear ``detail``; nothing is settled.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK
from fourcards.cli import main
from fourcards.poker.rules import PRESETS
from fourcards.web import create_app
from webhelpers import create

SEED002_THREE_NINES = {"player": "9♥ 9♦ 9♠ K♣ 3♦", "dealer": "Q♦ Q♠ 8♣ 8♥ 4♠ 2♦", "up": "Q♦"}
SEED002_TIE = {"player": "A♥ K♠ 8♦ 5♣ 2♥", "dealer": "A♦ K♣ 8♠ 5♥ 3♣ 2♠"}
#: docs/rules.md FCP-7's worked example under the online rules (seed 004)
FCP7_QUADS = {"player": "5c 5d 5h 5s 2c", "dealer": "9c 9d 9h 9s Kd 3c", "up": "Kd"}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One started app on SQLite for the whole module (the checker stores nothing)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('checker') / 'checker.db'}"
    with TestClient(create_app(url, bot_delay=0)) as c:
        yield c


def settle(api: TestClient, **body: Any) -> Any:
    return api.post("/api/poker/settle", json=body)


def cli_settle(**body: Any) -> tuple[int, Any]:
    """``fourcards poker settle --json`` on the same input: (exit status, JSON or the error line)."""
    argv = ["poker", "settle", "--player", body["player"], "--dealer", body["dealer"], "--ante", str(body["ante"]),
            "--aces-up", str(body.get("aces_up", 0)), "--rules", body.get("rules", "live"), "--json"]
    if body.get("up") is not None:
        argv += ["--up", body["up"]]
    if body.get("play") is not None:
        argv += ["--play", str(body["play"])]
    if body.get("fold"):
        argv.append("--fold")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exc:
        main(argv)
    code = exc.value.code or 0
    return code, json.loads(out.getvalue()) if code == 0 else err.getvalue()


# ------------------------------------------------------------------ good input


def test_seed002_art4_worked_example_three_of_a_kind_3x_play_wins_60(api: TestClient) -> None:
    r = settle(api, **SEED002_THREE_NINES, ante=10, play=30)
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["player_hand"] == {"category": "three_of_a_kind", "description": "three of a kind, nines",
                                "cards": ["9s", "9h", "9d", "Kc"]}
    assert d["dealer_hand"] == {"category": "two_pair", "description": "two pair, queens and eights",
                                "cards": ["Qs", "Qd", "8h", "8c"]}
    assert d["wagers"] == {"ante": 10, "play": 30, "ante_bonus": 20, "aces_up": 0}
    assert (d["outcome"], d["win_cap_adjustment"], d["net"], d["rules"]) == ("win", 0, 60, "live")


def test_seed002_art4_tie_goes_to_the_player(api: TestClient) -> None:
    d = settle(api, **SEED002_TIE, ante=10, play=20).json()
    assert d["outcome"] == "win" and d["wagers"] == {"ante": 10, "play": 20, "ante_bonus": 0, "aces_up": 0}
    assert d["player_hand"]["cards"] == ["Ah", "Ks", "8d", "5c"] and d["dealer_hand"]["cards"] == ["Ad", "Kc", "8s", "5h"]


def test_seed002_art6_aces_up_alone_without_an_ante(api: TestClient) -> None:
    d = settle(api, player="Ah Ad Ac 4c 7s", dealer="Qd Qs 8c 9c Js 3c", ante=0, aces_up=5).json()
    assert (d["decision"], d["wagers"]["aces_up"], d["net"]) == ("none", 40, 40)


def test_seed004_fcp7_win_cap_caps_the_wins_under_the_online_rules(api: TestClient) -> None:
    d = settle(api, **FCP7_QUADS, ante=200, play=600, aces_up=100, rules="online").json()
    assert d["wagers"] == {"ante": -200, "play": -600, "ante_bonus": 5_000, "aces_up": 5_000}
    assert (d["win_cap_adjustment"], d["net"], d["rules"]) == (-1_600, 7_600, "online")
    live = settle(api, **FCP7_QUADS, ante=200, play=600, aces_up=100).json()
    assert (live["win_cap_adjustment"], live["net"]) == (0, 200 * 25 + 100 * 50 - 800)


def test_fcp12_a_tables_rules_pay_tables_and_win_cap_included(api: TestClient) -> None:
    t = create(api, "poker", preset="online", rules={"aces_up": "50/40/7/5/4/3/1", "win_cap": 1_000})
    tid = t["table"]["id"]
    d = settle(api, **FCP7_QUADS, ante=10, play=30, aces_up=10, table=tid).json()
    # ante bonus 25 to 1 on 10, Aces Up 50 to 1 on 10: 750 won, under the table's cap
    assert d["wagers"] == {"ante": -10, "play": -30, "ante_bonus": 250, "aces_up": 500}
    assert d["win_cap_adjustment"] == 0 and d["rules"] == "online+custom"
    d = settle(api, player="Ah Ad Ac 4c 7s", dealer="Qd Qs 8c 9c Js 3c", ante=100, play=300, aces_up=100,
               table=tid).json()
    # trips: ante bonus 2 to 1 = 200, Aces Up 7 to 1 (the table's, not the preset's 7) = 700, ante+play 400
    assert d["wagers"] == {"ante": 100, "play": 300, "ante_bonus": 200, "aces_up": 700}
    assert (d["win_cap_adjustment"], d["net"]) == (1_000 - 1_300, 1_000)
    assert api.get(f"/t/{tid}/checker").status_code == 200


# ------------------------------------------------------------------- bad input

GOOD = {**SEED002_THREE_NINES, "ante": 10, "play": 30}


@pytest.mark.parametrize("change, field, message", [
    ({"player": "9h 9d 9s Kc 3x"}, "player", "the player's cards: malformed card '3x'"),
    ({"player": "9h 9d 9s Kc"}, "player", "expected 5 cards, got 4"),
    ({"player": "9h 9d 9s Kc 9h"}, "player", "duplicate card '9h'"),
    ({"dealer": "9h Qs 8c 8h 4s 2d"}, "dealer", "the dealer's cards: duplicate card 9h"),
    ({"dealer": "Qd Qs 8c 8h 4s"}, "dealer", "expected 6 cards, got 5"),
    ({"up": "Ah"}, "up", "the up card 'Ah' is not one of the dealer's six cards"),
    ({"up": "Q"}, "up", "malformed card 'Q'"),
    ({"play": 40}, "play", "play bet 40 is not allowed on an ante of 10: the play bet must be any whole amount "
                           "from 10 to 30"),
    ({"play": 20, "rules": "online"}, "play", "the play bet must be 10 or 30"),
    ({"play": None}, "play", "give exactly one of a play bet or a fold"),
    ({"fold": True}, "play", "give exactly one of a play bet or a fold"),
    ({"ante": 0}, "ante", "place an ante, an Aces Up bet, or both"),
    ({"ante": 0, "aces_up": 5}, "play", "without an ante there is no play bet and no fold"),
    ({"ante": 0, "play": None, "aces_up": 5, "rules": "online"}, "aces_up",
     "under the online rules the Aces Up bet needs an ante"),
    ({"rules": "vegas"}, "rules", "unknown rules preset 'vegas'"),
    ({"rules": "live", "table": "abcdefgh"}, "rules", "a rules preset or a table, not both"),
])
def test_seed002_bad_input_422_naming_the_field_nothing_settled(api: TestClient, change: dict[str, Any], field: str,
                                                              message: str) -> None:
    r = settle(api, **{**GOOD, **change})
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field and message in r.json()["detail"], r.json()
    assert set(r.json()) == {"detail", "field"}


@pytest.mark.parametrize("change, message", [
    ({"ante": 1_000_001}, "ante: Input should be less than or equal to 1000000"),
    ({"play": 3_000_001}, "play: Input should be less than or equal to 3000000"),
    ({"aces_up": -1}, "aces_up: Input should be greater than or equal to 0"),
    ({"ante": "10"}, "ante: Input should be a valid integer"),
    ({"ante": 10.0}, "ante: Input should be a valid integer"),
    ({"fold": "yes"}, "fold: Input should be a valid boolean"),
    ({"player": "9h " * 40}, "player: String should have at most 100 characters"),
    ({"cards": "9h"}, "cards: Extra inputs are not permitted"),
])
def test_inputs_bounded_strict_422(api: TestClient, change: dict[str, Any], message: str) -> None:
    r = settle(api, **{**GOOD, **change})
    assert r.status_code == 422 and message in r.json()["detail"], r.text


def test_a_four_of_a_kind_table_has_no_payout_checker(api: TestClient) -> None:
    tid = create(api, "kind", bots=3)["table"]["id"]
    r = settle(api, **GOOD, table=tid)
    assert r.status_code == 422 and r.json()["field"] == "table" and "Four Card Poker" in r.json()["detail"]
    assert api.get(f"/t/{tid}/checker").status_code == 404
    r = settle(api, **GOOD, table="nosuchtb")
    assert r.status_code == 404 and "unknown table 'nosuchtb'" in r.json()["detail"]


# ----------------------------------------------------- the CLI and the API agree


@st.composite
def settlements(draw: st.DrawFn) -> dict[str, Any]:
    """Any deal and wagers, legal or not: eleven distinct cards, an up card among the six
    (or not), an ante, a play bet from the legal ones (or any), a fold, an Aces Up bet."""
    cards = draw(st.permutations(FULL_DECK).map(lambda d: [str(c) for c in d[:12]]))
    rules = draw(st.sampled_from(sorted(PRESETS)))
    ante = draw(st.sampled_from([0, 1, 5, 10, 25, 200, 1000]))
    body: dict[str, Any] = {"player": " ".join(cards[:5]), "dealer": " ".join(cards[5:11]), "ante": ante,
                            "aces_up": draw(st.sampled_from([0, 0, 1, 5, 100])), "rules": rules}
    body["up"] = draw(st.sampled_from([None, cards[5], cards[10], cards[11]]))
    decision = draw(st.sampled_from(["play", "play", "fold", "none", "any"]))
    if decision == "play":
        body["play"] = draw(st.sampled_from(list(PRESETS[rules].play_amounts(ante)) or [0]))
    elif decision == "fold":
        body["fold"] = True
    elif decision == "any":
        body["play"] = draw(st.integers(0, 3000))
        body["fold"] = draw(st.booleans())
    return body


@settings(max_examples=150, deadline=None)
@given(body=settlements())
def test_issue15_cli_and_api_agree_on_every_hand(api: TestClient, body: dict[str, Any]) -> None:
    """Same JSON on success; both refuse the same input."""
    code, cli = cli_settle(**body)
    r = settle(api, **body)
    assert (code == 0) == (r.status_code == 200), (cli, r.text)
    if code == 0:
        assert r.json() == cli
    else:
        assert code == 2 and r.status_code == 422
