"""Small Four of a Kind: a research variant small enough to solve - **not the seeds' game**.

The seeds' Four of a Kind (4-13 players, 13 ranks, 40-ante stacks, bets of 5-10 and three raises)
has far too many states for equilibrium solvers. This variant keeps its rules (docs/rules.md
FOAK-2 to FOAK-8: one rank per player, betting rounds opened by the highest hand, every card of
a player's rank going to that player, high and low) on a table small enough for CFR:

* **2 or 3 players** (``players``);
* **fewer cards to wait for**: every player is dealt ``start`` cards of their rank face up at
  once (1: the seeds' deal; 2: a player needs two more of the four, 3: one more). Only the
  missing cards matter (fourcards.kind.odds: the rest of a deal is a uniform order of the
  missing cards), so this is the seeds' race with fewer cards per rank, and the exact odds,
  the bots and their features apply unchanged;
* **ranks by their order only**: cards of ranks nobody holds are only ever discarded (FOAK-5)
  and change no chance that matters, so the deal draws the order of the players' ranks (one of
  ``players!`` equally likely) and the turn draws which player's rank comes next (weighted by
  the cards each still misses): any deck of at least ``players`` ranks plays the same;
* **a bet size or two**: fixed bets of ``min_bet``..``max_bet`` chips (spread limit; 1 and 1: one
  size) with ``max_raises`` raises after the bet (the raise cap), and an ``ante``;
* **no stacks**: every player can always call, so there are no all-ins and no side pots;
* **payout** ``"split"`` (FOAK-7: high and low share the pot, the odd chip to high) or
  ``"high"`` (the player who completes four takes the pot). With two players the split gives each
  half of every pot whatever happens (high and low are always different players), so betting
  would change nothing: ``"auto"`` (the default) pays ``high`` with two players, ``split`` with
  three.

:class:`SmallDeal` is the game in pure Python (a deal's state, its legal ids - the ids of
:class:`fourcards.rl.encoding.KindActions`: ``0`` fold, ``1`` check, ``2`` call, ``2 + a`` bet or
raise ``a`` - and chance); ``import fourcards.openspiel`` registers it as
``python_small_kind_variant`` (:mod:`fourcards.openspiel`). :func:`bot_policy` turns a built-in or
plug-in bot into a policy of the game (its engine observation of each state), :func:`solve` runs
OpenSpiel's CFR+ or external-sampling MCCFR and measures exploitability (docs/rl.md "A game small
enough to solve").
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fourcards.cards import Card
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind.actions import ActionKind, LegalAction
from fourcards.kind.observation import Observation, SeatView
from fourcards.kind.pots import side_pots
from fourcards.kind.rules import KindRules

__all__ = ["SmallKindRules", "SmallDeal", "bot_policy", "solve", "DEEP_STACK"]

#: The chips behind every player in the observations bots see: deep enough that nobody is ever all in.
DEEP_STACK = 10_000
_RANKS = (3, 8, 13)  # the ranks the bots see for the rank positions 0, 1, 2 (only their order matters)


@dataclass(frozen=True)
class SmallKindRules:
    """The variant's table (see the module doc). Amounts in whole chips.

    Raises:
        RulesError: players outside 2-3, start outside 1-3, an ante below 1, bets or raise cap as
            :class:`~fourcards.kind.rules.KindRules` refuses them, an unknown payout.
    """

    players: int = 2
    start: int = 2
    ante: int = 1
    min_bet: int = 1
    max_bet: int = 1
    max_raises: int = 1
    payout: str = "auto"

    def __post_init__(self) -> None:
        for name, lo, hi in (("players", 2, 3), ("start", 1, 3), ("ante", 1, 100), ("max_raises", 0, 3)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise RulesError(f"{name} must be a whole number {lo}-{hi} in the small variant, got {v!r}")
        self.kind_rules()  # the bets, as the seeds' rules check them
        if self.payout not in ("auto", "high", "split"):
            raise RulesError(f"payout must be 'auto', 'high' or 'split', got {self.payout!r}")

    @property
    def split(self) -> bool:
        """Whether high and low share the pot (``split``, or ``auto`` with three players)."""
        return self.payout == "split" or (self.payout == "auto" and self.players == 3)

    def kind_rules(self) -> KindRules:
        """The seeds' rules object with these amounts (what the bots see)."""
        return KindRules(ante=self.ante, min_bet=self.min_bet, max_bet=self.max_bet, max_raises=self.max_raises,
                         min_players=2, max_players=3, name="small-variant")

    @property
    def num_actions(self) -> int:
        """Action ids: fold, check, call, bet or raise 1..max_bet."""
        return 3 + self.max_bet

    @property
    def max_rounds(self) -> int:
        """Betting rounds at most: the first, then one per card that does not complete four."""
        return 1 + self.players * (3 - self.start)

    @property
    def max_game_length(self) -> int:
        """Moves at most, chance included: per round, ``players`` moves before the first wager and
        ``players - 1`` after each of the ``1 + max_raises`` wagers; one turned card per round; the deal."""
        n = self.players
        per_round = n + (1 + self.max_raises) * n
        return 1 + self.max_rounds * (per_round + 1)


class SmallDeal:
    """One deal of the variant, mutable (:meth:`copy`). ``phase``: ``deal``, ``betting``, ``turning`` or
    ``finished``; ``actor``: the player to act (``None`` at chance or the end)."""

    __slots__ = ("rules", "phase", "order", "counts", "folded", "contrib", "stake", "need", "mayraise", "level",
                 "wagers", "actor", "winner", "low")

    def __init__(self, rules: SmallKindRules) -> None:
        n = rules.players
        self.rules = rules
        self.phase = "deal"
        self.order: tuple[int, ...] = ()
        self.counts = [rules.start] * n
        self.folded = [False] * n
        self.contrib = [rules.ante] * n
        self.stake = [0] * n
        self.need = [False] * n
        self.mayraise = [False] * n
        self.level = 0
        self.wagers = 0
        self.actor: int | None = None
        self.winner: int | None = None
        self.low: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> SmallDeal:
        return self.copy()  # OpenSpiel clones a state with copy.deepcopy: the rules are shared (frozen)

    def copy(self) -> SmallDeal:
        """An independent copy."""
        d = SmallDeal.__new__(SmallDeal)
        d.rules, d.phase, d.order = self.rules, self.phase, self.order
        d.counts, d.folded, d.contrib = list(self.counts), list(self.folded), list(self.contrib)
        d.stake, d.need, d.mayraise = list(self.stake), list(self.need), list(self.mayraise)
        d.level, d.wagers, d.actor, d.winner, d.low = self.level, self.wagers, self.actor, self.winner, self.low
        return d

    # ------------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)``: at the deal, each order of the players' ranks (an index into
        ``itertools.permutations``); when turning, each active player whose rank comes next, weighted by
        the cards it misses."""
        if self.phase == "deal":
            k = math.factorial(self.rules.players)
            return [(i, 1.0 / k) for i in range(k)]
        if self.phase != "turning":
            return []
        live = [p for p in range(self.rules.players) if not self.folded[p]]
        total = sum(4 - self.counts[p] for p in live)
        return [(p, (4 - self.counts[p]) / total) for p in live]

    def apply_chance(self, outcome: int) -> None:
        """Apply a chance outcome (see :meth:`chance_outcomes`).

        Raises:
            IllegalActionError: no chance step now, or an outcome it does not offer.
        """
        if outcome not in [o for o, _ in self.chance_outcomes()]:
            raise IllegalActionError(f"chance outcome {outcome!r} is not offered now ({self.phase})")
        if self.phase == "deal":
            self.order = next(itertools.islice(itertools.permutations(range(self.rules.players)), outcome, None))
            self._start_round(max(range(self.rules.players), key=lambda p: self.order[p]))
            return
        self.counts[outcome] += 1
        if self.counts[outcome] == 4:
            self._finish(outcome)
            return
        live = [p for p in range(self.rules.players) if not self.folded[p]]
        self._start_round(max(live, key=lambda p: (self.counts[p], self.order[p])))

    # ------------------------------------------------------------------ betting

    def _start_round(self, opener: int) -> None:
        n = self.rules.players
        self.phase = "betting"
        self.level = self.wagers = 0
        self.stake = [0] * n
        self.need = [not f for f in self.folded]
        self.mayraise = list(self.need)
        self.actor = opener

    def legal_ids(self) -> list[int]:
        """The ids the player to act may take (empty at chance or the end)."""
        s = self.actor
        if s is None:
            return []
        r = self.rules
        wager = self.mayraise[s] and self.wagers < 1 + r.max_raises
        bets = [2 + a for a in range(r.min_bet, r.max_bet + 1)] if wager else []
        if self.level - self.stake[s] <= 0:
            return [1, *bets]
        return [0, 2, *bets]

    def apply(self, action: int) -> None:
        """The player to act takes id ``action``.

        Raises:
            IllegalActionError: nobody to act, or an id that is not legal now (naming the legal ones).
        """
        if action not in self.legal_ids():
            raise IllegalActionError(f"action {action!r} is not legal now: legal ids {self.legal_ids()}")
        s = self.actor
        assert s is not None
        n = self.rules.players
        if action == 0:
            self.folded[s] = True
        elif action == 2:
            pay = self.level - self.stake[s]
            self.stake[s] += pay
            self.contrib[s] += pay
        elif action >= 3:
            pay = self.level - self.stake[s] + action - 2
            self.stake[s] += pay
            self.contrib[s] += pay
            self.level = self.stake[s]
            self.wagers += 1
            for x in range(n):
                if x != s and not self.folded[x]:
                    self.need[x] = self.mayraise[x] = True
        self.need[s] = self.mayraise[s] = False
        live = [p for p in range(n) if not self.folded[p]]
        if len(live) == 1:  # FOAK-8: the last player takes the pot
            self._finish(None)
            return
        for step in range(1, n + 1):
            x = (s + step) % n
            if self.need[x]:
                self.actor = x
                return
        self.actor = None
        self.phase = "turning"

    def _finish(self, four: int | None) -> None:
        self.phase = "finished"
        self.actor = None
        live = [p for p in range(self.rules.players) if not self.folded[p]]
        self.winner = four if four is not None else live[0]
        if four is not None and self.rules.split:
            others = [p for p in live if p != four]
            self.low = min(others, key=lambda p: (self.counts[p], self.order[p])) if others else None

    @property
    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.phase == "finished"

    def returns(self) -> list[float]:
        """Each player's net chips (zeros until the end; they sum to zero)."""
        n = self.rules.players
        if not self.is_terminal:
            return [0.0] * n
        pot = sum(self.contrib)
        won = [0] * n
        assert self.winner is not None
        if self.low is None:
            won[self.winner] = pot
        else:
            won[self.low] = pot // 2
            won[self.winner] = pot - pot // 2  # the odd chip to high (FOAK-7)
        return [float(won[p] - self.contrib[p]) for p in range(n)]

    # ------------------------------------------------------------------ the bots' view

    def observation(self) -> Observation:
        """The table as an engine :class:`~fourcards.kind.observation.Observation` for the player to act,
        with deep stacks (:data:`DEEP_STACK`) and ranks keeping the players' order: what a bot of the seeds'
        game sees (its legal actions included)."""
        s = self.actor
        if s is None:
            raise IllegalActionError("nobody is to act: a bot sees a betting round")
        n = self.rules.players
        views = []
        for p in range(n):
            rank = _RANKS[self.order[p]] if n == 3 else _RANKS[2 * self.order[p]]
            cards = tuple(Card((rank - 2) * 4 + k) for k in range(self.counts[p]))
            views.append(SeatView(p, "folded" if self.folded[p] else "active", cards, DEEP_STACK - self.contrib[p],
                                  self.contrib[p], self.stake[p]))
        live = [not f for f in self.folded]
        legal: list[LegalAction] = []
        ids = self.legal_ids()
        r = self.rules
        bets = [a - 2 for a in ids if a >= 3]
        kind = ActionKind.BET if self.level == 0 else ActionKind.RAISE
        if 1 in ids:
            legal.append(LegalAction(ActionKind.CHECK, player=s))
        else:
            pay = self.level - self.stake[s]
            legal += [LegalAction(ActionKind.FOLD, player=s), LegalAction(ActionKind.CALL, pay, pay, player=s)]
        if bets:
            legal.append(LegalAction(kind, bets[0], bets[-1], player=s))
        return Observation(seat=s, rules=r.kind_rules(), phase="betting", button=0, round_number=0, actor=s,
                           seats=tuple(views), discards=(), cards_in_deck=sum(4 - c for c in self.counts),
                           pot=sum(self.contrib), pots=tuple(side_pots([c - st for c, st in
                                                                        zip(self.contrib, self.stake, strict=True)],
                                                                       live)),
                           bet=self.level, full_wagers=self.wagers, legal_actions=tuple(legal), history=(),
                           awards=(), payoffs=None)


def _action_id(action: Any) -> int:
    if action.kind is ActionKind.FOLD:
        return 0
    if action.kind is ActionKind.CHECK:
        return 1
    if action.kind is ActionKind.CALL:
        return 2
    return 2 + int(action.amount)


def bot_probabilities(bot: Any, deal: SmallDeal) -> dict[int, float]:
    """The bot's move at ``deal`` as probabilities over ids: a ``random`` bot's exactly (an option
    uniformly, then an amount uniformly: :class:`fourcards.kind.bots.RandomBot`), any other bot's one
    move (bots are deterministic but ``random``).

    Raises:
        IllegalActionError: the bot chose an id that is not legal.
    """
    import random

    from fourcards.kind.bots import RandomBot

    obs = deal.observation()
    if isinstance(bot, RandomBot):
        out: dict[int, float] = {}
        for la in obs.legal_actions:
            amounts = range(la.min_amount, la.max_amount + 1)
            for a in amounts:
                key = _action_id(la.action(a))
                out[key] = out.get(key, 0.0) + 1.0 / len(obs.legal_actions) / len(amounts)
        return out
    a = _action_id(bot.act(obs, obs.legal_actions, random.Random(0)))
    if a not in deal.legal_ids():
        raise IllegalActionError(f"bot {getattr(bot, 'name', bot)!r} chose {a}: legal ids {deal.legal_ids()}")
    return {a: 1.0}


def bot_policy(game: Any, bot: Any) -> Any:
    """An OpenSpiel ``TabularPolicy`` of ``python_small_kind_variant`` where every player plays ``bot``
    (a name, :func:`fourcards.kind.bots.make_bot`, or a bot object): at every state, the bot's move on its
    engine observation (:meth:`SmallDeal.observation`)."""
    from open_spiel.python import policy as os_policy

    from fourcards.kind.bots import make_bot

    b = make_bot(bot) if isinstance(bot, str) else bot
    tab = os_policy.TabularPolicy(game)
    for index, state in enumerate(tab.states):  # state_lookup's order: index i is states[i]
        row = tab.action_probability_array[index]
        row[:] = 0.0
        for a, p in bot_probabilities(b, state.deal).items():
            row[a] = p
    return tab


def solve(game: Any, algorithm: str = "cfr+", iterations: Sequence[int] = (10, 100), *, seed: int = 0,
          progress: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run OpenSpiel's ``cfr+`` (``CFRPlusSolver``), ``cfr`` or ``mccfr`` (external sampling) on ``game`` and
    measure the average policy's exploitability (``open_spiel.python.algorithms.exploitability``: its
    NashConv over the players, chips per deal) after each count of ``iterations``.

    Returns:
        one row per count: ``{"algorithm", "iterations", "exploitability", "nash_conv", "seconds"}`` (seconds
        of solving, the measurements excluded).

    Raises:
        RulesError: an unknown algorithm.
    """
    import numpy as np
    from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr

    if algorithm == "cfr+":
        solver: Any = cfr.CFRPlusSolver(game)
    elif algorithm == "cfr":
        solver = cfr.CFRSolver(game)
    elif algorithm == "mccfr":
        np.random.seed(seed)
        solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    else:
        raise RulesError(f"unknown algorithm {algorithm!r}: cfr+, cfr or mccfr")
    rows: list[dict[str, Any]] = []
    done, spent = 0, 0.0
    for target in sorted(iterations):
        t0 = time.perf_counter()
        while done < target:
            if algorithm == "mccfr":
                solver.iteration()
            else:
                solver.evaluate_and_update_policy()
            done += 1
        spent += time.perf_counter() - t0
        avg = solver.average_policy()
        conv = float(exploitability.nash_conv(game, avg))
        row = {"algorithm": algorithm, "iterations": done, "exploitability": conv / game.num_players(),
               "nash_conv": conv, "seconds": spent}
        rows.append(row)
        if progress is not None:
            progress(row)
    return rows
