"""The Four Card Poker payout checker: cards and wagers as a person enters them, validated
in full, then settled - one function for ``fourcards poker settle`` and the web app's
``POST /api/poker/settle`` (issue 15, item 3).

A dealer or a surveillance officer types the player's five cards, the dealer's six,
the up card (optional: it changes no result, but must be one of the six), the ante,
the play bet or a fold, and the Aces Up bet; :func:`check_payout` answers each
wager's result (:func:`fourcards.poker.settlement.settle`, whose doc gives every rule
and its source) and both best four-card hands. Nothing is settled until every input
is valid; each refusal is a :class:`PayoutInputError` naming the input at fault
(:attr:`PayoutInputError.field`) with the underlying error's message.

Rules checked here (seed 002 = OPR-803; seed 004; docs/rules.md):

* five cards for the player, six for the dealer, no card twice (seed 002 "The deal");
* the up card is one of the dealer's six (seed 002 "The deal": "one face up");
* an ante, an Aces Up bet, or both (seed 002 Art. 2; FCP-1); under rules where the
  Aces Up bet needs an ante, not alone (seed 004; FCP-1);
* with an ante, exactly one of a play bet or a fold (seed 002 §3.1; FCP-3); without
  one, neither;
* a play bet the rules allow on that ante (:meth:`PokerRules.play_amounts`: any whole
  amount 1x-3x under seed 002 §3.1(b), exactly 1x or 3x under seed 004).

Table limits (``min_ante``..``max_ante``...) are not checked: the checker settles the
wagers on the layout, whatever they are. Chips are whole numbers >= 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fourcards.cards import Card, check_distinct, parse_card, parse_cards
from fourcards.errors import CardError, FourcardsError, IllegalActionError
from fourcards.hands import best_hand
from fourcards.poker.results import SeatResult, settle_hand
from fourcards.poker.rules import PokerRules

__all__ = ["PAYOUT_FIELDS", "Payout", "PayoutInputError", "check_payout"]

#: The inputs of the checker, as :attr:`PayoutInputError.field` names them, with what people call them.
PAYOUT_FIELDS = {
    "player": "the player's cards",
    "dealer": "the dealer's cards",
    "up": "the up card",
    "ante": "the ante",
    "play": "the play bet",
    "aces_up": "the Aces Up bet",
}


class PayoutInputError(FourcardsError):
    """Bad input to the payout checker. ``str(exc)`` is the underlying error's message (a
    :class:`~fourcards.errors.CardError` or :class:`~fourcards.errors.IllegalActionError`,
    kept as ``__cause__``); :attr:`field` names the input at fault, a key of
    :data:`PAYOUT_FIELDS`."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


@contextmanager
def _field(name: str) -> Iterator[None]:
    try:
        yield
    except PayoutInputError:
        raise
    except FourcardsError as exc:
        raise PayoutInputError(str(exc), name) from exc


@dataclass(frozen=True)
class Payout:
    """One checked settlement.

    Attributes:
        rules: the rules it was settled under (pay tables, win cap).
        player_cards: the player's five cards; dealer_cards: the dealer's six; up: the up card or None.
        result: each wager's result in signed chips and the player's best four
            (:class:`~fourcards.poker.results.SeatResult`).
        dealer_best: the dealer's best four of six.
    """

    rules: PokerRules
    player_cards: tuple[Card, ...]
    dealer_cards: tuple[Card, ...]
    up: Card | None
    result: SeatResult
    dealer_best: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``fourcards poker settle --json`` (public keys, spelled exactly):
        :meth:`SeatResult.to_dict <fourcards.poker.results.SeatResult.to_dict>` (``player``,
        ``seat``, ``player_hand`` {category, description, cards}, ``dealer_hand``
        {category, description, cards}, ``decision``, ``outcome``, ``wagers``,
        ``win_cap_adjustment``, ``net`` - chips), ``rules`` (the rules' name) and ``tie``:
        the player played and the two best fours are equal (the tie goes to the player,
        docs/rules.md FCP-4: ``outcome`` is ``"win"``)."""
        d = self.result.to_dict()
        d["rules"] = self.rules.name
        d["dealer_hand"]["cards"] = [str(c) for c in self.dealer_best]
        d["tie"] = self.tie
        return d

    @property
    def tie(self) -> bool:
        """Whether the player played and the player's best four equals the dealer's."""
        return self.result.decision == "play" and best_hand(self.player_cards)[0] == best_hand(self.dealer_cards)[0]


def check_payout(rules: PokerRules, player: str, dealer: str, *, up: str | None = None, ante: int,
                 play: int | None = None, fold: bool = False, aces_up: int = 0,
                 play_or_fold: str = "a play bet or a fold") -> Payout:
    """Validate one seat's cards and wagers in full, then settle them.

    Args:
        rules: the rules (pay tables, legal play bets, whether the Aces Up bet needs an
            ante, win cap).
        player: the player's five cards as text (``"9h 9d 9s Kc 3d"``, ``"10h"``,
            ``"T♥"``; spaces or commas, or written together as seed 002 does:
            ``"9♥9♦9♠K♣3♦"``); dealer: the dealer's six; up: the dealer's up card, or None.
        ante, aces_up: the wagers in chips (>= 0); play: the play bet in chips, or
            None; fold: the player folds. With an ante, exactly one of ``play`` and
            ``fold``.
        play_or_fold: how the caller's inputs name the play bet and the fold, in the
            message that asks for exactly one (the command line: ``"--play N or --fold"``).

    Returns:
        the :class:`Payout`: each wager's result, the net and both best hands.

    Raises:
        PayoutInputError: naming the input at fault (:attr:`PayoutInputError.field`):
            a malformed or duplicate card, the wrong number of cards, an up card not
            among the dealer's six, no wager, a play bet and a fold both or neither,
            a play bet the rules refuse, an Aces Up bet alone where it needs an ante,
            a wager below 0.
    """
    with _field("player"):
        player_cards = parse_cards(player, count=5)
    with _field("dealer"):
        dealer_cards = parse_cards(dealer, count=6)
        check_distinct(player_cards, dealer_cards)
    up_card = None
    if up is not None:
        with _field("up"):
            up_card = parse_card(up)
            if up_card not in dealer_cards:
                raise CardError(f"the up card {up!r} is not one of the dealer's six cards")
    for name, chips in (("ante", ante), ("aces_up", aces_up)):
        with _field(name):
            if chips < 0:
                raise IllegalActionError("the ante and the Aces Up bet must be >= 0 chips")
    with _field("ante"):
        if ante == 0 and aces_up == 0:
            raise IllegalActionError("place an ante, an Aces Up bet, or both")
    with _field("play"):
        if ante and (play is None) == (not fold):
            raise IllegalActionError(f"give exactly one of {play_or_fold}")
        if ante == 0 and (play is not None or fold):
            raise IllegalActionError("without an ante there is no play bet and no fold")
    with _field("aces_up"):
        if aces_up and ante == 0 and rules.aces_up_requires_ante:
            raise IllegalActionError(f"under the {rules.name} rules the Aces Up bet needs an ante")
    with _field("play"):
        if play is not None and not rules.play_amount_allowed(ante, play):
            raise IllegalActionError(
                f"play bet {play} is not allowed on an ante of {ante}: the play bet must be "
                f"{rules.describe_play_bets(ante)}")
    with _field("ante"):
        result = settle_hand(rules, player_cards, dealer_cards, ante=ante, play=None if fold else play,
                             aces_up=aces_up)
    return Payout(rules, tuple(player_cards), tuple(dealer_cards), up_card, result,
                  tuple(best_hand(dealer_cards)[1]))
