"""Issue 28 item 7: a fresh server settles Four Card Poker rounds without counting dealer hands on
the event loop. Each settled seat's luck (fourcards.poker.luck.round_luck, docs/analysis.md "Luck at
the table") is a look-up in the dealer counts when they are in memory; the warm-up used to load
them only when the disk cache already held them, so on a fresh install (a new machine, a new
container) every settled seat counted its 1,370,754 dealer hands directly: about 7 ms of the event
loop per seat. The warm-up now reads or computes them (fourcards.web.warmup, load_counts)."""

from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np
import pytest

from fourcards.poker import luck
from fourcards.poker.exact import counts as ec
from fourcards.poker.exact import hand_ev
from fourcards.poker.rules import as_rules
from fourcards.web import warmup


@pytest.fixture
def fresh_server(monkeypatch, tmp_path):
    """A process as a fresh install starts it: an empty cache directory, no counts in memory, not yet
    warmed up; the throwaway tables' play left out (tests/web/test_issue26_warm_up.py covers it)."""
    monkeypatch.setenv("FOURCARDS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("FOURCARDS_WARM_UP", raising=False)
    monkeypatch.setattr(luck, "_COUNTS", [])
    monkeypatch.setattr(warmup, "_done", threading.Event())
    for play in ("_poker", "_kind", "_names"):
        monkeypatch.setattr(warmup, play, lambda: None)
    yield tmp_path
    ec._MEMO.pop(str(tmp_path.resolve()), None)


def test_warm_up_computes_the_dealer_counts_a_fresh_install_lacks(counts, fresh_server):
    assert not ec.counts_cached()
    warmup.warm_up()
    assert ec.counts_cached() and luck._COUNTS
    assert ec.disk._cache_file(fresh_server).exists()  # the next start reads them
    got = luck._COUNTS[0]
    assert got is not counts and np.array_equal(got.le, counts.le) and np.array_equal(got.lt, counts.lt)


def test_after_the_warm_up_a_seats_luck_is_a_look_up_not_a_count(fresh_server, monkeypatch):
    warmup.warm_up()

    def counted(*_: object) -> tuple[int, int]:
        raise AssertionError("a settled seat counted its dealer hands on the event loop")

    monkeypatch.setattr(hand_ev, "count_hand", counted)
    got = luck.round_luck(as_rules("live"), ["As", "Ad", "Kc", "7h", "2s"], "9d", 10, 10,
                          {"ante": 10, "play": 10, "ante_bonus": 0})
    assert isinstance(got, Fraction) and got != 0


def test_without_the_warm_up_a_fresh_install_counts_each_seat(fresh_server, monkeypatch):
    """What the warm-up saves: the same luck, counted directly (the path it replaces)."""
    calls: list[int] = []
    real = hand_ev.count_hand

    def counted(*a: object) -> tuple[int, int]:
        calls.append(1)
        return real(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_ev, "count_hand", counted)
    args = (as_rules("live"), ["As", "Ad", "Kc", "7h", "2s"], "9d", 10, 10, {"ante": 10, "play": 10, "ante_bonus": 0})
    direct = luck.round_luck(*args)
    assert calls == [1]
    warmup.warm_up()
    assert luck.round_luck(*args) == direct and calls == [1]
