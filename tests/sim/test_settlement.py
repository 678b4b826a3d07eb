"""Vectorised settlement equals the scalar settle_hand, round by round."""

from __future__ import annotations

import numpy as np
import pytest

from fourcards.cards import Card
from fourcards.poker.round import settle_hand
from fourcards.poker.rules import get_rules
from fourcards.sim.poker import deal_rounds, net_table, settle_rounds
from fourcards.sim.runner import SimulationError


@pytest.mark.parametrize("preset,ante,aces_up", [("live", 1, 0), ("live", 5, 2), ("online", 10, 10),
                                                 ("online", 300, 1000)])
def test_settle_rounds_equals_settle_hand(preset, ante, aces_up):
    rules = get_rules(preset)
    cards = deal_rounds(123, 3000, chunk=1)
    rng = np.random.default_rng(4)
    mult = rng.choice((0, *rules.decision_multiples), size=len(cards)).astype(np.uint8)
    got = settle_rounds(rules, cards, mult, ante=ante, aces_up=aces_up)
    for row, m, g in zip(cards.tolist(), mult.tolist(), got.tolist(), strict=True):
        player = [Card(c) for c in row[:5]]
        dealer = [Card(c) for c in row[5:]]
        res = settle_hand(rules, player, dealer, ante=ante, play=(m * ante if m else None), aces_up=aces_up)
        assert res.net == g, (row, m)


def test_win_cap_binds_in_the_net_table():
    rules = get_rules("online")  # cap 8,400
    nets = net_table(rules, ante=1000, aces_up=1000)
    assert nets.max() == 8400
    assert nets.min() == -(1000 + 3000 + 1000)


def test_bad_inputs():
    rules = get_rules("live")
    with pytest.raises(SimulationError):
        settle_rounds(rules, np.zeros((3, 10), np.uint8), np.zeros(3, np.uint8))
    with pytest.raises(SimulationError):
        settle_rounds(rules, np.zeros((3, 11), np.uint8), np.full(3, 4, np.uint8))
    with pytest.raises(SimulationError):
        net_table(rules, ante=0)
