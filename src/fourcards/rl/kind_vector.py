"""Many Four of a Kind deals at once, in numba: a batched environment for self-play learners.

:class:`KindVectorEnv` plays ``num_envs`` deals side by side, each with ``players`` seats and
the rules of a :class:`~fourcards.kind.rules.KindRules` (the engine's rules, re-implemented
over arrays: the deal and its re-deals, spread-limit betting with the raise cap and short
all-ins, turning, side pots, the high-low split; docs/kind.md "The rules as implemented").
Every seat is played by the caller: at each step every deal has one seat to act, and
``step(actions)`` takes one action id per deal - the ids of :class:`fourcards.rl.encoding.KindActions`
(``0`` fold, ``1`` check, ``2`` call, ``2 + a`` bet or raise ``a`` chips).

* **Observation** - ``float32[num_envs, 28 n + 6]``: :func:`fourcards.rl.encoding.kind_tensor`
  of the table as the seat to act sees it (the same numbers, tested entry by entry).
* **Mask** - ``info["action_mask"]`` (``int8[num_envs, 3 + max_bet]``), the engine's legal
  actions; :meth:`KindVectorEnv.action_masks` as booleans; ``info["actor"]`` the seat to act.
* **Rewards** - ``float64[num_envs, n]``: each seat's net chips in the deals that ended
  in this step (they sum to zero), else zeros. A deal that ends starts again at once
  (``terminated[i]``; the observation is already the new deal's).
* **Deals** - every deal starts from the same stacks (``stack`` or ``stacks``); the button
  rotates one seat clockwise each deal of an environment (or stays at ``button``).
  Chance is the engine's (:meth:`fourcards.kind.game.Game.apply_chance`): every card is
  drawn uniformly from the cards not face up; a dealt duplicate rank goes back and the
  seat is dealt again (``replace``), or every holder of a duplicated rank is dealt again
  after each pass (``all_duplicates``).
* **Seeding** - ``reset(seed=s)``: deal ``k`` of environment ``i`` draws its cards from its
  own xoshiro256** stream, seeded from ``(s, i, k)``, so the cards a deal turns depend
  on the seed alone, never on the actions (the same deal can be replayed with other
  players in the seats: duplicate deals), and a run is reproducible.
* **Records** - with ``record=True`` :meth:`last_deal` gives the finished deal of an
  environment as the engine's inputs (stacks, button, every card drawn, every action id);
  ``Game(rules, stacks, button, cards=cards)`` replays it with the same returns
  (``tests/rl/test_kind_vector.py``).
* **Gymnasium** - with Gymnasium installed (the ``rl`` extra) the class is a
  ``gymnasium.vector.VectorEnv``: ``single_observation_space``, ``single_action_space``, the batched
  spaces (the action space samples legal ids), ``metadata["autoreset_mode"]`` ``SAME_STEP``, and
  ``info["final_obs"]`` / ``info["_final_obs"]``: the last tensor of each deal that ended. Its single
  environment is :class:`fourcards.rl.kind_gym.KindGymEnv` (``fourcards/FourOfAKind-v0``).
* **Opponents** - ``opponents=`` seats bots or policies in every seat but the learner's
  (:mod:`fourcards.rl.opponents`): they play inside :meth:`KindVectorEnv.step`, which returns at the
  learner's turns with its net chips as rewards (``float64[num_envs]``).

The kernels need numpy and numba only (no framework). Speed: docs/rl.md "Speed".
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from fourcards.cards import Card
from fourcards.errors import IllegalActionError, RulesError
from fourcards.jit import nb
from fourcards.kind.actions import ActionKind, LegalAction
from fourcards.kind.game import Game, can_play
from fourcards.kind.observation import Observation, SeatView
from fourcards.kind.pots import side_pots
from fourcards.kind.rules import KindRules, Redeal
from fourcards.rl.encoding import GLOBAL, PER_SEAT, KindActions, kind_tensor_size
from fourcards.rl.kind_features import EDGE_BINS, MAX_SEATS, RATIO_BINS, _class_id, _features, odds_table
from fourcards.rl.opponents import OpponentPool, engine_bot, seat_plan, spec_name
from fourcards.rl.tables import table_rules, table_stacks

try:  # with the rl extra, KindVectorEnv is a Gymnasium vector environment; numpy and numba alone otherwise
    import gymnasium as _gym
    from gymnasium.vector import AutoresetMode, VectorEnv

    _VectorEnv: Any = VectorEnv
    _AUTORESET: Any = AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover - the tests install the rl extra
    _gym = None  # type: ignore[assignment]
    _VectorEnv = object
    _AUTORESET = "SameStep"

__all__ = ["KindVectorEnv", "kind_vector_env"]

# phases
_DEAL, _BETTING, _TURNING, _FINISHED = 0, 1, 2, 3
_LOG_CARDS = 512   # cards drawn per deal kept by record=True (re-dealt duplicates included)
_LOG_ACTIONS = 4096

# the rules as an int64 vector
_R_ANTE, _R_MIN, _R_MAX, _R_WAGERS, _R_RAISES, _R_REDEAL, _R_MINPLAYERS = range(7)


@nb.njit(cache=True, nogil=True, inline="always")
def _next(s):  # pragma: no cover - compiled
    """xoshiro256** on the 4-word state ``s`` (uint64[4]), in place."""
    r = s[1] * np.uint64(5)
    r = ((r << np.uint64(7)) | (r >> np.uint64(57))) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = (s[3] << np.uint64(45)) | (s[3] >> np.uint64(19))
    return r


@nb.njit(cache=True, nogil=True, inline="always")
def _below(s, m):  # pragma: no cover - compiled
    """A uniform integer in ``0..m-1`` (``m <= 2**20``; rejection, no bias)."""
    limit = (np.uint64(1 << 24) // np.uint64(m)) * np.uint64(m)
    while True:
        r = _next(s) >> np.uint64(40)
        if r < limit:
            return np.int64(r % np.uint64(m))


@nb.njit(cache=True, nogil=True, inline="always")
def _splitmix(x):  # pragma: no cover - compiled
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def _seed_stream(seed, env, deal, s):  # pragma: no cover - compiled
    x = np.uint64(seed) * np.uint64(0x100000001B3) ^ np.uint64(env) * np.uint64(0x9E3779B1) \
        ^ np.uint64(deal) * np.uint64(0xC2B2AE3D27D4EB4F)
    for k in range(4):
        x, z = _splitmix(x)
        s[k] = z


class _State:
    """The arrays of every deal (structure of arrays); see :class:`KindVectorEnv`."""

    def __init__(self, b: int, n: int) -> None:
        self.stack = np.zeros((b, n), np.int64)
        self.contrib = np.zeros((b, n), np.int64)
        self.stake = np.zeros((b, n), np.int64)
        self.indeal = np.zeros((b, n), np.bool_)
        self.folded = np.zeros((b, n), np.bool_)
        self.need = np.zeros((b, n), np.bool_)
        self.mayraise = np.zeros((b, n), np.bool_)
        self.rank = np.full((b, n), -1, np.int64)
        self.count = np.zeros((b, n), np.int64)
        self.owner = np.full((b, 13), -1, np.int64)
        self.deck = np.zeros((b, 52), np.int64)
        self.ndeck = np.zeros(b, np.int64)
        # scalars per deal: phase, level, full_wagers, actor, button, deal number
        self.phase = np.zeros(b, np.int64)
        self.level = np.zeros(b, np.int64)
        self.wagers = np.zeros(b, np.int64)
        self.actor = np.full(b, -1, np.int64)
        self.button = np.zeros(b, np.int64)
        self.deals = np.zeros(b, np.int64)
        self.rng = np.zeros((b, 4), np.uint64)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.stack, self.contrib, self.stake, self.indeal, self.folded, self.need, self.mayraise, self.rank,
                self.count, self.owner, self.deck, self.ndeck, self.phase, self.level, self.wagers, self.actor,
                self.button, self.deals, self.rng)


@nb.njit(cache=True, nogil=True)
def _draw(i, deck, ndeck, rng, log, nlog):  # pragma: no cover - compiled
    """Draw one card uniformly from deal ``i``'s undealt cards (removed from the deck; logged)."""
    j = _below(rng[i], ndeck[i])
    card = deck[i, j]
    ndeck[i] -= 1
    deck[i, j] = deck[i, ndeck[i]]
    deck[i, ndeck[i]] = card
    if nlog[i] < log.shape[1]:
        log[i, nlog[i]] = card
    nlog[i] += 1
    return card


@nb.njit(cache=True, nogil=True)
def _start_round(i, opener, n, indeal, folded, stack, stake, need, mayraise, phase, level, wagers,
                 actor):  # pragma: no cover - compiled
    for x in range(n):
        stake[i, x] = 0
    level[i] = 0
    wagers[i] = 0
    able = 0
    for x in range(n):
        if indeal[i, x] and not folded[i, x] and stack[i, x] > 0:
            able += 1
    if able < 2:  # nobody to bet against: the round is skipped
        phase[i] = _TURNING
        actor[i] = -1
        return
    phase[i] = _BETTING
    for x in range(n):
        ok = indeal[i, x] and not folded[i, x] and stack[i, x] > 0
        need[i, x] = ok
        mayraise[i, x] = ok
    for step in range(n):
        x = (opener + step) % n
        if need[i, x]:
            actor[i] = x
            return


@nb.njit(cache=True, nogil=True)
def _award(i, n, contrib, folded, indeal, rank, count, stack, four):  # pragma: no cover - compiled
    """Side pots and the high-low split of each (rules.md FOAK-8, docs/kind.md ruling 8); ``four`` the
    seat holding four of a kind, or -1 when the last player standing takes everything."""
    total = 0
    for x in range(n):
        total += contrib[i, x]
    if four < 0:
        for x in range(n):
            if indeal[i, x] and not folded[i, x]:
                stack[i, x] += total
        return
    prev = 0
    paid = 0
    while True:
        level = -1  # the next live contribution level above prev
        for x in range(n):
            c = contrib[i, x]
            if indeal[i, x] and not folded[i, x] and c > prev and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        amount = 0
        for x in range(n):
            c = contrib[i, x]
            amount += min(c, level) - min(c, prev)
        nxt = -1
        for x in range(n):
            c = contrib[i, x]
            if indeal[i, x] and not folded[i, x] and c > level and (nxt < 0 or c < nxt):
                nxt = c
        if nxt < 0:  # the top pot takes the dead money above it
            amount = total - paid
        high = -1
        for x in range(n):
            if indeal[i, x] and not folded[i, x] and contrib[i, x] >= level:
                if high < 0 or count[i, x] > count[i, high] or (count[i, x] == count[i, high]
                                                                 and rank[i, x] > rank[i, high]):
                    high = x
        low = -1
        for x in range(n):
            if x != high and indeal[i, x] and not folded[i, x] and contrib[i, x] >= level:
                if low < 0 or count[i, x] < count[i, low] or (count[i, x] == count[i, low]
                                                               and rank[i, x] < rank[i, low]):
                    low = x
        if low < 0:
            stack[i, high] += amount
        else:
            stack[i, low] += amount // 2
            stack[i, high] += amount - amount // 2
        paid += amount
        prev = level


@nb.njit(cache=True, nogil=True)
def _advance(i, n, rules, st, log, nlog):  # pragma: no cover - compiled
    """Turn cards until a seat must act or the deal ends (seed 001 §3.3-3.5, §4.1)."""
    (stack, contrib, stake, indeal, folded, need, mayraise, rank, count, owner, deck, ndeck, phase, level,
     wagers, actor, button, deals, rng) = st
    while phase[i] == _TURNING:
        card = _draw(i, deck, ndeck, rng, log, nlog)
        r = card >> 2
        holder = owner[i, r]
        if holder < 0:
            continue  # discarded: no active player holds the rank
        count[i, holder] += 1
        if count[i, holder] == 4:
            _award(i, n, contrib, folded, indeal, rank, count, stack, holder)
            phase[i] = _FINISHED
            actor[i] = -1
            return
        opener = -1
        for x in range(n):
            if indeal[i, x] and not folded[i, x]:
                if opener < 0 or count[i, x] > count[i, opener] or (count[i, x] == count[i, opener]
                                                                     and rank[i, x] > rank[i, opener]):
                    opener = x
        _start_round(i, opener, n, indeal, folded, stack, stake, need, mayraise, phase, level, wagers, actor)


@nb.njit(cache=True, nogil=True)
def _new_deal(i, offset, n, rules, stacks0, fixed_button, seed, st, log, nlog, alog, nalog):  # pragma: no cover
    """Antes, the deal (with its re-deals) and the first betting round of deal ``i``'s next deal
    (environment ``offset + i``: the arrays may be a slice of the environments)."""
    (stack, contrib, stake, indeal, folded, need, mayraise, rank, count, owner, deck, ndeck, phase, level,
     wagers, actor, button, deals, rng) = st
    _seed_stream(seed, offset + i, deals[i], rng[i])
    if fixed_button >= 0:
        button[i] = fixed_button
    else:
        button[i] = (offset + i + deals[i]) % n
    deals[i] += 1
    nlog[i] = 0
    nalog[i] = 0
    for c in range(52):
        deck[i, c] = c
    ndeck[i] = 52
    for r in range(13):
        owner[i, r] = -1
    ante = rules[_R_ANTE]
    for x in range(n):
        stack[i, x] = stacks0[x]
        contrib[i, x] = 0
        stake[i, x] = 0
        folded[i, x] = False
        need[i, x] = False
        mayraise[i, x] = False
        rank[i, x] = -1
        count[i, x] = 0
        indeal[i, x] = stacks0[x] >= ante and stacks0[x] > 0
    order = np.empty(n, np.int64)
    m = 0
    for step in range(1, n + 1):
        x = (button[i] + step) % n
        if indeal[i, x]:
            order[m] = x
            m += 1
            stack[i, x] -= ante
            contrib[i, x] += ante
    held = np.zeros(13, np.int64)
    if rules[_R_REDEAL] == 0:  # replace: a dealt duplicate goes back, the same seat is dealt again
        for k in range(m):
            x = order[k]
            while True:
                j = _below(rng[i], ndeck[i])
                card = deck[i, j]
                if nlog[i] < log.shape[1]:
                    log[i, nlog[i]] = card
                nlog[i] += 1
                if held[card >> 2] == 0:
                    ndeck[i] -= 1
                    deck[i, j] = deck[i, ndeck[i]]
                    deck[i, ndeck[i]] = card
                    break
            held[card >> 2] += 1
            rank[i, x] = card >> 2
            count[i, x] = 1
    else:  # all duplicates: after each pass every holder of a duplicated rank is dealt again
        card_of = np.full(n, -1, np.int64)
        queue = order.copy()
        q = m
        while q > 0:
            for k in range(q):
                x = queue[k]
                card = _draw(i, deck, ndeck, rng, log, nlog)
                card_of[x] = card
                rank[i, x] = card >> 2
                count[i, x] = 1
            for r in range(13):
                held[r] = 0
            for k in range(m):
                held[rank[i, order[k]]] += 1
            q2 = 0
            for k in range(m):
                x = order[k]
                if held[rank[i, x]] > 1:
                    queue[q2] = x
                    q2 += 1
            for k in range(q2):  # the duplicates go back among the undealt cards
                x = queue[k]
                for c in range(ndeck[i], 52):
                    if deck[i, c] == card_of[x]:
                        _return(i, deck, ndeck, c)
                        break
            q = q2
    for k in range(m):
        owner[i, rank[i, order[k]]] = order[k]
    opener = order[0]
    for k in range(m):
        if rank[i, order[k]] > rank[i, opener]:
            opener = order[k]
    _start_round(i, opener, n, indeal, folded, stack, stake, need, mayraise, phase, level, wagers, actor)
    if phase[i] == _TURNING:
        _advance(i, n, rules, st, log, nlog)


@nb.njit(cache=True, nogil=True)
def _return(i, deck, ndeck, c):  # pragma: no cover - compiled
    """Put the drawn card at position ``c`` back among the undealt cards."""
    card = deck[i, c]
    deck[i, c] = deck[i, ndeck[i]]
    deck[i, ndeck[i]] = card
    ndeck[i] += 1


@nb.njit(cache=True, nogil=True)
def _legal(i, n, rules, st, mask):  # pragma: no cover - compiled
    """Fill ``mask`` (int8[3 + max_bet]) with the legal ids of deal ``i``'s seat to act (Game.legal_actions)."""
    (stack, contrib, stake, indeal, folded, need, mayraise, rank, count, owner, deck, ndeck, phase, level,
     wagers, actor, button, deals, rng) = st
    for a in range(mask.shape[0]):
        mask[a] = 0
    s = actor[i]
    if s < 0:
        return
    answered = False  # some other player still in can put in more than the current bet
    for x in range(n):
        if x != s and indeal[i, x] and not folded[i, x] and stake[i, x] + stack[i, x] > level[i]:
            answered = True
    can_wager = mayraise[i, s] and wagers[i] < rules[_R_WAGERS] and answered
    to_call = level[i] - stake[i, s]
    lo_bet, hi_bet = rules[_R_MIN], rules[_R_MAX]
    if to_call <= 0:
        mask[1] = 1
        left = stack[i, s]
    else:
        mask[0] = 1
        mask[2] = 1
        left = stack[i, s] - to_call
    if can_wager and left > 0:
        for a in range(min(lo_bet, left), min(hi_bet, left) + 1):
            mask[2 + a] = 1


@nb.njit(cache=True, nogil=True)
def _apply(i, n, rules, st, a, log, nlog):  # pragma: no cover - compiled
    """Apply id ``a`` (legal) for deal ``i``'s seat to act, then chance until a seat acts or the end."""
    (stack, contrib, stake, indeal, folded, need, mayraise, rank, count, owner, deck, ndeck, phase, level,
     wagers, actor, button, deals, rng) = st
    s = actor[i]
    if a == 1:  # check
        need[i, s] = False
        mayraise[i, s] = False
    elif a == 0:  # fold
        folded[i, s] = True
        need[i, s] = False
        mayraise[i, s] = False
        owner[i, rank[i, s]] = -1
    elif a == 2:  # call
        pay = min(level[i] - stake[i, s], stack[i, s])
        stack[i, s] -= pay
        stake[i, s] += pay
        contrib[i, s] += pay
        need[i, s] = False
        mayraise[i, s] = False
    else:  # bet or raise a - 2 chips above the current bet
        x_amount = a - 2
        pay = level[i] - stake[i, s] + x_amount
        stack[i, s] -= pay
        stake[i, s] += pay
        contrib[i, s] += pay
        level[i] = stake[i, s]
        full = x_amount >= rules[_R_MIN]
        if full:
            wagers[i] += 1
        for x in range(n):
            if x == s:
                continue
            able = indeal[i, x] and not folded[i, x] and stack[i, x] > 0
            if full:
                need[i, x] = able
                mayraise[i, x] = able
            else:
                need[i, x] = able and stake[i, x] < level[i]
        mayraise[i, s] = False  # a full wager gives the others, not the bettor, the right to raise
        need[i, s] = False
    if stack[i, s] == 0:
        need[i, s] = False
        mayraise[i, s] = False
    live = 0
    for x in range(n):
        if indeal[i, x] and not folded[i, x]:
            live += 1
    if live == 1:  # rules.md FOAK-8: the last player takes the pot at once
        _award(i, n, contrib, folded, indeal, rank, count, stack, -1)
        phase[i] = _FINISHED
        actor[i] = -1
        return
    for step in range(1, n + 1):
        x = (s + step) % n
        if need[i, x]:
            actor[i] = x
            return
    # the round is over: an uncalled bet goes back
    actor[i] = -1
    top = -1
    leaders = 0
    lead = -1
    for x in range(n):
        if contrib[i, x] > top:
            top = contrib[i, x]
            leaders = 1
            lead = x
        elif contrib[i, x] == top:
            leaders += 1
    if leaders == 1:
        second = 0
        for x in range(n):
            if x != lead and contrib[i, x] > second:
                second = contrib[i, x]
        excess = top - second
        if excess > 0 and indeal[i, lead] and not folded[i, lead]:
            contrib[i, lead] -= excess
            stack[i, lead] += excess
    for x in range(n):
        stake[i, x] = 0
        need[i, x] = False
        mayraise[i, x] = False
    level[i] = 0
    wagers[i] = 0
    phase[i] = _TURNING
    _advance(i, n, rules, st, log, nlog)


@nb.njit(cache=True, nogil=True)
def _observe(i, n, rules, st, total, me, obs):  # pragma: no cover - compiled
    """``obs`` = kind_tensor of deal ``i`` as seat ``me`` sees it (chip amounts over ``total``)."""
    (stack, contrib, stake, indeal, folded, need, mayraise, rank, count, owner, deck, ndeck, phase, level,
     wagers, actor, button, deals, rng) = st
    for k in range(obs.shape[0]):
        obs[k] = 0.0
    unit = 1.0 / max(total, 1)
    pot = 0
    for x in range(n):
        b = 28 * x
        if rank[i, x] >= 0:
            obs[b + rank[i, x]] = 1.0
        obs[b + 13 + min(count[i, x], 4)] = 1.0
        if not indeal[i, x]:
            obs[b + 18] = 1.0
        elif folded[i, x]:
            obs[b + 19] = 1.0
        elif stack[i, x] == 0 and phase[i] != _FINISHED:
            obs[b + 20] = 1.0
        else:
            obs[b + 21] = 1.0
        obs[b + 22] = stack[i, x] * unit
        obs[b + 23] = contrib[i, x] * unit
        obs[b + 24] = stake[i, x] * unit
        obs[b + 25] = 1.0 if x == me else 0.0
        obs[b + 26] = 1.0 if x == actor[i] else 0.0
        obs[b + 27] = 1.0 if x == button[i] else 0.0
        pot += contrib[i, x]
    g = 28 * n
    obs[g] = pot * unit if phase[i] != _FINISHED else 0.0
    obs[g + 1] = level[i] * unit
    if me >= 0:
        obs[g + 2] = max(0, level[i] - stake[i, me]) * unit
    obs[g + 3] = wagers[i] / (rules[_R_RAISES] + 1)
    obs[g + 4] = ndeck[i] / 52.0
    obs[g + 5] = 1.0 if phase[i] == _FINISHED else 0.0


@nb.njit(cache=True, nogil=True)
def _reset_all(offset, n, rules, stacks0, fixed_button, seed, total, st, obs, masks, log, nlog, alog,
               nalog):  # pragma: no cover - compiled
    b = obs.shape[0]
    for i in range(b):
        st[17][i] = 0
        _new_deal(i, offset, n, rules, stacks0, fixed_button, seed, st, log, nlog, alog, nalog)
        _observe(i, n, rules, st, total, st[15][i], obs[i])
        _legal(i, n, rules, st, masks[i])


@nb.njit(cache=True, nogil=True)
def _first_illegal(actions, masks):  # pragma: no cover - compiled
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            return i
    return -1


@nb.njit(cache=True, nogil=True)
def _step_all(offset, n, rules, stacks0, fixed_button, seed, total, viewer, st, actions, obs, masks, rewards, done,
              final, log, nlog, alog, nalog, last_log, last_nlog, last_alog, last_nalog, last_meta,
              record):  # pragma: no cover - compiled
    """Apply ``actions[i]`` in every deal ``i`` (a negative id: leave that deal as it is, not done, no reward).
    A deal that ends writes its rewards and, in ``final[i]``, its last tensor as seat ``viewer`` sees it (-1:
    the seat that made the last move), then starts the next deal."""
    stack = st[0]
    actor = st[15]
    b = obs.shape[0]
    for i in range(b):
        a = actions[i]
        if a < 0:
            for x in range(n):
                rewards[i, x] = 0.0
            done[i] = False
            continue
        if record:
            if nalog[i] < alog.shape[1]:
                alog[i, nalog[i]] = a
            nalog[i] += 1
        s = actor[i]
        _apply(i, n, rules, st, a, log, nlog)
        if st[12][i] == _FINISHED:
            for x in range(n):
                rewards[i, x] = stack[i, x] - stacks0[x]
            done[i] = True
            _observe(i, n, rules, st, total, s if viewer < 0 else viewer, final[i])
            if record:
                for k in range(min(nlog[i], log.shape[1])):
                    last_log[i, k] = log[i, k]
                last_nlog[i] = nlog[i]
                for k in range(min(nalog[i], alog.shape[1])):
                    last_alog[i, k] = alog[i, k]
                last_nalog[i] = nalog[i]
                last_meta[i, 0] = st[16][i]
                last_meta[i, 1] = st[17][i]
            _new_deal(i, offset, n, rules, stacks0, fixed_button, seed, st, log, nlog, alog, nalog)
        else:
            for x in range(n):
                rewards[i, x] = 0.0
            done[i] = False
        _observe(i, n, rules, st, total, actor[i], obs[i])
        _legal(i, n, rules, st, masks[i])


@nb.njit(cache=True, nogil=True)
def _step_all_flag(offset, n, rules, stacks0, fixed_button, seed, total, record, viewer, st, actions, obs, masks,
                   rewards, done, final, log, nlog, alog, nalog, last_log, last_nlog, last_alog, last_nalog,
                   last_meta):  # pragma: no cover - compiled
    _step_all(offset, n, rules, stacks0, fixed_button, seed, total, viewer, st, actions, obs, masks, rewards, done,
              final, log, nlog, alog, nalog, last_log, last_nlog, last_alog, last_nalog, last_meta, record)


@nb.njit(cache=True, nogil=True)
def _sample(masks, seed, counter, out):  # pragma: no cover - compiled
    """A uniformly random legal id per row of ``masks`` (its own stream per row and ``counter``)."""
    s = np.empty((masks.shape[0], 4), np.uint64)
    for i in range(masks.shape[0]):
        _seed_stream(seed, i, counter, s[i])
        k = 0
        for a in range(masks.shape[1]):
            k += masks[i, a]
        j = _below(s[i], k)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if j == 0:
                    out[i] = a
                    break
                j -= 1


@nb.njit(cache=True, nogil=True)
def _random_moves(masks, rows, seed, counter, out):  # pragma: no cover - compiled
    """The ``random`` bot's moves (:class:`fourcards.kind.bots.RandomBot`: an option uniformly - fold, check,
    call, bet or raise - then a bet or raise's amount uniformly) in deals ``rows``, into ``out[rows]``."""
    s = np.empty(4, np.uint64)
    for r in range(rows.shape[0]):
        i = rows[r]
        _seed_stream(seed, i, counter, s)
        lo = -1
        hi = -1
        for a in range(3, masks.shape[1]):
            if masks[i, a]:
                if lo < 0:
                    lo = a
                hi = a
        options = masks[i, 0] + masks[i, 1] + masks[i, 2] + (1 if lo >= 0 else 0)
        j = _below(s, options)
        for a in range(3):
            if masks[i, a]:
                if j == 0:
                    out[i] = a
                    break
                j -= 1
        if j == 0 and lo >= 0 and out[i] < 0:
            out[i] = lo + _below(s, hi - lo + 1)


@nb.njit(cache=True, nogil=True)
def _table_moves(rows, n, rules, st, ph, pl, edge_bins, ratio_bins, table, masks, out):  # pragma: no cover
    """The moves of a table of action classes (the ``learned`` bot's kind) in deals ``rows``, into ``out[rows]``."""
    for r in range(rows.shape[0]):
        i = rows[r]
        cell, _, _ = _features(i, n, rules, st, ph, pl, edge_bins, ratio_bins)
        out[i] = _class_id(masks[i], table[cell])


class _Random:
    """``random`` in numba: the engine bot's choices, from streams of their own (never the cards')."""

    name = "random"

    def __init__(self) -> None:
        self.calls = 0

    def moves(self, env: KindVectorEnv, rows: np.ndarray, out: np.ndarray) -> None:
        self.calls += 1
        _random_moves(env._masks, rows, np.uint64(env._seed ^ 0x2A2A2A), self.calls, out)


class _Table:
    """A table of action classes per cell of :mod:`fourcards.rl.kind_features` (``learned``), in numba."""

    def __init__(self, table: np.ndarray, name: str = "learned") -> None:
        self.table = np.ascontiguousarray(table, dtype=np.int64)
        self.name = name

    def moves(self, env: KindVectorEnv, rows: np.ndarray, out: np.ndarray) -> None:
        ph, pl = env._odds()
        _table_moves(rows, env.num_players, env._rules, env._state.arrays(), ph, pl, EDGE_BINS, RATIO_BINS,
                     self.table, env._masks, out)


class _Tensors:
    """A policy on the tensors: ``policy(tensor, mask) -> id``, or a batch of them when ``vectorized``."""

    def __init__(self, policy: Any, vectorized: bool, name: str) -> None:
        self.policy, self.vectorized, self.name = policy, vectorized, name

    def moves(self, env: KindVectorEnv, rows: np.ndarray, out: np.ndarray) -> None:
        obs, masks = env._obs[rows], env._masks[rows]
        if self.vectorized:
            out[rows] = np.asarray(self.policy(obs, masks)).reshape(len(rows))
        else:
            out[rows] = [int(self.policy(o, m)) for o, m in zip(obs, masks, strict=True)]


class _Engine:
    """A bot of the engine (``act(observation, legal_actions, rng)``) on each deal's table as an observation."""

    def __init__(self, bot: Any, rng: random.Random) -> None:
        self.bot, self.rng = bot, rng
        self.name = spec_name(bot)

    def moves(self, env: KindVectorEnv, rows: np.ndarray, out: np.ndarray) -> None:
        for i in rows.tolist():
            view = env.observation(i)
            out[i] = env.encoder.to_id(self.bot.act(view, view.legal_actions, self.rng))


def _legal_batch_space(env: KindVectorEnv) -> Any:
    """``MultiDiscrete([3 + max_bet] * num_envs)`` whose ``sample()`` draws legal ids (:meth:`KindVectorEnv.sample`)."""

    class LegalIdsBatchSpace(_gym.spaces.MultiDiscrete):
        """One action id per deal; ``sample()`` (no mask) draws legal ids only, as :meth:`KindVectorEnv.sample`."""

        def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
            if mask is None and probability is None:
                return env.sample()
            return super().sample(mask=mask, probability=probability)

    return LegalIdsBatchSpace([env.num_actions] * env.num_envs)


class KindVectorEnv(_VectorEnv):
    """``num_envs`` Four of a Kind deals at once (see the module docstring); a Gymnasium ``VectorEnv`` with the
    ``rl`` extra installed.

    Args:
        num_envs: deals played side by side (>= 1).
        players: seats at every table (the rules' 4..13).
        stack / stacks: chips per seat at the start of every deal (default 40 antes each).
        button: the dealer seat of every deal, or ``None`` (default): deal ``k`` of environment
            ``i`` has the button at seat ``(i + k) % players``.
        rules: the table's :class:`~fourcards.kind.rules.KindRules` (default ``family``).
        record: keep each finished deal's cards and actions (:meth:`last_deal`).
        threads: run the deals in this many threads, each a contiguous share of them (the
            kernels release the GIL; the results do not depend on it). Default 1.
        opponents: ``None`` (default): every seat is the caller's (self-play: ``rewards`` per seat,
            ``float64[num_envs, players]``). Else the opponents of one learner seat
            (:mod:`fourcards.rl.opponents`: a spec for every other seat, or one entry per seat with
            ``None`` at the learner's; pools drawn per deal): they play inside :meth:`step`, which
            returns at the learner's turns only, with the learner's net chips as ``rewards``
            (``float64[num_envs]``). ``random`` and ``learned`` (up to 8 seats) and tables of classes
            play in numba; a policy on the tensors is called once per opponent for every deal where
            it is to act; any other bot acts on :meth:`observation` of the deal (Python speed).
        seat: the learner's seat when ``opponents`` is one spec (default 0).

    Attributes:
        num_envs, num_players, num_actions (``3 + max_bet``), observation_size (``28 n + 6``),
        actor (``int64[num_envs]``: the seat to act in each deal), learner (the learner's seat, or
        ``None`` in self-play); with Gymnasium: ``single_observation_space`` (``Box(0, 1, (28 n + 6,),
        float32)``), ``single_action_space`` (``Discrete(3 + max_bet)``), ``observation_space``,
        ``action_space`` (``sample()`` draws legal ids), ``metadata["autoreset_mode"]`` (``SAME_STEP``).

    Raises:
        RulesError: a table the rules cannot deal, ``num_envs`` < 1, a bad opponent, or a learner seat
            that cannot pay the ante.
    """

    metadata = {"autoreset_mode": _AUTORESET, "render_modes": []}
    render_mode = None

    def __init__(self, num_envs: int, players: int = 4, *, stack: int | None = None, stacks: Any = None,
                 button: int | None = None, rules: KindRules | None = None, record: bool = False,
                 threads: int = 1, opponents: Any = None, seat: int | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise RulesError(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise RulesError(f"threads must be a whole number >= 1, got {threads!r}")
        self.rules = rules or KindRules()
        self.stacks = table_stacks(players, stack, stacks, self.rules)
        Game(self.rules, self.stacks, 0 if button is None else button, cards=())  # validates the table
        self.num_envs, self.num_players = num_envs, players
        self.fixed_button = -1 if button is None else int(button)
        self.encoder = KindActions(self.rules)
        self.num_actions = self.encoder.num_actions
        self.observation_size = kind_tensor_size(players)
        r = self.rules
        self._rules = np.array([r.ante, r.min_bet, r.max_bet, r.max_wagers, r.max_raises,
                                0 if r.redeal is Redeal.REPLACE else 1, r.min_players], dtype=np.int64)
        self._stacks0 = np.array(self.stacks, dtype=np.int64)
        self.total_chips = int(sum(self.stacks))
        self._state = _State(num_envs, players)
        self._obs = np.zeros((num_envs, self.observation_size), dtype=np.float32)
        self._masks = np.zeros((num_envs, self.num_actions), dtype=np.int8)
        self.record = bool(record)
        cards, acts = (_LOG_CARDS, _LOG_ACTIONS) if record else (1, 1)
        self._log = np.zeros((num_envs, cards), np.int64)
        self._nlog = np.zeros(num_envs, np.int64)
        self._alog = np.zeros((num_envs, acts), np.int64)
        self._nalog = np.zeros(num_envs, np.int64)
        self._last = (np.zeros((num_envs, cards), np.int64), np.zeros(num_envs, np.int64),
                      np.zeros((num_envs, acts), np.int64), np.zeros(num_envs, np.int64),
                      np.full((num_envs, 2), -1, np.int64))
        self._seed = 0
        self._samples = 0
        self._started = False
        self._odds_tables: tuple[np.ndarray, np.ndarray] | None = None
        bounds = np.linspace(0, num_envs, min(threads, num_envs) + 1).astype(int)
        self._chunks = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        self._pool: Any = None
        if len(self._chunks) > 1:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(len(self._chunks), thread_name_prefix="kind-vector")
        self.learner: int | None = None
        self._seats: list[Any] = [None] * players
        self._players: list[Any] = []
        self._known: dict[int, tuple[Any, int]] = {}
        self._assign = np.full((num_envs, players), -1, np.int64)
        self._draws = np.random.default_rng(0)
        self._bot_rng = random.Random(0)
        self._versions: dict[int, int] = {}
        if opponents is not None:
            learners, self._seats = seat_plan(opponents, players, seat)
            if len(learners) != 1:
                raise RulesError("the batched environment plays one learner seat against opponents: leave exactly "
                                 f"one seat None, got {len(learners)}")
            self.learner = learners[0]
            if not can_play(self.stacks[self.learner], self.rules):
                raise RulesError(f"the learner's seat {self.learner + 1} cannot pay the ante ({self.rules.ante}) "
                                 f"with {self.stacks[self.learner]} chips")
            for spec in self._seats:
                for member in (spec.members if isinstance(spec, OpponentPool) else [spec]):
                    if member is not None:
                        self._player_of(member)
        self.opponents = opponents
        if _gym is not None:
            self.single_observation_space = _gym.spaces.Box(0.0, 1.0, shape=(self.observation_size,),
                                                            dtype=np.float32)
            self.single_action_space = _gym.spaces.Discrete(self.num_actions)
            self.observation_space = _gym.vector.utils.batch_space(self.single_observation_space, num_envs)
            self.action_space = _legal_batch_space(self)

    # ------------------------------------------------------------ opponents

    def _player_of(self, spec: Any) -> int:
        """The index of the player (in numba or Python) of an opponent spec, resolved once."""
        key = id(spec)
        if key in self._known:
            return self._known[key][1]
        player = self._resolve(spec)
        self._players.append(player)
        self._known[key] = (spec, len(self._players) - 1)
        return len(self._players) - 1

    def _resolve(self, spec: Any) -> Any:
        from fourcards.rl.agents import load
        from fourcards.rl.bots import LearnedKindBot, PolicyBot, learned_table

        if isinstance(spec, str):
            name = spec.strip()
            if name.lower() == "random":
                return _Random()
            if name.lower() == "learned":
                spec = LearnedKindBot(learned_table())
            elif name.lower().startswith("file:"):
                spec = load(name[5:])
                if spec.game != "kind":
                    raise RulesError(f"agent {name!r} plays Four Card Poker, not Four of a Kind")
            else:
                spec = engine_bot(name)
        if getattr(spec, "table", None) is not None and self.num_players <= MAX_SEATS:  # the learned bot's kind
            return _Table(spec.table, spec_name(spec))
        if callable(getattr(spec, "batch_policy", None)):  # an agent with a policy on the tensors
            if getattr(spec, "players", self.num_players) not in (None, self.num_players):
                raise RulesError(f"agent {spec_name(spec)!r} plays {spec.players} seats, not {self.num_players}")
            return _Tensors(spec.batch_policy, True, spec_name(spec))
        if isinstance(spec, PolicyBot):
            return _Tensors(spec.policy, False, spec.name)
        if callable(getattr(spec, "act", None)) or callable(getattr(spec, "kind_bot", None)):
            return _Engine(engine_bot(spec), self._bot_rng)
        if callable(spec):
            return _Tensors(spec, bool(getattr(spec, "vectorized", False)), spec_name(spec))
        raise RulesError(f"an opponent is a bot name, a bot, an agent or a policy (tensor, mask) -> id, got {spec!r}")

    def _odds(self) -> tuple[np.ndarray, np.ndarray]:
        if self._odds_tables is None:
            self._odds_tables = odds_table(self.num_players)
        return self._odds_tables

    def _seat_opponents(self, rows: np.ndarray) -> None:
        """Who plays each opponent seat in the deals ``rows`` (just dealt): pools draw a member each."""
        for x, spec in enumerate(self._seats):
            if spec is None:
                continue
            if isinstance(spec, OpponentPool):
                if self._versions.get(id(spec)) != spec.version:  # a league that took a snapshot
                    for member in spec.members:
                        self._player_of(member)
                    self._versions[id(spec)] = spec.version
                members = spec.members
                index = np.array([self._player_of(m) for m in members], dtype=np.int64)
                self._assign[rows, x] = index[spec.draw(self._draws, size=len(rows))]
            else:
                self._assign[rows, x] = self._player_of(spec)

    def _play_opponents(self, rewards: np.ndarray, done: np.ndarray, final: np.ndarray) -> None:
        """Let the opponents act until the learner is to act in every deal, adding the learner's chips of the
        deals that end to ``rewards`` (and marking them ``done``, their last tensor in ``final``)."""
        rows = np.arange(self.num_envs)
        while True:
            actor = self._state.actor
            who = np.where(actor >= 0, self._assign[rows, np.maximum(actor, 0)], -1)
            if not (who >= 0).any():
                return
            acts = np.full(self.num_envs, -1, dtype=np.int64)
            for k in np.unique(who[who >= 0]).tolist():
                mine = np.flatnonzero(who == k)
                self._players[k].moves(self, mine, acts)
                bad = mine[(acts[mine] < 0) | (acts[mine] >= self.num_actions)]
                if not len(bad):
                    bad = mine[self._masks[mine, acts[mine]] == 0]
                if len(bad):
                    i = int(bad[0])
                    raise IllegalActionError(f"opponent {self._players[k].name!r} in deal {i}, seat "
                                             f"{int(actor[i]) + 1}: action {int(acts[i])} is not legal now: legal "
                                             f"ids {np.flatnonzero(self._masks[i]).tolist()}")
            self._step_kernel(acts, rewards, done, final)

    def _step_kernel(self, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray, final: np.ndarray) -> None:
        """One move in every deal whose action is >= 0 (opponent mode): the learner's chips added up."""
        seat_rewards = np.zeros((self.num_envs, self.num_players))
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._run(_step_all_flag, (actions, self._obs, self._masks, seat_rewards, ended, final, self._log, self._nlog,
                                   self._alog, self._nalog, *self._last),
                  self.num_players, self._rules, self._stacks0, self.fixed_button, np.uint64(self._seed),
                  self.total_chips, self.record, -1 if self.learner is None else self.learner)
        if ended.any():
            rewards += seat_rewards[:, self.learner]
            done |= ended
            self._seat_opponents(np.flatnonzero(ended))

    def observation(self, env: int) -> Observation:
        """Deal ``env``'s table as an engine :class:`~fourcards.kind.observation.Observation` for its seat to act
        (what an engine bot sees: seats, holdings, stacks, bets, pots and the legal actions; the history,
        the discards and the round number are not kept here, so they are empty and 0).

        Raises:
            IllegalActionError: no deal in progress (before :meth:`reset`).
        """
        if not self._started:
            raise IllegalActionError("no deals are dealt: call reset() first")
        st = self._state
        seat = int(st.actor[env])
        views = []
        for x in range(self.num_players):
            if not st.indeal[env, x]:
                status = "out"
            elif st.folded[env, x]:
                status = "folded"
            elif st.stack[env, x] == 0:
                status = "all_in"
            else:
                status = "active"
            rank, count = int(st.rank[env, x]), int(st.count[env, x])
            cards = tuple(Card(rank * 4 + k) for k in range(count)) if rank >= 0 else ()
            views.append(SeatView(x, status, cards, int(st.stack[env, x]), int(st.contrib[env, x]),
                                  int(st.stake[env, x])))
        live = [v.is_active for v in views]
        pots = side_pots([v.contributed - v.stake for v in views], live)
        mask = self._masks[env]
        wagers = np.flatnonzero(mask[3:]) + 1
        legal: list[LegalAction] = []
        stack, level = views[seat].stack if seat >= 0 else 0, int(st.level[env])
        to_call = level - views[seat].stake if seat >= 0 else 0
        if seat >= 0 and to_call <= 0:
            legal.append(LegalAction(ActionKind.CHECK, player=seat))
            if len(wagers):
                kind = ActionKind.BET if level == 0 else ActionKind.RAISE
                legal.append(LegalAction(kind, int(wagers[0]), int(wagers[-1]), int(wagers[-1]) == stack, player=seat))
        elif seat >= 0:
            pay = min(to_call, stack)
            legal += [LegalAction(ActionKind.FOLD, player=seat),
                      LegalAction(ActionKind.CALL, pay, pay, pay == stack, player=seat)]
            if len(wagers):
                legal.append(LegalAction(ActionKind.RAISE, int(wagers[0]), int(wagers[-1]),
                                         int(wagers[-1]) == stack - to_call, player=seat))
        return Observation(seat=seat if seat >= 0 else None, rules=self.rules, phase="betting" if seat >= 0 else "turning",
                           button=int(st.button[env]), round_number=0, actor=seat if seat >= 0 else None,
                           seats=tuple(views), discards=(), cards_in_deck=int(st.ndeck[env]),
                           pot=sum(v.contributed for v in views), pots=tuple(pots), bet=level,
                           full_wagers=int(st.wagers[env]), legal_actions=tuple(legal), history=(), awards=(),
                           payoffs=None)

    # ------------------------------------------------------------ the environment

    def _run(self, kernel: Any, per_env: tuple[np.ndarray, ...], *fixed: Any) -> None:
        """``kernel(offset, *fixed, *state, *per_env)`` over each chunk of environments (threads)."""
        state = self._state.arrays()

        def chunk(lo: int, hi: int) -> None:
            kernel(lo, *fixed, tuple(a[lo:hi] for a in state), *(a[lo:hi] for a in per_env))

        if self._pool is None:
            chunk(0, self.num_envs)
        else:
            for f in [self._pool.submit(chunk, lo, hi) for lo, hi in self._chunks]:
                f.result()

    @property
    def actor(self) -> np.ndarray:
        """``int64[num_envs]``: the seat to act in each deal."""
        return self._state.actor.copy()

    def _info(self, masks: np.ndarray) -> dict[str, Any]:
        return {"actor": self._state.actor.copy(), "action_mask": masks}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every table anew (deal numbers from 0): ``(obs, info)``; ``seed`` as the module doc says
        (default: from the OS entropy). With opponents, they act first where the learner is not to act.

        Raises:
            RulesError: a negative seed.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise RulesError(f"seed must be a whole number >= 0, got {seed!r}")
        entropy = np.random.SeedSequence().generate_state(2, np.uint32)
        self._seed = int(seed) if seed is not None else int(entropy[0]) << 31 | int(entropy[1]) >> 1
        self._samples = 0
        self._run(_reset_all, (self._obs, self._masks, self._log, self._nlog, self._alog, self._nalog),
                  self.num_players, self._rules, self._stacks0, self.fixed_button, np.uint64(self._seed),
                  self.total_chips)
        self._last[4].fill(-1)
        self._started = True
        if self.learner is not None:
            self._draws = np.random.default_rng([self._seed, 0x0BB0])
            self._bot_rng.seed(self._seed ^ 0x0BB0)
            self._seat_opponents(np.arange(self.num_envs))
            final = np.zeros((self.num_envs, self.observation_size), dtype=np.float32)
            self._play_opponents(np.zeros(self.num_envs), np.zeros(self.num_envs, dtype=np.bool_), final)
        return self._obs.copy(), self._info(self._masks.copy())

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, num_actions]``: the legal ids of every deal's seat to act."""
        return self._masks.astype(bool)

    def sample(self) -> np.ndarray:
        """A uniformly random legal id for every deal (reproducible from the reset seed)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self._samples += 1
        _sample(self._masks, np.uint64(self._seed ^ 0x5DEECE66D), self._samples, out)
        return out

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action id per deal: ``(obs, rewards, terminated, truncated, info)``.

        ``rewards``: ``float64[num_envs, players]`` in self-play, the learner's ``float64[num_envs]`` with
        opponents. A deal that ends starts again in the same step (Gymnasium's ``SAME_STEP`` autoreset):
        ``terminated[i]``, and ``info["final_obs"][i]`` is its last tensor (as the seat that moved last sees
        it; the learner with opponents), ``info["_final_obs"]`` the rows that hold one.

        Raises:
            IllegalActionError: before :meth:`reset`, a wrong shape, or an id the mask forbids (naming
                the first such deal and its legal ids); nothing changes. With opponents, an opponent's
                illegal id (naming it).
        """
        if not self._started:
            raise IllegalActionError("no deals are dealt: call reset() first")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(f"actions must be {self.num_envs} whole numbers (action ids), got shape "
                                     f"{a.shape} of {a.dtype}")
        a = a.astype(np.int64, copy=False)
        bad = _first_illegal(a, self._masks)
        if bad >= 0:
            seat = int(self._state.actor[bad])
            raise IllegalActionError(f"deal {bad}, seat {seat + 1}: action {int(a[bad])} is not legal now: "
                                     f"legal ids {np.flatnonzero(self._masks[bad]).tolist()}")
        final = np.zeros((self.num_envs, self.observation_size), dtype=np.float32)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.learner is not None:
            rewards = np.zeros(self.num_envs)
            done = np.zeros(self.num_envs, dtype=np.bool_)
            self._step_kernel(a, rewards, done, final)
            self._play_opponents(rewards, done, final)
            info = self._info(self._masks.copy())
            info.update(final_obs=final, _final_obs=done.copy())
            return self._obs.copy(), rewards, done, truncated, info
        obs = np.empty_like(self._obs)
        masks = np.empty_like(self._masks)
        seat_rewards = np.empty((self.num_envs, self.num_players))
        done = np.empty(self.num_envs, dtype=np.bool_)
        self._obs, self._masks = obs, masks
        self._run(_step_all_flag, (a, obs, masks, seat_rewards, done, final, self._log, self._nlog, self._alog,
                                   self._nalog, *self._last),
                  self.num_players, self._rules, self._stacks0, self.fixed_button, np.uint64(self._seed),
                  self.total_chips, self.record, -1)
        info = self._info(masks.copy())  # a copy: the env checks the next step's ids against its own
        info.update(final_obs=final, _final_obs=done.copy())
        return obs, seat_rewards, done, truncated, info

    def close(self, **kwargs: Any) -> None:
        """Stop the threads (``threads`` > 1)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
        self.closed = True

    def _current_deal(self, env: int) -> dict[str, Any]:
        """The deal in progress in ``env`` so far, as :meth:`last_deal` gives a finished one (``record=True``)."""
        return {"stacks": list(self.stacks), "button": int(self._state.button[env]),
                "cards": self._log[env, :self._nlog[env]].tolist(),
                "actions": self._alog[env, :self._nalog[env]].tolist()}

    def last_deal(self, env: int) -> dict[str, Any] | None:
        """The last finished deal of environment ``env`` as the engine's inputs (``record=True``), or ``None``:
        ``{"stacks", "button", "deal" (its number), "cards" (every card drawn, in order, as Card indices),
        "actions" (every action id, in order, the opponents' included)}``.

        Raises:
            RulesError: the environment was made without ``record=True``.
        """
        if not self.record:
            raise RulesError("make the environment with record=True to keep the deals")
        log, nlog, alog, nalog, meta = self._last
        if meta[env, 0] < 0:
            return None
        if nlog[env] > log.shape[1] or nalog[env] > alog.shape[1]:
            return None  # longer than the record keeps (not seen in practice)
        return {"stacks": list(self.stacks), "button": int(meta[env, 0]), "deal": int(meta[env, 1]) - 1,
                "cards": log[env, :nlog[env]].tolist(), "actions": alog[env, :nalog[env]].tolist()}

    def __repr__(self) -> str:
        return f"KindVectorEnv(num_envs={self.num_envs}, players={self.num_players})"


def kind_vector_env(num_envs: int, players: int = 4, *, stack: int | None = None, stacks: Any = None,
                    button: int | None = None, preset: str = "family", record: bool = False, threads: int = 1,
                    opponents: Any = None, seat: int | None = None, **rules: Any) -> KindVectorEnv:
    """:class:`KindVectorEnv` with the rules given as a preset and fields (as :func:`fourcards.rl.kind_env`).

    Raises:
        RulesError: unknown preset or rule, invalid values, or a table that cannot deal.
    """
    return KindVectorEnv(num_envs, players, stack=stack, stacks=stacks, button=button,
                         rules=table_rules(preset, **rules), record=record, threads=threads, opponents=opponents,
                         seat=seat)


assert PER_SEAT == 28 and GLOBAL == 6  # the layout _observe writes
