"""``fourcards poker hand`` and ``fourcards poker settle`` (issue: foundation, item 6)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fourcards.cli import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


SEED_EXAMPLE = ["--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--up", "Qd", "--ante", "10"]


@pytest.mark.parametrize("preset", ["live", "online"])
def test_settle_json_seed002_example_both_presets(capsys, preset):
    code, out, _ = run(capsys, "poker", "settle", *SEED_EXAMPLE, "--play", "30", "--rules", preset, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["player_hand"]["category"] == "three_of_a_kind"
    assert data["dealer_hand"]["category"] == "two_pair"
    assert data["wagers"] == {"ante": 10, "play": 30, "ante_bonus": 20, "aces_up": 0}
    assert data["net"] == 60


def test_settle_json_keeps_its_public_keys(capsys):
    """Keys users script against stay (add, don't rename): ``seat`` as people see it,
    beside the protocol's 0-based ``player``."""
    _, out, _ = run(capsys, "poker", "settle", *SEED_EXAMPLE, "--play", "30", "--json")
    data = json.loads(out)
    assert data["seat"] == 1 and data["player"] == 0
    assert {"player_hand", "dealer_hand", "decision", "outcome", "wagers", "win_cap_adjustment",
            "net"} <= set(data)


def test_settle_fold_with_aces_up(capsys):
    code, out, _ = run(capsys, "poker", "settle", "--player", "Ah Ad 4c 7s 2d", "--dealer", "Qd Qs 8c 9c Js 3c",
                       "--ante", "10", "--fold", "--aces-up", "5", "--json")
    assert code == 0
    assert json.loads(out)["wagers"] == {"ante": -10, "play": 0, "ante_bonus": 0, "aces_up": 5}
    assert json.loads(out)["net"] == -5


def test_settle_tie_text_output(capsys):
    code, out, _ = run(capsys, "poker", "settle", "--player", "Ah Ks 8d 5c 2h", "--dealer", "Ad Kc 8s 5h 3c 2s",
                       "--ante", "10", "--play", "10")
    assert code == 0 and "net +20" in out


@pytest.mark.parametrize("argv,message", [
    (["--player", "9h 9d 9s Kc 3x", "--dealer", "Qd Qs 8c 8h 4s 2d", "--ante", "10", "--play", "10"], "malformed card '3x'"),
    (["--player", "9h 9d 9s Kc 3d", "--dealer", "9h Qs 8c 8h 4s 2d", "--ante", "10", "--play", "10"], "duplicate card 9h"),
    (["--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--ante", "10", "--play", "40"], "play bet 40"),
    (["--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--ante", "10", "--play", "20",
      "--rules", "online"], "must be 10 or 30"),
    (["--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--ante", "10"], "exactly one of --play"),
    (["--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--ante", "10", "--fold",
      "--rules", "vegas"], "unknown rules preset"),
    (["--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--up", "Ah", "--ante", "10", "--fold"],
     "up card"),
])
def test_settle_bad_input_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "poker", "settle", *argv)
    assert code == 2
    assert out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_hand_json(capsys):
    code, out, _ = run(capsys, "poker", "hand", "9h 9d 9s Kc 3d", "--json")
    data = json.loads(out)
    assert code == 0 and data["category"] == "three_of_a_kind" and data["best_four"] == ["9s", "9h", "9d", "Kc"]


def test_hand_six_cards_text(capsys):
    code, out, _ = run(capsys, "poker", "hand", "Qd Qs 8c 8h 4s 2d")
    assert code == 0 and "two pair, queens and eights" in out


def test_console_script_exit_code_and_stderr_line():
    proc = subprocess.run([sys.executable, "-m", "fourcards", "poker", "hand", "9h 9h 9s Kc"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: duplicate card '9h' (9h)"


@pytest.mark.parametrize("argv,message", [
    (["poker", "settle", "--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d", "--ante", "10",
      "--play", "abc"], "Invalid value for '--play'"),
    (["poker", "hand"], "Missing argument 'cards'"),
    (["poker", "bogus"], "No such command 'bogus'"),
    (["poker", "hand", "9h 9d 9s Kc", "--nope"], "No such option"),
])
def test_usage_errors_are_one_error_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_help_still_exits_0(capsys):
    code, out, _ = run(capsys, "poker", "hand", "--help")
    assert code == 0 and "best four-card hand" in out


def test_seed004_win_cap_caps_the_sum_of_wins_in_poker_settle(capsys):
    code, out, _ = run(capsys, "poker", "settle", "--rules", "online", "--player", "5c 5d 5h 5s 2c",
                       "--dealer", "9c 9d 9h 9s Kd 3c", "--up", "Kd", "--ante", "200", "--play", "600",
                       "--aces-up", "100", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["net"] == 7_600
    assert data["wagers"] == {"ante": -200, "play": -600, "ante_bonus": 5_000, "aces_up": 5_000}
    assert data["win_cap_adjustment"] == -1_600
