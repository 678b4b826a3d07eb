"""Issue 23 item 3: the pay-table designer (``fourcards poker design``)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from cli_run import run

from fourcards.errors import RulesError
from fourcards.poker import analysis as an
from fourcards.poker.exact import design as d
from fourcards.poker.rules import get_rules


def analyze_json(capsys, *argv):
    code, out, err = run(capsys, "poker", "analyze", "--json", *argv)
    assert code == 0, err
    return json.loads(out)


def test_issue23_3_aces_up_96_63_lists_seed_004s_table_and_analyze_agrees_with_every_one(capsys):
    code, out, err = run(capsys, "poker", "design", "--aces-up-rtp", "96.63", "--json")
    assert code == 0, err
    found = json.loads(out)["tables"]
    assert len(found) == 20
    seed = [t for t in found if t["table"] == "50/30/7/6/5/2/1"]
    assert seed and round(seed[0]["return"] * 100, 4) == 96.6276  # seed 004's table
    dist = [abs(t["distance"]) for t in found]
    assert dist == sorted(dist)
    for t in found:  # every listed figure, re-checked by poker analyze
        a = analyze_json(capsys, "--aces-up", t["table"])["aces_up"]
        assert a["exact"]["return"] == t["exact"]["return"] and a["return"] == t["return"]
        pays = [int(p) for p in t["table"].split("/")]
        assert all(a > b for a, b in zip(pays, pays[1:])) and max(pays) <= 50 and min(pays) >= 1


def _brute_force(target: Fraction, max_pay: int, min_pay: int, strict: bool, fixed: dict[int, int]):
    counts = [an.aces_up_counts()[k] for k in d.ACES_UP_KEYS]
    rows = []
    pick = itertools.combinations if strict else itertools.combinations_with_replacement
    for ascending in pick(range(min_pay, max_pay + 1), 7):
        pays = ascending[::-1]
        if any(pays[i] != v for i, v in fixed.items()):
            continue
        ret = Fraction(sum(c * (p + 1) for c, p in zip(counts, pays)), 2_598_960)
        rows.append((abs(ret - target), pays))
    rows.sort(key=lambda r: (r[0], tuple(-p for p in r[1])))
    return rows


@pytest.mark.parametrize("target,max_pay,min_pay,strict,fixed,top", [
    (Fraction(95, 100), 12, 1, True, {}, 10),
    (Fraction(9751, 10000), 9, 0, False, {6: 1}, 15),
    (Fraction(90, 100), 10, 1, False, {0: 10, 1: 9}, 5),
])
def test_issue23_3_the_listed_tables_are_the_nearest_of_all(target, max_pay, min_pay, strict, fixed, top):
    """Against every table of a small space: the search misses none (ties ordered the same way)."""
    keys = list(d.ACES_UP_KEYS)
    got = d.design_aces_up(target, max_pay=max_pay, min_pay=min_pay, strict=strict,
                           fixed={keys[i]: v for i, v in fixed.items()}, top=top)
    want = _brute_force(target, max_pay, min_pay, strict, fixed)[:top]
    assert [tuple(g.table.as_dict().values()) for g in got] == [w[1] for w in want]
    assert [abs(g.distance) for g in got] == [w[0] for w in want]


def test_issue23_3_fixed_pays_and_limits(capsys):
    code, out, err = run(capsys, "poker", "design", "--aces-up-rtp", "97.5", "--fix", "4K=50", "--fix", "aa=1",
                         "--max-pay", "40", "--json")
    assert code == 2 and "4K=50 lies outside the pay limits 1..40" in err  # an impossible request says why
    code, out, err = run(capsys, "poker", "design", "--aces-up-rtp", "97.5", "--fix", "4K=50", "--fix", "aa=1",
                         "--top", "8", "--json")
    assert code == 0, err
    tables = json.loads(out)["tables"]
    assert len(tables) == 8 and all(t["table"].startswith("50/") and t["table"].endswith("/1") for t in tables)
    assert all(abs(t["return"] - 0.975) < 0.001 for t in tables)


def test_issue23_3_game_rtp_tables_are_re_optimised_and_analyze_agrees(counts, capsys):
    code, out, err = run(capsys, "poker", "design", "--game-rtp", "98.5", "--top", "6", "--json")
    assert code == 0, err
    found = json.loads(out)["tables"]
    assert len(found) == 6
    for t in found:
        a = analyze_json(capsys, "--ante-bonus", t["table"])
        assert a["exact"]["return_to_player"] == t["exact"]["return_to_player"]
        assert a["house_edge"] == t["house_edge"]
    assert all(abs(t["distance"]) < 0.0001 for t in found)
    # the exact figure, strategy re-optimised, equals analyze's optimal strategy: also where decisions change
    low = d.design_ante_bonus(Fraction(96, 100), get_rules("live"), counts=counts, min_pay=0, top=3)
    for t in low:
        assert t.figures.house_edge == an.analyze(get_rules("live", ante_bonus=str(t.table)), counts=counts).house_edge


def test_issue23_3_sweeps_are_exact_and_linear_for_aces_up(counts, capsys):
    code, out, err = run(capsys, "poker", "design", "--sweep", "AA", "--from", "0", "--to", "3", "--aces-up",
                         "50/30/7/6/5/2/1", "--json")
    assert code == 0, err
    points = json.loads(out)["points"]
    assert [p["table"] for p in points] == [f"50/30/7/6/5/2/{v}" for v in range(4)]
    for p in points:
        assert p["return"] == float(an.aces_up(p["table"]).return_)
    steps = {round(b["return"] - a["return"], 12) for a, b in zip(points, points[1:])}
    assert steps == {round(81_096 / 2_598_960, 12)}  # one unit on a pair of aces, linear
    code, out, err = run(capsys, "poker", "design", "--sweep", "ante-bonus:3K", "--from", "0", "--to", "3", "--json")
    assert code == 0, err
    points = json.loads(out)["points"]
    rtp = [p["return_to_player"] for p in points]
    assert rtp == sorted(rtp) and [p["table"] for p in points] == [f"25/20/{v}" for v in range(4)]
    for p in points:
        assert p["house_edge"] == float(an.analyze(get_rules("live", ante_bonus=p["table"]), counts=counts).house_edge)


@pytest.mark.parametrize("argv,match", [
    ([], "give one of --aces-up-rtp"),
    (["--aces-up-rtp", "96", "--game-rtp", "98"], "got --aces-up-rtp and --game-rtp"),
    (["--aces-up-rtp", "ninety"], "must be a percentage"),
    (["--aces-up-rtp", "500"], "between 1 and 200"),
    (["--aces-up-rtp", "96", "--fix", "5K=1"], "unknown pay '5K'"),
    (["--aces-up-rtp", "96", "--fix", "4K"], "PAY=N"),
    (["--aces-up-rtp", "96", "--fix", "4K=1", "--fix", "4k=2"], "fixed twice"),
    (["--aces-up-rtp", "96", "--max-pay", "5000"], "up to 1,000"),
    (["--sweep", "AA", "--from", "0", "--to", "5000"], "at most 1001 points"),
    (["--sweep", "ante-bonus:3K", "--to", "500"], "at most 201 points"),
    (["--sweep", "ante-bonus:flush"], "unknown pay"),
    (["--sweep", "side:AA"], "--sweep takes"),
    (["--sweep", "AA", "--from", "5", "--to", "2"], "must not be below"),
])
def test_issue23_3_bad_input_is_one_line(capsys, argv, match):
    code, out, err = run(capsys, "poker", "design", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and match in lines[0]


def test_issue23_3_parse_helpers():
    assert d.parse_target("96.63", "x") == Fraction(9663, 10000)
    assert d.parse_target("96.63%", "x") == Fraction(9663, 10000)
    assert d.parse_pay_key("two pair", d.ACES_UP_KEYS) == "two_pair"
    assert d.parse_fixed(["SF=40"], d.ACES_UP_KEYS) == {"straight_flush": 40}
    with pytest.raises(RulesError):
        d.parse_fixed(["SF=-1"], d.ACES_UP_KEYS)
