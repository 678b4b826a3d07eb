"""Four Card Poker settlement: one pure function from the rules, the two hands, the
wagers and the decision to each wager's result.

Every settlement in the package comes from :func:`settle`: the round
(:func:`fourcards.poker.results.settle_hand`), the simulator's lookup table
(:func:`fourcards.sim.poker.net_table`) and the exact analysis's outcome rows and
per-hand EVs (:mod:`fourcards.poker.analysis`).

Rules (seed 002 = OPR-803 Articles 3-6; seed 004 "How To Play"; docs/rules.md "Four
Card Poker rulings"):

* **fold**: the ante is lost (seed 002 §3.1(a)).
* **play**: if the player's best four is equal to or better than the dealer's,
  the ante and the play bet each win even money, else both lose (ties go to the
  player; the dealer always qualifies; seed 002 Article 4).
* **ante bonus**: paid on the ante by the ante bonus pay table whenever the
  player plays, whatever the dealer holds (seed 002 Article 5; seed 004). It is a
  wager line of its own: a win even when the ante and the play bet lose. With the
  rule switch ``rules.ante_bonus_requires_play`` off (docs/rules.md FCP-17) a folded
  hand is paid it too (the ante is still lost).
* **Aces Up**: settled on the player's best four alone, on a fold too, with or
  without an ante (seed 002 Article 6; seed 004) - unless the rule switch
  ``rules.aces_up_lost_on_fold`` is on (docs/rules.md FCP-16): then a fold loses it.
* **win cap** (``rules.win_cap``; seed 004: "Any combination of wins in a single
  game will not exceed $8,400.00", "Winnings from side bets are added to the
  total win"): the sum of what the *winning* lines win (every line above 0:
  ante, play bet, ante bonus, Aces Up) is capped; the losing lines are lost in
  full and are not netted against the wins before capping. The chips withheld
  are a line of their own, ``win_cap_adjustment = min(0, win_cap - wins)``.
  Worked example (docs/rules.md FCP-7, ``online``): ante -200, play -600, ante bonus
  +5,000, Aces Up +5,000: wins 10,000 capped at 8,400 (adjustment -1,600), net
  +7,600.

Money is whole chips; a seat's ``net`` is its gain, the house's is minus it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourcards.errors import IllegalActionError
from fourcards.hands import HandValue
from fourcards.poker.rules import PokerRules

__all__ = ["WAGER_LINES", "Settlement", "settle"]

#: The wager lines of a settlement, in the order they are shown.
WAGER_LINES = ("ante", "play", "ante_bonus", "aces_up")


@dataclass(frozen=True)
class Settlement:
    """Each wager's result for one seat, in signed chips (+ won, - lost).

    Attributes:
        decision: ``"fold"``, ``"play"`` or ``"none"`` (no ante: Aces Up only).
        outcome: ``"win"`` (the player's best four >= the dealer's), ``"lose"``,
            ``"fold"`` or ``"none"``.
        ante, play, ante_bonus, aces_up: each wager line's result.
        win_cap_adjustment: chips withheld by the win cap (<= 0; 0 without a cap).
    """

    decision: str
    outcome: str
    ante: int = 0
    play: int = 0
    ante_bonus: int = 0
    aces_up: int = 0
    win_cap_adjustment: int = 0

    @property
    def wagers(self) -> dict[str, int]:
        """``{"ante", "play", "ante_bonus", "aces_up"}`` -> signed chips (:data:`WAGER_LINES` order)."""
        return {k: getattr(self, k) for k in WAGER_LINES}

    @property
    def wins(self) -> int:
        """What the winning lines win together, before the cap: the sum of the lines above 0."""
        return sum(v for v in self.wagers.values() if v > 0)

    @property
    def net(self) -> int:
        """The seat's net result in chips: every line plus :attr:`win_cap_adjustment`."""
        return sum(self.wagers.values()) + self.win_cap_adjustment

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``decision``, ``outcome``, ``wagers`` (line -> signed chips), ``wins``,
        ``win_cap_adjustment`` and ``net`` (chips)."""
        return {"decision": self.decision, "outcome": self.outcome, "wagers": self.wagers, "wins": self.wins,
                "win_cap_adjustment": self.win_cap_adjustment, "net": self.net}


def _chips(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise IllegalActionError(f"the {name} must be a whole number of chips >= 0, got {value!r}")
    return value


def settle(rules: PokerRules, player: HandValue, dealer: HandValue, *, ante: int, play: int | None,
           aces_up: int = 0) -> Settlement:
    """Settle one seat's wagers (see the module doc for the rules and their sources).

    Args:
        rules: pay tables and win cap.
        player: the value of the player's best four of five; dealer: of the
            dealer's best four of six.
        ante, aces_up: the wagers in chips (>= 0).
        play: the play bet in chips, or ``None`` for a fold; ignored when
            ``ante`` is 0 (an Aces Up bet alone makes no decision). Whether the
            amount is legal is the round's business (:meth:`PokerRules.play_amounts`).

    Returns:
        the :class:`Settlement`; its ``net`` is the seat's gain in chips.

    Raises:
        IllegalActionError: a wager that is not a whole number of chips >= 0.
    """
    ante, aces_up = _chips("ante", ante), _chips("Aces Up bet", aces_up)
    lines = dict.fromkeys(WAGER_LINES, 0)
    if ante == 0:
        decision = outcome = "none"
    elif play is None:
        decision = outcome = "fold"
        lines["ante"] = -ante
        if not rules.ante_bonus_requires_play:  # FCP-17 switched off: the bonus on a fold too
            lines["ante_bonus"] = ante * rules.ante_bonus.pays(player)
    else:
        play = _chips("play bet", play)
        decision = "play"
        outcome = "win" if player >= dealer else "lose"
        sign = 1 if outcome == "win" else -1
        lines["ante"], lines["play"] = sign * ante, sign * play
        lines["ante_bonus"] = ante * rules.ante_bonus.pays(player)
    if aces_up:
        pays = None if decision == "fold" and rules.aces_up_lost_on_fold else rules.aces_up.pays(player)
        lines["aces_up"] = -aces_up if pays is None else aces_up * pays
    wins = sum(v for v in lines.values() if v > 0)
    cap = rules.win_cap
    adjustment = cap - wins if cap is not None and wins > cap else 0
    return Settlement(decision, outcome, lines["ante"], lines["play"], lines["ante_bonus"], lines["aces_up"],
                      adjustment)
