"""Issue 28 item 7: a table reads a finished deal's luck without replaying its history first
(``card_luck(..., checked=False)``: the engine's own records), and reuses the expected chips
after a card when nobody acted before the next: the same exact figures as the checked path."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards.kind import KindRules
from fourcards.kind.bots import make_bot, play_deal
from fourcards.kind.luck import card_luck


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 9))
def test_issue28_unchecked_luck_equals_checked_luck(seed: int, n: int) -> None:
    rng = random.Random(seed)
    stacks = [rng.choice([6, 20, 60, 200]) for _ in range(n)]  # short stacks: all-ins, cards turned back to back
    bots = [make_bot(rng.choice(["odds", "cautious", "random"])) for _ in range(n)]
    game = play_deal(KindRules(), bots, stacks, rng)
    checked = card_luck(None, game.history)
    assert card_luck(game.rules, game.history, checked=False) == checked
    assert sum(checked) == 0


def test_issue28_unchecked_luck_needs_no_rules_to_read_them_from_the_start_record() -> None:
    rng = random.Random(7)
    game = play_deal(KindRules(), [make_bot("odds") for _ in range(5)], [60] * 5, rng)
    # without rules the history is replayed for them, checked or not
    assert card_luck(None, game.history, checked=False) == card_luck(None, game.history)


def test_issue28_checked_luck_still_refuses_a_broken_history() -> None:
    rng = random.Random(3)
    game = play_deal(KindRules(), [make_bot("odds") for _ in range(4)], [60] * 4, rng)
    broken = [game.history[0], *game.history[2:]]
    with pytest.raises(Exception, match=r"(?i)card|history|deal|expected"):
        card_luck(None, broken)
