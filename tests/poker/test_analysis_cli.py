"""``fourcards poker analyze`` and ``fourcards poker strategy`` (issue 3)."""

from __future__ import annotations

import json

import pytest
from cli_run import run


def test_analyze_json_live(counts, capsys):
    code, out, _ = run(capsys, "poker", "analyze", "--json")
    assert code == 0
    d = json.loads(out)
    assert round(d["house_edge"] * 100, 2) == 2.79 and round(d["element_of_risk"] * 100, 2) == 1.30
    assert abs(d["return_to_player"] - (1 - d["element_of_risk"])) < 1e-15
    assert set(d["decisions"]) == {"fold", "play_1x", "play_2x", "play_3x"}
    assert abs(sum(d["decisions"].values()) - 1) < 1e-12
    assert 2.14 < d["average_total_bet"] < 2.15
    assert round(d["aces_up"]["return"] * 100, 4) == 96.1083
    assert d["rules"]["name"] == "live"


def test_analyze_json_online_and_out_file(counts, capsys, tmp_path):
    out_file = tmp_path / "par.json"
    code, out, _ = run(capsys, "poker", "analyze", "--rules", "online", "--json", "--out", str(out_file))
    assert code == 0
    d = json.loads(out)
    assert set(d["decisions"]) == {"fold", "play_1x", "play_3x"}
    assert round(d["aces_up"]["return"] * 100, 2) == 96.63
    assert json.loads(out_file.read_text()) == d


def test_analyze_custom_tables(counts, capsys):
    code, out, _ = run(capsys, "poker", "analyze", "--ante-bonus", "30/15/2", "--aces-up", "50/40/7/5/4/3/1",
                       "--json")
    assert code == 0
    d = json.loads(out)
    assert round(d["aces_up"]["house_edge"] * 100, 2) == 6.15
    assert d["rules"]["ante_bonus"] == "30/15/2"
    assert d["house_edge"] > 0.0279


def test_analyze_text_report(counts, capsys, tmp_path):
    out_file = tmp_path / "par.txt"
    code, out, _ = run(capsys, "poker", "analyze", "--strategy", "simple", "--out", str(out_file))
    assert code == 0
    assert "par sheet" in out and "Aces Up" in out
    text = out_file.read_text()
    assert "3.39711%" in text  # the simple strategy's house edge
    assert "2.7879%" in text  # optimal, in the comparison table


def test_strategy_json(counts, capsys):
    code, out, _ = run(capsys, "poker", "strategy", "As Ad 7c 5h 2d", "--up", "Kc", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["decision"] == "play_3x"
    assert set(d["ev"]) == {"fold", "play_1x", "play_2x", "play_3x"}
    assert d["ev"]["fold"] == -1
    code, out, _ = run(capsys, "poker", "strategy", "As", "Ad", "7c", "5h", "2d", "--up", "Kc", "--rules",
                       "online", "--json")
    assert code == 0 and set(json.loads(out)["ev"]) == {"fold", "play_1x", "play_3x"}


def test_strategy_text(counts, capsys):
    code, out, _ = run(capsys, "poker", "strategy", "Kd Jh 6s 3c 2h", "--up", "Ac")
    assert code == 0 and "fold" in out and "optimal" in out


def test_strategy_chart_png_csv_json(counts, capsys, tmp_path):
    png, csv = tmp_path / "chart.png", tmp_path / "chart.csv"
    code, out, _ = run(capsys, "poker", "strategy", "--chart", "--png", str(png), "--csv", str(csv))
    assert code == 0
    assert "pair of" in out and "cost vs optimal" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert csv.read_text().startswith("hand,2,3")
    code, out, _ = run(capsys, "poker", "strategy", "--chart", "--json")
    d = json.loads(out)
    assert 0 < d["strategies"]["chart"]["loss_vs_optimal"] < d["strategies"]["simple"]["loss_vs_optimal"]
    code, out, _ = run(capsys, "poker", "analyze", "--strategy", str(csv), "--json")
    assert code == 0 and json.loads(out)["strategy"] == "chart"


@pytest.mark.parametrize("argv,match", [
    (["analyze", "--rules", "vegas"], "unknown rules preset"),
    (["analyze", "--aces-up", "50/40/8"], "malformed Aces Up table"),
    (["analyze", "--ante-bonus", "25/x/2"], "malformed ante bonus table"),
    (["analyze", "--strategy", "clairvoyant"], "unknown strategy"),
    (["strategy", "As Ad 7c 5h", "--up", "Kc"], "expected 5 cards"),
    (["strategy", "As Ad 7c 5h 2d 3d", "--up", "Kc"], "expected 5 cards"),
    (["strategy", "As Ad 7c 5h 2d", "--up", "Ad"], "up card Ad is among"),
    (["strategy", "As As 7c 5h 2d", "--up", "Kc"], "duplicate card"),
    (["strategy", "As Ad 7c 5h 2d", "--up", "Zz"], "malformed card"),
    (["strategy", "As Ad 7c 5h 2d"], "--up"),
    (["strategy", "--chart", "--rules", "nope"], "unknown rules preset"),
])
def test_bad_input_one_line_exit_2(counts, capsys, argv, match):
    code, out, err = run(capsys, "poker", *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and match in lines[0]


def test_analyze_json_and_table_give_the_standard_deviation(counts, capsys):
    code, out, _ = run(capsys, "poker", "analyze", "--json")
    assert code == 0
    d = json.loads(out)
    assert 2.6 < d["standard_deviation"] < 2.8  # per ante, one round (the simulator: 2.713)
    assert 2.0 < d["aces_up"]["standard_deviation"] < 3.0  # per unit Aces Up bet
    code, out, _ = run(capsys, "poker", "analyze")
    assert code == 0 and "standard deviation" in out
    assert f"{d['standard_deviation']:.6f}" in out and f"{d['aces_up']['standard_deviation']:.6f}" in out
