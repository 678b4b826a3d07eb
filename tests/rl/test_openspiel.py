"""OpenSpiel games (issue 13, item 1): registration, parameters, chance nodes, observations,
OpenSpiel's random-simulation test, and an OpenSpiel MCTS bot playing Four of a Kind."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import fourcards.openspiel  # noqa: F401 - registers the games
from fourcards.cards import Card, parse_cards
from fourcards.errors import RulesError
from fourcards.poker.round import settle_hand
from fourcards.poker.rules import get_rules
from fourcards.rl.encoding import PER_SEAT, kind_tensor_size


def test_both_games_are_registered_and_load() -> None:
    names = pyspiel.registered_names()
    assert "python_four_of_a_kind" in names and "python_four_card_poker" in names
    kind = pyspiel.load_game("python_four_of_a_kind(players=6,stack=100,max_bet=8)")
    assert kind.num_players() == 6 and kind.num_distinct_actions() == 3 + 8
    assert kind.observation_tensor_shape() == [kind_tensor_size(6)]
    assert kind.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    poker = pyspiel.load_game("python_four_card_poker", {"players": 3, "preset": "online", "ante": 5})
    assert poker.num_players() == 3 and poker.num_distinct_actions() == 4
    assert poker.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_bad_parameters_name_the_problem() -> None:
    with pytest.raises(RulesError, match="unknown Four of a Kind preset"):
        pyspiel.load_game("python_four_of_a_kind(preset=poker)")
    with pytest.raises(RulesError, match="5 players need 5 stacks"):
        pyspiel.load_game("python_four_of_a_kind(players=5,stacks=100/100/90/80)")
    with pytest.raises(RulesError, match="unknown rules preset"):
        pyspiel.load_game("python_four_card_poker(preset=casino)")


@pytest.mark.parametrize("name", [
    "python_four_of_a_kind",
    "python_four_of_a_kind(players=7,stack=45)",                  # short stacks: all-ins, side pots
    "python_four_of_a_kind(players=5,stacks=200/30/60/15/200)",
    "python_four_of_a_kind(preset=opr903,players=5,max_bet=7)",  # every duplicate re-dealt
    "python_four_of_a_kind(players=13)",
])
def test_openspiel_random_simulation_test_four_of_a_kind(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=4, serialize=game.num_players() < 8, verbose=False)


@pytest.mark.parametrize("name", [
    "python_four_card_poker",
    "python_four_card_poker(players=4,preset=online,ante=5,aces_up=2)",
    "python_four_card_poker(players=9,ante_bonus=30/15/2,aces_up_table=50/40/9/6/4/2/1)",
])
def test_openspiel_random_simulation_test_four_card_poker(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=10, serialize=True, verbose=False)


def test_foak2_chance_nodes_deal_face_up_cards_uniformly() -> None:
    game = pyspiel.load_game("python_four_of_a_kind")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(52)) and sum(p for _, p in outcomes) == pytest.approx(1)
    state.apply_action(Card.parse("Qs").index)
    # the replacement re-deal (seed 000): the next card kept is of a rank nobody holds
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 48 and Card.parse("Qd").index not in outcomes


def test_foak2_opr903_deals_duplicates_and_redeals_them() -> None:
    game = pyspiel.load_game("python_four_of_a_kind(preset=opr903)")
    state = game.new_initial_state()
    for card in ("Qs", "Qd", "7c", "2h"):  # players 1, 2, 3, 0 get a card each
        state.apply_action(Card.parse(card).index)
    assert state.is_chance_node()  # a duplicate applied as an action (not an offered outcome): both go back
    assert Card.parse("Qs").index in dict(state.chance_outcomes())


def test_four_of_a_kind_observation_is_the_encoding() -> None:
    game = pyspiel.load_game("python_four_of_a_kind")
    state = game.new_initial_state()
    for card in ("9h", "As", "5h", "4h"):  # players 1, 2, 3, 0 (the button is player 0)
        state.apply_action(Card.parse(card).index)
    assert state.current_player() == 2  # the ace opens (seed 001 §3.1)
    t = np.asarray(state.observation_tensor(2))
    ace = PER_SEAT * 2
    assert t[ace + 12] == 1 and t[ace + 13 + 1] == 1 and t[ace + 25] == 1 and t[ace + 26] == 1
    assert t[PER_SEAT * 0 + 27] == 1  # the button
    assert state.legal_actions() == [1] + list(range(2 + 5, 2 + 11))  # check, bet 5..10
    assert "seat 3 (you): A active" in state.observation_string(2)


def test_fcp_returns_are_the_settlement() -> None:
    game = pyspiel.load_game("python_four_card_poker(players=2,ante=5,aces_up=1)")
    state = game.new_initial_state()
    p0, p1 = "As Ad 7c 5h 2d", "Kh Kd Kc Qs Qh"
    dealer = "Jd Jh 9s 8h 4c Jc"
    for c in parse_cards(" ".join([p0, p1, dealer])):
        state.apply_action(c.index)
    assert state.current_player() == 0 and "up Jc" in state.observation_string(0)
    assert "Kh" not in state.observation_string(0) and "Jd" not in state.observation_string(0)
    state.apply_action(3)
    state.apply_action(0)
    rules = get_rules("live")
    expect = [settle_hand(rules, parse_cards(p), parse_cards(dealer), ante=5, play=play, aces_up=1).net
              for p, play in ((p0, 15), (p1, None))]
    assert state.is_terminal() and state.returns() == expect


def test_fcp3_online_offers_fold_1x_3x() -> None:
    game = pyspiel.load_game("python_four_card_poker(preset=online)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions() == [0, 1, 3]


def test_an_openspiel_mcts_bot_plays_four_of_a_kind() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_four_of_a_kind")
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=10, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    decisions = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
                decisions += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
        assert sum(state.returns()) == 0
    assert decisions >= 3
