"""A table's finished deals as a person may see them, and the night's settlement.

* :func:`visible` - the one function that decides what a reader may see of a stored deal;
* :func:`publish` - a finished deal's history as a seat may see it (the engine's
  ``observation(player).history``: e.g. the cards of Four Card Poker seats that folded stay
  hidden from other seats) and its result;
* :func:`replay` - the deal step by step as a seat may see it, with the table log's words;
* :func:`settlement` - the night's figures of every person from the ledger's sums.

Pure functions of a table state and a stored deal (the store's ``get_deal`` dict).
"""

from __future__ import annotations

import copy
from typing import Any

from fourcards.engine import GameState
from fourcards.errors import FourcardsError
from fourcards.table.errors import TableError
from fourcards.table.seats import DealSeats
from fourcards.table.state import Person, TableState

__all__ = ["visible", "publish", "replay", "deal_names", "seats_of", "settlement", "require_history", "PRUNED"]

#: What a finished deal whose history retention removed answers (docs/deploy.md "Retention").
PRUNED = "its history was removed by the operator's retention (the results and the ledger's totals stay)"


def require_history(deal: dict[str, Any]) -> None:
    """Raises :class:`TableError` 410 (:data:`PRUNED`) for a finished deal without its history
    records: retention removed them (``fourcards db prune``); there is nothing to replay."""
    if not deal.get("history") and deal.get("status") != "in_progress":
        raise TableError(410, PRUNED)


def seats_of(state: TableState, deal: dict[str, Any]) -> DealSeats:
    """Who played a stored ``deal`` (its seat map), named after the table's people."""
    return state.table_game.stored_seats(state, deal["seats"] or {})


def _player(state: TableState, deal: dict[str, Any], seat: Person | None) -> int | None:
    return None if seat is None else seats_of(state, deal).player(player_id=seat.player_id)


def visible(state: TableState, deal: dict[str, Any], seat: Person | None, final: GameState | None = None
            ) -> dict[str, Any]:
    """What a reader - ``seat``, or a spectator (``None``) - may see of a stored deal: the one
    function that decides it, for every answer and export that carries a deal (the deals list, a
    deal, the hand histories of a table and a club; docs/web.md "Security"). The ``result`` with
    the hands of players who folded hidden from everyone but their own seat (the game's
    :meth:`~fourcards.table.games.TableGame.mucked`); the ``history``, when the deal carries one,
    as the reader's ``observation(player).history`` of the engine's replay (``final``: that replay,
    when the caller has it). A deal without ``history`` (the deals list's summaries) gets its
    result redacted alone. The deal itself is not changed.

    Raises:
        TableError: 409 when the history does not replay; 410 when retention removed it.
    """
    game = state.table_game
    player = _player(state, deal, seat)
    out = {**deal, "result": game.published_result(copy.deepcopy(deal.get("result")), player, game.mucked(deal))}
    if "history" not in deal:
        return out
    require_history(deal)
    if final is None:
        try:
            final = game.replay(state, deal["history"])
        except FourcardsError as exc:
            raise TableError(409, f"this deal's history does not replay ({exc})") from None
    seen = final.observation(player)
    shown = seen.history[len(seen.history) - len(deal["history"]):]  # the stored ones (no start prepended)
    out["history"] = [r.to_dict() for r in shown]
    return out


def publish(state: TableState, deal: dict[str, Any], seat: Person | None) -> dict[str, Any]:
    """A finished deal as ``seat`` may see it (:func:`visible`).

    Raises:
        TableError: 409 when the history does not replay.
    """
    return visible(state, deal, seat)


def deal_names(state: TableState, deal: dict[str, Any]) -> dict[int, str]:
    """Engine player -> name in a stored deal (from its seat map): the players who are still
    among the table's people."""
    seats = seats_of(state, deal)
    return {p: seats.name(p) for p, pid in enumerate(seats.ids) if pid and pid in state.people}


def replay(state: TableState, deal: dict[str, Any], seat: Person | None) -> dict[str, Any]:
    """A finished deal step by step as ``seat`` may see it: after each stored record where the
    game waited for an action or a card, the engine's replay of the history up to there, seen
    through ``observation(player)`` (the caller's; a spectator's without a seat). Each step:
    ``step`` (records replayed), ``record`` (the last one as the caller may see it), ``lines``
    (the table log's words) and ``view`` (the observation, engine players 0-based; ``players``
    names them).

    Raises:
        TableError: 409 when the history does not replay; 410 when retention removed it.
    """
    require_history(deal)
    game = state.table_game
    records = deal["history"]
    try:
        final = game.replay(state, records)
    except FourcardsError as exc:
        raise TableError(409, f"this deal's history does not replay ({exc})") from None
    base = len(final.history) - len(records)  # records the replay prepends (Four Card Poker's start)
    player = _player(state, deal, seat)
    names = deal_names(state, deal)
    steps: list[dict[str, Any]] = []
    for k in range(1, len(records) + 1):
        try:
            at = final if k == len(records) else game.replay(state, records[:k])
        except FourcardsError:  # a record that the engine follows by itself: shown with the next step
            continue
        if len(at.history) - base != k:
            continue
        seen = at.observation(player)
        shown = [r.to_dict() for r in seen.history[base + (steps[-1]["step"] if steps else 0):]]
        lines = game.log_lines(shown, at, deal["number"], lambda p: names.get(p, f"seat {p + 1}"))
        steps.append({"step": k, "record": shown[-1], "lines": lines,
                      "view": seen.to_dict(with_history=False)})
    return {"number": deal["number"], "status": deal["status"], "player": player,
            "players": [{"player": p, "name": n} for p, n in sorted(names.items())], "steps": steps}


def settlement(state: TableState, totals: dict[str, Any]) -> dict[str, Any]:
    """The night's settlement from the ledger's sums (the store's ``chip_totals``): each
    person's ``bought_in`` (the buy-in), ``top_ups``, ``cashed_out`` (chips taken from the
    table, less what came back on rejoining), ``stack`` (chips at the table now) and ``net``
    (= stack + cashed_out - bought_in - top_ups); the ``house``'s net at Four Card Poker
    (``None`` at Four of a Kind) and the chips ``in_play`` in a deal in progress. ``total``
    (every net, the house's and the chips in play) is 0: the ledger conserves chips.

    ``bank``: bots play with the bank's chips, so the bank's ``net`` is the bots' nets and the
    house's together (``bots``: ``player_id``, ``name``, ``net``; ``house``) - the people's
    nets plus the bank's (plus the chips in play) add up to zero (see
    :mod:`fourcards.table.settleup`)."""
    rows = []
    for pid, p in sorted(state.people.items()):
        m = totals["players"].get(pid, {})
        bought, top_ups = m.get("buy_in", 0), m.get("top_up", 0)
        cashed = -m.get("cash_out", 0) - m.get("rejoin", 0)
        stack = sum(m.values())  # the player's balance: every entry of the player
        rows.append({"player_id": pid, "name": p.name, "seat": p.seat or None, "status": p.status, "is_bot": p.is_bot,
                     "bought_in": bought, "top_ups": top_ups, "cashed_out": cashed, "stack": stack,
                     "net": stack + cashed - bought - top_ups})
    house = totals["house"] if state.table_game.house is not None else None
    total = sum(r["net"] for r in rows) + (house or 0) + totals["in_play"]
    bots = [{"player_id": r["player_id"], "name": r["name"], "net": r["net"]} for r in rows if r["is_bot"]]
    bank = {"net": sum(b["net"] for b in bots) + (house or 0), "bots": bots, "house": house}
    return {"table": state.id, "name": state.name, "game": state.game, "players": rows, "house": house,
            "in_play": totals["in_play"], "total": total, "bank": bank}
