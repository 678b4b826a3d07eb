"""The identity block of a par sheet (issue 31, item 2): what the figures are of, who made them and
when, and a content hash of the figures - the same block in every export (JSON ``identity``, CSV
``identity.csv``, the workbook's first sheet, the PDF's first page).

Rendering only: built from the par sheet's JSON form (:meth:`~fourcards.poker.analysis.ParSheet.to_dict`).
The content hash is the SHA-256 of that JSON without ``identity`` and ``computation`` (timings),
keys sorted, no spaces: two runs on the same rules, strategy and side bets give the same hash
whatever the day, and any figure that changes changes it. The date is today's (UTC), or
``SOURCE_DATE_EPOCH``'s when set (reproducible builds).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
from typing import Any

__all__ = ["GAME", "SOFTWARE", "content_hash", "identity", "identity_rows", "today"]

GAME = "Four Card Poker"
SOFTWARE = "fourcards"
_NOT_HASHED = ("identity", "computation")


def content_hash(d: dict[str, Any]) -> str:
    """``"sha256:<hex>"`` of the par sheet's JSON form without its identity and timings (module doc)."""
    figures = {k: v for k, v in d.items() if k not in _NOT_HASHED}
    text = json.dumps(figures, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def today() -> str:
    """Today's date (UTC) as ``YYYY-MM-DD``, or ``SOURCE_DATE_EPOCH``'s when that is set to seconds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isascii() and epoch.isdigit() and len(epoch) <= 12:
        return _dt.datetime.fromtimestamp(int(epoch), _dt.UTC).date().isoformat()
    return _dt.datetime.now(_dt.UTC).date().isoformat()


def _play_bets(r: dict[str, Any]) -> str:
    if r["play_any_amount"]:
        return f"any whole amount from {r['min_play_multiple']}x to {r['max_play_multiple']}x the ante"
    return " or ".join(f"{m}x" for m in r["play_multiples"]) + " the ante"


def identity(d: dict[str, Any]) -> dict[str, Any]:
    """The identity block of a par sheet's JSON form ``d``: ``game``, ``rules`` (the preset),
    ``pay_tables`` (``ante_bonus``, ``aces_up``, and each side bet's), ``play_bet``, ``rule_switches``
    (in words), ``win_cap`` (chips or null), ``strategy`` (the one the return assumes) and
    ``strategy_chart`` (the chart's name, shown on a sheet of its own; null for a policy),
    ``software``, ``version`` (:data:`fourcards.__version__`), ``date`` and ``content_hash``."""
    from fourcards import __version__

    r = d["rules"]
    switches = [("Aces Up lost on a fold" if r.get("aces_up_lost_on_fold") else "Aces Up settled on the hand on a fold"),
                ("ante bonus only with a play bet" if r.get("ante_bonus_requires_play", True)
                 else "ante bonus paid on a fold too")]
    chart = d.get("strategy_chart")
    return {
        "game": GAME,
        "rules": r["name"],
        "pay_tables": {"ante_bonus": r["ante_bonus"], "aces_up": r["aces_up"],
                       **{f"side_bet {b['bet']['name']}": b["bet"]["spec"] for b in d.get("side_bets", [])}},
        "play_bet": _play_bets(r),
        "rule_switches": switches,
        "win_cap": r.get("win_cap"),
        "strategy": d["strategy"],
        "strategy_chart": None if chart is None else chart["name"],
        "software": SOFTWARE,
        "version": __version__,
        "date": today(),
        "content_hash": content_hash(d),
    }


def identity_rows(ident: dict[str, Any]) -> list[tuple[str, str]]:
    """The identity block as ``(label, text)`` rows, in order (for CSV, the workbook and the PDF)."""
    rows = [("game", ident["game"]), ("rules preset", ident["rules"])]
    rows += [(f"pay table: {k.replace('_', ' ')}", v) for k, v in ident["pay_tables"].items()]
    rows += [("play bet", ident["play_bet"]), ("rule switches", "; ".join(ident["rule_switches"])),
             ("win cap", "none" if ident["win_cap"] is None else f"{ident['win_cap']:,} chips a round"),
             ("strategy assumed", ident["strategy"]),
             ("strategy chart", "none (a policy)" if ident["strategy_chart"] is None else ident["strategy_chart"]),
             ("software", f"{ident['software']} {ident['version']}"), ("date", ident["date"]),
             ("content hash (SHA-256 of the figures)", ident["content_hash"])]
    return rows
