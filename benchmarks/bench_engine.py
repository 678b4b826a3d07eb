"""Engine protocol benchmarks: clone() of both games (the web's copy-apply-commit
pattern) against copy.deepcopy, and one random deal played through the protocol.

Run: ``pytest benchmarks/bench_engine.py --benchmark-only``. Figures: docs/benchmarks.md.
"""

from __future__ import annotations

import copy
import random

from fourcards.errors import FourcardsError
from fourcards.kind import Game, KindRules
from fourcards.kind.bots import RandomBot, play_deal
from fourcards.poker.round import PokerRound
from fourcards.poker.rules import get_rules


def _median(benchmark) -> float:
    """Median seconds, or 0 when benchmarks are disabled (``--benchmark-disable``)."""
    return benchmark.stats.stats.median if benchmark.stats else 0.0


def _poker_mid_round() -> PokerRound:
    r = PokerRound(get_rules("live"), players=9)
    for p in range(9):
        r.place_wagers(p, 10, 5)
    r.apply_chance(random.Random(1))
    for p in range(4):
        r.play(p, 20)
    return r


def _kind_mid_deal() -> Game:
    """A 13-seat deal some way in (a long history, the web's worst case)."""
    rng = random.Random(3)
    done = play_deal(KindRules(), [RandomBot() for _ in range(13)], [500] * 13, rng)
    cut = len(done.history) * 2 // 3
    records = list(done.history)[:cut]
    while True:  # cut at a player's decision
        try:
            return Game.replay(None, records)
        except FourcardsError:  # the replay would run on past the cut (chance events follow)
            cut -= 1
            records = records[:cut]


def test_bench_poker_clone(benchmark):
    r = _poker_mid_round()
    new = benchmark(r.clone)
    assert new.observation(None) == r.observation(None)
    assert _median(benchmark) < 50e-6


def test_bench_poker_deepcopy_for_comparison(benchmark):
    benchmark(copy.deepcopy, _poker_mid_round())


def test_bench_kind_clone(benchmark):
    g = _kind_mid_deal()
    new = benchmark(g.clone)
    assert new.observation(None) == g.observation(None)
    assert _median(benchmark) < 200e-6


def test_bench_kind_deepcopy_for_comparison(benchmark):
    benchmark(copy.deepcopy, _kind_mid_deal())


def test_bench_poker_round_through_the_protocol(benchmark):
    """One 9-player round: wagers, the chance step, decisions - through GameState only."""
    rng = random.Random(5)

    def one() -> tuple[int, ...]:
        r = PokerRound(get_rules("live"), players=9)
        for p in range(9):
            r.apply(r.legal_actions(p)[0].action(10))
        r.apply_chance(rng)
        while not r.is_terminal:
            r.apply(r.legal_actions(r.actor)[-1].action())
        return r.returns()

    assert len(benchmark(one)) == 9
