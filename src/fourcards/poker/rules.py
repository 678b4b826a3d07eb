"""Four Card Poker rules: pay tables and the rules of a round, with named presets.

Sources: seed 002 (OPR-803, live table rules: play bet 1x-3x the ante, ante
bonus 25/20/2, Aces Up 50/40/8/5/4/3/1) and seed 004 (an online version: play
bet exactly 1x or 3x, Aces Up 50/30/7/6/5/2/1, Aces Up only with an ante, a
win cap of 8,400 per game). Other published tables are named in docs/rules.md FCP-12
("Four Card Poker rulings"). Every pay is "N to 1" on the wager, in whole
multiples; amounts are whole chips.

Presets: :data:`PRESETS` (``"live"``, ``"online"``); pay tables by name in
:data:`ANTE_BONUS_TABLES` and :data:`ACES_UP_TABLES`; any custom table parses
from ``"50/40/8/5/4/3/1"`` (:func:`parse_aces_up`, :func:`parse_ante_bonus`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from fourcards.cards import Rank
from fourcards.errors import RulesError
from fourcards.hands import HandCategory, HandValue

__all__ = [
    "AnteBonusTable",
    "AcesUpTable",
    "PokerRules",
    "ANTE_BONUS_TABLES",
    "ACES_UP_TABLES",
    "PRESETS",
    "get_rules",
    "as_rules",
    "parse_ante_bonus",
    "parse_aces_up",
    "MAX_PAY",
]

#: The largest pay in any pay table, "N to 1": a million to one. Published tables
#: pay at most 50 to 1; the bound keeps every settlement exact in the 64-bit
#: simulation kernels and storable in the ledger (issue 9, item 6).
MAX_PAY = 1_000_000


def _check_pays(name: str, pays: dict[str, int]) -> None:
    for key, value in pays.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{name}: pay for {key} must be a whole number, got {value!r}")
        if value < 0:
            raise RulesError(f"{name}: pay for {key} must not be negative, got {value}")
        if value > MAX_PAY:
            raise RulesError(f"{name}: pay for {key} must be at most {MAX_PAY:,} to 1, got {value}")


@dataclass(frozen=True)
class AnteBonusTable:
    """Ante bonus pays, "N to 1" on the ante (seed 002 Article 5; seed 004 "Ante Bonus").

    Paid only when the player makes a play bet, whatever the dealer holds.
    The default is the common 25/20/2.

    Raises:
        RulesError: a negative or non-integer pay.
    """

    four_of_a_kind: int = 25
    straight_flush: int = 20
    three_of_a_kind: int = 2

    def __post_init__(self) -> None:
        _check_pays("ante bonus", self.as_dict())

    def as_dict(self) -> dict[str, int]:
        """Pays "N to 1" on the ante by hand key, best first: ``four_of_a_kind``, ``straight_flush``,
        ``three_of_a_kind`` (seed 002 Article 5).
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def pays(self, hand: HandValue) -> int:
        """Multiple of the ante paid for ``hand`` (0 if the hand does not qualify)."""
        return self.as_dict().get(hand.category.key, 0)

    def pays_by_category(self) -> list[int]:
        """Pay (to 1) per :class:`HandCategory` value 0..7, for vectorised code."""
        d = self.as_dict()
        return [d.get(HandCategory(c).key, 0) for c in range(8)]

    def __str__(self) -> str:
        return "/".join(str(v) for v in self.as_dict().values())


@dataclass(frozen=True)
class AcesUpTable:
    """Aces Up side bet pays, "N to 1" on the bet (seed 002 Article 6).

    Settled on the player's best four of five alone; the dealer's hand is
    irrelevant, and it is settled on a fold too (seed 004: "evaluated regardless
    of if the Player makes a Play bet or chooses to Fold"). Wins on a pair of
    aces or better; ``pair_of_aces`` pays any pair of aces (a lower pair loses).
    Default 50/40/8/5/4/3/1 (seed 002).

    Raises:
        RulesError: a negative or non-integer pay.
    """

    four_of_a_kind: int = 50
    straight_flush: int = 40
    three_of_a_kind: int = 8
    flush: int = 5
    straight: int = 4
    two_pair: int = 3
    pair_of_aces: int = 1

    def __post_init__(self) -> None:
        _check_pays("Aces Up", self.as_dict())

    def as_dict(self) -> dict[str, int]:
        """Pays "N to 1" on the Aces Up bet by hand key, best first: ``four_of_a_kind`` .. ``two_pair``,
        ``pair_of_aces`` (seed 002 Article 6).
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def pays(self, hand: HandValue) -> int | None:
        """Multiple of the bet won for ``hand``, or ``None`` if the bet loses."""
        cat = hand.category
        if cat is HandCategory.PAIR:
            return self.pair_of_aces if hand.ranks[0] is Rank.ACE else None
        if cat is HandCategory.HIGH_CARD:
            return None
        return self.as_dict()[cat.key]

    def __str__(self) -> str:
        return "/".join(str(v) for v in self.as_dict().values())


_PAY = re.compile(r"-?[0-9]+", re.ASCII)


def _parse_table(text: str, n: int, what: str) -> list[int]:
    if not text.strip():
        raise RulesError(f"the {what} table is empty: give {n} whole numbers separated by '/' "
                         f"or a preset name ({', '.join(PRESETS)})")
    shown = text if len(text) <= 60 else text[:57] + "..."
    parts = [p.strip() for p in text.replace(",", "/").split("/")]
    if len(parts) != n or not all(parts):
        raise RulesError(f"malformed {what} table {shown!r}: expected {n} whole numbers separated by '/'")
    if not all(_PAY.fullmatch(p) for p in parts):
        raise RulesError(f"malformed {what} table {shown!r}: expected whole numbers (digits 0-9)")
    digits = len(str(MAX_PAY))
    for p in parts:  # before int(): a pay of thousands of digits is refused, not converted
        if len(p.lstrip("-0")) > digits:
            raise RulesError(f"{what}: every pay must be at most {MAX_PAY:,} to 1, got {p[:20]}"
                             + ("..." if len(p) > 20 else ""))
    return [int(p) for p in parts]


ANTE_BONUS_TABLES: dict[str, AnteBonusTable] = {
    "25/20/2": AnteBonusTable(25, 20, 2),
    "30/15/2": AnteBonusTable(30, 15, 2),
}

ACES_UP_TABLES: dict[str, AcesUpTable] = {
    t: AcesUpTable(*map(int, t.split("/")))
    for t in (
        "50/40/8/5/4/3/1",  # seed 002, the most common
        "50/30/7/6/5/2/1",  # seed 004
        "50/40/8/6/4/2/1",
        "50/40/9/6/4/2/1",
        "50/40/7/6/5/2/1",
        "50/30/9/6/4/2/1",
        "50/40/7/5/4/3/1",
    )
}


def parse_ante_bonus(text: str) -> AnteBonusTable:
    """An ante bonus table by name/preset (``"live"``) or as ``"25/20/2"`` (quads/SF/trips).

    Each pay is a whole number 0..:data:`MAX_PAY` ("N to 1").

    Raises:
        RulesError: empty text, unknown preset, malformed table, or a pay
            beyond :data:`MAX_PAY`.
    """
    if text in PRESETS:
        return PRESETS[text].ante_bonus
    return AnteBonusTable(*_parse_table(text, 3, "ante bonus"))


def parse_aces_up(text: str) -> AcesUpTable:
    """An Aces Up table by preset (``"online"``) or as ``"50/40/8/5/4/3/1"``.

    Order: four of a kind / straight flush / three of a kind / flush / straight /
    two pair / pair of aces. Each pay is a whole number 0..:data:`MAX_PAY`.

    Raises:
        RulesError: empty text, unknown preset, malformed table, or a pay
            beyond :data:`MAX_PAY`.
    """
    if text in PRESETS:
        return PRESETS[text].aces_up
    return AcesUpTable(*_parse_table(text, 7, "Aces Up"))


@dataclass(frozen=True)
class PokerRules:
    """The rules of a Four Card Poker round.

    Attributes:
        name: preset name or ``"custom"``.
        ante_bonus: ante bonus pay table.
        aces_up: Aces Up pay table.
        play_multiples: allowed play bets as multiples of the ante when
            ``play_any_amount`` is False (seed 004: exactly 1x or 3x).
        play_any_amount: if True, the play bet may be any whole amount from
            ``min_play_multiple`` x ante to ``max_play_multiple`` x ante
            (seed 002 §3.1(b): "at least one and at most three times the ante").
        min_play_multiple, max_play_multiple: bounds of the play bet (1 and 3).
        aces_up_requires_ante: seed 004 "can only be placed after making an Ante
            bet"; seed 002 allows the Aces Up alone ("the ante, the optional Aces
            Up side bet, or both").
        aces_up_lost_on_fold: a rule switch (docs/rules.md FCP-16): the Aces Up bet is
            lost when the player folds, whatever the hand (an Atlantic City rule). Off in
            both presets: seed 004 settles it "regardless of if the Player makes a Play
            bet or chooses to Fold" (FCP-6).
        ante_bonus_requires_play: a rule switch (docs/rules.md FCP-17): the ante bonus
            is paid only when the player makes a play bet (seed 004: "and a Play bet has
            been made"; FCP-5). On in both presets; off, a folded hand is paid its ante
            bonus too (its ante is still lost).
        win_cap: most a seat's winning wagers can win together in one round, in chips
            (seed 004: 8,400), or None; losing wagers are not netted first
            (:mod:`fourcards.poker.settlement`).
        min_ante, max_ante: table limits on the ante, in chips.
        min_aces_up, max_aces_up: table limits on the Aces Up bet, in chips.
        max_seats: seats per round (1..9: 9 x 5 + 6 = 51 cards).

    Raises:
        RulesError: on any inconsistent setting (negative pays, play multiples
            outside 1-3, limits out of order, seats outside 1-9...).
    """

    name: str = "live"
    ante_bonus: AnteBonusTable = field(default_factory=AnteBonusTable)
    aces_up: AcesUpTable = field(default_factory=AcesUpTable)
    play_any_amount: bool = True
    play_multiples: tuple[int, ...] = (1, 2, 3)
    min_play_multiple: int = 1
    max_play_multiple: int = 3
    aces_up_requires_ante: bool = False
    aces_up_lost_on_fold: bool = False
    ante_bonus_requires_play: bool = True
    win_cap: int | None = None
    min_ante: int = 1
    max_ante: int = 1000
    min_aces_up: int = 1
    max_aces_up: int = 1000
    max_seats: int = 9

    def __post_init__(self) -> None:
        if not 1 <= self.min_play_multiple <= self.max_play_multiple <= 3:
            raise RulesError(
                f"play multiples must satisfy 1 <= min <= max <= 3, got "
                f"{self.min_play_multiple}..{self.max_play_multiple}"
            )
        if not self.play_multiples:
            raise RulesError("play_multiples must not be empty")
        for m in self.play_multiples:
            if not isinstance(m, int) or not self.min_play_multiple <= m <= self.max_play_multiple:
                raise RulesError(f"play multiple {m!r} is outside 1x-3x the ante")
        if tuple(sorted(set(self.play_multiples))) != tuple(self.play_multiples):
            raise RulesError("play_multiples must be distinct and increasing")
        if not 1 <= self.min_ante <= self.max_ante:
            raise RulesError(f"ante limits must satisfy 1 <= min <= max, got {self.min_ante}..{self.max_ante}")
        if not 1 <= self.min_aces_up <= self.max_aces_up:
            raise RulesError(
                f"Aces Up limits must satisfy 1 <= min <= max, got {self.min_aces_up}..{self.max_aces_up}"
            )
        if self.win_cap is not None and self.win_cap < 1:
            raise RulesError(f"win cap must be a positive number of chips, got {self.win_cap}")
        if not 1 <= self.max_seats <= 9:
            raise RulesError(f"seats per round must be 1..9, got {self.max_seats}")
        for switch in ("aces_up_lost_on_fold", "ante_bonus_requires_play"):
            if not isinstance(getattr(self, switch), bool):
                raise RulesError(f"{switch} must be true or false, got {getattr(self, switch)!r}")

    def play_amounts(self, ante: int) -> Sequence[int]:
        """The legal play bets, in chips, on an ante of ``ante`` chips, increasing.

        The one place that decides them: the round, the strategies, the exact
        analysis, the simulator and the web app all ask here. Seed 002 §3.1(b):
        any whole amount from ``min_play_multiple`` x to ``max_play_multiple`` x
        the ante (a ``range``); seed 004: exactly the :attr:`play_multiples`
        (1x or 3x; a tuple).
        """
        if self.play_any_amount:
            return range(self.min_play_multiple * ante, self.max_play_multiple * ante + 1)
        return tuple(m * ante for m in self.play_multiples)

    @property
    def largest_play_multiple(self) -> int:
        """The largest play bet as a multiple of the ante (3 in both presets)."""
        return max(self.play_amounts(1))

    @property
    def largest_stake(self) -> int:
        """The most chips one seat can put on the layout in one round, within the table
        limits: the largest ante, the largest play bet on it, the largest Aces Up bet."""
        return self.max_ante * (1 + self.largest_play_multiple) + self.max_aces_up

    @property
    def largest_win(self) -> int:
        """The most chips one seat can win in one round, within the table limits: the
        ante and the largest play bet won even money (seed 002 Article 4), the best ante
        bonus on the largest ante (Article 5) and the best Aces Up pay on the largest
        Aces Up bet (Article 6) - at most :attr:`win_cap` (seed 004)."""
        wins = (self.max_ante * (1 + self.largest_play_multiple + max(self.ante_bonus.as_dict().values()))
                + self.max_aces_up * max(self.aces_up.as_dict().values()))
        return wins if self.win_cap is None else min(wins, self.win_cap)

    @property
    def decision_multiples(self) -> tuple[int, ...]:
        """Play multiples a strategy chooses among: the legal play bets on an ante of 1
        (:meth:`play_amounts`) - all whole multiples 1..3 when any amount is allowed
        (the EV is linear in the play bet, so only 1x and 3x are ever strictly
        optimal), else :attr:`play_multiples`."""
        return tuple(self.play_amounts(1))

    def play_amount_allowed(self, ante: int, amount: int) -> bool:
        """Whether ``amount`` chips is a legal play bet on an ante of ``ante`` chips (:meth:`play_amounts`):
        a whole number in the range, in constant time (``x in range`` scans the range for
        anything but an ``int``)."""
        if not isinstance(amount, int) or isinstance(amount, bool):
            return False
        return amount in self.play_amounts(ante)

    def describe_play_bets(self, ante: int | None = None) -> str:
        """Human text of the legal play bets (:meth:`play_amounts`), e.g. ``"any whole amount from 1x to
        3x the ante"``, ``"any whole amount from 10 to 30"``, ``"1x or 3x the ante"`` or ``"10 or 30"``."""
        amounts = self.play_amounts(1 if ante is None else ante)
        unit, tail = ("x", " the ante") if ante is None else ("", "")
        if self.play_any_amount:
            return f"any whole amount from {amounts[0]}{unit} to {amounts[-1]}{unit}{tail}"
        return " or ".join(f"{a}{unit}" for a in amounts) + tail

    def describe_switches(self) -> list[str]:
        """The rule switches in words (docs/rules.md FCP-16, FCP-17), e.g. ``["Aces Up settled on the
        hand on a fold", "ante bonus only with a play bet"]``."""
        return [("Aces Up lost on a fold" if self.aces_up_lost_on_fold else "Aces Up settled on the hand on a fold"),
                ("ante bonus only with a play bet" if self.ante_bonus_requires_play
                 else "ante bonus paid on a fold too")]

    def with_switches(self, aces_up_lost_on_fold: bool | None = None,
                      ante_bonus_requires_play: bool | None = None) -> PokerRules:
        """A copy with the rule switches set (None keeps one); the name is kept (the switches are
        fields of their own in :meth:`to_dict`)."""
        return replace(self,
                       aces_up_lost_on_fold=(self.aces_up_lost_on_fold if aces_up_lost_on_fold is None
                                             else aces_up_lost_on_fold),
                       ante_bonus_requires_play=(self.ante_bonus_requires_play if ante_bonus_requires_play is None
                                                 else ante_bonus_requires_play))

    def with_tables(self, ante_bonus: AnteBonusTable | None = None,
                    aces_up: AcesUpTable | None = None) -> PokerRules:
        """A copy with other pay tables (name becomes ``custom`` if anything changed)."""
        new = replace(self, ante_bonus=ante_bonus or self.ante_bonus, aces_up=aces_up or self.aces_up)
        if new != self:
            new = replace(new, name=f"{self.name}+custom")
        return new

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (tables as ``"25/20/2"`` strings); a new dict each call (the
        rules are frozen, so it is worked out once: every view of a round carries it)."""
        d = _rules_dict(self)
        return {**d, "play_multiples": list(d["play_multiples"])}

    def _to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ante_bonus": str(self.ante_bonus),
            "aces_up": str(self.aces_up),
            "play_any_amount": self.play_any_amount,
            "play_multiples": list(self.play_multiples),
            "min_play_multiple": self.min_play_multiple,
            "max_play_multiple": self.max_play_multiple,
            "aces_up_requires_ante": self.aces_up_requires_ante,
            "aces_up_lost_on_fold": self.aces_up_lost_on_fold,
            "ante_bonus_requires_play": self.ante_bonus_requires_play,
            "win_cap": self.win_cap,
            "min_ante": self.min_ante,
            "max_ante": self.max_ante,
            "min_aces_up": self.min_aces_up,
            "max_aces_up": self.max_aces_up,
            "max_seats": self.max_seats,
        }


@lru_cache(maxsize=256)
def _rules_dict(rules: PokerRules) -> dict[str, Any]:
    return rules._to_dict()


PRESETS: dict[str, PokerRules] = {
    # seed 002 (OPR-803): play 1x-3x any amount; Aces Up alone allowed; no cap.
    "live": PokerRules(),
    # seed 004: play exactly 1x or 3x; Aces Up needs an ante; win cap 8,400.
    "online": PokerRules(
        name="online",
        aces_up=ACES_UP_TABLES["50/30/7/6/5/2/1"],
        play_any_amount=False,
        play_multiples=(1, 3),
        aces_up_requires_ante=True,
        win_cap=8400,
    ),
}


def get_rules(preset: str = "live", *, ante_bonus: str | None = None,
              aces_up: str | None = None, aces_up_lost_on_fold: bool | None = None,
              ante_bonus_requires_play: bool | None = None) -> PokerRules:
    """Rules from a preset name, optionally with other pay tables given as text and the rule
    switches set (docs/rules.md FCP-16, FCP-17; None keeps the preset's).

    ``None`` keeps the preset's table; any text, an empty one included, must be
    a table (an empty table is refused, never read as "the preset's").

    Raises:
        RulesError: unknown preset (naming the known ones), an empty or
            malformed table, a pay beyond :data:`MAX_PAY`.
    """
    if preset not in PRESETS:
        raise RulesError(f"unknown rules preset {preset!r}: choose one of {', '.join(PRESETS)}")
    rules = PRESETS[preset]
    return rules.with_tables(
        parse_ante_bonus(ante_bonus) if ante_bonus is not None else None,
        parse_aces_up(aces_up) if aces_up is not None else None,
    ).with_switches(aces_up_lost_on_fold, ante_bonus_requires_play)


def as_rules(rules: PokerRules | str | None) -> PokerRules:
    """The rules an entry point of the analysis was given: a :class:`PokerRules` as it is, a preset
    name through :func:`get_rules`, None for ``live``. The public functions that take a preset name
    call this once, on entry; everything they call inside takes :class:`PokerRules` only.

    Raises:
        RulesError: an unknown preset name.
    """
    if rules is None:
        return get_rules("live")
    if isinstance(rules, str):
        return get_rules(rules)
    return rules

