"""Issue 22, item 3: exact scoring of any policy (fourcards.poker.policy.score_policy) and
``poker analyze --strategy module:function``.

Figures: the optimal house edge 2.7879% of the ante (docs/analysis.md); rules.md FCP-3
(play 1x-3x live, 1x or 3x online).
"""

from __future__ import annotations

import json
import math
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from fourcards.cli import main
from fourcards.errors import RulesError
from fourcards.poker import analysis as an
from fourcards.poker.policy import N_DEALS, is_policy_spec, load_policy, score_policy
from fourcards.poker.strategy import decide, decision_table


@pytest.fixture(scope="module")
def counts() -> an.ExactCounts:
    return an.exact_counts()


def _optimal_policy(rules: str, counts: an.ExactCounts):
    table = decision_table(rules, "optimal", counts=counts)

    def optimal(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        return decide(cards, up, table)

    optimal.vectorized = True  # type: ignore[attr-defined]
    return optimal


@pytest.mark.parametrize("rules", ["live", "online"])
def test_issue22_optimal_policy_as_a_callable_scores_the_optimal_house_edge(rules: str, counts) -> None:
    """Every one of the 122,151,120 (hand, up card) pairs asked; the same exact figures as poker analyze."""
    expected = an.analyze(rules, counts=counts)
    policy = _optimal_policy(rules, counts)
    for symmetric in (False, True):
        got = score_policy(policy, rules, symmetric=symmetric, counts=counts)
        assert abs(float(got.house_edge) - float(expected.house_edge)) < 1e-9
        assert got.house_edge == expected.house_edge and got.element_of_risk == expected.element_of_risk
        assert got.return_to_player == expected.return_to_player and got.decisions == expected.decisions
        assert abs(float(got.variance) - float(expected.variance)) < 1e-12
    assert abs(float(expected.house_edge) - 0.027879) < 5e-7
    assert N_DEALS == 122_151_120


def test_issue22_always_3x_matches_an_independent_monte_carlo_within_its_99_9pct_interval(counts) -> None:
    """Monte Carlo: PokerVectorEnv's rounds (the simulator's deals and settlement table), 4,194,304 of them."""
    from fourcards.rl import PokerVectorEnv

    def three_x(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        return np.full(len(cards), 3)

    exact = score_policy(three_x, "live", vectorized=True, counts=counts)
    env = PokerVectorEnv(1 << 18, "live")
    env.reset(seed=2026)
    total = square = 0.0
    n = 0
    for _ in range(16):
        _, rewards, *_ = env.step(np.full(env.num_envs, 3))
        total += rewards.sum()
        square += (rewards * rewards).sum()
        n += len(rewards)
    mean = total / n
    se = math.sqrt((square / n - mean * mean) / n)
    assert abs(mean + float(exact.house_edge)) < 3.2905 * se, (mean, float(exact.house_edge), se)
    assert exact.decisions == {"fold": 0, "play_1x": 0, "play_2x": 0, "play_3x": 1}
    assert float(exact.house_edge) > 0.5  # playing everything 3x is a heavy loss


@pytest.mark.slow
def test_issue22_a_per_hand_callable_scores_as_its_vectorised_form(counts) -> None:
    """The per-hand form (Card objects, called once per suit pattern) and the array form agree exactly."""
    def pair_or_better(cards, up) -> str:
        ranks = [c.rank for c in cards]
        return "3x" if len(set(ranks)) < 5 else "fold"

    def pair_or_better_arrays(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        ranks = np.sort(cards >> 2, axis=1)
        return np.where((np.diff(ranks, axis=1) == 0).any(axis=1), 3, 0)

    per_hand = score_policy(pair_or_better, "live", symmetric=True, counts=counts)
    arrays = score_policy(pair_or_better_arrays, "live", vectorized=True, counts=counts)
    assert per_hand.house_edge == arrays.house_edge and per_hand.decisions == arrays.decisions


def test_issue22_a_decision_the_rules_forbid_names_the_hand(counts) -> None:
    def two_x(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        return np.full(len(cards), 2)

    with pytest.raises(RulesError, match=r"plays 2 with .* against up card .*allow \[0, 1, 3\]"):
        score_policy(two_x, "online", vectorized=True, counts=counts)
    with pytest.raises(RulesError, match="must return"):
        score_policy(lambda c, u: np.zeros(3), "live", vectorized=True, counts=counts)
    with pytest.raises(RulesError, match="decides fold"):
        score_policy(lambda c, u: "raise", "live", symmetric=True, counts=counts)


def test_issue22_poker_analyze_scores_a_module_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], counts) -> None:
    (tmp_path / "my_policies.py").write_text(textwrap.dedent("""
        import numpy as np

        def one_x(cards, up):
            return np.ones(len(cards), dtype=np.int64)

        one_x.vectorized = True
        one_x.suit_symmetric = True
    """))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["poker", "analyze", "--rules", "live", "--strategy", "my_policies:one_x", "--json"])
    assert exc.value.code == 0
    sheet = json.loads(capsys.readouterr().out)
    expected = score_policy(load_policy("my_policies:one_x"), "live", counts=counts)
    assert sheet["strategy"] == "my_policies:one_x"
    assert sheet["house_edge"] == pytest.approx(float(expected.house_edge), abs=1e-12)
    assert sheet["decisions"]["play_1x"] == 1.0
    sys.modules.pop("my_policies", None)
    with pytest.raises(SystemExit) as exc:
        main(["poker", "analyze", "--strategy", "no_such_module_here:policy"])
    assert exc.value.code == 2 and "cannot import the policy module" in capsys.readouterr().err


def test_issue22_policy_names() -> None:
    assert is_policy_spec("pkg.module:function") and not is_policy_spec("optimal")
    assert not is_policy_spec("chart.csv")
    with pytest.raises(RulesError, match="module:function"):
        load_policy("not a policy")
    with pytest.raises(RulesError, match="no callable"):
        load_policy("math:no_such_function")
