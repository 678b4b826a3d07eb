"""The two games at a web table (:class:`~fourcards.web.tables.TableGame`), through the
engine protocol and each engine's public classes (rules, actions, void, observations).

* :class:`PokerGame` - Four Card Poker against the house: player ``p`` sits at table
  seat ``p + 1``; a round opens with the first wager; on the host's deal the bots
  place their ``bot_ante`` and the cards are dealt; escrow ``bets``, the ``house``
  pays or takes each return.
* :class:`KindGame` - Four of a Kind: the host's deal seats every player with chips
  for the ante (stacks = balances), the button rotates; every card is a chance step
  drawn at once - or, at a table dealt with real cards (``"dealing": "table"``), entered
  by the host (docs/rules.md FOAK-14, FOAK-15); escrow ``pot``, which pays the awards.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, cast

from fourcards.cards import Rank, parse_card, read_cards
from fourcards.engine import GameState, LegalAction
from fourcards.errors import FourcardsError
from fourcards.kind import PRESETS as KIND_PRESETS
from fourcards.kind import (
    Action,
    ActionKind,
    DealCard,
    Game,
    KindRules,
    Observation,
    TurnCard,
    Void,
    exact_odds,
    next_button,
)
from fourcards.kind import get_rules as get_kind_rules
from fourcards.poker.round import (
    Fold,
    PlaceWagers,
    Play,
    PokerObservation,
    PokerRound,
    WithdrawWagers,
    describe_result,
)
from fourcards.poker.round import Void as PokerVoid
from fourcards.poker.rules import PokerRules, get_rules, parse_aces_up, parse_ante_bonus
from fourcards.store import MAX_AMOUNT
from fourcards.web.players import advise, kind_bot_names, kind_move, poker_bot_names, poker_play
from fourcards.web.schemas import ActionIn, CreateTable
from fourcards.web.tables import ApiError, SeatInfo, TableGame

__all__ = ["PokerGame", "KindGame", "GAMES", "new_table_rules"]


_VERBS = {"check": "checks", "bet": "bets", "call": "calls", "raise": "raises", "fold": "folds"}


def _pretty(card: Any) -> str:
    """A card as the table page writes it: rank and suit symbol, a ten as "10" ("10\u2665")."""
    pretty = parse_card(str(card)).pretty
    return "10" + pretty[1:] if pretty.startswith("T") else pretty


def new_table_rules(req: CreateTable) -> tuple[type[PokerGame] | type[KindGame], Any, dict[str, Any]]:
    """The game, rules and settings of a new table: a preset plus custom fields, the
    starting chips checked against the rules.

    Raises:
        ApiError: 422 for an unknown preset, a field of the other game, invalid rules
            (the engine's message), chips that do not cover the rules, or too many bots.
    """
    game = GAMES[req.game]
    given = {k: v for k, v in req.rules.model_dump().items() if v is not None}
    wrong = [k for k in given if k not in game.rules_fields]
    if wrong:
        raise ApiError(422, f"rules field(s) {', '.join(wrong)} do not apply to {game.title}")
    try:
        rules: Any = game.build_rules(req.preset, given)
    except (FourcardsError, TypeError) as exc:
        raise ApiError(422, str(exc)) from None
    game.check_storable(rules)
    settings = game.settings(rules, req)
    by_hand = settings.get("dealing") == "table"  # real cards: real people, no bots or clock unless asked
    bots = (0 if by_hand else game.default_bots(rules)) if req.bots is None else req.bots
    if bots + 1 > game.max_seats(rules):
        raise ApiError(422, f"bots: at most {game.max_seats(rules) - 1} bots fit with the host at this table")
    settings["turn_clock"] = (0 if by_hand else game.default_clock) if req.turn_clock is None else req.turn_clock
    settings["seat_approval"] = (not req.public) if req.seat_approval is None else req.seat_approval
    settings["bots"] = bots
    return game, rules, settings


# =====================================================================
# Four Card Poker
# =====================================================================


class PokerGame(TableGame):
    """Four Card Poker at a table (see the module doc); keeps the trainer's advice per seat."""

    game = "poker"
    title = "Four Card Poker"
    escrow = "bets"
    house = "house"
    action_kinds = ("wager", "withdraw", "fold", "play")
    auto_chance = False
    default_bot = "simple"
    word = "Round"
    default_clock = 0  # against the house nobody waits on a neighbour (DESIGN.md "Table play")
    rules_fields = ("ante_bonus", "aces_up", "min_ante", "max_ante", "min_aces_up", "max_aces_up", "win_cap")

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.trainer: dict[int, dict[str, Any]] = {}

    # ------------------------------------------------------------ rules

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> PokerRules:
        """A preset (default ``live``) with named pay tables and custom fields (:data:`rules_fields`).

        Raises:
            RulesError: an unknown preset or invalid rules.
        """
        rules = get_rules("live" if preset is None else preset, ante_bonus=given.pop("ante_bonus", None), aces_up=given.pop("aces_up", None))
        if given:
            name = rules.name if rules.name.endswith("custom") else f"{rules.name}+custom"
            rules = dataclasses.replace(rules, name=name, **given)
        return rules

    @staticmethod
    def rules_from_dict(d: dict[str, Any]) -> PokerRules:
        """Inverse of :meth:`PokerRules.to_dict` (pay tables as ``"25/20/2"`` text).

        Raises:
            RulesError: invalid values.
        """
        known = {f.name for f in dataclasses.fields(PokerRules)}
        kwargs = {k: v for k, v in d.items() if k in known}
        kwargs["ante_bonus"] = parse_ante_bonus(str(d["ante_bonus"]))
        kwargs["aces_up"] = parse_aces_up(str(d["aces_up"]))
        kwargs["play_multiples"] = tuple(d.get("play_multiples", (1, 2, 3)))
        return PokerRules(**kwargs)

    @staticmethod
    def check_storable(rules: PokerRules) -> None:
        """Refuse Four Card Poker rules under which some settlement could not be stored.

        At the table's limits a seat stakes at most ``rules.largest_stake`` and wins
        at most ``rules.largest_win`` chips a round; its settlement writes ledger
        entries of up to their sum, and the house's result of a round adds up to
        ``rules.max_seats`` such seats. All of it must fit in a ledger entry
        (:data:`fourcards.store.MAX_AMOUNT`), else a winning hand could not be
        written. Checked when a table is created, before anything is stored.

        Raises:
            ApiError: 422 naming the largest settlement and the bound.
        """
        per_seat = rules.largest_stake + rules.largest_win
        largest = rules.max_seats * per_seat
        if largest > MAX_AMOUNT:
            raise ApiError(422, f"rules: a round could settle {largest:,} chips ({rules.max_seats} seats staking up "
                                f"to {rules.largest_stake:,} and winning up to {rules.largest_win:,} each), which "
                                f"cannot be stored: the ledger holds at most {MAX_AMOUNT:,} chips per entry - "
                                "lower the pays, the table limits or the win cap")

    @staticmethod
    def settings(rules: PokerRules, req: CreateTable) -> dict[str, Any]:
        """``starting_chips`` and the bots' ante (``bot_ante``, chips) of a new table.

        A seat must afford the minimum ante; bots their ante plus the smallest play bet
        (else they could only fold). With no ``bot_ante``: 10 chips, brought within the
        ante limits and lowered to what the buy-in affords.

        Raises:
            ApiError: 422 naming ``starting_chips`` or ``bot_ante``.
        """
        if req.dealing is not None:
            raise ApiError(422, "dealing applies to Four of a Kind tables only (Four Card Poker deals from the "
                                "server's shuffled deck)")
        lo, hi, chips, ante = rules.min_ante, rules.max_ante, req.starting_chips, req.bot_ante
        need = 1 + min(rules.decision_multiples)  # the ante and the smallest play bet, in antes
        if chips < lo:
            raise ApiError(422, f"starting_chips: {chips} chips do not cover this table's minimum ante of {lo}")
        if ante is None:
            ante = max(lo, min(10, hi, chips // need))
        elif not lo <= ante <= hi:
            raise ApiError(422, f"bot_ante: {ante} is outside this table's ante limits {lo}-{hi} ({rules.name} rules)")
        elif ante * need > chips:
            raise ApiError(422, f"bot_ante: bots need {ante * need} chips for an ante of {ante} and a play bet "
                                f"of at least {ante * (need - 1)}, but starting_chips is {chips}")
        return {"starting_chips": chips, "bot_ante": ante}

    @staticmethod
    def max_seats(rules: Any) -> int:
        """``rules.max_seats`` (1-9)."""
        return int(rules.max_seats)

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Bots of a new table when the host asks for none in particular: none."""
        return 0

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The bots a table offers: the built-in strategies, then plug-ins (:func:`fourcards.web.players.poker_bot_names`)."""
        return poker_bot_names()

    # ------------------------------------------------------------ deals

    def fresh(self) -> tuple[GameState, list[int]]:
        """The next round: every seat may wager (player ``p`` = seat ``p + 1``)."""
        n = self.table.rules.max_seats
        return PokerRound(self.table.rules, n), list(range(1, n + 1))

    def replay(self, records: Sequence[dict[str, Any]], seats: dict[str, Any] | None = None) -> GameState:
        """The round of stored records (stored without the start record; legacy ones too).
        ``seats`` is not needed: the round's messages say "seat N"."""
        fresh, _ = self.fresh()
        return PokerRound.replay(self.table.rules, [*fresh.history, *records])

    def _seen(self, state: GameState | None, player: int | None) -> PokerObservation:
        assert state is not None
        return cast(PokerObservation, state.observation(player))

    @property
    def bot_ante(self) -> int:
        """The bots' ante in chips: the ``bot_ante`` setting (default 10) within the ante limits."""
        r = self.table.rules
        return max(r.min_ante, min(int(self.table.settings.get("bot_ante") or 10), r.max_ante))

    async def start(self) -> None:
        """The bots place their ante, then the cards are dealt (the OS CSPRNG)."""
        t = self.table
        if self._seen(t.state, None).phase.value != "wagers":
            raise ApiError(409, "the cards are already out")
        for s, p in sorted(t.players.items()):
            assert t.state is not None
            if p.is_bot and p.balance >= self.bot_ante and t.state.legal_actions(s - 1):
                await t.apply(p, PlaceWagers(s - 1, self.bot_ante, 0))
        assert t.state is not None
        if t.state.chance_step != "deal":
            raise ApiError(409, "cannot deal: no seat has placed a wager")
        new = t.state.clone()
        new.apply_chance()
        await t.advance(new, None)

    def action(self, request: ActionIn, player: int, seen: PokerObservation) -> Any:
        """``wager`` (ante, Aces Up), ``fold`` or ``play`` (the play bet) of ``player``."""
        if request.kind in ("wager", "withdraw") and seen.phase.value != "wagers":
            raise ApiError(409, "wagers are closed: the cards are out; wait for the next round")
        if request.kind == "withdraw":
            return WithdrawWagers(player)
        if request.kind == "wager":
            ante, aces_up = request.ante or 0, request.aces_up or 0
            seat = self.table.seat_at(player)
            rules = self.table.rules
            if seat is not None and ante and rules.min_ante <= ante <= rules.max_ante:
                play = rules.play_amounts(ante)[0]
                if ante + aces_up + play > seat.balance:
                    raise ApiError(409, f"an ante of {ante} leaves no chips for the play bet: with {seat.balance} "
                                        f"chips, the ante{' and Aces Up' if aces_up else ''} ({ante + aces_up}) "
                                        f"and the smallest play bet ({play}) need {ante + aces_up + play}; "
                                        f"ante at most {self.ante_max(seat.balance, aces_up)}")
            return PlaceWagers(player, ante, aces_up)
        if request.kind == "play":
            if request.amount is None:
                raise ApiError(422, "a play bet needs an amount (chips)")
            return Play(player, request.amount)
        if request.amount:
            raise ApiError(422, "a fold takes no amount")
        return Fold(player)

    def ante_max(self, balance: int, aces_up: int = 0) -> int:
        """The largest ante a seat of ``balance`` chips may place beside ``aces_up``: the ante, the
        Aces Up bet and the smallest play bet must all be covered (else the seat could only fold
        - refused, docs/web.md), within the table's limits (0: none)."""
        r = self.table.rules
        need = 1 + min(r.decision_multiples)
        return max(0, min(r.max_ante, (balance - aces_up) // need))

    def withdraw(self, player: int, seen: PokerObservation) -> Any | None:
        """The player's wagers taken back, before the deal."""
        me = seen.players[player]
        return WithdrawWagers(player) if seen.phase.value == "wagers" and (me.ante or me.aces_up) else None

    def dealt_in(self, player: int, seen: PokerObservation) -> bool:
        """Whether the player has wagers on the layout."""
        me = seen.players[player]
        return bool(me.ante or me.aces_up or me.play)

    def void(self, reason: str) -> Any:
        """The round's :class:`~fourcards.poker.round.Void`."""
        return PokerVoid(reason)

    def stakes(self, seen: PokerObservation) -> list[int]:
        """Each player's ante, Aces Up and play bet together."""
        return [v.ante + v.aces_up + v.play for v in seen.players]

    def result(self, state: GameState) -> dict[str, Any]:
        """Each seat's settlement (its own view: a folded hand included), the dealer's cards, the house's net."""
        spectator = self._seen(state, None)
        seats = {}
        for v in spectator.players:
            seat = self.table.players.get(v.player + 1)
            if v.result is not None and seat is not None:
                own = self._seen(state, v.player).players[v.player].result
                assert own is not None
                seats[str(v.player + 1)] = {"player_id": seat.player_id, "name": seat.name, **own.to_dict()}
        return {"seats": seats, "dealer_cards": [str(c) for c in spectator.dealer_cards or ()],
                "house_net": -sum(state.returns())}

    def published_result(self, result: Any, seen: PokerObservation) -> Any:
        """The result with the hands the viewer may not see (folded ones) hidden."""
        for key, entry in ((result or {}).get("seats") or {}).items():
            view = seen.players[int(key) - 1].result
            if view is not None and view.player_hand is None:
                entry["player_hand"] = None
        return result

    def deal_seats(self, order: Sequence[int]) -> dict[str, int]:
        """Table seat -> player id of every seated player."""
        return {str(s): p.player_id for s, p in sorted(self.table.players.items())}

    def deal_player(self, seats: dict[str, Any], player_id: int) -> int | None:
        """The seat's player (seat - 1)."""
        return next((int(k) - 1 for k, v in seats.items() if v == player_id), None)

    def order(self, seats: dict[str, Any]) -> list[int]:
        """Player ``p`` plays at table seat ``p + 1``, in every round."""
        return list(range(1, self.table.rules.max_seats + 1))

    def log_lines(self, records: list[dict[str, Any]], state: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """Wagers (and wagers taken back), the up card, decisions and the showdown."""
        lines = []
        for r in records:
            k = r["kind"]
            who = name(r["player"]) if "player" in r else ""
            if k == "place_wagers":
                parts = ([f"ante {r['ante']}"] if r["ante"] else []) + ([f"Aces Up {r['aces_up']}"] if r["aces_up"] else [])
                lines.append(f"{who} bets {' and '.join(parts)}")
            elif k == "withdraw_wagers":
                lines.append(f"{who} takes back their wagers")
            elif k == "deal":
                lines.append(f"Round {number}: cards are dealt; the dealer's up card is {_pretty(r['up_card'])}")
            elif k in ("fold", "play"):
                lines.append(f"{who} " + (f"plays {r['amount']}" if k == "play" else "folds"))
        seen = self._seen(state, None)
        if seen.phase.value == "settled":
            dealer = " ".join(_pretty(c) for c in seen.dealer_cards or ())
            lines.append(f"Showdown: the dealer shows {dealer} - {seen.dealer_hand.describe() if seen.dealer_hand else ''}")
            lines += [f"{name(v.player)}: {describe_result(v.result)}"
                      for v in seen.players if v.result is not None]
        return lines

    def opened(self) -> None:
        """A new round: last round's advice goes."""
        self.trainer.clear()

    def can_deal(self) -> bool:
        """In the wagers phase once someone has wagers on the layout, or a bot will."""
        t = self.table
        return self._seen(t.state, None).phase.value == "wagers" and (
            t.state is not None and t.state.chance_step == "deal" or any(p.is_bot for p in t.players.values()))

    def bot_move(self, seat: SeatInfo, seen: PokerObservation, options: Sequence[LegalAction]) -> Any:
        """The bot's strategy (``seat.bot_kind``, default ``simple``): a play bet or a fold."""
        me = seen.players[seen.player or 0]
        play = next((o for o in options if o.kind.value == "play"), None)
        amount = None if play is None or seen.up_card is None else poker_play(
            seat.bot_kind or self.default_bot, self.table.rules, me.cards or (), seen.up_card, me.ante, play,
            seat.balance)
        return Fold(me.player) if amount is None else Play(me.player, amount)

    def acted(self, seat: SeatInfo, request: ActionIn, seen: PokerObservation) -> None:
        """With ``trainer``: the optimal decision for the hand, computed in a worker thread."""
        if not request.trainer or request.kind == "wager":
            return
        me = seen.players[seen.player or 0]
        cards, up = [str(c) for c in me.cards or ()], str(seen.up_card)
        self.trainer[seat.seat] = {"status": "computing", "message": "computing the optimal decision..."}
        t, rules, ante, amount = self.table, self.table.rules, me.ante, request.amount

        async def run() -> None:
            advice = await asyncio.to_thread(advise, cards, up, rules, ante, request.kind, amount)
            if self.trainer.get(seat.seat, {}).get("status") == "computing":
                self.trainer[seat.seat] = {**advice, "cards": cards, "up_card": up}
                t.notify()

        t.hub.spawn(run())

    # ------------------------------------------------------------ views

    def _round(self, state: GameState, seat: SeatInfo | None) -> dict[str, Any]:
        """The round's observation for ``seat`` in table seats (the browser's shape)."""
        obs = self._seen(state, seat.seat - 1 if seat else None).to_dict(with_history=False)
        seats = []
        for view in obs.pop("players"):
            s = view.pop("player") + 1
            p = self.table.players.get(s)
            if p is None and not view["ante"] and not view["aces_up"]:
                continue
            entry = {"seat": s, **view, "name": p.name if p else f"seat {s}", "is_bot": bool(p and p.is_bot)}
            if entry["result"] is None:
                del entry["result"]
            else:
                entry["result"]["seat"] = entry["result"].pop("player") + 1
            seats.append(entry)
        for key in ("player", "legal_actions", "chance_step"):
            del obs[key]
        if obs["dealer_hand"] is None:
            del obs["dealer_hand"]
        obs["seat"] = seat.seat if seat else None
        obs["actor"] = None if obs["actor"] is None else obs["actor"] + 1
        obs["seats"] = seats
        return obs

    def view(self, seat: SeatInfo | None) -> dict[str, Any]:
        """``game``, ``round`` (with its number), ``last`` (the previous round until the next one
        opens), ``actions`` open to ``seat`` (from its legal actions, capped by its chips),
        ``trainer`` (its advice) and ``trainer_available``."""
        t = self.table
        assert t.state is not None
        last = None
        if t.last is not None and not t.in_progress:
            last = {"number": t.last_number, **self._round(t.last, seat)}
        return {"game": "poker", "round": {"number": t.number, **self._round(t.state, seat)}, "last": last,
                "actions": self._actions(seat), "trainer": self.trainer.get(seat.seat) if seat else None,
                "trainer_available": True}

    def _actions(self, seat: SeatInfo | None) -> list[dict[str, Any]]:
        t = self.table
        if seat is None or seat.is_bot or t.state is None:
            return []
        out: list[dict[str, Any]] = []
        balance = seat.balance
        for o in t.state.legal_actions(seat.seat - 1):
            k = o.kind.value
            if k == "withdraw_wagers":
                out.append({"kind": "withdraw"})
            elif k == "place_wagers":
                out.append({"kind": "wager", "ante_min": o.min_amount, "ante_max": self.ante_max(balance),
                            "aces_up_min": getattr(o, "aces_up_min", 0),
                            "aces_up_max": min(getattr(o, "aces_up_max", 0), balance),
                            "aces_up_requires_ante": t.rules.aces_up_requires_ante, "balance": balance})
            elif k == "fold":
                out.append({"kind": "fold"})
            elif k == "play":
                if o.amounts is not None:
                    amounts = [a for a in o.amounts if a <= balance]
                else:
                    amounts = [o.min_amount, min(o.max_amount, balance)] if o.min_amount <= balance else []
                if amounts:
                    play = {"kind": "play", "min": amounts[0], "max": amounts[-1],
                            "ante": self._seen(t.state, seat.seat - 1).players[seat.seat - 1].ante}
                    if o.amounts is not None:
                        play["amounts"] = amounts
                    out.append(play)
        return out


# =====================================================================
# Four of a Kind
# =====================================================================


class KindGame(TableGame):
    """Four of a Kind at a table (see the module doc); keeps the button and the exact odds."""

    game = "kind"
    title = "Four of a Kind"
    escrow = "pot"
    house = None
    auto_chance = True
    action_kinds = ("check", "bet", "call", "raise", "fold")
    default_bot = "odds"
    word = "Deal"
    default_clock = 30  # DESIGN.md "Table play (web) rulings"
    rules_fields = ("ante", "min_bet", "max_bet", "max_raises", "redeal")

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        # "dealing": "table" - real cards: every card waits for the host (docs/rules.md FOAK-14)
        self.by_hand: bool = table.settings.get("dealing") == "table"
        self.auto_chance = not self.by_hand
        self.button_seat: int | None = table.settings.get("button_seat")
        self.odds: dict[int, Any] = {}  # engine player -> PlayerOdds (deal in progress)
        self._odds_cache: dict[tuple[Any, ...], dict[int, Any]] = {}
        self._public: dict[str, Any] = {}
        self._public_version = -1

    # ------------------------------------------------------------ rules

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> KindRules:
        """A preset (default ``family``) with custom fields (:data:`rules_fields`).

        Raises:
            RulesError: an unknown preset or invalid rules.
        """
        return get_kind_rules("family" if preset is None else preset, **given)

    @staticmethod
    def rules_from_dict(d: dict[str, Any]) -> KindRules:
        """A stored table's rules. Tables stored before the rules carried their
        preset ``name`` get one back: the preset they equal, else ``"custom"``.

        Raises:
            RulesError: invalid values.
        """
        rules = KindRules.from_dict(d)
        if "name" in d:
            return rules
        return next((rules.with_(name=n) for n, base in KIND_PRESETS.items() if rules.with_(name=base.name) == base),
                    rules.with_(name="custom"))

    @staticmethod
    def settings(rules: KindRules, req: CreateTable) -> dict[str, Any]:
        """``starting_chips`` of a new table (must cover the ante) and ``dealing``: ``"deck"``
        (default) or ``"table"`` (real cards entered by the host; docs/rules.md FOAK-14).

        Raises:
            ApiError: 422 naming ``starting_chips`` or ``bot_ante`` (a poker setting).
        """
        if req.bot_ante is not None:
            raise ApiError(422, "bot_ante applies to Four Card Poker tables only "
                                "(Four of a Kind bots pay the table's ante)")
        if req.starting_chips < rules.ante:
            raise ApiError(422, f"starting_chips: {req.starting_chips} chips do not cover this table's ante "
                                f"of {rules.ante}: every seat would sit out")
        return {"starting_chips": req.starting_chips, "dealing": req.dealing or "deck"}

    @staticmethod
    def max_seats(rules: Any) -> int:
        """``rules.max_players`` (at most 13, one per rank: seed 001 §2.2)."""
        return int(rules.max_players)

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Bots of a new table when the host asks for none in particular: enough for a deal
        with the host (``min_players`` - 1; seed 000 "four or more players")."""
        return int(rules.min_players) - 1

    def players_in(self) -> list[int]:
        """The seats the next deal deals in: seated, not sitting out, with chips for the ante."""
        t = self.table
        return [s for s, p in sorted(t.players.items()) if not p.sitting_out and p.balance >= t.rules.ante]

    def dealt_in(self, player: int, seen: Any) -> bool:
        """Every player of the deal in progress takes part in it (its ante is in the pot)."""
        return True

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The engine's bots (:func:`fourcards.web.players.kind_bot_names`)."""
        return kind_bot_names()

    # ------------------------------------------------------------ deals

    def replay(self, records: Sequence[dict[str, Any]], seats: dict[str, Any] | None = None) -> GameState:
        """The deal of stored records (its ``start`` record first); with its seat map, the
        engine's messages name each seat by its player's name (as in the deal when it was live)."""
        labels = None
        if seats:
            by_id = self.table.by_id
            labels = [by_id[pid].name if pid in by_id else f"seat {int(k) + 1}"
                      for k, pid in sorted(seats.items(), key=lambda kv: int(kv[0]))]
        return Game.replay(self.table.rules, records, seat_labels=labels)

    def _seen(self, state: GameState, player: int | None = None) -> Observation:
        return cast(Observation, state.observation(player))

    async def start(self) -> None:
        """Every seated player with chips for the ante is dealt in; the button moves on."""
        t = self.table
        if t.state is not None:
            raise ApiError(409, "a deal is already in progress")
        order = [s for s, p in sorted(t.players.items()) if not p.sitting_out]
        if len(self.players_in()) < t.rules.min_players:
            raise ApiError(409, f"at least {t.rules.min_players} players with chips for the ante are needed to deal; "
                                f"{len(self.players_in())} can play now")
        button = order.index(self.button_seat) if self.button_seat in order else 0
        try:  # every card a chance step; messages name each seat by its player's name (DESIGN.md "Table play")
            game = Game(t.rules, [t.players[s].balance for s in order], button, cards=(),
                        seat_labels=[t.players[s].name for s in order])
        except FourcardsError as exc:
            raise ApiError(409, f"cannot deal: {exc}") from None
        t.add_log(f"Deal {t.number} starts; the button is at {t.players[order[button]].name}")
        await t.begin(game, order)

    def action(self, request: ActionIn, player: int, seen: Any) -> Any:
        """The betting move (the amount: chips above the current bet, or the call)."""
        if request.trainer:
            raise ApiError(422, f"trainer does not belong to a {request.kind} at Four of a Kind (the trainer "
                                "advises Four Card Poker decisions)")
        return Action(ActionKind(request.kind), request.amount or 0, player=player)

    def void(self, reason: str) -> Any:
        """The deal's :class:`~fourcards.kind.Void`."""
        return Void(reason)

    # ------------------------------------------------------------ real cards

    def cards_entered(self, state: GameState, text: str) -> GameState:
        """A clone of ``state`` with the host's real cards ``text`` dealt or turned, in order
        (``"9c"``, ``"10h"``, ``"T♥"``; several separated by spaces or commas or written together,
        ``"9c10hT♥"``: :func:`fourcards.cards.read_cards`), each applied
        as the engine's chance record (``DealCard`` to the next player of the observation's
        ``deal_queue``, ``TurnCard`` to the holder of its rank): the engine does the rest
        (re-deals of FOAK-2, discards, betting rounds, the end on a fourth card). All or
        nothing: ``state`` is never changed (docs/rules.md FOAK-14).

        Raises:
            ApiError: 409 at a table dealt from the server's deck; 422 for text that is not
                cards; 409 for a card already seen (naming it and where it lies) or one that
                is not due (a player is to act, or the deal is over).
        """
        if not self.by_hand:
            return super().cards_entered(state, text)
        try:
            cards = read_cards(text)
        except FourcardsError as exc:
            raise ApiError(422, f"cards: {exc}") from None
        if not cards:
            raise ApiError(422, "cards: no card given (e.g. \"9c\", \"10h\" or \"T♥\")")
        game = state.clone()
        for i, card in enumerate(cards):
            after = f"after {', '.join(_pretty(c) for c in cards[:i])}, " if i else ""
            nothing = " - none of the cards was entered" if i else ""
            if game.is_terminal:
                raise ApiError(409, f"no card is due: {after}the deal is over, so {_pretty(card)} cannot be "
                                    f"entered{nothing}")
            if game.actor is not None:
                raise ApiError(409, f"no card is due: {after}{self.table.name_at(game.actor)} is to act; the next "
                                    f"card comes after the betting{nothing}")
            seen = self._seen(game)
            where = self._where(seen, card)
            if where:
                what = f"{after}{_pretty(card)}"
                raise ApiError(409, f"{what[0].upper()}{what[1:]} has already been seen: {where}, and a card "
                                    f"cannot appear twice{nothing}")
            if game.chance_step == "deal":
                record: DealCard | TurnCard = DealCard(seen.deal_queue[0], card)
            else:
                holder = next((v.seat for v in seen.seats if v.is_active and v.cards[0].rank == card.rank), None)
                record = TurnCard(card, holder)
            try:
                game.apply(record)
            except FourcardsError as exc:  # pragma: no cover - every refusal is checked above
                raise ApiError(409, str(exc)) from None
        return game

    def _where(self, seen: Observation, card: Any) -> str | None:
        """Where a card already seen lies: a player's card, or a discarded turned card."""
        for v in seen.seats:
            if card in v.cards:
                return f"it is {self.table.name_at(v.seat)}'s card" + (" (folded)" if v.status == "folded" else "")
        if card in seen.discards:
            return "it was turned and discarded"
        return None

    def taken_back(self, state: GameState) -> tuple[GameState, str]:
        """The deal before its last card and the table log's line for it: the host takes back
        a mistyped card until the next action (the observation's ``last_card``), the deal
        rebuilt by the engine's replay of its history up to that card - what followed the
        card by itself goes with it (docs/rules.md FOAK-15). ``state`` is never changed.

        Raises:
            ApiError: 409 at a table dealt from the server's deck, before any card, after an
                action since the last card, or once the deal is over.
        """
        if not self.by_hand:
            return super().taken_back(state)
        seen = self._seen(state)
        last = seen.last_card
        if last is None:
            records = [op.to_dict() for op in seen.history]
            card = next((r for r in reversed(records) if r["op"] in ("deal", "turn")), None)
            acted = next((r for r in reversed(records) if r["op"] == "action"), None)
            why = ("the deal is over" if state.is_terminal else "no card has been entered in this deal yet"
                   if card is None or acted is None else
                   f"{self.table.name_at(acted['seat'])} has acted since {_pretty(card['card'])} was "
                   f"{'dealt' if card['op'] == 'deal' else 'turned'}")
            raise ApiError(409, f"no card to take back: {why} (a card can be taken back only until the next "
                                "action)")
        at = max(i for i, op in enumerate(state.history) if op == last)
        labels = [self.table.name_at(p) for p in range(len(self.table.order))]
        new = Game.replay(self.table.rules, [op.to_dict() for op in state.history[:at]], seat_labels=labels)
        if isinstance(last, DealCard):
            where = f"dealt to {self.table.name_at(last.seat)}"
        else:
            where = "turned and discarded" if last.seat is None else f"turned to {self.table.name_at(last.seat)}"
        return new, f"The host takes back {_pretty(last.card)} ({where})"

    def stakes(self, seen: Observation) -> list[int]:
        """What each seat has put in the pot during the deal (ante included)."""
        return [v.contributed for v in seen.seats]

    def result(self, state: GameState) -> dict[str, Any]:
        """How the deal finished, the awards and each table seat's net (``payoffs``)."""
        t, seen = self.table, self._seen(state)
        finish = next((r.to_dict()["reason"] for r in reversed(seen.history) if r.op == "finish"), None)
        return {"finish": finish,
                "awards": [{**a.to_dict(), "table_seat": t.order[a.seat], "name": t.name_at(a.seat)}
                           for a in seen.awards],
                "payoffs": {str(t.order[i]): p for i, p in enumerate(state.returns())}}

    def deal_seats(self, order: Sequence[int]) -> dict[str, int]:
        """Engine player -> player id."""
        return {str(i): self.table.players[s].player_id for i, s in enumerate(order)}

    def deal_player(self, seats: dict[str, Any], player_id: int) -> int | None:
        """The engine player of ``player_id``."""
        return next((int(k) for k, v in seats.items() if v == player_id), None)

    def order(self, seats: dict[str, Any]) -> list[int]:
        """The table seat of each engine player (0 for a player no longer seated)."""
        by_id = self.table.by_id
        return [by_id[pid].seat if pid in by_id else 0 for _, pid in sorted((int(k), v) for k, v in seats.items())]

    def saved(self) -> dict[str, Any]:
        """The button's table seat."""
        return {"button_seat": self.button_seat}

    def restore(self, saved: dict[str, Any]) -> None:
        """The button's table seat (if stored)."""
        if "button_seat" in saved:
            self.button_seat = saved["button_seat"]

    def log_lines(self, records: list[dict[str, Any]], state: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """Each betting move, card, uncalled bet, finish, award and seat sitting out."""
        lines = []
        for d in records:
            who = name(d["seat"]) if d.get("seat") is not None else ""
            card = _pretty(d["card"]) if "card" in d else ""
            line = {"action": f"{who} {_VERBS.get(d.get('kind', ''))}" + (f" {d.get('amount')}" if d.get("amount") else ""),
                    "turn": f"Turned {card} \u2192 {who}" if who else f"Turned {card}: discarded",
                    "deal": f"{who} is dealt {card}",
                    "return": f"{card} duplicates a rank: it goes back, the deck is reshuffled",
                    "uncalled": f"{who} takes back an uncalled {d.get('amount')}",
                    "finish": f"{who} " + ("completes four of a kind!" if d.get("reason") == "four" else "is the last player in"),
                    "award": f"{who} takes {d.get('amount')} ({d.get('share')}" + (f", side pot {d['pot']}" if d.get("pot") else "") + ")",
                    "sit_out": f"{who} sits this deal out (not enough chips for the ante)"}.get(d["op"])
            if line:
                lines.append(line)
        return lines

    def finished(self, state: GameState) -> None:
        """After a finished deal the button moves on (not after a void)."""
        seen = self._seen(state)
        self.odds = {}
        if seen.phase != "voided":
            stacks = [v.stack for v in seen.seats]
            self.button_seat = self.table.order[next_button(stacks, seen.button, self.table.rules)]

    async def prepare(self, state: GameState) -> None:
        """The exact odds of the active players (cached by holdings), in a worker thread."""
        seen = self._seen(state)
        held = seen.holdings()
        key = tuple(sorted((s, h.rank, h.count) for s, h in held.items())) + (seen.phase,)
        if key not in self._odds_cache:
            if len(self._odds_cache) > 256:
                self._odds_cache.clear()
            players = list(held)
            odds = await asyncio.to_thread(exact_odds, [held[p] for p in players]) if players else []
            self._odds_cache[key] = dict(zip(players, odds))
        self.odds = self._odds_cache[key]
        self.table.touch()

    def can_deal(self) -> bool:
        """Between deals, with at least ``min_players`` players who can play."""
        return self.table.state is None and len(self.players_in()) >= self.table.rules.min_players

    def bot_move(self, seat: SeatInfo, seen: Any, options: Sequence[LegalAction]) -> Any:
        """The engine's bot ``seat.bot_kind`` (default ``odds``)."""
        return kind_move(seat.bot_kind or self.default_bot, seen, options)

    # ------------------------------------------------------------ views

    def _deal(self, state: GameState, order: list[int], odds: dict[int, Any]) -> dict[str, Any]:
        """The public view of a deal (every card is face up; never the deck), in table seats."""
        t, seen = self.table, self._seen(state)
        obs = seen.to_dict(with_history=False)
        seats = []
        for sv in obs["seats"]:
            i = sv["seat"]
            po = odds.get(i)
            seats.append({**sv, "seat": order[i], "name": t.name_at(i, order), "is_bot": bool((p := t.players.get(order[i])) and p.is_bot),
                          "odds": None if po is None else {"p_high": po.high, "p_low": po.low,
                                                           "expected_share": po.share}})
        obs["seats"] = seats
        obs["actor"] = None if obs["actor"] is None else order[obs["actor"]]
        obs["button"] = order[obs["button"]]
        obs["deal_queue"] = [order[i] for i in obs["deal_queue"]]
        obs["pots"] = [{"amount": p["amount"], "eligible": [order[i] for i in p["eligible"]]} for p in obs["pots"]]
        obs["awards"] = [{**a, "seat": order[a["seat"]], "name": t.name_at(a["seat"], order)} for a in obs["awards"]]
        if obs["payoffs"] is not None:
            obs["payoffs"] = {str(order[i]): v for i, v in enumerate(obs["payoffs"])}
        turns = [r.to_dict() for r in seen.history if r.op == "turn"]
        obs["last_turn"] = None if not turns else {
            "card": turns[-1]["card"], "to": None if turns[-1]["seat"] is None else order[turns[-1]["seat"]],
            "to_name": None if turns[-1]["seat"] is None else t.name_at(turns[-1]["seat"], order)}
        obs["turned"] = len(turns)
        return obs

    def _referee(self, state: GameState, order: list[int]) -> dict[str, Any]:
        """What a referee tells the table about the deal in progress, in table seats
        (docs/web.md "Four of a Kind table"): ``actor_actions`` (the legal actions and amounts
        of the player to act), ``raises_left`` (full raises the raise cap still allows this
        round, ``None`` outside a betting round), ``unseen`` (cards of each rank not yet seen,
        aces first), ``next_card`` (``None`` unless a card is due: ``step`` ``"deal"`` or
        ``"turn"``, ``seat``/``name`` it is dealt to, ``redeal`` - the players waiting for a
        new card after a duplicated rank - and ``why``, the re-deal rule in words; on a turn,
        ``completes``: the players a card of their rank would give four of a kind) and
        ``take_back`` (the last card while the host may take it back, else ``None``)."""
        seen = self._seen(state)
        shown = [c for v in seen.seats for c in v.cards] + list(seen.discards)
        out: dict[str, Any] = {
            "actor_actions": [{k: v for k, v in o.to_dict().items() if k != "player"}
                              for o in state.legal_actions(state.actor)] if state.actor is not None else [],
            "raises_left": (max(0, seen.rules.max_wagers - max(1, seen.full_wagers))
                            if seen.phase == "betting" else None),
            "unseen": {r.char: 4 - sum(1 for c in shown if c.rank == r) for r in sorted(Rank, reverse=True)},
            "next_card": self._next_card(state, seen, order),
            "take_back": None,
        }
        last = seen.last_card if self.by_hand else None
        if last is not None:
            out["take_back"] = {"card": str(last.card), "step": last.op,
                                "seat": None if last.seat is None else order[last.seat],
                                "name": None if last.seat is None else self.table.name_at(last.seat, order)}
        return out

    def _next_card(self, state: GameState, seen: Observation, order: list[int]) -> dict[str, Any] | None:
        """The card due (see :meth:`_referee`), with the re-deal rule of docs/rules.md FOAK-2."""
        step = state.chance_step
        if step is None:
            return None

        def name(p: int) -> str:
            return self.table.name_at(p, order)

        if step == "turn":
            return {"step": "turn", "seat": None, "name": None, "redeal": [], "why": None,
                    "completes": [{"seat": order[v.seat], "name": name(v.seat), "rank": v.cards[0].rank.char}
                                  for v in seen.seats if v.is_active and len(v.cards) == 3]}
        queue, history = seen.deal_queue, [op.to_dict() for op in seen.history]
        shuffled = next((i for i in range(len(history) - 1, -1, -1) if history[i]["op"] == "shuffle"), 0)
        returned: list[dict[str, Any]] = []  # the cards that went back before the last reshuffle
        k = shuffled - 1
        while k >= 0 and history[k]["op"] == "return":
            returned.insert(0, history[k])
            k -= 1
        waiting = [r for r in returned if r["seat"] in queue]
        why = None
        if waiting and seen.rules.redeal.value == "replace":
            p, card = waiting[0]["seat"], parse_card(waiting[0]["card"])
            holder = next((v.seat for v in seen.seats if v.seat != p and v.cards and v.cards[0].rank == card.rank), None)
            other = f"{name(holder)}'s card" if holder is not None else "a card already dealt"
            why = (f"{name(p)}'s {_pretty(card)} has the rank of {other}: all ranks must differ, so it goes back, "
                   f"the deck is reshuffled and {name(p)} gets a new card (seed 000)")
        elif waiting:
            who = [name(r["seat"]) for r in waiting]
            listed = ", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else who[0]
            why = (f"{listed} held a duplicated rank ({', '.join(_pretty(r['card']) for r in returned)} went back): "
                   "all ranks must differ, so the deck is reshuffled and each gets a new card, in turn "
                   "(seed 001 §2.3)")
        return {"step": "deal", "seat": order[queue[0]], "name": name(queue[0]),
                "redeal": [{"seat": order[r["seat"]], "name": name(r["seat"]), "card": r["card"]} for r in waiting],
                "why": why}

    def view(self, seat: SeatInfo | None) -> dict[str, Any]:
        """``game``, ``deal`` (the deal in progress, with ``legal_actions`` and ``to_call`` in chips
        when ``seat`` is to act, and the referee's view of :meth:`_referee`) or ``last`` (the last
        deal; ``voided``: the ruling), ``actions``, ``dealing`` (``"deck"`` or ``"table"``: real
        cards entered by the host), ``next_deal``, ``min_players`` and ``players_ready`` (seated,
        not sitting out, with chips for the ante: the next deal needs ``min_players`` of them).
        Every card is face up: all seats see the same deal."""
        t = self.table
        if self._public_version != t.gen:
            public: dict[str, Any] = {"game": "kind", "deal": None, "last": None}
            if t.state is not None:
                public["deal"] = {"number": t.number, **self._deal(t.state, t.order, self.odds),
                                  **self._referee(t.state, t.order)}
            elif t.last is not None:
                history = self._seen(t.last).history
                voided = history[-1].to_dict().get("reason") if self._seen(t.last).phase == "voided" else None
                public["last"] = {"number": t.last_number, "voided": voided, **self._deal(t.last, t.last_order, {})}
            self._public, self._public_version = public, t.gen
        out = dict(self._public)
        deal = out["deal"]
        actions: list[dict[str, Any]] = []
        if deal is not None and seat is not None and not seat.is_bot and deal["actor"] == seat.seat:
            assert t.state is not None
            actions = [{k: v for k, v in o.to_dict().items() if k != "player"}  # table seats, not players
                       for o in t.state.legal_actions(t.order.index(seat.seat))]
            me = next(e for e in deal["seats"] if e["seat"] == seat.seat)
            out["deal"] = {**deal, "legal_actions": actions, "to_call": max(0, deal["bet"] - me["stake"])}
        out["actions"] = actions
        out["dealing"] = "table" if self.by_hand else "deck"
        out["next_deal"] = t.next_deal_number
        out["min_players"] = t.rules.min_players
        out["players_ready"] = len(self.players_in())
        return out


#: The games a table can play, by the ``game`` name of the API.
GAMES: dict[str, type[PokerGame] | type[KindGame]] = {"poker": PokerGame, "kind": KindGame}
