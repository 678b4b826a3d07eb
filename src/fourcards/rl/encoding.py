"""Integer actions and observation tensors of both games, for Gymnasium, PettingZoo and OpenSpiel.

Everything here reads the engine protocol's views only: a player's legal actions
and observation. docs/rl.md has the tables.

**Four Card Poker** (:func:`action_mask`, :func:`encode`): actions ``0`` fold,
``k = 1, 2, 3`` a play bet of ``k`` x the ante (:data:`ACTIONS`); the observation
is ``int8[104]``: the player's five cards one-hot at ``0..51`` and the dealer's
up card one-hot at ``52..103``, by card index ``(rank - 2) * 4 + suit``.

**Four of a Kind**:

**Actions** (:class:`KindActions`), for rules with ``max_bet = B``: ``B + 3`` ids.

====================  ==========================================================
id                    action
====================  ==========================================================
0                     fold (offered only when facing a bet, rules.md FOAK-12)
1                     check
2                     call (the amount is fixed: the bet to match, or all in)
``2 + a``, a = 1..B   bet ``a`` chips, or raise ``a`` chips above the current bet
                      (spread limit ``min_bet..max_bet``; below ``min_bet`` only
                      as a short all-in, rules.md FOAK-3, FOAK-11)
====================  ==========================================================

A bet and a raise share ids: only one of them is ever open.

**Observation tensor** (:func:`kind_tensor`), ``float32``, length
``28 * n + 6`` for ``n`` seats; chip amounts are fractions of all the chips at the
table at the start of the deal (so every entry lies in ``[0, 1]``). For each seat
``s = 0..n-1`` in seat order, 28 entries at ``28 * s``:

======  ==================================================================
offset  content
======  ==================================================================
0-12    one-hot rank of the seat's cards (2..A); zeros before its card
13-17   one-hot number of cards held, 0..4
18-21   one-hot status: out, folded, all in, active
22      stack (chips behind)
23      chips put in this deal (ante included)
24      stake: chips bet in this betting round
25      1 for the observing seat
26      1 for the seat to act
27      1 for the button (dealer)
======  ==================================================================

then 6 entries at ``28 * n``: the pot, the current bet, the observer's chips to
call, full bets and raises made this round over the raise cap's limit
(``max_raises + 1``), cards left in the deck over 52, 1 when the deal is over.
Every card is dealt face up (seed 001), so the tensor is the whole public state:
the order of the deck is the only thing nobody sees.

**Chance outcomes**: a card, by its index ``(rank - 2) * 4 + suit`` (0..51); at a
chance step every card not face up on the table is equally likely
(:func:`unseen_cards`), and :func:`chance_record` turns the card into the record
that scripts the step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fourcards.cards import FULL_DECK, Card
from fourcards.kind.actions import Action, ActionKind, LegalAction
from fourcards.kind.history import DealCard, TurnCard
from fourcards.kind.observation import Observation
from fourcards.kind.rules import KindRules
from fourcards.poker.round import ActionKind as PokerActionKind
from fourcards.poker.round import LegalAction as PokerLegalAction

__all__ = ["ACTIONS", "OBS_SIZE", "action_mask", "encode", "FOLD", "CHECK", "CALL", "KindActions", "PER_SEAT",
           "GLOBAL", "kind_tensor", "kind_tensor_size",
           "kind_string", "unseen_cards", "chance_record"]

#: Action ``i`` of the environments: fold, then a play bet of 1, 2 or 3 x the ante.
ACTIONS = ("fold", "play_1x", "play_2x", "play_3x")
#: Length of an observation: 52 for the player's cards, 52 for the dealer's up card.
OBS_SIZE = 104


def action_mask(options: Sequence[PokerLegalAction], ante: int) -> np.ndarray:
    """``int8[4]``: which of fold / play 1x / 2x / 3x the ``options`` (a player's legal actions) allow."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for o in options:
        if o.kind is PokerActionKind.FOLD:
            mask[0] = 1
        elif o.kind is PokerActionKind.PLAY:
            for k in (1, 2, 3):
                amount = k * ante
                if (amount in o.amounts) if o.amounts is not None else o.min_amount <= amount <= o.max_amount:
                    mask[k] = 1
    return mask


def encode(cards: Sequence[Card | int], up: Card | int) -> np.ndarray:
    """The observation of five player ``cards`` and the dealer's ``up`` card (see the module doc)."""
    obs = np.zeros(OBS_SIZE, dtype=np.int8)
    obs[[c.index if isinstance(c, Card) else int(c) for c in cards]] = 1
    obs[52 + (up.index if isinstance(up, Card) else int(up))] = 1
    return obs


# ------------------------------------------------------------ Four of a Kind

FOLD, CHECK, CALL = 0, 1, 2
_WAGER = 2  # id = _WAGER + amount
PER_SEAT = 28
GLOBAL = 6
_STATUS = ("out", "folded", "all_in", "active")


class KindActions:
    """The integer action ids of a table's rules (see the module docstring).

    Args:
        rules: the table's rules; ``max_bet`` fixes the number of ids.
    """

    def __init__(self, rules: KindRules) -> None:
        self.rules = rules
        self.num_actions = 3 + rules.max_bet

    def to_id(self, action: Action) -> int:
        """The id of an action (a bet/raise by its amount)."""
        if action.kind is ActionKind.FOLD:
            return FOLD
        if action.kind is ActionKind.CHECK:
            return CHECK
        if action.kind is ActionKind.CALL:
            return CALL
        if not 1 <= action.amount <= self.rules.max_bet:
            raise ValueError(f"a bet or raise adds 1 to {self.rules.max_bet} chips, got {action.amount}")
        return _WAGER + action.amount

    def ids(self, options: Sequence[LegalAction]) -> list[int]:
        """The ids the ``options`` allow, ascending."""
        out: list[int] = []
        for o in options:
            if o.kind is ActionKind.FOLD:
                out.append(FOLD)
            elif o.kind is ActionKind.CHECK:
                out.append(CHECK)
            elif o.kind is ActionKind.CALL:
                out.append(CALL)
            else:
                out.extend(_WAGER + a for a in range(o.min_amount, o.max_amount + 1))
        return sorted(out)

    def mask(self, options: Sequence[LegalAction]) -> np.ndarray:
        """``int8[num_actions]``: 1 for each id the ``options`` allow."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[self.ids(options)] = 1
        return m

    def action(self, action_id: int, options: Sequence[LegalAction]) -> Action:
        """The :class:`Action` of ``action_id`` among ``options`` (for the player to act).

        Raises:
            ValueError: the id is not one the options allow.
        """
        a = int(action_id)
        for o in options:
            if (o.kind is ActionKind.FOLD and a == FOLD) or (o.kind is ActionKind.CHECK and a == CHECK) \
                    or (o.kind is ActionKind.CALL and a == CALL):
                return o.action()
            if o.kind in (ActionKind.BET, ActionKind.RAISE) and o.min_amount <= a - _WAGER <= o.max_amount:
                return o.action(a - _WAGER)
        raise ValueError(f"action {action_id} is not legal now: legal ids {self.ids(options)}")

    def name(self, action_id: int) -> str:
        """Text of an id: ``fold``, ``check``, ``call`` or ``bet/raise N``."""
        a = int(action_id)
        return {FOLD: "fold", CHECK: "check", CALL: "call"}.get(a, f"bet/raise {a - _WAGER}")


def kind_tensor_size(seats: int) -> int:
    """Length of :func:`kind_tensor` for a table of ``seats`` seats."""
    return PER_SEAT * seats + GLOBAL


def kind_tensor(observation: Observation, total_chips: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation tensor of ``observation`` (layout in the module docstring).

    Args:
        observation: a player's (or a spectator's) view.
        total_chips: all the chips at the table at the start of the deal (> 0), the unit of amounts.
        out: a ``float32`` array of :func:`kind_tensor_size` to fill (a new one if ``None``).
    """
    n = len(observation.seats)
    t = np.zeros(kind_tensor_size(n), dtype=np.float32) if out is None else out
    t.fill(0)
    unit = 1.0 / max(total_chips, 1)
    for v in observation.seats:
        base = PER_SEAT * v.seat
        if v.cards:
            t[base + int(v.cards[0].rank) - 2] = 1
        t[base + 13 + min(len(v.cards), 4)] = 1
        t[base + 18 + _STATUS.index(v.status)] = 1
        t[base + 22] = v.stack * unit
        t[base + 23] = v.contributed * unit
        t[base + 24] = v.stake * unit
        t[base + 25] = v.seat == observation.seat
        t[base + 26] = v.seat == observation.actor
        t[base + 27] = v.seat == observation.button
    g = PER_SEAT * n
    t[g] = observation.pot * unit
    t[g + 1] = observation.bet * unit
    t[g + 2] = observation.to_call * unit
    t[g + 3] = observation.full_wagers / (observation.rules.max_raises + 1)
    t[g + 4] = observation.cards_in_deck / 52
    t[g + 5] = observation.phase == "finished"
    return t


def kind_string(observation: Observation) -> str:
    """A one-line text of the view: each seat (people's numbering, 1..n) and the pot."""
    parts = []
    for v in observation.seats:
        mark = "*" if v.seat == observation.actor else ""
        you = " (you)" if v.seat == observation.seat else ""
        held = v.holding
        parts.append(f"{mark}seat {v.seat + 1}{you}: {held if held else '-'} {v.status} "
                     f"stack {v.stack} in {v.contributed} bet {v.stake}")
    return (" | ".join(parts) + f" | pot {observation.pot} bet {observation.bet} "
            f"round {observation.round_number} {observation.phase}")


def unseen_cards(observation: Observation) -> list[Card]:
    """The cards not face up on the table (any player's view): the deck, in index order."""
    seen = {c for v in observation.seats for c in v.cards} | set(observation.discards)
    return [c for c in FULL_DECK if c not in seen]


def chance_record(observation: Observation, step: str, card: Card) -> DealCard | TurnCard:
    """The record that deals (``step == "deal"``) or turns ``card`` at the due chance step.

    A dealt card goes to the first seat clockwise from the dealer's left that is
    dealt in and holds no card (a returned duplicate leaves its seat empty again,
    rules.md FOAK-2); a turned card goes to the active seat of its rank, else to the
    discards (``seat`` ``None``, FOAK-5).
    """
    n = len(observation.seats)
    if step == "deal":
        order = [(observation.button + i) % n for i in range(1, n + 1)]
        seat = next(s for s in order if observation.seats[s].status != "out" and not observation.seats[s].cards)
        return DealCard(seat, card)
    holder = next((v.seat for v in observation.seats if v.is_active and v.cards and v.cards[0].rank == card.rank),
                  None)
    return TurnCard(card, holder)
