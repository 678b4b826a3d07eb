"""The Four of a Kind table manager (see :mod:`fourcards.web.tables` for the pattern).

The host starts each deal; every seated player with chips for the ante is
dealt in (stacks = ledger balances: table stakes). Table seats are numbered
1-13; the engine's :class:`~fourcards.kind.game.Game` numbers the players of a
deal 0..n-1 in seat order, and views translate back to table seats. Ledger:
each action moves the change of every stack between the player and the deal's
``pot`` account (antes, bets, calls, raises, an uncalled bet returned, the
awards), so the pot's balance is zero when the deal ends.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fourcards.cards import parse_card
from fourcards.errors import FourcardsError
from fourcards.kind.actions import Action, ActionKind
from fourcards.kind.game import Game
from fourcards.kind.history import TurnCard
from fourcards.kind.rules import PRESETS, KindRules
from fourcards.store import DealClose, DealOpen, DealWrite, Entry
from fourcards.web.players import kind_bot_action, kind_bot_kinds
from fourcards.web.schemas import ActionIn
from fourcards.web.tables import ApiError, SeatInfo, Table

__all__ = ["KindTable", "kind_rules_from_dict"]


def kind_rules_from_dict(d: dict[str, Any]) -> KindRules:
    """A stored table's rules. Tables stored before the rules carried their
    preset ``name`` get one back: the preset they equal, else ``"custom"``.

    Raises:
        RulesError: invalid values.
    """
    if "name" in d or "name" not in KindRules.__dataclass_fields__:
        return KindRules.from_dict(d)
    rules = KindRules.from_dict(d)
    for preset, base in PRESETS.items():
        if rules.with_(name=base.name) == base:
            return rules.with_(name=preset)
    return rules.with_(name="custom")


def _pretty(card: str) -> str:
    return parse_card(card).pretty


class KindTable(Table):
    """A Four of a Kind table of up to ``rules.max_players`` seats (4-13 players a deal)."""

    game = "kind"
    game_title = "Four of a Kind"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current: Game | None = None
        self.last: Game | None = None
        self.order: list[int] = []        # engine seat index -> table seat, current deal
        self.last_order: list[int] = []
        self.last_number: int | None = None
        self.last_voided: str | None = None
        self.button_seat: int | None = self.settings.get("button_seat")
        self.odds: dict[int, Any] = {}    # engine seat -> PlayerOdds (current deal)
        self._odds_cache: dict[tuple[Any, ...], dict[int, Any]] = {}
        self._public: dict[str, Any] = {}
        self._public_version = -1

    @property
    def default_bot_kind(self) -> str:  # type: ignore[override]
        """The bot kind :meth:`add_bots` uses when none is named: ``"odds"`` if offered, else the first kind."""
        kinds = kind_bot_kinds()
        return "odds" if "odds" in kinds else kinds[0]

    def bot_kinds(self) -> tuple[str, ...]:
        """Four of a Kind bot kinds (the engine's bot registry, see :func:`fourcards.web.players.kind_bot_kinds`)."""
        return kind_bot_kinds()

    @property
    def max_seats(self) -> int:
        """Seats at the table, ``rules.max_players`` (at most 13, one per rank: seed 001 §2.2)."""
        return self.rules.max_players

    # ------------------------------------------------------------ helpers

    def _seat_of(self, index: int | None, order: list[int] | None = None) -> int | None:
        order = self.order if order is None else order
        return None if index is None else order[index]

    def _records_since(self, old: Game | None, new: Game) -> list[dict[str, Any]]:
        start = len(old.history) if old is not None else 0
        return [op.to_dict() for op in new.history[start:]]

    def _entries(self, old_stacks: list[int], new: Game) -> list[Entry]:
        entries = []
        total = 0
        for i, (a, b) in enumerate(zip(old_stacks, new.stacks)):
            if a != b:
                entries.append(Entry("player", b - a, self.players[self.order[i]].player_id,
                                     "award" if new.is_terminal and b > a else "pot"))
                total += b - a
        if total:
            entries.append(Entry("pot", -total, None, "pot"))
        return entries

    def _close(self, new: Game) -> DealClose | None:
        if not new.is_terminal:
            return None
        result = {
            "finish": new.finish_reason,
            "awards": [{**a.to_dict(), "table_seat": self.order[a.seat],
                        "name": self.players[self.order[a.seat]].name} for a in new.awards],
            "payoffs": {str(self.order[i]): p for i, p in enumerate(new.returns())},
        }
        return DealClose("settled", result)

    async def _compute_odds(self, game: Game) -> None:
        hs = game.holdings()
        key = tuple(sorted((s, h.rank, h.count) for s, h in hs.items())) + (game.phase.value,)
        if key not in self._odds_cache:
            if len(self._odds_cache) > 256:
                self._odds_cache.clear()
            self._odds_cache[key] = await asyncio.to_thread(game.odds)
        self.odds = self._odds_cache[key]
        self.touch()

    async def _commit_game(self, old: Game | None, new: Game, player: SeatInfo | None,
                           old_stacks: list[int], open_: DealOpen | None = None) -> None:
        close = self._close(new)
        write = DealWrite(table_id=self.id, deal_id=self.deal_id, open=open_, seq=self.seq,
                          player_id=player.player_id if player else None,
                          records=self._records_since(old, new), entries=self._entries(old_stacks, new),
                          close=close)
        number = open_.number if open_ else self.next_deal_number - 1
        await self.commit(write)
        self._log_ops(new, len(old.history) if old is not None else 0)
        if new.is_terminal:
            self.last, self.last_order, self.last_number, self.last_voided = new, self.order, number, None
            self.current = None
            self.odds = {}
            self.button_seat = self.order[new.next_button]
        else:
            self.current = new
            await self._compute_odds(new)

    def _name(self, index: int, order: list[int] | None = None) -> str:
        order = self.order if order is None else order
        return self.players[order[index]].name

    def _log_ops(self, game: Game, start: int) -> None:
        for op in game.history[start:]:
            d = op.to_dict()
            kind = d["op"]
            if kind == "action":
                amt = d["amount"]
                verb = {"check": "checks", "bet": "bets", "call": "calls", "raise": "raises",
                        "fold": "folds"}.get(d["kind"], d["kind"])
                self.add_log(f"{self._name(d['seat'])} {verb}" + (f" {amt}" if amt else ""))
            elif kind == "turn":
                if d["seat"] is None:
                    self.add_log(f"Turned {_pretty(d['card'])}: discarded")
                else:
                    self.add_log(f"Turned {_pretty(d['card'])} \u2192 {self._name(d['seat'])}")
            elif kind == "deal":
                self.add_log(f"{self._name(d['seat'])} is dealt {_pretty(d['card'])}")
            elif kind == "return":
                self.add_log(f"{_pretty(d['card'])} duplicates a rank: it goes back, the deck is reshuffled")
            elif kind == "uncalled":
                self.add_log(f"{self._name(d['seat'])} takes back an uncalled {d['amount']}")
            elif kind == "finish":
                if d["reason"] == "four":
                    self.add_log(f"{self._name(d['seat'])} completes four of a kind!")
                else:
                    self.add_log(f"{self._name(d['seat'])} is the last player in")
            elif kind == "award":
                self.add_log(f"{self._name(d['seat'])} takes {d['amount']} ({d['share']}"
                             + (f", side pot {d['pot']}" if d["pot"] else "") + ")")
            elif kind == "sit_out":
                self.add_log(f"{self._name(d['seat'])} sits this deal out (not enough chips for the ante)")

    # ------------------------------------------------------------ actions

    async def _start(self) -> None:
        if self.current is not None:
            raise ApiError(409, "a deal is already in progress")
        order = sorted(self.players)
        if len(order) < 2:
            raise ApiError(409, f"at least {self.rules.min_players} players are needed to deal; "
                                f"{len(order)} seated")
        stacks = [self.players[s].balance for s in order]
        button = order.index(self.button_seat) if self.button_seat in order else 0
        try:
            # the OS CSPRNG; engine messages name each seat by its player's name (DESIGN.md "Table play")
            game = Game(self.rules, stacks, button, seat_labels=[self.players[s].name for s in order])
        except FourcardsError as exc:
            raise ApiError(409, f"cannot deal: {exc}") from None
        self.order = order
        number = self.next_deal_number
        open_ = DealOpen(number, {str(i): self.players[s].player_id for i, s in enumerate(order)},
                         self.rules_dict())
        self.add_log(f"Deal {number} starts; the button is at {self.players[order[button]].name}")
        try:
            await self._commit_game(None, game, None, stacks, open_)
        except ApiError:
            self.order = []
            raise

    async def _act(self, seat: SeatInfo, a: ActionIn) -> None:
        if a.kind not in ("check", "bet", "call", "raise", "fold"):
            raise ApiError(422, f"{a.kind!r} is not a Four of a Kind action: use check, bet, call, raise or fold")
        game = self.current
        if game is None:
            raise ApiError(409, "no deal is in progress: the host starts the next deal")
        if seat.seat not in self.order:
            raise ApiError(409, "you are not dealt in this deal; you play from the next one")
        await self._move(seat, game, a.kind, a.amount or 0)

    async def _move(self, seat: SeatInfo, game: Game, kind: str, amount: int) -> None:
        actor = self._seat_of(game.actor)
        if actor != seat.seat:
            who = self.players[actor].name if actor is not None else "nobody"
            raise ApiError(409, f"not your turn: {who} is to act")
        new = game.clone()
        old_stacks = list(game.stacks)
        try:
            new.apply(Action(ActionKind(kind), amount))
        except FourcardsError as exc:
            raise ApiError(409, str(exc)) from None
        await self._commit_game(game, new, seat, old_stacks)

    async def _void(self, reason: str, by: SeatInfo | None) -> None:
        game = self.current
        if game is None:
            raise ApiError(409, "there is no deal in progress to void")
        entries = []
        for i, c in enumerate(game.contributed):
            if c:
                entries.append(Entry("player", c, self.players[self.order[i]].player_id, "refund"))
        total = sum(game.contributed)
        if total:
            entries.append(Entry("pot", -total, None, "refund"))
        number = self.next_deal_number - 1
        await self.commit(DealWrite(table_id=self.id, deal_id=self.deal_id, seq=self.seq,
                                    player_id=by.player_id if by else None,
                                    records=[{"op": "void", "reason": reason}], entries=entries,
                                    close=DealClose("voided", {"voided": True}, reason)))
        self.last, self.last_order, self.last_number, self.last_voided = game, self.order, number, reason
        self.current = None
        self.odds = {}
        self.add_log(f"Deal {number} voided ({reason}); every chip in the pot is returned")

    async def _bot_step(self) -> bool:
        game = self.current
        if game is None or game.actor is None:
            return False
        p = self.players[self.order[game.actor]]
        if not p.is_bot:
            return False
        action = await asyncio.to_thread(kind_bot_action, game, p.bot_kind, self.odds)
        await self._move(p, game, action.kind.value, action.amount)
        return True

    # -------------------------------------------------------------- views

    def _game_view(self, game: Game, order: list[int], odds: dict[int, Any]) -> dict[str, Any]:
        """The public view of a deal (every card is face up; never the deck), table seats."""
        obs = game.observation(None).to_dict(with_history=False)
        seats = []
        for sv in obs["seats"]:
            i = sv["seat"]
            p = self.players[order[i]]
            po = odds.get(i)
            seats.append({**sv, "seat": order[i], "name": p.name, "is_bot": p.is_bot,
                          "odds": None if po is None else {"p_high": po.high, "p_low": po.low,
                                                           "expected_share": po.share}})
        obs["seats"] = seats
        obs["actor"] = self._seat_of(obs["actor"], order)
        obs["button"] = order[obs["button"]]
        obs["pots"] = [{"amount": p["amount"], "eligible": [order[i] for i in p["eligible"]]} for p in obs["pots"]]
        obs["awards"] = [{**a, "seat": order[a["seat"]], "name": self.players[order[a["seat"]]].name}
                         for a in obs["awards"]]
        if obs["payoffs"] is not None:
            obs["payoffs"] = {str(order[i]): v for i, v in enumerate(obs["payoffs"])}
        last_turn = None
        turns = 0
        for op in reversed(game.history):
            if isinstance(op, TurnCard):
                if last_turn is None:
                    last_turn = {"card": str(op.card), "to": None if op.seat is None else order[op.seat],
                                 "to_name": None if op.seat is None else self.players[order[op.seat]].name}
                turns += 1
        obs["last_turn"] = last_turn
        obs["turned"] = turns
        return obs

    def view_deal(self, seat: SeatInfo | None) -> dict[str, Any]:
        """The Four of a Kind part of the state view for ``seat`` (``None``: a spectator).

        Keys: ``game``, ``deal`` (the deal in progress, with ``legal_actions`` and
        ``to_call`` in chips when ``seat`` is to act) or ``last`` (the last deal),
        ``actions``, ``host_actions``, ``next_deal`` and ``min_players``. Every card
        is face up, so all seats see the same deal; never the deck.
        """
        if self._public_version != self.version:
            public: dict[str, Any] = {"game": "kind", "deal": None, "last": None}
            if self.current is not None:
                public["deal"] = {"number": self.next_deal_number - 1,
                                  **self._game_view(self.current, self.order, self.odds)}
            elif self.last is not None:
                public["last"] = {"number": self.last_number, "voided": self.last_voided,
                                  **self._game_view(self.last, self.last_order, {})}
            self._public, self._public_version = public, self.version
        out = dict(self._public)
        deal = out["deal"]
        actions: list[dict[str, Any]] = []
        if deal is not None and seat is not None and not seat.is_bot and deal["actor"] == seat.seat:
            assert self.current is not None
            actions = [{k: v for k, v in la.to_dict().items() if k != "player"}  # table seats, not players
                       for la in self.current.legal_actions()]
            me = next(e for e in deal["seats"] if e["seat"] == seat.seat)
            out["deal"] = {**deal, "legal_actions": actions, "to_call": max(0, deal["bet"] - me["stake"])}
        out["actions"] = actions
        out["host_actions"] = self._host_actions(seat)
        out["next_deal"] = self.next_deal_number
        out["min_players"] = self.rules.min_players
        return out

    def _host_actions(self, seat: SeatInfo | None) -> list[str]:
        if seat is None or not seat.is_host:
            return []
        out = ["add_bots"] if len(self.players) < self.max_seats else []
        if self.current is None:
            out.append("deal")
        else:
            out.append("void")
        return out
