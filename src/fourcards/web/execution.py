"""Commands, the one way: apply, commit, carry out the events, publish, then the bots.

:class:`Execution` runs every change of a table on this server - a person's command from a
route or the websocket (built by :mod:`fourcards.web.commands`), a bot's move, a time-out:

1. the :class:`~fourcards.web.repository.Repository` applies the command to its copy of the
   table (:func:`fourcards.table.apply`, pure) - with no bot delay, followed by the bots'
   moves until a person is to act, chained to it (:meth:`Execution.bot_move`) - and commits
   them as one versioned change (group commit with other tables': the
   :class:`~fourcards.web.committer.Committer`); **the one place a command is applied** is
   :meth:`Repository.run <fourcards.web.repository.Repository.run>`;
2. the events the change implies are carried out (a seat token revoked, the trainer asked);
3. the :class:`~fourcards.web.publisher.Publisher` computes the views' slow figures and
   pushes every connection its view of the last state (built once per viewer per state).

A bot with a delay moves when its move is due (:mod:`fourcards.web.due`): :meth:`Execution.bot_step`.

The server only loads, applies, saves and publishes: every rule is in :mod:`fourcards.table`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import string
from collections.abc import Callable, Coroutine
from typing import Any

from fourcards.store import TableStore
from fourcards.table import AddBots, BotMove, Command, Outcome, Person, Sit, TableError, TableState
from fourcards.table.clock import due_at, player_seat
from fourcards.table.draft import Revoked, TrainerAsked
from fourcards.table.games import TableSpec
from fourcards.table.registry import new_table_rules
from fourcards.web.publisher import Publisher
from fourcards.web.repository import Repository
from fourcards.web.tokens import hash_token, new_token

__all__ = ["Execution", "MAX_BOT_STEPS"]

log = logging.getLogger(__name__)

_ID_ALPHABET = string.ascii_lowercase + string.digits
#: Bot moves in a row one request makes when bots move at once (a guard, never reached in play).
MAX_BOT_STEPS = 10_000


class Execution:
    """The execution path of this server (see the module doc).

    Args:
        repo: this server's copies of tables over the store.
        publisher: this server's connections and their views.
        store: the started store (a callable: the hub's).
        run_db: runs a blocking store call in a database thread.
        bot_delay: seconds between bot moves (0: bots move at once, inside the request that
            made it their turn).
        rng: chance outcomes (bots' choices); ``None``: the OS CSPRNG.
        due_set: told each new due time (Unix seconds) a change sets (the due-work loop may
            have to look earlier).
    """

    def __init__(self, repo: Repository, publisher: Publisher, store: Callable[[], TableStore],
                 run_db: Callable[..., Coroutine[Any, Any, Any]], bot_delay: float, rng: random.Random | None,
                 due_set: Callable[[float | None], None]) -> None:
        self.repo = repo
        self.publisher = publisher
        self.store = store
        self.run_db = run_db
        self.bot_delay = bot_delay
        self.rng = rng
        self.due_set = due_set

    # ------------------------------------------------------------ tables

    def new_table_id(self) -> str:
        """A fresh random table id: 8 characters of ``a-z0-9`` (2.8e12 of them; the database
        refuses a duplicate)."""
        return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))

    async def create_table(self, spec: TableSpec, host_name: str, name: str | None) -> tuple[TableState, Person, str]:
        """Create a table, seat the host at seat 1, add the requested bots.

        Returns:
            the table, the host's seat and the host's secret token.
        Raises:
            TableError: 422 for bad rules or too many bots.
        """
        store = self.store()
        game, rules, settings = new_table_rules(spec)
        tid = self.new_table_id()
        bots = settings.pop("bots")
        await self.run_db(store.create_table, tid, spec.game, name or f"{host_name}'s {game.title} table",
                          rules.to_dict(), settings, spec.public)
        token = new_token()
        out = await self.execute(tid, lambda s: Sit(host_name, hash_token(token), is_host=True))
        host = out.state.players[(out.answer or {})["seat"]]
        if bots:
            out = await self.execute(tid, lambda s: AddBots(host.player_id, tuple(hash_token(new_token())
                                                                                 for _ in range(bots))))
        return out.state, out.state.people[host.player_id], token

    # ------------------------------------------------------------ commands

    async def execute(self, table_id: str, make: Callable[[TableState], Command], *, bots: bool = True) -> Outcome:
        """Apply the command ``make(state)`` to the table - and (``bots``, no bot delay) the bots'
        moves that follow until a person is to act, in the same commit - commit, carry out the
        events and push the views.

        Raises:
            TableError: the command's refusal (nothing changed), 409 lost races, 503 database.
        """
        outcome = await self.repo.run(table_id, make, self.bot_move if bots and self.bot_delay <= 0 else None)
        if outcome.changed:
            await self.after(outcome)
        return outcome

    async def after(self, outcome: Outcome) -> None:
        """What follows a committed change: its events, the views pushed, its due time told."""
        state = outcome.state
        for event in outcome.events:
            if isinstance(event, Revoked):
                self.publisher.revoke(state.id, event.token_hash, event.detail)
            elif isinstance(event, TrainerAsked):
                self.publisher.ask_trainer(state, event, lambda: self.publish(state.id))
        await self.publisher.prepare(state)
        self.publisher.publish(state)
        self.due_set(due_at(state, self.bot_delay))

    def publish(self, table_id: str) -> None:
        """Push the views of this server's copy of the table."""
        state = self.repo.copies.get(table_id)
        if state is not None:
            self.publisher.publish(state)

    # ------------------------------------------------------------ bots

    async def bot_move(self, state: TableState) -> BotMove | None:
        """The move of the bot to act in ``state`` now (``None``: no bot is to act), decided in a
        worker thread. A bot that fails checks if it may, else folds (its move replaced by the
        table)."""
        key = state.clock.key
        seat = player_seat(state, key[2]) if key else None
        if key is None or seat is None or not seat.is_bot or state.paused or state.deal is None:
            return None
        game = state.deal.game
        try:
            action = await asyncio.to_thread(state.table_game.bot_action, state, seat, game.observation(key[2]),
                                             game.legal_actions(key[2]), self.rng)
        except Exception:
            log.exception("bot %s failed at table %s; it checks or folds", seat.name, state.id)
            action = None
        return BotMove(key, action)

    async def bot_step(self, table_id: str) -> bool:
        """Make one bot move if a bot is to act now (its own commit); True if one was made."""
        move = await self.bot_move(await self.repo.get(table_id))
        if move is None:
            return False
        try:
            await self.execute(table_id, lambda s: move, bots=False)
        except TableError as exc:
            log.info("bot move at table %s not made: %s", table_id, exc.detail)
            return False
        return True

    async def drive_bots(self, table_id: str) -> None:
        """With no bot delay, let bots act now until a person is to act (before the request
        returns). With a delay, a bot's move is due that long after its turn began, for
        whichever server claims it (:meth:`fourcards.web.due.DueWork.run_due`)."""
        if self.bot_delay > 0:
            return
        for _ in range(MAX_BOT_STEPS):
            if not await self.bot_step(table_id):
                return
