"""Four of a Kind from one seat against opponents, as a Gymnasium environment (``fourcards/FourOfAKind-v0``).

:class:`KindGymEnv` is one deal an episode, played from the learner's seat; the other seats are
opponents (:mod:`fourcards.rl.opponents`: bots, policies, pools drawn per deal) that act inside
:meth:`~KindGymEnv.step`. It is the single environment of :class:`~fourcards.rl.kind_vector.KindVectorEnv`:
``gymnasium.make_vec("fourcards/FourOfAKind-v0", num_envs=4096, opponents="learned")`` gives the
batched environment with the same spaces, observations, masks and rewards (:func:`make_vector`).

* **Observation** - ``float32[28 n + 6]`` in ``[0, 1]``: :func:`fourcards.rl.encoding.kind_tensor` of the
  table as the learner's seat sees it (docs/rl.md "Observation tensor").
* **Action** - ``Discrete(3 + max_bet)``: the ids of :class:`fourcards.rl.encoding.KindActions`;
  ``info["action_mask"]`` (``int8``) and :meth:`~KindGymEnv.action_masks` (booleans) mark the legal ones,
  ``action_space.sample()`` draws a legal id (:class:`LegalIdSpace`). An id the mask forbids costs the
  deal: the learner forfeits it (``illegal="forfeit"``, the default; docs/rules.md FOAK-17: folded at
  once, every chip it put in stays in the pot - never cheaper than folding), the opponents play it out
  and ``info["illegal"]`` is ``True``; with ``illegal="raise"`` it raises
  :class:`~fourcards.errors.IllegalActionError` and changes nothing.
* **Reward** - the learner's net chips when the deal ends (0 before); the episode ends by termination.
* **Deals** - every deal starts from the same stacks; the button is ``button``, or (``None``, default)
  seat ``k % players`` for the ``k``-th deal since the last seeded reset, as the batched environment.

The deal is the engine's (:class:`~fourcards.kind.game.Game`), driven through the engine protocol.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from fourcards.errors import IllegalActionError, RulesError
from fourcards.extras import require
from fourcards.kind.game import Game, can_play
from fourcards.kind.rules import KindRules
from fourcards.rl.encoding import KindActions, kind_string, kind_tensor, kind_tensor_size
from fourcards.rl.kind_vector import KindVectorEnv
from fourcards.rl.opponents import SeatBots, seat_plan
from fourcards.rl.tables import table_rules, table_stacks

require("rl", "fourcards.rl.KindGymEnv")
import gymnasium as gym  # noqa: E402
from gymnasium import spaces  # noqa: E402

__all__ = ["KindGymEnv", "LegalIdSpace", "make_vector"]


class LegalIdSpace(spaces.Discrete):
    """``Discrete(3 + max_bet)`` whose ``sample()`` (no mask given) draws one of the ids legal now in ``env``
    (any id once the deal is over), as ``action_space.sample()`` does in every environment here."""

    def __init__(self, n: int, env: KindGymEnv) -> None:
        super().__init__(n)
        self._env = env

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._env.game is not None:
            legal = self._env.action_masks()
            if legal.any():
                return np.int64(self.np_random.choice(np.flatnonzero(legal)))
        return super().sample(mask=mask, probability=probability)


class KindGymEnv(gym.Env):
    """One deal of Four of a Kind from the learner's seat against opponents (see the module doc).

    Args:
        players: seats (the rules' 4..13).
        stack / stacks: chips per seat at the start of every deal (default 40 antes each).
        button: the dealer seat, or ``None``: it moves one seat each deal.
        rules: the table's :class:`~fourcards.kind.rules.KindRules` (default ``family``); or
        preset / ``**fields``: a preset name and rule fields, as :func:`fourcards.rl.kind_env`.
        opponents: the other seats (default ``"random"``; :mod:`fourcards.rl.opponents`).
        seat: the learner's seat when ``opponents`` is one spec (default 0).
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        illegal: ``"forfeit"`` (an id the mask forbids forfeits the deal) or ``"raise"`` (it is refused).

    Raises:
        RulesError: a table the rules cannot deal, a bad opponent, a learner seat that cannot ante, an
            unknown render mode or ``illegal``.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int | None = None,
                 rules: KindRules | None = None, preset: str = "family", opponents: Any = "random",
                 seat: int | None = None, render_mode: str | None = None, illegal: str = "forfeit",
                 **fields: Any) -> None:
        if illegal not in ("forfeit", "raise"):
            raise RulesError(f"illegal must be 'forfeit' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.rules = rules if rules is not None else table_rules(preset, **fields)
        self.stacks = table_stacks(players, stack, stacks, self.rules)
        Game(self.rules, self.stacks, 0 if button is None else button, cards=())  # validates the table
        if render_mode not in (None, "ansi", "human"):
            raise RulesError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        learners, specs = seat_plan(opponents, players, seat)
        if len(learners) != 1:
            raise RulesError(f"one learner seat against opponents: leave exactly one seat None, got {len(learners)}")
        self.learner = learners[0]
        if not can_play(self.stacks[self.learner], self.rules):
            raise RulesError(f"the learner's seat {self.learner + 1} cannot pay the ante ({self.rules.ante})")
        self.players, self.fixed_button, self.render_mode = players, button, render_mode
        self.opponents = SeatBots(specs)
        self.encoder = KindActions(self.rules)
        self.total_chips = sum(self.stacks)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(kind_tensor_size(players),), dtype=np.float32)
        self.action_space = LegalIdSpace(self.encoder.num_actions, self)
        self.game: Game | None = None
        self.deals = 0
        self._cards = random.Random()

    def _run_chance(self) -> None:
        assert self.game is not None
        while not self.game.is_terminal and self.game.actor is None and self.game.chance_step is not None:
            self.game.apply_chance(self._cards)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self.game is not None
        legal = self.game.legal_actions(self.learner)
        return (kind_tensor(self.game.observation(self.learner), self.total_chips),
                {"action_mask": self.encoder.mask(legal), "actor": self.game.actor})

    def _play(self) -> None:
        """Chance and the opponents until the learner is to act or the deal is over."""
        assert self.game is not None
        self._run_chance()
        self.opponents.play(self.game, self._run_chance)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal (the opponents act first where they are to); ``seed`` seeds the cards, the opponents' choices
        and the pools' draws. Returns ``(obs, info)``."""
        super().reset(seed=seed)
        if seed is not None:
            self._cards = random.Random(seed)
            self.opponents.seed(seed)
            self.deals = 0
        else:
            self._cards = random.Random(int(self.np_random.integers(2 ** 63)))
        button = self.fixed_button if self.fixed_button is not None else self.deals % self.players
        self.deals += 1
        self.game = Game(self.rules, self.stacks, button, cards=())
        self.opponents.deal()
        self._play()
        obs, info = self._observe()
        self._show()
        return obs, info

    def action_masks(self) -> np.ndarray:
        """``bool[3 + max_bet]``: the learner's legal ids now (all ``False`` once the deal is over).

        Raises:
            IllegalActionError: before :meth:`reset`.
        """
        if self.game is None:
            raise IllegalActionError("no deal in progress: call reset() first")
        return self.encoder.mask(self.game.legal_actions(self.learner)).astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action id; the opponents answer: ``(obs, reward, terminated, False, info)``.

        Raises:
            IllegalActionError: before :meth:`reset` or after the deal's end; an id the mask forbids with
                ``illegal="raise"`` (nothing changes; else the learner forfeits the deal).
        """
        if self.game is None or self.game.is_terminal:
            raise IllegalActionError("no deal in progress: call reset() to deal the next one")
        illegal = False
        try:
            act = self.encoder.action(int(action), self.game.legal_actions(self.learner))
        except (TypeError, ValueError) as exc:
            if self.illegal == "raise":
                raise IllegalActionError(f"{self.game.seat_label(self.learner)}: {exc}") from None
            illegal = True
        if illegal:
            self.game.forfeit(self.learner)
        else:
            self.game.apply(act)
        self._play()
        obs, info = self._observe()
        info["illegal"] = illegal
        done = self.game.is_terminal
        reward = float(self.game.returns()[self.learner]) if done else 0.0
        self._show()
        return obs, reward, done, False, info

    def _show(self) -> None:
        if self.render_mode == "human" and self.game is not None:
            print(kind_string(self.game.observation(self.learner)))

    def render(self) -> str | None:
        """``"ansi"``: the table as the learner sees it, one line; ``"human"``: printed (returns ``None``)."""
        if self.render_mode is None or self.game is None:
            return None
        text = kind_string(self.game.observation(self.learner))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make_vector(num_envs: int, players: int = 4, *, stack: int | None = None, stacks: Any = None,
                button: int | None = None, rules: KindRules | None = None, preset: str = "family",
                opponents: Any = "random", seat: int | None = None, render_mode: str | None = None,
                threads: int = 1, **fields: Any) -> KindVectorEnv:
    """``gymnasium.make_vec("fourcards/FourOfAKind-v0", num_envs, ...)``: :class:`KindVectorEnv` with the
    arguments of :class:`KindGymEnv` (and ``threads``).

    Raises:
        RulesError: as :class:`KindGymEnv`.
    """
    if render_mode is not None:
        raise RulesError("the batched environment does not render: render_mode must be None")
    return KindVectorEnv(num_envs, players, stack=stack, stacks=stacks, button=button,
                         rules=rules if rules is not None else table_rules(preset, **fields), threads=threads,
                         opponents=opponents, seat=seat)
