"""The bot of docs/engine.md ("One bot for both games"), written once against the
engine protocol, plays both games: the very code of the page is run here."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path
from typing import Any

from fourcards.kind import Game, KindRules
from fourcards.poker.round import PokerRound
from fourcards.poker.rules import get_rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def doc_bot() -> dict[str, Any]:
    """Run the page's code block and return its names (RandomBot, play_out)."""
    section = DOC.read_text(encoding="utf-8").split("### One bot for both games", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "docs/engine.md lost its bot"
    names: dict[str, Any] = {"__name__": "engine_doc"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(DOC), "exec"), names)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2, lines  # the page's two example prints ran
    return names


def test_docs_engine_bot_plays_both_games_through_the_protocol():
    names = doc_bot()
    bot, play_out = names["RandomBot"](), names["play_out"]
    rng = random.Random(2024)
    for _ in range(200):
        poker = PokerRound(get_rules(rng.choice(["live", "online"])), players=rng.randint(1, 9))
        returns = play_out(poker, bot, rng)
        assert poker.is_terminal and len(returns) == poker.num_players
        assert sum(returns) == -poker.house_net
        kind = Game(KindRules(), stacks=[rng.choice([20, 100, 300]) for _ in range(rng.randint(4, 9))],
                    button=0, cards=() if rng.random() < 0.5 else None, rng=random.Random(rng.random()))
        returns = play_out(kind, bot, rng)
        assert kind.is_terminal and sum(returns) == 0
