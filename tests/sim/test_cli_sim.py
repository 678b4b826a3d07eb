"""``fourcards poker simulate`` / ``fourcards kind simulate`` through the Typer app."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fourcards.cli import app, main

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args))


def _json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_poker_json_has_the_documented_keys():
    d = _json(_run("poker", "simulate", "--hands", "20000", "--strategy", "simple", "--seed", "5", "--json"))
    assert d["hands"] == 20000
    for key in ("mean_net_per_ante", "ci95", "std_per_round", "frequencies", "house_edge"):
        assert key in d
    assert len(d["ci95"]) == 2


def test_poker_sessions_exact_and_plot(tmp_path):
    png = tmp_path / "out.png"
    d = _json(_run("poker", "simulate", "--hands", "40000", "--strategy", "simple", "--seed", "1",
                   "--session-hands", "200", "--bankroll", "100", "--aces-up-bet", "1", "--exact",
                   "--plot", str(png), "--json"))
    assert d["sessions"]["sessions"] == 200
    assert 0 <= d["sessions"]["risk_of_ruin"] <= 1
    assert "exact_house_edge" in d and "aces_up" in d["frequencies"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]  # no temporary left behind


def test_poker_text_report():
    r = _run("poker", "simulate", "--hands", "5000", "--strategy", "simple", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert "mean net per ante" in r.stdout and "95% CI" in r.stdout


def test_poker_two_workers_equal_one_worker():
    args = ["poker", "simulate", "--hands", "150000", "--strategy", "simple", "--seed", "99", "--json"]
    one = _json(_run(*args))
    two = _json(_run(*args, "--workers", "2"))
    for k in ("seconds", "rounds_per_second", "workers", "backend"):
        one.pop(k)
        two.pop(k)
    assert one == two


@pytest.mark.parametrize("args,needle", [
    (["poker", "simulate", "--hands", "-5"], "--hands"),
    (["poker", "simulate", "--hands", "10", "--strategy", "bogus"], "unknown strategy"),
    (["poker", "simulate", "--hands", "10", "--strategy", "simple", "--scheduler", "tcp://127.0.0.1:9"],
     "cannot reach"),
    (["poker", "simulate", "--hands", "10", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], "not both"),
    (["poker", "simulate", "--hands", "10", "--rules", "vegas"], "preset"),
    (["poker", "simulate", "--hands", "10", "--seed", "-3", "--strategy", "simple"], "--seed"),
    (["poker", "simulate", "--hands", "100", "--strategy", "simple", "--session-hands", "10",
      "--bankroll", "2"], "cannot cover"),
    (["kind", "simulate", "--deals", "5", "--players", "4", "--bots", "shark"], "unknown bot"),
    (["kind", "simulate", "--deals", "5", "--players", "2", "--bots", "odds"], "--players"),
    (["kind", "simulate", "--deals", "5", "--players", "14", "--bots", "odds"], "--players"),
    (["kind", "simulate", "--deals", "-1", "--players", "4", "--bots", "odds"], "--deals"),
])
def test_bad_arguments_one_line_exit_2(args, needle, tmp_path, capsys):
    png = tmp_path / "never.png"
    with pytest.raises(SystemExit) as exc:  # the console script's entry point (usage errors: one line too)
        main([*args, "--plot", str(png)])
    assert exc.value.code == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], out.err
    assert out.out == ""
    assert not png.exists() and list(tmp_path.iterdir()) == []


def test_bad_plot_path_fails_before_running(tmp_path):
    r = _run("poker", "simulate", "--hands", "10", "--strategy", "simple", "--plot", str(tmp_path / "x.jpg"))
    assert r.exit_code == 2 and "png" in r.stderr
    r = _run("poker", "simulate", "--hands", "10", "--strategy", "simple", "--plot",
             str(tmp_path / "missing" / "x.png"))
    assert r.exit_code == 2 and "does not exist" in r.stderr


def test_kind_json_and_plot(tmp_path):
    png = tmp_path / "bots.png"
    d = _json(_run("kind", "simulate", "--deals", "40", "--players", "5", "--bots", "random", "cautious",
                   "--seed", "3", "--plot", str(png), "--json"))
    assert d["deals"] == 40 and d["players"] == 5
    assert {b["bot"] for b in d["bots"]} == {"random", "cautious"}
    assert [s["bot"] for s in d["seats"]] == ["random", "cautious", "random", "cautious", "random"]
    assert png.exists()
