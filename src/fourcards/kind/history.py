"""Operation records of a Four of a Kind deal, and their JSON (lines) form.

A deal's history is an append-only tuple of frozen records, chance events
included, from which :meth:`fourcards.kind.game.Game.replay` replays the
deal exactly. Every card in a record was face up on the table (dealt, returned
after a duplicate deal, or turned); the order of the undealt deck is never
recorded. Amounts are whole chips.

Records (``op`` name in JSON):

========================  ===========  ===============================================
record                    op           meaning
========================  ===========  ===============================================
:class:`Start`            start        rules, stacks before the deal, button
:class:`SitOut`           sit_out      a seat cannot pay the ante (docs/rules.md FOAK-9)
:class:`Ante`             ante         a seat antes (seed 001 §2.1)
:class:`DealCard`         deal         a face-up card dealt to a seat (§2.2)
:class:`ReturnCard`       return       a duplicate rank goes back (seed 000; §2.3)
:class:`Shuffle`          shuffle      the undealt cards are reshuffled
:class:`BettingRound`     round        a betting round starts (or is skipped)
:class:`PlayerAction`     action       check / bet / call / raise / fold
:class:`ReturnUncalled`   uncalled     an uncalled bet goes back at the round end
:class:`TurnCard`         turn         a turned card: to a seat or discarded (§3.3)
:class:`Finish`           finish       four of a kind (§4.1) or last player standing
:class:`AwardChips`       award        chips of a pot to a seat (high/low/whole)
:class:`Void`             void         the host voids the deal: every chip goes back
:class:`Forfeit`          forfeit      a seat leaves the deal out of turn (FOAK-17)
========================  ===========  ===============================================
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from fourcards.cards import Card, parse_card
from fourcards.errors import HistoryError

__all__ = [
    "Op", "Start", "SitOut", "Ante", "DealCard", "ReturnCard", "Shuffle", "BettingRound",
    "PlayerAction", "ReturnUncalled", "TurnCard", "Finish", "AwardChips", "Void", "Forfeit",
    "op_from_dict", "dumps_history", "loads_history", "read_histories", "HistoryError",
]


@dataclass(frozen=True, slots=True)
class Op:
    """Base of the operation records."""

    op: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON: ``op`` plus every field (cards as ``"Th"``, tuples as lists); see :func:`op_from_dict`."""
        out: dict[str, Any] = {"op": self.op}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, Card):
                v = str(v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


@dataclass(frozen=True, slots=True)
class Start(Op):
    """The deal begins: ``rules`` (:meth:`KindRules.to_dict`), each seat's stack in chips before the
    ante (engine seat order 0..n-1) and the button's seat index.
    """
    op: ClassVar[str] = "start"
    rules: dict[str, Any]
    stacks: tuple[int, ...]
    button: int

    def __hash__(self) -> int:  # rules is a dict
        return hash((tuple(sorted(self.rules.items())), self.stacks, self.button))


@dataclass(frozen=True, slots=True)
class SitOut(Op):
    """``seat`` cannot pay the ante and sits the deal out (docs/rules.md FOAK-9)."""
    op: ClassVar[str] = "sit_out"
    seat: int


@dataclass(frozen=True, slots=True)
class Ante(Op):
    """``seat`` antes ``amount`` chips (the rules' ante; seed 001 §2.1)."""
    op: ClassVar[str] = "ante"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class DealCard(Op):
    """A card dealt face up to ``seat`` in the initial deal (seed 001 §2.2)."""
    op: ClassVar[str] = "deal"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ReturnCard(Op):
    """``seat`` returns ``card``, a duplicated rank, to the undealt cards (seed 000; seed 001 §2.3)."""
    op: ClassVar[str] = "return"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Shuffle(Op):
    """The undealt cards are reshuffled after a returned card (the new order is never recorded)."""
    op: ClassVar[str] = "shuffle"


@dataclass(frozen=True, slots=True)
class BettingRound(Op):
    """Round ``number`` opened by ``opener``; ``skipped`` when fewer than two
    players can still bet (the others are all-in)."""

    op: ClassVar[str] = "round"
    number: int
    opener: int
    skipped: bool = False


@dataclass(frozen=True, slots=True)
class PlayerAction(Op):
    """``amount``: chips above the current bet for bet/raise, chips put in for a call."""

    op: ClassVar[str] = "action"
    seat: int
    kind: str
    amount: int = 0


@dataclass(frozen=True, slots=True)
class ReturnUncalled(Op):
    """At the end of a betting round ``amount`` chips of ``seat``'s uncalled bet go back to its stack."""
    op: ClassVar[str] = "uncalled"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class TurnCard(Op):
    """A turned card; ``seat`` is who receives it, ``None`` when discarded."""

    op: ClassVar[str] = "turn"
    card: Card
    seat: int | None


@dataclass(frozen=True, slots=True)
class Finish(Op):
    """``reason`` is ``"four"`` (``seat`` completed four) or ``"last_player"``."""

    op: ClassVar[str] = "finish"
    reason: str
    seat: int


@dataclass(frozen=True, slots=True)
class AwardChips(Op):
    """``amount`` chips of pot ``pot`` (0 = main) to ``seat`` as ``share`` (``"high"``, ``"low"``,
    ``"whole"``; docs/rules.md FOAK-7 to FOAK-9); see :class:`fourcards.kind.pots.Award`.
    """
    op: ClassVar[str] = "award"
    pot: int
    seat: int
    amount: int
    share: str


@dataclass(frozen=True, slots=True)
class Void(Op):
    """The host voids the deal (the host's ruling, docs/rules.md TP-4; seed 004 "Malfunction voids all
    pays and plays"): every chip a seat put in goes back to it and the deal ends with all
    returns 0. :meth:`fourcards.kind.game.Game.apply` takes it like an action."""

    op: ClassVar[str] = "void"
    reason: str = "host ruling"

    def to_dict(self) -> dict[str, Any]:
        """``{"op": "void", "kind": "void", "reason": text}``: the void record of either game's
        history (Four Card Poker's reads ``kind``)."""
        return {"op": self.op, "kind": "void", "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Forfeit(Op):
    """``seat`` forfeits the deal at once, out of turn (docs/rules.md FOAK-17: a person leaves
    mid-deal or the host removes the seat): it folds - out of every pot, side pots included, its
    chips stay in the pot, it takes no more cards and is never asked to act again. Any seat
    dealt in and not folded may forfeit at any point before the end, the initial deal included;
    :meth:`fourcards.kind.game.Game.apply` takes it like an action (it is not one of the
    actor's ``legal_actions``: it is no move of the turn)."""

    op: ClassVar[str] = "forfeit"
    seat: int

    @property
    def player(self) -> int:
        """The forfeiting seat, 0-based (the engine protocol's name; same as ``seat``)."""
        return self.seat

    def to_dict(self) -> dict[str, Any]:
        """``{"op": "forfeit", "kind": "forfeit", "seat": s}`` (``s`` 0-based, like every record of
        this game; Four Card Poker's forfeit reads ``{"kind": "forfeit", "player": p}``)."""
        return {"op": self.op, "kind": "forfeit", "seat": self.seat}


_OPS: dict[str, type[Op]] = {
    cls.op: cls
    for cls in (Start, SitOut, Ante, DealCard, ReturnCard, Shuffle, BettingRound, PlayerAction,
                ReturnUncalled, TurnCard, Finish, AwardChips, Void, Forfeit)
}


def op_from_dict(data: dict[str, Any]) -> Op:
    """Rebuild a record from :meth:`Op.to_dict` output.

    A ``{"kind": "void", "reason": ...}`` record (what the web app's database
    appends to a deal voided by a server restart) reads as :class:`Void`.

    Raises:
        HistoryError: unknown ``op`` or bad fields.
    """
    if isinstance(data, dict) and "op" not in data and data.get("kind") == "void":
        reason = data.get("reason", "host ruling")
        if not isinstance(reason, str):
            raise HistoryError(f"malformed 'void' record {data!r:.200}: the reason must be text")
        return Void(reason)
    try:
        cls = _OPS[data["op"]]
    except (KeyError, TypeError):
        raise HistoryError(f"unknown history record {data!r}") from None
    kwargs: dict[str, Any] = {}
    try:
        for f in fields(cls):
            if f.name not in data:
                if f.default is MISSING:
                    raise KeyError(f.name)
                continue
            v = data[f.name]
            if f.name == "card":
                v = parse_card(v)
            elif f.name == "stacks":
                v = tuple(int(x) for x in v)
            kwargs[f.name] = v
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"malformed {data.get('op')!r} record {data!r}: {exc}") from None


def dumps_history(history: Iterable[Op]) -> str:
    """JSON lines, one record per line (a deal starts with its ``start`` record)."""
    return "".join(json.dumps(op.to_dict(), separators=(",", ":")) + "\n" for op in history)


def loads_history(text: str) -> list[Op]:
    """Parse JSON lines (or a JSON list) of records.

    Raises:
        HistoryError: malformed JSON or records.
    """
    text = text.strip()
    if not text:
        return []
    try:
        if text.startswith("["):
            items = json.loads(text)
        else:
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise HistoryError(f"malformed hand history: {exc}") from None
    return [op_from_dict(d) for d in items]


def read_histories(text: str) -> list[list[Op]]:
    """Split a file of several deals (each starting with ``start``) into deals.

    Raises:
        HistoryError: malformed records, or records before the first ``start``.
    """
    deals: list[list[Op]] = []
    for op in loads_history(text):
        if isinstance(op, Start):
            deals.append([op])
        elif not deals:
            raise HistoryError("a hand history must begin with a 'start' record")
        else:
            deals[-1].append(op)
    return deals
