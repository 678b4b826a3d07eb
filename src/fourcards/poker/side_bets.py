"""Four Card Poker side bets beyond Aces Up: a pay table on the player's final hand, the dealer's,
or both (docs/rules.md FCP-18; issue 31).

A :class:`SideBet` pays "N to 1" by the category of one hand - its :attr:`SideBet.hand`:

* ``"player"``: the player's best four of five (the Aces Up is such a bet);
* ``"dealer"``: the dealer's best four of six;
* ``"both"``: the lower of the two (the bet pays when *both* hands hold the hand or better, on the
  worse of them: the losing hand, e.g. a bad-beat bet that pays when a strong hand loses to a
  stronger one, whichever side loses);

optionally only when the player's hand wins or ties (``"player_wins"``; ties go to the player,
FCP-4) or loses (``"player_loses"``) against the dealer's (:attr:`SideBet.when`). A hand that
matches no line of the pay table loses the bet. It is settled on the two final hands whatever
the player decides (a dealer's hand is always completed).

Pay keys are the hand categories (``four_of_a_kind`` .. ``high_card``; short forms 4K, SF, 3K, F,
S, 2P, P, HC) and ``pair_of_aces`` (AA), which pays a pair of aces; with it, ``pair`` pays the
other pairs. :func:`parse_side_bet` reads ``"both:4K=25000,SF=10000,3K=100,F=25,S=15,2P=4"`` or a
name of :data:`SIDE_BETS`; its exact analysis is :mod:`fourcards.poker.exact.side_bets`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fourcards.cards import Rank
from fourcards.errors import RulesError
from fourcards.hands import HandCategory, HandValue
from fourcards.poker.rules import MAX_PAY

__all__ = ["SideBet", "SIDE_BETS", "HANDS", "WHEN", "PAY_KEYS", "parse_side_bet"]

#: Whose hand a side bet is paid on.
HANDS = ("player", "dealer", "both")
#: When a side bet is settled on its pay table (otherwise it loses).
WHEN = ("any", "player_wins", "player_loses")
#: Pay keys, best first, and their short forms.
PAY_KEYS = {"four_of_a_kind": "4K", "straight_flush": "SF", "three_of_a_kind": "3K", "flush": "F",
            "straight": "S", "two_pair": "2P", "pair_of_aces": "AA", "pair": "P", "high_card": "HC"}
_BY_SHORT = {v.lower(): k for k, v in PAY_KEYS.items()}
_ITEM = re.compile(r"^\s*([A-Za-z0-9_]{1,20})\s*=\s*([0-9]{1,7})\s*$", re.ASCII)
_HAND_WORDS = {"player": "the player's hand", "dealer": "the dealer's hand",
               "both": "the lower of the two hands"}
_WHEN_WORDS = {"any": "", "player_wins": ", when the player wins or ties", "player_loses": ", when the player loses"}


@dataclass(frozen=True)
class SideBet:
    """A side bet's pay table on the player's, the dealer's or the lower of both final hands (module
    doc). ``pays``: key -> "N to 1" (whole numbers 0..1,000,000), best first.

    Raises:
        RulesError: an unknown hand, condition or key, a pay out of range, an empty table, or
            ``pair_of_aces`` where a pair's rank is not counted (``both``, or the dealer's hand with
            a condition).
    """

    name: str
    hand: str
    pays: tuple[tuple[str, int], ...]
    when: str = "any"

    def __post_init__(self) -> None:
        if self.hand not in HANDS:
            raise RulesError(f"a side bet is paid on {', '.join(HANDS)}; got {self.hand!r}")
        if self.when not in WHEN:
            raise RulesError(f"a side bet's condition is one of {', '.join(WHEN)}; got {self.when!r}")
        if not self.pays:
            raise RulesError("a side bet needs at least one pay (e.g. 3K=100)")
        seen = set()
        for key, pay in self.pays:
            if key not in PAY_KEYS:
                raise RulesError(f"unknown side bet pay {key!r}: use {', '.join(PAY_KEYS.values())}")
            if key in seen:
                raise RulesError(f"side bet pay {PAY_KEYS[key]} given twice")
            seen.add(key)
            if isinstance(pay, bool) or not isinstance(pay, int) or not 0 <= pay <= MAX_PAY:
                raise RulesError(f"side bet pay {PAY_KEYS[key]} must be a whole number 0..{MAX_PAY:,}, got {pay!r}")
        if "pair_of_aces" in seen and (self.hand == "both" or (self.hand == "dealer" and self.when != "any")):
            raise RulesError("a pair of aces (AA) can be paid on the player's hand, or on the dealer's without a "
                             "condition; on the lower of both hands pay a pair (P)")

    @property
    def table(self) -> dict[str, int]:
        """The pays as a dict, best first."""
        return dict(self.pays)

    def describe(self) -> str:
        """The bet in words, e.g. ``"pays on the lower of the two hands: 4K 25000, SF 10000, ..."``."""
        return (f"pays on {_HAND_WORDS[self.hand]}{_WHEN_WORDS[self.when]}: "
                + ", ".join(f"{PAY_KEYS[k]} {v:,} to 1" for k, v in self.pays) + "; anything else loses")

    def key_of(self, hand: HandValue) -> str:
        """The pay key a hand value falls under (``pair_of_aces`` only if this table pays it)."""
        cat = hand.category
        if cat is HandCategory.PAIR and "pair_of_aces" in self.table and hand.ranks[0] is Rank.ACE:
            return "pair_of_aces"
        return cat.key

    def settle(self, player: HandValue, dealer: HandValue) -> int | None:
        """The multiple of the bet won ("N to 1") with these final hands, or None when it loses
        (ties go to the player: FCP-4)."""
        wins = player >= dealer
        if (self.when == "player_wins" and not wins) or (self.when == "player_loses" and wins):
            return None
        if self.hand == "player":
            hand = player
        elif self.hand == "dealer":
            hand = dealer
        else:
            hand = min(player, dealer)
        return self.table.get(self.key_of(hand))

    def spec(self) -> str:
        """The bet as :func:`parse_side_bet` reads it: ``"both:4K=25000,..."``."""
        head = self.hand if self.when == "any" else f"{self.hand},{self.when.replace('_', '-')}"
        return head + ":" + ",".join(f"{PAY_KEYS[k]}={v}" for k, v in self.pays)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``name``, ``hand``, ``when``, ``pays`` (key -> "N to 1"), ``spec`` and ``description``."""
        return {"name": self.name, "hand": self.hand, "when": self.when, "pays": self.table, "spec": self.spec(),
                "description": self.describe()}


#: Published side bets by name (docs/analysis.md "Side bets", with their sources).
SIDE_BETS: dict[str, SideBet] = {
    # Four Card Poker's Bad Beat Bonus: pays on the losing hand, two pair or better, whoever holds it
    "bad-beat": SideBet("bad-beat", "both", (("four_of_a_kind", 25_000), ("straight_flush", 10_000),
                                             ("three_of_a_kind", 100), ("flush", 25), ("straight", 15),
                                             ("two_pair", 4))),
}


def parse_side_bet(text: str) -> SideBet:
    """A side bet by name (:data:`SIDE_BETS`) or as ``HAND[,WHEN]:KEY=N,...``: HAND ``player``,
    ``dealer`` or ``both``; WHEN ``player-wins`` or ``player-loses``; KEY a category (4K, SF, 3K, F,
    S, 2P, AA, P, HC, or the full names), N "to 1". E.g. ``"both:4K=25000,SF=10000,3K=100"``,
    ``"player,player-loses:3K=50,F=10"``.

    Raises:
        RulesError: malformed text (naming the problem), or an invalid bet (:class:`SideBet`).
    """
    raw = text.strip()
    if raw in SIDE_BETS:
        return SIDE_BETS[raw]
    shown = raw if len(raw) <= 60 else raw[:57] + "..."
    if ":" not in raw:
        raise RulesError(f"malformed side bet {shown!r}: give a name ({', '.join(SIDE_BETS)}) or "
                         "HAND[,WHEN]:KEY=N,... e.g. both:4K=25000,3K=100")
    head, _, body = raw.partition(":")
    parts = [p.strip().lower() for p in head.split(",")]
    if len(parts) > 2 or not parts[0]:
        raise RulesError(f"malformed side bet {shown!r}: HAND[,WHEN] before the ':'")
    when = parts[1].replace("-", "_") if len(parts) == 2 else "any"
    pays: list[tuple[str, int]] = []
    for item in body.split(","):
        m = _ITEM.match(item)
        if m is None:
            raise RulesError(f"malformed side bet {shown!r}: each pay is KEY=N (e.g. 3K=100)")
        key = m.group(1).lower()
        key = _BY_SHORT.get(key, key)
        pays.append((key, int(m.group(2))))
    order = list(PAY_KEYS)
    pays.sort(key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))
    return SideBet("custom", parts[0], tuple(pays), when)
