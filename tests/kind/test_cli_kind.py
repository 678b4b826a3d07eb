"""``fourcards kind odds|settle|play`` and the bots registry."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from fourcards.cli import app, main
from fourcards.errors import RulesError
from fourcards.kind import Action, Game, KindRules
from fourcards.kind.bots import BOTS, Bot, CautiousBot, OddsBot, make_bot, play_deal, play_deals
from fourcards.kind.history import read_histories

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["kind", *args], input=input)


def run_main(capsys, *args) -> tuple[int, str]:
    """Through the console script's entry point, where a usage error is one line too."""
    with pytest.raises(SystemExit) as exc:
        main(["kind", *args])
    return exc.value.code or 0, capsys.readouterr().err


def test_cli_settle_seed001_example():
    r = run("settle", "--pot", "60", "7", "QQ", "3", "9999", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == [0, 0, 30, 30]
    r = run("settle", "--pot", "61", "7", "QQ", "3", "9999", "--json")
    assert json.loads(r.stdout) == [0, 0, 30, 31]
    table = run("settle", "--pot", "60", "7", "QQ", "3", "9999")
    assert table.exit_code == 0 and "high" in table.stdout and "low" in table.stdout


def test_cli_odds_json_in_seat_order():
    r = run("odds", "7", "QQ", "3", "999", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [d["seat"] for d in data] == [0, 1, 2, 3]
    assert [d["cards"] for d in data] == [1, 2, 1, 3]
    assert sum(d["p_high"] for d in data) == pytest.approx(1)
    assert sum(d["p_low"] for d in data) == pytest.approx(1)
    assert data[3]["p_low"] == 0 and data[3]["p_high_exact"] == "67/126"


def test_cli_odds_accepts_tens_as_t_or_10():
    """Several tens are T or t; 10 is a ten alone ("1010" reads like a number: issue 26 item 7)."""
    a = json.loads(run("odds", "TT", "4", "--json").stdout)
    c = json.loads(run("odds", "tt", "4", "--json").stdout)
    d = json.loads(run("odds", "10", "4", "--json").stdout)
    assert a == c and a[0]["rank"] == "T" and a[0]["cards"] == 2 and d[0]["rank"] == "T" and d[0]["cards"] == 1
    table = run("odds", "7", "QQ", "3", "999")
    assert table.exit_code == 0 and "P(high)" in table.stdout


@pytest.mark.parametrize("args, message", [
    (["7X", "3"], "malformed holding"),
    (["7", "QQ", "77"], "held by seats 1 and 3"),
    (["77777", "3"], "only 4 of each rank"),
    (["QQ"], "at least two holdings"),
    (["QK", "3"], "one rank only"),
])
def test_cli_odds_bad_input_exit_2_one_line(args, message):
    r = run("odds", *args)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("error:")


@pytest.mark.parametrize("args, message", [
    (["--pot", "60", "7", "QQ", "3", "999"], "exactly one holding of four"),
    (["--pot", "-1", "7", "9999"], "--pot"),
    (["--pot", "60", "7", "7777"], "held by seats"),
])
def test_cli_settle_bad_input(args, message, capsys):
    code, err = run_main(capsys, "settle", *args)
    assert code == 2 and message in err and err.startswith("error:")


def test_cli_play_piped_input_drives_a_deal_to_the_end(tmp_path):
    hist = tmp_path / "h.jsonl"
    moves = "bet\ncheck\ncall\n" * 100
    r = run("play", "--players", "5", "--bots", "4", "--seed", "12", "--deals", "1", "--history", str(hist),
            input=moves)
    assert r.exit_code == 0, r.output
    assert "your move" in r.stdout and "net:" in r.stdout
    deals = read_histories(hist.read_text())
    assert len(deals) == 1
    game = Game.from_history(deals[0])
    assert game.is_terminal and sum(game.payoffs) == 0
    replay = run("play", "--replay", str(hist))
    assert replay.exit_code == 0 and "net:" in replay.stdout


def test_cli_play_quit_and_eof_end_the_session(tmp_path):
    r = run("play", "--players", "4", "--seed", "3", input="quit\n")
    assert r.exit_code == 0 and "Goodbye" in r.stdout
    r = run("play", "--players", "4", "--seed", "3", input="")
    assert r.exit_code == 0 and "Goodbye" in r.stdout


def test_cli_play_illegal_input_asks_again():
    r = run("play", "--players", "4", "--bots", "3", "--seed", "1", "--deals", "1",
            input="raise 99\nshove\n" + "check\ncall\n" * 100)
    assert r.exit_code == 0
    assert "cannot" in r.stdout or "unknown action" in r.stdout


def test_cli_play_all_bots_and_bad_options(capsys):
    r = run("play", "--players", "6", "--bots", "6", "--seed", "4")
    assert r.exit_code == 0 and "net:" in r.stdout
    assert run("play", "--players", "3").exit_code == 2
    assert run("play", "--players", "5", "--bots", "7").exit_code == 2
    assert run("play", "--bot-kind", "genius", "--seed", "1").exit_code == 2
    for bad in (["--stack", "3"], ["--seed", "-1"], ["--deals", "0"]):
        code, err = run_main(capsys, "play", *bad)
        assert code == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1, bad


def test_cli_play_subprocess_with_piped_stdin(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "fourcards", "kind", "play", "--players", "4", "--seed", "8", "--deals", "1"],
        input="check\ncall\n" * 100, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "net:" in proc.stdout


def test_bots_registry_and_interface():
    assert set(BOTS) == {"odds", "cautious", "random", "pots"}
    assert isinstance(make_bot("Odds"), OddsBot)
    with pytest.raises(RulesError, match="choose from odds, cautious, random, pots"):
        make_bot("genius")

    class AlwaysCall(Bot):
        name = "caller"

        def act(self, observation, legal_actions, rng):
            la = next(x for x in legal_actions if x.kind.value in ("check", "call"))
            return la.action()

    game = play_deal(KindRules(), [AlwaysCall()] * 5, [100] * 5, random.Random(1))
    assert game.is_terminal and game.finish_reason == "four"


def test_bots_play_legal_actions_and_sessions_rotate_the_button():
    bots = [make_bot(n) for n in ("odds", "cautious", "random", "odds", "random", "cautious")]
    games = list(play_deals(KindRules(), bots, [100] * 6, random.Random(5), deals=20, button=0))
    assert len(games) >= 5
    assert [g.button for g in games[:3]] == [0, 1, 2]
    for a, b in zip(games, games[1:]):
        assert list(b.initial_stacks) == a.stacks
    assert sum(games[-1].stacks) == 600


def _round3_game():
    """Holdings 2, 88, KK, 7 (expected shares .377, .189, .182, .251); the kings open round 3."""
    g = Game(KindRules(), [100] * 4, 3, cards="2c 8d Kh 7s  8h Kd".split())
    while g.round_number < 3 and g.actor is not None:
        g.apply(next(la for la in g.legal_actions() if la.kind.value in ("check", "call")).action())
    assert g.round_number == 3 and g.actor == 2
    return g


def test_odds_bot_bets_a_strong_share():
    g = _round3_game()
    g.apply(Action.check())
    g.apply(Action.check())
    obs = g.observation(0)
    assert OddsBot().act(obs, obs.legal_actions, random.Random(0)) == Action.bet(5)
    assert CautiousBot().act(obs, obs.legal_actions, random.Random(0)) == Action.check()


def test_odds_bot_calls_with_pot_odds_and_folds_without():
    g = _round3_game()
    g.apply(Action.bet(10))
    g.apply(Action.raise_(10))
    obs = g.observation(0)
    assert OddsBot().act(obs, obs.legal_actions, random.Random(0)) == Action.call(20)
    g.apply(Action.call())
    obs = g.observation(1)  # pot 70, 20 to call, share .189: 0.189 * 90 < 20
    assert OddsBot().act(obs, obs.legal_actions, random.Random(0)) == Action.fold()
    assert CautiousBot().act(obs, obs.legal_actions, random.Random(0)) == Action.fold()
