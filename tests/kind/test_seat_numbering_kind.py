"""Every text that reaches a person numbers the seats 1..n, as people count them; the
engine, its JSON and its history records keep the indices 0..n-1 for programs
(docs/rules.md TP-1; issue 9.5)."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from kind_helpers import scripted
from rich.console import Console
from typer.testing import CliRunner

import fourcards.cli.kind_terminal as terminal
from fourcards.cli import app
from fourcards.cli.kind_terminal import describe_op, replay_session
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind import Action, Game, KindRules, seat_label
from fourcards.kind.bots import RandomBot, play_deal
from fourcards.kind.history import HistoryError, PlayerAction

runner = CliRunner()
SEAT = re.compile(r"\bseats? (\d+)(?: and (\d+))?", re.IGNORECASE)


def seat_numbers(text: str) -> list[int]:
    return [int(n) for m in SEAT.finditer(text) for n in m.groups() if n]


def test_design_table_play_engine_messages_number_seats_from_1():
    g = scripted("As Kd Qc Jh")
    g.apply(Action.check())
    g.apply(Action.check())
    g.apply(Action.bet(5))
    assert g.actor == 3
    with pytest.raises(IllegalActionError, match=r"^seat 4 cannot raise 0: a raise adds 5 to 10 chips"):
        g.apply(Action.raise_(0))
    with pytest.raises(IllegalActionError, match=r"^seat 4 cannot check: there is a bet of 5 to call"):
        g.apply(Action.check())
    assert seat_label(0) == "seat 1" and g.label(3) == "seat 4" == g.seat_label(3)


def test_design_table_play_a_user_interface_names_the_seats():
    g = Game(KindRules(), [100] * 4, 3, cards="As Kd Qc Jh".split(), seat_labels=["Ann", "Bob", "Cy", "Di"])
    with pytest.raises(IllegalActionError, match=r"^Ann cannot call: there is no bet to call"):
        g.apply(Action.call())
    assert g.clone().label(1) == "Bob"
    with pytest.raises(RulesError, match="seat_labels"):
        Game(KindRules(), [100] * 4, 3, seat_labels=["Ann", "Bob"])
    with pytest.raises(RulesError, match="the stack of seat 3 must be"):
        Game(KindRules(), [100, 100, -1, 100], 3)


def test_design_table_play_replay_errors_number_seats_from_1():
    g = scripted("As Kd Qc Jh")
    g.apply(Action.check())
    ops = list(g.history)
    i = next(i for i, op in enumerate(ops) if isinstance(op, PlayerAction))
    ops[i] = PlayerAction(1, "check", 0)  # seat index 1 acts, index 0 is to act
    with pytest.raises(HistoryError, match=r"seat 2 acts but seat 1 is to act"):
        Game.from_history(ops)


def test_design_table_play_every_log_line_numbers_seats_from_1(tmp_path):
    """describe_op over whole deals: every seat named is one of Seat 1..n."""
    for seed in range(40):
        n = 4 + seed % 5
        g = play_deal(KindRules(), [RandomBot() for _ in range(n)], [random.Random(seed).choice([8, 30, 200])
                                                                      for _ in range(n)] if seed % 2 else [60] * n,
                      random.Random(seed), button=seed % n)
        lines = [line for op in g.history if (line := describe_op(op, [""] * n))]
        named = [k for line in lines for k in seat_numbers(line)]
        assert named and min(named) >= 1 and max(named) <= n
        if any(op.seat == 0 for op in g.history if isinstance(op, PlayerAction)):
            assert 1 in named


def test_design_table_play_terminal_numbers_seats_from_1_and_offers_only_legal_actions(monkeypatch, tmp_path):
    """Issue 9.1 at the terminal: after Seat 2 raises all in and Seats 3-4 fold, Seat 1 is
    offered fold or call only, and every seat is named as people count them."""
    def game(rules, stacks, button, **kw):
        return Game(rules, [200, 20, 200, 200], button, cards="Ah 9c 5d 3s As Ad Ac".split(), **kw)
    monkeypatch.setattr(terminal, "Game", game)
    out = io.StringIO()
    hist = tmp_path / "deal.jsonl"
    terminal.play_session(players=4, bots=0, deals=1, history_path=hist, console=Console(file=out, width=200),
                          stream=io.StringIO("bet 5\nraise 10\nfold\nfold\nraise 5\ncall\n"))
    text = out.getvalue()
    assert "Seat 2 (human), your move: fold | call 5 | raise 5-10" in text
    assert "Seat 1 (human), your move: fold | call 10  (to call: 10)" in text
    assert "Seat 1 (human) cannot raise: no other player still in the deal can put in more chips" in text
    assert "net: Seat 1 +5, Seat 2 +5, Seat 3 -5, Seat 4 -5" in text
    assert seat_numbers(text) and set(seat_numbers(text)) <= {1, 2, 3, 4}
    rows = [line.split()[0] for line in text.splitlines() if "human" in line and "Seat" not in line]
    assert rows[:4] == ["▶1", "2", "3", "4D"]  # the table's seat column, button at Seat 4
    monkeypatch.undo()
    out = io.StringIO()
    replay_session(hist, Console(file=out, width=200))
    assert "(button: Seat 4)" in out.getvalue() and set(seat_numbers(out.getvalue())) == {1, 2, 3, 4}
    assert json.loads(hist.read_text().splitlines()[0])["button"] == 3  # files keep the engine's index


def test_design_table_play_cli_odds_and_settle_number_seats_from_1():
    r = runner.invoke(app, ["kind", "odds", "7", "7"])
    assert r.exit_code == 2 and "held by seats 1 and 2" in r.stderr
    table = runner.invoke(app, ["kind", "odds", "7", "QQ", "3"]).stdout
    assert [line.split()[1] for line in table.splitlines() if re.match(r"^│\s+\d", line)] == ["1", "2", "3"]
    settle = runner.invoke(app, ["kind", "settle", "--pot", "60", "7", "QQ", "3", "9999"]).stdout
    rows = [line.split("│")[1:3] for line in settle.splitlines() if re.match(r"^│\s*\d", line)]
    assert [(a.strip(), b.strip()) for a, b in rows] == [("1", "7"), ("2", "QQ"), ("3", "3"), ("4", "9999")]
    data = json.loads(runner.invoke(app, ["kind", "odds", "7", "QQ", "3", "--json"]).stdout)
    assert [d["seat"] for d in data] == [0, 1, 2]  # JSON keeps the engine's indices


def test_design_table_play_kind_simulate_table_numbers_seats_from_1():
    r = runner.invoke(app, ["kind", "simulate", "--deals", "20", "--players", "4", "--bots", "odds",
                            "--bots", "random:3", "--seed", "1"])
    assert r.exit_code == 0, r.output
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in r.stdout.splitlines()
            if line.startswith("│")}
    assert rows == {"odds": "1", "random": "2,3,4"}
    data = json.loads(runner.invoke(app, ["kind", "simulate", "--deals", "20", "--players", "4", "--bots", "odds",
                                          "--bots", "random:3", "--seed", "1", "--json"]).stdout)
    assert {b["bot"]: b["seats"] for b in data["bots"]} == {"odds": [0], "random": [1, 2, 3]}
