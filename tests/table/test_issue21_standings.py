"""Issue 21 item 6: a club's standings across nights, a pure function of what the store reads
(:mod:`fourcards.table.standings`): people matched by name in any case, bots left to the bank,
voided deals counting for nothing, pot halves and whole pots counted per member."""

from __future__ import annotations

from typing import Any

from fourcards.table.standings import deal_counts, name_key, standings


def _night(tid: str, game: str, people: list[tuple[int, str, bool]], nets: dict[int, int],
           deals: list[dict[str, Any]], house: int = 0) -> dict[str, Any]:
    return {"table": {"id": tid, "name": f"night {tid}", "game": game, "status": "closed", "created_at": None},
            "people": [{"player_id": p, "name": n, "is_bot": b} for p, n, b in people], "nets": nets,
            "house": house, "deals": deals}


KIND_DEAL = {"status": "settled", "seats": {"0": 1, "1": 2, "2": 3, "3": 4},
             "result": {"awards": [{"pot": 0, "seat": 0, "amount": 30, "share": "high"},
                                   {"pot": 0, "seat": 2, "amount": 30, "share": "low"},
                                   {"pot": 1, "seat": 0, "amount": 10, "share": "whole"}]}}
VOIDED = {"status": "voided", "seats": {"0": 1, "1": 2}, "result": {"awards": [{"seat": 1, "share": "high"}]}}
POKER_ROUND = {"status": "settled", "seats": {"1": 11, "2": 12, "3": 13},
               "result": {"seats": {"1": {"player_id": 11, "net": 20}, "3": {"player_id": 13, "net": -10}}}}


def test_issue21_6_a_deal_counts_dealt_in_players_and_each_pot_share_a_voided_one_nothing() -> None:
    assert deal_counts("kind", KIND_DEAL) == {1: {"deals": 1, "high": 1, "whole": 1}, 2: {"deals": 1},
                                              3: {"deals": 1, "low": 1}, 4: {"deals": 1}}
    assert deal_counts("kind", VOIDED) == {} and deal_counts("kind", {"status": "in_progress"}) == {}
    assert deal_counts("poker", POKER_ROUND) == {11: {"rounds": 1}, 13: {"rounds": 1}}  # seat 2 had no wager


def test_issue21_6_standings_across_two_nights_match_names_in_any_case_and_leave_bots_to_the_bank() -> None:
    kind = _night("k1", "kind", [(1, "Ann", False), (2, "Ada", True), (3, "ben", False), (4, "Cat", False)],
                  {1: 50, 2: -20, 3: 10, 4: -40}, [KIND_DEAL, VOIDED])
    poker = _night("p1", "poker", [(11, "ANN", False), (12, "Ada", True), (13, "Ben", False)],
                   {11: 20, 12: 5, 13: -10}, [POKER_ROUND], house=-15)
    got = standings([kind, poker], listed=["Ann", "Dot"])
    rows = {name_key(r["name"]): r for r in got["standings"]}
    assert set(rows) == {"ann", "ben", "cat", "dot"}  # Ada is a bot: not a member
    ann = rows["ann"]  # issue 29 added the night in numbers beside these keys: the keys kept, the same values
    kept = {"name", "listed", "nights", "net", "kind", "poker"}
    assert {k: ({x: v[x] for x in ("nights", "deals", "high", "low", "whole", "rounds", "net") if x in v}
                if isinstance(v, dict) else v) for k, v in ann.items() if k in kept} == \
        {"name": "Ann", "listed": True, "nights": 2, "net": 70,
         "kind": {"nights": 1, "deals": 1, "high": 1, "low": 0, "whole": 1, "net": 50},
         "poker": {"nights": 1, "rounds": 1, "net": 20}}
    assert rows["ben"]["name"] == "Ben" and not rows["ben"]["listed"]  # the latest spelling
    assert (rows["ben"]["nights"], rows["ben"]["net"], rows["ben"]["kind"]["low"], rows["ben"]["poker"]["rounds"]) == \
        (2, 0, 1, 1)
    assert [r["name"] for r in got["standings"]] == ["Ann", "Ben", "Cat", "Dot"]  # by net; yet to play last
    assert got["nights"][0]["bank"] == {"net": -20, "bots": [{"name": "Ada", "net": -20}], "house": None}
    assert got["nights"][1]["bank"]["net"] == 5 - 15 and got["nights"][1]["deals"] == 1
    for n in got["nights"]:
        assert sum(p["net"] for p in n["people"]) + n["bank"]["net"] == 0
    assert [p["name"] for p in got["nights"][0]["people"]] == ["Ann", "ben", "Cat"]
    assert standings([], []) == {"standings": [], "nights": []}
