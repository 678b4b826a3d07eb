"""Helpers for the table package's pure tests: tables made without a server or database, commands
applied the way a server does (stand-in player ids replaced as the store would), and a
snapshot of everything a state shows."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace
from typing import Any

from fourcards.table import Command, Outcome, TableState, apply
from fourcards.table.games import TableSpec
from fourcards.table.registry import new_table_rules
from fourcards.table.state import stored
from fourcards.table.views import Extras, view
from fourcards.table.writes import DealWrite, Entry, NewPlayer, SeatChange

NOW = 1_000_000.0


def th(name: str) -> str:
    """A token hash for a person's name (the tests' stand-in for a token)."""
    return hashlib.sha256(name.encode()).hexdigest()


def new_state(game: str, **spec: Any) -> TableState:
    """A table as the store would create it (version 0, no people), with its next deal laid out;
    new seats need no approval unless ``seat_approval=True``."""
    table_game, rules, settings = new_table_rules(TableSpec(game, **{"seat_approval": False, **spec}))
    settings.pop("bots")
    state = TableState("t1", table_game, "Test table", rules, settings, public=spec.get("public", False))
    return replace(state, deal=table_game.fresh(state))


@dataclass
class Table:
    """A table driven by commands as a server drives it: ``state`` after each command, the store's
    player ids given in order, every ledger entry kept (``entries``), the log."""

    state: TableState
    now: float = NOW
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    next_id: int = 1
    entries: list[Entry] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    def run(self, command: Command, *, at: float | None = None) -> Outcome:
        """Apply ``command`` at ``at`` (default: :attr:`now`); keep the new state (version + 1)."""
        out = apply(self.state, command, self.now if at is None else at, self.rng)
        ids = {}
        for w in out.writes:
            if isinstance(w, NewPlayer):
                ids[out.new_ids[len(ids)]] = self.next_id
                self.entries += [Entry("player", w.buy_in, self.next_id, "buy_in"), Entry("bank", -w.buy_in)]
                self.next_id += 1
            elif isinstance(w, DealWrite):
                self.entries += w.entries
            elif isinstance(w, SeatChange):
                for pid, amount, memo in w.moves:
                    self.entries += [Entry("player", amount, pid, memo), Entry("bank", -amount)]
        state = out.state.with_player_ids(ids)
        if out.changed:
            state = replace(state, version=state.version + 1)
        self.state = state
        self.outcomes.append(out)
        return out

    def pid(self, name: str) -> int:
        """The player id of the person called ``name``."""
        return next(p.player_id for p in self.state.people.values() if p.name == name)

    def seat(self, name: str) -> int:
        """The seat of the person called ``name``."""
        return self.state.people[self.pid(name)].seat

    def balance(self, name: str) -> int:
        """The chips of the person called ``name``."""
        return self.state.people[self.pid(name)].balance


def snapshot(state: TableState) -> Any:
    """Everything a state shows: what is stored, every seat's and a spectator's view."""
    extras = Extras(now=NOW)
    views = [view(state, p, None, extras) for p in state.players.values()] + [view(state, None, None, extras)]
    deal = None if state.deal is None else [r.to_dict() for r in state.deal.game.history]
    return stored(state), views, deal, {pid: p for pid, p in state.people.items()}, state.log


def chips(table: Table) -> int:
    """Every chip the ledger holds outside the bank: the people's, the house's and the escrows'
    - the sum of all entries is 0 (conservation), so this is what the bank paid out."""
    return sum(e.amount for e in table.entries if e.account != "bank")
