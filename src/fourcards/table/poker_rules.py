"""Four Card Poker's rules at a table (:class:`~fourcards.table.games.GameRules`): presets and
custom fields, a new table's settings, seats, bots, the table limits with the play bet's
reserve, the rules in words.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from fourcards.poker.rules import PRESETS as POKER_PRESETS
from fourcards.poker.rules import PokerRules, get_rules, parse_aces_up, parse_ante_bonus
from fourcards.table.errors import TableError
from fourcards.table.games import TableSpec
from fourcards.table.players import poker_bot_names
from fourcards.table.state import Person, TableState
from fourcards.table.writes import MAX_AMOUNT

__all__ = ["PokerTableRules"]


class PokerTableRules:
    """Four Card Poker's rules at a table (see the module doc); a part of
    :class:`fourcards.table.poker.PokerTable`."""

    game: ClassVar[str] = "poker"

    title: ClassVar[str] = "Four Card Poker"

    word: ClassVar[str] = "Round"

    default_clock: ClassVar[int] = 0  # against the house nobody waits on a neighbour (DESIGN.md "Table play")

    rules_fields: ClassVar[tuple[str, ...]] = ("ante_bonus", "aces_up", "min_ante", "max_ante", "min_aces_up", "max_aces_up", "win_cap")

    default_bot: ClassVar[str] = "simple"

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> PokerRules:
        """A preset (default ``live``) with named pay tables and custom fields (:data:`rules_fields`).

        Raises:
            RulesError: an unknown preset or invalid rules.
        """
        given = dict(given)
        rules = get_rules("live" if preset is None else preset, ante_bonus=given.pop("ante_bonus", None),
                          aces_up=given.pop("aces_up", None))
        if given:
            name = rules.name if rules.name.endswith("custom") else f"{rules.name}+custom"
            rules = dataclasses.replace(rules, name=name, **given)
        return rules

    @staticmethod
    def rules_from_dict(d: dict[str, Any]) -> PokerRules:
        """Inverse of :meth:`PokerRules.to_dict` (pay tables as ``"25/20/2"`` text).

        Raises:
            RulesError: invalid values.
        """
        known = {f.name for f in dataclasses.fields(PokerRules)}
        kwargs = {k: v for k, v in d.items() if k in known}
        kwargs["ante_bonus"] = parse_ante_bonus(str(d["ante_bonus"]))
        kwargs["aces_up"] = parse_aces_up(str(d["aces_up"]))
        kwargs["play_multiples"] = tuple(d.get("play_multiples", (1, 2, 3)))
        return PokerRules(**kwargs)

    @staticmethod
    def check_storable(rules: PokerRules) -> None:
        """Refuse Four Card Poker rules under which some settlement could not be stored.

        At the table's limits a seat stakes at most ``rules.largest_stake`` and wins at most
        ``rules.largest_win`` chips a round; its settlement writes ledger entries of up to
        their sum, and the house's result of a round adds up to ``rules.max_seats`` such
        seats. All of it must fit in a ledger entry (:data:`~fourcards.table.writes.MAX_AMOUNT`),
        else a winning hand could not be written. Checked when a table is created.

        Raises:
            TableError: 422 naming the largest settlement and the bound.
        """
        per_seat = rules.largest_stake + rules.largest_win
        largest = rules.max_seats * per_seat
        if largest > MAX_AMOUNT:
            raise TableError(422, f"rules: a round could settle {largest:,} chips ({rules.max_seats} seats staking "
                                  f"up to {rules.largest_stake:,} and winning up to {rules.largest_win:,} each), "
                                  f"which cannot be stored: the ledger holds at most {MAX_AMOUNT:,} chips per entry "
                                  "- lower the pays, the table limits or the win cap")

    @staticmethod
    def settings(rules: PokerRules, spec: TableSpec) -> dict[str, Any]:
        """``starting_chips`` and the bots' ante (``bot_ante``, chips) of a new table.

        A seat must afford the minimum ante; bots their ante plus the smallest play bet (else
        they could only fold). With no ``bot_ante``: 10 chips, brought within the ante limits
        and lowered to what the buy-in affords.

        Raises:
            TableError: 422 naming ``dealing``, ``starting_chips`` or ``bot_ante``.
        """
        if spec.dealing is not None:
            raise TableError(422, "dealing applies to Four of a Kind tables only (Four Card Poker deals from the "
                                  "server's shuffled deck)")
        lo, hi, chips, ante = rules.min_ante, rules.max_ante, spec.starting_chips, spec.bot_ante
        need = 1 + min(rules.decision_multiples)  # the ante and the smallest play bet, in antes
        if chips < lo:
            raise TableError(422, f"starting_chips: {chips} chips do not cover this table's minimum ante of {lo}")
        if ante is None:
            ante = max(lo, min(10, hi, chips // need))
        elif not lo <= ante <= hi:
            raise TableError(422, f"bot_ante: {ante} is outside this table's ante limits {lo}-{hi} "
                                  f"({rules.name} rules)")
        elif ante * need > chips:
            raise TableError(422, f"bot_ante: bots need {ante * need} chips for an ante of {ante} and a play bet "
                                  f"of at least {ante * (need - 1)}, but starting_chips is {chips}")
        return {"starting_chips": chips, "bot_ante": ante}

    @staticmethod
    def max_seats(rules: Any) -> int:
        """``rules.max_seats`` (1-9)."""
        return int(rules.max_seats)

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The bots a table offers: the built-in strategies, then plug-ins
        (:func:`fourcards.table.players.poker_bot_names`)."""
        return poker_bot_names()

    @staticmethod
    def rules_label(rules: PokerRules) -> str:
        """``live`` (seed 002) is "Casino rules: play 1x–3x"; ``online`` (seed 004) "Online rules:
        1x or 3x, win cap 8,400"; rules changed from a preset say so ("Casino rules, changed: ...")."""
        preset, _, custom = rules.name.partition("+")
        who = {"live": "Casino rules", "online": "Online rules"}.get(preset, "Custom rules")
        if custom and who != "Custom rules":
            who += ", changed"
        if rules.play_any_amount:
            play = f"play {rules.min_play_multiple}x–{rules.max_play_multiple}x"
        else:
            play = " or ".join(f"{m}x" for m in rules.play_multiples)
        return f"{who}: {play}" + (f", win cap {rules.win_cap:,}" if rules.win_cap else "")

    @classmethod
    def preset_labels(cls) -> dict[str, str]:
        """``{"live": "Casino rules: play 1x–3x", "online": ...}``."""
        return {name: cls.rules_label(r) for name, r in POKER_PRESETS.items()}

    @staticmethod
    def bot_ante(state: TableState) -> int:
        """The bots' ante in chips: the ``bot_ante`` setting (default 10) within the ante limits."""
        r = state.rules
        return max(r.min_ante, min(int(state.settings.get("bot_ante") or 10), r.max_ante))

    @classmethod
    def may_wager(cls, state: TableState, seat: Person, ante: int, aces_up: int) -> bool:
        """Whether ``seat`` may place an ante of ``ante`` and an Aces Up bet of ``aces_up`` now
        (the table limits, its chips with the play bet's reserve: FCP-1, FCP-14); ``False`` for
        no wager at all."""
        r = state.rules
        if not ante and not aces_up:
            return False
        if ante and not r.min_ante <= ante <= cls.ante_max(state, seat.balance, aces_up):
            return False
        if aces_up and (not r.min_aces_up <= aces_up <= r.max_aces_up or (not ante and r.aces_up_requires_ante)):
            return False
        return ante + aces_up <= seat.balance

    @staticmethod
    def ante_max(state: TableState, balance: int, aces_up: int = 0) -> int:
        """The largest ante a seat of ``balance`` chips may place beside ``aces_up``: the ante,
        the Aces Up bet and the smallest play bet must all be covered (FCP-14), within the
        table's limits (0: none)."""
        r = state.rules
        need = 1 + min(r.decision_multiples)
        return max(0, min(r.max_ante, (balance - aces_up) // need))
