"""Issue 30, item 6: Small Four of a Kind, a research variant (not the seeds' game) registered in OpenSpiel, on
which CFR+ and MCCFR run and exploitability is computed, the built-in bots' included."""

from __future__ import annotations

import itertools
import random

import pyspiel
import pytest

import fourcards.openspiel  # noqa: F401 - registers the games
from fourcards.cards import Card
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind.game import Game
from fourcards.kind.rules import KindRules
from fourcards.rl.encoding import KindActions
from fourcards.rl.small_kind import SmallDeal, SmallKindRules, bot_policy, solve


def test_issue30_6_the_variant_is_registered_and_named_as_no_seeds_game() -> None:
    game = pyspiel.load_game("python_small_kind_variant")
    assert "research variant" in game.get_type().long_name and "not the seeds' game" in game.get_type().long_name
    assert game.num_players() == 2 and game.num_distinct_actions() == 4
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    for params in ("", "(players=3,start=3,max_bet=2)", "(players=3,start=2,max_raises=0,payout=split)"):
        pyspiel.random_sim_test(pyspiel.load_game(f"python_small_kind_variant{params}"), num_sims=20,
                                serialize=False, verbose=False)
    with pytest.raises(RulesError, match="players"):
        SmallKindRules(players=4)
    with pytest.raises(RulesError, match="payout"):
        SmallKindRules(payout="low")


def test_issue30_6_cfr_plus_reaches_exploitability_below_a_hundredth_of_a_chip_per_deal() -> None:
    game = pyspiel.load_game("python_small_kind_variant")  # heads-up, two cards dealt, bet 1, one raise
    rows = solve(game, "cfr+", (10, 60))
    assert rows[0]["exploitability"] > 0.05
    assert rows[-1]["exploitability"] < 0.01, rows


def test_issue30_6_mccfr_runs_and_gets_less_exploitable() -> None:
    game = pyspiel.load_game("python_small_kind_variant")
    rows = solve(game, "mccfr", (100, 800), seed=1)
    assert rows[-1]["exploitability"] < rows[0]["exploitability"] / 2, rows


def test_issue30_6_the_built_in_bots_exploitability_is_computed_on_their_engine_observations() -> None:
    from open_spiel.python.algorithms import exploitability

    game = pyspiel.load_game("python_small_kind_variant(players=3,start=3,max_bet=2)")  # the seeds' split
    figures = {name: exploitability.nash_conv(game, bot_policy(game, name)) / 3 for name in ("random", "pots", "odds")}
    assert figures["random"] > 0.5 and figures["pots"] < figures["odds"] < figures["random"], figures
    policy = bot_policy(game, "pots")  # pots's move at a state: what it plays on the engine observation
    state = game.new_initial_state()
    state.apply_action(0)
    probs = policy.action_probabilities(state)
    assert sorted(p for p in probs.values() if p) == [1.0]


def _engine_cards(order: tuple[int, ...], receivers: list[int]) -> list[Card]:
    """The cards of a variant deal (3 players, start 1) for the engine: ranks 3, 8, K by the order; the players
    dealt from seat 1 (the button at seat 3); then each turned card of the receiver's rank."""
    ranks = [(3, 8, 13)[order[p]] for p in range(3)]
    held = [0, 0, 0]
    cards = []
    for p in [0, 1, 2] + receivers:
        cards.append(Card((ranks[p] - 2) * 4 + held[p]))
        held[p] += 1
    return cards


def test_issue30_6_with_one_card_dealt_and_the_split_the_variant_is_the_seeds_game_at_deep_stacks() -> None:
    """Random deals of the variant (3 players, start 1, split) replay through the engine (stacks of 1,000) to
    the same returns: the rules are the engine's; only the discards are left out."""
    rules = SmallKindRules(players=3, start=1, ante=5, min_bet=5, max_bet=10, max_raises=3, payout="split")
    kind = KindRules(ante=5, min_bet=5, max_bet=10, max_raises=3, min_players=2)
    encoder = KindActions(kind)
    rng = random.Random(5)
    orders = list(itertools.permutations(range(3)))
    for _ in range(150):
        deal = SmallDeal(rules)
        actions: list[int] = []
        receivers: list[int] = []
        while not deal.is_terminal:
            if deal.actor is None:
                outcomes = deal.chance_outcomes()
                o = rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0]
                if deal.phase == "turning":
                    receivers.append(o)
                deal.apply_chance(o)
            else:
                a = rng.choice(deal.legal_ids())
                actions.append(a)
                deal.apply(a)
        game = Game(kind, [1000] * 3, 2, cards=_engine_cards(deal.order, receivers))
        for a in actions:
            game.apply(encoder.action(a, game.legal_actions()))
        assert game.is_terminal and list(game.returns()) == deal.returns()
        assert deal.order in orders
    with pytest.raises(IllegalActionError):
        SmallDeal(rules).apply(1)
