"""How the table writes cards in its log and messages."""

from __future__ import annotations

from typing import Any

from fourcards.cards import parse_card

__all__ = ["pretty"]


def pretty(card: Any) -> str:
    """A card as the table page writes it: rank and suit symbol, a ten as "10" ("10\u2665")."""
    text = parse_card(str(card)).pretty
    return "10" + text[1:] if text.startswith("T") else text
