"""Issue 26 item 8: in ``kind_env`` an illegal move is never cheaper than a fold (rewards are chips),
and the seat count has one range, 4-13, in every message and help text."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from fourcards.errors import RulesError  # noqa: E402
from fourcards.rl import kind_env, kind_session_env  # noqa: E402
from fourcards.rl.encoding import CALL, CHECK, FOLD  # noqa: E402

BET_10 = 2 + 10  # the action id of a bet (or raise) of 10


def _step(env, action: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns on an illegal move
        env.step(action)


def test_issue26_8_illegal_check_facing_a_raise_costs_what_the_fold_does() -> None:
    """The issue's case: a seat with 15 chips in (ante 5, bet 10) facing a raise plays an illegal
    check: it got -1 (and folding cost -15); now -15, the fold's cost."""
    env = kind_env(players=4, illegal_reward=-1)
    env.reset(seed=3)
    first = env.agent_selection
    _step(env, BET_10)  # 5 + 10 in
    for _ in range(3):
        obs, *_ = env.last()
        if env.agent_selection != first:
            _step(env, BET_10 if obs["action_mask"][BET_10] else CALL)
    assert env.agent_selection == first
    obs, *_ = env.last()
    assert obs["action_mask"][CHECK] == 0 and obs["action_mask"][FOLD] == 1  # facing a raise
    in_pot = env.unwrapped.game.observation(None).seats[env.unwrapped._player(first)].contributed
    assert in_pot == 15
    _step(env, CHECK)
    assert all(env.terminations.values())
    assert env.rewards[first] == -15.0 and sum(v for a, v in env.rewards.items() if a != first) == 0


def _legal(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


@pytest.mark.parametrize("make", [kind_env, kind_session_env])
def test_issue26_8_an_illegal_move_is_never_cheaper_than_folding_there(make) -> None:
    """Seeded walks: at a point where the seat may fold, one copy of the table gets an illegal id,
    another the fold, then plays on to the end of the deal; the illegal move's reward is at most the
    fold's result (what the seat had in the pot)."""
    compared = 0
    for seed in range(25):
        rng = random.Random(seed)
        a, b = make(players=5, illegal_reward=-1), make(players=5)
        a.reset(seed=seed)
        b.reset(seed=seed)
        for _ in range(rng.randrange(0, 10)):
            obs, _, done, cut, _ = a.last()
            if done or cut:
                break
            move = _legal(obs["action_mask"], rng)
            _step(a, move)
            _step(b, move)
        obs, _, done, cut, _ = a.last()
        if done or cut or not obs["action_mask"][FOLD]:
            continue
        agent = a.agent_selection
        _step(a, int(np.flatnonzero(obs["action_mask"] == 0)[0]))
        deal, player = b.unwrapped.game, b.unwrapped._player(agent)
        _step(b, FOLD)
        while not deal.is_terminal:  # the others check or call to the end of the deal
            obs_b, *_ = b.last()
            _step(b, CHECK if obs_b["action_mask"][CHECK] else CALL)
        assert a.rewards[agent] <= deal.returns()[player] < 0
        compared += 1
    assert compared >= 10


def test_issue26_8_one_seat_range_in_messages_and_help() -> None:
    """kind_env, the engine and both commands say 4-13 (no "2 to 13 seats", no "[1<=x<=13]")."""
    for n in (1, 3, 14):
        with pytest.raises(RulesError, match="needs 4 to 13 players"):
            kind_env(players=n)
    for cmd in (["kind", "simulate", "--help"], ["kind", "play", "--help"]):
        out = subprocess.run([sys.executable, "-m", "fourcards", *cmd], capture_output=True, text=True,
                             env={**os.environ, "COLUMNS": "200"}).stdout
        assert "4<=x<=13" in out and "1<=x<=13" not in out, out
