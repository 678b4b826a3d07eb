"""Issue 23 item 4: game protection - a flashed hole card (exact), more hole cards and colluders
(Monte Carlo with every decision the exact best given the known cards)."""

from __future__ import annotations

import json
from functools import cache

import cli_run
import numpy as np
import pytest

from fourcards import hands
from fourcards.errors import CardError, RulesError
from fourcards.hands import BINOM, best4_of5, best4_of6, dense_to_value
from fourcards.poker import analysis as an
from fourcards.poker.exact import protect as pr
from fourcards.poker.rules import get_rules
from fourcards.poker.settlement import settle

Z999 = 3.2905267314919255  # two-sided 99.9 %


@pytest.fixture(scope="module")
def exact_live(counts):
    return pr.hole_card_exact("live", counts=counts)


def test_issue23_4_nothing_seen_reproduces_the_house_edge_exactly(counts, exact_live):
    """The hole-card sweep with the decisions made without the hole card: every (hand, up card, hole
    card) triple, summed, is the game's exact house edge - the enumeration's own check."""
    assert exact_live.triples == 2_598_960 * 47 * 46
    assert exact_live.expected_value_without == -an.analyze("live", counts=counts).house_edge
    assert str(exact_live.expected_value_without) == "-8840827253/317119576410"
    assert sum(exact_live.decisions.values()) == 1


def test_issue23_4_seeing_a_card_never_lowers_the_value(counts, exact_live):
    assert exact_live.gain > 0 and exact_live.changed > 0
    assert all(g >= 0 for g in exact_live.gain_by_hole_rank.values())
    for h, c in ((2, 0), (0, 1)):
        e = pr.protection_mc("live", hole_cards=h, colluders=c, rounds=300, seed=7, counts=counts)
        assert e.gain_min >= 0 and e.expected_value >= float(e.expected_value_without)


def test_issue23_4_sweep_counts_equal_direct_enumeration(counts):
    """One (up card, hole card) pair, any suits: the sweep's counts of single hands against the direct
    enumeration of the dealer's 148,995 other four cards (``count_known``) and a numpy brute force."""
    k = pr._kernels()
    bonus = an.bonus_pays(get_rules("live")).astype(np.int64)
    rng = np.random.default_rng(23)
    for _ in range(5):
        deck = rng.permutation(52)
        p = np.sort(deck[:5]).astype(np.int64)
        u, h = int(deck[5]), int(deck[6])
        r = int(best4_of5(p[None, :].astype(np.uint8))[0])
        packed = np.array([sum(int(c) << (6 * i) for i, c in enumerate(p))], dtype=np.int32)
        start = np.zeros(hands.N_VALUES + 1, dtype=np.int64)
        start[r + 1:] = 1
        out = np.zeros(12, dtype=np.int64)
        k.hole_card_class(u, h, packed, np.ones(1, np.uint8), start, hands.DENSE_RANK_4, BINOM, bonus,
                          np.zeros(an.N_HANDS5, np.uint8), 1, 3, out, np.empty(0, np.uint8))
        direct = np.zeros(3, dtype=np.int64)
        k.count_known(p, np.sort(np.array([u, h], dtype=np.int64)), np.zeros(0, np.int64), r, hands.DENSE_RANK_4,
                      BINOM, direct)
        rest = [c for c in range(52) if c not in set(p.tolist()) | {u, h}]
        four = hands.all_hands(4, rest)
        six = np.concatenate([four, np.tile(np.array([u, h], np.uint8), (len(four), 1))], axis=1)
        d = best4_of6(six)
        assert int(out[9]) == int(direct[0]) == int((d <= r).sum())  # le: ties go to the player
        assert int(direct[1]) == int((d < r).sum())
        assert direct[2] == pr.N_HOLE_COMPLETIONS


@cache
def _net(rules, player_rank: int, dealer_rank: int, k: int) -> int:
    play = None if k == 0 else k
    return settle(rules, dense_to_value(player_rank), dense_to_value(dealer_rank), ante=1, play=play).net


def test_issue23_4_monte_carlo_of_the_hole_card_strategy_settled_independently_agrees(counts):
    """One (up card, hole card) pair: deals drawn at random, the player deciding by the sweep's hole-card
    strategy, every round settled by the settlement core against the dealer's actual six cards. The
    mean result, and the gain over the decision made without the hole card on the same deals, agree
    with the exact figures within their 99.9 % intervals (and the gain's interval excludes 0)."""
    rules = get_rules("live")
    u, h = 4 * 3, 4 * 3 + 1  # up card 5c, hole card 5d: the dealer holds a pair (exact gain 10.56 % of the ante: pr.hole_card_gain)
    packed, weight, start = pr._player_lists()["diamonds"]
    dec = pr._decision_rows(rules, counts)
    out = np.zeros(12, dtype=np.int64)
    best = np.empty(len(packed), dtype=np.uint8)
    pr._kernels().hole_card_class(u, h, packed, weight, start, hands.DENSE_RANK_4, BINOM,
                                  an.bonus_pays(rules).astype(np.int64), np.ascontiguousarray(dec[u // 4]), 1, 3,
                                  out, best)
    n = pr.N_HOLE_COMPLETIONS
    exact_ev = out[0] / (out[2] * n)
    exact_gain = (out[0] - out[1]) / (out[2] * n)
    # every player hand -> its entry of the sweep's list (one hand per hearts <-> spades pair)
    cards = np.stack([(packed >> (6 * i)) & 63 for i in range(5)], axis=1).astype(np.int64)
    where = np.full(an.N_HANDS5, -1, dtype=np.int64)
    colex = sum(BINOM[cards[:, i], i + 1] for i in range(5))
    where[colex] = np.arange(len(packed))
    rng = np.random.default_rng(2301)
    rounds = 60_000
    rest = np.array([c for c in range(52) if c not in (u, h)])
    picks = np.argsort(rng.random((rounds, 50)), axis=1)[:, :9]
    drawn = rest[picks]
    player, dealer4 = np.sort(drawn[:, :5], axis=1), drawn[:, 5:]
    swapped = np.sort(np.where((player & 2) != 0, player ^ 1, player), axis=1)
    idx = np.minimum(sum(BINOM[player[:, i], i + 1] for i in range(5)), sum(BINOM[swapped[:, i], i + 1]
                                                                             for i in range(5)))
    k_hole = best[where[idx]]
    assert (k_hole != 255).all()
    k_plain = dec[u // 4, sum(BINOM[player[:, i], i + 1] for i in range(5))]
    pr_rank = best4_of5(player.astype(np.uint8))
    six = np.concatenate([dealer4, np.tile([u, h], (rounds, 1))], axis=1).astype(np.uint8)
    dr_rank = best4_of6(six)
    net_hole = np.array([_net(rules, int(a), int(b), int(k)) for a, b, k in zip(pr_rank, dr_rank, k_hole)])
    net_plain = np.array([_net(rules, int(a), int(b), int(k)) for a, b, k in zip(pr_rank, dr_rank, k_plain)])
    mean, se = net_hole.mean(), net_hole.std(ddof=1) / np.sqrt(rounds)
    assert abs(mean - exact_ev) <= Z999 * se
    diff = net_hole - net_plain
    gmean, gse = diff.mean(), diff.std(ddof=1) / np.sqrt(rounds)
    assert abs(gmean - exact_gain) <= Z999 * gse
    assert gmean - Z999 * gse > 0  # the hole card is worth something, measurably


def test_issue23_4_monte_carlo_of_one_hole_card_agrees_with_the_exact_edge(counts, exact_live):
    e = pr.protection_mc("live", hole_cards=1, rounds=600, seed=3, counts=counts)
    lo, hi = e.interval(0.999)
    assert lo <= float(exact_live.expected_value) <= hi


def test_issue23_4_more_cards_seen_are_worth_more(counts, exact_live):
    two = pr.protection_mc("live", hole_cards=2, rounds=4000, seed=1, counts=counts)
    assert two.interval(0.999)[0] > float(exact_live.expected_value)  # two hole cards beat one
    c1 = pr.protection_mc("live", colluders=1, rounds=300, seed=1, counts=counts)
    c3 = pr.protection_mc("live", colluders=3, rounds=300, seed=1, counts=counts)
    assert float(c1.expected_value_without) < c1.expected_value < c3.expected_value
    assert c1.to_dict()["interval_99_9"][0] < c1.expected_value


def test_issue23_4_one_situation(counts):
    plain = pr.hand_with_cards("As Ad 7c 5h 2d", "Kc")
    assert (plain["le"], plain["lt"]) == counts.lookup("As Ad 7c 5h 2d", "Kc")
    assert plain["completions"] == an.N_DEALER_HANDS
    assert plain["ev"] == an.hand_ev("As Ad 7c 5h 2d", "Kc", counts=counts).ev
    seen = pr.hand_with_cards("As Ad 7c 5h 2d", "Kc", holes="Kd")  # the dealer pairs his king
    assert seen["completions"] == pr.N_HOLE_COMPLETIONS and seen["le"] < seen["completions"] * plain["le"] // plain[
        "completions"]
    with pytest.raises(CardError, match="twice"):
        pr.hand_with_cards("As Ad 7c 5h 2d", "Kc", holes="As")
    with pytest.raises(RulesError, match="nothing extra"):
        pr.protection_mc("live", hole_cards=0, colluders=0)


def test_issue23_4_cli_table_and_json(counts, capsys, exact_live):
    def run(*argv):
        return cli_run.run(capsys, *argv)

    code, out, err = run("poker", "protect", "--hole-cards", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["one_hole_card"]["exact"]["expected_value"] == str(exact_live.expected_value)
    assert d["no_extra_cards"]["house_edge"] == pytest.approx(0.0278785288, abs=1e-10)
    code, out, err = run("poker", "protect", "--colluders", "2", "--rounds", "200", "--json")
    assert code == 0, err
    mc = json.loads(out)["monte_carlo"]
    assert mc[0]["colluders"] == 2 and mc[0]["rounds"] == 200 and mc[0]["interval_95"][0] < mc[0]["expected_value"]
    code, out, err = run("poker", "protect", "--hole-cards", "1")
    words = " ".join(out.split())
    assert code == 0 and "one hole card seen: the player's edge becomes" in words
    code, out, err = run("poker", "protect", "--hand", "As Ad 7c 5h 2d", "--up", "Kc", "--hole", "Kd", "--json")
    assert code == 0 and json.loads(out)["completions"] == pr.N_HOLE_COMPLETIONS
    for argv, match in ((["--hand", "As Ad 7c 5h 2d"], "--up"), (["--hand", "As Ad 7c 5h", "--up", "Kc"], "5 cards"),
                        (["--hole-cards", "9"], "--hole-cards")):
        code, out, err = run("poker", "protect", *argv)
        assert code == 2 and err.startswith("error: ") and match in err


def test_issue23_4_the_exact_figures_are_cached(counts, exact_live):
    """The sweep's sums are kept in the cache folder: a second call reads them (no sweep) and gives the
    same exact figures."""
    assert pr.hole_card_cached("live")
    again = pr.hole_card_exact("live", counts=counts)
    assert again.seconds == 0 and again == exact_live.__class__(**{**exact_live.__dict__, "seconds": 0})
