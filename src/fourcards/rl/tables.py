"""Four of a Kind tables from framework parameters: rules by preset and fields, stacks by seat."""

from __future__ import annotations

import re
from typing import Any

from fourcards.errors import RulesError
from fourcards.kind.rules import KindRules, get_rules

__all__ = ["table_rules", "table_stacks"]


def table_rules(preset: str = "family", **fields: Any) -> KindRules:
    """Rules from a preset name and :class:`~fourcards.kind.rules.KindRules` fields (``ante=10``, ...).

    Raises:
        RulesError: unknown preset or field, or invalid values.
    """
    known = set(KindRules.__dataclass_fields__)
    unknown = sorted(set(fields) - known)
    if unknown:
        raise RulesError(f"unknown Four of a Kind rule(s) {', '.join(unknown)}: use {', '.join(sorted(known))}")
    return get_rules(preset, **fields)


def table_stacks(players: int, stack: int | None, stacks: Any, rules: KindRules) -> list[int]:
    """Each seat's chips: ``stacks`` (a list, or text ``"200/150/..."``, also ``,`` ``;`` or spaces
    between), else ``stack`` (default 40 antes) each.

    Raises:
        RulesError: a bad number of players or stacks.
    """
    if stacks is not None and stacks != "":
        try:
            parts = re.split(r"[/,; ]+", stacks.strip()) if isinstance(stacks, str) else list(stacks)
            out = [int(x) for x in parts]
        except (TypeError, ValueError):
            raise RulesError(f"stacks must be whole numbers of chips, got {stacks!r}") from None
        if len(out) != players:
            raise RulesError(f"{players} players need {players} stacks, got {len(out)}")
        return out
    return [40 * max(rules.ante, 1) if stack is None else int(stack)] * players
