"""Hand histories out (issue 21 item 7): every finished deal as one JSON object (a line of JSON
Lines) and as readable text, as a seat may see it.

One deal, one object (:func:`hand`; the format is documented in docs/web.md "Hand histories"):

* ``format`` - :data:`FORMAT`; ``fourcards_version`` (the version that exported it, issue 27);
  ``table`` (``id``, ``name``, ``game``, ``title``), ``number``,
  ``word`` ("Round", "Deal"), ``status`` (``settled`` or ``voided``), ``void_reason``,
  ``started_at``, ``ended_at``, ``rules`` (the deal's rules, ``rules.to_dict()``);
* ``players`` - each engine player (0-based) with a person: ``player``, ``player_id``,
  ``name``, ``is_bot`` (Four Card Poker's ``seat`` = ``player`` + 1);
* ``history`` - the engine's records, its ``start`` record first, as the viewer may see them
  (``observation(player).history``: a folded Four Card Poker hand of another seat, and the
  dealer's cards of a voided round, are ``null``); ``redacted`` says whether any card is
  hidden so (such a history cannot be replayed card for card; its results stand below);
* ``returns`` (each engine player's net, the engine's ``returns()``), ``nets``
  (``{player: chips}`` from the ledger), ``result`` (the stored result as the viewer may see
  it), ``ledger`` (the deal's ledger entries) and ``lines`` (the table log's words).

An unredacted ``history`` replays with the engine: ``fourcards.kind.Game.replay(None,
history)`` or ``fourcards.poker.round.PokerRound.replay(rules, history)`` (rules read back by
:meth:`fourcards.table.poker.PokerTable.rules_from_dict`), to the same ``returns``.

:func:`hand_text` is the same deal in words; a text export begins with :func:`text_heading` (the
version, a comment line). Pure functions of a table state and a stored deal (the store's
``get_deal`` form).
"""

from __future__ import annotations

import json
from typing import Any

from fourcards import __version__
from fourcards.errors import FourcardsError
from fourcards.table.errors import TableError
from fourcards.table.history import PRUNED, deal_names, require_history, seats_of, visible
from fourcards.table.state import Person, TableState

__all__ = ["FORMAT", "hand", "hand_text", "hand_jsonl", "hand_words", "text_heading", "PRUNED"]

#: The format's name and version, in every line.
FORMAT = "fourcards-hands/1"


def hand(state: TableState, deal: dict[str, Any], seat: Person | None) -> dict[str, Any]:
    """A finished deal of ``state``'s table as ``seat`` may see it (``None``: a spectator); see
    the module doc for the fields.

    Raises:
        TableError: 409 when the stored history does not replay (recorded under other rulings)
            or the deal is still in progress; 410 when retention removed it
            (:data:`~fourcards.table.history.PRUNED`).
    """
    if deal["status"] == "in_progress":
        raise TableError(409, f"deal {deal['number']} is in progress; its history is published when it ends")
    require_history(deal)
    game = state.table_game
    try:
        final = game.replay(state, deal["history"])
    except FourcardsError as exc:
        raise TableError(409, f"deal {deal['number']}'s history does not replay ({exc})") from None
    seats = seats_of(state, deal)
    player = None if seat is None else seats.player(player_id=seat.player_id)
    seen = final.observation(player)
    history = [r.to_dict() for r in seen.history]
    result = visible(state, deal, seat, final)["result"]
    names = deal_names(state, deal)
    ids = seats.ids
    players = []
    for p, pid in enumerate(ids):
        if pid and pid in state.people:
            entry: dict[str, Any] = {"player": p, "player_id": pid, "name": names.get(p, state.people[pid].name),
                                     "is_bot": state.people[pid].is_bot}
            if game.game == "poker":
                entry["seat"] = seats.seat(p)
            players.append(entry)
    by_pid = {pid: p for p, pid in enumerate(ids) if pid}
    nets: dict[int, int] = {}
    for e in deal.get("ledger") or ():
        if e["account"] == "player" and e["player_id"] in by_pid:
            p = by_pid[e["player_id"]]
            nets[p] = nets.get(p, 0) + int(e["amount"])
    return {
        "format": FORMAT, "fourcards_version": __version__,
        "table": {"id": state.id, "name": state.name, "game": state.game, "title": game.title},
        "number": deal["number"], "word": game.word, "status": deal["status"], "void_reason": deal.get("void_reason"),
        "started_at": deal.get("started_at"), "ended_at": deal.get("ended_at"), "rules": deal["rules"],
        "players": players, "viewer": player,
        "history": history, "redacted": history != [r.to_dict() for r in final.history],
        "returns": list(final.returns()), "nets": {str(p): n for p, n in sorted(nets.items())},
        "result": result,
        "ledger": list(deal.get("ledger") or ()),
        "lines": game.log_lines(history, final, deal["number"], lambda p: names.get(p, f"seat {p + 1}")),
    }


def text_heading(what: str) -> str:
    """The first line of a text export, a comment naming the version: ``# fourcards <version> -
    <what>``, then a blank line."""
    return f"# fourcards {__version__} - {what}\n\n"


def _signed(chips: int) -> str:
    return f"+{chips:,}" if chips > 0 else f"\u2212{-chips:,}" if chips < 0 else "0"


def hand_text(h: dict[str, Any]) -> str:
    """One exported deal (:func:`hand`) as readable text: a heading (the deal, the game, the
    table, how it ended, when), who played (at Four Card Poker the seats that wagered, not
    every seat the round laid out), the table log's lines and each player's net (and the
    house's at Four Card Poker), ending with a blank line."""
    table = h["table"]
    when = (h.get("ended_at") or h.get("started_at") or "")[:16].replace("T", " ")
    how = "voided" + (f" ({h['void_reason']})" if h.get("void_reason") else "") if h["status"] == "voided" \
        else h["status"]
    out = [f"{h['word']} {h['number']} \u00b7 {table['title']} \u00b7 {table['name']} ({table['id']}) \u00b7 {how}"
           + (f" \u00b7 {when} UTC" if when else "")]

    def label(p: dict[str, Any]) -> str:
        bits = (["bot"] if p["is_bot"] else []) + ([f"seat {p['seat']}"] if "seat" in p else [])
        return p["name"] + (f" ({', '.join(bits)})" if bits else "")

    players = h["players"]
    if table["game"] == "poker":  # a round lays every seat out; only those who wagered played it
        history = h["history"]
        took_part = {r["player"] for r in history if isinstance(r.get("player"), int)} | {
            x["player"] for r in history if r.get("kind") == "deal" for x in r.get("hands") or ()}
        players = [p for p in players if p["player"] in took_part]
    out.append("Players: " + (", ".join(label(p) for p in players) or "nobody"))
    out += h["lines"]
    if h["redacted"]:
        out.append("(Some cards are not shown to you: a folded hand of another player, or the dealer's cards of a "
                   "voided round.)")
    nets = [f"{p['name']} {_signed(h['returns'][p['player']])}" for p in players
            if p["player"] < len(h["returns"])]
    result = "Result: " + (", ".join(nets) if nets else "nobody played")
    if table["game"] == "poker":
        result += f"; the house {_signed(-sum(h['returns']))}"
    out.append(result)
    return "\n".join(out) + "\n\n"


def hand_jsonl(state: TableState, deal: dict[str, Any], seat: Person | None) -> str:
    """One line of JSON Lines: :func:`hand`, or - for a deal that cannot be shown (its history
    removed by retention, or one this version cannot replay) - ``format``, ``table``, ``number``,
    ``status`` and ``error`` (never the unredacted records)."""
    try:
        return json.dumps(hand(state, deal, seat), ensure_ascii=False, separators=(",", ":")) + "\n"
    except TableError as exc:
        error = exc.detail
    return json.dumps({"format": FORMAT, "fourcards_version": __version__,
                       "table": {"id": state.id, "name": state.name, "game": state.game},
                       "number": deal["number"], "status": deal["status"], "error": error},
                      ensure_ascii=False, separators=(",", ":")) + "\n"


def hand_words(state: TableState, deal: dict[str, Any], seat: Person | None) -> str:
    """:func:`hand_text` of :func:`hand`, or one paragraph saying why the deal cannot be shown."""
    try:
        return hand_text(hand(state, deal, seat))
    except TableError as exc:
        return f"{state.table_game.word} {deal['number']}: {exc.detail}\n\n"
