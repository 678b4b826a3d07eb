"""Bots and learning benchmarks: the Gymnasium, PettingZoo and OpenSpiel adapters, and side-pot odds.

Run: ``pytest benchmarks/bench_rl.py --benchmark-only`` (docs/rl.md "Speed", docs/kind.md "Bots").
"""

from __future__ import annotations

import random

import numpy as np

from fourcards.kind import parse_holdings
from fourcards.kind.odds import _solve_pot, pot_equity
from fourcards.kind.pots import Pot
from fourcards.rl import PokerEnv, PokerVectorEnv, kind_env

ROUNDS = 1 << 18


def test_bench_poker_vector_env_step(benchmark):
    """One step of PokerVectorEnv: 262,144 rounds decided, settled and dealt anew."""
    env = PokerVectorEnv(ROUNDS)
    env.reset(seed=0)
    actions = np.ones(ROUNDS, dtype=np.int64)
    env.step(actions)  # compile
    _, rewards, *_ = benchmark(env.step, actions)
    assert rewards.shape == (ROUNDS,)


def test_bench_poker_env_episode(benchmark):
    """One PokerEnv episode through the engine protocol: wagers, the deal, play 1x, settle."""
    env = PokerEnv()
    env.reset(seed=0)

    def episode() -> float:
        env.reset()
        return env.step(1)[1]

    benchmark(episode)


def test_bench_kind_env_deal(benchmark):
    """One PettingZoo deal of Four of a Kind, 6 players, random masked moves."""
    env = kind_env(players=6)
    rng = random.Random(0)

    def deal() -> int:
        env.reset(seed=rng.randrange(2**32))
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            steps += 1
            env.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return steps

    assert benchmark(deal) > 6


def test_bench_openspiel_four_of_a_kind_deal(benchmark):
    """One OpenSpiel deal of python_four_of_a_kind, 6 players, random play."""
    import pyspiel

    import fourcards.openspiel  # noqa: F401

    game = pyspiel.load_game("python_four_of_a_kind(players=6)")
    rng = random.Random(0)

    def deal() -> list[float]:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state.returns()

    assert sum(benchmark(deal)) == 0


def test_bench_pot_equity_13_players_two_side_pots(benchmark):
    """Exact expected chips of 13 seats from a main pot and two side pots, uncached."""
    hs = dict(enumerate(parse_holdings("2 33 444 5 66 777 8 9 TT J Q K A".split())))
    pots = [Pot(130, tuple(range(13))), Pot(60, tuple(range(1, 13))), Pot(20, (3, 5, 7))]

    def solve() -> dict:
        _solve_pot.cache_clear()
        return pot_equity(hs, pots)

    assert sum(benchmark(solve).values()) == 210
