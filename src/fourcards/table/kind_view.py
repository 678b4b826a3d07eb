"""Four of a Kind's part of a seat's view (:class:`~fourcards.table.games.GameView`): the deal in
table seats with every card face up, the referee's view (the next card, re-deals in words, the
take-back), the exact odds, the actions of the seat to act.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from fourcards.cards import Rank, parse_card
from fourcards.engine import GameState
from fourcards.kind import (
    Observation,
    exact_odds,
    side_pots,
)
from fourcards.table.kind_rules import KindTableRules, by_hand
from fourcards.table.seen import observe
from fourcards.table.state import DealState, Person, TableState
from fourcards.table.text import pretty

if TYPE_CHECKING:
    from fourcards.table.views import Extras

__all__ = ["KindTableView"]


#: The ranks, aces first (the referee's ``unseen`` counts).
_RANKS_DOWN = tuple(sorted(Rank, reverse=True))


def _seen(game: GameState, player: int | None = None) -> Observation:
    return cast(Observation, observe(game, player))


def _rank(rank: Rank) -> str:
    """A rank as the table writes it: "10" for a ten, else its character ("7", "Q")."""
    return "10" if rank is Rank.TEN else rank.char


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class KindTableView:
    """Four of a Kind's part of a seat's view (see the module doc); a part of
    :class:`fourcards.table.kind.KindTable`."""

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
        why = cls._why(seen, name)
        obs["awards"] = [{**a, "seat": order(a["seat"]), "name": name(a["seat"]), "why": w}
                         for a, w in zip(obs["awards"], why, strict=True)]
        if obs["payoffs"] is not None:
            obs["payoffs"] = {str(order(i)): v for i, v in enumerate(obs["payoffs"])}
        turns = [r for r in seen.history if r.op == "turn"]
        last = turns[-1].to_dict() if turns else None
        obs["last_turn"] = None if last is None else {
            "card": last["card"], "to": None if last["seat"] is None else order(last["seat"]),
            "to_name": None if last["seat"] is None else name(last["seat"])}
        obs["turned"] = len(turns)
        return obs

    @staticmethod
    def _why(seen: Observation, name: Any) -> list[str]:
        """Why each award of a finished deal went where it did, in words (play-test fault 8): the
        whole pot when everyone else folded or one player is left in a side pot; high to four of a
        kind or the highest hand; low to the fewest cards, and on a tie, to the lower rank
        (docs/rules.md FOAK-7, FOAK-9) - naming who tied."""
        if not seen.awards:
            return []
        held = {v.seat: v.holding for v in seen.seats if v.is_active and v.holding is not None}
        live = [v.is_active for v in seen.seats]
        try:
            pots = side_pots([v.contributed for v in seen.seats], live)
        except Exception:  # pragma: no cover - a finished deal always has its pots
            pots = []
        high_of = {a.pot: a.seat for a in seen.awards if a.share == "high"}
        side = [f" (side pot {a.pot})" if a.pot else "" for a in seen.awards]
        out = []
        for a, where in zip(seen.awards, side, strict=True):
            h = held.get(a.seat)
            if a.share == "whole":
                out.append("everyone else folded" if sum(live) <= 1 else f"the only player left in this pot{where}")
            elif a.share == "high":
                out.append("four of a kind" if h is not None and h.is_four else
                           f"the highest hand{where}: the most cards, then the higher rank")
            elif h is None or a.pot >= len(pots):  # pragma: no cover - a low half always has its holding
                out.append("low")
            else:
                rivals = [s for s in pots[a.pot].eligible if s not in (a.seat, high_of.get(a.pot)) and s in held]
                tied = [s for s in rivals if held[s].count == h.count]
                cards = f"{h.count} card{'s' if h.count != 1 else ''}"
                if not tied:
                    out.append(f"the fewest cards{where}: {cards}")
                else:
                    others = ", ".join(f"{name(s)} ({_rank(held[s].rank)})" for s in tied)
                    out.append(f"the fewest cards{where}: {cards}, tied with {others}; a tie goes to the lowest rank, "
                               f"{_rank(h.rank)}")
        return out

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
        shown = Counter(c.rank for v in seen.seats for c in v.cards)
        shown.update(c.rank for c in seen.discards)
        out: dict[str, Any] = {
            "actor_actions": [{k: v for k, v in o.to_dict().items() if k != "player"}
                              for o in game.legal_actions(game.actor)] if game.actor is not None else [],
            "raises_left": (max(0, seen.rules.max_wagers - max(1, seen.full_wagers))
                            if seen.phase == "betting" else None),
            "unseen": {r.char: 4 - shown[r] for r in _RANKS_DOWN},
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
        out.update(extras.cached("kind-table", state, lambda: cls._table_part(state)))
        return out

    @classmethod
    def _table_part(cls, state: TableState) -> dict[str, Any]:
        """What every seat's view says of the table's next deal (built once per state)."""
        ready = len(KindTableRules.players_in(state))
        return {"dealing": "table" if by_hand(state) else "deck", "next_deal": state.next_deal_number,
                "min_players": state.rules.min_players, "players_ready": ready,
                "why_no_deal": cls._why_no_deal(state, ready)}

    @staticmethod
    def _why_no_deal(state: TableState, ready: int) -> str | None:
        """Why the next deal cannot be dealt now, in words (play-test fault 2), or ``None``: a deal
        in progress or one that may start."""
        if state.deal is not None or state.status != "open":
            return None
        if state.paused:
            return "the table is paused by the host"
        need = state.rules.min_players
        if ready >= need:
            return None
        out = [p.name for _, p in sorted(state.players.items()) if p.sitting_out]
        short = [p.name for _, p in sorted(state.players.items())
                 if not p.sitting_out and p.balance < state.rules.ante]
        why = f"at least {need} players with chips for the ante are needed to deal; {ready} can play now"
        notes = []
        if out:
            notes.append(f"{_names(out)} {'sits' if len(out) == 1 else 'sit'} out")
        if short:
            notes.append(f"{_names(short)} {'lacks' if len(short) == 1 else 'lack'} chips for the ante")
        return why + (f" ({'; '.join(notes)})" if notes else "")
