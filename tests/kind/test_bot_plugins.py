"""Bots as plug-ins: the entry-point group ``fourcards.bots`` (issue 13, item 5).

A tiny distribution is made in a temporary directory (a package and its
``.dist-info`` with ``entry_points.txt``) and put on ``sys.path``, as ``pip
install`` would; its bot must then appear in ``fourcards kind simulate --bots``,
``fourcards kind play`` and the web app's bot choices.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from fourcards.cli import main
from fourcards.errors import RulesError
from fourcards.kind import bots as kb

PLUGIN = textwrap.dedent('''
    """A plug-in bot for the tests: checks when it can, else calls."""
    from fourcards.kind.actions import ActionKind


    class CallerBot:
        name = "caller"

        def act(self, observation, legal_actions, rng):
            kinds = {la.kind: la for la in legal_actions}
            return (kinds.get(ActionKind.CHECK) or kinds[ActionKind.CALL]).action()


    def broken():
        return object()
''')


def make_distribution(root: Path, entry_points: str, name: str = "fc_plugin_demo") -> Path:
    """A minimal installed distribution under ``root``: the module and its dist-info."""
    (root / f"{name}.py").write_text(PLUGIN)
    info = root / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[fourcards.bots]\n{entry_points}\n")
    return root


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_distribution(tmp_path, "caller = fc_plugin_demo:CallerBot\n"
                                       "odds = fc_plugin_demo:CallerBot\n"
                                       "broken = fc_plugin_demo:broken\n"
                                       "missing = fc_plugin_no_such_module:Bot")
    monkeypatch.syspath_prepend(str(root))
    return root


def test_plugin_bot_is_listed_after_the_built_ins(plugin: Path) -> None:
    names = kb.bot_names()
    assert names[:3] == ("odds", "cautious", "random")
    assert "caller" in names and names.count("odds") == 1


def test_plugin_cannot_replace_a_built_in(plugin: Path) -> None:
    assert isinstance(kb.make_bot("odds"), kb.OddsBot)


def test_plugin_bot_is_made_by_name_and_plays_a_deal(plugin: Path) -> None:
    import random

    from fourcards.kind.rules import KindRules

    bot = kb.make_bot("Caller")
    assert type(bot).__name__ == "CallerBot"
    game = kb.play_deal(KindRules(), [bot, kb.make_bot("odds"), bot, kb.make_bot("random")], [200] * 4,
                        random.Random(3))
    assert game.is_terminal and sum(game.payoffs) == 0


def test_plugin_that_makes_no_bot_or_cannot_load_is_named_in_the_error(plugin: Path) -> None:
    with pytest.raises(RulesError, match=r"plug-in bot 'broken' .* no act"):
        kb.make_bot("broken")
    with pytest.raises(RulesError, match=r"plug-in bot 'missing' \(fc_plugin_no_such_module:Bot\) cannot be loaded"):
        kb.make_bot("missing")


def test_unknown_bot_lists_the_plugins_too(plugin: Path) -> None:
    with pytest.raises(RulesError, match="choose from odds, cautious, random.*caller"):
        kb.make_bot("nobody")


def test_plugin_bot_plays_in_kind_simulate(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["kind", "simulate", "--deals", "40", "--players", "4", "--bots", "caller", "odds",
              "--seed", "1", "--json", "--no-progress"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert {b["bot"] for b in out["bots"]} == {"caller", "odds"}
    assert sum(b["mean_per_deal"] * len(b["seats"]) for b in out["bots"]) == pytest.approx(0)


def test_plugin_bot_takes_a_seat_in_kind_play(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["kind", "play", "--players", "4", "--bots", "4", "--bot-kind", "caller", "--seed", "2",
              "--deals", "1"])
    assert exc.value.code == 0
    assert "caller" in capsys.readouterr().out


def test_unknown_bot_in_kind_simulate_is_one_error_line(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["kind", "simulate", "--deals", "4", "--players", "4", "--bots", "nobody", "--seed", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: unknown bot 'nobody'") and "caller" in err[0]


def test_plugin_bot_is_a_web_bot_choice_and_plays(plugin: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from fourcards.web import create_app

    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0)
    with TestClient(app) as client:
        assert "caller" in client.get("/api/presets").json()["bots"]["kind"]
        r = client.post("/api/tables", json={"game": "kind", "host_name": "Host", "bots": 0})
        assert r.status_code == 201, r.text
        table = r.json()
        tid, token = table["table"]["id"], table["token"]
        hdr = {"X-Seat-Token": token}
        s = client.get(f"/api/tables/{tid}/state", headers=hdr).json()
        assert "caller" in s["bot_kinds"]
        r = client.post(f"/api/tables/{tid}/bots", json={"count": 3, "kind": "caller"}, headers=hdr)
        assert r.status_code == 200, r.text
        s = client.get(f"/api/tables/{tid}/state", headers=hdr).json()
        bots = [p for p in s["players"] if p["is_bot"]]
        assert len(bots) == 3 and {p.get("bot_kind") for p in bots} == {"caller"}
        assert client.post(f"/api/tables/{tid}/deal", json={}, headers=hdr).status_code == 200
        for _ in range(200):  # the host checks or calls; the plug-in bots answer at once
            s = client.get(f"/api/tables/{tid}/state", headers=hdr).json()
            if s["deal"] is None or s["deal"].get("finished"):
                break
            kinds = {a["kind"] for a in s["actions"]}
            move = {"kind": "check"} if "check" in kinds else {"kind": "call"}
            r = client.post(f"/api/tables/{tid}/actions", json=move, headers=hdr)
            assert r.status_code == 200, r.text
        balances = [p["balance"] for p in s["players"]]
        assert s["deal"] is None or s["deal"].get("finished"), "the deal did not end"
        assert sum(balances) == 4 * 1000 and set(balances) != {1000}  # settled, chips conserved
