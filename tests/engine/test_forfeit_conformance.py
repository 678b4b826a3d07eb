"""The out-of-turn forfeit in both games, through the engine protocol (docs/rules.md FOAK-17, FCP-15;
issue 20: a person who leaves mid-deal, a seat the host removes): random legal play with forfeits at
random points keeps every conformance check of tests/engine/test_conformance.py - chips conserved,
the history replays (at the end and midway), no view shows a card its viewer may not see, every
illegal action (stale forfeits included) refused with the state unchanged - and a player who
forfeited is never to act again nor offered anything."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conformance import (
    SPECS,
    Spec,
    assert_refused,
    assert_replays,
    assert_views_hide,
    check_illegal,
    snapshot,
    step,
)

from fourcards.engine import GameState
from fourcards.errors import IllegalActionError
from fourcards.kind import Forfeit as KindForfeit
from fourcards.poker.round import Forfeit as PokerForfeit

FORFEIT = {"four_card_poker": PokerForfeit, "four_of_a_kind": KindForfeit}


def try_forfeit(spec: Spec, state: GameState, rng: random.Random, pool: list[Any], gone: set[int]) -> None:
    """A forfeit for the first player, in a random order, that a clone takes; each player refused
    before it is refused by the state too, with the state unchanged."""
    for player in rng.sample(range(state.num_players), state.num_players):
        forfeit = FORFEIT[spec.name](player)
        try:
            state.clone().apply(forfeit)
        except IllegalActionError:
            assert_refused(state, lambda forfeit=forfeit: state.apply(forfeit), player, snapshot(state))
            continue
        state.apply(forfeit)
        pool.append(forfeit)
        gone.add(player)
        return


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_foak17_fcp15_random_play_with_forfeits_keeps_the_protocol(spec: Spec, seed: int) -> None:
    rng = random.Random(seed)
    state = spec.new(rng)
    pool: list[Any] = []
    gone: set[int] = set()
    steps = 0
    while not state.is_terminal:
        assert state.returns() == (0,) * state.num_players
        roll = rng.random()
        if roll < 0.25:
            try_forfeit(spec, state, rng, pool, gone)
        elif roll < 0.35:
            check_illegal(spec, state, rng, pool)
        elif roll < 0.4:
            assert_replays(state)
            assert_views_hide(spec, state)
        else:
            step(state, rng, pool)
        assert state.actor not in gone
        assert not any(state.legal_actions(p) for p in gone)
        steps += 1
        assert steps < 4000
    assert sum(state.returns()) + spec.house(state) == 0
    check_illegal(spec, state, rng, pool)
    assert_replays(state)
    assert_views_hide(spec, state)
