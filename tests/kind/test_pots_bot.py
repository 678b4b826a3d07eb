"""The ``pots`` bot: calls priced with the exact odds over every pot it can win (issue 13, item 5)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards.kind import Action, Game, KindRules
from fourcards.kind.actions import ActionKind
from fourcards.kind.bots import BOTS, OddsBot, PotsBot, make_bot, play_deal
from fourcards.kind.odds import pot_equity
from fourcards.kind.pots import Pot


def short_all_in_game() -> Game:
    """Stacks 15/200/25/25, button seat 3 (index 2): A, 5, 4 and 9 dealt; seat 1 bets 8, seat 2 raises
    9, seat 3 raises 3 and is all in; seat 4 (index 3, the 9) faces 20 chips."""
    game = Game(KindRules(), [15, 200, 25, 25], 2, cards=["9h", "As", "5h", "4h"])
    for action in (Action.bet(8), Action.raise_(9), Action.raise_(3)):
        game.apply(action)
    assert game.actor == 3
    return game


def test_foak9_pots_bot_prices_the_side_pots_a_short_all_in_makes() -> None:
    game = short_all_in_game()
    obs = game.observation(3)
    # after the call: main pot 4 x 13 (seat index 0 can reach no higher: 13 in + 2 behind),
    # then 3 x 9 and 2 x 3 that seat index 1 can still match
    assert PotsBot.pots_now(obs, 20) == [Pot(52, (0, 1, 2, 3)), Pot(27, (1, 2, 3)), Pot(6, (1, 2, 3))]
    take = PotsBot.take_after_call(obs, 3)
    assert take == pot_equity(obs.holdings(), [Pot(52, (0, 1, 2, 3)), Pot(27, (1, 2, 3)), Pot(6, (1, 2, 3))])[3]
    assert take > 20  # the pots it can win pay for the call ...
    # ... while one pot shared by all four (the odds bot's view) does not: 0.209 x 85 < 20
    assert OddsBot().act(obs, obs.legal_actions, random.Random(0)).kind is ActionKind.FOLD
    assert PotsBot().act(obs, obs.legal_actions, random.Random(0)).kind is ActionKind.CALL


def test_foak10_pots_bot_betting_edge_counts_only_seats_that_can_still_bet() -> None:
    game = short_all_in_game()
    game.apply(Action.call())  # index 3 calls all in (20 = its stack)
    obs = game.observation(game.actor)
    able = [v.seat for v in obs.seats if v.status == "active" and v.stack > 0]
    assert game.actor in able
    edge = PotsBot.betting_edge(obs, game.actor)
    expected = pot_equity(obs.holdings(), [Pot(2, tuple(able))])[game.actor] / 2 * len(able)
    assert edge == expected


def test_pots_bot_is_a_built_in() -> None:
    assert BOTS["pots"] is PotsBot and isinstance(make_bot("pots"), PotsBot)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stacks=st.lists(st.sampled_from([7, 15, 30, 60, 200]), min_size=4,
                                                          max_size=8))
def test_foak9_pots_bot_plays_only_legal_moves_and_conserves_chips(seed: int, stacks: list[int]) -> None:
    """Short stacks make all-ins and side pots; every move is legal (play_deal checks) and chips add up."""
    rng = random.Random(seed)
    bots = [make_bot(rng.choice(["pots", "pots", "odds", "random"])) for _ in stacks]
    game = play_deal(KindRules(), bots, stacks, rng, button=seed % len(stacks))
    assert game.is_terminal and sum(game.payoffs) == 0
