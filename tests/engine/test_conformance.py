"""Conformance of every game to the engine protocol (fourcards.engine; docs/engine.md).

Each test runs on both games through the protocol alone. A small spec per game
gives what the protocol cannot: a fresh random table, the house's result, bad
variants of a chance record (the game's own record classes), and an oracle of
the cards a viewer may see, read from the history's JSON records
(poker: its own hand and the up card, then at showdown the dealer's cards and
every hand not folded - docs/rules.md FCP rulings, seed 002; Four of a Kind:
every card dealt, returned or turned, never the deck - seed 001 §3.3,
docs/kind.md decision 8).

Everything else - random legal play, chance steps, illegal actions, replay,
clones, hidden cards, messages - goes through ``GameState`` only.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK
from fourcards.engine import GameState, seat_label
from fourcards.errors import IllegalActionError
from fourcards.kind import Game, KindRules, Redeal
from fourcards.kind import Void as KindVoid
from fourcards.kind.history import DealCard, TurnCard
from fourcards.poker.round import Deal, PokerRound
from fourcards.poker.round import Void as PokerVoid
from fourcards.poker.rules import PRESETS as POKER_PRESETS

# ------------------------------------------------------------------ the specs


def _new_poker(rng: random.Random) -> PokerRound:
    rules = POKER_PRESETS[rng.choice(["live", "online"])]
    return PokerRound(rules, players=rng.randint(1, rules.max_seats))


def _poker_allowed(state: Any, viewer: int | None) -> set[str]:
    recs = [r.to_dict() for r in state.history]
    deal = next((r for r in recs if r["kind"] == "deal"), None)
    if deal is None:
        return set()
    hands = {h["player"]: set(h["cards"]) for h in deal["hands"]}
    allowed = {deal["up_card"]} | (hands.get(viewer, set()) if viewer is not None else set())
    if state.is_terminal and recs[-1]["kind"] != "void":  # the showdown
        folded = {r["player"] for r in recs if r["kind"] in ("fold", "forfeit")}  # a forfeit is a fold (FCP-15)
        allowed |= set(deal["dealer"])
        allowed |= {c for p, h in hands.items() if p not in folded for c in h}
    return allowed


def _poker_wrong_deals(state: Any, deal: Deal, rng: random.Random) -> list[Any]:
    """Deals no round may accept: a card twice, an up card not the dealer's, a hand
    short or missing, a hand for a player without wagers or not at the table."""
    hands, dealer = list(deal.hands), deal.dealer
    (p, h), rest = hands[0], hands[1:]
    out = [Deal([(p, (dealer[0], *h[1:])), *rest], dealer, deal.up_card),
           Deal(hands, dealer, h[0]),
           Deal([(p, h[:4]), *rest], dealer, deal.up_card),
           Deal(hands, dealer[:5], dealer[0]),
           Deal(rest, dealer, deal.up_card)]
    used = {c for _, hh in hands for c in hh} | set(dealer)
    spare = tuple(c for c in FULL_DECK if c not in used)[:5]
    others = [q for q in range(state.num_players) if q not in dict(hands)] + [state.num_players]
    out.append(Deal([*hands, (rng.choice(others), spare)], dealer, deal.up_card))
    return out


def _kind_wrong_cards(state: Any, record: Any, rng: random.Random) -> list[Any]:
    """Cards no game may accept now: a card already out, to the wrong player, or
    dealt when a card is to be turned (and the other way round)."""
    view = state.observation(None)
    out_cards = [c for v in view.seats for c in v.cards] + list(view.discards)
    n = state.num_players
    if isinstance(record, DealCard):
        out = [DealCard(rng.choice([q for q in range(n + 1) if q != record.seat]), record.card),
               TurnCard(record.card, None)]
        if out_cards:
            out.append(DealCard(record.seat, rng.choice(out_cards)))
    else:
        holders = [None, *range(n)]
        out = [TurnCard(record.card, rng.choice([q for q in holders if q != record.seat])),
               DealCard(0, record.card)]
        if out_cards:
            out.append(TurnCard(rng.choice(out_cards), record.seat))
    return out


def _new_kind(rng: random.Random) -> Game:
    rules = KindRules(ante=rng.choice([0, 1, 5]), min_bet=rng.choice([1, 5]), max_bet=rng.choice([5, 10, 20]),
                      max_raises=rng.randint(0, 3), redeal=rng.choice(list(Redeal)))
    # seed 001's re-deal of every duplicated rank takes very many passes at 12-13 players: keep it to 8
    n = rng.randint(rules.min_players, 13 if rules.redeal is Redeal.REPLACE else 8)
    while True:
        stacks = [rng.choice([0, 3, 12, 40, 200, 1000]) for _ in range(n)]
        if sum(st >= rules.ante and st > 0 for st in stacks) >= rules.min_players:
            break
    button = rng.randrange(n)
    if rng.random() < 0.5:  # every card an explicit chance step
        return Game(rules, stacks, button, cards=())
    return Game(rules, stacks, button, rng=random.Random(rng.getrandbits(64)))  # chance run inside


def _kind_allowed(state: Any, viewer: int | None) -> set[str]:
    return {r["card"] for r in (op.to_dict() for op in state.history) if r["op"] in ("deal", "return", "turn")}


@dataclass(frozen=True)
class Spec:
    name: str
    new: Callable[[random.Random], GameState]
    house: Callable[[Any], int]  # the house's net chips (a banked game), else 0
    allowed: Callable[[Any, int | None], set[str]]  # cards the viewer may see
    wrong_chance: Callable[[Any, Any, random.Random], list[Any]]  # bad variants of a chance record
    void: Callable[[str], Any]  # the game's void record (the host's ruling)


SPECS = [
    Spec("four_card_poker", _new_poker, lambda s: s.house_net, _poker_allowed, _poker_wrong_deals, PokerVoid),
    Spec("four_of_a_kind", _new_kind, lambda s: 0, _kind_allowed, _kind_wrong_cards, KindVoid),
]


@pytest.fixture(params=SPECS, ids=[s.name for s in SPECS])
def spec(request: pytest.FixtureRequest) -> Spec:
    return request.param


# ------------------------------------------------------- protocol-only helpers


def options(state: GameState) -> list[Any]:
    """Every player's options now (the actor's, or everyone's in an open phase)."""
    if state.actor is not None:
        return list(state.legal_actions(state.actor))
    return [la for p in range(state.num_players) for la in state.legal_actions(p)]


def amount_for(option: Any, rng: random.Random) -> int:
    if option.amounts:
        return rng.choice(option.amounts)
    return rng.randint(option.min_amount, option.max_amount)


def step(state: GameState, rng: random.Random, pool: list[Any] | None = None) -> None:
    """One random legal move: a player's option (with a random legal amount), a
    table-level option now and then, or the chance step."""
    opts = options(state)
    table = [la for la in state.legal_actions() if la.player is None]
    if state.chance_step is not None and (not opts or rng.random() < 0.3):
        state.apply_chance(rng)
        return
    if table and rng.random() < 0.01:
        opts = table
    assert opts, f"no option and no chance step in a live state: {state!r}"
    option = rng.choice(opts)
    action = option.action(amount_for(option, rng))
    state.apply(action)
    if pool is not None:
        pool.append(action)


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything the protocol shows: every view, the history, returns, whose turn."""
    views = tuple(state.observation(p) for p in [None, *range(state.num_players)])
    return (views, state.history, state.returns(), state.actor, state.chance_step, state.is_terminal)


CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def cards_in(obj: Any) -> set[str]:
    """Card names in an observation: in its JSON and in the typed object itself."""
    found = set(CARD.findall(json.dumps(obj.to_dict())))

    def walk(x: Any) -> None:
        if type(x).__name__ == "Card":
            found.add(str(x))
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, (tuple, list, set, frozenset)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for k, y in x.items():
                walk(k)
                walk(y)

    walk(obj)
    return found


def assert_views_hide(spec: Spec, state: GameState) -> None:
    for viewer in [None, *range(state.num_players)]:
        leaked = cards_in(state.observation(viewer)) - spec.allowed(state, viewer)
        assert not leaked, f"{spec.name}: viewer {viewer} sees {leaked}"


def assert_replays(state: GameState) -> None:
    records = json.loads(json.dumps([r.to_dict() for r in state.history]))
    for history in (state.history, records):
        again = type(state).replay(state.rules, history)
        assert snapshot(again) == snapshot(state)
        assert [r.to_dict() for r in again.history] == records


def assert_refused(state: GameState, attempt: Callable[[], Any], who: int | None, before: tuple[Any, ...]) -> None:
    with pytest.raises(IllegalActionError) as err:
        attempt()
    assert snapshot(state) == before, f"a refused action changed the state: {err.value}"
    if who is not None:
        assert seat_label(who) in str(err.value), f"message does not name {seat_label(who)}: {err.value}"


def wrong_actions(state: GameState, rng: random.Random, pool: list[Any]) -> list[Any]:
    """Actions that look plausible but no option allows: wrong amounts, wrong kinds,
    other players (out of turn, not at the table), and stale actions from earlier."""
    legal = state.legal_actions()
    out: list[Any] = []
    for la in options(state)[:4]:
        bad = [la.max_amount + 1, la.min_amount - 1, -1]
        if la.amounts:
            bad.append(next(a for a in range(la.min_amount, la.max_amount + 2) if a not in la.amounts))
        elif la.max_amount == 0:
            bad.append(1)
        for amount in bad:
            out.append(lambda la=la, amount=amount: la.action(amount))
        for kind in type(la.kind):
            if kind is not la.kind:
                out.append(lambda la=la, kind=kind: dataclasses.replace(la, kind=kind).action(la.min_amount))
        for q in {-1, state.num_players, *rng.sample(range(state.num_players), min(2, state.num_players))}:
            out.append(lambda la=la, q=q: dataclasses.replace(la.action(la.min_amount), player=q))
    out += [lambda a=a: a for a in rng.sample(pool, min(len(pool), 6))]
    built = []
    for make in out:
        try:
            action = make()
        except IllegalActionError:  # refused as soon as it is built (e.g. a negative amount)
            continue
        if not any(la.allows(action) for la in legal):
            built.append(action)
    return built


def check_illegal(spec: Spec, state: GameState, rng: random.Random, pool: list[Any]) -> None:
    before = snapshot(state)
    if state.chance_step is not None:  # chance records: a drawn one is accepted, bad variants refused
        record = state.clone().apply_chance(rng)
        for bad in spec.wrong_chance(state, record, rng):
            assert_refused(state, lambda bad=bad: state.apply(bad), None, before)
        twin = state.clone()
        twin.apply(record)
        assert twin.history[len(state.history)] == record
    for action in wrong_actions(state, rng, pool):
        who = action.player if hasattr(action, "player") else None
        if who is None:  # an action for "the player to act"
            who = state.actor
        assert_refused(state, lambda action=action: state.apply(action), who, before)
    legal = state.legal_actions()
    for record in rng.sample(state.history, min(3, len(state.history))):  # chance records and others, stale
        # (a wager taken back may be placed again: a record an option allows now is not stale)
        if state.chance_step is None and not any(la.allows(record) for la in legal):
            assert_refused(state, lambda record=record: state.apply(record), None, before)
    if state.chance_step is None:
        assert_refused(state, lambda: state.apply_chance(rng), None, before)


# ----------------------------------------------------------------------- tests


DEALS = 1500


def test_engine_protocol_is_implemented(spec: Spec) -> None:
    state = spec.new(random.Random(0))
    assert isinstance(state, GameState)
    assert state.seat_label(3) == "seat 4"
    assert state.returns() == (0,) * state.num_players


def test_thousands_of_random_deals_conserve_chips_and_replay(spec: Spec) -> None:
    """Random legal deals to the end: returns read zeros until the end, then
    conserve chips (with the house's result); no option or chance step is left;
    the history replays the same state."""
    rng = random.Random(f"conformance {spec.name}")
    for deal in range(DEALS):
        state = spec.new(rng)
        steps = 0
        while not state.is_terminal:
            assert state.returns() == (0,) * state.num_players
            step(state, rng)
            steps += 1
            assert steps < 2000
        r = state.returns()
        assert len(r) == state.num_players and all(type(x) is int for x in r)
        assert sum(r) + spec.house(state) == 0
        assert state.actor is None and state.chance_step is None and not state.legal_actions()
        if deal % 10 == 0:
            assert_replays(state)
            assert_views_hide(spec, state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1))
def test_every_illegal_action_is_refused_with_the_state_unchanged(spec: Spec, seed: int) -> None:
    """Out of turn, wrong amounts, wrong kinds, wrong phase (stale actions and
    records), a chance step when none is due, anything after the end: each is
    refused with IllegalActionError naming the player as "seat N" (N = player + 1),
    and every view, the history and the returns are as before."""
    rng = random.Random(seed)
    state = spec.new(rng)
    pool: list[Any] = []
    while not state.is_terminal:
        if rng.random() < 0.25:
            check_illegal(spec, state, rng, pool)
        step(state, rng, pool)
    check_illegal(spec, state, rng, pool)
    assert pool


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1))
def test_views_hide_what_a_player_may_not_see_and_replay_midway(spec: Spec, seed: int) -> None:
    """At random steps and at the end, no view holds a card its viewer may not see, and the history
    so far replays the same state (mid-deal too)."""
    rng = random.Random(seed)
    state = spec.new(rng)
    while True:
        if rng.random() < 0.2 or state.is_terminal:
            assert_views_hide(spec, state)
        if rng.random() < 0.1:
            assert_replays(state)
        if state.is_terminal:
            break
        step(state, rng)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1))
def test_a_clone_is_independent(spec: Spec, seed: int) -> None:
    """A clone starts equal; playing it to the end leaves the original as it was,
    and the original then plays on by itself."""
    rng = random.Random(seed)
    state = spec.new(rng)
    for _ in range(rng.randint(0, 30)):
        if state.is_terminal:
            break
        step(state, rng)
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    while not twin.is_terminal:
        step(twin, rng)
    assert snapshot(state) == before
    while not state.is_terminal:
        step(state, rng)
    assert snapshot(twin)[1][: len(before[1])] == before[1]


def test_chance_steps_are_reproducible_with_a_seed(spec: Spec) -> None:
    """The same seeds give the same deal: apply_chance(rng) with a seeded
    random.Random reproduces the chance outcomes, so the whole history."""
    def play(seed: int) -> list[dict[str, Any]]:
        rng = random.Random(seed)
        state = spec.new(rng)
        while not state.is_terminal:
            step(state, rng)
        return [r.to_dict() for r in state.history]

    assert play(11) == play(11)
    assert play(11) != play(12)


def _hides_only(seen: Any, real: Any) -> bool:
    """Whether JSON ``seen`` is ``real`` with some values replaced by ``None`` (hidden)."""
    if seen is None or seen == real:
        return True
    if isinstance(seen, dict) and isinstance(real, dict):
        return seen.keys() == real.keys() and all(_hides_only(seen[k], real[k]) for k in seen)
    if isinstance(seen, list) and isinstance(real, list):
        return len(seen) == len(real) and all(_hides_only(a, b) for a, b in zip(seen, real))
    return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1))
def test_an_observation_history_is_the_history_less_what_its_viewer_may_not_see(spec: Spec, seed: int) -> None:
    """``observation(p).history`` - what a hand history may show viewer p - has every record of
    the history, each as it is or with hidden cards left out (None), and no card p may not see;
    the same at showdown and mid-deal."""
    rng = random.Random(seed)
    state = spec.new(rng)
    while True:
        if rng.random() < 0.2 or state.is_terminal:
            real = [r.to_dict() for r in state.history]
            for viewer in [None, *range(state.num_players)]:
                seen = [r.to_dict() for r in state.observation(viewer).history]
                assert len(seen) == len(real) and all(_hides_only(a, b) for a, b in zip(seen, real))
                leaked = set(CARD.findall(json.dumps(seen))) - spec.allowed(state, viewer)
                assert not leaked, f"{spec.name}: viewer {viewer}'s history shows {leaked}"
        if state.is_terminal:
            break
        step(state, rng)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1))
def test_design_host_void_returns_every_chip_at_any_point(spec: Spec, seed: int) -> None:
    """The host's ruling (docs/rules.md FCP-9; seed 004 "Malfunction voids all pays and plays"): the game's
    void record, applied at any point before the end, ends the game with every return 0; no
    option or chance step is left; the history replays; after the end a void is refused."""
    rng = random.Random(seed)
    state = spec.new(rng)
    for _ in range(rng.randint(0, 40)):
        if state.is_terminal:
            break
        step(state, rng)
    if state.is_terminal:
        before = snapshot(state)
        assert_refused(state, lambda: state.apply(spec.void("too late")), None, before)
        return
    state.apply(spec.void("misdeal"))
    assert state.is_terminal and state.returns() == (0,) * state.num_players
    assert spec.house(state) == 0
    assert state.actor is None and state.chance_step is None and not state.legal_actions()
    assert state.history[-1].to_dict()["reason"] == "misdeal"
    assert_replays(state)
    assert_views_hide(spec, state)
    before = snapshot(state)
    assert_refused(state, lambda: state.apply(spec.void("again")), None, before)
