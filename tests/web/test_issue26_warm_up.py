"""Issue 26 item 6: the first play after a start costs what later ones do - the server warms up
before it accepts requests, off the event loop (fourcards.web.warmup). Shown without a clock: in a
fresh process, after the app's start-up, a first Four Card Poker round (bots of every kind, the
trainer) and a first Four of a Kind deal import no module and load no strategy table, analysis or
bot data; they did (1.2-2.5 s on a busy machine, while other tables waited). The time itself is
measured by benchmarks/first_play.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = r"""
import json, sys
from fastapi.testclient import TestClient
from fourcards.web import create_app
from fourcards.poker import bots as poker_bots
from fourcards.poker.exact import strategy
from fourcards.poker.exact import figures, tables
from fourcards.table import players

LOADERS = {"poker bots": poker_bots._built_in, "strategy classes": strategy._present_classes,
           "exact tables": tables.base_tables, "hand classes": figures.class_of_rank,
           "kind bot names": players.kind_bot_names, "poker bot names": players.poker_bot_names}
try:
    from fourcards.rl import bots as rl_bots
    LOADERS["learned bot"] = rl_bots.learned_table
except ImportError:
    pass

def loaded():
    return {name: f.cache_info().currsize for name, f in LOADERS.items()}

with TestClient(create_app(sys.argv[1], bot_delay=0, rate_limits="off")) as c:
    modules, caches = set(sys.modules), loaded()
    kinds = c.get("/api/presets").json()["bots"]
    t = c.post("/api/tables", json={"game": "poker", "host_name": "Ann", "seat_approval": False}).json()
    tid, h = t["table"]["id"], {"X-Seat-Token": t["token"]}
    for kind in kinds["poker"]:
        c.post(f"/api/tables/{tid}/bots", json={"count": 1, "kind": kind}, headers=h)
    c.post(f"/api/tables/{tid}/actions", json={"kind": "wager", "ante": 10, "aces_up": 5}, headers=h)
    c.post(f"/api/tables/{tid}/deal", json={}, headers=h)
    r = c.post(f"/api/tables/{tid}/actions", json={"kind": "play", "amount": 10, "trainer": True}, headers=h)
    assert r.status_code == 200, r.text
    trainer = c.get(f"/api/tables/{tid}/state", headers=h).json()["trainer"]
    k = c.post("/api/tables", json={"game": "kind", "host_name": "Ann", "bots": 0, "seat_approval": False}).json()
    kid, kh = k["table"]["id"], {"X-Seat-Token": k["token"]}
    for i in range(max(3, len(kinds["kind"]))):
        c.post(f"/api/tables/{kid}/bots", json={"count": 1, "kind": kinds["kind"][i % len(kinds["kind"])]}, headers=kh)
    assert c.post(f"/api/tables/{kid}/deal", json={}, headers=kh).status_code == 200
    view = c.get(f"/api/tables/{kid}/state", headers=kh).json()
    print(json.dumps({"new_modules": sorted(m for m in set(sys.modules) - modules if m.startswith(("fourcards", "numba", "numpy", "gymnasium", "pettingzoo"))),
                      "caches_before": caches, "caches_after": loaded(), "trainer": trainer is not None,
                      "kind_dealt": view["game"] == "kind"}))
"""


@pytest.mark.slow
def test_issue26_6_the_first_play_after_a_start_loads_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    r = subprocess.run([sys.executable, "-c", SCRIPT, f"sqlite:///{tmp_path / 'first.db'}"], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["trainer"] and got["kind_dealt"]
    assert got["new_modules"] == [] and got["caches_after"] == got["caches_before"], got
