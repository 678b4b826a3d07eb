"""Issue 22, items 5 and 6: bots from learners - the (tensor, mask) bridge to bot plug-ins of both
games, Four Card Poker's plug-in group, and the learned Four of a Kind bot (ahead of pots over
duplicate deals; deterministic; its features the same in numba and from an observation)."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import numpy as np
import pytest

from fourcards.cards import Card, parse_cards
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind.bots import PotsBot, bot_names, make_bot, play_deal
from fourcards.kind.game import Game
from fourcards.kind.rules import KindRules
from fourcards.poker import bots as pb
from fourcards.poker.rules import get_rules
from fourcards.rl.bots import (
    LearnedKindBot,
    PolicyBot,
    kind_features,
    learned_table,
    poker_policy_bot,
    policy_bot,
)
from fourcards.rl.encoding import KindActions, kind_tensor

PLUGIN = textwrap.dedent('''
    """Plug-ins for the tests, written as a learner would: policies on the tensors."""
    from fourcards.rl.bots import policy_bot, poker_policy_bot


    def biggest(tensor, mask):
        return int(mask.nonzero()[0][-1])


    def three_x_with_a_pair(obs, mask):
        ranks = [c // 4 for c in obs[:52].nonzero()[0]]
        return 3 if len(set(ranks)) < 5 else 0


    Biggest = policy_bot(biggest, "biggest")
    PairBot = poker_policy_bot(three_x_with_a_pair, "pairbot")


    class NoDecide:
        pass
''')


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "fc_learner_demo.py").write_text(PLUGIN)
    info = tmp_path / "fc_learner_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fc-learner-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[fourcards.bots]\nbiggest = fc_learner_demo:Biggest\n\n"
                                           "[fourcards.poker_bots]\npairbot = fc_learner_demo:PairBot\n"
                                           "simple = fc_learner_demo:PairBot\nnodecide = fc_learner_demo:NoDecide\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_issue22_a_tensor_policy_becomes_a_four_of_a_kind_plug_in(plugins: Path) -> None:
    assert "biggest" in bot_names()
    bot = make_bot("biggest")
    seen = []

    def spy(tensor: np.ndarray, mask: np.ndarray) -> int:
        seen.append((tensor.copy(), mask.copy()))
        return int(mask.nonzero()[0][0])

    game = play_deal(KindRules(), [bot, PolicyBot(spy), make_bot("pots"), make_bot("odds")], [200] * 4,
                     random.Random(5))
    assert game.is_terminal and sum(game.returns()) == 0 and seen
    # the tensor is the environments' own: kind_tensor over all the chips at the table
    view = Game(KindRules(), [200] * 4, 0, rng=random.Random(1)).observation(None)
    assert seen[0][0].shape == kind_tensor(view, 800).shape and seen[0][1].dtype == np.int8


def test_issue22_a_policy_choosing_a_masked_id_is_refused() -> None:
    game = Game(KindRules(), [200] * 4, 0, rng=random.Random(2))
    obs = game.observation(game.actor)
    forbidden = int(np.flatnonzero(KindActions(KindRules()).mask(obs.legal_actions) == 0)[0])
    with pytest.raises(IllegalActionError, match="bot 'bad'"):
        policy_bot(lambda t, m: forbidden, "bad")().act(obs, obs.legal_actions, random.Random(0))


def test_issue22_four_card_poker_has_a_plug_in_group(plugins: Path) -> None:
    names = pb.poker_bot_names()
    assert names[:2] == ("simple", "optimal") and "pairbot" in names and names.count("simple") == 1
    rules = get_rules("online")
    bot = pb.make_poker_bot("PairBot", rules)
    assert bot.decide(parse_cards("As Ad 7c 5h 2d"), Card.parse("Kc")) == 3
    assert bot.decide(parse_cards("As Kd 7c 5h 2d"), Card.parse("Kc")) == 0
    assert isinstance(pb.make_poker_bot("simple", rules), pb.StrategyBot)  # not replaced by the plug-in
    with pytest.raises(RulesError, match="no object with decide"):
        pb.make_poker_bot("nodecide", rules)
    with pytest.raises(RulesError, match="unknown Four Card Poker bot 'nobody'.*pairbot"):
        pb.make_poker_bot("nobody", rules)
    # the web app offers it and plays it
    from fourcards.table import players

    players.poker_bot_names.cache_clear()
    try:
        assert "pairbot" in players.poker_bot_names()
        from fourcards.poker.round import PokerRound

        r = PokerRound(rules, players=1)
        r.apply(r.legal_actions(0)[0].action(10, 0))
        r.apply_chance(random.Random(0))
        play = next(o for o in r.legal_actions(0) if o.kind.value == "play")
        amount = players.poker_play("pairbot", rules, parse_cards("As Ad 7c 5h 2d"), Card.parse("Kc"), 10, play, 100)
        assert amount == 30
    finally:
        players.poker_bot_names.cache_clear()


def test_issue22_a_poker_policy_bot_refuses_2x_under_online() -> None:
    bot = poker_policy_bot(lambda obs, mask: 2, "two")(get_rules("online"))
    with pytest.raises(IllegalActionError, match="1x or 3x"):
        bot.decide(parse_cards("As Ad 7c 5h 2d"), Card.parse("Kc"))


# ------------------------------------------------------------------ the learned bot


def test_issue22_the_learned_bot_is_a_plug_in_of_the_package() -> None:
    assert "learned" in bot_names()
    assert isinstance(make_bot("learned"), LearnedKindBot)
    table = learned_table()
    from fourcards.rl.kind_learn import N_CELLS, pots_table

    assert table.shape == (N_CELLS,) and table.dtype == np.uint8 and set(np.unique(table)) <= {0, 1, 2, 3}
    assert (table != pots_table()).sum() > 0


def _duplicate(players: int, deals: int, seed: int) -> list[int]:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "kind_bot_match.py"
    spec = importlib.util.spec_from_file_location("kind_bot_match", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.match(players, 0, deals, seed)


def test_issue22_learned_bot_is_ahead_of_pots_over_duplicate_deals_and_replays_deterministically() -> None:
    """A small duplicate match in the engine (the full one: benchmarks/kind_bot_match.py, docs/rl.md)."""
    first = _duplicate(4, 40, 7)
    assert _duplicate(4, 40, 7) == first  # the same cards, the same decisions: the same chips
    assert sum(first) > 0


def test_issue22_learned_table_beats_pots_like_seats_in_the_batched_env_with_95pct_confidence() -> None:
    from fourcards.rl.kind_learn import duplicate_match

    for players in (4, 8):
        result = duplicate_match(learned_table(), players, 4, envs=1024, seed=31 + players)
        assert result["low"] > 0, result


def test_issue22_features_in_numba_are_the_bots_features() -> None:
    """The table is learned on numba features and played on Python ones: they must agree."""
    from fourcards.rl import kind_learn as kl
    from fourcards.rl.kind_vector import kind_vector_env

    env = kind_vector_env(24, 5, stack=200, record=True)
    obs, info = env.reset(seed=11)
    odds = kl.odds_table(5)
    encoder = KindActions(env.rules)
    compared = 0
    for _ in range(60):
        st = env._state.arrays()
        for i in range(0, env.num_envs, 3):
            cell, edge, ratio = kl._features(i, env.num_players, env._rules, st, *odds, kl.EDGE_BINS, kl.RATIO_BINS)
            deal = env._current_deal(i)
            game = Game(env.rules, deal["stacks"], deal["button"], cards=[Card(c) for c in deal["cards"]])
            for a in deal["actions"]:
                game.apply(encoder.action(a, game.legal_actions()))
            py_cell, py_edge, py_ratio = kind_features(game.observation(game.actor))
            assert py_cell == cell and py_edge == pytest.approx(edge) and (
                (py_ratio is None and ratio < 0) or py_ratio == pytest.approx(ratio))
            compared += 1
        env.step(env.sample())
    assert compared > 400


def test_issue22_pots_table_plays_as_pots_without_all_ins() -> None:
    """The training starts from pots's decisions: the table of pots_table() picks pots's action."""
    from fourcards.rl.kind_learn import pots_table

    bot, pots = LearnedKindBot(pots_table()), PotsBot()
    rng = random.Random(3)
    checked = 0
    for deal in range(20):
        game = Game(KindRules(), [1000] * 6, deal % 6, rng=random.Random(deal))
        while not game.is_terminal:
            obs = game.observation(game.actor)
            mine, theirs = bot.act(obs, obs.legal_actions, rng), pots.act(obs, obs.legal_actions, rng)
            assert (mine.kind, mine.amount) == (theirs.kind, theirs.amount)
            game.apply(theirs)
            checked += 1
    assert checked > 100
