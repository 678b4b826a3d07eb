"""Issue 30, item 4: the agent format - save/load of the learners that ship, a bot by path (``file:agent.zip``)
in simulations, matches and environments, and at a web table (``fourcards serve --agent NAME=PATH``)."""

from __future__ import annotations

import json
import random
import zipfile

import numpy as np
import pytest

from fourcards.kind.bots import make_bot, play_deal
from fourcards.kind.rules import KindRules
from fourcards.poker.bots import make_poker_bot
from fourcards.poker.policy import score_policy
from fourcards.poker.rules import get_rules
from fourcards.poker.strategy import simple_chart
from fourcards.rl import load, save
from fourcards.rl.agents import MANIFEST, AgentError
from fourcards.rl.bots import LearnedKindBot, learned_table
from fourcards.rl.kind_vector import kind_vector_env
from fourcards.rl.learn import ChartLearner


def test_issue30_4_a_kind_table_saves_loads_and_plays_as_the_bot_it_was(tmp_path) -> None:
    path = save(LearnedKindBot(), tmp_path / "learned.zip", name="my-table")
    with zipfile.ZipFile(path) as z:
        manifest = json.loads(z.read(MANIFEST))
    assert manifest["format"] == "fourcards-agent" and manifest["game"] == "kind" and manifest["learner"] == "table"
    agent = load(path)
    assert np.array_equal(agent.table, learned_table()) and agent.name == "my-table"
    rules, stacks = KindRules(), [200] * 5
    bots = [make_bot(f"file:{path}"), make_bot("pots"), agent.kind_bot(), make_bot("odds"), make_bot("random")]
    same = [LearnedKindBot(), make_bot("pots"), LearnedKindBot(), make_bot("odds"), make_bot("random")]
    for deal in range(6):
        a = play_deal(rules, bots, stacks, random.Random(deal), deal % 5)
        b = play_deal(rules, same, stacks, random.Random(deal), deal % 5)
        assert a.returns() == b.returns()
    env = kind_vector_env(16, 4, opponents=f"file:{path}")  # a table agent plays in numba in the batched env
    env.reset(seed=0)
    assert type(env._players[0]).__name__ == "_Table"


def test_issue30_4_a_poker_chart_saves_loads_scores_and_plays(tmp_path) -> None:
    learner = ChartLearner(np.array([1, 1, 1, 1], dtype=np.int8), seed=0)
    learner.update(np.array([0, 5]), np.array([3, 0]), np.array([2.0, -1.0]))
    path = save(simple_chart("live"), tmp_path / "simple.zip")
    agent = load(path)
    assert (agent.game, agent.learner, agent.rules.name) == ("poker", "chart", "live")
    exact = score_policy(agent.poker_policy(), "live")
    assert f"{float(exact.house_edge):.4%}" == "3.3971%"  # the published simple strategy (docs/rl.md)
    bot = make_poker_bot(f"file:{path}", get_rules("live"))
    from fourcards.cards import parse_card, parse_cards

    assert bot.decide(parse_cards("As Ad 7c 5h 2d"), parse_card("Kc")) == 3
    assert load(save(learner, tmp_path / "learned.zip")).chart.table.shape == (32, 13)


def test_issue30_4_a_file_that_is_not_an_agent_is_refused_naming_it(tmp_path) -> None:
    with pytest.raises(AgentError, match="cannot read"):
        load(tmp_path / "missing.zip")
    (tmp_path / "plain.zip").write_bytes(b"not a zip")
    with pytest.raises(AgentError, match="not a zip archive"):
        load(tmp_path / "plain.zip")
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as z:
        z.writestr("data", "{}")
    with pytest.raises(AgentError, match="no fourcards-agent.json"):
        load(tmp_path / "other.zip")
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as z:
        z.writestr(MANIFEST, json.dumps({"format": "fourcards-agent", "version": 1, "game": "kind",
                                         "learner": "table", "rules": KindRules().to_dict()}))
        z.writestr("table.npy", b"junk")
    with pytest.raises(AgentError, match="table.npy"):
        load(tmp_path / "bad.zip")
    with pytest.raises(AgentError, match="cannot save"):
        save(object(), tmp_path / "x.zip")
    poker = save(simple_chart("live"), tmp_path / "poker.zip")
    with pytest.raises(Exception, match="Four Card Poker"):
        make_bot(f"file:{poker}")


def test_issue30_4_kind_simulate_takes_an_agent_file_as_a_bot(tmp_path) -> None:
    from fourcards.cli import main

    path = save(LearnedKindBot(), tmp_path / "Learned.zip")
    with pytest.raises(SystemExit) as e:
        main(["kind", "simulate", "--deals", "64", "--players", "4", "--bots", f"file:{path}", "pots",
              "--seed", "3", "--workers", "1", "--json", "--no-progress"])
    assert e.value.code == 0


def test_issue30_4_a_web_table_seats_the_agent_files_its_operator_named_and_no_client_path(
        tmp_path, monkeypatch) -> None:
    from fastapi.testclient import TestClient

    from fourcards.table import players
    from fourcards.web import create_app

    path = save(LearnedKindBot(), tmp_path / "learned.zip")
    chart = save(simple_chart("live"), tmp_path / "chart.zip")
    monkeypatch.setenv(players.AGENTS_ENV, json.dumps({"mytable": {"game": "kind", "path": str(path)},
                                                       "mychart": {"game": "poker", "path": str(chart)}}))
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0)
    with TestClient(app) as client:
        presets = client.get("/api/presets").json()
        assert "mytable" in presets["bots"]["kind"] and "mychart" in presets["bots"]["poker"]
        assert "mytable" not in presets["bots"]["poker"]
        r = client.post("/api/tables", json={"game": "kind", "host_name": "Host", "seat_approval": False})
        table = r.json()
        tid, token = table["table"]["id"], table["token"]
        for kind in ("mytable", f"file:{path}"[:16]):
            r = client.post(f"/api/tables/{tid}/bots", json={"count": 1, "kind": kind},
                            headers={"X-Seat-Token": token})
            assert r.status_code == (200 if kind == "mytable" else 422), r.text
        r = client.post(f"/api/tables/{tid}/bots", json={"count": 2, "kind": "pots"}, headers={"X-Seat-Token": token})
        assert r.status_code == 200
        seen = client.get(f"/api/tables/{tid}/state", headers={"X-Seat-Token": token}).json()
        assert "mytable" in seen["bot_kinds"]
    from fourcards.kind.game import Game

    game = Game(KindRules(), [200] * 4, 0, rng=random.Random(2))  # the table's move: the agent's
    obs = game.observation(game.actor)
    assert players.kind_move("mytable", obs, obs.legal_actions) == LearnedKindBot().act(obs, obs.legal_actions,
                                                                                        random.Random())
    players.agent_bots.cache_clear()
    players.kind_bot_names.cache_clear()
    players.poker_bot_names.cache_clear()


@pytest.mark.parametrize("spec, message", [
    ("noequals", "NAME=PATH"),
    ("Bad=x.zip", "lower-case"),
    ("pots=x.zip", "taken"),
    ("mine=missing.zip", "cannot read the agent file"),
])
def test_issue30_4_serve_checks_each_agent_before_it_starts(spec: str, message: str, tmp_path, monkeypatch,
                                                            capsys) -> None:
    from fourcards.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["serve", "--agent", spec, "--database-url", f"sqlite:///{tmp_path / 'x.db'}", "--port", "1"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and err.count("\n") == 1
