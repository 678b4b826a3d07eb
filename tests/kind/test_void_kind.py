"""The host's void of a Four of a Kind deal (docs/rules.md TP-4: the host may void a round, full
refund, logged; seed 004 "Malfunction voids all pays and plays")."""

from __future__ import annotations

import random

import pytest

from fourcards.errors import IllegalActionError
from fourcards.kind import Game, KindRules, Phase, Void


def _mid_deal() -> Game:
    game = Game(KindRules(ante=5, min_bet=5, max_bet=10), [100, 100, 40, 100], 0, cards=())
    rng = random.Random(3)
    while game.actor is None:
        game.apply_chance(rng)
    game.apply(next(o for o in game.legal_actions() if o.kind.value in ("bet", "raise")).action(10))
    return game


def test_design_host_void_gives_every_seat_back_what_it_put_in() -> None:
    game = _mid_deal()
    assert sum(game.contributed) == 30
    game.apply(Void("misdeal"))
    assert game.phase is Phase.VOIDED and game.is_terminal and game.void_reason == "misdeal"
    assert game.stacks == [100, 100, 40, 100] and game.returns() == (0, 0, 0, 0) and game.pot == 0
    assert game.observation(None).to_dict()["phase"] == "voided"
    with pytest.raises(IllegalActionError, match="already voided"):
        game.apply(Void("again"))


def test_design_void_record_of_a_server_restart_replays() -> None:
    """The web app's database appends ``{"kind": "void", "reason": ...}`` to a deal a restart
    interrupted; the deal's history still replays (to the voided state)."""
    game = _mid_deal()
    records = [op.to_dict() for op in game.history] + [{"kind": "void", "reason": "server restart"}]
    again = Game.replay(None, records)
    assert again.is_terminal and again.void_reason == "server restart" and again.returns() == (0, 0, 0, 0)
