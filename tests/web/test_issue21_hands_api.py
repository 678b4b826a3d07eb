"""Issue 21 item 7, hand histories out, on SQLite and PostgreSQL: every finished deal of a table
(and of a club) as documented JSON Lines and as text; what a caller sees follows the engines'
redaction (a folded Four Card Poker hand stays hidden from others); the export round-trips
through each engine's replay to the same results (as PokerKit does with its hand histories)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_issue21_settle_up_api import _poker_round

from fourcards.kind import Game
from fourcards.poker.round import PokerRound
from fourcards.table.export import FORMAT
from fourcards.table.poker import PokerTable
from webhelpers import create, hdr, play_kind_deal, post, sit, state

#: The documented keys of every line (docs/web.md "Hand histories").
KEYS = {"format", "fourcards_version", "table", "number", "word", "status", "void_reason", "started_at", "ended_at", "rules", "players",
        "viewer", "history", "redacted", "returns", "nets", "result", "ledger", "lines"}


def lines(client: TestClient, path: str, token: str | None = None) -> list[dict[str, Any]]:
    r = client.get(path, headers=hdr(token) if token else {})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert r.text.endswith("\n") or r.text == ""
    return [json.loads(line) for line in r.text.splitlines()]


def replayed(line: dict[str, Any]) -> list[int]:
    """The engine's replay of an exported history: each player's returns."""
    if line["table"]["game"] == "kind":
        game = Game.replay(None, line["history"])
    else:
        game = PokerRound.replay(PokerTable.rules_from_dict(line["rules"]), line["history"])
    assert game.is_terminal
    return list(game.returns())


def check_line(line: dict[str, Any]) -> None:
    """A line is documented, conserves chips and - unless redacted - replays to its results."""
    assert set(line) == KEYS and line["format"] == FORMAT
    assert line["status"] in ("settled", "voided")
    nets = {int(k): v for k, v in line["nets"].items()}
    assert all(line["returns"][p] == n for p, n in nets.items())  # the ledger agrees with the engine
    assert sum(e["amount"] for e in line["ledger"]) == 0  # the deal's ledger balances
    if line["table"]["game"] == "poker":
        house = line["result"]["house_net"] if line["status"] == "settled" else 0
        assert house == -sum(line["returns"])
        for seat, entry in (line["result"] or {}).get("seats", {}).items():
            assert entry["net"] == line["returns"][int(seat) - 1]
    elif line["status"] == "settled":
        assert sum(line["returns"]) == 0
        assert sorted(line["result"]["payoffs"].values()) == sorted(line["returns"])
    if not line["redacted"]:
        assert replayed(line) == line["returns"]  # the round trip: the same results


def test_issue21_7_both_games_export_every_finished_deal_and_replay_to_the_same_results(client: TestClient) -> None:
    # Four Card Poker: three rounds (no bot: a bot may fold), one voided by the host, one with a fold
    t = create(client, "poker", bots=0, host_name="Ann")
    tid, ann = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    _poker_round(client, tid, {ann: 10, ben: 20})
    _poker_round(client, tid, {ann: 10, ben: 20}, folds=(ben,))
    for tok in (ann, ben):
        assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", ann).status_code == 200
    assert post(client, tid, "/void", ann, {"reason": "a card was flashed"}).status_code == 200
    assert post(client, tid, "/actions", ann, {"kind": "wager", "ante": 10}).status_code == 200  # round 4 open
    ann_view = lines(client, f"/api/tables/{tid}/hands.jsonl", ann)
    ben_view = lines(client, f"/api/tables/{tid}/hands.jsonl", ben)
    spectator = lines(client, f"/api/tables/{tid}/hands.jsonl")
    assert [x["number"] for x in spectator] == [1, 2, 3]  # the open round is not exported
    assert [x["status"] for x in spectator] == ["settled", "settled", "voided"]
    assert spectator[2]["void_reason"] == "host ruling: a card was flashed"
    for line in ann_view + ben_view + spectator:
        check_line(line)
    # what each caller sees: Ben's folded hand is his own; the others see it hidden
    assert [x["redacted"] for x in ben_view] == [False, False, True]  # a voided round's dealer cards stay hidden
    assert [x["redacted"] for x in ann_view] == [False, True, True]
    assert [x["redacted"] for x in spectator] == [False, True, True]
    ben_seat = state(client, tid, ben)["you"]["seat"]
    deal = next(r for r in spectator[1]["history"] if r["kind"] == "deal")
    hand = next(h for h in deal["hands"] if h["player"] == ben_seat - 1)
    assert hand["cards"] is None
    assert next(h for h in next(r for r in ben_view[1]["history"] if r["kind"] == "deal")["hands"]
                if h["player"] == ben_seat - 1)["cards"] is not None
    assert replayed(ben_view[1]) == ben_view[1]["returns"]
    assert spectator[1]["result"]["seats"][str(ben_seat)]["player_hand"] is None
    assert {p["name"]: p["seat"] for p in spectator[0]["players"]} == {"Ann": 1, "Ben": ben_seat} and ben_seat == 2
    assert spectator[0]["lines"][0] == "Ann bets ante 10"
    # Four of a Kind: two deals with bots; everything is face up at the end, so every export replays
    k = create(client, "kind", bots=2, host_name="Cat")
    kid, cat = k["table"]["id"], k["token"]
    dan = sit(client, kid, "Dan")["token"]
    for _ in range(2):
        assert post(client, kid, "/deal", cat).status_code == 200
        seats = {p["name"]: p["seat"] for p in state(client, kid)["players"]}
        play_kind_deal(client, kid, {seats["Cat"]: cat, seats["Dan"]: dan})
    kind_lines = lines(client, f"/api/tables/{kid}/hands.jsonl")
    assert [x["number"] for x in kind_lines] == [1, 2] and not any(x["redacted"] for x in kind_lines)
    for line in kind_lines:
        check_line(line)
        assert line["history"][0]["op"] == "start" and "seat" not in line["players"][0]
        assert any(a["share"] in ("high", "whole") for a in line["result"]["awards"])
    # the text form: the log's words, who played, the nets
    text = client.get(f"/api/tables/{kid}/hands.txt").text
    assert text.count("Deal 1 \u00b7 Four of a Kind") == 1 and text.count("Deal 2 \u00b7") == 1
    assert "Players: Cat, " in text and "(bot)" in text and "Result: Cat " in text
    assert kind_lines[0]["lines"][0] in text
    ptext = client.get(f"/api/tables/{tid}/hands.txt").text
    assert "Round 2 \u00b7 Four Card Poker" in ptext and "Some cards are not shown to you" in ptext
    assert "; the house " in ptext and "Round 3" in ptext and "voided (host ruling: a card was flashed)" in ptext
    assert "Some cards are not shown to you" not in client.get(f"/api/tables/{tid}/hands.txt", headers=hdr(ben)
                                                               ).text.split("Round 3")[0]


def test_issue21_7_a_clubs_export_is_every_night_as_a_spectator_sees_it(client: TestClient) -> None:
    c = client.post("/api/clubs", json={"name": "Club", "owner_name": "Ann"}).json()
    cid = c["club"]["id"]
    t = create(client, "poker", host_name="Ann", club=cid)
    tid, ann = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    _poker_round(client, tid, {ann: 10, ben: 20}, folds=(ben,))
    k = create(client, "kind", bots=3, host_name="Ben", club=cid)
    assert post(client, k["table"]["id"], "/deal", k["token"]).status_code == 200
    play_kind_deal(client, k["table"]["id"], {1: k["token"]})
    got = lines(client, f"/api/clubs/{cid}/hands.jsonl")
    assert [(x["table"]["id"], x["number"]) for x in got] == [(tid, 1), (k["table"]["id"], 1)]
    assert got[0]["redacted"] and got[0]["viewer"] is None and not got[1]["redacted"]
    for line in got:
        check_line(line)
    assert got == lines(client, f"/api/tables/{tid}/hands.jsonl") + lines(client, f"/api/tables/{k['table']['id']}/hands.jsonl")
    text = client.get(f"/api/clubs/{cid}/hands.txt").text
    assert text.index("Round 1 \u00b7 Four Card Poker") < text.index("Deal 1 \u00b7 Four of a Kind")


def test_issue21_7_exports_read_in_batches_and_refuse_a_wrong_token(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from fourcards.web.routes import hands

    monkeypatch.setattr(hands, "BATCH", 2)
    t = create(client, "poker", host_name="Ann")
    tid, ann = t["table"]["id"], t["token"]
    for _ in range(5):
        _poker_round(client, tid, {ann: 10})
    got = lines(client, f"/api/tables/{tid}/hands.jsonl", ann)
    assert [x["number"] for x in got] == [1, 2, 3, 4, 5] and not any(x["redacted"] for x in got)
    r = client.get(f"/api/tables/{tid}/hands.jsonl", headers=hdr("not-a-token"))
    assert r.status_code == 403
    assert client.get("/api/tables/nosuchtb/hands.txt").status_code == 404
    assert lines(client, f"/api/tables/{create(client, 'kind', bots=3)['table']['id']}/hands.jsonl") == []


def test_issue21_7_after_closing_a_players_own_token_still_shows_their_own_cards(client: TestClient) -> None:
    t = create(client, "poker", host_name="Ann")
    tid, ann = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    _poker_round(client, tid, {ann: 10, ben: 20}, folds=(ann,))
    assert post(client, tid, "/close", ann).status_code == 200
    own = lines(client, f"/api/tables/{tid}/hands.jsonl", ann)
    assert own[0]["viewer"] == 0 and not own[0]["redacted"] and replayed(own[0]) == own[0]["returns"]
    assert lines(client, f"/api/tables/{tid}/hands.jsonl", ben)[0]["redacted"]  # Ann's fold is Ann's
    assert client.get(f"/api/tables/{tid}/hands.txt", headers=hdr("nobody's")).status_code == 403


def test_issue21_7_the_text_of_a_poker_round_lists_only_the_seats_that_wagered(client: TestClient) -> None:
    """The play test: a seat that placed no bet was listed among the players with a net of 0."""
    t = create(client, "poker", bots=0, host_name="Ann")
    tid, ann = t["table"]["id"], t["token"]
    sit(client, tid, "Ben")  # seated, never wagers
    _poker_round(client, tid, {ann: 10})
    text = client.get(f"/api/tables/{tid}/hands.txt").text
    assert "Players: Ann (seat 1)\n" in text and "Ben" not in text
    assert "Result: Ann " in text and "; the house " in text
    (line,) = lines(client, f"/api/tables/{tid}/hands.jsonl")
    check_line(line)
    assert [p["name"] for p in line["players"]] == ["Ann", "Ben"]  # the JSON keeps every seat of the round
