"""Luck in a Four of a Kind deal: what the cards alone gave or took from each player, in chips,
measured against the exact odds (docs/kind.md "Luck").

A player's *expected chips* at a moment of the deal are what the pots as they stand would
bring them on average if nobody folded or bet again: the exact expectation of the high-low
split over every order of the deck (:func:`fourcards.kind.odds.pot_equity`; with one pot
``p_high * (pot - pot // 2) + p_low * (pot // 2)``, the odd chip to high). A card changes
them without anybody deciding anything; the *luck* of that card for a player is the change:
expected chips just after it minus just before it. Summed over the deal's cards, that is the
player's luck in the deal (the rating of dice luck in backgammon programs, applied to turned
cards). The chips players put in and their folds change their expected chips too, but that is
play, not luck, and is left out. A card changes nobody's total: the pots stay, so each card's
luck adds up to 0 over the players (the odd chip included).

* The initial deal counts as one card: before it every player dealt in holds an equal share of
  the antes (``pot / n`` - nothing tells them apart); after it, the exact expectation of the
  position dealt (the re-deals of duplicated ranks included). A player who forfeits during the
  initial deal (docs/rules.md FOAK-17) leaves the equal shares to those still in.
* A turned card to a player's rank changes the odds of everyone still in; a discarded card
  (a folded player's rank, or nobody's) changes nothing.
* The card that completes four of a kind ends the deal: the expectation after it is what each
  player takes from the pots.
* A deal that ends by folds, or is voided, has no luck after its last card; a voided deal has
  none at all (every chip went back).

Pure functions of the engine's history (:func:`card_luck`); exact (fractions of a chip).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from fourcards.kind.actions import Action
from fourcards.kind.game import Game, Phase
from fourcards.kind.history import DealCard, Forfeit, Op, PlayerAction, Start, TurnCard, Void
from fourcards.kind.odds import exact_odds, pot_equity
from fourcards.kind.rules import KindRules

__all__ = ["card_luck", "expected_chips"]


def expected_chips(game: Game) -> list[Fraction]:
    """Each player's expected chips from the pots as they stand (see the module doc): at the end
    of the deal what the player took; while cards are being turned, the exact expectation
    (:func:`fourcards.kind.odds.pot_equity`; one pot through the cached
    :func:`~fourcards.kind.odds.exact_odds`); 0 for a player who folded or sat out.

    Raises:
        ValueError: during the initial deal or a betting round (the expectation is read between
            betting rounds, where every chip put in is in a pot).
    """
    n = game.n_seats
    out = [Fraction(0)] * n
    if game.is_terminal:
        for a in game.awards:
            out[a.seat] += a.amount
        return out
    if game.phase is Phase.DEAL or any(game.stakes):
        raise ValueError("the expected chips are read between betting rounds, after the initial deal")
    holdings = game.holdings()
    pots = game.side_pots()
    if len(pots) == 1 and set(pots[0].eligible) == set(holdings):
        seats = list(holdings)
        for s, odds in zip(seats, exact_odds([holdings[s] for s in seats]), strict=True):
            out[s] = odds.expected_chips(pots[0].amount)
        return out
    for s, chips in pot_equity(holdings, pots).items():
        out[s] = chips
    return out


def card_luck(rules: KindRules | None, history: Sequence[Op], *, checked: bool = True) -> list[Fraction]:
    """Each player's luck in a finished deal, in chips (exact; see the module doc): the deal
    played again from its ``history`` (the engine's records, ``start`` first), each card applied
    as the chance step it was, the expected chips read before and after it.

    Args:
        rules: the deal's rules (``None``: its ``start`` record's).
        history: the deal's records.
        checked: replay the history first to check it (``False``: the records of a
            :class:`~fourcards.kind.game.Game` itself, known to replay - a table's deal; then
            ``rules`` must be given).

    Returns:
        One amount per player (0-based), adding up to 0; all 0 for a voided deal.

    Raises:
        HistoryError / IllegalActionError: a history that does not replay (see
            :meth:`fourcards.kind.game.Game.replay`).
    """
    records = list(history)
    if checked or rules is None:
        rules = Game.replay(rules, records).rules  # checks the history; its rules
    start = records[0]
    assert isinstance(start, Start)
    luck = [Fraction(0)] * len(start.stacks)
    if any(isinstance(op, Void) for op in records):
        return luck
    game = Game(rules, list(start.stacks), start.button, cards=())  # waits at every chance step
    dealing = True
    after: list[Fraction] | None = None  # the expected chips after the last card, while nobody acted since
    for op in records[1:]:
        if isinstance(op, (DealCard, TurnCard)):
            if dealing:
                game.apply(op)
            else:
                before = after if after is not None else expected_chips(game)
                game.apply(op)
                after = expected_chips(game)
                for s, (a, b) in enumerate(zip(before, after, strict=True)):
                    luck[s] += b - a
        elif isinstance(op, PlayerAction):
            game.apply(Action(op.kind, op.amount))  # type: ignore[arg-type]
            after = None
        elif isinstance(op, Forfeit):
            game.apply(op)
            after = None
        else:
            continue  # the engine's own follow-ups: antes, returned duplicates, awards...
        if dealing and game.phase is not Phase.DEAL:
            dealing = False
            if game.is_terminal and game.finish_reason != "four":
                break  # everyone else left during the deal: no card decided anything
            live = game.active_seats
            share = Fraction(sum(game.contributed) if not game.is_terminal else
                             sum(a.amount for a in game.awards), len(live))
            for s, chips in enumerate(expected_chips(game)):
                luck[s] += chips - (share if s in live else 0)
    return luck
