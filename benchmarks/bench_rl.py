"""Bots and learning benchmarks: the Gymnasium, PettingZoo and OpenSpiel adapters, and side-pot odds.

Run: ``pytest benchmarks/bench_rl.py --benchmark-only`` (docs/rl.md "Speed", docs/kind.md "Bots").

The ``*_steps`` benchmarks play :data:`STEPS` random legal moves each (agent moves; chance
steps are done inside and not counted) so their rates compare, in one run: the batched Four
of a Kind environment (numba, one core), our PettingZoo and OpenSpiel adapters, PettingZoo
classic's ``texas_holdem_v4`` (skipped without ``rlcard`` and ``pygame``, which the project does
not install) and OpenSpiel's C++ ``universal_poker`` and ``leduc_poker``.
"""

from __future__ import annotations

import random

import numpy as np

from fourcards.kind import parse_holdings
from fourcards.kind.odds import _solve_pot, pot_equity
from fourcards.kind.pots import Pot
from fourcards.rl import PokerEnv, PokerVectorEnv, kind_env

ROUNDS = 1 << 18
#: Agent moves per call of the ``*_steps`` benchmarks (the batched env: one step of this many deals).
STEPS = 16384


def _rate(benchmark, fn) -> None:
    moves = benchmark.pedantic(fn, rounds=5, iterations=1, warmup_rounds=1)
    assert moves >= STEPS
    benchmark.extra_info["moves_per_call"] = moves


def _vector_steps(benchmark, players: int, threads: int = 1) -> None:
    from fourcards.rl.kind_vector import kind_vector_env

    env = kind_vector_env(STEPS, players, threads=threads)
    env.reset(seed=0)

    def step() -> int:
        env.step(env.sample())
        return STEPS

    _rate(benchmark, step)


def test_bench_kind_vector_env_steps_4_players(benchmark):
    """KindVectorEnv: one step of 16,384 four-seat deals, random legal ids (env.sample)."""
    _vector_steps(benchmark, 4)


def test_bench_kind_vector_env_steps_4_players_2_threads(benchmark):
    """KindVectorEnv: one step of 16,384 four-seat deals in two threads (half each), random legal ids."""
    _vector_steps(benchmark, 4, threads=2)


def test_bench_kind_vector_env_steps_8_players(benchmark):
    """KindVectorEnv: one step of 16,384 eight-seat deals, random legal ids."""
    _vector_steps(benchmark, 8)


def test_bench_kind_vector_learner_against_learned(benchmark):
    """KindVectorEnv with opponents: 16,384 deals, the learner (seat 0, random legal ids) against ``learned`` in
    numba in seats 1-3; the rate counts the learner's decisions (the opponents' moves are inside each step)."""
    from fourcards.rl.kind_vector import kind_vector_env

    env = kind_vector_env(STEPS, 4, opponents="learned")
    env.reset(seed=0)

    def step() -> int:
        env.step(env.sample())
        return STEPS

    _rate(benchmark, step)


def _aec_moves(env, rng: random.Random) -> int:
    moves = 0
    env.reset(seed=rng.randrange(2**31))
    while moves < STEPS // 16:
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            moves += 1
        env.reset(seed=rng.randrange(2**31))
    return moves * 16


def test_bench_kind_env_steps(benchmark):
    """PettingZoo kind_env, 4 players: 1,024 random masked moves (rate scaled to STEPS)."""
    env = kind_env(players=4)
    rng = random.Random(0)
    _rate(benchmark, lambda: _aec_moves(env, rng))


def test_bench_pettingzoo_texas_holdem_steps(benchmark):
    """PettingZoo classic texas_holdem_v4 (rlcard): 1,024 random masked moves (rate scaled to STEPS)."""
    import pytest

    pytest.importorskip("rlcard")
    pytest.importorskip("pygame")
    from pettingzoo.classic import texas_holdem_v4

    env = texas_holdem_v4.env()
    rng = random.Random(0)
    _rate(benchmark, lambda: _aec_moves(env, rng))


def _spiel_moves(game, rng: random.Random, moves: int) -> int:
    done = 0
    while done < moves:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                done += 1
    return done


def test_bench_openspiel_python_four_of_a_kind_steps(benchmark):
    """OpenSpiel python_four_of_a_kind, 4 players: 1,024 random moves (rate scaled to STEPS)."""
    import pyspiel

    import fourcards.openspiel  # noqa: F401

    game = pyspiel.load_game("python_four_of_a_kind")
    rng = random.Random(0)
    _rate(benchmark, lambda: _spiel_moves(game, rng, STEPS // 16) * 16)


def test_bench_openspiel_cpp_universal_poker_steps(benchmark):
    """OpenSpiel's C++ universal_poker (two-player limit hold'em by default): STEPS random moves."""
    import pyspiel

    game = pyspiel.load_game("universal_poker")
    rng = random.Random(0)
    _rate(benchmark, lambda: _spiel_moves(game, rng, STEPS))


def test_bench_openspiel_cpp_leduc_poker_steps(benchmark):
    """OpenSpiel's C++ leduc_poker: STEPS random moves."""
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    rng = random.Random(0)
    _rate(benchmark, lambda: _spiel_moves(game, rng, STEPS))


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
