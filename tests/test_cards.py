"""Cards, parsing and the deck (docs/engine.md: cards.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK, Card, Deck, Rank, Suit, make_rng, parse_card, parse_cards, parse_rank
from fourcards.errors import CardError


@pytest.mark.parametrize("token", ["Th", "10h", "T♥", "th", "10♥", "tH", " Th "])
def test_parse_ten_of_hearts_in_every_notation(token):
    assert parse_card(token) == Card.of(Rank.TEN, Suit.HEARTS)


def test_card_index_layout_twos_first_aces_last():
    assert parse_card("2c").index == 0
    assert parse_card("2s").index == 3
    assert parse_card("As").index == 51
    assert str(Card(51)) == "As" and Card(51).pretty == "A♠"


@pytest.mark.parametrize("token", ["1h", "Tx", "h", "", "111h", "Kz", "AA"])
def test_malformed_card_error_names_the_token(token):
    with pytest.raises(CardError) as exc:
        parse_card(token)
    assert repr(token.strip()) in str(exc.value) or repr(token) in str(exc.value)


def test_parse_list_and_duplicate_named():
    assert [str(c) for c in parse_cards("9h 9d 9s Kc 3d")] == ["9h", "9d", "9s", "Kc", "3d"]
    assert len(parse_cards("9h,9d, 9s")) == 3
    with pytest.raises(CardError, match="duplicate card '9H'"):
        parse_cards("9h 9d 9H")


def test_parse_wrong_count():
    with pytest.raises(CardError, match="expected 5 cards, got 4"):
        parse_cards("9h 9d 9s Kc", count=5)


def test_parse_rank_accepts_ten_forms():
    assert parse_rank("T") == parse_rank("10") == parse_rank("t") == Rank.TEN
    with pytest.raises(CardError):
        parse_rank("1")


def test_seeded_deck_is_reproducible_and_complete():
    d1, d2 = Deck(make_rng(7)), Deck(make_rng(7))
    assert d1.cards == d2.cards
    assert sorted(d1.cards) == list(FULL_DECK)
    assert Deck(make_rng(8)).cards != d1.cards


def test_unseeded_rng_is_os_csprng():
    import secrets

    assert isinstance(make_rng(None), secrets.SystemRandom)


def test_deal_too_many_is_refused_and_deck_unchanged():
    deck = Deck(random.Random(1))
    deck.deal(50)
    before = deck.cards
    with pytest.raises(CardError, match="cannot deal 3 cards: 2 remain"):
        deck.deal(3)
    assert deck.cards == before


@given(st.permutations(list(range(52))), st.integers(0, 52))
def test_property_every_card_exactly_once(order, n):
    deck = Deck(cards=[Card(i) for i in order])
    dealt = deck.deal(n)
    assert sorted(dealt + list(deck.cards)) == list(FULL_DECK)
