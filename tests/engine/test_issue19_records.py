"""Issue 19 item 3: the engines refuse every record they cannot apply, before anything changes.

A chance record's cards are :class:`Card` objects or text that parses to one card (then
``"9h"`` and ``"9♥"`` are the same card); anything else - integers, ``None``, lists - is an
``IllegalActionError`` (``IllegalChanceError`` for cards) in both games, in ``apply`` and in
``replay``; a malformed record never escapes as ``TypeError``/``AttributeError``; a void's
reason is checked text (docs/engine.md "Records the engines refuse").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK, Card
from fourcards.errors import HistoryError, IllegalActionError, IllegalChanceError
from fourcards.kind import Game, KindRules
from fourcards.kind.actions import Action, ActionKind
from fourcards.kind.history import DealCard, PlayerAction, ReturnCard, TurnCard
from fourcards.kind.history import Void as KindVoid
from fourcards.poker.round import Deal, Fold, PlaceWagers, Play, PokerRound, Start, Void, WithdrawWagers
from fourcards.poker.rules import get_rules

LIVE = get_rules("live")
SEED_002_PLAYER = ("9h", "9d", "9s", "Kc", "3d")
SEED_002_DEALER = ("Qd", "Qs", "8c", "8h", "4s", "2d")


def _waiting_round(players: int = 1) -> PokerRound:
    rnd = PokerRound(LIVE, players)
    for p in range(players):
        rnd.place_wagers(p, 10)
    return rnd


def _poker_snapshot(rnd: PokerRound) -> tuple:
    return rnd.history, rnd.phase, rnd.observation(None).to_dict(), rnd.returns()


def _kind_game() -> Game:
    return Game(KindRules(), stacks=[100] * 4, button=0, cards=())


def _kind_snapshot(g: Game) -> tuple:
    return g.history, g.observation(None).to_dict(), g.returns(), g.chance_step


# ----------------------------------------------------------------- Four Card Poker


def test_issue19_poker_deal_with_9h_and_9_hearts_is_one_card_dealt_twice() -> None:
    rnd = _waiting_round()
    before = _poker_snapshot(rnd)
    with pytest.raises(IllegalChanceError, match="duplicate card 9h"):
        rnd.apply(Deal(((0, SEED_002_PLAYER),), ("9♥", "Qs", "8c", "8h", "4s", "2d"), "Qs"))
    assert _poker_snapshot(rnd) == before


def test_issue19_poker_deal_of_text_cards_is_recorded_as_cards_and_settles_seed_002() -> None:
    rnd = _waiting_round()
    rnd.apply(Deal(((0, ("9♥", "9♦", "9♠", "K♣", "3♦")),), SEED_002_DEALER, "Qd"))
    deal = rnd.history[-1]
    assert isinstance(deal, Deal) and all(isinstance(c, Card) for c in (*deal.dealer, *deal.hands[0][1]))
    assert [str(c) for c in deal.hands[0][1]] == list(SEED_002_PLAYER) and deal.up_card == Card.parse("Qd")
    rnd.play(0, 30)
    assert rnd.returns() == (60,)  # seed 002's worked example: +10 ante, +30 play, +20 ante bonus


CARDS_REFUSED, MALFORMED = IllegalChanceError, IllegalActionError


@pytest.mark.parametrize("deal, error", [
    (Deal(((0, (1, 2, 3, 4, 5)),), (6, 7, 8, 9, 10, 11), 6), CARDS_REFUSED),  # type: ignore[arg-type]
    (Deal(((0, (*FULL_DECK[:4], None)),), tuple(FULL_DECK[10:16]), FULL_DECK[10]), CARDS_REFUSED),
    (Deal(((0, "9h9d9sKc3d"),), SEED_002_DEALER, "Qd"), CARDS_REFUSED),  # type: ignore[arg-type]
    (Deal(((0, SEED_002_PLAYER),), SEED_002_DEALER, 5), CARDS_REFUSED),  # type: ignore[arg-type]
    (Deal(((0, SEED_002_PLAYER),), SEED_002_DEALER, None), CARDS_REFUSED),  # type: ignore[arg-type]
    (Deal(((0, SEED_002_PLAYER),), "Qd Qs 8c 8h 4s 2d", "Qd"), CARDS_REFUSED),  # type: ignore[arg-type]
    (Deal(((0, SEED_002_PLAYER),), SEED_002_DEALER, "Zz"), CARDS_REFUSED),  # type: ignore[arg-type]
    (Deal(5, None, "x"), MALFORMED),  # type: ignore[arg-type]
    (Deal(None, None, None), MALFORMED),  # type: ignore[arg-type]
    (Deal(((0,),), (), "Qd"), MALFORMED),  # type: ignore[arg-type]
    (Deal((("x", SEED_002_PLAYER),), SEED_002_DEALER, "Qd"), MALFORMED),  # type: ignore[arg-type]
    (Deal(((None, SEED_002_PLAYER), (0, SEED_002_PLAYER)), SEED_002_DEALER, "Qd"), MALFORMED),  # type: ignore
], ids=["integer-cards", "none-card", "hand-as-text", "up-card-int", "up-card-none", "dealer-as-text", "bad-text",
        "hands-an-int", "all-none", "pair-of-one", "player-text", "player-none"])
def test_issue19_poker_deal_of_no_cards_or_malformed_is_refused_before_anything_changes(deal: Deal,
                                                                                     error: type) -> None:
    """Why: integer "cards" were accepted and the last decision then raised CardError after it was
    recorded (half-applied); ``Deal(5, None, "x")`` raised TypeError."""
    rnd = _waiting_round()
    before = _poker_snapshot(rnd)
    with pytest.raises(error):
        rnd.apply(deal)
    assert _poker_snapshot(rnd) == before
    with pytest.raises(IllegalActionError):
        PokerRound.replay(LIVE, [*before[0], deal])


@pytest.mark.parametrize("reason", [None, 5, "", "   ", "a\nb", "\u202eevil", "x" * 501, ["list"]])
def test_issue19_void_reasons_are_checked_text_in_both_games(reason: object) -> None:
    rnd = _waiting_round()
    before = _poker_snapshot(rnd)
    with pytest.raises(IllegalActionError, match="reason"):
        rnd.apply(Void(reason))  # type: ignore[arg-type]
    assert _poker_snapshot(rnd) == before
    g = _kind_game()
    kind_before = _kind_snapshot(g)
    with pytest.raises(IllegalActionError, match="reason"):
        g.apply(KindVoid(reason))  # type: ignore[arg-type]
    assert _kind_snapshot(g) == kind_before


def test_issue19_a_void_without_text_does_not_come_back_as_the_reason_none_after_a_json_replay() -> None:
    rnd = PokerRound(LIVE, 1)
    with pytest.raises(HistoryError, match="reason"):
        PokerRound.replay(LIVE, [Start(1).to_dict(), {"kind": "void", "reason": None}])
    rnd.void("the dealer exposed a card")
    again = PokerRound.replay(LIVE, [r.to_dict() for r in rnd.history])
    assert again.void_reason == "the dealer exposed a card"
    g = _kind_game()
    g.apply(KindVoid("misdeal"))
    with pytest.raises(HistoryError, match="reason"):
        Game.replay(None, [*(op.to_dict() for op in g.history[:-1]), {"kind": "void", "reason": None}])


# ------------------------------------------------------------------- Four of a Kind


def test_issue19_kind_text_cards_are_dealt_as_cards_and_9h_is_9_hearts() -> None:
    g = _kind_game()
    g.apply(DealCard(g.deal_queue[0], "9♥"))
    assert g.history[-1] == DealCard(1, Card.parse("9h"))
    before = _kind_snapshot(g)
    with pytest.raises(IllegalChanceError, match="9h is not in the deck"):
        g.apply(DealCard(g.deal_queue[0], "9h"))
    assert _kind_snapshot(g) == before
    # a history holding the cards as text replays to the same game
    text = [DealCard(op.seat, str(op.card)) if isinstance(op, DealCard) else op for op in g.history]
    assert Game.replay(None, text).history == g.history


@pytest.mark.parametrize("card", [5, None, 9.0, ["9h"], "9h9d", "", b"9h", Card.parse("9h").index])
def test_issue19_kind_chance_record_whose_card_is_not_a_card_is_refused(card: object) -> None:
    g = _kind_game()
    before = _kind_snapshot(g)
    with pytest.raises(IllegalChanceError):
        g.apply(DealCard(g.deal_queue[0], card))  # type: ignore[arg-type]
    assert _kind_snapshot(g) == before
    with pytest.raises(IllegalActionError):
        Game.replay(None, [*g.history, DealCard(1, card)])  # type: ignore[arg-type]


# ------------------------------------------------- any record, any junk: never a TypeError

json_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["9h", "9♥", "Qd", "10h", "x", "start", "deal", "void"]),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(
        st.sampled_from(["player", "seat", "cards", "op", "kind"]), children, max_size=3),
    max_leaves=12,
)
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(FULL_DECK) | st.sampled_from(["9h", "9♥", "Qd", "10h", "x"]),
    lambda children: st.lists(children, max_size=6) | st.tuples(children, children)
    | st.lists(children, min_size=5, max_size=6).map(tuple),
    max_leaves=12,
)


def _apply_or_refuse_unchanged(state: Any, record: object, snapshot: Callable[[Any], tuple]) -> None:
    """``state.apply(record)`` applies it, or raises ``IllegalActionError`` with ``snapshot(state)``
    as before; nothing else (no ``TypeError``, no ``AttributeError``) escapes."""
    before = snapshot(state)
    try:
        state.apply(record)
    except IllegalActionError:
        assert snapshot(state) == before


def _replay_or_refuse(replay: Callable[[], object]) -> None:
    """A replay rebuilds the state, or refuses with ``IllegalActionError`` / ``HistoryError`` only."""
    try:
        replay()
    except (IllegalActionError, HistoryError):
        pass


@st.composite
def poker_records(draw: st.DrawFn) -> object:
    j = junk
    return draw(st.one_of(
        st.builds(Deal, j, j, j),
        st.builds(Deal, st.lists(st.tuples(j, j), max_size=3).map(tuple), j, j),
        st.builds(PlaceWagers, j, j, j), st.builds(Fold, j), st.builds(Play, j, j), st.builds(WithdrawWagers, j),
        st.builds(Void, j), st.builds(Start, j), j,
    ))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["wagers", "dealt", "decisions"]), poker_records())
def test_issue19_property_poker_refuses_any_malformed_record_unchanged(phase: str, record: object) -> None:
    rnd = PokerRound(LIVE, 2)
    if phase != "wagers":
        rnd.place_wagers(0, 10)
        rnd.place_wagers(1, 10)
    if phase == "decisions":
        rnd.apply(Deal(((0, SEED_002_PLAYER), (1, ("Ah", "Kd", "7c", "7s", "2c"))), SEED_002_DEALER, "Qd"))
    history = rnd.history
    _apply_or_refuse_unchanged(rnd, record, _poker_snapshot)
    _replay_or_refuse(lambda: PokerRound.replay(LIVE, [*history, record]))  # type: ignore[list-item]


poker_dicts = st.fixed_dictionaries(
    {"kind": st.sampled_from(["start", "place_wagers", "withdraw_wagers", "deal", "fold", "play", "void", "x"])},
    optional={k: json_junk for k in ("player", "seat", "players", "ante", "aces_up", "hands", "dealer", "up_card",
                                     "amount", "reason")})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["wagers", "dealt"]), poker_dicts)
def test_issue19_property_poker_replay_of_malformed_json_records_is_refused(phase: str, record: dict) -> None:
    history = [Start(2).to_dict()] + ([] if phase == "wagers" else [PlaceWagers(0, 10).to_dict()])
    _replay_or_refuse(lambda: PokerRound.replay(LIVE, [*history, record]))


@st.composite
def kind_records(draw: st.DrawFn) -> object:
    j = junk
    return draw(st.one_of(
        st.builds(DealCard, j, j), st.builds(TurnCard, j, j), st.builds(ReturnCard, j, j),
        st.builds(KindVoid, j), st.builds(PlayerAction, j, j, j), j,
    ))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 12), kind_records())
def test_issue19_property_kind_refuses_any_malformed_record_unchanged(cards_dealt: int, record: object) -> None:
    g = _kind_game()
    for card in FULL_DECK[::4][:cards_dealt]:  # distinct ranks: no re-deal
        if g.chance_step == "deal":
            g.apply(DealCard(g.deal_queue[0], card))
    while g.actor is not None and g.legal_actions():
        g.apply(Action(ActionKind.CHECK) if any(a.kind is ActionKind.CHECK for a in g.legal_actions())
                else Action(ActionKind.CALL))
    history = g.history
    _apply_or_refuse_unchanged(g, record, _kind_snapshot)
    _replay_or_refuse(lambda: Game.replay(None, [*history, record]))  # type: ignore[list-item]


kind_dicts = st.fixed_dictionaries(
    {"op": st.sampled_from(["deal", "turn", "return", "action", "void", "ante", "round", "award", "x"])},
    optional={k: json_junk for k in ("seat", "card", "kind", "amount", "reason", "number", "opener", "pot",
                                     "share", "skipped")})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 6), kind_dicts)
def test_issue19_property_kind_replay_of_malformed_json_records_is_refused(cards_dealt: int, record: dict) -> None:
    g = _kind_game()
    for card in FULL_DECK[::4][:cards_dealt]:
        if g.chance_step == "deal":
            g.apply(DealCard(g.deal_queue[0], card))
    _replay_or_refuse(lambda: Game.replay(None, [*(op.to_dict() for op in g.history), record]))
