"""Four Card Poker strategies (issue 3): optimal, simple, charts, the simulator's decision table."""

from __future__ import annotations

import numpy as np
import pytest

from fourcards.cards import Card
from fourcards.errors import CardError, RulesError
from fourcards.poker import analysis as an
from fourcards.poker.exact import strategy as st
from fourcards.poker.rules import as_rules as _as_rules


@pytest.fixture(scope="module")
def table(counts):
    return st.decision_table("live", "optimal", counts=counts)


def test_optimal_is_the_argmax_of_the_exact_evs(counts):
    for preset in ("live", "online"):
        rules = _as_rules(preset)
        opts, ev = an.ev_numerators(counts, rules)
        dec = st.optimal_strategy(rules, counts).decisions
        chosen = np.take_along_axis(ev, np.searchsorted(opts, dec)[None], 0)[0]
        assert (chosen == ev.max(axis=0)).all()


def test_optimal_decisions_of_known_hands(counts):
    s = st.optimal_strategy("live", counts)
    assert s.decide("As Ad 7c 5h 2d", "Kc") == 3
    assert s.decide("Kd Jh 6s 3c 2h", "Ac") == 0
    assert s.decide("5c 5d Jh 8s 2c", "9d") == 1
    assert s.decide("2c 2d 2h 2s 7c", "Ah") == 3


@pytest.mark.parametrize("cards,expected", [
    ("Ah Kd Qs 9c 7h", 0),  # high card (A-K-Q-J would be a straight)
    ("2h 2d Ks Qc 9h", 0),  # pair of 2s or less: fold
    ("3h 3d Ks Qc 9h", 1),
    ("9h 9d Ks Qc 2h", 1),
    ("Th Td 4s 5c 8h", 3),
    ("Ah Ad 4s 5c 8h", 3),
    ("4h 4d 8s 8c 2h", 3),  # two pair: "10s or better" includes better hands
    ("9h 9d 9s Kc 3d", 3),
])
def test_simple_strategy_published_rules(cards, expected):
    s = st.simple_strategy("live")
    for up in ("2c", "Ks"):
        if up[0] not in cards:
            assert s.decide(cards, up) == expected


def test_simple_strategy_needs_no_counts():
    t = st.decision_table("online", "simple")
    assert st.decide_hand("3h 3d Ks Qc 9h", "Ac", t) == 1


def test_chart_is_best_of_its_shape_and_loses_little(counts):
    chart = st.optimal_chart("live", counts)
    opt = an.analyze("live", counts=counts).house_edge
    ch = an.analyze("live", chart, counts=counts).house_edge
    simple = an.analyze("live", "simple", counts=counts).house_edge
    assert opt < ch < simple
    assert float(ch - opt) < 0.002  # the compact chart costs about 0.12% of the ante
    # changing any one cell of the chart cannot help
    rows = [i for i in range(32) if (chart.table[i] == 1).any()][:2]
    for r in rows:
        t = chart.table.copy()
        j = int(np.flatnonzero(t[r] == 1)[0])
        t[r, j] = 3
        assert an.analyze("live", st.StrategyChart("x", t), counts=counts).house_edge >= ch


def test_chart_csv_round_trip(counts, tmp_path):
    chart = st.optimal_chart("live", counts)
    text = chart.to_csv()
    assert text.startswith("hand,2,3,4,5,6,7,8,9,T,J,Q,K,A\n")
    again = st.load_chart(text)
    a = chart.strategy(counts=counts).decisions
    b = again.strategy(counts=counts).decisions
    assert np.array_equal(a, b)
    path = tmp_path / "mine.csv"
    path.write_text(text)
    f = an.analyze("live", str(path), counts=counts)
    assert f.strategy == "mine"
    assert f.house_edge == an.analyze("live", "chart", counts=counts).house_edge


def test_chart_file_with_ranges_and_default(counts):
    text = ("hand,2,3,4,5,6,7,8,9,T,J,Q,K,A\n"
            "default," + ",".join(["fold"] * 13) + "\n"
            "pair:3-9," + ",".join(["1x"] * 13) + "\n"
            "pair:T-A," + ",".join(["3x"] * 13) + "\n"
            "two_pair+," + ",".join(["3x"] * 13) + "\n")
    chart = st.load_chart(text, name="simple-by-hand")
    assert np.array_equal(chart.strategy(counts=counts).decisions, st.simple_strategy("live").decisions)


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    ("hand,2,3\n", "header"),
    ("hand,2,3,4,5,6,7,8,9,T,J,Q,K,A\npair:3," + ",".join(["1x"] * 13) + "\n", "does not cover"),
    ("hand,2,3,4,5,6,7,8,9,T,J,Q,K,A\nboat," + ",".join(["1x"] * 13) + "\n", "unknown hand class"),
    ("hand,2,3,4,5,6,7,8,9,T,J,Q,K,A\ndefault," + ",".join(["4x"] * 13) + "\n", "bad decision"),
])
def test_bad_chart_files(text, match):
    with pytest.raises(RulesError, match=match):
        st.load_chart(text + "\n" if text else "\n")


def test_chart_with_2x_refused_by_online_rules(counts):
    t = np.full((32, 13), 2, dtype=np.uint8)
    with pytest.raises(RulesError, match="do not allow"):
        st.StrategyChart("twos", t).strategy(_as_rules("online"), counts)


def test_unknown_strategy_name():
    with pytest.raises(RulesError, match="unknown strategy"):
        st.get_strategy("clairvoyant", "live")


def test_chart_png(counts, tmp_path):
    from fourcards.report.charts import save_chart_png

    p = save_chart_png(st.optimal_chart("live", counts), tmp_path / "chart.png")
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------------------
# the simulator's vectorised decision
# ---------------------------------------------------------------------------


def test_decision_table_layout(table):
    assert table.shape == (13, an.N_HANDS5) and table.dtype == np.uint8
    assert set(np.unique(table).tolist()) <= {0, 1, 3}


def test_decide_matches_the_strategy_on_random_deals(counts, table):
    rng = np.random.default_rng(7)
    n = 3000
    deals = np.argsort(rng.random((n, 52)), axis=1)[:, :6].astype(np.uint8)
    player, up = deals[:, :5], deals[:, 5]
    got = st.decide(player, up, table)
    s = st.optimal_strategy("live", counts)
    for i in range(0, n, 10):
        cards = [Card(int(c)) for c in player[i]]
        assert got[i] == s.decide(cards, Card(int(up[i])))


def test_decide_is_invariant_under_card_order_and_suit_renaming(table):
    rng = np.random.default_rng(11)
    deals = np.argsort(rng.random((2000, 52)), axis=1)[:, :6].astype(np.uint8)
    base = st.decide(deals[:, :5], deals[:, 5], table)
    shuffled = deals[:, :5][:, ::-1]
    assert np.array_equal(st.decide(shuffled, deals[:, 5], table), base)
    perm = np.array([2, 0, 3, 1])  # rename suits everywhere
    renamed = (deals & ~np.uint8(3)) | perm[deals & 3].astype(np.uint8)
    assert np.array_equal(st.decide(renamed[:, :5], renamed[:, 5], table), base)


def test_decide_checks_shapes(table):
    with pytest.raises(CardError):
        st.decide(np.zeros((3, 4), dtype=np.uint8), np.zeros(3, dtype=np.uint8), table)
    with pytest.raises(CardError):
        st.decide(np.full((1, 5), 60, dtype=np.uint8), np.zeros(1, dtype=np.uint8), table)


def test_advise_is_the_trainer_entry_point(counts):
    h = st.advise("Th Td 4s 5c 8h", "Jd", "live", counts=counts)
    assert h.decision in h.ev and h.ev_lost(h.decision) == 0
    with pytest.raises(RulesError):
        h.ev_lost("play_4x")


def test_issue14_shipped_optimal_decisions_equal_the_ones_computed_from_the_counts(counts):
    """The package ships the optimal decisions of the named ante bonus tables (a first
    simulation needs no dealer counts); they must be exactly what the counts give."""
    from fourcards.poker.rules import get_rules

    for table in st.SHIPPED_ANTE_BONUS:
        for preset in ("live", "online"):
            rules = get_rules(preset, ante_bonus=table)
            shipped = st._shipped_optimal(rules)
            assert shipped is not None, table
            assert np.array_equal(shipped, st.optimal_strategy(rules, counts).decisions)
