"""The table's chat: short messages and reactions from seated people, the host's mute, and the
rate limit (docs/rules.md TP-9).

* A message is 1-:data:`CHAT_MAX_CHARS` characters of printable text, checked like every name
  a person types (:func:`fourcards.inputs.clean_name`: runs of spaces become one; control
  characters - a newline, a tab - format characters such as right-to-left overrides,
  private-use and unassigned characters are refused). A reaction is one of :data:`REACTIONS`.
* Only a seated person (not a bot, not a spectator, not a browser waiting for its seat) may
  chat, also while the table is paused; the host may mute anyone else's chat, which is then
  refused (403) until the host lets them chat again.
* Rate limit: at most :data:`CHAT_BURST` messages (reactions included) per person in any
  :data:`CHAT_WINDOW_S` seconds - a sliding window (:func:`fourcards.table.window.wait_for`) over
  the messages the state keeps, counted
  from the ``now`` a command is applied at; one more is refused (429) with the wait.
* Messages are kept with the table (each a :class:`~fourcards.table.writes.ChatLine` row the
  store appends; a state keeps the last :data:`~fourcards.table.state.CHAT_KEPT`), shown in
  every view, spectators' included; pages escape them like every other text.

Each handler takes the draft of a change and its command and returns its answer (JSON).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fourcards.errors import FourcardsError
from fourcards.inputs import clean_name
from fourcards.table.commands import Chat, Mute
from fourcards.table.draft import Draft
from fourcards.table.errors import TableError
from fourcards.table.state import CHAT_KEPT
from fourcards.table.window import wait_for
from fourcards.table.writes import ChatLine

__all__ = ["CHAT_MAX_CHARS", "CHAT_BURST", "CHAT_WINDOW_S", "REACTIONS", "chat", "mute"]

#: Characters in one chat message (after tidying).
CHAT_MAX_CHARS = 200
#: Messages a person may send in any :data:`CHAT_WINDOW_S` seconds ("a few a second at most").
CHAT_BURST = 3
#: The rate limit's sliding window, seconds.
CHAT_WINDOW_S = 2.0
#: The reactions a person may send with one tap.
REACTIONS = ("\U0001f44d", "\U0001f44f", "\U0001f602", "\U0001f62e", "\U0001f62c", "\U0001f389")


def _message(c: Chat) -> tuple[str, str]:
    """The message's text and kind (``"text"`` or ``"reaction"``), checked."""
    if (c.text is None) == (c.reaction is None):
        raise TableError(422, "a chat message is a text or a reaction (one of them)")
    if c.reaction is not None:
        if c.reaction not in REACTIONS:
            raise TableError(422, f"reaction: {c.reaction[:8]!r} is not a reaction here; use one of "
                                  f"{' '.join(REACTIONS)}")
        return c.reaction, "reaction"
    try:
        return clean_name(c.text or "", field="chat message", max_length=CHAT_MAX_CHARS), "text"
    except FourcardsError as exc:  # fourcards.errors.InputError
        raise TableError(422, str(exc)) from None


def chat(d: Draft, c: Chat) -> dict[str, Any]:
    """A seated person's message or reaction, kept with the table: ``{"chat": message}``.

    Raises:
        TableError: 403 for a bot's seat, a person not seated, or one the host has muted;
            409 at a closed table; 422 an empty, too long or unprintable text, an unknown
            reaction, both or neither; 429 over the rate limit (naming the wait).
    """
    person = d.seated(c.by)
    if person.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    d.require_open()
    if person.muted:
        raise TableError(403, "the host has muted your chat at this table")
    text, kind = _message(c)
    wait = wait_for([line.at for line in d.state.chat if line.player_id == person.player_id], CHAT_BURST,
                    CHAT_WINDOW_S, d.now)
    if wait is not None:
        raise TableError(429, f"slow down: at most {CHAT_BURST} chat messages in {CHAT_WINDOW_S:g} seconds; "
                              f"try again in {wait:.1f} s")
    line = ChatLine(d.state.chat_seq + 1, person.player_id, person.seat, person.name, text, kind, d.now)
    d.write(line)
    d.set(chat=(*d.state.chat, line)[-CHAT_KEPT:], chat_seq=line.number)
    return {"chat": line.public()}


def mute(d: Draft, c: Mute) -> dict[str, Any]:
    """Host: mute the chat of the person at ``seat``, or let them chat again (logged; muting a
    muted person again changes nothing). Returns ``{"seat", "name", "muted"}``.

    Raises:
        TableError: 403 for a guest; 404 an empty seat; 409 a bot's seat, the host's own, or
            a closed table.
    """
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    seat = d.seat_of(c.seat)
    if seat.is_bot:
        raise TableError(409, "a bot does not chat: there is nothing to mute")
    if seat.player_id == host.player_id:
        raise TableError(409, "the host cannot mute their own chat")
    if seat.muted != c.muted:
        d.put(replace(seat, muted=c.muted))
        d.log(f"The host mutes {seat.name} in the chat" if c.muted else f"The host lets {seat.name} chat again")
    return {"seat": seat.seat, "name": seat.name, "muted": c.muted}
