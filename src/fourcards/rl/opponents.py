"""Opponents inside the Four of a Kind environments: bots, policies, pools drawn per deal, a self-play league.

Every Four of a Kind environment takes ``opponents=`` (docs/rl.md "Opponents and self-play"):
:func:`fourcards.rl.kind_env`, :func:`~fourcards.rl.kind_session_env`, the Gymnasium
``fourcards/FourOfAKind-v0`` (:class:`fourcards.rl.kind_gym.KindGymEnv`) and
:class:`~fourcards.rl.kind_vector.KindVectorEnv`. The seats they fill are played inside the
environment; the caller plays the others (the *learner's* seats) and sees only their turns.

An opponent **spec** is any of:

* a bot name: a built-in (``odds``, ``cautious``, ``random``, ``pots``, ``learned``), an installed
  plug-in (:func:`fourcards.kind.bots.bot_names`), or ``file:PATH``, an agent file
  (:mod:`fourcards.rl.agents`);
* a bot: an object with ``act(observation, legal_actions, rng)`` (:class:`fourcards.kind.bots.Bot`);
* an agent (:func:`fourcards.rl.agents.load`);
* a policy ``policy(tensor, mask) -> id`` on the tensors of :mod:`fourcards.rl.encoding`
  (as :func:`fourcards.rl.bots.policy_bot` takes); with an attribute ``vectorized = True`` it takes
  a batch instead, ``policy(tensors[k, 28 n + 6], masks[k, 3 + max_bet]) -> ids[k]`` (what the
  batched environment calls once for every deal where that opponent is to act);
* an :class:`OpponentPool` (or a :class:`League`): every deal, each seat it fills draws one of
  its members (by weight).

``opponents`` itself is one spec for every seat but the learner's (``seat``, default 0), or a
sequence with one entry per seat: a spec, or ``None`` for a seat the learner plays.
:func:`seat_plan` reads it. A pool's draws come from the environment's own generator, seeded by
``reset(seed=...)``, and never from the cards' (the same seed deals the same cards whatever the
opponents do).

numpy only: nothing here imports a learning framework.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fourcards.errors import RulesError

__all__ = ["OpponentPool", "League", "SeatBots", "seat_plan", "engine_bot", "spec_name"]


class OpponentPool:
    """Opponents drawn per deal: each deal, every seat the pool fills plays one member, drawn by weight.

    Args:
        members: opponent specs (see the module doc; not pools).
        weights: relative weights (default equal).

    Raises:
        RulesError: no members, a pool among them, or weights that are not one non-negative number
            per member with a positive sum.
    """

    def __init__(self, members: Sequence[Any], weights: Sequence[float] | None = None) -> None:
        self._members = list(members)
        self._weights = None if weights is None else [float(w) for w in weights]
        self.version = 0
        self._check()

    def _check(self) -> None:
        if not self._members:
            raise RulesError("an opponent pool needs at least one member")
        if any(isinstance(m, OpponentPool) for m in self._members):
            raise RulesError("an opponent pool's members are opponents, not pools")
        w = self.weights
        if len(w) != len(self._members) or any(not np.isfinite(x) or x < 0 for x in w) or sum(w) <= 0:
            raise RulesError(f"an opponent pool needs one weight >= 0 per member ({len(self._members)}), "
                             f"summing above 0, got {list(w)}")

    @property
    def members(self) -> list[Any]:
        """The opponent specs (a copy)."""
        return list(self._members)

    @property
    def weights(self) -> list[float]:
        """Each member's relative weight."""
        return list(self._weights) if self._weights is not None else [1.0] * len(self._members)

    def draw(self, rng: np.random.Generator, size: int | None = None) -> Any:
        """Index(es) of members drawn by weight (``size`` of them, or one ``int``)."""
        w = np.asarray(self.weights)
        return rng.choice(len(w), size=size, p=w / w.sum())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({[spec_name(m) for m in self._members]}, weights={self.weights})"


class League(OpponentPool):
    """A self-play league: fixed opponents and snapshots of the learner, one pool drawn per deal.

    ``League(["pots", "random"], snapshots=5, self_play=0.5)`` starts as the fixed opponents, equally
    likely. :meth:`add` puts a snapshot of the learner in (a frozen copy: the caller's, e.g.
    :func:`fourcards.rl.sb3.frozen_policy` of a model, or a copied table); the newest ``snapshots``
    are kept, and once there is one, a seat draws a snapshot with probability ``self_play`` (each
    equally likely) and a fixed opponent otherwise. An environment given the league draws the new
    members from its next deals on (:attr:`version` tells it the members changed);
    :class:`fourcards.rl.sb3.SelfPlayCallback` adds snapshots while Stable-Baselines3 trains.

    Raises:
        RulesError: no fixed opponents, ``snapshots`` < 1, or ``self_play`` outside 0..1.
    """

    def __init__(self, fixed: Sequence[Any] = ("random",), *, snapshots: int = 8, self_play: float = 0.5) -> None:
        if isinstance(snapshots, bool) or not isinstance(snapshots, int) or snapshots < 1:
            raise RulesError(f"snapshots must be a whole number >= 1, got {snapshots!r}")
        if not 0.0 <= float(self_play) <= 1.0:
            raise RulesError(f"self_play is a probability (0 to 1), got {self_play!r}")
        self.fixed = list(fixed)
        self.snapshots: list[Any] = []
        self.names: list[str] = []
        self.max_snapshots = snapshots
        self.self_play = float(self_play)
        super().__init__(self.fixed)

    def add(self, snapshot: Any, name: str | None = None) -> str:
        """Add ``snapshot`` (an opponent spec, frozen) to the league; returns its name
        (``snapshot-1``, ``snapshot-2``, ... unless given)."""
        self.snapshots.append(snapshot)
        self.names.append(name or f"snapshot-{len(self.names) + 1}")
        del self.snapshots[:-self.max_snapshots]
        kept = self.names[-len(self.snapshots):]
        self._members = self.fixed + self.snapshots
        f, s = len(self.fixed), len(self.snapshots)
        share = self.self_play if f else 1.0
        self._weights = [(1.0 - share) / f] * f + [share / s] * s
        if sum(self._weights) <= 0:  # self_play 0: the snapshots are kept but never drawn
            self._weights = [1.0] * f + [0.0] * s
        self.version += 1
        self._check()
        return kept[-1]


def spec_name(spec: Any) -> str:
    """A short name for an opponent spec (for messages and tables)."""
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__)


def seat_plan(opponents: Any, players: int, seat: int | None = None) -> tuple[list[int], list[Any]]:
    """The learner's seats and each seat's opponent spec (``None`` at a learner's seat).

    Args:
        opponents: one spec (or pool) for every seat but ``seat``, or one entry per seat (``None``:
            the learner's), or ``None``: no opponents (every seat the learner's).
        players: seats at the table.
        seat: the learner's seat when ``opponents`` is one spec (default 0).

    Raises:
        RulesError: a sequence of the wrong length, a seat out of range, or no seat left to the learner.
    """
    if opponents is None:
        return list(range(players)), [None] * players
    if isinstance(opponents, (list, tuple)):
        if seat is not None:
            raise RulesError("give the learner's seat as None among the opponents, or one opponent and seat=")
        if len(opponents) != players:
            raise RulesError(f"{players} seats need {players} opponents (None for the learner's seats), "
                             f"got {len(opponents)}")
        specs = list(opponents)
    else:
        s = 0 if seat is None else seat
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players:
            raise RulesError(f"seat must be a seat 0..{players - 1} (people see 1..{players}), got {seat!r}")
        specs = [None if x == s else opponents for x in range(players)]
    learners = [x for x, spec in enumerate(specs) if spec is None]
    if not learners:
        raise RulesError("every seat has an opponent: leave the learner's seat None")
    return learners, specs


class _VectorizedBot:
    """A batch policy on tensors as a bot (one row a call)."""

    def __init__(self, policy: Callable[..., Any], name: str) -> None:
        self.policy = policy
        self.name = name

    def __call__(self, tensor: np.ndarray, mask: np.ndarray) -> int:
        return int(np.asarray(self.policy(tensor[None, :], mask[None, :])).reshape(-1)[0])


def engine_bot(spec: Any) -> Any:
    """The bot (an object with ``act(observation, legal_actions, rng)``) that plays ``spec``.

    Raises:
        RulesError: an unknown bot name or a spec that is no bot, agent nor policy.
    """
    from fourcards.kind.bots import make_bot
    from fourcards.rl.bots import PolicyBot

    if isinstance(spec, OpponentPool):
        raise RulesError("a pool is drawn per deal: resolve its members, not the pool")
    if isinstance(spec, str):
        return make_bot(spec)
    if callable(getattr(spec, "kind_bot", None)):  # an agent (fourcards.rl.agents)
        return spec.kind_bot()
    if callable(getattr(spec, "act", None)):
        return spec
    if callable(spec):
        name = spec_name(spec)
        return PolicyBot(_VectorizedBot(spec, name) if getattr(spec, "vectorized", False) else spec, name)
    raise RulesError(f"an opponent is a bot name, a bot, an agent or a policy (tensor, mask) -> id, got {spec!r}")


class SeatBots:
    """The bots of one table's opponent seats for the engine-driven environments, pools drawn per deal.

    Args:
        specs: one entry per seat (``None``: the learner's seat), as :func:`seat_plan` gives.
    """

    def __init__(self, specs: Sequence[Any]) -> None:
        self.specs = list(specs)
        self._cache: dict[tuple[int, int], Any] = {}
        self.bots: list[Any] = [None] * len(self.specs)
        self.rng = random.Random()
        self._draws = np.random.default_rng()

    def seed(self, seed: int | None) -> None:
        """Seed the bots' random choices and the pools' draws (``None``: from the OS)."""
        self.rng = random.Random(None if seed is None else seed ^ 0x0BB0)
        self._draws = np.random.default_rng(None if seed is None else [seed, 0x0BB0])

    def _resolve(self, seat: int, spec: Any) -> Any:
        key = (seat, id(spec))  # a bot per seat (a plug-in may keep state)
        if key not in self._cache:
            self._cache[key] = (spec, engine_bot(spec))
        return self._cache[key][1]

    def deal(self) -> None:
        """Seat this deal's bots (a pool's seats draw a member each)."""
        for s, spec in enumerate(self.specs):
            if spec is None:
                self.bots[s] = None
            elif isinstance(spec, OpponentPool):
                self.bots[s] = self._resolve(s, spec.members[int(spec.draw(self._draws))])
            else:
                self.bots[s] = self._resolve(s, spec)

    def play(self, game: Any, chance: Callable[[], None]) -> None:
        """Let the opponents act until a learner's seat is to act or the deal is over (``chance()`` after each)."""
        while not game.is_terminal and game.actor is not None and self.bots[game.actor] is not None:
            seat = game.actor
            obs = game.observation(seat)
            game.apply(self.bots[seat].act(obs, obs.legal_actions, self.rng))
            chance()
