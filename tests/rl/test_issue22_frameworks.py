"""Issue 22, item 1: every framework check a bot writer runs passes (Gymnasium, PettingZoo, OpenSpiel),
and each defect the issue lists is fixed (one test each)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from fourcards.cards import parse_cards
from fourcards.errors import CardError, IllegalActionError, RulesError
from fourcards.rl import PokerEnv, PokerVectorEnv

DEAL_CARDS = "As Ad 7c 5h 2d"


# ------------------------------------------------------------------ Gymnasium


@pytest.mark.parametrize("rules", ["live", "online"])
def test_issue22_check_env_passes_on_gymnasium_make(rules: str) -> None:
    """The id was registered with max_episode_steps=1: check_env said "Environment truncates after 1 step"."""
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import fourcards.rl  # noqa: F401 - registers the ids

    env = gym.make("fourcards/FourCardPoker-v0", rules=rules)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "different from the unwrapped version": the checker's advice
        check_env(env)
    assert env.spec is not None and env.spec.max_episode_steps is None
    env.reset(seed=0)
    _, _, terminated, truncated, _ = env.step(1)
    assert terminated and not truncated


def test_issue22_the_id_names_its_module_and_has_a_vector_entry_point() -> None:
    import subprocess
    import sys

    code = ("import gymnasium as gym\n"
            "env = gym.make('fourcards.rl:fourcards/FourCardPoker-v0')\n"
            "vec = gym.make_vec('fourcards/FourCardPoker-v0', num_envs=16, rules='online')\n"
            "print(type(env.unwrapped).__name__, type(vec).__name__, vec.num_envs)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.split() == ["PokerEnv", "PokerVectorEnv", "16"], out.stderr


def test_issue22_vector_env_action_space_samples_legal_actions_only() -> None:
    """MultiDiscrete([4] * 8) lost the online 1x/3x rule: step(action_space.sample()) raised."""
    vec = PokerVectorEnv(8, "online")
    vec.reset(seed=0)
    vec.action_space.seed(1)
    seen = set()
    for _ in range(50):
        actions = vec.action_space.sample()
        assert actions.shape == (8,) and actions in vec.action_space
        seen |= set(actions.tolist())
        vec.step(actions)
    assert seen == {0, 1, 3}
    assert vec.action_masks().shape == (8, 4) and vec.action_masks()[:, 2].sum() == 0


def test_issue22_vector_env_refuses_a_step_before_reset() -> None:
    """PokerVectorEnv(4, "live").step([1, 2, 3, 0]) before reset settled an all-2c deal."""
    vec = PokerVectorEnv(4, "live")
    with pytest.raises(IllegalActionError, match=r"call reset\(\) first"):
        vec.step(np.array([1, 2, 3, 0]))
    vec.reset(seed=0)
    assert vec.step(np.array([1, 2, 3, 0]))[1].shape == (4,)


def test_issue22_reset_deals_what_the_options_leave_out() -> None:
    """reset(options={"cards": ...}) alone raised a raw KeyError: 'dealer'."""
    env = PokerEnv()
    obs, _ = env.reset(seed=5, options={"cards": DEAL_CARDS})
    dealt = np.flatnonzero(obs[:52]).tolist()
    assert dealt == sorted(c.index for c in parse_cards(DEAL_CARDS))
    dealer = env.state.history[-1].dealer
    assert len(set(dealer) | set(env.state.observation(0).players[0].cards)) == 11
    obs, _ = env.reset(seed=5, options={"cards": DEAL_CARDS, "up_card": "Kc"})
    assert np.flatnonzero(obs[52:]).tolist() == [44]
    obs, _ = env.reset(options={"dealer": "Kc Kd 9s 8h 4c 3s"})
    assert np.flatnonzero(obs[52:]).tolist() == [7]  # the last of the six: 3s = (3 - 2) * 4 + 3
    with pytest.raises(RulesError, match="unknown reset option.*'hand'"):
        env.reset(options={"hand": DEAL_CARDS})
    with pytest.raises(CardError, match="given twice"):
        env.reset(options={"cards": DEAL_CARDS, "up_card": "As"})
    with pytest.raises(CardError):
        env.reset(options={"cards": "As Ad 7c"})


def test_issue22_action_masks_for_maskable_learners() -> None:
    env = PokerEnv("online")
    with pytest.raises(IllegalActionError, match="reset"):
        env.action_masks()
    env.reset(seed=0)
    assert env.action_masks().tolist() == [True, True, False, True]
    env.step(3)
    assert not env.action_masks().any()


# ------------------------------------------------------------------ PettingZoo


def test_issue22_kind_env_before_reset_names_the_problem() -> None:
    """last()/step() before reset raised AttributeError 'agent_selection'."""
    from fourcards.rl import KindEnv, kind_env

    raw = KindEnv()
    for call in (raw.last, lambda: raw.step(1), lambda: raw.observe("player_0")):
        with pytest.raises(IllegalActionError, match=r"call reset\(\) first"):
            call()
    wrapped = kind_env()
    with pytest.raises(AssertionError, match="reset"):
        wrapped.step(1)
    with pytest.raises(AttributeError, match="before reset"):
        wrapped.last()


def test_issue22_ansi_render_returns_text_and_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """render_mode="ansi" printed on every step instead of returning text."""
    from fourcards.rl import kind_env

    env = kind_env(render_mode="ansi")
    env.reset(seed=1)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = env.render()
    assert isinstance(text, str) and "seat 1" in text and "pot" in text
    assert capsys.readouterr().out == ""
    human = kind_env(render_mode="human")
    human.reset(seed=1)
    assert human.render() is None and "seat 1" in capsys.readouterr().out


@pytest.mark.parametrize("make", ["kind_env", "kind_session_env"])
def test_issue22_pettingzoo_render_test_and_seed_test_pass(make: str) -> None:
    from pettingzoo.test import render_test, seed_test

    import fourcards.rl.kind as module

    factory = getattr(module, make)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        render_test(lambda render_mode=None: factory(players=5, render_mode=render_mode))
        seed_test(lambda: factory(players=6, stack=60))


def test_issue22_illegal_reward_ends_the_episode_as_pettingzoo_classic_games_do() -> None:
    """The episode ends as in PettingZoo's classic games; the penalty is at least the chips the seat
    has in the pot - here its ante of 5 - since rewards are chips (issue 26 item 8)."""
    from fourcards.rl import kind_env

    env = kind_env(illegal_reward=-1)
    env.reset(seed=2)
    agent = env.agent_selection
    obs, *_ = env.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and env.rewards[agent] == -5


# ------------------------------------------------------------------ session env


def test_issue22_session_env_carries_stacks_rotates_the_button_and_busts_players() -> None:
    """rules.md FOAK-1 (the button rotates), FOAK-9 (a seat that cannot ante sits out: in a session it is out)."""
    from pettingzoo.test import api_test

    from fourcards.rl import kind_session_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(kind_session_env(players=5, stack=40, deals=10), num_cycles=1500, verbose_progress=False)
    env = kind_session_env(players=6, stack=40)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    buttons, busted = [], []
    deal = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if env.unwrapped.deal_number != deal:
            deal = env.unwrapped.deal_number
            buttons.append(env.unwrapped.game.button)
        if terminated or truncated:
            if info.get("stack", 1) < 5:
                busted.append(agent)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert deal > 1 and sum(totals.values()) == 0
    stacks = env.unwrapped.session_stacks
    assert sum(stacks) == 240 and sum(s >= 5 for s in stacks) < 4  # it ran until too few could ante
    assert busted and all(stacks[env.unwrapped.possible_agents.index(a)] < 5 for a in busted)
    assert buttons[1] != buttons[0]


def test_issue22_session_env_truncates_after_its_deals() -> None:
    from fourcards.rl import kind_session_env

    env = kind_session_env(players=4, stack=1000, deals=3)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.deal_number == 3
    with pytest.raises(RulesError, match="deals"):
        kind_session_env(deals=0)


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize("preset", ["family", "opr903"])
def test_issue22_13_player_deals_never_exceed_the_declared_max_game_length(preset: str) -> None:
    """Under opr903 49 of 100 random 13-player deals ran past 2,704 moves (re-dealt duplicates)."""
    import pyspiel

    import fourcards.openspiel  # noqa: F401

    game = pyspiel.load_game(f"python_four_of_a_kind(players=13,preset={preset})")
    rng = random.Random(13)
    longest = 0
    for _ in range(40):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
            assert moves <= game.max_game_length()
        longest = max(longest, moves)
    assert longest >= 13 + 3


def test_issue22_opr903_deal_nodes_offer_only_ranks_nobody_holds() -> None:
    import pyspiel

    import fourcards.openspiel  # noqa: F401
    from fourcards.cards import Card

    state = pyspiel.load_game("python_four_of_a_kind(preset=opr903)").new_initial_state()
    state.apply_action(Card.parse("Qs").index)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 48 and Card.parse("Qd").index not in outcomes


def test_issue22_game_types_agree_with_the_games() -> None:
    """provides_information_state_tensor was False while information_state_tensor() worked; Four of a Kind
    declared min_num_players=2 and refused fewer than 4."""
    import pyspiel

    import fourcards.openspiel  # noqa: F401

    for name in ("python_four_of_a_kind", "python_four_card_poker(players=2)"):
        game = pyspiel.load_game(name)
        assert game.get_type().provides_information_state_tensor
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        tensor = state.information_state_tensor()
        assert len(tensor) == game.information_state_tensor_shape()[0] and sum(tensor) > 0
    kind = pyspiel.load_game("python_four_of_a_kind")
    assert kind.get_type().min_num_players == 4 == kind.num_players()
    with pytest.raises(RulesError):
        pyspiel.load_game("python_four_of_a_kind(players=3)")
    with pytest.raises(RulesError, match="information"):
        pyspiel.load_game("python_four_of_a_kind(information=partial)")


@pytest.mark.parametrize("name", ["python_four_card_poker(players=2)", "python_four_card_poker(preset=online)",
                                  "python_four_of_a_kind(information=imperfect)"])
def test_issue22_an_is_mcts_bot_plays_the_game(name: str) -> None:
    """ismcts.ISMCTSBot on python_four_card_poker failed: ResampleFromInfostate() not implemented."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import fourcards.openspiel  # noqa: F401

    game = pyspiel.load_game(name)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=15,
                           random_state=rng)
    decisions = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            else:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
                decisions += 1
    assert decisions >= 2


def test_issue22_poker_resample_keeps_what_the_player_knows_and_redeals_the_rest() -> None:
    import pyspiel

    import fourcards.openspiel  # noqa: F401

    game = pyspiel.load_game("python_four_card_poker(players=3)")
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    state.apply_action(3)  # player 0 plays 3x; player 1 to decide
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(20):
        sample = state.resample_from_infostate(1, sampler)
        assert sample.information_state_string(1) == state.information_state_string(1)
        assert sample.current_player() == 1
        others.add(tuple(sample.drawn[:5]))
    assert len(others) > 1
