"""Four Card Poker at a shared table: each seat plays against the house.

Player ``p`` sits at table seat ``p + 1`` in every round; the next round is laid out before
anyone wagers and opens (is stored) with the first wager; on the host's deal the bots place
their ``bot_ante`` and the cards are dealt; the escrow is ``bets`` and the ``house`` pays or
takes each seat's return. The engine is :class:`fourcards.poker.round.PokerRound`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from fourcards.engine import GameState, LegalAction
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
from fourcards.poker.rules import PRESETS as POKER_PRESETS
from fourcards.poker.rules import PokerRules, get_rules, parse_aces_up, parse_ante_bonus
from fourcards.table.errors import TableError
from fourcards.table.games import TableGame, TableSpec
from fourcards.table.players import poker_bot_names, poker_play
from fourcards.table.seats import DealSeats
from fourcards.table.seen import observe
from fourcards.table.state import DealState, Person, TableState
from fourcards.table.text import pretty
from fourcards.table.writes import MAX_AMOUNT

if TYPE_CHECKING:
    from fourcards.table.commands import Move
    from fourcards.table.draft import Draft
    from fourcards.table.views import Extras

__all__ = ["PokerTable"]


def _seen(game: GameState, player: int | None = None) -> PokerObservation:
    return cast(PokerObservation, observe(game, player))


class PokerTable(TableGame):
    """Four Card Poker at a table (see the module doc)."""

    game = "poker"
    title = "Four Card Poker"
    escrow = "bets"
    house = "house"
    action_kinds = ("wager", "withdraw", "fold", "play")
    default_bot = "simple"
    word = "Round"
    default_clock = 0  # against the house nobody waits on a neighbour (DESIGN.md "Table play")
    rules_fields = ("ante_bonus", "aces_up", "min_ante", "max_ante", "min_aces_up", "max_aces_up", "win_cap")
    seats_follow = True  # each seat plays the house: player p is whoever sits at seat p + 1

    # ------------------------------------------------------------ rules

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> PokerRules:
        """A preset (default ``live``) with named pay tables and custom fields (:data:`rules_fields`).

        Raises:
            RulesError: an unknown preset or invalid rules.
        """
        given = dict(given)
        rules = get_rules("live" if preset is None else preset, ante_bonus=given.pop("ante_bonus", None),
                          aces_up=given.pop("aces_up", None))
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

        At the table's limits a seat stakes at most ``rules.largest_stake`` and wins at most
        ``rules.largest_win`` chips a round; its settlement writes ledger entries of up to
        their sum, and the house's result of a round adds up to ``rules.max_seats`` such
        seats. All of it must fit in a ledger entry (:data:`~fourcards.table.writes.MAX_AMOUNT`),
        else a winning hand could not be written. Checked when a table is created.

        Raises:
            TableError: 422 naming the largest settlement and the bound.
        """
        per_seat = rules.largest_stake + rules.largest_win
        largest = rules.max_seats * per_seat
        if largest > MAX_AMOUNT:
            raise TableError(422, f"rules: a round could settle {largest:,} chips ({rules.max_seats} seats staking "
                                  f"up to {rules.largest_stake:,} and winning up to {rules.largest_win:,} each), "
                                  f"which cannot be stored: the ledger holds at most {MAX_AMOUNT:,} chips per entry "
                                  "- lower the pays, the table limits or the win cap")

    @staticmethod
    def settings(rules: PokerRules, spec: TableSpec) -> dict[str, Any]:
        """``starting_chips`` and the bots' ante (``bot_ante``, chips) of a new table.

        A seat must afford the minimum ante; bots their ante plus the smallest play bet (else
        they could only fold). With no ``bot_ante``: 10 chips, brought within the ante limits
        and lowered to what the buy-in affords.

        Raises:
            TableError: 422 naming ``dealing``, ``starting_chips`` or ``bot_ante``.
        """
        if spec.dealing is not None:
            raise TableError(422, "dealing applies to Four of a Kind tables only (Four Card Poker deals from the "
                                  "server's shuffled deck)")
        lo, hi, chips, ante = rules.min_ante, rules.max_ante, spec.starting_chips, spec.bot_ante
        need = 1 + min(rules.decision_multiples)  # the ante and the smallest play bet, in antes
        if chips < lo:
            raise TableError(422, f"starting_chips: {chips} chips do not cover this table's minimum ante of {lo}")
        if ante is None:
            ante = max(lo, min(10, hi, chips // need))
        elif not lo <= ante <= hi:
            raise TableError(422, f"bot_ante: {ante} is outside this table's ante limits {lo}-{hi} "
                                  f"({rules.name} rules)")
        elif ante * need > chips:
            raise TableError(422, f"bot_ante: bots need {ante * need} chips for an ante of {ante} and a play bet "
                                  f"of at least {ante * (need - 1)}, but starting_chips is {chips}")
        return {"starting_chips": chips, "bot_ante": ante}

    @staticmethod
    def max_seats(rules: Any) -> int:
        """``rules.max_seats`` (1-9)."""
        return int(rules.max_seats)

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The bots a table offers: the built-in strategies, then plug-ins
        (:func:`fourcards.table.players.poker_bot_names`)."""
        return poker_bot_names()

    @staticmethod
    def rules_label(rules: PokerRules) -> str:
        """``live`` (seed 002) is "Casino rules: play 1x–3x"; ``online`` (seed 004) "Online rules:
        1x or 3x, win cap 8,400"; rules changed from a preset say so ("Casino rules, changed: ...")."""
        preset, _, custom = rules.name.partition("+")
        who = {"live": "Casino rules", "online": "Online rules"}.get(preset, "Custom rules")
        if custom and who != "Custom rules":
            who += ", changed"
        if rules.play_any_amount:
            play = f"play {rules.min_play_multiple}x–{rules.max_play_multiple}x"
        else:
            play = " or ".join(f"{m}x" for m in rules.play_multiples)
        return f"{who}: {play}" + (f", win cap {rules.win_cap:,}" if rules.win_cap else "")

    @classmethod
    def preset_labels(cls) -> dict[str, str]:
        """``{"live": "Casino rules: play 1x–3x", "online": ...}``."""
        return {name: cls.rules_label(r) for name, r in POKER_PRESETS.items()}

    # ------------------------------------------------------------ deals

    @classmethod
    def fresh(cls, state: TableState) -> DealState:
        """The next round: every seat may wager (player ``p`` = seat ``p + 1``, named by whoever
        sits there)."""
        n = state.rules.max_seats
        seats = DealSeats.dealt(range(1, n + 1), state.players, follows=True)
        return DealState(PokerRound(state.rules, n, seat_labels=seats.names), seats, state.next_deal_number)

    @classmethod
    def replay(cls, state: TableState, records: Sequence[dict[str, Any]], seats: DealSeats | None = None) -> GameState:
        """The round of stored records (stored without the start record; legacy ones too), its
        players named by ``seats`` (else "seat N")."""
        n = state.rules.max_seats
        labels = seats.names if seats is not None and len(seats) == n else None
        return PokerRound.replay(state.rules, [*PokerRound(state.rules, n).history, *records], seat_labels=labels)

    @classmethod
    def stored_seats(cls, state: TableState, stored: Mapping[str, Any]) -> DealSeats:
        """Table seat -> player id of every player seated when the round opened; player ``p``
        at seat ``p + 1`` of the table's ``max_seats``."""
        return DealSeats.from_stored(stored, state.people, follows=True, players=state.rules.max_seats)

    @staticmethod
    def relabel(game: GameState, names: Sequence[str]) -> GameState:
        """A clone of the round naming its players ``names`` (people sat down or left)."""
        new = cast(PokerRound, game).clone()
        new.seat_labels = tuple(names)
        return new

    @staticmethod
    def bot_ante(state: TableState) -> int:
        """The bots' ante in chips: the ``bot_ante`` setting (default 10) within the ante limits."""
        r = state.rules
        return max(r.min_ante, min(int(state.settings.get("bot_ante") or 10), r.max_ante))

    @classmethod
    def start(cls, d: Draft) -> None:
        """The bots place their ante, then the cards are dealt (the draft's ``rng``)."""
        s = d.state
        assert s.deal is not None
        if _seen(s.deal.game).phase.value != "wagers":
            raise TableError(409, "the cards are already out")
        ante = cls.bot_ante(s)
        for _, p in sorted(s.players.items()):
            deal = d.state.deal
            assert deal is not None
            player = deal.seats.player_of(p)
            if p.is_bot and p.balance >= ante and player is not None and deal.game.legal_actions(player):
                d.apply(p, PlaceWagers(player, ante, 0))
        deal = d.state.deal
        assert deal is not None
        if deal.game.chance_step != "deal":
            raise TableError(409, "cannot deal: no seat has placed a wager")
        new = deal.game.clone()
        new.apply_chance(d.rng)
        d.advance(new, None)

    @classmethod
    def can_deal(cls, state: TableState) -> bool:
        """In the wagers phase once someone has wagers on the layout, or a bot will."""
        deal = state.deal
        return deal is not None and _seen(deal.game).phase.value == "wagers" and (
            deal.game.chance_step == "deal" or any(p.is_bot for p in state.players.values()))

    @classmethod
    def action(cls, state: TableState, move: Move, player: int, seen: PokerObservation) -> Any:
        """``wager`` (ante, Aces Up), ``withdraw``, ``fold`` or ``play`` (the play bet) of ``player``.

        Raises:
            TableError: 409 wagers after the deal, an ante that leaves no chips for the play bet;
                422 a play bet without an amount, a fold with one.
        """
        if move.kind in ("wager", "withdraw") and seen.phase.value != "wagers":
            raise TableError(409, "wagers are closed: the cards are out; wait for the next round")
        if move.kind == "withdraw":
            return WithdrawWagers(player)
        if move.kind == "wager":
            ante, aces_up = move.ante or 0, move.aces_up or 0
            assert state.deal is not None
            seat = state.deal.seats.person(player, state.people)
            rules = state.rules
            if seat is not None and ante and rules.min_ante <= ante <= rules.max_ante:
                play = rules.play_amounts(ante)[0]
                if ante + aces_up + play > seat.balance:
                    raise TableError(409, f"an ante of {ante} leaves no chips for the play bet: with {seat.balance} "
                                          f"chips, the ante{' and Aces Up' if aces_up else ''} ({ante + aces_up}) "
                                          f"and the smallest play bet ({play}) need {ante + aces_up + play}; "
                                          f"ante at most {cls.ante_max(state, seat.balance, aces_up)}")
            return PlaceWagers(player, ante, aces_up)
        if move.kind == "play":
            if move.amount is None:
                raise TableError(422, "a play bet needs an amount (chips)")
            return Play(player, move.amount)
        if move.amount:
            raise TableError(422, "a fold takes no amount")
        return Fold(player)

    @classmethod
    def may_wager(cls, state: TableState, seat: Person, ante: int, aces_up: int) -> bool:
        """Whether ``seat`` may place an ante of ``ante`` and an Aces Up bet of ``aces_up`` now
        (the table limits, its chips with the play bet's reserve: FCP-1, FCP-14); ``False`` for
        no wager at all."""
        r = state.rules
        if not ante and not aces_up:
            return False
        if ante and not r.min_ante <= ante <= cls.ante_max(state, seat.balance, aces_up):
            return False
        if aces_up and (not r.min_aces_up <= aces_up <= r.max_aces_up or (not ante and r.aces_up_requires_ante)):
            return False
        return ante + aces_up <= seat.balance

    @staticmethod
    def ante_max(state: TableState, balance: int, aces_up: int = 0) -> int:
        """The largest ante a seat of ``balance`` chips may place beside ``aces_up``: the ante,
        the Aces Up bet and the smallest play bet must all be covered (FCP-14), within the
        table's limits (0: none)."""
        r = state.rules
        need = 1 + min(r.decision_multiples)
        return max(0, min(r.max_ante, (balance - aces_up) // need))

    @staticmethod
    def void(reason: str) -> Any:
        """The round's :class:`~fourcards.poker.round.Void`."""
        return PokerVoid(reason)

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """A seat that has not decided yet folds out of turn (docs/rules.md FCP-15): its
        :class:`~fourcards.poker.round.Forfeit`; ``None`` once it decided (its wagers are
        settled at the showdown) or with nothing to decide."""
        from fourcards.poker.round import Forfeit

        seen = _seen(game)
        me = seen.players[player]
        if seen.phase.value != "decisions" or not me.ante or me.decision is not None:
            return None
        return Forfeit(player)

    @staticmethod
    def withdraw(player: int, seen: PokerObservation) -> Any | None:
        """The player's wagers taken back, before the deal."""
        me = seen.players[player]
        return WithdrawWagers(player) if seen.phase.value == "wagers" and (me.ante or me.aces_up) else None

    @staticmethod
    def dealt_in(player: int, seen: PokerObservation) -> bool:
        """Whether the player has wagers on the layout."""
        me = seen.players[player]
        return bool(me.ante or me.aces_up or me.play)

    @staticmethod
    def stakes(seen: PokerObservation) -> list[int]:
        """Each player's ante, Aces Up and play bet together."""
        return [v.ante + v.aces_up + v.play for v in seen.players]

    @classmethod
    def result(cls, state: TableState, game: GameState) -> dict[str, Any]:
        """Each seat's settlement (its own view: a folded hand included), the dealer's cards, the
        house's net."""
        spectator = _seen(game)
        assert state.deal is not None
        dealt = state.deal.seats
        seats = {}
        for v in spectator.players:
            seat = dealt.person(v.player, state.people)
            if v.result is not None and seat is not None:
                own = _seen(game, v.player).players[v.player].result
                assert own is not None
                seats[str(dealt.seat(v.player))] = {"player_id": seat.player_id, "name": seat.name, **own.to_dict()}
        return {"seats": seats, "dealer_cards": [str(c) for c in spectator.dealer_cards or ()],
                "house_net": -sum(game.returns())}

    @staticmethod
    def mucked(deal: Mapping[str, Any]) -> set[int]:
        """The players who folded (or forfeited): their hands stay mucked, as the engine's
        ``observation`` keeps them (docs/engine.md "showdown view"). Read from the deal's records
        when it carries them (0-based ``player``; records stored before the engine protocol: 1-based
        ``seat``), else from its stored result, where a seat whose decision is not known to be
        ``play`` or ``none`` (an Aces Up bet alone) counts as mucked."""
        records = deal.get("history")
        if records is not None:
            out = set()
            for r in records:
                if r.get("kind") in ("fold", "forfeit"):
                    p = r.get("player")
                    out.add(int(p) if p is not None else int(r.get("seat", 0)) - 1)
            return out
        seats = (deal.get("result") or {}).get("seats") or {}
        return {int(k) - 1 for k, e in seats.items() if not isinstance(e, dict) or e.get("decision") not in ("play", "none")}

    @staticmethod
    def published_result(result: Any, player: int | None, mucked: set[int]) -> Any:
        """The result with the hands of ``mucked`` seats hidden from everyone but their own seat."""
        for key, entry in ((result or {}).get("seats") or {}).items():
            if int(key) - 1 in mucked and int(key) - 1 != player and isinstance(entry, dict):
                entry["player_hand"] = None
        return result

    @classmethod
    def log_lines(cls, records: list[dict[str, Any]], game: GameState, number: int,
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
                lines.append(f"Round {number}: cards are dealt; the dealer's up card is {pretty(r['up_card'])}")
            elif k in ("fold", "play"):
                lines.append(f"{who} " + (f"plays {r['amount']}" if k == "play" else "folds"))
            elif k == "forfeit":
                lines.append(f"{who} folds (the hand is forfeited)")
        seen = _seen(game)
        if seen.phase.value == "settled":
            dealer = " ".join(pretty(c) for c in seen.dealer_cards or ())
            lines.append(f"Showdown: the dealer shows {dealer} - {seen.dealer_hand.describe() if seen.dealer_hand else ''}")
            lines += [f"{name(v.player)}: {describe_result(v.result)}" for v in seen.players if v.result is not None]
        return lines

    @classmethod
    def moved(cls, d: Draft, person: Person, move: Move) -> None:
        """A person's wager is remembered as their last bets (ante, Aces Up): the next round
        offers them again ("Same bets") and starts its fields from them."""
        if move.kind == "wager" and person.seat:
            d.put(dataclasses.replace(person, bets=(move.ante or 0, move.aces_up or 0)))

    @classmethod
    def bot_action(cls, state: TableState, person: Person, seen: PokerObservation, options: Sequence[LegalAction],
                   rng: random.Random | None) -> Any:
        """The bot's strategy (``person.bot_kind``, default ``simple``): a play bet or a fold."""
        me = seen.players[seen.player or 0]
        play = next((o for o in options if o.kind.value == "play"), None)
        amount = None if play is None or seen.up_card is None else poker_play(
            person.bot_kind or cls.default_bot, state.rules, me.cards or (), seen.up_card, me.ante, play,
            person.balance)
        return Fold(me.player) if amount is None else Play(me.player, amount)

    # ------------------------------------------------------------ views

    @classmethod
    def _entry(cls, state: TableState, deal: DealState, view: dict[str, Any]) -> dict[str, Any] | None:
        """One player's place in a round view, in table seats (``None``: an empty seat without wagers)."""
        view = dict(view)
        player = view.pop("player")
        s = deal.seats.seat(player)
        p = deal.seats.person(player, state.people)
        if p is None and not view["ante"] and not view["aces_up"]:
            return None
        entry = {"seat": s, **view, "name": deal.seats.name(player), "is_bot": bool(p and p.is_bot)}
        if entry["result"] is None:
            del entry["result"]
        else:
            entry["result"] = {**entry["result"], "seat": deal.seats.seat(entry["result"]["player"])}
            del entry["result"]["player"]
        return entry

    @classmethod
    def _public_round(cls, state: TableState, deal: DealState) -> dict[str, Any]:
        """The round as a spectator sees it, in table seats (the browser's shape)."""
        obs = _seen(deal.game).to_dict(with_history=False)
        players = obs.pop("players")
        for key in ("player", "legal_actions", "chance_step"):
            obs.pop(key, None)
        if obs["dealer_hand"] is None:
            del obs["dealer_hand"]
        obs["actor"] = None if obs["actor"] is None else deal.seats.seat(obs["actor"])
        obs["seats"] = [e for v in players if (e := cls._entry(state, deal, v)) is not None]
        obs["seat"] = None
        return obs

    @classmethod
    def _round(cls, state: TableState, deal: DealState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """The round as ``seat`` sees it: the spectator's view (built once per state) with the
        seat's own place as its own observation shows it (its cards; its folded hand)."""
        game = deal.game
        public: dict[str, Any] = extras.cached("poker-round", game, lambda: cls._public_round(state, deal))
        player = None if seat is None else deal.seats.player(seat=seat.seat)
        if seat is None or player is None:
            return dict(public)
        own = _seen(game, player).players[player].to_dict()
        mine = cls._entry(state, deal, own)
        seats: list[dict[str, Any]] = [e for e in public["seats"] if e["seat"] != seat.seat]
        if mine is not None:
            seats = sorted([*seats, mine], key=lambda e: e["seat"])
        return {**public, "seats": seats, "seat": seat.seat}

    @classmethod
    def view(cls, state: TableState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """``game``, ``round`` (with its number), ``last`` (the previous round until the next one
        opens), ``actions`` open to ``seat`` (from its legal actions, capped by its chips),
        ``trainer`` (its advice) and ``trainer_available``."""
        assert state.deal is not None
        last = None
        if state.last is not None and not state.in_progress:
            last = {"number": state.last.number, **cls._round(state, state.last, seat, extras)}
        return {"game": "poker", "round": {"number": state.number, **cls._round(state, state.deal, seat, extras)},
                "last": last, "actions": cls._actions(state, seat),
                "trainer": extras.trainer.get(seat.seat) if seat else None, "trainer_available": True}

    @classmethod
    def _actions(cls, state: TableState, seat: Person | None) -> list[dict[str, Any]]:
        if seat is None or seat.is_bot or state.deal is None:
            return []
        out: list[dict[str, Any]] = []
        balance = seat.balance
        game = state.deal.game
        player = state.deal.seats.player_of(seat)
        if player is None:
            return []
        for o in game.legal_actions(player):
            k = o.kind.value
            if k == "withdraw_wagers":
                out.append({"kind": "withdraw"})
            elif k == "place_wagers":
                wager = {"kind": "wager", "ante_min": o.min_amount, "ante_max": cls.ante_max(state, balance),
                         "aces_up_min": getattr(o, "aces_up_min", 0),
                         "aces_up_max": min(getattr(o, "aces_up_max", 0), balance),
                         "aces_up_requires_ante": state.rules.aces_up_requires_ante, "balance": balance}
                me = _seen(game, player).players[player]
                wager["last"] = None if seat.bets is None else {"ante": seat.bets[0], "aces_up": seat.bets[1]}
                wager["same"] = wager["last"] if not (me.ante or me.aces_up) and cls.may_wager(
                    state, seat, *(seat.bets or (0, 0))) else None
                out.append(wager)
            elif k == "fold":
                out.append({"kind": "fold"})
            elif k == "play":
                if o.amounts is not None:
                    amounts = [a for a in o.amounts if a <= balance]
                else:
                    amounts = [o.min_amount, min(o.max_amount, balance)] if o.min_amount <= balance else []
                if amounts:
                    play = {"kind": "play", "min": amounts[0], "max": amounts[-1],
                            "ante": _seen(game, player).players[player].ante}
                    if o.amounts is not None:
                        play["amounts"] = amounts
                    out.append(play)
        return out
