"""Shared helpers for the Four of a Kind tests (scripted games, passive play)."""

from __future__ import annotations

from fourcards.kind import Action, ActionKind, Game, KindRules


def scripted(cards: str, n: int = 4, *, stacks=None, rules: KindRules | None = None, button: int | None = None) -> Game:
    """A game dealing ``cards`` in order; the button is the last seat so seat 0 is dealt first."""
    return Game(rules or KindRules(), stacks or [100] * n, n - 1 if button is None else button,
                cards=cards.split())


def passive(game: Game) -> None:
    """Everyone checks or calls until a chance event is needed or the deal ends."""
    while game.actor is not None:
        kinds = {la.kind for la in game.legal_actions()}
        game.apply(Action.check() if ActionKind.CHECK in kinds else Action.call())


def passive_round(game: Game) -> None:
    """Everyone checks or calls until the current betting round is over."""
    number = game.round_number
    while game.actor is not None and game.round_number == number:
        kinds = {la.kind for la in game.legal_actions()}
        game.apply(Action.check() if ActionKind.CHECK in kinds else Action.call())


def orders(remaining: list[int]):
    """Every distinct order of a multiset given as counts per label (brute-force odds)."""
    if not any(remaining):
        yield ()
        return
    for i, left in enumerate(remaining):
        if left:
            remaining[i] -= 1
            for rest in orders(remaining):
                yield (i,) + rest
            remaining[i] += 1
