"""Cards, ranks, suits, the 52-card deck, parsing and random number sources.

A card is identified by an integer ``index`` in ``0..51``: ``(rank - 2) * 4 + suit``
(twos first, aces last; suits clubs, diamonds, hearts, spades). The vectorised
code in :mod:`fourcards.hands` uses these indices as ``uint8``.

Parsing accepts ``"Th"``, ``"10h"``, ``"T♥"``, ``"th"``, ``"10♥"`` and lists such
as ``"9h 9d 9s Kc 3d"`` (space or comma separated). A malformed or duplicate card
raises :class:`~fourcards.errors.CardError` naming the bad token.

Randomness: :func:`make_rng` gives a seeded :class:`random.Random` for
reproducible deals (tests, replays, simulations) and the operating system's
CSPRNG (:class:`secrets.SystemRandom`) when no seed is given (live play).
"""

from __future__ import annotations

import random
import secrets
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
    "parse_rank",
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
        return Rank(self.index // 4 + 2)

    @property
    def suit(self) -> Suit:
        """The card's suit: ``index % 4`` in clubs, diamonds, hearts, spades order."""
        return _SUIT_ORDER[self.index % 4]

    @property
    def pretty(self) -> str:
        """Rank character and suit symbol, e.g. ``"T♥"``."""
        return self.rank.char + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.char + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


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


def parse_card(token: str | Card) -> Card:
    """Parse one card: ``"Th"``, ``"10h"``, ``"T♥"``, ``"th"``, ``"AS"``.

    A :class:`Card` is returned unchanged.

    Raises:
        CardError: naming the malformed token.
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(f"malformed card {token!r}: expected a string such as 'Th'")
    t = token.strip()
    if len(t) < 2:
        raise CardError(f"malformed card {token!r}: expected rank then suit, e.g. 'Th' or '10h'")
    suit = _SUIT_ALIASES.get(t[-1].lower())
    if suit is None:
        raise CardError(f"malformed card {token!r}: unknown suit {t[-1]!r} (use c, d, h, s or ♣♦♥♠)")
    try:
        rank = parse_rank(t[:-1])
    except CardError:
        raise CardError(
            f"malformed card {token!r}: unknown rank {t[:-1]!r} (use 2-9, T or 10, J, Q, K, A)"
        ) from None
    return Card.of(rank, suit)


def parse_cards(
    text: str | Iterable[str | Card], *, count: int | Sequence[int] | None = None
) -> list[Card]:
    """Parse several distinct cards: ``"9h 9d 9s Kc 3d"``, ``"9h,9d"`` or an iterable.

    Args:
        text: a string of tokens separated by spaces or commas, or an iterable of
            tokens / :class:`Card` objects.
        count: if given, the number of cards required (or the allowed numbers).

    Raises:
        CardError: a malformed token, a duplicate card (naming it), or the wrong
            number of cards.
    """
    tokens: list[str | Card]
    if isinstance(text, str):
        tokens = [t for t in text.replace(",", " ").split() if t]
    else:
        tokens = list(text)
    cards = [parse_card(t) for t in tokens]
    seen: set[Card] = set()
    for tok, card in zip(tokens, cards):
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
