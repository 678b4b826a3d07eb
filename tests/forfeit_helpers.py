"""Checks shared by the forfeit tests of both games (docs/rules.md FOAK-17, FCP-15), through the
engine protocol (fourcards.engine.GameState) alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fourcards.engine import GameState
from fourcards.errors import IllegalActionError


def state_of(state: GameState) -> tuple[Any, ...]:
    """What a refused forfeit must leave as it was: every view as JSON (a spectator's and each
    player's), the history, whose turn, the chance step and the returns."""
    views = tuple(json.dumps(state.observation(p).to_dict()) for p in [None, *range(state.num_players)])
    return views, state.history, state.actor, state.chance_step, state.returns()


def assert_replays(state: GameState) -> Any:
    """The history, as records and as JSON, replays to the same state; returns the replay."""
    records = json.loads(json.dumps([r.to_dict() for r in state.history]))
    again: Any = None
    for history in (state.history, records):
        again = type(state).replay(state.rules, history)
        assert state_of(again) == state_of(state)
    return again


def forfeit_or_refused(state: GameState, forfeit: Any, legal: bool) -> bool:
    """Apply ``forfeit`` when the test's own reading of the rules says it is ``legal``; else check that
    it is refused with IllegalActionError and the state unchanged. Returns ``legal``."""
    if legal:
        state.apply(forfeit)
        return True
    before = state_of(state)
    with pytest.raises(IllegalActionError):
        state.apply(forfeit)
    assert state_of(state) == before
    return False
