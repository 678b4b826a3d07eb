"""Warm-up before a server accepts requests: the first play costs what later ones do.

The first Four Card Poker round a fresh process plays loaded the bots' strategy tables (1.3 s)
and the trainer's exact analysis (1 s), and the first Four of a Kind deal its odds and bots'
data - on the first request that needed them, while every other table's requests waited.
:func:`warm_up` first finds the dealer counts (:func:`fourcards.poker.luck.load_counts`: read
from the disk cache, or computed there once, about 1 s, on a fresh install - without them every
settled Four Card Poker seat's luck counted its dealer hands on the event loop, 7 ms a seat),
then plays one throwaway table of each game through the table's pure reducer, in
memory (no database, nothing published): every bot kind on offer, a deal to its end, every
seat's view, the trainer's advice and the exact odds; and the look-alike names' data. The app's lifespan runs it in a worker
thread, off the event loop, before the server takes connections
(:func:`fourcards.web.app.create_app`); it runs once per process.

``benchmarks/first_play.py`` measures the first and the later requests of one server.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import threading
import time
from dataclasses import replace
from typing import Any

from fourcards.table import Act, AddBots, BotMove, Move, Sit, StartDeal, TableError, TableState, apply
from fourcards.table.clock import due, player_seat
from fourcards.table.games import TableSpec
from fourcards.table.registry import GAMES, new_table_rules
from fourcards.table.views import Extras, view

__all__ = ["warm_up", "warmed"]

log = logging.getLogger(__name__)
_lock = threading.Lock()
_done = threading.Event()


def warmed() -> bool:
    """Whether :func:`warm_up` has run in this process."""
    return _done.is_set()


class _Table:
    """A table driven by commands in memory (the store's player ids given in order)."""

    def __init__(self, game: str, **spec: Any) -> None:
        table_game, rules, settings = new_table_rules(TableSpec(game, **{"seat_approval": False, **spec}))
        settings.pop("bots", None)
        state = TableState("warm-up", table_game, "warm-up", rules, settings)
        self.state = replace(state, deal=table_game.fresh(state))
        self.rng = random.Random(2026)
        self.next_id = 1
        self.now = time.time()

    def run(self, command: Any) -> None:
        out = apply(self.state, command, self.now, self.rng)
        ids = {stand_in: self.next_id + i for i, stand_in in enumerate(out.new_ids)}
        self.next_id += len(ids)
        self.state = out.state.with_player_ids(ids)

    def host(self) -> int:
        return next(p.player_id for p in self.state.people.values() if p.is_host)

    def views(self) -> None:
        extras = Extras(now=self.now, odds=self.state.table_game.compute_odds(self.state)
                        if self.state.table_game.odds_key(self.state) is not None else {})
        for seat in [*self.state.players.values(), None]:
            view(self.state, seat, None, extras)

    def bots_play(self) -> bool:
        """Bots move until a person is to act; False when the deal is over."""
        for _ in range(500):
            work = due(self.state, self.now + 3600, 0.0)
            if work is None or work[0] != "bot":
                return self.state.in_progress
            key = work[1]
            seat = player_seat(self.state, key[2])
            game = self.state.deal.game if self.state.deal else None
            if seat is None or game is None:
                return False
            action = self.state.table_game.bot_action(self.state, seat, game.observation(key[2]),
                                                      game.legal_actions(key[2]), self.rng)
            self.run(BotMove(key, action))
            self.views()
        return self.state.in_progress


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _poker() -> None:
    from fourcards.web.publisher import advise

    t = _Table("poker")
    t.run(Sit("Ann", _hash("warm-up Ann"), is_host=True))
    host = t.host()
    for i, kind in enumerate(GAMES["poker"].bot_kinds()):
        t.run(AddBots(host, (_hash(f"warm-up bot {i}"),), kind))
    t.run(Act(host, Move("wager", ante=10, aces_up=5)))
    t.run(StartDeal(host))
    t.views()
    t.bots_play()
    seen: Any = t.state.deal.game.observation(0) if t.state.deal else None
    if seen is not None and seen.players[0].cards:
        advise([str(c) for c in seen.players[0].cards], str(seen.up_card), t.state.rules, 10, "play", 10)
    try:
        t.run(Act(host, Move("play", amount=10)))
    except TableError:
        pass
    t.bots_play()
    t.views()


def _kind() -> None:
    t = _Table("kind", turn_clock=0)
    t.run(Sit("Ann", _hash("warm-up Ann"), is_host=True))
    host = t.host()
    kinds = GAMES["kind"].bot_kinds()
    for i in range(max(3, len(kinds))):
        t.run(AddBots(host, (_hash(f"warm-up bot {i}"),), kinds[i % len(kinds)]))
    t.run(StartDeal(host))
    t.views()
    for _ in range(200):
        if not t.bots_play():
            break
        moves = {a.get("kind") for a in t.state.table_game.view(t.state, t.state.people[host], Extras(now=t.now))
                 .get("actions", [])}
        t.run(Act(host, Move("check" if "check" in moves else "call")))
        t.views()


def _dealer_counts() -> None:
    """The dealer counts each settled Four Card Poker seat's luck looks up (:func:`fourcards.poker.luck.load_counts`:
    read from the disk cache, or computed once, about 1 s, where a fresh install has none)."""
    from fourcards.poker.luck import load_counts

    load_counts()


def _names() -> None:
    """The look-alike names' data (:func:`fourcards.table.names.case_steps`, read from ICU once)."""
    from fourcards.table.names import look_alike_key

    look_alike_key("warm-up")


def warm_up() -> float:
    """Play one throwaway table of each game in memory (see the module doc), once per process.
    Returns the seconds it took (0 when already done, or skipped: env ``FOURCARDS_WARM_UP=0``, for
    measuring a cold start, ``benchmarks/first_play.py``). A failure is logged, never raised: a
    server that cannot warm up still serves, only its first play is slower."""
    if os.environ.get("FOURCARDS_WARM_UP", "1") == "0":
        return 0.0
    with _lock:
        if _done.is_set():
            return 0.0
        t0 = time.perf_counter()
        for play in (_dealer_counts, _poker, _kind, _names):
            try:
                play()
            except Exception:  # pragma: no cover - a warm-up never stops a server
                log.exception("warm-up of %s failed; the first play will load what it needs", play.__name__)
        _done.set()
        return time.perf_counter() - t0
