"""Live views: the websocket connections of this server and what is pushed to them.

Each connection holds the seat token it connected with (or none: a spectator); who it is is
looked up in the table's state at every push - a seat, a browser whose seat request waits for
the host, or a spectator - so a seat handed on, a request approved or a person leaving shows
at the next push without bookkeeping. After every change each connected viewer gets its own
view (:func:`fourcards.table.views.view`), built once per viewer per state and serialized
with orjson; a slow client gets the latest view, not every intermediate one. The views built
for a state are kept until the next, so a REST answer of that state reuses them.

What views show besides the state is kept here: open connections per seat ("online", per
server process), the trainer's advice per seat (computed in a worker thread) and Four of a
Kind's exact odds (computed in a worker thread, cached by the holdings they depend on).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

import orjson

from fourcards.table.draft import TrainerAsked
from fourcards.table.players import advise
from fourcards.table.state import Person, SeatRequest, TableState
from fourcards.table.views import Extras, own_view, shared_view
from fourcards.web import metrics
from fourcards.web.transport import SEND_NOW

__all__ = ["Connection", "Publisher", "dumps"]

#: Exact-odds results kept per server (by holdings).
ODDS_CACHE = 512


def dumps(message: Any) -> str:
    """JSON text of a message (orjson: the views are most of a server's serializing)."""
    return orjson.dumps(message).decode()


class Connection:
    """One websocket client. Messages go out in order; a message is written at once when the
    connection can take it (``fourcards serve``'s transport: :data:`~fourcards.web.transport.SEND_NOW`),
    else queued for one pump task, where state views are coalesced (a client that falls behind
    gets the latest view, not every one). Messages are JSON already encoded (UTF-8 bytes).

    ``token_hash``: the token it connected with (``None``: a spectator)."""

    def __init__(self, ws: Any, token_hash: str | None) -> None:
        self.ws = ws
        self.token_hash = token_hash
        scope = getattr(ws, "scope", None) or {}
        self._send_now: Callable[[bytes], bool] | None = (scope.get("extensions") or {}).get(SEND_NOW)
        self._latest: bytes | None = None
        self._queue: deque[bytes | None] = deque()  # None = "the latest state view"
        self._state_queued = False
        self._event = asyncio.Event()
        self._sending = False  # the pump holds a message it has not written yet
        self.closed = False

    def _now(self, data: bytes) -> bool:
        """Write ``data`` at once if nothing is ahead of it and the connection takes it."""
        return not self._queue and not self._sending and self._send_now is not None and not self.closed \
            and self._send_now(data)

    def push(self, message: bytes) -> None:
        """Send a state view: now if the connection takes it, else queued (replacing an unsent one)."""
        if self._now(message):
            return
        self._latest = message
        if not self._state_queued:
            self._state_queued = True
            self._queue.append(None)
        self._event.set()

    def push_direct(self, message: dict[str, Any]) -> None:
        """Send a message for this client only (ack, error), after those queued."""
        data = orjson.dumps(message)
        if self._now(data):
            return
        self._queue.append(data)
        self._event.set()

    async def close(self, code: int) -> None:
        """Close the socket with ``code`` once the queued messages had a moment to go out."""
        await asyncio.sleep(0.05)
        try:
            await self.ws.close(code=code)
        except Exception:  # pragma: no cover - already closed
            pass

    async def pump(self) -> None:
        """Send queued messages until the socket closes."""
        while not self.closed:
            await self._event.wait()
            self._event.clear()
            while self._queue:
                item = self._queue.popleft()
                if item is None:
                    self._state_queued = False
                    item, self._latest = self._latest, None
                    if item is None:
                        continue
                self._sending = True
                try:
                    await self.ws.send_text(item.decode())
                finally:
                    self._sending = False


def viewer(state: TableState, token_hash: str | None) -> tuple[Person | None, SeatRequest | None]:
    """Who holds ``token_hash`` at the table: a seat, a browser whose seat request waits for the
    host (or was turned down), or ``(None, None)`` - a spectator."""
    if token_hash is None:
        return None, None
    seat = state.by_token.get(token_hash)
    if seat is not None:
        return seat, None
    return None, state.request_of(token_hash)


class Publisher:
    """This server's connections and the views pushed to them (see the module doc).

    Args:
        spawn: runs a coroutine in the background.
        public_url: the address people reach this server at (invitation links).
        bot_kinds: the bots a table of a game offers (``game -> names``).
    """

    def __init__(self, spawn: Callable[[Coroutine[Any, Any, Any]], Any], public_url: str | None,
                 bot_kinds: Callable[[str], tuple[str, ...]]) -> None:
        self.spawn = spawn
        self.public_url = public_url
        self.bot_kinds = bot_kinds
        self.conns: dict[str, set[Connection]] = {}
        self.trainer: dict[str, dict[int, dict[str, Any]]] = {}
        self._odds: dict[Any, dict[int, Any]] = {}
        self._trainer_round: dict[str, int] = {}
        #: Per table, the views last built: (state, extras, shared part, own parts by viewer).
        self._built: dict[str, tuple[TableState, Extras, dict[str, Any], dict[Any, dict[str, Any]]]] = {}

    # ------------------------------------------------------------ connections

    def watching(self, table_id: str) -> bool:
        """Whether a browser watches the table through this server."""
        return bool(self.conns.get(table_id))

    def add(self, table_id: str, conn: Connection) -> None:
        """A new connection to the table."""
        self.conns.setdefault(table_id, set()).add(conn)
        metrics.websocket(+1)

    def remove(self, table_id: str, conn: Connection) -> None:
        """A connection closed."""
        conn.closed = True
        metrics.websocket(-1)
        conns = self.conns.get(table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[table_id]

    def online(self, state: TableState) -> dict[int, int]:
        """Open connections of each seated person (player id -> count), on this server."""
        out: dict[int, int] = {}
        for c in self.conns.get(state.id, ()):
            p = state.by_token.get(c.token_hash) if c.token_hash else None
            if p is not None:
                out[p.player_id] = out.get(p.player_id, 0) + 1
        return out

    def revoke(self, table_id: str, token_hash: str, detail: str) -> None:
        """Close the connections holding ``token_hash`` (the seat was handed to a new phone)."""
        for c in list(self.conns.get(table_id, ())):
            if c.token_hash == token_hash:
                c.push_direct({"type": "error", "id": None, "status": 403, "detail": detail})
                c.token_hash = None
                self.spawn(c.close(4403))

    # ------------------------------------------------------------ extras

    def odds_ready(self, state: TableState) -> bool:
        """Whether the figures the state's views show are computed (see :meth:`prepare`)."""
        key = state.table_game.odds_key(state)
        return key is None or key in self._odds

    async def prepare(self, state: TableState) -> None:
        """Compute the figures the state's views show that take a while (Four of a Kind's exact
        odds), in a worker thread, once per holdings."""
        key = state.table_game.odds_key(state)
        if key is None or key in self._odds:
            return
        odds = await asyncio.to_thread(state.table_game.compute_odds, state)
        if len(self._odds) >= ODDS_CACHE:
            self._odds.clear()
        self._odds[key] = odds

    def extras(self, state: TableState) -> Extras:
        """What a view of ``state`` shows besides the state (see :class:`fourcards.table.views.Extras`)."""
        key = state.table_game.odds_key(state)
        if self._trainer_round.get(state.id) != state.next_deal_number:  # a round opened: the last one's advice goes
            self._trainer_round[state.id] = state.next_deal_number
            self.trainer.pop(state.id, None)
        return Extras(now=time.time(), public_url=self.public_url, online=self.online(state),
                      trainer=self.trainer.get(state.id, {}), odds=self._odds.get(key, {}) if key else {},
                      bot_kinds=self.bot_kinds(state.game))

    def view(self, state: TableState, seat: Person | None, request: SeatRequest | None = None) -> dict[str, Any]:
        """The full state message for ``seat`` now (a read's answer)."""
        extras = self.extras(state)
        return {**shared_view(state, extras), **own_view(state, seat, request, extras)}

    def built_view(self, state: TableState, seat: Person | None, request: SeatRequest | None = None
                   ) -> dict[str, Any]:
        """The full state message for ``seat`` as a command's answer: the views :meth:`publish`
        built for this very state when it did (the shared part, and the viewer's own part if a
        connection of theirs got one), else built now (and kept for this state)."""
        built = self._built.get(state.id)
        if built is None or built[0] is not state:
            extras = self.extras(state)
            built = self._built[state.id] = (state, extras, shared_view(state, extras), {})
        _, extras, shared, owns = built
        key = (seat.player_id if seat else None, request.id if request else None)
        own = owns.get(key)
        if own is None:
            own = owns[key] = own_view(state, seat, request, extras)
        return {**shared, **own}

    def ask_trainer(self, state: TableState, asked: TrainerAsked, on_advice: Callable[[], Any]) -> None:
        """The optimal decision for a Four Card Poker hand just decided, in a worker thread; then
        ``on_advice()`` (push the views again)."""
        seats = self.trainer.setdefault(state.id, {})
        seats[asked.seat] = {"status": "computing", "message": "computing the optimal decision..."}
        rules, tid = state.rules, state.id

        async def run() -> None:
            advice = await asyncio.to_thread(advise, list(asked.cards), asked.up_card, rules, asked.ante,
                                             asked.decision, asked.amount)
            current = self.trainer.get(tid, {})
            if current.get(asked.seat, {}).get("status") == "computing":
                current[asked.seat] = {**advice, "cards": list(asked.cards), "up_card": asked.up_card}
                on_advice()

        self.spawn(run())

    # ------------------------------------------------------------ pushing

    def publish(self, state: TableState) -> None:
        """Push every connection to the table its own latest view of ``state``: the shared part
        serialized once, each viewer's own part once."""
        conns = self.conns.get(state.id)
        if not conns:
            self._built.pop(state.id, None)
            return
        metrics.published(len(conns))
        extras = self.extras(state)
        shared_dict = shared_view(state, extras)
        shared = orjson.dumps(shared_dict)[:-1]
        owns: dict[Any, dict[str, Any]] = {}
        self._built[state.id] = (state, extras, shared_dict, owns)
        cache: dict[Any, bytes] = {}
        for c in list(conns):
            seat, request = viewer(state, c.token_hash)
            key = (seat.player_id if seat else None, request.id if request else None)
            text = cache.get(key)
            if text is None:
                own_dict = owns[key] = own_view(state, seat, request, extras)
                text = cache[key] = shared + b"," + orjson.dumps(own_dict)[1:]
            c.push(text)
