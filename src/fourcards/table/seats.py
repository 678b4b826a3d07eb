"""Who plays a deal: :class:`DealSeats`, the one map of engine player <-> table seat <->
player id <-> name.

Four identities meet at a table: the store's player id, the table seat 1..n that people see
(docs/rules.md TP-1), the engine's player 0..n-1 in deal order, and the name a person reads
(the engines take the names as their seat labels, so their messages name people directly).
A deal's state holds one :class:`DealSeats`; nothing else maps between them.

Four Card Poker plays each seat against the house: engine player ``p`` is table seat
``p + 1`` in every round, whoever sits there (``follows`` the table's seats: the map is
brought up to date as people sit down and leave). Four of a Kind deals the players seated at
its start (their order is the deal's; a player who leaves mid-deal stays in its map).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from fourcards.engine import seat_label

__all__ = ["DealSeats", "Seated"]


class Seated(Protocol):
    """What the map reads of a person (:class:`fourcards.table.state.Person`): the store's
    ``player_id``, the table ``seat`` (0: none), the ``name`` and the ``status``."""

    @property
    def player_id(self) -> int: ...

    @property
    def seat(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def status(self) -> str: ...


P = TypeVar("P", bound=Seated)


@dataclass(frozen=True, slots=True)
class DealSeats:
    """Who plays a deal (see the module doc): engine player ``p`` sits at table seat
    ``seats[p]`` (0: no longer seated), is the store's player ``ids[p]`` (0: nobody; a
    negative stand-in until the store gives the row's id) and is named ``names[p]`` (the
    engine's seat label). ``follows``: the map follows the table's seats (Four Card Poker)."""

    seats: tuple[int, ...]
    ids: tuple[int, ...]
    names: tuple[str, ...]
    follows: bool = False

    # ------------------------------------------------------------ building

    @classmethod
    def dealt(cls, seats: Sequence[int], players: Mapping[int, Seated], *, follows: bool = False) -> DealSeats:
        """The map of a deal dealing table ``seats`` in order (engine player ``p`` at
        ``seats[p]``), from the seated ``players`` (by seat); an empty seat is nobody,
        ``"seat N"``."""
        people = [players.get(s) for s in seats]
        return cls(tuple(seats), tuple(p.player_id if p else 0 for p in people),
                   tuple(p.name if p else f"seat {s}" for s, p in zip(seats, people)), follows)

    def seated(self, players: Mapping[int, Seated]) -> DealSeats:
        """A map that :attr:`follows` the table brought up to date with the seated ``players``
        (by seat); any other map as it is."""
        if not self.follows:
            return self
        new = DealSeats.dealt(self.seats, players, follows=True)
        return self if new == self else new

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any], people: Mapping[int, Seated], *, follows: bool,
                    players: int | None = None) -> DealSeats:
        """The map of a stored deal (its seat map, :meth:`stored`) with the table's ``people``
        (every person ever seated, by player id): names from the people; a following map
        (Four Card Poker: table seat -> player id) of ``players`` engine players (default: up
        to its highest seat), else engine player -> player id (each player's seat: their
        seat now, 0 once gone)."""
        if follows:
            by_seat = {int(k): int(v) for k, v in stored.items()}
            n = max(by_seat, default=0) if players is None else players
            ids = tuple(by_seat.get(s, 0) for s in range(1, n + 1))
            return cls(tuple(range(1, n + 1)), ids,
                       tuple(people[i].name if i in people else f"seat {s}" for s, i in enumerate(ids, 1)), True)
        ids = tuple(int(v) for _, v in sorted((int(k), v) for k, v in stored.items()))
        return cls(tuple(people[i].seat if i in people else 0 for i in ids), ids,
                   tuple(people[i].name if i in people else seat_label(p) for p, i in enumerate(ids)))

    def stored(self) -> dict[str, int]:
        """The seat map the store keeps with a deal: a following map table seat -> player id of
        every seated player, else engine player -> player id."""
        if self.follows:
            return {str(s): i for s, i in zip(self.seats, self.ids) if i}
        return {str(p): i for p, i in enumerate(self.ids)}

    def with_ids(self, ids: Mapping[int, int]) -> DealSeats:
        """Stand-in player ids replaced by the store's (``{stand-in: id}``)."""
        if not any(i in ids for i in self.ids):
            return self
        return DealSeats(self.seats, tuple(ids.get(i, i) for i in self.ids), self.names, self.follows)

    # ------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self.seats)

    def seat(self, player: int) -> int:
        """The table seat of engine ``player`` (0: no longer seated, or not a player)."""
        return self.seats[player] if 0 <= player < len(self.seats) else 0

    def player_id(self, player: int) -> int:
        """The player id of engine ``player`` (0: nobody)."""
        return self.ids[player] if 0 <= player < len(self.ids) else 0

    def name(self, player: int) -> str:
        """The name of engine ``player`` (the engine's seat label; ``"seat N"`` off the map)."""
        return self.names[player] if 0 <= player < len(self.names) else seat_label(player)

    def player(self, *, seat: int | None = None, player_id: int | None = None) -> int | None:
        """The engine player at table ``seat``, or of ``player_id`` (``None``: not in this deal)."""
        if player_id is not None:
            if not player_id:
                return None
            try:
                return self.ids.index(player_id)
            except ValueError:
                return None
        if not seat:
            return None
        try:
            return self.seats.index(seat)
        except ValueError:
            return None

    def person(self, player: int, people: Mapping[int, P]) -> P | None:
        """The person who plays engine ``player``, seated at its seat (``None``: nobody, or they
        left - and did not sit down again at another seat meanwhile)."""
        p = people.get(self.player_id(player))
        return p if p is not None and p.seat and p.seat == self.seats[player] and p.status != "left" else None

    def player_of(self, person: Seated) -> int | None:
        """The engine player of ``person`` (``None``: not dealt in, or no longer at its seat)."""
        p = self.player(player_id=person.player_id)
        return p if p is not None and person.seat and self.seats[p] == person.seat else None
