"""A round's observations are the same whether built afresh or from the spectator's part kept
between actions (issue 28 item 7: a table reads every seat's observation of each change, so
:meth:`PokerRound.observation` keeps what all viewers share until the next action)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards.hands import best_hand
from fourcards.poker.actions import Phase
from fourcards.poker.history import Deal
from fourcards.poker.observation import PokerObservation
from fourcards.poker.round import PokerRound
from fourcards.poker.rules import PRESETS


def _afresh(r: PokerRound, player: int | None) -> PokerObservation:
    """The observation computed from the round's fields alone, nothing kept (the definition)."""
    showdown = r.phase is Phase.SETTLED
    views = tuple(r._player_view(p, player) for p in range(r.num_players))
    shown = [v.player for v in views if v.cards is not None]
    return PokerObservation(
        player=player, rules=r.rules, phase=r.phase, actor=r.actor, chance_step=r.chance_step,
        up_card=r.up_card, dealer_cards=r.dealer_cards if showdown else None,
        dealer_hand=best_hand(r.dealer_cards)[0] if showdown else None, players=views,
        legal_actions=tuple(r.legal_actions(player)) if player is not None else (),
        void_reason=r.void_reason,
        history=tuple(h.seen_by(shown, showdown) if isinstance(h, Deal) else h for h in r.history))


def _step(r: PokerRound, rng: random.Random) -> None:
    if r.chance_step is not None and rng.random() < 0.5:
        r.apply_chance(rng)
        return
    who = [r.actor] if r.actor is not None else list(range(r.num_players))
    opts = [la for p in who for la in r.legal_actions(p)]
    if not opts:
        r.apply_chance(rng)
        return
    o = rng.choice(opts)
    r.apply(o.action(rng.choice(o.amounts) if o.amounts else rng.randint(o.min_amount, o.max_amount)))


def _check(r: PokerRound) -> None:
    for viewer in [None, *range(r.num_players)]:
        assert r.observation(viewer) == _afresh(r, viewer), f"viewer {viewer} at {r.phase}"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_observation_kept_between_actions_equals_one_built_afresh(seed: int) -> None:
    """At every step of a random round (and of a clone taken midway that goes its own way),
    every viewer's observation - its own hand shown to it alone before showdown - equals one
    built afresh."""
    rng = random.Random(seed)
    rules = rng.choice(list(PRESETS.values()))
    r = PokerRound(rules, players=rng.randint(1, rules.max_seats))
    other: PokerRound | None = None
    while not r.is_terminal:
        _check(r)
        if other is None and rng.random() < 0.3:
            other = r.clone()
        _step(r, rng)
    _check(r)
    while other is not None and not other.is_terminal:
        _step(other, rng)
        _check(other)
