"""Issue 26 item 5 (docs/rules.md TP-11): names are compared by their Unicode confusable skeleton
(UTS #39, ICU) made case-insensitive; beside "Ann" a table seats no "Ａnn", "Аnn" or "ᴀnn"
(409 "looks like Ann", nothing changed), while Ann's own name in any case stays hers."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tablehelpers import Table, new_state, snapshot, th

from fourcards.table import Join, Leave, SeatWithoutPhone, Sit, TableError, apply
from fourcards.table.names import look_alike, look_alike_key, look_alike_pair

LOOK_ALIKES = ["\uff21nn", "\u0410nn", "\u1d00nn", "A\u0578\u0578", "\U0001d400nn"]  # fullwidth, Cyrillic, small capital, Armenian, maths bold


def _refused(t: Table, command, words: str) -> None:
    before = snapshot(t.state)
    with pytest.raises(TableError) as exc:
        apply(t.state, command, t.now, t.rng)
    assert exc.value.status == 409 and words in exc.value.detail, exc.value.detail
    assert snapshot(t.state) == before


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_issue26_5_a_table_seats_no_look_alike_of_ann(name: str) -> None:
    t = Table(new_state("kind", turn_clock=0))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    _refused(t, Join(name, th(name)), f"{name!r} looks like Ann")


def test_issue26_5_a_look_alike_of_a_waiting_request_or_of_someone_who_left_is_refused_too() -> None:
    t = Table(new_state("kind", turn_clock=0, seat_approval=True, dealing="table"))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    t.run(Join("Ben", th("Ben")))  # waits for the host
    _refused(t, Join("B\u0435n", th("Ben2")), "looks like Ben")  # Cyrillic e
    t.run(SeatWithoutPhone(t.pid("Ann"), "Cat", th("Cat")))
    _refused(t, SeatWithoutPhone(t.pid("Ann"), "\u0421at", th("Cat2")), "looks like Cat")  # the host's own seating
    t.run(Leave(t.pid("Cat"), t.seat("Cat")))
    _refused(t, SeatWithoutPhone(t.pid("Ann"), "C\u0430t", th("Cat3")), "looks like Cat")
    t.run(SeatWithoutPhone(t.pid("Ann"), "CAT", th("Cat4")))  # her own name in another case: she is back
    assert t.state.people[t.pid("Cat")].status == "playing"


latin = st.text(alphabet="abcdeghiknoprstuxyABCEHIKMNOPSTXY", min_size=2, max_size=12)
HOMOGLYPH = str.maketrans({"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445",
                           "y": "\u0443", "A": "\u0410", "B": "\u0412", "E": "\u0415", "K": "\u041a", "M": "\u041c",
                           "H": "\u041d", "O": "\u041e", "P": "\u0420", "C": "\u0421", "T": "\u0422", "X": "\u0425"})


@settings(max_examples=200, deadline=None)
@given(name=latin)
def test_issue26_5_homoglyphs_fullwidth_and_case_share_the_key(name: str) -> None:
    key = look_alike_key(name)
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in name)
    assert look_alike_key(name.translate(HOMOGLYPH)) == key
    assert look_alike_key(fullwidth) == key
    assert look_alike_key(name.upper().translate(HOMOGLYPH)) == look_alike_key(name.upper())
    for other in {name.translate(HOMOGLYPH), fullwidth} - {name}:
        assert look_alike(other, ["Zed", name]) == name  # the look-alike is refused beside the name


def test_issue26_5_ordinary_different_names_do_not_look_alike() -> None:
    names = ["Ann", "Anne", "Ben", "Bea", "Bob", "Rob", "Cat", "Dan", "Dot", "Eve", "Gus", "Pat", "Zoe", "Zo\u00eb",
             "Ada", "Al", "Ed", "Jo", "Kim", "Lee", "Max", "Mia", "Ola", "Sam", "Tom", "Una", "Vic", "Wes"]
    for a, b in itertools.combinations(names, 2):
        assert look_alike_key(a) != look_alike_key(b), (a, b)
    assert look_alike("ann", ["Ann"]) is None  # the same name in another case is the person's own
    assert look_alike("R0b", ["Rob"]) == "Rob" and look_alike("AI", ["Al"]) == "Al"  # a zero, a capital i
    assert look_alike_pair(["Ann", "Ben", "\u0410nn"]) == ("\u0410nn", "Ann")
