"""Buy-in rules (docs/rules.md TP-14): what a new seat buys in with and what a top-up may be.

The host sets, in the table's settings (each 0 or missing: no limit):

* ``min_buy_in`` / ``max_buy_in`` - the chips a new seat may buy in with (the person chooses
  within them; without a choice, the table's ``starting_chips`` brought within them). A person
  who left and sits down again gets their own chips back: that is no buy-in.
* ``min_top_up`` / ``max_top_up`` - the chips one top-up may add; and no top-up may bring a
  stack above ``max_buy_in``.
* ``match_biggest_stack`` - besides, a top-up may bring a stack up to the biggest stack at the
  table (whatever the limits above say).

A top-up is checked when it is asked for and again when the host approves it (stacks change
meanwhile). Bots buy in with the table's buy-in. Pure functions of a table's state.
"""

from __future__ import annotations

from typing import Any

from fourcards.table.errors import TableError
from fourcards.table.state import Person, TableState

__all__ = ["LIMITS", "MAX_CHIPS", "limits", "buy_in", "top_up_range", "check_top_up", "changed", "words"]

#: The settings the host sets, all in chips (0: no limit), and the option.
LIMITS = ("min_buy_in", "max_buy_in", "min_top_up", "max_top_up")
#: The most chips one buy-in or top-up may be (the web API's bound).
MAX_CHIPS = 10_000_000


def limits(state: TableState) -> dict[str, Any]:
    """The table's buy-in rules: each of :data:`LIMITS` (0: none) and ``match_biggest_stack``."""
    s = state.settings
    return {**{k: int(s.get(k) or 0) for k in LIMITS}, "match_biggest_stack": bool(s.get("match_biggest_stack"))}


def buy_in(state: TableState, asked: int | None) -> int:
    """The chips a new seat buys in with: ``asked`` (``None``: the table's ``starting_chips``
    brought within the limits).

    Raises:
        TableError: 409 for an amount outside the host's limits (naming them).
    """
    lim = limits(state)
    lo, hi = lim["min_buy_in"], lim["max_buy_in"]
    if asked is None:
        chips = int(state.settings.get("starting_chips", 1000))
        return min(max(chips, lo), hi) if hi else max(chips, lo)
    if (lo and asked < lo) or (hi and asked > hi):
        raise TableError(409, f"a buy-in of {asked:,} chips is outside this table's limits: {_range(lo, hi)}")
    return asked


def _range(lo: int, hi: int) -> str:
    if lo and hi:
        return f"{lo:,} to {hi:,} chips"
    return f"at least {lo:,} chips" if lo else f"at most {hi:,} chips"


def _biggest(state: TableState, seat: Person) -> int:
    return max((p.balance for p in state.players.values() if p.player_id != seat.player_id), default=0)


def top_up_range(state: TableState, seat: Person) -> dict[str, Any]:
    """What a top-up of ``seat`` may be now: ``min`` and ``max`` (chips; ``max`` < ``min``: none
    now), and ``match`` - the top-up that brings the stack to the biggest at the table, when
    ``match_biggest_stack`` allows one (else ``None``)."""
    lim = limits(state)
    lo = max(1, lim["min_top_up"])
    hi = lim["max_top_up"] or MAX_CHIPS
    if lim["max_buy_in"]:
        hi = min(hi, lim["max_buy_in"] - seat.balance)
    match = _biggest(state, seat) - seat.balance if lim["match_biggest_stack"] else 0
    if match >= 1:
        return {"min": 1, "max": max(hi, match), "match": match}
    return {"min": lo, "max": hi, "match": None}


def check_top_up(state: TableState, seat: Person, amount: int) -> None:
    """Raises :class:`TableError` 409 when a top-up of ``amount`` chips is outside the host's
    rules for ``seat`` now (naming them)."""
    lim = limits(state)
    lo = max(1, lim["min_top_up"])
    hi = lim["max_top_up"] or MAX_CHIPS
    cap = lim["max_buy_in"]
    if lo <= amount <= hi and (not cap or seat.balance + amount <= cap):
        return
    biggest = _biggest(state, seat)
    if lim["match_biggest_stack"] and seat.balance + amount <= biggest:
        return
    rules = []
    if lim["min_top_up"] or lim["max_top_up"]:
        rules.append(f"a top-up is {_range(lim['min_top_up'], lim['max_top_up'])}")
    if cap:
        rules.append(f"no stack above the maximum buy-in of {cap:,} (yours is {seat.balance:,})")
    if lim["match_biggest_stack"]:
        rules.append(f"or up to the biggest stack at the table ({biggest:,})")
    raise TableError(409, f"a top-up of {amount:,} chips is outside this table's rules: " + ", ".join(rules))


def changed(state: TableState, given: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The settings with the host's new buy-in rules ``given`` (a key left out or ``None`` stays
    as it is) and the log's lines for what changed.

    Raises:
        TableError: 422 for an amount out of 0..:data:`MAX_CHIPS` or a minimum above its maximum.
    """
    settings = dict(state.settings)
    old = limits(state)
    for k in LIMITS:
        v = given.get(k)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_CHIPS:
            raise TableError(422, f"{k} must be a whole number of chips from 0 (no limit) to {MAX_CHIPS:,}")
        settings[k] = v
    if given.get("match_biggest_stack") is not None:
        settings["match_biggest_stack"] = bool(given["match_biggest_stack"])
    new = {**{k: int(settings.get(k) or 0) for k in LIMITS},
           "match_biggest_stack": bool(settings.get("match_biggest_stack"))}
    for lo, hi in (("min_buy_in", "max_buy_in"), ("min_top_up", "max_top_up")):
        if new[lo] and new[hi] and new[lo] > new[hi]:
            raise TableError(422, f"{lo} ({new[lo]:,}) is above {hi} ({new[hi]:,})")
    lines = []
    if (new["min_buy_in"], new["max_buy_in"]) != (old["min_buy_in"], old["max_buy_in"]):
        lines.append("The host sets the buy-in: " + (_range(new["min_buy_in"], new["max_buy_in"])
                                                     if new["min_buy_in"] or new["max_buy_in"] else "no limits"))
    if (new["min_top_up"], new["max_top_up"]) != (old["min_top_up"], old["max_top_up"]):
        lines.append("The host sets the top-ups: " + (_range(new["min_top_up"], new["max_top_up"])
                                                      if new["min_top_up"] or new["max_top_up"] else "no limits"))
    if new["match_biggest_stack"] != old["match_biggest_stack"]:
        lines.append("A top-up may match the biggest stack at the table" if new["match_biggest_stack"]
                     else "A top-up no longer matches the biggest stack")
    return settings, lines


def words(state: TableState) -> str | None:
    """The buy-in rules in words for people ("Buy-in 500 to 2,000 chips; top-ups ..."), or
    ``None`` without any."""
    lim = limits(state)
    parts = []
    if lim["min_buy_in"] or lim["max_buy_in"]:
        parts.append("buy-in " + _range(lim["min_buy_in"], lim["max_buy_in"]))
    if lim["min_top_up"] or lim["max_top_up"]:
        parts.append("top-ups " + _range(lim["min_top_up"], lim["max_top_up"]))
    if lim["match_biggest_stack"]:
        parts.append("a top-up may match the biggest stack")
    return "; ".join(parts).capitalize() if parts else None
