"""Four of a Kind for PettingZoo (issue 13, items 2 and 4): api_test, masks, the action encoding."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind.actions import Action, ActionKind, LegalAction
from fourcards.kind.rules import KindRules
from fourcards.rl import kind_env
from fourcards.rl.encoding import CALL, CHECK, FOLD, KindActions


@pytest.mark.parametrize("table", [
    {"players": 4},
    {"players": 6, "stack": 60},                                         # all-ins and side pots
    {"players": 5, "stacks": [200, 30, 15, 200, 60], "preset": "opr903", "max_bet": 8},
    {"players": 13, "button": 12},
])
def test_pettingzoo_api_test_passes(table: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(kind_env(**table), num_cycles=300, verbose_progress=False)


def test_every_deal_ends_with_zero_sum_rewards_and_legal_masked_moves() -> None:
    env = kind_env(players=5, stack=50)
    rng = np.random.default_rng(1)
    for deal in range(10):
        env.reset(seed=deal)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert sum(totals.values()) == 0 and any(totals.values())


def test_an_id_the_mask_forbids_is_refused_and_nothing_changes() -> None:
    env = kind_env()
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)
    forbidden = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"seat \d+: action"):
        env.step(forbidden)
    after = env.observe(agent)
    assert env.agent_selection == agent and (after["observation"] == before["observation"]).all()


def test_kind_env_rules_are_checked() -> None:
    with pytest.raises(RulesError, match="unknown Four of a Kind rule"):
        kind_env(blinds=5)
    with pytest.raises(RulesError, match="players"):
        kind_env(players=3)


def test_foak3_action_ids_of_spread_limit_bets_and_raises() -> None:
    """rules.md FOAK-3: a bet or raise adds min_bet..max_bet chips; ids 0 fold, 1 check, 2 call, 2 + a."""
    enc = KindActions(KindRules(min_bet=5, max_bet=10))
    assert enc.num_actions == 13
    opening = [LegalAction(ActionKind.CHECK), LegalAction(ActionKind.BET, 5, 10)]
    assert enc.ids(opening) == [CHECK, 7, 8, 9, 10, 11, 12]
    assert enc.action(9, opening) == Action.bet(7) and enc.to_id(Action.bet(7)) == 9
    facing = [LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CALL, 10, 10),
              LegalAction(ActionKind.RAISE, 5, 10)]
    assert enc.ids(facing) == [FOLD, CALL, 7, 8, 9, 10, 11, 12]
    assert enc.action(12, facing) == Action.raise_(10) and enc.action(CALL, facing).kind is ActionKind.CALL
    short = [LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CALL, 5, 5),
             LegalAction(ActionKind.RAISE, 3, 3, all_in=True)]  # rules.md FOAK-11: a short all-in raise
    assert enc.ids(short) == [FOLD, CALL, 5] and enc.action(5, short) == Action.raise_(3)
    with pytest.raises(ValueError, match="not legal"):
        enc.action(CHECK, facing)


@pytest.mark.parametrize(("blocked", "statement", "what"), [
    ("gymnasium", "from fourcards.rl import PokerEnv", "fourcards.rl.PokerEnv"),
    ("pettingzoo", "from fourcards.rl import kind_env", "fourcards.rl.kind_env"),
    ("pyspiel", "import fourcards.openspiel", "import fourcards.openspiel"),
])
def test_issue10_5_rl_adapters_without_the_extra_name_it(blocked: str, statement: str, what: str) -> None:
    import subprocess
    import sys

    code = (f"import sys; sys.modules[{blocked!r}] = None\n"
            f"try:\n    {statement}\nexcept ImportError as exc:\n    print(type(exc).__name__, exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == f"MissingExtraError {what} needs the rl extra: pip install 'fourcards[rl]'"
