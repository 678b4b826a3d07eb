"""A club's standings across nights: its tables' results added up per person, matched by name.

A club (docs/web.md "Clubs across nights") is a name, an invitation link, members by name and
an owner; every table that counts for it is a *night*. People are matched across nights by
their name casefolded (:func:`name_key`: "Ann", "ann" and "ANN" are one member; names are
stored tidied, :func:`fourcards.inputs.clean_name`). Bots are not members: what they win or
lose is the bank's (:mod:`fourcards.table.settleup`), shown with each night.

Per member: ``nights`` (club tables they sat at), ``net`` (chips won or lost over them: the
ledger's game entries of finished deals - buy-ins, top-ups and cash-outs are not wins);
Four of a Kind's ``deals`` (settled deals they were dealt into) and the halves they took -
``high`` and ``low`` (one per pot half awarded, side pots included) and ``whole`` (a pot
taken whole: everyone else folded, or one eligible player; docs/rules.md FOAK-7 to FOAK-9);
Four Card Poker's ``rounds`` (settled rounds they had a wager in) and its net; and the night in
numbers added up (issue 29: :mod:`fourcards.table.numbers`, kept with each deal's result) -
``played``, ``won``, ``folds``, ``biggest_pot`` and ``luck`` (chips), overall and per game (deals
settled before these numbers were kept count for none of them). A voided deal counts for nothing
(its chips all went back). Pure functions of what the store reads
(:meth:`fourcards.store.clubs.ClubStore.nights`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["name_key", "deal_counts", "standings"]


def name_key(name: str) -> str:
    """The key matching a member's name across tables: the name casefolded."""
    return name.casefold()


def deal_counts(game: str, deal: Mapping[str, Any]) -> dict[int, dict[str, int]]:
    """What one settled deal counts for each player id: Four of a Kind ``deals`` 1 for each
    player dealt in and ``high``/``low``/``whole`` for each pot share awarded; Four Card
    Poker ``rounds`` 1 for each seat with a wager. Voided or unfinished deals: nothing."""
    out: dict[int, dict[str, int]] = {}
    if deal.get("status") != "settled":
        return out
    result = deal.get("result") or {}
    if game == "kind":
        seats = {str(k): int(v) for k, v in (deal.get("seats") or {}).items()}
        for pid in seats.values():
            out.setdefault(pid, {})["deals"] = 1
        for award in result.get("awards") or ():
            winner = seats.get(str(award.get("seat")))
            share = award.get("share")
            if winner is not None and share in ("high", "low", "whole"):
                counts = out.setdefault(winner, {})
                counts[share] = counts.get(share, 0) + 1
    elif game == "poker":
        for entry in (result.get("seats") or {}).values():
            pid = entry.get("player_id")
            if pid is not None:
                out.setdefault(int(pid), {})["rounds"] = 1
    return out


def _numbers() -> dict[str, Any]:
    return {"played": 0, "won": 0, "folds": 0, "biggest_pot": 0, "luck": 0.0}


def _blank() -> dict[str, Any]:
    return {"name": "", "listed": False, "nights": 0, "net": 0,
            "kind": {"nights": 0, "deals": 0, "high": 0, "low": 0, "whole": 0, "net": 0, **_numbers()},
            "poker": {"nights": 0, "rounds": 0, "net": 0, **_numbers()}, **_numbers()}


def _add_numbers(into: dict[str, Any], deal: Mapping[str, Any]) -> None:
    for k in ("played", "won", "folds"):
        into[k] += int(deal.get(k, 0))
    into["biggest_pot"] = max(into["biggest_pot"], int(deal.get("pot", 0)))
    into["luck"] = round(into["luck"] + float(deal.get("luck", 0)), 2)


def standings(nights: Sequence[Mapping[str, Any]], listed: Iterable[str] = ()) -> dict[str, Any]:
    """A club's standings and each night's results.

    Args:
        nights: the club's tables, oldest first, as the store reads them: ``table``
            (``id``, ``name``, ``game``, ``status``, ``created_at``), ``people``
            (``player_id``, ``name``, ``is_bot``), ``nets`` (``{player_id: chips}`` over
            finished deals), ``house`` (chips, Four Card Poker) and ``deals`` (``status``,
            ``seats``, ``result`` of each finished deal).
        listed: the names the owner listed as members.

    Returns:
        ``standings``: one row per member who sat at a night or was listed - ``name``,
        ``listed``, ``nights``, ``net`` (chips), ``played``, ``won``, ``folds``,
        ``biggest_pot``, ``luck`` (chips), ``kind`` (``nights``, ``deals``, ``high``,
        ``low``, ``whole``, ``net`` and the numbers) and ``poker`` (``nights``, ``rounds``,
        ``net`` and the numbers) - by net
        (highest first), then nights, then name; ``nights``: per night ``table``, ``name``,
        ``game``, ``status``, ``created_at``, ``deals`` (settled), ``people`` (``name``,
        ``net``, best first) and ``bank`` (the bots' nets and the house's: ``net``,
        ``bots``), with the people's nets plus the bank's adding up to zero.
    """
    rows: dict[str, dict[str, Any]] = {}
    for name in listed:
        row = rows.setdefault(name_key(name), _blank())
        row["name"], row["listed"] = name, True
    out_nights = []
    for night in nights:
        table = night["table"]
        game = table["game"]
        nets = {int(k): int(v) for k, v in (night.get("nets") or {}).items()}
        counts: dict[int, dict[str, int]] = {}
        numbers: dict[int, list[Mapping[str, Any]]] = {}
        finished = 0
        for deal in night.get("deals") or ():
            finished += deal.get("status") == "settled"
            for pid, c in deal_counts(game, deal).items():
                mine = counts.setdefault(pid, {})
                for k, v in c.items():
                    mine[k] = mine.get(k, 0) + v
            if deal.get("status") == "settled":
                for pid, n in ((deal.get("result") or {}).get("numbers") or {}).items():
                    numbers.setdefault(int(pid), []).append(n)
        people, bots = [], []
        for p in night.get("people") or ():
            pid, net = int(p["player_id"]), nets.get(int(p["player_id"]), 0)
            if p.get("is_bot"):
                bots.append({"name": p["name"], "net": net})
                continue
            people.append({"name": p["name"], "net": net})
            row = rows.setdefault(name_key(p["name"]), _blank())
            if not row["listed"]:
                row["name"] = p["name"]  # the latest spelling
            c = counts.get(pid, {})
            row["nights"] += 1
            row["net"] += net
            part = row[game] if game in ("kind", "poker") else None
            if part is not None:
                part["nights"] += 1
                part["net"] += net
                for k in ("deals", "high", "low", "whole", "rounds"):
                    if k in part:
                        part[k] += c.get(k, 0)
            for n in numbers.get(pid, ()):
                _add_numbers(row, n)
                if part is not None:
                    _add_numbers(part, n)
        house = int(night.get("house") or 0) if game == "poker" else None
        out_nights.append({
            "table": table["id"], "name": table["name"], "game": game, "status": table.get("status"),
            "created_at": table.get("created_at"), "deals": finished,
            "people": sorted(people, key=lambda x: (-x["net"], name_key(x["name"]))),
            "bank": {"net": sum(b["net"] for b in bots) + (house or 0), "bots": bots, "house": house}})
    ordered = sorted(rows.values(), key=lambda r: (r["nights"] == 0, -r["net"], -r["nights"], name_key(r["name"])))
    return {"standings": ordered, "nights": out_nights}
