"""Four Card Poker as a Gymnasium environment: one player against the dealer, one round an episode.

Encoding (docs/rl.md has the tables):

* **Observation** - ``int8`` vector of :data:`OBS_SIZE` = 104: ``obs[c] = 1`` for
  each of the player's five cards and ``obs[52 + c] = 1`` for the dealer's up card,
  ``c`` the card index ``(rank - 2) * 4 + suit`` (twos first; clubs, diamonds,
  hearts, spades; :mod:`fourcards.cards`).
* **Action** - ``Discrete(4)``: ``0`` fold, ``k = 1, 2, 3`` a play bet of ``k`` x
  the ante (seed 002 §3.1). ``info["action_mask"]`` (``int8[4]``) marks the legal
  ones, read from the round's legal actions: the ``online`` preset (seed 004:
  exactly 1x or 3x) masks 2x. The action space's ``sample()`` draws legal actions
  only; stepping with a masked action raises
  :class:`~fourcards.errors.IllegalActionError` and changes nothing.
* **Reward** - the player's net chips from the settlement (ante, play bet, ante
  bonus, Aces Up, win cap: :mod:`fourcards.poker.settlement`), so with the
  default ante of 1 chip it is in antes. The episode ends after the one decision.

:class:`PokerEnv` plays each round through the engine protocol
(:class:`~fourcards.poker.round.PokerRound`: place wagers, the deal as a chance
step, the decision, ``returns()``). :class:`PokerVectorEnv` plays ``num_envs``
rounds per step with the same encoding, dealt and settled by the simulator's
numba kernels (:func:`fourcards.sim.poker.deal_rounds`,
:func:`~fourcards.sim.poker.settle_rounds`, whose settlement table is built from
the same settlement core) - millions of episodes a second, for learners.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from fourcards.cards import FULL_DECK, parse_card, parse_cards
from fourcards.errors import CardError, IllegalActionError, RulesError
from fourcards.extras import require
from fourcards.poker.round import ActionKind, Deal, PokerRound
from fourcards.poker.rules import PokerRules, get_rules
from fourcards.rl.encoding import ACTIONS, OBS_SIZE, action_mask, encode

require("rl", "fourcards.rl.PokerEnv")
import gymnasium as gym  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from fourcards.rl.registration import POKER_ENV_ID, register_envs  # noqa: E402

__all__ = ["ACTIONS", "OBS_SIZE", "ENV_ID", "PlayBetSpace", "PlayBetBatchSpace", "PokerEnv", "PokerVectorEnv",
           "action_mask", "encode"]

def _rules(rules: PokerRules | str, ante_bonus: str | None, aces_up_table: str | None) -> PokerRules:
    if isinstance(rules, PokerRules):
        if ante_bonus or aces_up_table:
            raise RulesError("give pay tables with a preset name, or put them in the PokerRules")
        return rules
    return get_rules(rules, ante_bonus=ante_bonus, aces_up=aces_up_table)


class PlayBetSpace(spaces.Discrete):
    """``Discrete(4)`` (fold, play 1x, 2x, 3x) whose ``sample()`` draws only the actions the
    rules allow (``allowed``, an ``int8[4]`` mask), unless a mask or probabilities are given."""

    def __init__(self, allowed: np.ndarray, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(len(ACTIONS), seed=seed)
        self.allowed = np.asarray(allowed, dtype=np.int8)

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        """A legal action (uniform over the allowed ones by default)."""
        if mask is None and probability is None:
            mask = self.allowed
        return super().sample(mask=mask, probability=probability)

    def __repr__(self) -> str:
        return f"PlayBetSpace(allowed={[a for a, m in zip(ACTIONS, self.allowed, strict=True) if m]})"


class PlayBetBatchSpace(spaces.MultiDiscrete):
    """``MultiDiscrete([4] * num_envs)`` (one decision per round) whose ``sample()`` draws, for every
    round, only the actions the rules allow (``allowed``, an ``int8[4]`` mask: ``online`` has no 2x),
    unless a mask or probabilities are given. ``batch_space`` of a :class:`PlayBetSpace` would lose the
    mask (a plain ``MultiDiscrete`` samples 2x under ``online``)."""

    def __init__(self, allowed: np.ndarray, num_envs: int, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(np.full(num_envs, len(ACTIONS), dtype=np.int64), seed=seed)
        self.allowed = np.asarray(allowed, dtype=np.int8)
        self._choices = np.flatnonzero(self.allowed)

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        """``num_envs`` legal actions (uniform over the allowed ones by default)."""
        if mask is None and probability is None:
            return self._choices[self.np_random.integers(0, len(self._choices), self.nvec.shape)].astype(self.dtype)
        return super().sample(mask=mask, probability=probability)

    def __repr__(self) -> str:
        return (f"PlayBetBatchSpace(num_envs={len(self.nvec)}, "
                f"allowed={[a for a, m in zip(ACTIONS, self.allowed, strict=True) if m]})")


def _check_wagers(rules: PokerRules, ante: int, aces_up: int) -> None:
    option = PokerRound(rules, players=1).legal_actions(0)[0]
    if isinstance(ante, bool) or not isinstance(ante, int) or isinstance(aces_up, bool) \
            or not isinstance(aces_up, int) or ante < 1 or not option.allows(option.action(ante, aces_up)):
        raise RulesError(f"ante {ante!r} and Aces Up {aces_up!r} are not wagers the table allows "
                         f"(ante {option.min_amount}-{option.max_amount}, Aces Up 0 or "
                         f"{option.aces_up_min}-{option.aces_up_max} chips)")


def _static_mask(rules: PokerRules, ante: int) -> np.ndarray:
    """The mask of every decision: fold, and the play bets :meth:`PokerRules.play_amounts` allows."""
    amounts = rules.play_amounts(ante)
    return np.array([1] + [int(k * ante in amounts) for k in (1, 2, 3)], dtype=np.int8)


class PokerEnv(gym.Env):
    """Four Card Poker, one round an episode, for one player against the dealer (Gymnasium).

    Args:
        rules: a :class:`~fourcards.poker.rules.PokerRules` or a preset name
            (``"live"``: play 1x-3x, seed 002; ``"online"``: 1x or 3x, seed 004).
        ante: the ante in chips (default 1, so rewards are in antes).
        aces_up: an Aces Up bet in chips every round (default 0: none).
        render_mode: ``None``, ``"ansi"`` (:meth:`render` returns a line of text) or ``"human"``
            (:meth:`render` prints it).
        ante_bonus / aces_up_table: pay tables for a preset, as text (``"30/15/2"``).

    ``reset(seed=..., options={"cards": "As Ad 7c 5h 2d", "dealer": "Kc ...", "up_card": "Kc"})``
    deals the given cards instead of shuffling; any of the three may be left out and is
    then dealt from the rest of the deck (``dealer`` without ``up_card``: the up card is the
    dealer's last card; ``up_card`` without ``dealer``: five more cards join it). See the
    module doc for the encoding. :meth:`action_masks` is the mask as booleans (what
    ``sb3_contrib``'s MaskablePPO asks for).

    Raises:
        RulesError: unknown preset or pay table, or wagers outside the table limits.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, rules: PokerRules | str = "live", *, ante: int = 1, aces_up: int = 0,
                 render_mode: str | None = None, ante_bonus: str | None = None,
                 aces_up_table: str | None = None) -> None:
        self.rules = _rules(rules, ante_bonus, aces_up_table)
        _check_wagers(self.rules, ante, aces_up)
        if render_mode not in (None, "ansi", "human"):
            raise RulesError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.ante, self.aces_up, self.render_mode = ante, aces_up, render_mode
        self.observation_space = spaces.Box(0, 1, shape=(OBS_SIZE,), dtype=np.int8)
        self.action_space = PlayBetSpace(_static_mask(self.rules, ante))
        self.state: PokerRound | None = None

    # ------------------------------------------------------------- protocol use

    def _observe(self) -> np.ndarray:
        assert self.state is not None
        view = self.state.observation(0)
        cards = view.players[0].cards
        assert cards is not None and view.up_card is not None
        return encode(cards, view.up_card)

    def _info(self) -> dict[str, Any]:
        assert self.state is not None
        info: dict[str, Any] = {"action_mask": action_mask(self.state.legal_actions(0), self.ante)}
        if self.state.is_terminal:
            result = self.state.observation(0).players[0].result
            info["result"] = None if result is None else result.to_dict()
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Place the wagers and deal (a shuffled deck, or ``options`` cards); returns ``(obs, info)``.

        Raises:
            CardError: malformed or impossible ``options`` cards (a card twice, the up card not
                among the dealer's).
            RulesError: an option other than ``cards``, ``dealer`` and ``up_card``.
        """
        super().reset(seed=seed)
        state = PokerRound(self.rules, players=1)
        wagers = next(o for o in state.legal_actions(0) if o.kind is ActionKind.PLACE_WAGERS)
        deal = self._given_deal(options) if options else None
        state.apply(wagers.action(self.ante, self.aces_up))
        if deal is not None:
            state.apply(deal)
        else:
            state.apply_chance(random.Random(int(self.np_random.integers(2**63))))
        self.state = state
        return self._observe(), self._info()

    def _given_deal(self, options: dict[str, Any]) -> Deal | None:
        """The :class:`Deal` of ``options``' cards, the missing ones dealt from the rest of the deck."""
        unknown = sorted(set(options) - {"cards", "dealer", "up_card"})
        if unknown:
            raise RulesError(f"unknown reset option(s) {', '.join(map(repr, unknown))}: "
                             "give 'cards' (five), 'dealer' (six) and/or 'up_card'")
        if not options:
            return None
        cards = parse_cards(options["cards"], count=5) if options.get("cards") is not None else None
        dealer = parse_cards(options["dealer"], count=6) if options.get("dealer") is not None else None
        up = parse_card(options["up_card"]) if options.get("up_card") is not None else None
        if dealer is not None and up is None:
            up = dealer[-1]
        given = [*(cards or ()), *(dealer or ()), *([up] if up is not None and dealer is None else [])]
        if len(set(given)) != len(given):
            twice = sorted({str(c) for c in given if given.count(c) > 1})
            raise CardError(f"card {', '.join(twice)} given twice in the reset options")
        rest = [c for c in FULL_DECK if c not in set(given)]
        order = self.np_random.permutation(len(rest))
        drawn = iter(rest[int(i)] for i in order)
        if cards is None:
            cards = [next(drawn) for _ in range(5)]
        if dealer is None:
            dealer = [next(drawn) for _ in range(5)] + ([up] if up is not None else [next(drawn)])
            up = dealer[-1]
        assert up is not None
        return Deal.of({0: cards}, dealer, up)

    def action_masks(self) -> np.ndarray:
        """``bool[4]``: the legal actions now (fold, 1x, 2x, 3x); all ``False`` once the round is settled.

        Raises:
            IllegalActionError: no round yet (call ``reset``).
        """
        if self.state is None:
            raise IllegalActionError("no round is dealt: call reset() first")
        return action_mask(self.state.legal_actions(0), self.ante).astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Fold (0) or play ``action`` x the ante; the round is settled: ``(obs, reward, True, False, info)``.

        ``info["result"]`` is the settlement (:meth:`~fourcards.poker.round.SeatResult.to_dict`).

        Raises:
            IllegalActionError: no round in progress (call ``reset``), or an action that is
                not 0-3 or that the mask forbids; nothing changes.
        """
        if self.state is None or self.state.is_terminal:
            raise IllegalActionError("the round is over: call reset() to deal the next one")
        try:
            k = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action is 0-3 (fold, play 1x, 2x, 3x), got {action!r}") from None
        options = self.state.legal_actions(0)
        if not 0 <= k < len(ACTIONS) or not action_mask(options, self.ante)[k]:
            allowed = [f"{i} {a}" for i, a in enumerate(ACTIONS) if action_mask(options, self.ante)[i]]
            raise IllegalActionError(f"action {action!r} is not allowed here: choose {', '.join(allowed)} "
                                     f"({self.rules.describe_play_bets()})")
        kind = ActionKind.FOLD if k == 0 else ActionKind.PLAY
        option = next(o for o in options if o.kind is kind)
        self.state.apply(option.action(None if k == 0 else k * self.ante))
        reward = float(self.state.returns()[0])
        return self._observe(), reward, True, False, self._info()

    def render(self) -> str | None:
        """The player's cards, the up card and, at the end, the decision and result: returned
        (``"ansi"``) or printed (``"human"``); ``None`` without a render mode or a round."""
        if self.render_mode is None or self.state is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        assert self.state is not None
        view = self.state.observation(0)
        me = view.players[0]
        text = f"player {' '.join(str(c) for c in me.cards or ())} | dealer up card {view.up_card}"
        if me.result is not None:
            text += f" | {me.result.decision} {me.play or ''}: dealer {view.dealer_hand}, net {me.result.net:+d}"
        return text


class PokerVectorEnv(VectorEnv):
    """``num_envs`` rounds of :class:`PokerEnv` per step, dealt and settled by numba kernels.

    Same observation, action, mask and reward as :class:`PokerEnv`. Every episode
    lasts one step, so the environment resets in the same step
    (``metadata["autoreset_mode"]`` is ``SAME_STEP``): ``step`` returns the rewards
    of the rounds just decided and the observations of the next rounds;
    ``info["final_obs"]`` holds the decided rounds' observations. A run is
    reproducible from ``reset(seed=...)``: batch ``i`` is the simulator's chunk
    ``i`` of that seed (:func:`fourcards.sim.poker.deal_rounds`). The action space
    (:class:`PlayBetBatchSpace`) samples legal actions only; :meth:`action_masks` is the
    ``(num_envs, 4)`` mask as booleans. ``step`` before ``reset`` is refused.

    Raises:
        RulesError: as :class:`PokerEnv`, or ``num_envs`` < 1.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, rules: PokerRules | str = "live", *, ante: int = 1, aces_up: int = 0,
                 ante_bonus: str | None = None, aces_up_table: str | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise RulesError(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        self.rules = _rules(rules, ante_bonus, aces_up_table)
        _check_wagers(self.rules, ante, aces_up)
        self.num_envs, self.ante, self.aces_up = num_envs, ante, aces_up
        self.mask = _static_mask(self.rules, ante)
        self.single_observation_space = spaces.Box(0, 1, shape=(OBS_SIZE,), dtype=np.int8)
        self.single_action_space = PlayBetSpace(self.mask)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = PlayBetBatchSpace(self.mask, num_envs)
        self._seed = 0
        self._batch = 0
        self._dealt = False
        self.cards = np.zeros((num_envs, 11), dtype=np.uint8)
        self._obs = np.zeros((num_envs, OBS_SIZE), dtype=np.int8)

    def _deal(self) -> None:
        from fourcards.sim.poker import deal_rounds

        self.cards = deal_rounds(self._seed, self.num_envs, self._batch)
        self._batch += 1
        obs = np.zeros((self.num_envs, OBS_SIZE), dtype=np.int8)
        rows = np.arange(self.num_envs)
        obs[rows[:, None], self.cards[:, :5]] = 1
        obs[rows, 52 + self.cards[:, 10].astype(np.int64)] = 1
        self._obs = obs

    def _info(self) -> dict[str, Any]:
        return {"action_mask": np.broadcast_to(self.mask, (self.num_envs, len(ACTIONS))).copy()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal ``num_envs`` new rounds (seeded by ``seed``, else from the OS entropy)."""
        if seed is not None:
            if seed < 0:
                raise RulesError(f"seed must be >= 0, got {seed}")
            self._seed = int(seed)
        else:
            self._seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
        self._batch = 0
        self._deal()
        self._dealt = True
        return self._obs.copy(), self._info()

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, 4]``: the legal actions of every round (fold, 1x, 2x, 3x)."""
        return np.broadcast_to(self.mask.astype(bool), (self.num_envs, len(ACTIONS))).copy()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Decide every round (``actions``: ``num_envs`` ints 0-3); rewards in chips, then new rounds.

        Raises:
            IllegalActionError: no rounds dealt yet (call ``reset``), wrong shape, or an action
                the mask forbids (naming the first such environment); nothing changes.
        """
        from fourcards.sim.poker import settle_rounds

        if not self._dealt:
            raise IllegalActionError("no rounds are dealt: call reset() first")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(f"actions must be {self.num_envs} whole numbers 0-3, got shape {a.shape} "
                                     f"of {a.dtype}")
        bad = np.flatnonzero((a < 0) | (a >= len(ACTIONS)) | (self.mask[np.clip(a, 0, 3)] == 0))
        if bad.size:
            i = int(bad[0])
            raise IllegalActionError(f"environment {i}: action {int(a[i])} is not allowed "
                                     f"({self.rules.describe_play_bets()})")
        rewards = settle_rounds(self.rules, self.cards, a.astype(np.uint8), ante=self.ante,
                                aces_up=self.aces_up).astype(np.float64)
        final = self._obs
        self._deal()
        info = self._info()
        info["final_obs"] = final
        done = np.ones(self.num_envs, dtype=bool)
        return self._obs.copy(), rewards, done, np.zeros(self.num_envs, dtype=bool), info


#: Gymnasium id, registered on ``import fourcards.rl`` (:mod:`fourcards.rl.registration`):
#: ``gymnasium.make("fourcards/FourCardPoker-v0", rules="online")``; ``gymnasium.make_vec(ENV_ID, num_envs=n)``
#: gives :class:`PokerVectorEnv`.
ENV_ID = POKER_ENV_ID
register_envs()
