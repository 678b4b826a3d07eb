"""Issue 26 item 7: the table reducer turns every engine error into its own refusal - a malformed move
(``Move("bet", amount=-1)``, ``Move("wager", ante=2.5)``, ``3.0`` chips, ``True``) is the table's
422 naming the field, never an engine exception or a ``TypeError`` - and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tablehelpers import Table, snapshot
from test_table_commands import kind, people, poker

from fourcards.table import Act, ActFor, Move, SeatWithoutPhone, StartDeal, TableError, apply
from fourcards.table.clock import player_seat
from fourcards.table.commands import MAX_MOVE_CHIPS


def _poker_wagers() -> Table:
    t = poker()
    people(t, "Ben")
    return t


def _poker_decisions() -> Table:
    t = _poker_wagers()
    t.run(Act(t.pid("Ann"), Move("wager", ante=10)))
    t.run(Act(t.pid("Ben"), Move("wager", ante=10)))
    t.run(StartDeal(t.pid("Ann")))
    return t


def _kind_betting() -> Table:
    t = kind(bots=3)
    t.run(StartDeal(t.pid("Ann")))
    return t


def _kind_real_cards() -> Table:
    t = kind(bots=0, dealing="table")
    for name in ("Ben", "Cat", "Dan"):
        t.run(SeatWithoutPhone(t.pid("Ann"), name, name))
    return t


TABLES = {"poker wagers": _poker_wagers, "poker decisions": _poker_decisions, "kind betting": _kind_betting}
_BUILT: dict[str, Table] = {}


def _table(name: str) -> Table:
    if name not in _BUILT:
        _BUILT[name] = TABLES[name]()
    return _BUILT[name]


KINDS = ["wager", "withdraw", "fold", "play", "check", "bet", "call", "raise"]
anything = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.text(max_size=5), st.lists(st.integers(), max_size=2), st.just(b"1"))
chips = st.one_of(st.none(), st.integers(0, 40), anything)


def _malformed(move: Move) -> str | None:
    """The field a correct check must name, or None for a well-formed move."""
    if not isinstance(move.kind, str) or not move.kind:
        return "kind"
    for name in ("ante", "aces_up", "amount"):
        v = getattr(move, name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_MOVE_CHIPS):
            return name
    if not isinstance(move.trainer, bool):
        return "trainer"
    return None


@settings(max_examples=300, deadline=None)
@given(table=st.sampled_from(list(TABLES)), kind_=st.one_of(st.sampled_from(KINDS), anything),
       ante=chips, aces_up=chips, amount=chips, trainer=st.one_of(st.booleans(), anything))
def test_issue26_7_every_malformed_move_is_the_tables_422_and_changes_nothing(table: str, kind_: Any, ante: Any,
                                                                            aces_up: Any, amount: Any,
                                                                            trainer: Any) -> None:
    t = _table(table)
    move = Move(kind_, ante, aces_up, amount, trainer)
    actor = t.state.deal.game.actor if t.state.in_progress else 0
    seat = player_seat(t.state, actor if actor is not None else 0)
    by = seat.player_id if seat is not None and not seat.is_bot else t.pid("Ann")
    before = snapshot(t.state)
    try:
        apply(t.state, Act(by, move), t.now, t.rng)
    except TableError as exc:
        assert exc.status in (403, 409, 422), exc.detail
        field = _malformed(move)
        if field is not None:
            assert exc.status == 422 and field in exc.detail, exc.detail
    else:
        assert _malformed(move) is None
    assert snapshot(t.state) == before


@pytest.mark.parametrize(("move", "field"), [
    (Move("bet", amount=-1), "amount"), (Move("bet", amount=3.0), "amount"),  # type: ignore[arg-type]
    (Move("raise", amount=True), "amount"), (Move("call", amount="5"), "amount"),  # type: ignore[arg-type]
])
def test_issue26_7_the_issues_moves_at_four_of_a_kind_are_422(move: Move, field: str) -> None:
    """``apply(state, Act(by, Move("bet", amount=-1)))`` raised the engine's IllegalActionError."""
    t = _kind_betting()
    actor = player_seat(t.state, t.state.deal.game.actor)
    by = actor.player_id if not actor.is_bot else t.pid("Ann")
    with pytest.raises(TableError) as exc:
        apply(t.state, Act(by, move), t.now, t.rng)
    assert exc.value.status == 422 and exc.value.detail.startswith(field), exc.value.detail


@pytest.mark.parametrize(("move", "field"), [
    (Move("wager", ante=2.5), "ante"), (Move("wager", ante=10, aces_up=-5), "aces_up"),  # type: ignore[arg-type]
    (Move("play", amount=30, trainer="yes"), "trainer"),  # type: ignore[arg-type]
])
def test_issue26_7_the_issues_moves_at_four_card_poker_are_422(move: Move, field: str) -> None:
    """``Move("wager", ante=2.5)`` raised a TypeError."""
    t = _poker_wagers() if move.kind == "wager" else _poker_decisions()
    with pytest.raises(TableError) as exc:
        apply(t.state, Act(t.pid("Ann"), move), t.now, t.rng)
    assert exc.value.status == 422 and exc.value.detail.startswith(field), exc.value.detail


def test_issue26_7_the_hosts_move_for_a_player_is_checked_the_same_way() -> None:
    t = _kind_real_cards()
    t.run(StartDeal(t.pid("Ann")))
    with pytest.raises(TableError) as exc:
        apply(t.state, ActFor(t.pid("Ann"), 2, Move("bet", amount=-1)), t.now, t.rng)
    assert exc.value.status == 422
