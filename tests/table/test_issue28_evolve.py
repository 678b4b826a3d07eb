"""Issue 28 item 7: ``evolve`` copies a table state or a deal's state as ``dataclasses.replace``
does, without its ``__init__``: equal results, the cached derived values not carried over, an
unknown field refused."""

from __future__ import annotations

import dataclasses

import pytest

from fourcards.poker.rules import PokerRules
from fourcards.table.poker import PokerTable
from fourcards.table.state import Person, TableState, evolve


def _state() -> TableState:
    ann = Person(player_id=1, name="Ann", seat=1, token_hash="t1", balance=500)
    return TableState(id="abc", table_game=PokerTable, name="Ann's table", rules=PokerRules(), settings={},
                      people={1: ann})


def test_issue28_evolve_equals_replace() -> None:
    s = _state()
    assert evolve(s, version=7, paused=True) == dataclasses.replace(s, version=7, paused=True)
    assert evolve(s) == s and evolve(s) is not s
    assert s.version == 0 and not s.paused  # the old state is as it was


def test_issue28_evolve_does_not_carry_cached_values() -> None:
    s = _state()
    assert set(s.players) == {1}  # cached on s
    bob = Person(player_id=2, name="Bob", seat=2, token_hash="t2", balance=500)
    t = evolve(s, people={**s.people, 2: bob})
    assert set(t.players) == {1, 2} and set(t.by_token) == {"t1", "t2"}
    assert set(s.players) == {1}


def test_issue28_evolve_refuses_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="no field 'versoin'"):
        evolve(_state(), versoin=3)
