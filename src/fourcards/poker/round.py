"""One round of Four Card Poker: players 0..n-1 (n = 1-9) against the dealer.

The round is a state machine (seed 002 Articles 2-6, seed 004 "How To Play")
implementing the engine protocol (:class:`fourcards.engine.GameState`):

1. ``WAGERS`` - each player places an ante and/or an Aces Up bet
   (:class:`PlaceWagers`), within the table limits of :class:`PokerRules`, in
   any order (an open phase: :attr:`PokerRound.actor` is ``None``; each
   player's option is in ``legal_actions(player)``). Until the deal a player
   may take its wagers back (:class:`WithdrawWagers`) and place others: wagers
   are placed "before the deal" (seed 002 Article 2) and nothing is at risk yet.
2. :class:`Deal` - the chance step ``"deal"``, open once anyone has wagered:
   five cards to each player with a wager, six to the dealer of which one is
   the up card; drawn by :meth:`PokerRound.apply_chance` from a shuffled deck
   or applied as a given :class:`Deal` record (replays, tests).
3. ``DECISIONS`` - in player order, each player with an ante folds
   (:class:`Fold`) or makes a play bet (:class:`Play`) of 1x-3x the ante
   (``live``) or exactly 1x or 3x (``online``). Players with only an Aces Up
   bet make no decision.
4. ``SETTLED`` - after the last decision the dealer's hand is revealed and
   every wager is settled (:class:`SeatResult`).

:class:`Void` (the host's ruling; seed 004 "Malfunction voids all pays and
plays") ends the round at any point before settlement with every wager
returned. :class:`Forfeit` (docs/rules.md FCP-15: a person leaves, the host removes
a seat) folds an undecided player with an ante out of turn in ``DECISIONS``. Every action is validated before anything changes: an illegal one
raises :class:`~fourcards.errors.IllegalActionError` (a deal with impossible
cards: :class:`~fourcards.errors.IllegalChanceError`) naming the player as
people see it ("seat 4" for player 3) and leaves the round as it was. The
history starts with a :class:`Start` record and holds every applied action;
:meth:`PokerRound.replay` rebuilds the round from it exactly.

Money is whole chips. :meth:`PokerRound.returns` gives each player's net
result; the house's result (:attr:`PokerRound.house_net`) is minus their sum,
so chips are conserved.

The round's parts, one module each (as :mod:`fourcards.kind` has them):
:mod:`~fourcards.poker.actions` (phases, actions, legal options),
:mod:`~fourcards.poker.history` (the records, the deal, their JSON form),
:mod:`~fourcards.poker.results` (each seat's settlement) and
:mod:`~fourcards.poker.observation` (what a player sees); this module holds the
state machine, :class:`PokerRound`, and re-exports their names (``from
fourcards.poker.round import Deal, PokerRound`` keeps working).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fourcards.cards import Card, Deck, check_distinct, make_rng
from fourcards.engine import check_void_reason, seat_label
from fourcards.errors import CardError, HistoryError, IllegalActionError, IllegalChanceError, RulesError
from fourcards.hands import best_hand
from fourcards.poker.actions import (
    ActionKind,
    Fold,
    Forfeit,
    LegalAction,
    Phase,
    PlaceWagers,
    Play,
    Void,
    WithdrawWagers,
    is_chips,
)
from fourcards.poker.history import Action, Deal, Record, Start, action_from_dict, deal_of_cards
from fourcards.poker.observation import PlayerView, PokerObservation
from fourcards.poker.results import SeatResult, describe_result, settle_hand
from fourcards.poker.rules import PokerRules

if TYPE_CHECKING:  # pragma: no cover
    from fourcards.engine import GameState

__all__ = [
    "Phase",
    "ActionKind",
    "Start",
    "PlaceWagers",
    "WithdrawWagers",
    "Deal",
    "Fold",
    "Play",
    "Void",
    "Forfeit",
    "Action",
    "Record",
    "LegalAction",
    "PlayerView",
    "PokerObservation",
    "SeatResult",
    "PokerRound",
    "settle_hand",
    "action_from_dict",
    "describe_result",
]


class PokerRound:
    """One round of Four Card Poker: players against the dealer (see module doc).

    Implements :class:`fourcards.engine.GameState`.

    Args:
        rules: the table's :class:`PokerRules`.
        players: how many players are at the table, 1 to ``rules.max_seats``;
            they are players ``0..players-1`` (people see seats ``1..players``).
        seat_labels: how messages name each player to a person (a table passes its players'
            names); ``None``: ``"seat 1"``, ``"seat 2"``, ...
            (:func:`fourcards.engine.seat_label`; docs/rules.md TP-1), as for Four of a Kind's
            :class:`fourcards.kind.Game`.

    Raises:
        RulesError: a bad number of players, or labels that do not name each player with a
            non-empty text.
    """

    def __init__(self, rules: PokerRules, players: int = 1, *, seat_labels: Sequence[str] | None = None) -> None:
        if not is_chips(players) or not 1 <= players <= rules.max_seats:
            raise RulesError(f"a round has 1 to {rules.max_seats} players, got {players!r}")
        if seat_labels is None:
            labels = tuple(seat_label(p) for p in range(players))
        else:
            labels = tuple(seat_labels)
            if len(labels) != players or not all(isinstance(x, str) and x.strip() for x in labels):
                raise RulesError(f"seat_labels must name each of the {players} players with a non-empty text, "
                                 f"got {seat_labels!r}")
        self.seat_labels: tuple[str, ...] = labels
        self.rules = rules
        self.num_players: int = players
        self.phase = Phase.WAGERS
        self.wagers: dict[int, PlaceWagers] = {}
        self.hands: dict[int, tuple[Card, ...]] = {}
        self.dealer_cards: tuple[Card, ...] = ()
        self.up_card: Card | None = None
        self.decisions: dict[int, Fold | Play | Forfeit] = {}  # a forfeit is a fold (FCP-15)
        self.results: dict[int, SeatResult] = {}
        self.void_reason: str | None = None
        self._history: list[Record] = [Start(players)]

    # ---------------------------------------------------------------- queries

    def seat_label(self, player: int) -> str:
        """``player`` as people see it: its ``seat_labels`` entry, by default ``"seat 4"`` for
        player 3 (:func:`fourcards.engine.seat_label`, also for an index off the table)."""
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.num_players:
            return self.seat_labels[player]
        return seat_label(player)

    @property
    def history(self) -> tuple[Record, ...]:
        """The :class:`Start` record, then every applied action in order (the deal included)."""
        return tuple(self._history)

    @property
    def is_terminal(self) -> bool:
        """Whether the round is over: settled or voided (no action is legal any more)."""
        return self.phase in (Phase.SETTLED, Phase.VOIDED)

    @property
    def deciding_players(self) -> tuple[int, ...]:
        """Players with an ante, in order: the ones that fold or play."""
        return tuple(sorted(p for p, w in self.wagers.items() if w.ante > 0))

    @property
    def actor(self) -> int | None:
        """The player whose decision is due (player order), or ``None`` outside ``DECISIONS``
        (the wagers are open to every player at once)."""
        if self.phase is not Phase.DECISIONS:
            return None
        return min((p for p, w in self.wagers.items() if w.ante > 0 and p not in self.decisions), default=None)

    @property
    def chance_step(self) -> str | None:
        """``"deal"`` while the deal may be made (wagers phase, someone has wagered), else ``None``."""
        return "deal" if self.phase is Phase.WAGERS and self.wagers else None

    def play_amounts(self, player: int) -> Sequence[int]:
        """The legal play bets of ``player`` in chips, increasing (:meth:`PokerRules.play_amounts`:
        a ``range`` when any whole amount is allowed - never a list as long as the range, which
        the table's limits decide - or the fixed amounts as a tuple)."""
        return self.rules.play_amounts(self.wagers[player].ante)

    def legal_actions(self, player: int | None = None) -> list[LegalAction]:
        """What may be done now: every option (``player=None``) or ``player``'s own.

        In ``WAGERS``: ``place_wagers`` for each player without wagers (with the ante
        and Aces Up limits), ``withdraw_wagers`` for each player with wagers; in ``DECISIONS``: ``fold`` and ``play`` (bounds in chips
        and, for fixed multiples, the ``amounts``) for the :attr:`actor`; ``void``
        (the host's ruling, no player) until the round is over. The deal is a chance
        step, not an option: see :attr:`chance_step`.

        Raises:
            IllegalActionError: ``player`` is not at this table.
        """
        if player is not None:
            self._check_player(player)
        r = self.rules
        out: list[LegalAction] = []
        if self.phase is Phase.WAGERS:
            out += [LegalAction(ActionKind.PLACE_WAGERS, p, r.min_ante, r.max_ante, None,
                                r.min_aces_up, r.max_aces_up) if p not in self.wagers
                    else LegalAction(ActionKind.WITHDRAW_WAGERS, p)
                    for p in (range(self.num_players) if player is None else (player,))]
        elif self.phase is Phase.DECISIONS:
            actor = self.actor
            if actor is not None and player in (None, actor):
                amounts = self.play_amounts(actor)
                out.append(LegalAction(ActionKind.FOLD, actor))
                out.append(LegalAction(ActionKind.PLAY, actor, amounts[0], amounts[-1],
                                       None if r.play_any_amount else tuple(amounts)))
        if player is not None:
            return out
        if not self.is_terminal:
            out.append(LegalAction(ActionKind.VOID))
        return out

    def returns(self) -> tuple[int, ...]:
        """Each player's net chips from the settlement (0 without wagers); all zeros
        until the round is settled, and for a voided round."""
        if self.phase is not Phase.SETTLED:
            return (0,) * self.num_players
        return tuple(self.results[p].net if p in self.results else 0 for p in range(self.num_players))

    @property
    def house_net(self) -> int:
        """The house's net result in chips: minus the sum of the players' :meth:`returns`."""
        return -sum(self.returns())

    def observation(self, player: int | None = None) -> PokerObservation:
        """What ``player`` may see (``None``: a spectator); see :class:`PokerObservation`.

        Raises:
            IllegalActionError: ``player`` is not at this table.
        """
        if player is not None:
            self._check_player(player)
        showdown = self.phase is Phase.SETTLED
        views, shown, history, dealer_hand = self._public_seen()
        if player is not None and player in self.hands and views[player].cards is None:
            # the one place a player sees differently from a spectator: its own hand
            views = (*views[:player], self._player_view(player, player), *views[player + 1:])
            mine = sorted([*shown, player])
            history = tuple(r.seen_by(mine, showdown) if isinstance(r, Deal) else r for r in self._history)
        return PokerObservation(
            player=player, rules=self.rules, phase=self.phase, actor=self.actor, chance_step=self.chance_step,
            up_card=self.up_card,
            dealer_cards=self.dealer_cards if showdown else None,
            dealer_hand=dealer_hand,
            players=views,
            legal_actions=tuple(self.legal_actions(player)) if player is not None else (),
            void_reason=self.void_reason,
            history=history,
        )

    #: The spectator's part of :meth:`observation` and the history length it is of (see there).
    _public: tuple[int, tuple[PlayerView, ...], tuple[int, ...], tuple[Record, ...], Any] | None = None

    def _public_seen(self) -> tuple[tuple[PlayerView, ...], tuple[int, ...], tuple[Record, ...], Any]:
        """What a spectator sees - every player's place, the players whose hands are shown, the
        history as shown, the dealer's best four at showdown - kept until the next action (every
        change of a round appends to its history; a clone shares it until it changes)."""
        memo = self._public
        if memo is None or memo[0] != len(self._history):
            showdown = self.phase is Phase.SETTLED
            views = tuple(self._player_view(p) for p in range(self.num_players))
            shown = tuple(v.player for v in views if v.cards is not None)
            history = tuple(r.seen_by(shown, showdown) if isinstance(r, Deal) else r for r in self._history)
            dealer_hand = best_hand(self.dealer_cards)[0] if showdown else None
            memo = self._public = (len(self._history), views, shown, history, dealer_hand)
        return memo[1], memo[2], memo[3], memo[4]

    def _player_view(self, p: int, observer: int | None = None) -> PlayerView:
        """Player ``p``'s place as ``observer`` (``None``: a spectator) may see it (an entry of
        :meth:`observation`'s ``players``)."""
        showdown = self.phase is Phase.SETTLED
        w = self.wagers.get(p)
        d = self.decisions.get(p)
        visible = p in self.hands and (p == observer or (showdown and not isinstance(d, (Fold, Forfeit))))
        res = self.results.get(p) if showdown else None
        if res is not None and not visible:
            res = res.without_hand()
        return PlayerView(p, w.ante if w else 0, w.aces_up if w else 0,
                          None if d is None else ("play" if isinstance(d, Play) else "fold"),
                          d.amount if isinstance(d, Play) else 0,
                          self.hands[p] if visible else None, res, isinstance(d, Forfeit))

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action) -> None:
        """Apply an action or the :class:`Deal` record; validate fully first, so a refused
        action changes nothing.

        A :class:`Forfeit` folds its player out of turn (docs/rules.md FCP-15; see
        :meth:`_check_forfeit`); if that player was to act, the next undecided player acts,
        and with nobody left to decide the showdown follows.

        Raises:
            IllegalActionError: wrong phase, out of turn, a player not at the table,
                an amount outside the rules or table limits, after the end; a forfeit
                that has nothing to forfeit.
            IllegalChanceError: a deal with impossible cards (also a ``CardError``): a card
                that is neither a :class:`Card` nor text that parses to one (the deal is
                recorded with the parsed cards: ``"9h"`` and ``"9♥"`` are one card), a card
                twice, the wrong number. A malformed record of any kind is an
                ``IllegalActionError``, never a ``TypeError``; a void's reason must be text
                (:func:`fourcards.engine.check_void_reason`).
        """
        if isinstance(action, PlaceWagers):
            self._check_wagers(action)
            self.wagers[action.player] = action
        elif isinstance(action, WithdrawWagers):
            self._check_player(action.player)
            who = self.seat_label(action.player)
            self._check_phase(Phase.WAGERS, f"take back the wagers of {who}")
            if action.player not in self.wagers:
                raise IllegalActionError(f"{who} has no wagers to take back")
            del self.wagers[action.player]
        elif isinstance(action, Deal):
            action = self._check_deal(action)
            assert action.dealer is not None
            self.hands = {p: h for p, h in action.hands if h is not None}
            self.dealer_cards = action.dealer
            self.up_card = action.up_card
            self.phase = Phase.DECISIONS
        elif isinstance(action, (Fold, Play)):
            self._check_decision(action)
            self.decisions[action.player] = action
        elif isinstance(action, Forfeit):
            self._check_forfeit(action)
            self.decisions[action.player] = action
        elif isinstance(action, Void):
            check_void_reason(action.reason)
            if self.is_terminal:
                raise IllegalActionError(f"the round is already {self.phase.value}; it cannot be voided")
            self.phase = Phase.VOIDED
            self.void_reason = action.reason
        elif isinstance(action, Start):
            raise IllegalActionError("a start record opens a history; it is not an action (see replay)")
        else:
            raise IllegalActionError(f"unknown action {action!r}")
        self._history.append(action)
        if self.phase is Phase.DECISIONS and self.actor is None:
            self._showdown()

    def apply_chance(self, rng: random.Random | None = None) -> Deal:
        """The chance step ``"deal"``: shuffle a fresh deck (the OS CSPRNG unless ``rng``
        is given; a seeded :class:`random.Random` reproduces) and deal.

        Returns:
            the :class:`Deal` recorded in the history.
        Raises:
            IllegalActionError: not in the wagers phase, or nobody has wagered.
        """
        self._check_phase(Phase.WAGERS, "deal")
        if not self.wagers:
            raise IllegalActionError("cannot deal: no seat has placed a wager")
        deck = Deck(rng or make_rng())
        hands = tuple((p, tuple(deck.deal(5))) for p in range(self.num_players) if p in self.wagers)
        dealer = tuple(deck.deal(6))
        action = Deal(hands, dealer, dealer[-1])
        self.apply(action)
        return action

    def deal(self, rng: random.Random | None = None) -> Deal:
        """Same as :meth:`apply_chance`."""
        return self.apply_chance(rng)

    def place_wagers(self, player: int, ante: int, aces_up: int = 0) -> None:
        """Shortcut for ``apply(PlaceWagers(player, ante, aces_up))``."""
        self.apply(PlaceWagers(player, ante, aces_up))

    def fold(self, player: int) -> None:
        """Shortcut for ``apply(Fold(player))``."""
        self.apply(Fold(player))

    def play(self, player: int, amount: int) -> None:
        """Shortcut for ``apply(Play(player, amount))``."""
        self.apply(Play(player, amount))

    def forfeit(self, player: int) -> None:
        """Shortcut for ``apply(Forfeit(player))`` (docs/rules.md FCP-15)."""
        self.apply(Forfeit(player))

    def void(self, reason: str = "host ruling") -> None:
        """Void the round: every wager returned, every return 0 (seed 004)."""
        self.apply(Void(reason))

    def clone(self) -> PokerRound:
        """An independent copy: the containers are copied, the frozen records shared."""
        new = object.__new__(PokerRound)
        new.__dict__.update(self.__dict__)
        new.wagers = dict(self.wagers)
        new.hands = dict(self.hands)
        new.decisions = dict(self.decisions)
        new.results = dict(self.results)
        new._history = list(self._history)
        return new

    @classmethod
    def replay(cls, rules: PokerRules, history: Iterable[Record | Mapping[str, Any]], *,
               players: int | None = None, seat_labels: Sequence[str] | None = None) -> PokerRound:
        """Rebuild a round from ``history`` (records or their ``to_dict()`` forms, legacy ones included).

        The :class:`Start` record gives the number of players; a history without
        one (records stored before the engine protocol) needs ``players``. ``seat_labels``: as
        for a new round.

        Raises:
            HistoryError: no start record and no ``players``, a start record
                elsewhere or disagreeing with ``players``, a record's JSON form that is
                no record.
            IllegalActionError: a recorded action is illegal, or a record object is
                malformed (never a ``TypeError``); ``IllegalChanceError`` for a deal
                whose cards are not cards or cannot be dealt.
        """
        records: list[Any] = []
        for i, item in enumerate(history):
            if isinstance(item, Mapping):
                try:
                    item = action_from_dict(item)
                except CardError as exc:
                    if isinstance(exc, IllegalChanceError):
                        raise
                    raise IllegalChanceError(f"record {i + 1}: {exc}") from None
            records.append(item)
        if records and isinstance(records[0], Start):
            start = records.pop(0)
            assert isinstance(start, Start)
            if players is not None and players != start.players:
                raise HistoryError(f"the history is of {start.players} players, not {players}")
            players = start.players
        if players is None:
            raise HistoryError("a history without a start record needs the number of players (players=n)")
        try:
            rnd = cls(rules, players, seat_labels=seat_labels)
        except RulesError as exc:
            raise HistoryError(f"bad start record: {exc}") from None
        for i, rec in enumerate(records):
            if isinstance(rec, Start):
                raise HistoryError(f"record {i + 1}: a start record can only come first")
            rnd.apply(rec)
        return rnd

    # -------------------------------------------------------------- internals

    def _check_phase(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"cannot {what}: the round is in the {self.phase.value} phase")

    def _check_player(self, player: object) -> None:
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.num_players:
            return
        who = seat_label(player) if isinstance(player, int) else f"player {player!r}"
        raise IllegalActionError(f"{who} is not at this table (seats 1-{self.num_players})")

    def _check_wagers(self, a: PlaceWagers) -> None:
        r = self.rules
        self._check_player(a.player)
        who = self.seat_label(a.player)
        self._check_phase(Phase.WAGERS, f"place wagers for {who}")
        if a.player in self.wagers:
            raise IllegalActionError(f"{who} has already placed its wagers")
        for name, v in (("ante", a.ante), ("Aces Up", a.aces_up)):
            if not is_chips(v) or v < 0:
                raise IllegalActionError(f"{who}: the {name} must be a whole number of chips >= 0, got {v!r}")
        if a.ante == 0 and a.aces_up == 0:
            raise IllegalActionError(f"{who}: place an ante, an Aces Up bet, or both")
        if a.ante and not r.min_ante <= a.ante <= r.max_ante:
            raise IllegalActionError(f"{who}: ante {a.ante} is outside the table limits {r.min_ante}-{r.max_ante}")
        if a.aces_up:
            if not r.min_aces_up <= a.aces_up <= r.max_aces_up:
                raise IllegalActionError(
                    f"{who}: Aces Up bet {a.aces_up} is outside the table limits "
                    f"{r.min_aces_up}-{r.max_aces_up}")
            if a.ante == 0 and r.aces_up_requires_ante:
                raise IllegalActionError(f"{who}: under the {r.name} rules the Aces Up bet needs an ante")

    def _check_deal(self, given: Deal) -> Deal:
        """``given`` checked in full, its cards as :class:`Card` objects (text parsed: ``"9h"``
        and ``"9♥"`` are one card): the record to apply. Raises ``IllegalActionError`` for a
        malformed record, ``IllegalChanceError`` for cards that cannot be dealt now."""
        self._check_phase(Phase.WAGERS, "deal")
        if not self.wagers:
            raise IllegalActionError("cannot deal: no seat has placed a wager")
        d = deal_of_cards(given)
        dealt = [p for p, _ in d.hands]
        if sorted(dealt) != sorted(self.wagers):
            raise IllegalChanceError(
                "the deal must give cards to exactly the seats with wagers "
                f"({', '.join(self.seat_label(p) for p in sorted(self.wagers))}), "
                f"got {', '.join(self.seat_label(p) for p in dealt) or 'none'}")
        if d.dealer is None or any(h is None for _, h in d.hands):
            raise IllegalChanceError("a deal with hidden cards (a player's view of it) cannot be applied")
        for p, h in d.hands:
            if h is None or len(h) != 5:
                raise IllegalChanceError(f"{self.seat_label(p)} must get 5 cards, got {len(h or ())}")
        if len(d.dealer) != 6:
            raise IllegalChanceError(f"the dealer must get 6 cards, got {len(d.dealer)}")
        if d.up_card not in d.dealer:
            raise IllegalChanceError(f"the up card {d.up_card} is not one of the dealer's cards")
        try:
            check_distinct(d.dealer, *(h for _, h in d.hands if h is not None))
        except CardError as exc:
            raise IllegalChanceError(str(exc)) from None
        return d

    def _check_decision(self, a: Fold | Play) -> None:
        self._check_player(a.player)
        who = self.seat_label(a.player)
        what = "fold" if isinstance(a, Fold) else f"play {a.amount!r}"
        self._check_phase(Phase.DECISIONS, f"{what} for {who}")
        if a.player not in self.deciding_players:
            raise IllegalActionError(f"{who} has no ante, so it has no decision to make")
        if a.player in self.decisions:
            raise IllegalActionError(f"{who} has already decided")
        if a.player != self.actor:
            assert self.actor is not None
            raise IllegalActionError(f"{who} cannot act out of turn: {self.seat_label(self.actor)} decides first")
        if isinstance(a, Play):
            ante = self.wagers[a.player].ante
            if not is_chips(a.amount) or not self.rules.play_amount_allowed(ante, a.amount):
                raise IllegalActionError(
                    f"{who}: play bet {a.amount!r} is not allowed on an ante of {ante}: "
                    f"the play bet must be {self.rules.describe_play_bets(ante)}")

    def _check_forfeit(self, a: Forfeit) -> None:
        """docs/rules.md FCP-15: only an undecided player with an ante forfeits, in ``DECISIONS``."""
        self._check_player(a.player)
        who = self.seat_label(a.player)
        if self.is_terminal:
            raise IllegalActionError(f"{who} cannot forfeit: the round is already {self.phase.value}")
        if self.phase is Phase.WAGERS:
            raise IllegalActionError(f"{who} cannot forfeit before the deal: nothing is at risk yet "
                                     "(take the wagers back with withdraw_wagers)")
        w = self.wagers.get(a.player)
        if w is None:
            raise IllegalActionError(f"{who} cannot forfeit: it has no wagers in this round")
        if w.ante == 0:
            raise IllegalActionError(f"{who} cannot forfeit: it has only an Aces Up bet, which is settled on "
                                     "its hand (nothing to forfeit)")
        d = self.decisions.get(a.player)
        if d is not None:
            how = "played" if isinstance(d, Play) else "forfeited" if isinstance(d, Forfeit) else "folded"
            raise IllegalActionError(f"{who} cannot forfeit: it has already {how}; its wagers are settled "
                                     "at the showdown")

    def _showdown(self) -> None:
        for p in range(self.num_players):
            if p not in self.wagers:
                continue
            w = self.wagers[p]
            d = self.decisions.get(p)
            self.results[p] = settle_hand(
                self.rules, self.hands[p], self.dealer_cards, ante=w.ante,
                play=d.amount if isinstance(d, Play) else None, aces_up=w.aces_up, player=p)
        self.phase = Phase.SETTLED

    def __repr__(self) -> str:
        return f"PokerRound({self.rules.name!r}, players={self.num_players}, phase={self.phase.value})"


if TYPE_CHECKING:  # pragma: no cover - mypy checks that the round implements the engine protocol
    def _implements_protocol(r: PokerRound) -> GameState:
        return r
