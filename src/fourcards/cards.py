"""Cards, ranks, suits, the 52-card deck, parsing and random number sources.

A card is identified by an integer ``index`` in ``0..51``: ``(rank - 2) * 4 + suit``
(twos first, aces last; suits clubs, diamonds, hearts, spades). The vectorised
code in :mod:`fourcards.hands` uses these indices as ``uint8``.

Parsing accepts ``"Th"``, ``"10h"``, ``"T♥"``, ``"th"``, ``"10♥"``, ``"10♡"``, ``"9♥️"``
(an emoji variation selector after the symbol, as phones type it) and lists such as
``"9h 9d 9s Kc 3d"`` (space or comma separated) or written together, as seed 002
writes hands: ``"9♥9♦9♠K♣3♦"``, ``"9h9d9sKc3d"``, ``"10h10dAs"`` (each card is a rank
then one suit, so a run is unambiguous). A malformed or duplicate card raises
:class:`~fourcards.errors.CardError` naming the bad token and saying how to write a
card (:data:`CARD_SYNTAX`). Every spelling of every card is one dictionary look-up
(the fast path of :func:`fourcards.hands.best_hand` on text).

Randomness: :func:`make_rng` gives a seeded :class:`random.Random` for
reproducible deals (tests, replays, simulations) and the operating system's
CSPRNG (:class:`secrets.SystemRandom`) when no seed is given (live play).
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from fourcards.errors import CardError

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "Deck",
    "FULL_DECK",
    "parse_card",
    "parse_cards",
    "read_cards",
    "parse_rank",
    "CARD_SYNTAX",
    "format_cards",
    "make_rng",
]


class Rank(IntEnum):
    """Card rank; aces are high (14). ``Rank.TEN.char == "T"``."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """One-character symbol: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self.value - 2]

    @property
    def noun(self) -> str:
        """English name, e.g. ``"nine"``."""
        return _RANK_NOUNS[self.value - 2]

    @property
    def plural(self) -> str:
        """English plural, e.g. ``"nines"``, ``"sixes"``."""
        return "sixes" if self is Rank.SIX else self.noun + "s"


class Suit(Enum):
    """Card suit. Suits never rank and never break ties (seeds 001 §1.2, 002)."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def index(self) -> int:
        """0 (clubs) .. 3 (spades)."""
        return _SUIT_ORDER.index(self)

    @property
    def symbol(self) -> str:
        """Unicode suit symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self.index]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts, False for clubs and spades."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_CHARS = "23456789TJQKA"
_RANK_NOUNS = (
    "two three four five six seven eight nine ten jack queen king ace".split()
)
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_SYMBOLS = "♣♦♥♠"
_SUIT_ALIASES = {
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card. Ordered by :attr:`index` (rank first, then suit).

    ``str(card)`` is the two-character form (``"Th"``); :attr:`pretty` uses the
    suit symbol (``"T♥"``).
    """

    index: int

    def __post_init__(self) -> None:
        if not isinstance(self.index, int) or not 0 <= self.index < 52:
            raise CardError(f"card index must be an integer 0..51, got {self.index!r}")

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit) -> Card:
        """The card of ``rank`` (2..14) and ``suit``."""
        return cls((int(rank) - 2) * 4 + suit.index)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card token; see :func:`parse_card`."""
        return parse_card(token)

    @property
    def rank(self) -> Rank:
        """The card's rank, 2..14 (ace high): ``index // 4 + 2``."""
        return _RANKS_BY_INDEX[self.index]

    @property
    def suit(self) -> Suit:
        """The card's suit: ``index % 4`` in clubs, diamonds, hearts, spades order."""
        return _SUIT_ORDER[self.index % 4]

    @property
    def pretty(self) -> str:
        """Rank character and suit symbol, e.g. ``"T♥"``."""
        return _PRETTY[self.index]

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: Each card index's rank, two-character text and pretty text (looked up: a view writes
#: hundreds of cards).
_RANKS_BY_INDEX: tuple[Rank, ...] = tuple(Rank(i // 4 + 2) for i in range(52))
_TEXT: tuple[str, ...] = tuple(_RANKS_BY_INDEX[i].char + _SUIT_ORDER[i % 4].value for i in range(52))
_PRETTY: tuple[str, ...] = tuple(_RANKS_BY_INDEX[i].char + _SUIT_SYMBOLS[i % 4] for i in range(52))

FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def parse_rank(token: str) -> Rank:
    """Parse a rank: ``"2"``..``"9"``, ``"T"``/``"t"``/``"10"``, ``J``, ``Q``, ``K``, ``A``.

    Raises:
        CardError: the token is not a rank.
    """
    t = token.strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in _RANK_CHARS:
        raise CardError(f"malformed rank {token!r}: expected 2-9, T (or 10), J, Q, K or A")
    return Rank(_RANK_CHARS.index(t) + 2)


#: How to write a card, the end of every message about text that is not one.
CARD_SYNTAX = ("write each card as a rank (2-9, 10 or T, J, Q, K, A, any case) then a suit (c, d, h, s "
               "or \u2663 \u2666 \u2665 \u2660), e.g. 'Th', '10\u2665'; several cards separated by spaces or "
               "commas, or written together: '9\u26659\u26669\u2660K\u26633\u2666'")
# Every spelling of every card (any case, ten as T or 10, each suit as a letter, a symbol or an
# outline symbol, a symbol followed by an emoji/text variation selector) -> the card itself.
_VARIATION_SELECTORS = ("\ufe0f", "\ufe0e")
_RANK_SPELLINGS = {**{str(r): r for r in range(2, 10)}, "10": 10, "t": 10, "j": 11, "q": 12, "k": 13, "a": 14}
_CARD_BY_TEXT: dict[str, Card] = {}
for _rank_text, _rank in _RANK_SPELLINGS.items():
    for _suit_text, _suit in _SUIT_ALIASES.items():
        _suits = [_suit_text, _suit_text.upper()] if _suit_text.isalpha() else \
            [_suit_text, *(_suit_text + v for v in _VARIATION_SELECTORS)]
        for _r in {_rank_text, _rank_text.upper()}:
            for _s in _suits:
                _CARD_BY_TEXT[_r + _s] = FULL_DECK[(_rank - 2) * 4 + _suit.index]


def _shown(text: str) -> str:
    """``repr`` of ``text``, followed by its code points when it holds an invisible character that
    ``repr`` leaves as it is (a stray U+FE0F would otherwise show as ``''``)."""
    shown = repr(text)
    if any(unicodedata.category(ch)[0] in "MCZ" and ch != " " and ch in shown for ch in text):
        shown += " (" + " ".join(f"U+{ord(ch):04X}" for ch in text) + ")"
    return shown


def _not_a_card(token: str, run: str | None = None) -> CardError:
    """The error for ``token``, text that is no card (the rest of ``run``, cards written
    together, when given): what is wrong with it and how to write one."""
    t = token.strip()
    if t and t[-1] in _VARIATION_SELECTORS:
        t = t[:-1]
    if len(t) < 2:
        why = "expected a rank then a suit"
    elif _SUIT_ALIASES.get(t[-1].lower()) is None:
        why = f"unknown suit {_shown(t[-1])}"
    else:
        why = f"unknown rank {_shown(t[:-1])}"
    where = f" in {_shown(run)}" if run is not None else ""
    return CardError(f"malformed card {_shown(token)}{where}: {why}; {CARD_SYNTAX}")


def _read_run(token: str) -> list[Card]:
    """The cards of ``token``: one card, or several written together; ``CardError`` naming the
    first part that is not a card."""
    card = _CARD_BY_TEXT.get(token)
    if card is not None:
        return [card]
    return [card for _, card in _spelled_run(token)]


def _spelled_run(token: str) -> list[tuple[str, Card]]:
    """Each card of a run written together, with its spelling: at each place the card of two
    characters (a rank of one character and a suit) or, failing that, of three (the rank
    ``10``), then a variation selector if one follows. No two-character card begins a
    three-character one (no rank is ``1``), so the reading is the only one."""
    table = _CARD_BY_TEXT
    out = []
    pos, end = 0, len(token)
    if not token:
        raise _not_a_card(token)
    while pos < end:
        card = table.get(token[pos:pos + 2])
        size = 2
        if card is None:
            card = table.get(token[pos:pos + 3])
            size = 3
        if card is None:
            raise _not_a_card(token) if pos == 0 else _not_a_card(token[pos:], token)
        stop = pos + size
        if stop < end and token[stop] in _VARIATION_SELECTORS:
            stop += 1
        out.append((token[pos:stop], card))
        pos = stop
    return out


def _spelled(text: str) -> list[tuple[str, Card]]:
    """Each card of ``text`` with its spelling (for the messages: a duplicate as it was typed)."""
    out: list[tuple[str, Card]] = []
    for token in text.replace(",", " ").split():
        card = _CARD_BY_TEXT.get(token)
        out.extend([(token, card)] if card is not None else _spelled_run(token))
    return out


def parse_card(token: str | Card) -> Card:
    """Parse one card: ``"Th"``, ``"10h"``, ``"T♥"``, ``"th"``, ``"AS"``, ``"10♡"``, ``"9♥\ufe0f"``.

    A :class:`Card` is returned unchanged. A rank is ``2``-``9``, ``10``, ``T``, ``J``,
    ``Q``, ``K`` or ``A`` in any case; a suit ``c``, ``d``, ``h``, ``s`` (any case), a suit
    symbol or its outline; an emoji variation selector (U+FE0F, as phones type ``♥️``) or
    text variation selector (U+FE0E) after a symbol is ignored. Spaces around are ignored.

    Raises:
        CardError: naming the malformed token (invisible characters as ``U+XXXX``), what is
            wrong with it and how to write a card (:data:`CARD_SYNTAX`).
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(f"malformed card {token!r:.40}: a card is a Card or its text; {CARD_SYNTAX}")
    card = _CARD_BY_TEXT.get(token)
    if card is not None:
        return card
    card = _CARD_BY_TEXT.get(token.strip())
    if card is not None:
        return card
    cards = _read_run(token.strip())
    if len(cards) != 1:
        raise CardError(f"malformed card {_shown(token)}: one card expected, got {len(cards)} "
                        f"({format_cards(cards)})")
    return cards[0]


def _items(cards: Iterable[str | Card]) -> list[str | Card]:
    """The items of an iterable of cards; ``CardError`` for something that is not iterable."""
    try:
        return list(cards)
    except TypeError:
        raise CardError(f"expected cards as text or a list of cards, got {cards!r:.40}") from None


def read_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """The cards of ``text`` in order, duplicates kept (the caller decides what a repeat means).

    ``text`` is cards separated by spaces or commas, written together (``"9♥9♦9♠K♣3♦"``,
    ``"9h9d9sKc3d"``, ``"10h10dAs"``: each card is a rank followed by one suit, so a run
    is unambiguous), or both; or an iterable of tokens / :class:`Card` objects.

    Raises:
        CardError: naming the first part that is not a card, and how to write one.
    """
    if not isinstance(text, str):
        return [parse_card(t) for t in _items(text)]
    out: list[Card] = []
    table = _CARD_BY_TEXT
    for token in text.replace(",", " ").split():
        card = table.get(token)
        if card is not None:
            out.append(card)
        else:
            out.extend(_read_run(token))
    return out


def parse_cards(
    text: str | Iterable[str | Card], *, count: int | Sequence[int] | None = None
) -> list[Card]:
    """Parse several distinct cards: ``"9h 9d 9s Kc 3d"``, ``"9h,9d"``, ``"9♥9♦9♠K♣3♦"`` or an iterable.

    Args:
        text: cards as :func:`read_cards` reads them (separated by spaces or commas, or
            written together), or an iterable of tokens / :class:`Card` objects.
        count: if given, the number of cards required (or the allowed numbers).

    Raises:
        CardError: a malformed card (naming it, and how to write one), a duplicate card
            (naming it), or the wrong number of cards.
    """
    if isinstance(text, str):
        cards = read_cards(text)
    else:
        tokens = _items(text)
        cards = [parse_card(t) for t in tokens]
    if len({c.index for c in cards}) != len(cards):
        seen: set[Card] = set()
        spelled = _spelled(text) if isinstance(text, str) else zip(tokens, cards)
        for tok, card in spelled:
            if card in seen:
                raise CardError(f"duplicate card {str(tok)!r} ({card})")
            seen.add(card)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            want = " or ".join(str(a) for a in allowed)
            raise CardError(f"expected {want} cards, got {len(cards)}: {format_cards(cards)!r}")
    return cards


def check_distinct(*groups: Iterable[Card]) -> None:
    """Raise :class:`CardError` naming the first card that appears twice across ``groups``."""
    seen: set[Card] = set()
    for group in groups:
        for card in group:
            if card in seen:
                raise CardError(f"duplicate card {card}: it appears more than once")
            seen.add(card)


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    """Cards joined by spaces, e.g. ``"9h 9d 9s"`` (``pretty``: ``"9♥ 9♦ 9♠"``)."""
    return " ".join(c.pretty if pretty else str(c) for c in cards)


def make_rng(seed: int | None = None) -> random.Random:
    """A random source: seeded (reproducible) if ``seed`` is given, else the OS CSPRNG.

    Live play must use ``seed=None`` (:class:`secrets.SystemRandom`); tests,
    replays and simulations pass a seed.
    """
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(seed)


class Deck:
    """A shuffled 52-card deck (or what remains of one), dealt from the top.

    Args:
        rng: random source; defaults to the OS CSPRNG (:func:`make_rng`).
        cards: explicit order, top card first (for replays and tests); when
            given, no shuffle happens.
        exclude: cards removed before shuffling.

    Raises:
        CardError: duplicate cards in ``cards``; dealing more cards than remain.
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        cards: Sequence[Card] | None = None,
        exclude: Iterable[Card] = (),
    ) -> None:
        excluded = set(exclude)
        if cards is not None:
            check_distinct(cards)
            self._cards = [c for c in cards if c not in excluded]
        else:
            self._cards = [c for c in FULL_DECK if c not in excluded]
            (rng or make_rng()).shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Remaining cards, top first."""
        return tuple(self._cards)

    def deal(self, n: int = 1) -> list[Card]:
        """Remove and return the top ``n`` cards.

        Raises:
            CardError: fewer than ``n`` cards remain.
        """
        if n < 0 or n > len(self._cards):
            raise CardError(f"cannot deal {n} cards: {len(self._cards)} remain")
        dealt, self._cards = self._cards[:n], self._cards[n:]
        return dealt

    def shuffle(self, rng: random.Random | None = None) -> None:
        """Shuffle the remaining cards."""
        (rng or make_rng()).shuffle(self._cards)

    def put_back(self, cards: Iterable[Card]) -> None:
        """Return cards to the deck (at the bottom); shuffle afterwards if needed.

        Raises:
            CardError: a card is already in the deck.
        """
        cards = list(cards)
        check_distinct(self._cards, cards)
        self._cards.extend(cards)
