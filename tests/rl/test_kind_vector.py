"""Issue 22, item 4: the batched Four of a Kind environment (numba) plays the engine's game.

Its deals replay through the engine (``Game(rules, stacks, button, cards=...)`` and the recorded
action ids) to the same returns; its observations and masks are the engine's tensor and legal
actions; seeding and masks behave as for Four Card Poker's vector environment, which passes the
same checks here. Rules: docs/kind.md "The rules as implemented" (rules.md FOAK-1 to FOAK-13).
"""

from __future__ import annotations

import numpy as np
import pytest

from fourcards.cards import Card
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind.game import Game
from fourcards.rl.encoding import KindActions, kind_tensor
from fourcards.rl.kind_vector import KindVectorEnv, kind_vector_env

TABLES = [
    {"players": 4},
    {"players": 5, "stack": 60},                                     # all-ins, side pots
    {"players": 6, "stacks": [200, 30, 15, 200, 60, 90], "max_bet": 8},
    {"players": 5, "preset": "opr903", "stack": 80},                 # every duplicate re-dealt
    {"players": 13, "stack": 100},
    {"players": 4, "button": 2, "ante": 0, "min_bet": 1, "max_bet": 3, "max_raises": 1},
]


def _replay(env: KindVectorEnv, deal: dict) -> Game:
    game = Game(env.rules, deal["stacks"], deal["button"], cards=[Card(c) for c in deal["cards"]])
    encoder = KindActions(env.rules)
    for action in deal["actions"]:
        game.apply(encoder.action(action, game.legal_actions()))
    return game


@pytest.mark.parametrize("table", TABLES)
def test_issue22_batched_deals_replay_through_the_engine_to_the_same_returns(table: dict) -> None:
    env = kind_vector_env(32, record=True, **table)
    obs, info = env.reset(seed=7)
    encoder = KindActions(env.rules)
    finished = 0
    for step in range(400):
        if step % 37 == 0:  # mid-deal: the tensor and the mask are the engine's for the seat to act
            for i in range(0, env.num_envs, 5):
                game = _replay(env, env._current_deal(i))
                actor = game.actor
                assert actor == info["actor"][i] and not game.is_terminal
                assert np.array_equal(kind_tensor(game.observation(actor), env.total_chips), obs[i])
                assert np.array_equal(encoder.mask(game.legal_actions()), info["action_mask"][i])
        obs, rewards, done, truncated, info = env.step(env.sample())
        assert not truncated.any() and (rewards.sum(axis=1) == 0).all()
        for i in np.flatnonzero(done):
            deal = env.last_deal(int(i))
            game = _replay(env, deal)
            assert game.is_terminal and game.returns() == tuple(int(x) for x in rewards[i])
            finished += 1
        assert not rewards[~done].any()
    assert finished >= 32


def test_issue22_a_deals_cards_depend_on_the_seed_alone() -> None:
    """Duplicate deals: the same seed deals the same cards whatever the seats do."""
    a = kind_vector_env(8, 4, record=True)
    b = kind_vector_env(8, 4, record=True)
    a.reset(seed=3)
    b.reset(seed=3)
    first_a = [a._current_deal(i)["cards"] for i in range(8)]
    assert first_a == [b._current_deal(i)["cards"] for i in range(8)]
    done_a: dict[int, list[int]] = {}
    done_b: dict[int, list[int]] = {}
    for _ in range(300):  # a always checks or calls, b plays at random: the turned cards agree
        ma = a.action_masks()
        _, _, da, _, _ = a.step(np.where(ma[:, 1], 1, 2))
        _, _, db, _, _ = b.step(b.sample())
        for i in np.flatnonzero(da):
            done_a.setdefault(int(i), a.last_deal(int(i))["cards"])
        for i in np.flatnonzero(db):
            done_b.setdefault(int(i), b.last_deal(int(i))["cards"])
    both = set(done_a) & set(done_b)
    assert both
    for i in both:
        shorter = min(len(done_a[i]), len(done_b[i]))
        assert done_a[i][:shorter] == done_b[i][:shorter]
    c = kind_vector_env(8, 4, record=True)
    c.reset(seed=4)
    assert [c._current_deal(i)["cards"] for i in range(8)] != first_a


# --------------------------------------------- the same checks for both vector environments


def _vector_envs():
    from fourcards.rl import PokerVectorEnv

    return [pytest.param(lambda: kind_vector_env(16, 6, stack=60), id="four_of_a_kind"),
            pytest.param(lambda: PokerVectorEnv(16, "online"), id="four_card_poker")]


def _legal_sample(env) -> np.ndarray:
    return env.sample() if isinstance(env, KindVectorEnv) else env.action_space.sample()


@pytest.mark.parametrize("make", _vector_envs())
def test_issue22_vector_envs_refuse_a_step_before_reset(make) -> None:
    env = make()
    with pytest.raises(IllegalActionError, match=r"call reset\(\) first"):
        env.step(np.ones(env.num_envs, dtype=np.int64))


@pytest.mark.parametrize("make", _vector_envs())
def test_issue22_vector_envs_sample_legal_actions_and_mask_them(make) -> None:
    env = make()
    env.reset(seed=1)
    for _ in range(100):
        actions = _legal_sample(env)
        masks = env.action_masks()
        assert masks.dtype == bool and masks[np.arange(env.num_envs), actions].all()
        env.step(actions)


@pytest.mark.parametrize("make", _vector_envs())
def test_issue22_vector_envs_refuse_a_masked_action_and_change_nothing(make) -> None:
    env = make()
    obs, _ = env.reset(seed=2)
    masks = env.action_masks()
    actions = _legal_sample(env)
    forbidden = np.flatnonzero(~masks[3])
    actions[3] = forbidden[0]
    with pytest.raises(IllegalActionError, match="3"):
        env.step(actions)
    assert np.array_equal(env.action_masks(), masks)
    again, _ = make().reset(seed=2)
    assert np.array_equal(again, obs)


@pytest.mark.parametrize("make", _vector_envs())
def test_issue22_vector_envs_are_reproducible_from_the_seed(make) -> None:
    runs = []
    for _ in range(2):
        env = make()
        obs, _ = env.reset(seed=5)
        trace = [obs]
        for _ in range(30):
            obs, rewards, done, _, _ = env.step(_legal_sample(env) if isinstance(env, KindVectorEnv)
                                                else np.ones(env.num_envs, dtype=np.int64))
            trace += [obs, rewards, done]
        runs.append(trace)
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))


def test_issue22_kind_vector_env_checks_its_table() -> None:
    with pytest.raises(RulesError, match="num_envs"):
        KindVectorEnv(0)
    with pytest.raises(RulesError):
        kind_vector_env(4, players=3)
    with pytest.raises(RulesError, match="record=True"):
        kind_vector_env(4).last_deal(0)
    env = kind_vector_env(4)
    with pytest.raises(RulesError, match="seed"):
        env.reset(seed=-1)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="actions must be 4"):
        env.step(np.ones(3, dtype=np.int64))


def test_issue22_threads_do_not_change_the_deals() -> None:
    runs = []
    for threads in (1, 3):
        env = kind_vector_env(10, 5, stack=60, threads=threads)
        trace = [env.reset(seed=9)[0]]
        for _ in range(50):
            obs, rewards, done, _, _ = env.step(env.sample())
            trace += [obs, rewards, done]
        runs.append(trace)
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))
    with pytest.raises(RulesError, match="threads"):
        kind_vector_env(4, threads=0)
