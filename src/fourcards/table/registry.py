"""The games a shared table can play (:data:`GAMES`) and a new table's rules and settings."""

from __future__ import annotations

from typing import Any

from fourcards.errors import FourcardsError
from fourcards.table.errors import TableError
from fourcards.table.games import TableGame, TableSpec
from fourcards.table.kind import KindTable
from fourcards.table.poker import PokerTable

__all__ = ["GAMES", "new_table_rules"]

#: The games a table can play, by the ``game`` name of the API.
GAMES: dict[str, type[TableGame]] = {"poker": PokerTable, "kind": KindTable}


def new_table_rules(spec: TableSpec) -> tuple[type[TableGame], Any, dict[str, Any]]:
    """The game, rules and settings of a new table: a preset plus custom fields, the
    starting chips checked against the rules.

    Raises:
        TableError: 422 for an unknown game or preset, a field of the other game, invalid
            rules (the engine's message), chips that do not cover the rules, or too many bots.
    """
    game = GAMES.get(spec.game)
    if game is None:
        raise TableError(422, f"unknown game {spec.game!r}: choose poker or kind")
    given = {k: v for k, v in spec.rules.items() if v is not None}
    wrong = [k for k in given if k not in game.rules_fields]
    if wrong:
        raise TableError(422, f"rules field(s) {', '.join(wrong)} do not apply to {game.title}")
    try:
        rules: Any = game.build_rules(spec.preset, given)
    except (FourcardsError, TypeError) as exc:
        raise TableError(422, str(exc)) from None
    game.check_storable(rules)
    settings = game.settings(rules, spec)
    by_hand = settings.get("dealing") == "table"  # real cards: real people, no bots or clock unless asked
    bots = (0 if by_hand else game.default_bots(rules)) if spec.bots is None else spec.bots
    if bots + 1 > game.max_seats(rules):
        raise TableError(422, f"bots: at most {game.max_seats(rules) - 1} bots fit with the host at this table")
    settings["turn_clock"] = (0 if by_hand else game.default_clock) if spec.turn_clock is None else spec.turn_clock
    settings["seat_approval"] = (not spec.public) if spec.seat_approval is None else spec.seat_approval
    settings["bots"] = bots
    return game, rules, settings
