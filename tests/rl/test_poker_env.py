"""Four Card Poker for Gymnasium (issue 13, items 3 and 6): PokerEnv, PokerVectorEnv, the learner.

Rulings: rules.md FCP-3 (play 1x-3x live, exactly 1x or 3x online), FCP-5/FCP-6
(ante bonus, Aces Up), FCP-8 (whole chips).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from fourcards.cards import Card, parse_cards
from fourcards.cli import main
from fourcards.errors import IllegalActionError, RulesError
from fourcards.poker import analysis as an
from fourcards.poker.round import settle_hand
from fourcards.poker.rules import get_rules
from fourcards.rl import PokerEnv, PokerVectorEnv, train_chart
from fourcards.rl.learn import cells_of
from fourcards.rl.poker import ENV_ID, encode

DEAL = {"cards": "As Ad 7c 5h 2d", "dealer": "Kc Kd 9s 8h 4c 3s", "up_card": "Kc"}


@pytest.mark.parametrize("rules", ["live", "online"])
def test_check_env_passes(rules: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec" note: render modes are checked through gymnasium.make below
        check_env(PokerEnv(rules))


def test_check_env_passes_through_gymnasium_make() -> None:
    import gymnasium as gym

    env = gym.make(ENV_ID, rules="online", render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=3)
    env.step(1)
    assert "dealer up card" in env.render()


def test_observation_is_five_cards_and_the_up_card_one_hot() -> None:
    obs, info = PokerEnv().reset(options=DEAL)
    assert obs.shape == (104,) and obs.dtype == np.int8
    assert np.flatnonzero(obs).tolist() == sorted(c.index for c in parse_cards(DEAL["cards"])) + [52 + 44]
    assert (obs == encode(parse_cards(DEAL["cards"]), parse_cards("Kc")[0])).all()
    assert info["action_mask"].tolist() == [1, 1, 1, 1]


def test_fcp3_online_masks_2x_and_refuses_it() -> None:
    env = PokerEnv("online")
    obs, info = env.reset(seed=1, options=DEAL)
    assert info["action_mask"].tolist() == [1, 1, 0, 1]
    assert {int(env.action_space.sample()) for _ in range(200)} == {0, 1, 3}
    with pytest.raises(IllegalActionError, match="action 2 is not allowed.*1x or 3x"):
        env.step(2)
    assert not env.state.is_terminal and env.state.history[-1].kind.value == "deal"  # unchanged
    _, reward, terminated, truncated, info = env.step(3)
    assert terminated and not truncated and info["result"]["wagers"]["play"] == 3


@pytest.mark.parametrize(("action", "play"), [(0, None), (1, 5), (2, 10), (3, 15)])
def test_fcp8_reward_is_the_settlement_in_chips(action: int, play: int | None) -> None:
    env = PokerEnv("live", ante=5, aces_up=2)
    env.reset(options=DEAL)
    _, reward, *_ = env.step(action)
    expected = settle_hand(get_rules("live"), parse_cards(DEAL["cards"]), parse_cards(DEAL["dealer"]),
                           ante=5, play=play, aces_up=2).net
    assert reward == expected and isinstance(reward, float)


def test_wagers_outside_the_table_limits_are_refused() -> None:
    with pytest.raises(RulesError, match="ante 0"):
        PokerEnv(ante=0)
    with pytest.raises(RulesError, match="num_envs"):
        PokerVectorEnv(0)


def test_step_after_the_round_needs_a_reset() -> None:
    env = PokerEnv()
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("rules", ["live", "online"])
def test_vector_env_pays_what_the_round_pays(rules: str) -> None:
    """Same cards, same action: the numba-settled vector env and the engine round agree."""
    vec = PokerVectorEnv(300, rules, ante=2, aces_up=1)
    obs, info = vec.reset(seed=11)
    cards = vec.cards.copy()
    rng = np.random.default_rng(0)
    allowed = np.flatnonzero(vec.mask)
    actions = allowed[rng.integers(0, len(allowed), vec.num_envs)]
    _, rewards, terminated, _, info2 = vec.step(actions)
    assert terminated.all() and (info2["final_obs"] == obs).all()
    single = PokerEnv(rules, ante=2, aces_up=1)
    for i in range(vec.num_envs):
        text = [str(Card(int(c))) for c in cards[i]]  # player's five, dealer's six, up card last
        o, _ = single.reset(options={"cards": text[:5], "dealer": text[5:], "up_card": text[10]})
        assert (o == obs[i]).all()
        assert single.step(int(actions[i]))[1] == rewards[i]


def test_vector_env_refuses_a_masked_action_and_changes_nothing() -> None:
    vec = PokerVectorEnv(4, "online")
    obs, _ = vec.reset(seed=2)
    with pytest.raises(IllegalActionError, match="environment 2: action 2"):
        vec.step(np.array([0, 1, 2, 3]))
    assert (vec.reset(seed=2)[0] == obs).all()


def test_learned_chart_scored_exactly_lands_within_0_3pct_of_the_optimal_house_edge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 13 item 6: a tabular learner on 8M vectorised rounds; its chart scored by the exact analysis.

    The optimal house edge is 2.7879% of the ante (docs/analysis.md); the best chart of
    this shape 2.9041% (0.1162% above). The learned chart must be within 0.3%.
    """
    env = PokerVectorEnv(1 << 18, "live")
    learner = train_chart(env, 1 << 23, seed=0)
    chart = learner.chart()
    learned = an.analyze(env.rules, chart)
    optimal = an.analyze(env.rules)
    assert abs(float(optimal.house_edge) - 0.027879) < 5e-7
    assert float(learned.house_edge - optimal.house_edge) < 0.003
    assert "3x" in chart.to_csv() and learned.house_edge > optimal.house_edge
    # the same chart as a file, scored by the command line: the same exact figure
    path = tmp_path / "learned.csv"
    path.write_text(chart.to_csv())
    with pytest.raises(SystemExit) as exc:
        main(["poker", "analyze", "--rules", "live", "--strategy", str(path), "--json"])
    assert exc.value.code == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["strategy"] == "learned" and sheet["house_edge"] == pytest.approx(float(learned.house_edge))


def test_learner_cells_are_the_chart_cells() -> None:
    obs, _ = PokerEnv().reset(options=DEAL)  # a pair of aces against a king
    from fourcards.poker.strategy import HAND_CLASSES

    cell = int(cells_of(obs)[0])
    assert HAND_CLASSES[cell // 13] == "pair:A" and cell % 13 == 13 - 2
    with pytest.raises(ValueError, match="five player cards"):
        cells_of(np.zeros(104, dtype=np.int8))
