"""Issue 30, items 1 and 2: KindVectorEnv as a Gymnasium VectorEnv, the single env it vectorises
(``fourcards/FourOfAKind-v0``), and opponents in every Four of a Kind environment (docs/rl.md
"Opponents and self-play").
"""

from __future__ import annotations

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, VectorEnv
from pettingzoo.test import api_test

import fourcards.rl  # noqa: F401 - registers the ids
from fourcards.cards import Card
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind.bots import PotsBot, RandomBot
from fourcards.kind.game import Game
from fourcards.rl import KindGymEnv, KindVectorEnv, League, OpponentPool, kind_env, kind_session_env
from fourcards.rl.bots import LearnedKindBot
from fourcards.rl.encoding import KindActions, kind_tensor
from fourcards.rl.kind_vector import kind_vector_env


def _replay(env: KindVectorEnv, deal: dict) -> Game:
    game = Game(env.rules, deal["stacks"], deal["button"], cards=[Card(c) for c in deal["cards"]])
    encoder = KindActions(env.rules)
    for action in deal["actions"]:
        game.apply(encoder.action(action, game.legal_actions()))
    return game


def test_issue30_1_kind_vector_env_is_a_gymnasium_vector_env_with_spaces_and_same_step_autoreset() -> None:
    env = kind_vector_env(32, 5, stack=60, record=True)
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.single_observation_space == gym.spaces.Box(0.0, 1.0, (146,), np.float32)
    assert env.single_action_space == gym.spaces.Discrete(13)
    assert env.observation_space.shape == (32, 146) and env.action_space.shape == (32,)
    obs, info = env.reset(seed=4)
    assert obs in env.observation_space
    ended = 0
    for _ in range(150):
        actions = env.action_space.sample()  # legal ids only
        assert env.action_masks()[np.arange(32), actions].all()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs in env.observation_space and rewards.shape == (32, 5)
        assert (info["_final_obs"] == terminated).all()
        for i in np.flatnonzero(terminated):  # the final tensor: the finished deal as its last mover saw it
            deal = env.last_deal(int(i))
            game = _replay(env, {**deal, "actions": deal["actions"][:-1]})
            last = game.actor
            game.apply(env.encoder.action(deal["actions"][-1], game.legal_actions()))
            assert game.is_terminal
            assert np.array_equal(info["final_obs"][i], kind_tensor(game.observation(last), env.total_chips))
            ended += 1
    assert ended > 20


def test_issue30_1_check_env_passes_on_the_vector_envs_single_env_and_make_vec_gives_the_vector_env() -> None:
    single = gym.make("fourcards/FourOfAKind-v0", players=4, opponents="pots")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's advice to pass env.unwrapped
        check_env(single)
    check_env(KindGymEnv(6, stack=60, opponents=["random", None, "pots", "learned", "odds", "cautious"]),
              skip_render_check=True)
    vec = gym.make_vec("fourcards/FourOfAKind-v0", num_envs=16, players=4, opponents="learned")
    assert isinstance(vec, KindVectorEnv) and vec.learner == 0
    assert vec.single_observation_space == single.observation_space
    assert vec.single_action_space == single.action_space
    obs, info = vec.reset(seed=0)
    assert (info["actor"] == 0).all() and obs.shape == (16, 118)


def test_issue30_1_gym_env_forfeits_or_refuses_a_masked_id_and_plays_one_deal_an_episode() -> None:
    env = KindGymEnv(4, opponents="random", illegal="raise")
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(1)
    obs, info = env.reset(seed=3)
    forbidden = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(forbidden)
    forfeiting = KindGymEnv(4, opponents="random")
    forfeiting.reset(seed=3)
    _, reward, done, _, lost = forfeiting.step(forbidden)  # never cheaper than folding: the ante is lost
    assert done and lost["illegal"] and reward == -forfeiting.rules.ante
    total, done = 0.0, False
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        total += reward
        assert not truncated
    assert total == env.game.returns()[0] and not env.action_masks().any()


def test_issue30_2_opponents_in_the_vector_env_play_the_engines_game_to_the_same_returns() -> None:
    """The learner in seat 2 against random (numba), learned (numba), pots (an engine bot on the env's
    observation) and a policy: every deal, opponents' moves included, replays through the engine."""

    def calls(tensor: np.ndarray, mask: np.ndarray) -> int:  # a per-row policy on the tensors
        return 2 if mask[2] else 1

    env = kind_vector_env(24, 5, stack=80, record=True, opponents=["random", "learned", None, PotsBot(), calls])
    obs, info = env.reset(seed=9)
    assert (info["actor"] == 2).all()
    ended = 0
    for _ in range(60):
        actions = env.sample()
        obs, rewards, terminated, _, info = env.step(actions)
        assert rewards.shape == (24,) and (info["actor"] == 2).all()
        for i in np.flatnonzero(terminated):
            game = _replay(env, env.last_deal(int(i)))
            assert game.is_terminal and rewards[i] == game.returns()[2]
            assert np.array_equal(info["final_obs"][i], kind_tensor(game.observation(2), env.total_chips))
            ended += 1
        assert not rewards[~terminated].any()
    assert ended > 30


def test_issue30_2_numba_opponents_choose_as_the_engine_bots_on_the_envs_observation() -> None:
    env = kind_vector_env(40, 6, stack=120, record=True)
    env.reset(seed=5)
    learned, table = LearnedKindBot(), env._resolve("learned")
    compared = 0
    for _ in range(25):
        rows = np.arange(env.num_envs)
        out = np.full(env.num_envs, -1, dtype=np.int64)
        table.moves(env, rows, out)
        for i in range(0, env.num_envs, 4):
            view = env.observation(i)
            game = _replay(env, env._current_deal(i))
            engine = game.observation(game.actor)
            assert view.legal_actions == engine.legal_actions and view.holdings() == engine.holdings()
            assert (view.pot, view.bet, view.full_wagers, view.to_call) == (engine.pot, engine.bet,
                                                                           engine.full_wagers, engine.to_call)
            assert out[i] == env.encoder.to_id(learned.act(view, view.legal_actions, random.Random()))
            assert env.encoder.to_id(PotsBot().act(view, view.legal_actions, random.Random())) == \
                env.encoder.to_id(PotsBot().act(engine, engine.legal_actions, random.Random()))
            compared += 1
        env.step(env.sample())
    assert compared > 200


def test_issue30_2_random_opponent_in_numba_draws_an_option_then_an_amount_as_random_bot() -> None:
    env = kind_vector_env(4000, 4, max_bet=10)
    env.reset(seed=1)
    out = np.full(env.num_envs, -1, dtype=np.int64)
    env._resolve("random").moves(env, np.arange(env.num_envs), out)
    masks = env.action_masks()
    assert masks[np.arange(env.num_envs), out].all()
    opening = masks[:, 1] & masks[:, 7:13].all(axis=1) & ~masks[:, 0]  # check, or bet 5-10
    checks = (out[opening] == 1).mean()
    assert abs(checks - 0.5) < 0.05  # two options: check, bet (RandomBot), not 1 in 7 ids
    bets = out[opening & (out != 1)]
    assert set(np.unique(bets).tolist()) == set(range(7, 13))


def test_issue30_2_a_pool_is_drawn_per_deal_reproducibly_and_a_league_adds_snapshots() -> None:
    def always_call(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.where(masks[:, 2], 2, 1)

    always_call.vectorized = True  # type: ignore[attr-defined]
    pool = OpponentPool(["random", always_call], weights=[1, 3])
    seen = []
    for _ in range(2):
        env = kind_vector_env(64, 4, opponents=pool)
        env.reset(seed=2)
        drawn = [env._assign.copy()]
        for _ in range(40):
            env.step(env.sample())
            drawn.append(env._assign.copy())
        seen.append(np.stack(drawn))
    assert np.array_equal(seen[0], seen[1])  # the same seed draws the same opponents
    share = (seen[0][:, :, 1:] == env._player_of(always_call)).mean()
    assert 0.65 < share < 0.85  # weight 3 of 4
    assert len({tuple(row) for row in seen[0][-1, :, 1:].tolist()}) > 1
    league = League(["random"], snapshots=2, self_play=1.0)
    env = kind_vector_env(32, 4, opponents=league)
    env.reset(seed=0)
    assert league.add(always_call) == "snapshot-1"
    for _ in range(30):
        env.step(env.sample())
    assert (env._assign[:, 1:] == env._player_of(always_call)).all()  # self_play 1: only snapshots
    league.add(always_call, "again")
    league.add(always_call, "third")
    assert league.names[-2:] == ["again", "third"] and len(league.snapshots) == 2
    with pytest.raises(RulesError):
        OpponentPool([])


def test_issue30_2_pettingzoo_envs_take_opponents_and_pass_the_api_test() -> None:
    env = kind_env(players=4, opponents="pots", seat=1)
    api_test(env, num_cycles=60)
    assert env.possible_agents == ["player_1"]
    env = kind_env(players=5, stack=60, opponents=[None, RandomBot(), None, "learned", "odds"])
    api_test(env, num_cycles=60)
    env.reset(seed=4)
    assert env.possible_agents == ["player_0", "player_2"]
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert agent in env.possible_agents
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    session = kind_session_env(players=4, stack=40, deals=30, opponents=OpponentPool(["random", "pots"]))
    api_test(session, num_cycles=100)
    with pytest.raises(RulesError, match="leave the learner"):
        kind_env(players=4, opponents=["pots"] * 4)


def test_issue30_2_an_opponents_illegal_id_is_named() -> None:
    def bad(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.zeros(len(obs), dtype=np.int64)  # fold, even with nothing to call

    bad.vectorized = True  # type: ignore[attr-defined]
    env = kind_vector_env(8, 4, opponents=bad)
    with pytest.raises(IllegalActionError, match="opponent 'bad'"):
        for _ in range(5):
            env.reset(seed=0)
            env.step(env.sample())


def test_issue30_1_a_step_hands_out_arrays_the_env_no_longer_uses_to_check_ids() -> None:
    env = kind_vector_env(8, 4)
    env.reset(seed=0)
    obs, _, _, _, info = env.step(env.sample())
    legal = env.action_masks()
    info["action_mask"][:] = 1  # the caller's copy: the env's own mask still decides
    obs[:] = 0
    actions = env.sample()
    actions[0] = int(np.flatnonzero(~legal[0])[0])
    with pytest.raises(IllegalActionError, match="deal 0"):
        env.step(actions)
