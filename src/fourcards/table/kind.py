"""Four of a Kind at a shared table.

The host's deal seats every player with chips for the ante (stacks = balances); the button
rotates; every card is a chance step drawn at once - or, at a table dealt with real cards
(``"dealing": "table"``), entered by the host (docs/rules.md FOAK-14, FOAK-15); the escrow
is the ``pot``, which pays the awards. The engine is :class:`fourcards.kind.Game`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

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
from fourcards.table.errors import TableError
from fourcards.table.games import TableGame, TableSpec
from fourcards.table.players import kind_bot_names, kind_move
from fourcards.table.seats import DealSeats
from fourcards.table.seen import observe
from fourcards.table.state import DealState, Person, TableState
from fourcards.table.text import pretty

if TYPE_CHECKING:
    from fourcards.table.commands import Move
    from fourcards.table.draft import Draft
    from fourcards.table.views import Extras

__all__ = ["KindTable"]

_VERBS = {"check": "checks", "bet": "bets", "call": "calls", "raise": "raises", "fold": "folds"}


def _seen(game: GameState, player: int | None = None) -> Observation:
    return cast(Observation, observe(game, player))


def by_hand(state: TableState) -> bool:
    """Whether the table is dealt with real cards the host enters (FOAK-14)."""
    return state.settings.get("dealing") == "table"


class KindTable(TableGame):
    """Four of a Kind at a table (see the module doc)."""

    game = "kind"
    title = "Four of a Kind"
    escrow = "pot"
    house = None
    action_kinds = ("check", "bet", "call", "raise", "fold")
    default_bot = "odds"
    word = "Deal"
    default_clock = 30  # DESIGN.md "Table play (web) rulings"
    rules_fields = ("ante", "min_bet", "max_bet", "max_raises", "redeal")

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
        """A stored table's rules. Tables stored before the rules carried their preset ``name``
        get one back: the preset they equal, else ``"custom"``.

        Raises:
            RulesError: invalid values.
        """
        rules = KindRules.from_dict(d)
        if "name" in d:
            return rules
        return next((rules.with_(name=n) for n, base in KIND_PRESETS.items() if rules.with_(name=base.name) == base),
                    rules.with_(name="custom"))

    @staticmethod
    def settings(rules: KindRules, spec: TableSpec) -> dict[str, Any]:
        """``starting_chips`` of a new table (must cover the ante) and ``dealing``: ``"deck"``
        (default) or ``"table"`` (real cards entered by the host; FOAK-14).

        Raises:
            TableError: 422 naming ``starting_chips`` or ``bot_ante`` (a poker setting).
        """
        if spec.bot_ante is not None:
            raise TableError(422, "bot_ante applies to Four Card Poker tables only "
                                  "(Four of a Kind bots pay the table's ante)")
        if spec.starting_chips < rules.ante:
            raise TableError(422, f"starting_chips: {spec.starting_chips} chips do not cover this table's ante "
                                  f"of {rules.ante}: every seat would sit out")
        return {"starting_chips": spec.starting_chips, "dealing": spec.dealing or "deck"}

    @staticmethod
    def max_seats(rules: Any) -> int:
        """``rules.max_players`` (at most 13, one per rank: seed 001 §2.2)."""
        return int(rules.max_players)

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Bots of a new table when the host asks for none in particular: enough for a deal with
        the host (``min_players`` - 1; seed 000 "four or more players")."""
        return int(rules.min_players) - 1

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The engine's bots and the installed plug-ins (:func:`fourcards.table.players.kind_bot_names`)."""
        return kind_bot_names()

    @staticmethod
    def rules_label(rules: KindRules) -> str:
        """``family`` (seed 000) is "Family rules: ante 5, bets 5–10"; ``opr903`` (seed 001)
        "Official rules: ..., every duplicate re-dealt"; ``nickel`` "Nickel game: ante 5¢, bets
        5¢–10¢" (in cents); rules changed from a preset say so."""
        preset, _, custom = rules.name.partition("+")
        who = {"family": "Family rules", "opr903": "Official rules", "nickel": "Nickel game"}.get(preset, "Custom rules")
        if custom and who != "Custom rules":
            who += ", changed"
        unit = "¢" if preset == "nickel" else ""
        text = f"{who}: ante {rules.ante}{unit}, bets {rules.min_bet}{unit}–{rules.max_bet}{unit}"
        if rules.max_raises != 3:
            text += f", {rules.max_raises} raises at most"
        return text + (", every duplicate re-dealt" if rules.redeal.value == "all_duplicates" else "")

    @classmethod
    def preset_labels(cls) -> dict[str, str]:
        """``{"family": "Family rules: ante 5, bets 5–10", ...}``."""
        return {name: cls.rules_label(r) for name, r in KIND_PRESETS.items()}

    @staticmethod
    def players_in(state: TableState) -> list[int]:
        """The seats the next deal deals in: seated, not sitting out, with chips for the ante."""
        return [s for s, p in sorted(state.players.items()) if not p.sitting_out and p.balance >= state.rules.ante]

    # ------------------------------------------------------------ deals

    @classmethod
    def auto_chance(cls, state: TableState) -> bool:
        """Cards are drawn at once from the shuffled deck, unless the host enters real cards."""
        return not by_hand(state)

    @classmethod
    def replay(cls, state: TableState, records: Sequence[dict[str, Any]], seats: DealSeats | None = None) -> GameState:
        """The deal of stored records (its ``start`` record first); with its ``seats`` the
        engine's messages name each player as in the live deal."""
        return Game.replay(state.rules, records, seat_labels=None if seats is None else seats.names)

    @classmethod
    def start(cls, d: Draft) -> None:
        """Every seated player with chips for the ante is dealt in; the button moves on."""
        s = d.state
        if s.deal is not None:
            raise TableError(409, "a deal is already in progress")
        order = [n for n, p in sorted(s.players.items()) if not p.sitting_out]
        ready = cls.players_in(s)
        if len(ready) < s.rules.min_players:
            raise TableError(409, f"at least {s.rules.min_players} players with chips for the ante are needed to "
                                  f"deal; {len(ready)} can play now")
        button = order.index(s.button_seat) if s.button_seat in order else 0
        seats = DealSeats.dealt(order, s.players)
        try:  # every card a chance step; messages name each seat by its player's name (DESIGN.md "Table play")
            game = Game(s.rules, [s.players[n].balance for n in order], button, cards=(), seat_labels=seats.names)
        except FourcardsError as exc:
            raise TableError(409, f"cannot deal: {exc}") from None
        d.log(f"Deal {s.number} starts; the button is at {seats.name(button)}")
        d.begin(game, seats)

    @classmethod
    def can_deal(cls, state: TableState) -> bool:
        """Between deals, with at least ``min_players`` players who can play."""
        return state.deal is None and len(cls.players_in(state)) >= state.rules.min_players

    @classmethod
    def action(cls, state: TableState, move: Move, player: int, seen: Any) -> Any:
        """The betting move (the amount: chips above the current bet, or the call).

        Raises:
            TableError: 422 for the trainer (it advises Four Card Poker decisions).
        """
        if move.trainer:
            raise TableError(422, f"trainer does not belong to a {move.kind} at Four of a Kind (the trainer "
                                  "advises Four Card Poker decisions)")
        return Action(ActionKind(move.kind), move.amount or 0, player=player)

    @staticmethod
    def void(reason: str) -> Any:
        """The deal's :class:`~fourcards.kind.Void`."""
        return Void(reason)

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """The player folds out of turn, out of every pot (docs/rules.md FOAK-17): its
        :class:`~fourcards.kind.Forfeit`; ``None`` when it has folded already or the deal is over."""
        from fourcards.kind import Forfeit

        if game.is_terminal or not _seen(game).seats[player].is_active:
            return None
        return Forfeit(player)

    @staticmethod
    def dealt_in(player: int, seen: Any) -> bool:
        """Every player of the deal in progress takes part in it (its ante is in the pot)."""
        return True

    @staticmethod
    def stakes(seen: Observation) -> list[int]:
        """What each seat has put in the pot during the deal (ante included)."""
        return [v.contributed for v in seen.seats]

    @classmethod
    def result(cls, state: TableState, game: GameState) -> dict[str, Any]:
        """How the deal finished, the awards and each table seat's net (``payoffs``)."""
        assert state.deal is not None
        seen, seats = _seen(game), state.deal.seats
        finish = next((r.to_dict()["reason"] for r in reversed(seen.history) if r.op == "finish"), None)
        return {"finish": finish,
                "awards": [{**a.to_dict(), "table_seat": seats.seat(a.seat), "name": seats.name(a.seat)}
                           for a in seen.awards],
                "payoffs": {str(seats.seat(i)): p for i, p in enumerate(game.returns())}}

    @classmethod
    def log_lines(cls, records: list[dict[str, Any]], game: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """Each betting move, card, uncalled bet, forfeit, finish, award and seat sitting out."""
        lines = []
        for r in records:
            who = name(r["seat"]) if r.get("seat") is not None else ""
            card = pretty(r["card"]) if "card" in r else ""
            line = {"action": f"{who} {_VERBS.get(r.get('kind', ''))}" + (f" {r.get('amount')}" if r.get("amount") else ""),
                    "turn": f"Turned {card} \u2192 {who}" if who else f"Turned {card}: discarded",
                    "deal": f"{who} is dealt {card}",
                    "return": f"{card} duplicates a rank: it goes back, the deck is reshuffled",
                    "uncalled": f"{who} takes back an uncalled {r.get('amount')}",
                    "forfeit": f"{who} folds (the hand is forfeited: out of every pot)",
                    "finish": f"{who} " + ("completes four of a kind!" if r.get("reason") == "four" else "is the last player in"),
                    "award": f"{who} takes {r.get('amount')} ({r.get('share')}" + (f", side pot {r['pot']}" if r.get("pot") else "") + ")",
                    "sit_out": f"{who} sits this deal out (not enough chips for the ante)"}.get(r["op"])
            if line:
                lines.append(line)
        return lines

    @classmethod
    def finished(cls, d: Draft, game: GameState) -> None:
        """After a finished deal the button moves on (not after a void)."""
        seen = _seen(game)
        if seen.phase != "voided":
            stacks = [v.stack for v in seen.seats]
            assert d.state.deal is not None
            d.set(button_seat=d.state.deal.seats.seat(next_button(stacks, seen.button, d.state.rules)))

    @classmethod
    def fresh(cls, state: TableState) -> DealState | None:
        """No deal between deals."""
        return None

    @classmethod
    def bot_action(cls, state: TableState, person: Person, seen: Any, options: Sequence[LegalAction],
                   rng: random.Random | None) -> Any:
        """The engine's bot ``person.bot_kind`` (default ``odds``)."""
        return kind_move(person.bot_kind or cls.default_bot, seen, options, rng)

    # ------------------------------------------------------------ real cards

    @classmethod
    def cards_entered(cls, state: TableState, text: str) -> GameState:
        """A clone of the deal's engine state with the host's real cards ``text`` dealt or turned,
        in order (``"9c"``, ``"10h"``, ``"T♥"``; several separated by spaces or commas or written
        together, ``"9c10hT♥"``: :func:`fourcards.cards.read_cards`), each
        applied as the engine's chance record (``DealCard`` to the next player of the
        observation's ``deal_queue``, ``TurnCard`` to the holder of its rank): the engine does
        the rest (re-deals of FOAK-2, discards, betting rounds, the end on a fourth card). All
        or nothing (docs/rules.md FOAK-14).

        Raises:
            TableError: 409 at a table dealt from the server's deck; 422 for text that is not
                cards; 409 for a card already seen (naming it and where it lies) or one that is
                not due (a player is to act, or the deal is over).
        """
        if not by_hand(state):
            return super().cards_entered(state, text)
        assert state.deal is not None
        try:
            cards = read_cards(text)
        except FourcardsError as exc:
            raise TableError(422, f"cards: {exc}") from None
        if not cards:
            raise TableError(422, "cards: no card given (e.g. \"9c\", \"10h\" or \"T♥\")")
        game = state.deal.game.clone()
        for i, card in enumerate(cards):
            after = f"after {', '.join(pretty(c) for c in cards[:i])}, " if i else ""
            nothing = " - none of the cards was entered" if i else ""
            if game.is_terminal:
                raise TableError(409, f"no card is due: {after}the deal is over, so {pretty(card)} cannot be "
                                      f"entered{nothing}")
            if game.actor is not None:
                raise TableError(409, f"no card is due: {after}{state.deal.seats.name(game.actor)} is to act; the next "
                                      f"card comes after the betting{nothing}")
            seen = _seen(game)
            where = cls._where(state, seen, card)
            if where:
                what = f"{after}{pretty(card)}"
                raise TableError(409, f"{what[0].upper()}{what[1:]} has already been seen: {where}, and a card "
                                      f"cannot appear twice{nothing}")
            if game.chance_step == "deal":
                record: DealCard | TurnCard = DealCard(seen.deal_queue[0], card)
            else:
                holder = next((v.seat for v in seen.seats if v.is_active and v.cards[0].rank == card.rank), None)
                record = TurnCard(card, holder)
            try:
                game.apply(record)
            except FourcardsError as exc:  # pragma: no cover - every refusal is checked above
                raise TableError(409, str(exc)) from None
        return game

    @staticmethod
    def _where(state: TableState, seen: Observation, card: Any) -> str | None:
        """Where a card already seen lies: a player's card, or a discarded turned card."""
        assert state.deal is not None
        for v in seen.seats:
            if card in v.cards:
                return f"it is {state.deal.seats.name(v.seat)}'s card" + (" (folded)" if v.status == "folded" else "")
        if card in seen.discards:
            return "it was turned and discarded"
        return None

    @classmethod
    def taken_back(cls, state: TableState) -> tuple[GameState, str]:
        """The deal before its last card and the table log's line for it: the host takes back a
        mistyped card until the next action (the observation's ``last_card``), the deal rebuilt
        by the engine's replay of its history up to that card - what followed the card by itself
        goes with it (docs/rules.md FOAK-15).

        Raises:
            TableError: 409 at a table dealt from the server's deck, before any card, after an
                action since the last card, or once the deal is over.
        """
        if not by_hand(state):
            return super().taken_back(state)
        assert state.deal is not None
        game = state.deal.game
        seen = _seen(game)
        last = seen.last_card
        if last is None:
            records = [op.to_dict() for op in seen.history]
            card = next((r for r in reversed(records) if r["op"] in ("deal", "turn")), None)
            acted = next((r for r in reversed(records) if r["op"] == "action"), None)
            why = ("the deal is over" if game.is_terminal else "no card has been entered in this deal yet"
                   if card is None or acted is None else
                   f"{state.deal.seats.name(acted['seat'])} has acted since {pretty(card['card'])} was "
                   f"{'dealt' if card['op'] == 'deal' else 'turned'}")
            raise TableError(409, f"no card to take back: {why} (a card can be taken back only until the next "
                                  "action)")
        at = max(i for i, op in enumerate(game.history) if op == last)
        seats = state.deal.seats
        new = Game.replay(state.rules, [op.to_dict() for op in game.history[:at]], seat_labels=seats.names)
        if isinstance(last, DealCard):
            where = f"dealt to {seats.name(last.seat)}"
        else:
            where = "turned and discarded" if last.seat is None else f"turned to {seats.name(last.seat)}"
        return new, f"The host takes back {pretty(last.card)} ({where})"

    # ------------------------------------------------------------ views

    @classmethod
    def odds_key(cls, state: TableState) -> Any:
        """The active players' holdings and the phase: the exact odds depend on nothing else."""
        if not state.in_progress or state.deal is None:
            return None
        seen = _seen(state.deal.game)
        held = seen.holdings()
        return tuple(sorted((s, h.rank, h.count) for s, h in held.items())) + (seen.phase,)

    @classmethod
    def compute_odds(cls, state: TableState) -> dict[int, Any]:
        """The exact P(high), P(low) of each active player (:func:`fourcards.kind.exact_odds`)."""
        if state.deal is None:
            return {}
        held = _seen(state.deal.game).holdings()
        players = list(held)
        return dict(zip(players, exact_odds([held[p] for p in players]))) if players else {}

    @classmethod
    def _deal(cls, state: TableState, deal: DealState, odds: Mapping[int, Any]) -> dict[str, Any]:
        """The public view of a deal (every card is face up; never the deck), in table seats."""
        order, name = deal.seats.seat, deal.seats.name
        seen = _seen(deal.game)
        obs = seen.to_dict(with_history=False)
        seats = []
        for sv in obs["seats"]:
            i = sv["seat"]
            po = odds.get(i)
            p = deal.seats.person(i, state.people)
            seats.append({**sv, "seat": order(i), "name": name(i), "is_bot": bool(p and p.is_bot),
                          "odds": None if po is None else {"p_high": po.high, "p_low": po.low,
                                                           "expected_share": po.share}})
        obs["seats"] = seats
        obs["actor"] = None if obs["actor"] is None else order(obs["actor"])
        obs["button"] = order(obs["button"])
        obs["deal_queue"] = [order(i) for i in obs["deal_queue"]]
        obs["pots"] = [{"amount": p["amount"], "eligible": [order(i) for i in p["eligible"]]} for p in obs["pots"]]
        obs["awards"] = [{**a, "seat": order(a["seat"]), "name": name(a["seat"])} for a in obs["awards"]]
        if obs["payoffs"] is not None:
            obs["payoffs"] = {str(order(i)): v for i, v in enumerate(obs["payoffs"])}
        turns = [r.to_dict() for r in seen.history if r.op == "turn"]
        obs["last_turn"] = None if not turns else {
            "card": turns[-1]["card"], "to": None if turns[-1]["seat"] is None else order(turns[-1]["seat"]),
            "to_name": None if turns[-1]["seat"] is None else name(turns[-1]["seat"])}
        obs["turned"] = len(turns)
        return obs

    @classmethod
    def _referee(cls, state: TableState, deal: DealState) -> dict[str, Any]:
        """What a referee tells the table about the deal in progress, in table seats (docs/web.md
        "Four of a Kind table"): ``actor_actions`` (the legal actions and amounts of the player
        to act), ``raises_left`` (full raises the raise cap still allows this round, ``None``
        outside a betting round), ``unseen`` (cards of each rank not yet seen, aces first),
        ``next_card`` (``None`` unless a card is due: ``step`` ``"deal"`` or ``"turn"``,
        ``seat``/``name`` it is dealt to, ``redeal`` - the players waiting for a new card after a
        duplicated rank - and ``why``, the re-deal rule in words; on a turn, ``completes``: the
        players a card of their rank would give four of a kind) and ``take_back`` (the last card
        while the host may take it back, else ``None``)."""
        game = deal.game
        seen = _seen(game)
        shown = [c for v in seen.seats for c in v.cards] + list(seen.discards)
        out: dict[str, Any] = {
            "actor_actions": [{k: v for k, v in o.to_dict().items() if k != "player"}
                              for o in game.legal_actions(game.actor)] if game.actor is not None else [],
            "raises_left": (max(0, seen.rules.max_wagers - max(1, seen.full_wagers))
                            if seen.phase == "betting" else None),
            "unseen": {r.char: 4 - sum(1 for c in shown if c.rank == r) for r in sorted(Rank, reverse=True)},
            "next_card": cls._next_card(state, deal, seen),
            "take_back": None,
        }
        last = seen.last_card if by_hand(state) else None
        if last is not None:
            out["take_back"] = {"card": str(last.card), "step": last.op,
                                "seat": None if last.seat is None else deal.seats.seat(last.seat),
                                "name": None if last.seat is None else deal.seats.name(last.seat)}
        return out

    @classmethod
    def _next_card(cls, state: TableState, deal: DealState, seen: Observation) -> dict[str, Any] | None:
        """The card due (see :meth:`_referee`), with the re-deal rule of docs/rules.md FOAK-2 in words
        for people (no rule-book citation: seed 000's rule, or seed 001 §2.3's at ``opr903``)."""
        step = deal.game.chance_step
        if step is None:
            return None
        seat, name = deal.seats.seat, deal.seats.name

        if step == "turn":
            return {"step": "turn", "seat": None, "name": None, "redeal": [], "why": None,
                    "completes": [{"seat": seat(v.seat), "name": name(v.seat), "rank": v.cards[0].rank.char}
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
            why = (f"{name(p)}'s {pretty(card)} has the rank of {other}: all ranks must differ, so it goes back, "
                   f"the deck is reshuffled and {name(p)} gets a new card")
        elif waiting:
            who = [name(r["seat"]) for r in waiting]
            listed = ", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else who[0]
            why = (f"{listed} held a duplicated rank ({', '.join(pretty(r['card']) for r in returned)} went back): "
                   "all ranks must differ, so the deck is reshuffled and each gets a new card, in turn")
        return {"step": "deal", "seat": seat(queue[0]), "name": name(queue[0]),
                "redeal": [{"seat": seat(r["seat"]), "name": name(r["seat"]), "card": r["card"]} for r in waiting],
                "why": why}

    @classmethod
    def public_view(cls, state: TableState, extras: Extras) -> dict[str, Any]:
        """The part of the game's view that every seat shares: ``game``, ``deal`` (the deal in
        progress with the referee's view) or ``last`` (the last deal; ``voided``: the ruling)."""
        public: dict[str, Any] = {"game": "kind", "deal": None, "last": None}
        if state.in_progress and state.deal is not None:
            public["deal"] = {"number": state.number, **cls._deal(state, state.deal, extras.odds),
                              **cls._referee(state, state.deal)}
        elif state.last is not None:
            last = _seen(state.last.game)
            voided = last.history[-1].to_dict().get("reason") if last.phase == "voided" else None
            public["last"] = {"number": state.last.number, "voided": voided, **cls._deal(state, state.last, {})}
        return public

    @classmethod
    def view(cls, state: TableState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """``game``, ``deal`` (the deal in progress, with ``legal_actions``, ``to_call`` (chips: the
        call's amount, short when the call is all-in) and ``call_all_in`` when ``seat`` is to act, and the referee's view of :meth:`_referee`) or ``last`` (the last
        deal; ``voided``: the ruling), ``actions``, ``dealing`` (``"deck"`` or ``"table"``: real
        cards entered by the host), ``next_deal``, ``min_players`` and ``players_ready`` (seated,
        not sitting out, with chips for the ante: the next deal needs ``min_players`` of them).
        Every card is face up: all seats see the same deal."""
        out = dict(extras.shared_game(state, lambda: cls.public_view(state, extras)))
        deal = out["deal"]
        actions: list[dict[str, Any]] = []
        if deal is not None and seat is not None and not seat.is_bot and deal["actor"] == seat.seat:
            assert state.deal is not None
            actions = [{k: v for k, v in o.to_dict().items() if k != "player"}  # table seats, not players
                       for o in state.deal.game.legal_actions(state.deal.seats.player(seat=seat.seat))]
            call = next((a for a in actions if a["kind"] == "call"), None)  # what the call button says
            out["deal"] = {**deal, "legal_actions": actions, "to_call": call["min_amount"] if call else 0,
                           "call_all_in": bool(call and call.get("all_in"))}
        out["actions"] = actions
        out["dealing"] = "table" if by_hand(state) else "deck"
        out["next_deal"] = state.next_deal_number
        out["min_players"] = state.rules.min_players
        out["players_ready"] = len(cls.players_in(state))
        return out
