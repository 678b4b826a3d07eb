"""Four of a Kind's rules at a table (:class:`~fourcards.table.games.GameRules`): presets and
custom fields, a new table's settings (``dealing``), seats, bots, who the next deal deals in,
the rules in words.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fourcards.kind import PRESETS as KIND_PRESETS
from fourcards.kind import KindRules
from fourcards.kind import get_rules as get_kind_rules
from fourcards.table.errors import TableError
from fourcards.table.games import TableSpec
from fourcards.table.players import kind_bot_names
from fourcards.table.state import TableState

__all__ = ["KindTableRules", "by_hand"]


def by_hand(state: TableState) -> bool:
    """Whether the table is dealt with real cards the host enters (FOAK-14)."""
    return state.settings.get("dealing") == "table"


class KindTableRules:
    """Four of a Kind's rules at a table (see the module doc); a part of
    :class:`fourcards.table.kind.KindTable`."""

    game: ClassVar[str] = "kind"

    title: ClassVar[str] = "Four of a Kind"

    word: ClassVar[str] = "Deal"

    default_clock: ClassVar[int] = 30  # DESIGN.md "Table play (web) rulings"

    rules_fields: ClassVar[tuple[str, ...]] = ("ante", "min_bet", "max_bet", "max_raises", "redeal")

    default_bot: ClassVar[str] = "odds"

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> KindRules:
        """A preset (default ``family``) with custom fields (:data:`rules_fields`).

        Raises:
            RulesError: an unknown preset or invalid rules.
        """
        return get_kind_rules("family" if preset is None else preset, **given)

    @staticmethod
    def rules_from_dict(d: dict[str, Any]) -> KindRules:
        """A stored table's rules. Tables stored before the rules carried their preset ``name``
        get one back: the preset they equal, else ``"custom"``.

        Raises:
            RulesError: invalid values.
        """
        rules = KindRules.from_dict(d)
        if "name" in d:
            return rules
        return next((rules.with_(name=n) for n, base in KIND_PRESETS.items() if rules.with_(name=base.name) == base),
                    rules.with_(name="custom"))

    @staticmethod
    def settings(rules: KindRules, spec: TableSpec) -> dict[str, Any]:
        """``starting_chips`` of a new table (must cover the ante) and ``dealing``: ``"deck"``
        (default) or ``"table"`` (real cards entered by the host; FOAK-14).

        Raises:
            TableError: 422 naming ``starting_chips`` or ``bot_ante`` (a poker setting).
        """
        if spec.bot_ante is not None:
            raise TableError(422, "bot_ante applies to Four Card Poker tables only "
                                  "(Four of a Kind bots pay the table's ante)")
        if spec.starting_chips < rules.ante:
            raise TableError(422, f"starting_chips: {spec.starting_chips} chips do not cover this table's ante "
                                  f"of {rules.ante}: every seat would sit out")
        return {"starting_chips": spec.starting_chips, "dealing": spec.dealing or "deck"}

    @staticmethod
    def max_seats(rules: Any) -> int:
        """``rules.max_players`` (at most 13, one per rank: seed 001 §2.2)."""
        return int(rules.max_players)

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Bots of a new table when the host asks for none in particular: enough for a deal with
        the host (``min_players`` - 1; seed 000 "four or more players")."""
        return int(rules.min_players) - 1

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The engine's bots and the installed plug-ins (:func:`fourcards.table.players.kind_bot_names`)."""
        return kind_bot_names()

    @staticmethod
    def rules_label(rules: KindRules) -> str:
        """``family`` (seed 000) is "Family rules: ante 5, bets 5–10"; ``opr903`` (seed 001)
        "Official rules: ..., every duplicate re-dealt"; ``nickel`` "Nickel game: ante 5¢, bets
        5¢–10¢" (in cents); rules changed from a preset say so."""
        preset, _, custom = rules.name.partition("+")
        who = {"family": "Family rules", "opr903": "Official rules", "nickel": "Nickel game"}.get(preset, "Custom rules")
        if custom and who != "Custom rules":
            who += ", changed"
        unit = "¢" if preset == "nickel" else ""
        text = f"{who}: ante {rules.ante:,}{unit}, bets {rules.min_bet:,}{unit}–{rules.max_bet:,}{unit}"
        if rules.max_raises != 3:
            text += f", {rules.max_raises} raises at most"
        return text + (", every duplicate re-dealt" if rules.redeal.value == "all_duplicates" else "")

    @classmethod
    def preset_labels(cls) -> dict[str, str]:
        """``{"family": "Family rules: ante 5, bets 5–10", ...}``."""
        return {name: cls.rules_label(r) for name, r in KIND_PRESETS.items()}

    @staticmethod
    def players_in(state: TableState) -> list[int]:
        """The seats the next deal deals in: seated, not sitting out, with chips for the ante."""
        return [s for s, p in sorted(state.players.items()) if not p.sitting_out and p.balance >= state.rules.ante]
