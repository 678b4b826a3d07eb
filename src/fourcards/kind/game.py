"""The Four of a Kind state machine: antes, the deal, betting rounds, turning, pots.

One :class:`Game` is one deal at a table (docs/rules.md "Four of a Kind";
seed 000; seed 001 = OPR-903). It implements the engine protocol
(:class:`fourcards.engine.GameState`, docs/engine.md):

* :meth:`Game.legal_actions` - the options of the player to act
  (:class:`~fourcards.kind.actions.LegalAction`, with min/max amounts);
* :meth:`Game.apply` - apply an :class:`~fourcards.kind.actions.Action` (or a
  :class:`~fourcards.kind.history.DealCard` / :class:`~fourcards.kind.history.TurnCard`
  record at a chance step; the host's :class:`~fourcards.kind.history.Void`; a seat's
  out-of-turn :class:`~fourcards.kind.history.Forfeit`, docs/rules.md FOAK-17); an illegal one raises
  :class:`~fourcards.errors.IllegalActionError` naming the player as people
  see it ("seat 4" for player 3) and changes nothing (it is validated in
  full before any mutation);
* :attr:`Game.actor` (player to act, or ``None``), :attr:`Game.chance_step`,
  :attr:`Game.is_terminal`, :meth:`Game.returns` (net chips per player,
  summing to zero; zeros until the deal is over);
* :attr:`Game.history` - append-only frozen records
  (:mod:`fourcards.kind.history`), chance events included;
  :meth:`Game.replay` replays a deal exactly;
* :meth:`Game.observation` - what a player sees (everything but the undealt deck);
* :meth:`Game.clone`.

Chance events (deals, returned duplicates, reshuffles, turned cards) are
operations of their own. They run as soon as the game needs them, drawing
from an ``rng``-shuffled deck (the OS CSPRNG by default, a seeded
:class:`random.Random` for tests and simulations) or from ``cards`` given in
order (replays, tests). A game given too few ``cards`` - ``cards=()`` for
none - waits at each chance step (:attr:`Game.chance_step`: ``"deal"`` or
``"turn"``) until :meth:`Game.apply_chance` draws the card, :meth:`Game.apply`
applies a given ``DealCard``/``TurnCard`` record, or :meth:`Game.supply`
gives more cards.

Players (seats) are numbered 0..n-1 clockwise (people see seats 1..n); dealing and action go clockwise (increasing seat
numbers, wrapping around). The dealer is the ``button`` seat; dealing starts
at the dealer's left (docs/rules.md FOAK-2).

Rulings the seeds leave open are decided here and documented in docs/kind.md:
fold is offered only when facing a bet; a short all-in bet or raise (below
``min_bet``) does not count toward the raise cap and does not reopen the
betting for players who have already acted; an uncalled bet goes back at the
end of its round; a betting round is skipped when fewer than two players can
still bet; a bet or raise is offered only when another player still in the deal
could put in more chips than the current bet (else it could only come back
uncalled); once a round ends its bets join the pots.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from fourcards.cards import FULL_DECK, Card, make_rng, parse_card
from fourcards.engine import check_void_reason, seat_label
from fourcards.errors import CardError, HistoryError, IllegalActionError, IllegalChanceError, RulesError
from fourcards.kind.actions import Action, ActionKind, LegalAction
from fourcards.kind.history import (
    Ante,
    AwardChips,
    BettingRound,
    DealCard,
    Finish,
    Forfeit,
    Op,
    PlayerAction,
    ReturnCard,
    ReturnUncalled,
    Shuffle,
    SitOut,
    Start,
    TurnCard,
    Void,
    op_from_dict,
)
from fourcards.kind.holdings import Holding, high_key
from fourcards.kind.observation import Observation, SeatView
from fourcards.kind.pots import Award, Pot, settle_pots, side_pots
from fourcards.kind.rules import MAX_PLAYERS, KindRules, Redeal

if TYPE_CHECKING:  # pragma: no cover
    from fourcards.engine import GameState

__all__ = ["Phase", "Game", "next_button", "can_play", "seat_label"]


class Phase(str, Enum):
    """Where the deal stands."""

    DEAL = "deal"          # initial face-up cards (seed 001 Article 2)
    BETTING = "betting"    # a betting round (seed 001 §3.1-3.2)
    TURNING = "turning"    # the dealer turns cards (§3.3)
    FINISHED = "finished"  # four of a kind or last player standing (§4.1, ruling 7)
    VOIDED = "voided"      # the host's ruling: every chip returned (docs/rules.md TP-4)


def _card_index(card: Card) -> int:
    return card.index


def can_play(stack: int, rules: KindRules) -> bool:
    """Whether a seat with ``stack`` chips is dealt in: it can pay the ante and has
    chips (docs/rules.md FOAK-9: a player who cannot pay the ante sits the deal out)."""
    return stack >= rules.ante and stack > 0


def next_button(stacks: Sequence[int], button: int, rules: KindRules) -> int:
    """The next dealer: the first seat clockwise of ``button`` that can play the
    next deal (docs/rules.md FOAK-1: the deal button rotates). Returns ``button``
    itself if no other seat can play."""
    n = len(stacks)
    for step in range(1, n + 1):
        seat = (button + step) % n
        if can_play(stacks[seat], rules):
            return seat
    return button


class Game:
    """One deal of Four of a Kind. Amounts are whole chips.

    Args:
        rules: table rules (default :class:`KindRules`).
        stacks: chips of each seat before the deal (seat order, clockwise);
            seats that cannot pay the ante sit out.
        button: the dealer's seat.
        rng: shuffles the deck and reshuffles after a returned duplicate; the
            OS CSPRNG when omitted (live play).
        cards: instead of a shuffled deck, the cards to deal and turn, in order
            (for replays and tests). Returned duplicates may be dealt again.
        seat_labels: how messages name each seat to a person (an error such as
            ``"seat 4 cannot raise 0: ..."``); default ``"seat 1"``..``"seat n"``
            (:func:`fourcards.engine.seat_label`; docs/rules.md TP-1: people
            count seats from 1, programs from 0).
            A user interface may pass its own, e.g. the players' names.

    Raises:
        RulesError: bad stacks, button or seat labels, fewer than ``rules.min_players`` or more
            than 13 seats, or fewer than ``rules.min_players`` (more than ``max_players``) seats
            able to ante ("this table needs 4 to 13 players").
        CardError: malformed or repeated ``cards`` (at the point they are dealt).
    """

    def __init__(
        self,
        rules: KindRules | None = None,
        stacks: Sequence[int] = (),
        button: int = 0,
        *,
        rng: random.Random | None = None,
        cards: Iterable[Card | str] | None = None,
        seat_labels: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules = rules or KindRules()
        stacks = list(stacks)
        n = len(stacks)
        if not rules.min_players <= n <= MAX_PLAYERS:  # one range for people: the rules' players (4-13)
            raise RulesError(f"this table needs {rules.min_players} to {rules.max_players} players, got {n} seats")
        if seat_labels is None:
            labels = tuple(seat_label(s) for s in range(n))
        else:
            labels = tuple(seat_labels)
            if len(labels) != n or not all(isinstance(x, str) and x.strip() for x in labels):
                raise RulesError(f"seat_labels must name each of the {n} seats with a non-empty text, "
                                 f"got {seat_labels!r}")
        self.seat_labels: tuple[str, ...] = labels
        for s, st in enumerate(stacks):
            if not isinstance(st, int) or isinstance(st, bool) or st < 0:
                raise RulesError(f"the stack of {labels[s]} must be a whole, non-negative number of chips, "
                                 f"got {st!r}")
        if not isinstance(button, int) or isinstance(button, bool) or not 0 <= button < n:
            raise RulesError(f"button must be a player 0..{n - 1} (seats 1..{n}), got {button!r}")
        players = [s for s in range(n) if can_play(stacks[s], rules)]
        if not rules.min_players <= len(players) <= rules.max_players:
            raise RulesError(
                f"{len(players)} seats can pay the ante of {rules.ante}: "
                f"this table needs {rules.min_players} to {rules.max_players} players"
            )
        self.n_seats = n
        self.button = button
        self.initial_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = stacks
        self.in_deal: list[bool] = [can_play(st, rules) for st in stacks]
        self.folded: list[bool] = [False] * n
        self.forfeited: list[bool] = [False] * n  # folded out of turn (docs/rules.md FOAK-17)
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.contributed: list[int] = [0] * n
        self.stakes: list[int] = [0] * n  # this betting round
        self.discards: list[Card] = []
        self.phase = Phase.DEAL
        self.round_number = 0
        self.level = 0  # the current bet of this round (highest stake)
        self.full_wagers = 0  # full bets + raises this round (raise cap)
        self._need: set[int] = set()
        self._may_raise: set[int] = set()
        self._actor: int | None = None
        self.awards: list[Award] = []
        self.finish_reason: str | None = None
        self.void_reason: str | None = None
        self._history: list[Op] = []
        # the deck: rng-shuffled list (top = end) or scripted cards
        self._in_deck: set[Card] = set(FULL_DECK)
        self._rng: random.Random | None
        if cards is None:
            self._rng = rng if rng is not None else make_rng()
            self._deck: list[Card] | None = list(FULL_DECK)
            self._rng.shuffle(self._deck)
            self._script: list[Card] = []
        else:
            self._rng = None
            self._deck = None
            self._script = [parse_card(c) for c in cards]
            self._script.reverse()  # pop from the end
        order = [(button + i) % n for i in range(1, n + 1)]
        self._deal_order = [s for s in order if self.in_deal[s]]
        self._deal_queue: list[int] = list(self._deal_order)

        self._log(Start(rules.to_dict(), self.initial_stacks, button))
        for s in range(n):
            if not self.in_deal[s]:
                self._log(SitOut(s))
        for s in self._deal_order:  # seed 001 §2.1
            if rules.ante:
                self.stacks[s] -= rules.ante
                self.contributed[s] += rules.ante
                self._log(Ante(s, rules.ante))
        self._advance()

    # ------------------------------------------------------------------ views

    @property
    def num_players(self) -> int:
        """Seats at the table (sitting-out seats included): players ``0..num_players-1``."""
        return self.n_seats

    def seat_label(self, player: int) -> str:
        """``player`` as people see it: its ``seat_labels`` entry, by default ``"seat 4"`` for
        player 3 (:func:`fourcards.engine.seat_label`, also for an index off the table)."""
        if isinstance(player, int) and 0 <= player < self.n_seats:
            return self.seat_labels[player]
        return seat_label(player)

    @property
    def history(self) -> tuple[Op, ...]:
        """Every operation so far, chance events included (append-only)."""
        return tuple(self._history)

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` (chance pending or deal over)."""
        return self._actor

    @property
    def is_terminal(self) -> bool:
        """Whether the deal is over: ``FINISHED`` (four of a kind or last player standing; pots
        awarded) or ``VOIDED`` (the host's ruling; every chip returned)."""
        return self.phase is Phase.FINISHED or self.phase is Phase.VOIDED

    @property
    def chance_step(self) -> str | None:
        """``"deal"`` or ``"turn"`` when a scripted game waits for a card (:meth:`apply_chance`,
        :meth:`apply` of a ``DealCard``/``TurnCard``, :meth:`supply`), else ``None``. A game
        with its own shuffled deck (``rng``) never waits."""
        if self.is_terminal or self._actor is not None:
            return None
        return "deal" if self.phase is Phase.DEAL else "turn"

    @property
    def pending_chance(self) -> str | None:
        """Same as :attr:`chance_step`."""
        return self.chance_step

    @property
    def deal_queue(self) -> tuple[int, ...]:
        """The players still due a card in the initial deal, in dealing order: the next dealt
        card goes to the first (seed 001 §2.2). After a returned duplicate it is the player(s)
        re-dealt (docs/rules.md FOAK-2: ``Redeal.REPLACE`` the same player at once,
        ``Redeal.ALL_DUPLICATES`` every holder of a duplicated rank). Empty once the deal is done."""
        return tuple(self._deal_queue) if self.phase is Phase.DEAL else ()

    @property
    def pot(self) -> int:
        """Chips in the pot (all pots), ``sum(contributed)``; 0 once awarded."""
        return 0 if self.is_terminal else sum(self.contributed)

    @property
    def live(self) -> list[bool]:
        """Seats still in the deal (dealt in, not folded): the active players."""
        return [d and not f for d, f in zip(self.in_deal, self.folded)]

    @property
    def active_seats(self) -> list[int]:
        """Indices of the seats still in the deal (dealt in, not folded; all-in included), ascending."""
        return [s for s, lv in enumerate(self.live) if lv]

    def label(self, seat: int) -> str:
        """The name of engine seat index ``seat`` in messages for people (see ``seat_labels``);
        same as :meth:`seat_label`."""
        return self.seat_label(seat)

    def is_all_in(self, seat: int) -> bool:
        """An active player with no chips behind."""
        return self.in_deal[seat] and not self.folded[seat] and self.stacks[seat] == 0

    def holding(self, seat: int) -> Holding | None:
        """The seat's rank and number of cards, or ``None`` before its card is dealt."""
        cs = self.cards[seat]
        if not cs or (self.phase is Phase.DEAL and len({c.rank for c in cs}) != 1):
            return None
        return Holding(cs[0].rank, len(cs))

    def holdings(self) -> dict[int, Holding]:
        """Active seats' holdings (after the deal)."""
        out = {}
        for s in self.active_seats:
            h = self.holding(s)
            if h is not None:
                out[s] = h
        return out

    def side_pots(self) -> list[Pot]:
        """The pots as they stand (main pot first), from :func:`~fourcards.kind.pots.side_pots`.

        Only chips of completed betting rounds are split into pots: the bets of
        the round in progress stay in :attr:`stakes` until the round ends, so an
        unmatched bet never shows as a side pot (side pots come from all-ins).
        When no betting round is open the pots add up to :attr:`pot`; during a
        round, the pots plus ``sum(stakes)`` do.
        """
        if self.is_terminal:
            return []
        return side_pots([c - st for c, st in zip(self.contributed, self.stakes)], self.live)

    def returns(self) -> tuple[int, ...]:
        """Net chips won (+) or lost (-) per player, summing to zero; all zeros until the deal is over."""
        if not self.is_terminal:
            return (0,) * self.n_seats
        return tuple(a - b for a, b in zip(self.stacks, self.initial_stacks))

    @property
    def payoffs(self) -> tuple[int, ...]:
        """Deprecated: :meth:`returns` (which reads zeros before the end instead of raising).

        Raises:
            IllegalActionError: the deal is not over.
        """
        if not self.is_terminal:
            raise IllegalActionError("payoffs are known only when the deal is over")
        return self.returns()

    @property
    def next_button(self) -> int:
        """Dealer of the next deal with the current stacks (the button rotates)."""
        return next_button(self.stacks, self.button, self.rules)

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` would need to match the current bet (before the stack cap)."""
        return self.level - self.stakes[seat]

    def odds(self) -> dict[int, Any]:
        """Exact odds of every active player (see :func:`fourcards.kind.odds.exact_odds`),
        ``{seat: PlayerOdds}``; empty during the deal."""
        from fourcards.kind.odds import exact_odds

        hs = self.holdings()
        if self.phase is Phase.DEAL or not hs:
            return {}
        seats = list(hs)
        return dict(zip(seats, exact_odds([hs[s] for s in seats])))

    # --------------------------------------------------------------- actions

    def legal_actions(self, player: int | None = None) -> list[LegalAction]:
        """The options of :attr:`actor` (empty when nobody is to act, or when ``player``
        is given and is not the actor).

        * no bet to match: ``check``, and ``bet`` (``min_bet``..``max_bet``, or
          all-in for less) while the raise cap allows (seed 001 §3.1);
        * facing a bet: ``fold``, ``call`` (all-in for less when short), and
          ``raise`` while fewer than ``1 + max_raises`` full bets/raises were made
          this round and the betting is open to this player (seed 001 §3.2).

        A bet or raise is offered (and accepted by :meth:`apply`) only when some
        other player still in the deal could put in more chips than the current
        bet; when all the others are all in or folded, only check, or call or
        fold, remain (docs/rules.md FOAK-9; docs/kind.md decision 4).

        Raises:
            IllegalActionError: ``player`` is not at this table.
        """
        if player is not None:
            self._check_player(player)
        s = self._actor
        if s is None or (player is not None and player != s):
            return []
        rules = self.rules
        stack = self.stacks[s]
        to_call = self.level - self.stakes[s]
        out: list[LegalAction] = []
        can_wager = s in self._may_raise and self.full_wagers < rules.max_wagers and self._can_be_answered(s)
        if to_call <= 0:
            out.append(LegalAction(ActionKind.CHECK, player=s))
            kind = ActionKind.BET if self.level == 0 else ActionKind.RAISE
            if can_wager and stack > 0:
                lo, hi = min(rules.min_bet, stack), min(rules.max_bet, stack)
                out.append(LegalAction(kind, lo, hi, hi == stack, player=s))
            return out
        out.append(LegalAction(ActionKind.FOLD, player=s))
        pay = min(to_call, stack)
        out.append(LegalAction(ActionKind.CALL, pay, pay, pay == stack, player=s))
        left = stack - to_call
        if can_wager and left > 0:
            lo, hi = min(rules.min_bet, left), min(rules.max_bet, left)
            out.append(LegalAction(ActionKind.RAISE, lo, hi, hi == left, player=s))
        return out

    def _check_player(self, player: object) -> None:
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.n_seats:
            return
        who = seat_label(player) if isinstance(player, int) else f"player {player!r}"
        raise IllegalActionError(f"{who} is not at this table (seats 1-{self.n_seats})")

    def _can_be_answered(self, seat: int) -> bool:
        """Whether a bet or raise by ``seat`` could be answered: some other player still in
        the deal can put in more than the current bet (docs/rules.md FOAK-9; docs/kind.md
        decision 4). Otherwise a wager would only come straight back as uncalled."""
        return any(x != seat and self.stakes[x] + self.stacks[x] > self.level for x in self.active_seats)

    def _why_illegal(self, action: Action) -> str | None:
        k = action.kind
        p = action.player
        if p is not None:
            try:
                self._check_player(p)
            except IllegalActionError as exc:
                return str(exc)
        who = self.label(p) if p is not None else (self.label(self._actor) if self._actor is not None else "")
        if self.is_terminal:
            return f"{who} cannot {k.value}: the deal is over".strip()
        s = self._actor
        if s is None:
            return f"{who} cannot {k.value}: no player is to act (a card must be dealt or turned)".strip()
        if p is not None and p != s:
            return f"{who} cannot act out of turn: {self.label(s)} is to act"
        legal = self.legal_actions()
        for la in legal:
            if la.allows(action):
                return None
        kinds = {la.kind: la for la in legal}
        if k in kinds:
            la = kinds[k]
            if k is ActionKind.CALL:
                return f"{who} cannot call {action.amount}: the call is {la.min_amount}"
            if k in (ActionKind.CHECK, ActionKind.FOLD):
                return f"{who} cannot {k.value} {action.amount}: {k.value} takes no amount"
            return (f"{who} cannot {k.value} {action.amount}: a {k.value} adds "
                    f"{la.min_amount} to {la.max_amount} chips (spread limit {self.rules.min_bet}-"
                    f"{self.rules.max_bet}, stack {self.stacks[s]})")
        to_call = self.level - self.stakes[s]
        if k is ActionKind.CHECK:
            return f"{who} cannot check: there is a bet of {to_call} to call"
        if k is ActionKind.FOLD:
            return f"{who} cannot fold: there is no bet to fold to (check instead)"
        if k is ActionKind.CALL:
            return f"{who} cannot call: there is no bet to call (check instead)"
        if k is ActionKind.BET and self.level > 0:
            return f"{who} cannot bet: there is already a bet (call, raise or fold)"
        if self.full_wagers >= self.rules.max_wagers:
            return (f"{who} cannot {k.value}: the raise cap of {self.rules.max_raises} raises "
                    "is reached (only call or fold)")
        if k is ActionKind.RAISE and self.level == 0:
            return f"{who} cannot raise: there is no bet yet (bet instead)"
        if not self._can_be_answered(s):
            return (f"{who} cannot {k.value}: no other player still in the deal can put in more chips "
                    "(the others are all in or folded), so only " + ("check" if to_call <= 0 else "call or fold"))
        if s not in self._may_raise:
            return (f"{who} cannot {k.value}: a short all-in does not reopen the betting "
                    "to a player who has acted")
        return f"{who} cannot {k.value}: not enough chips behind"

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` now (never raises; see :meth:`legal_actions`)."""
        return self._why_illegal(action) is None

    def apply(self, action: Action | DealCard | TurnCard | Void | Forfeit | str) -> None:
        """Apply the :attr:`actor`'s action, or a chance record at a chance step; chance
        events that follow run at once.

        Args:
            action: an :class:`Action` (with ``player`` set, the turn is checked too)
                or its text (``"raise 10"``); or, when :attr:`chance_step` is
                ``"deal"`` / ``"turn"``, the :class:`DealCard` / :class:`TurnCard`
                record of the card to deal or turn (scripting the chance step); or a
                :class:`~fourcards.kind.history.Void` (the host's ruling, at any point
                before the end): every chip goes back to the seat that put it in, the
                deal ends (phase ``VOIDED``) and every return is 0; or a
                :class:`~fourcards.kind.history.Forfeit` (docs/rules.md FOAK-17: a seat dealt
                in and not folded leaves the deal at once, out of turn, in any phase before
                the end; see :meth:`forfeit`).

        Raises:
            IllegalActionError: out of turn, deal over, a move not offered, an
                amount outside the range, a chance record when no card is due;
                the state is left exactly unchanged.
            IllegalChanceError: a card that is not in the deck, or dealt or turned
                to the wrong player; a record whose card is neither a :class:`Card` nor
                text that parses to one (``"9h"`` and ``"9♥"`` are the same card).
        """
        if isinstance(action, (DealCard, TurnCard)):
            self._apply_chance_record(action)
            return
        if isinstance(action, Void):
            self._void(action)
            return
        if isinstance(action, Forfeit):
            self._forfeit(action)
            return
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action of Four of a Kind: {action!r}")
        why = self._why_illegal(action)
        if why is not None:
            raise IllegalActionError(why)
        s = self._actor
        assert s is not None
        k = action.kind
        able_others = [x for x in self._able() if x != s]
        if k is ActionKind.CHECK:
            self._need.discard(s)
            self._may_raise.discard(s)
            self._log(PlayerAction(s, k.value, 0))
        elif k is ActionKind.FOLD:
            self.folded[s] = True
            self._need.discard(s)
            self._may_raise.discard(s)
            self._log(PlayerAction(s, k.value, 0))
        elif k is ActionKind.CALL:
            pay = min(self.level - self.stakes[s], self.stacks[s])
            self._put_in(s, pay)
            self._need.discard(s)
            self._may_raise.discard(s)
            self._log(PlayerAction(s, k.value, pay))
        else:  # bet or raise: action.amount above the current bet
            pay = self.level - self.stakes[s] + action.amount
            self._put_in(s, pay)
            self.level = self.stakes[s]
            if action.amount >= self.rules.min_bet:  # a full bet/raise reopens the betting
                self.full_wagers += 1
                self._need = set(able_others)
                self._may_raise = set(able_others)
            else:  # short all-in: everyone must answer, nobody who acted may re-raise
                self._need = {x for x in able_others if self.stakes[x] < self.level}
                self._may_raise.discard(s)
            self._log(PlayerAction(s, k.value, action.amount))
        if self.stacks[s] == 0:
            self._need.discard(s)
            self._may_raise.discard(s)
        live = self.active_seats
        if len(live) == 1:
            self._finish_last_player(live[0])
            return
        if self._need:
            self._actor = self._next_clockwise(s + 1, self._need)
            return
        self._end_round()
        self._advance()

    def _void(self, op: Void) -> None:
        """The host's ruling: refund every seat what it put in; the deal ends (returns 0)."""
        check_void_reason(op.reason)
        if self.is_terminal:
            raise IllegalActionError(f"the deal is already {self.phase.value}; it cannot be voided")
        for s in range(self.n_seats):
            self.stacks[s] += self.contributed[s]
        self.contributed = [0] * self.n_seats
        self.stakes = [0] * self.n_seats
        self.level = 0
        self.full_wagers = 0
        self._actor = None
        self._need = set()
        self._may_raise = set()
        self.phase = Phase.VOIDED
        self.void_reason = op.reason
        self._log(op)

    def forfeit(self, seat: int) -> None:
        """Shortcut for ``apply(Forfeit(seat))`` (docs/rules.md FOAK-17; see :meth:`_forfeit`)."""
        self.apply(Forfeit(seat))

    def _forfeit(self, op: Forfeit) -> None:
        """docs/rules.md FOAK-17: ``op.seat`` leaves the deal at once, out of turn - a person who
        leaves mid-deal, a seat the host removes.

        The seat is folded: out of every pot (side pots included) while its chips stay in
        the pot; a turned card of its rank is discarded (FOAK-5); it leaves the betting's
        "to act" sets and, in the initial deal, the deal queue and the deal order (it is
        dealt nothing more and its card, if it has one, no longer opens the betting - but
        it stays face up and keeps its rank out of play, so no player still in is dealt
        that rank: FOAK-13 needs every unseen card of an active rank in the deck). If one
        player is left, that player takes the whole pot at once (FOAK-8). If the seat was
        to act, the turn moves on clockwise as after a fold; if nobody else needs to act,
        the round ends and the dealer turns. A player the round still waits for stays to
        act, unless nobody is left who could bet against it and it has nothing to call
        (FOAK-10: the round needs no action from it).

        Raises:
            IllegalActionError: the seat is not at the table, sits the deal out, has
                already folded (or forfeited), or the deal is over; nothing changes.
        """
        s = op.seat
        self._check_player(s)
        who = self.label(s)
        if self.is_terminal:
            raise IllegalActionError(f"{who} cannot forfeit: the deal is already {self.phase.value}")
        if not self.in_deal[s]:
            raise IllegalActionError(f"{who} cannot forfeit: it sits this deal out (it was not dealt in)")
        if self.folded[s]:
            how = "forfeited" if self.forfeited[s] else "folded"
            raise IllegalActionError(f"{who} cannot forfeit: it has already {how} this deal")
        self.folded[s] = True
        self.forfeited[s] = True
        self._need.discard(s)
        self._may_raise.discard(s)
        for order in (self._deal_queue, self._deal_order):
            if s in order:
                order.remove(s)
        self._log(op)
        live = self.active_seats
        if len(live) == 1:
            self._finish_last_player(live[0])
            return
        if self.phase is Phase.BETTING:
            assert self._actor is not None
            if len(self._able()) < 2:  # FOAK-10: nobody left to bet against; nothing to call, nothing to do
                self._need = {x for x in self._need if self.level > self.stakes[x]}
            if self._actor in self._need:  # another player was to act: it still is
                return
            if self._need:
                self._actor = self._next_clockwise(self._actor + 1, self._need)
                return
            self._end_round()
        self._advance()

    # ---------------------------------------------------------------- chance

    def supply(self, *cards: Card | str) -> None:
        """Give a scripted game the next cards to deal or turn, and continue.

        Raises:
            IllegalActionError: the game is not scripted or not waiting for a card.
            CardError: a malformed card or one not in the deck (checked first).
        """
        if self._deck is not None:
            raise IllegalActionError("this game deals from its own shuffled deck")
        if self.pending_chance is None:
            raise IllegalActionError("no card is needed now")
        parsed = [parse_card(c) for c in cards]
        if len(set(parsed)) != len(parsed) and self.phase is not Phase.DEAL:
            raise CardError("a card cannot be turned twice")
        for c in parsed:
            if c not in self._in_deck:
                raise CardError(f"card {c} is not in the deck")
        self._script = list(reversed(parsed)) + self._script
        self._advance()

    def apply_chance(self, rng: random.Random | None = None) -> DealCard | TurnCard:
        """The due chance step: draw one card uniformly from the undealt cards (the OS
        CSPRNG unless ``rng`` is given; a seeded :class:`random.Random` reproduces),
        deal or turn it, and continue.

        Returns:
            the :class:`DealCard` or :class:`TurnCard` record of that card (a dealt
            duplicate's return and reshuffle follow it in the history).
        Raises:
            IllegalActionError: no chance step is due (a player is to act, the deal
                is over, or the game deals from its own shuffled deck).
        """
        if self.chance_step is None or self._deck is not None:
            raise IllegalActionError(self._no_chance_reason())
        card = (rng or make_rng()).choice(sorted(self._in_deck, key=_card_index))
        start = len(self._history)
        self.supply(card)
        return next(op for op in self._history[start:] if isinstance(op, (DealCard, TurnCard)))

    def _no_chance_reason(self) -> str:
        if self.is_terminal:
            return "no card is dealt or turned: the deal is over"
        if self._actor is not None:
            return f"no card is dealt or turned now: {self.label(self._actor)} is to act"
        return "no card is dealt or turned now: this game deals from its own shuffled deck"

    def _apply_chance_record(self, op: DealCard | TurnCard) -> None:
        """Apply a given dealt or turned card at its chance step (validated first)."""
        step = self.chance_step
        want = "deal" if isinstance(op, DealCard) else "turn"
        if step is None or self._deck is not None:
            raise IllegalActionError(self._no_chance_reason())
        if step != want:
            raise IllegalActionError(f"cannot {want} a card now: the chance step is to {step} one")
        try:
            card = parse_card(op.card)  # a Card, or its text ("9h" and "9♥" are one card)
        except CardError as exc:
            raise IllegalChanceError(f"the card to {want}: {exc}") from None
        if card not in self._in_deck:
            raise IllegalChanceError(f"card {card} is not in the deck (dealt or turned already)")
        if isinstance(op, DealCard):
            to = self._deal_queue[0]
            if op.seat != to:
                who = self.seat_label(op.seat) if isinstance(op.seat, int) else repr(op.seat)
                raise IllegalChanceError(f"the next card is dealt to {self.label(to)}, not {who}")
        else:
            holder = next((s for s in self.active_seats if self.cards[s][0].rank == card.rank), None)
            if op.seat != holder:
                dest = "the discards" if holder is None else self.label(holder)
                raise IllegalChanceError(f"the turned {card} goes to {dest}, not as recorded")
        self.supply(card)

    def _draw(self) -> Card | None:
        if self._deck is not None:
            if not self._deck:
                raise AssertionError("deck exhausted: impossible while an active rank is incomplete")
            card = self._deck.pop()
        else:
            if not self._script:
                return None
            card = self._script[-1]
            if card not in self._in_deck:
                raise CardError(f"card {card} cannot be dealt: it is not in the deck (dealt or turned already)")
            self._script.pop()
        self._in_deck.discard(card)
        return card

    def _put_back(self, seat: int, card: Card) -> None:
        self.cards[seat].remove(card)
        self._in_deck.add(card)
        self._log(ReturnCard(seat, card))
        if self._deck is not None:
            self._deck.append(card)

    def _shuffle(self) -> None:
        if self._deck is not None:
            assert self._rng is not None
            self._rng.shuffle(self._deck)
        self._log(Shuffle())

    def _advance(self) -> None:
        """Run chance events until a player must act, the deal ends, or cards run out (scripted)."""
        while not self.is_terminal and self._actor is None:
            if self.phase is Phase.DEAL:
                if not self._deal_step():
                    return
            else:
                if not self._turn_step():
                    return

    def _deal_step(self) -> bool:
        """Deal one card (seed 000 / seed 001 Article 2). False when no card is available."""
        if not self._deal_queue:
            dup = self._duplicated_seats()
            if dup:  # seed 001 §2.3: every holder of a duplicated rank gets a new card
                for s in dup:
                    self._put_back(s, self.cards[s][0])
                self._shuffle()
                self._deal_queue = dup
                return True
            self._start_round(max(self._deal_order, key=lambda s: self.cards[s][0].rank))  # §3.1
            return True
        seat = self._deal_queue[0]
        card = self._draw()
        if card is None:
            return False
        self.cards[seat].append(card)
        self._log(DealCard(seat, card))
        if self.rules.redeal is Redeal.REPLACE:
            # every card face up counts, a forfeited seat's too (FOAK-17)
            held = {self.cards[s][0].rank for s in range(self.n_seats) if s != seat and self.cards[s]}
            if card.rank in held:  # seed 000: the duplicate goes back, reshuffle, deal again
                self._put_back(seat, card)
                self._shuffle()
                return True
        self._deal_queue.pop(0)
        return True

    def _duplicated_seats(self) -> list[int]:
        """The players still in the deal holding a rank held twice (a forfeited seat's card
        counts, but that seat is dealt nothing more: FOAK-17)."""
        counts: dict[Any, int] = {}
        for s in range(self.n_seats):
            if self.cards[s]:
                r = self.cards[s][0].rank
                counts[r] = counts.get(r, 0) + 1
        return [s for s in self._deal_order if counts[self.cards[s][0].rank] > 1]

    def _turn_step(self) -> bool:
        """Turn one card (seed 001 §3.3-3.5, §4.1). False when no card is available."""
        card = self._draw()
        if card is None:
            return False
        holder = next((s for s in self.active_seats if self.cards[s][0].rank == card.rank), None)
        self._log(TurnCard(card, holder))
        if holder is None:  # §3.3(b), §3.5: matches no active player's rank
            self.discards.append(card)
            return True
        self.cards[holder].append(card)  # §3.3(a)
        if len(self.cards[holder]) == 4:  # §4.1
            self._finish_four(holder)
            return True
        self.phase = Phase.BETTING
        self._start_round(max(self.active_seats,  # §3.4: the highest hand opens
                              key=lambda s: high_key(Holding(self.cards[s][0].rank, len(self.cards[s])))))
        return True

    # --------------------------------------------------------------- betting

    def _able(self) -> list[int]:
        """Active players who can still bet (chips behind)."""
        return [s for s in range(self.n_seats) if self.in_deal[s] and not self.folded[s] and self.stacks[s] > 0]

    def _next_clockwise(self, start: int, among: set[int]) -> int:
        for step in range(self.n_seats):
            s = (start + step) % self.n_seats
            if s in among:
                return s
        raise AssertionError("no seat to act")

    def _start_round(self, opener: int) -> None:
        self.round_number += 1
        self.stakes = [0] * self.n_seats
        self.level = 0
        self.full_wagers = 0
        able = self._able()
        if len(able) < 2:  # nobody to bet against: no betting round
            self.phase = Phase.TURNING
            self._log(BettingRound(self.round_number, opener, skipped=True))
            return
        self.phase = Phase.BETTING
        self._need = set(able)
        self._may_raise = set(able)
        self._log(BettingRound(self.round_number, opener))
        self._actor = self._next_clockwise(opener, self._need)

    def _put_in(self, seat: int, chips: int) -> None:
        assert 0 <= chips <= self.stacks[seat]
        self.stacks[seat] -= chips
        self.stakes[seat] += chips
        self.contributed[seat] += chips

    def _end_round(self) -> None:
        """The round is over; an uncalled bet goes back (its excess over every other seat)."""
        self._actor = None
        self._need = set()
        self._may_raise = set()
        self.phase = Phase.TURNING
        top = max(self.contributed)
        leaders = [s for s in range(self.n_seats) if self.contributed[s] == top]
        if len(leaders) == 1:
            s = leaders[0]
            second = max(c for x, c in enumerate(self.contributed) if x != s)
            excess = top - second
            if excess > 0 and self.live[s]:
                self.contributed[s] -= excess
                self.stakes[s] -= excess
                self.stacks[s] += excess
                self._log(ReturnUncalled(s, excess))
        # the round's bets join the pots: between rounds the pots shown are the whole pot
        self.stakes = [0] * self.n_seats
        self.level = 0
        self.full_wagers = 0

    # ------------------------------------------------------------ settlement

    def _finish_four(self, seat: int) -> None:
        self._log(Finish("four", seat))
        holdings = {s: h for s, h in self.holdings().items()}
        self._award(settle_pots(side_pots(self.contributed, self.live), holdings), "four")

    def _finish_last_player(self, seat: int) -> None:
        """docs/rules.md FOAK-8 (seed 000): all others folded, the last takes the pot at once."""
        self._actor = None
        self._log(Finish("last_player", seat))
        self._award([Award(0, seat, sum(self.contributed), "whole")], "last_player")

    def _award(self, awards: list[Award], reason: str) -> None:
        assert sum(a.amount for a in awards) == sum(self.contributed)
        self.awards = awards
        self.finish_reason = reason
        for a in awards:
            self.stacks[a.seat] += a.amount
            self._log(AwardChips(a.pot, a.seat, a.amount, a.share))
        self.phase = Phase.FINISHED
        self._actor = None
        self._need = set()
        self._may_raise = set()

    def _log(self, op: Op) -> None:
        self._history.append(op)

    # ------------------------------------------------------- observation etc.

    def observation(self, player: int | None = None) -> Observation:
        """What ``player`` sees (``None``: a spectator). Every card is face up, so this
        is the whole table - holdings, discards, stacks, bets, pots, history - but
        never the undealt cards or their order (only their number).

        Raises:
            IllegalActionError: ``player`` is not at this table.
        """
        if player is not None:
            self._check_player(player)
        seat = player
        views = []
        for s in range(self.n_seats):
            if not self.in_deal[s]:
                status = "out"
            elif self.folded[s]:
                status = "folded"
            elif self.stacks[s] == 0 and not self.is_terminal:
                status = "all_in"
            else:
                status = "active"
            views.append(SeatView(s, status, tuple(self.cards[s]), self.stacks[s], self.contributed[s],
                                  self.stakes[s], self.forfeited[s]))
        return Observation(
            seat=seat,
            rules=self.rules,
            phase=self.phase.value,
            button=self.button,
            round_number=self.round_number,
            actor=self._actor,
            seats=tuple(views),
            discards=tuple(self.discards),
            cards_in_deck=len(self._in_deck),
            pot=self.pot,
            pots=tuple(self.side_pots()),
            bet=self.level,
            full_wagers=self.full_wagers,
            legal_actions=tuple(self.legal_actions()) if seat is not None and seat == self._actor else (),
            history=self.history,
            awards=tuple(self.awards),
            payoffs=self.returns() if self.is_terminal else None,
            deal_queue=self.deal_queue,
        )

    def clone(self) -> Game:
        """An independent copy (the same seeded rng state; a CSPRNG is shared)."""
        new = copy.copy(self)
        for name in ("stacks", "in_deal", "folded", "forfeited", "contributed", "stakes", "discards", "awards",
                     "_history", "_deal_order", "_deal_queue", "_script"):
            setattr(new, name, list(getattr(self, name)))
        new.cards = [list(c) for c in self.cards]
        new._need = set(self._need)
        new._may_raise = set(self._may_raise)
        new._in_deck = set(self._in_deck)
        new._deck = None if self._deck is None else list(self._deck)
        if self._rng is not None and type(self._rng) is random.Random:
            r = random.Random()
            r.setstate(self._rng.getstate())
            new._rng = r
        return new

    @classmethod
    def replay(cls, rules: KindRules | None, history: Iterable[Op | Mapping[str, Any]], *,
               seat_labels: Sequence[str] | None = None) -> Game:
        """Replay a deal from its records (or their ``to_dict()`` forms) exactly: the deck
        is given by the dealt and turned cards in order; player actions are re-applied.
        The replayed game deals from a script: at its end it waits at the next chance
        step, if any (:attr:`chance_step`).

        Args:
            rules: the rules the deal was played under (checked against the
                ``start`` record, the preset name aside), or ``None`` to take them
                from the ``start`` record.
            history: the records, ``start`` first.
            seat_labels: name the seats in messages, as for :class:`Game`.

        Raises:
            HistoryError: no ``start`` record first, other rules than ``rules``, a
                malformed record, or the replay differs from the records (a
                tampered or inconsistent history).
            IllegalActionError: a recorded action is illegal, or a record is malformed (a
                void's reason that is not text...; never a ``TypeError``);
                ``IllegalChanceError`` for a dealt or turned card that is neither a
                :class:`Card` nor the text of one, or that cannot come then.
        """
        records = [op if isinstance(op, Op) else op_from_dict(dict(op) if isinstance(op, Mapping) else op)
                   for op in history]
        if not records or not isinstance(records[0], Start):
            raise HistoryError("a hand history must begin with a 'start' record")
        start = records[0]
        try:
            played = KindRules.from_dict(dict(start.rules))
        except (TypeError, ValueError) as exc:  # RulesError included
            raise HistoryError(f"malformed start record: {exc}") from None
        if rules is not None and played.with_(name=rules.name) != rules:
            raise HistoryError(f"the history was played under other rules: {start.rules}")
        for i, op in enumerate(records):  # cards as Card objects ("9h" and "9♥" are one card)
            if isinstance(op, (DealCard, TurnCard, ReturnCard)):
                try:
                    records[i] = dataclasses.replace(op, card=parse_card(op.card))
                except CardError as exc:
                    raise IllegalChanceError(f"record {i}: {exc}") from None
        script = [op.card for op in records if isinstance(op, (DealCard, TurnCard))]
        # a forfeit may come while the deal waits for a card (FOAK-17): the cards recorded after it
        # are given only once it is applied, so that none is dealt or turned before it
        cuts = [*_cards_before_each_forfeit(records), len(script)]
        try:
            game = cls(played, list(start.stacks), start.button, cards=script[:cuts[0]], seat_labels=seat_labels)
        except (RulesError, TypeError) as exc:
            raise HistoryError(f"bad start record: {exc}") from None
        except CardError as exc:  # a recorded card that cannot come then (one dealt twice)
            raise IllegalChanceError(f"the recorded cards: {exc}") from None
        forfeits = 0
        try:
            for i, op in enumerate(records):
                if isinstance(op, Forfeit):
                    game.apply(op)
                    forfeits += 1
                    game._script = list(reversed(script[cuts[forfeits - 1]:cuts[forfeits]])) + game._script
                    game._advance()
                elif isinstance(op, Void):
                    game.apply(op)
                elif isinstance(op, PlayerAction):
                    if game.actor != op.seat:
                        acts = (game.label(op.seat) if isinstance(op.seat, int) and 0 <= op.seat < game.n_seats
                                else f"seat index {op.seat!r}")
                        due = "nobody" if game.actor is None else game.label(game.actor)
                        raise HistoryError(f"record {i}: {acts} acts but {due} is to act")
                    game.apply(Action(op.kind, op.amount))  # type: ignore[arg-type]  # Action checks the kind and amount
        except IllegalActionError:
            raise
        except CardError as exc:  # a recorded card that cannot come then (one dealt twice)
            raise IllegalChanceError(f"the recorded cards: {exc}") from None
        got = game.history
        if len(got) < len(records) or any(a != b for a, b in zip(got, records)):
            for i, (a, b) in enumerate(zip(got, records)):
                if a != b:
                    raise HistoryError(f"history does not replay at record {i}: recorded {b.to_dict()}, "
                                       f"replayed {a.to_dict()}")
            raise HistoryError(f"history does not replay: {len(records)} records, replay gives {len(got)}")
        if len(got) > len(records):
            raise HistoryError(f"history is incomplete: the replay continues past record {len(records) - 1}")
        return game

    @classmethod
    def from_history(cls, history: Iterable[Op | Mapping[str, Any]], *,
                     seat_labels: Sequence[str] | None = None) -> Game:
        """``replay(None, history)``: the rules come from the ``start`` record."""
        return cls.replay(None, history, seat_labels=seat_labels)

    def __repr__(self) -> str:
        return (f"Game(seats={self.n_seats}, phase={self.phase.value}, round={self.round_number}, "
                f"actor={self._actor}, pot={self.pot})")


def _cards_before_each_forfeit(records: Sequence[Op]) -> list[int]:
    """For each :class:`Forfeit` in ``records``, in order, how many cards were dealt or turned before it."""
    cuts, cards = [], 0
    for op in records:
        if isinstance(op, (DealCard, TurnCard)):
            cards += 1
        elif isinstance(op, Forfeit):
            cuts.append(cards)
    return cuts


if TYPE_CHECKING:  # pragma: no cover - mypy checks that the game implements the engine protocol
    def _implements_protocol(g: Game) -> GameState:
        return g
