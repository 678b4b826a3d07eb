"""Issue 31 items 5-7: the rule switches (docs/rules.md FCP-16, FCP-17) in the settlement and the
exact analysis, any side bet on the player's, the dealer's or both hands (FCP-18), and ``poker
protect --pairs``."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import cli_run
import numpy as np
import pytest

from fourcards.cards import parse_cards
from fourcards.errors import RulesError
from fourcards.hands import BINOM, CATEGORY_OF_DENSE, HandCategory, best4_of5, best4_of6, best_hand
from fourcards.poker import analysis as an
from fourcards.poker import strategy as st
from fourcards.poker.exact.figures import FOLD_CLASSES, class_of_rank
from fourcards.poker.exact.side_bets import side_bet_figures
from fourcards.poker.rules import ACES_UP_TABLES, get_rules
from fourcards.poker.settlement import settle
from fourcards.poker.side_bets import SIDE_BETS, SideBet, parse_side_bet

PAIRS = 2_598_960 * 47  # (player hand, up card) pairs


def _value(cards: str):
    return best_hand(parse_cards(cards))[0]


# ---------------------------------------------------------------------------
# item 5: the rule switches in the settlement (and so in the round and the simulator)
# ---------------------------------------------------------------------------

def test_fcp16_aces_up_lost_on_a_fold_only_with_the_switch():
    aces, dealer = _value("Ah Ad Ac 7s 2d"), _value("Kh Kd 9c 8s 4d 3c")
    base = get_rules("live")
    assert settle(base, aces, dealer, ante=10, play=None, aces_up=5).aces_up == 5 * 8  # trips: 8 to 1 (FCP-6)
    switched = get_rules("live", aces_up_lost_on_fold=True)
    folded = settle(switched, aces, dealer, ante=10, play=None, aces_up=5)
    assert (folded.ante, folded.aces_up, folded.net) == (-10, -5, -15)
    assert settle(switched, aces, dealer, ante=10, play=30, aces_up=5).aces_up == 40  # played: settled on the hand
    assert switched.to_dict()["aces_up_lost_on_fold"] is True and base.to_dict()["aces_up_lost_on_fold"] is False


def test_fcp17_ante_bonus_on_a_fold_only_when_the_switch_is_off():
    trips, dealer = _value("9h 9d 9s Kc 3d"), _value("Qd Qs 8c 8h 4s 2d")
    base = get_rules("online")
    assert base.ante_bonus_requires_play and settle(base, trips, dealer, ante=10, play=None).ante_bonus == 0
    paid = get_rules("online", ante_bonus_requires_play=False)
    folded = settle(paid, trips, dealer, ante=10, play=None)
    assert (folded.ante, folded.ante_bonus, folded.net) == (-10, 20, 10)
    assert settle(paid, trips, dealer, ante=10, play=30).wagers == settle(base, trips, dealer, ante=10, play=30).wagers
    with pytest.raises(RulesError, match="ante_bonus_requires_play must be true or false"):
        base.with_switches(ante_bonus_requires_play="no")  # type: ignore[arg-type]


def test_issue31_5_round_engine_settles_by_the_switches():
    from fourcards.poker.round import settle_hand

    rules = get_rules("live", aces_up_lost_on_fold=True, ante_bonus_requires_play=False)
    r = settle_hand(rules, parse_cards("9h 9d 9s Kc 3d"), parse_cards("Qd Qs 8c 8h 4s 2d"), ante=10, play=None,
                    aces_up=4)
    assert (r.wagers["ante"], r.wagers["ante_bonus"], r.wagers["aces_up"], r.net) == (-10, 20, -4, 6)


# ---------------------------------------------------------------------------
# item 5: each switch's exact effect, against an independent enumeration of every (hand, up card)
# ---------------------------------------------------------------------------

def _folding_chart() -> st.StrategyChart:
    """A chart that folds more than it should: trips and worse against an ace or a king up, two pair
    and a pair of aces against a queen up, everything below trips against a deuce."""
    t = np.array(st.optimal_chart("live").table, dtype=np.uint8)
    t[:30, 11:] = 0
    t[25:27, 10] = 0
    t[:29, 0] = 0
    return st.StrategyChart("folds-more", t)


def _independent_folds(chart: st.StrategyChart) -> dict[str, int]:
    """(hand, up card) pairs folded, by Aces Up class, over all 2,598,960 hands x their 47 up cards,
    straight from the hands (no orbits, no dealer counts)."""
    t = an.base_tables()
    combos = t.combos.astype(np.int64)
    cls = class_of_rank()[t.rank5].astype(np.int64)
    out = dict.fromkeys(FOLD_CLASSES, 0)
    for up in range(52):
        holds = (combos == up).any(axis=1)
        dec = chart.table[cls[~holds], up >> 2]
        folded = np.bincount(cls[~holds][dec == 0], minlength=32)
        for key, c in FOLD_CLASSES.items():
            out[key] += int(folded[c])
    return out


def test_issue31_5_switches_change_the_return_by_exactly_the_independent_enumeration(counts):
    chart = _folding_chart()
    folds = _independent_folds(chart)
    assert sum(folds.values()) > 0
    for preset in ("live", "online"):
        base = get_rules(preset)
        bonus, au = base.ante_bonus.as_dict(), base.aces_up.as_dict()
        want_bonus = -Fraction(sum(n * bonus.get(k, 0) for k, n in folds.items()), PAIRS)
        want_au = -Fraction(sum(n * (au[k] + 1) for k, n in folds.items()), PAIRS)
        # the game: with the ante bonus on a fold too, minus with it only with a play bet
        on = an.analyze(base, chart, counts=counts)
        off = an.analyze(base.with_switches(ante_bonus_requires_play=False), chart, counts=counts)
        assert on.expected_value - off.expected_value == want_bonus
        assert on.switch_effects()["ante_bonus_requires_play"] == want_bonus
        # every outcome row of the game settled by the switch: the par sheet's return table adds up
        assert sum(r.combinations for r in an.game_tables(off)[0].rows) == an.N_DEALS
        # the Aces Up: lost on a fold, minus settled on the hand
        lost = an.par_sheet(base.with_switches(aces_up_lost_on_fold=True), chart, counts=counts)
        assert lost.aces_up.return_ - an.aces_up(base.aces_up).return_ == want_au == on.switch_effects()[
            "aces_up_lost_on_fold"]
        assert lost.wagers["aces_up"].expected_value == lost.aces_up.return_ - 1
        effects = lost.to_dict()["rule_switches"]["effects"]["folds-more"]
        assert effects["aces_up_lost_on_fold"]["exact"] == f"{want_au.numerator}/{want_au.denominator}"


def test_issue31_5_optimal_play_folds_nothing_a_switch_acts_on(counts):
    for preset in ("live", "online"):
        sheet = an.par_sheet(preset, counts=counts)
        for name, f in sheet.strategy_figures().items():
            assert f.folded == {} and set(f.switch_effects().values()) == {0}, name
        both = an.par_sheet(get_rules(preset, aces_up_lost_on_fold=True, ante_bonus_requires_play=False), counts=counts)
        assert both.game.house_edge == sheet.game.house_edge and both.aces_up.return_ == sheet.aces_up.return_
        assert (both.optimal.decisions == sheet.optimal.decisions)


def test_issue31_5_analyze_cli_states_the_switches(counts, capsys):
    code, out, err = cli_run.run(capsys, "poker", "analyze", "--aces-up-lost-on-fold", "--ante-bonus-on-fold",
                                 "--strategy", "simple", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["rules"]["aces_up_lost_on_fold"] is True and d["rules"]["ante_bonus_requires_play"] is False
    assert d["identity"]["rule_switches"] == ["Aces Up lost on a fold", "ante bonus paid on a fold too"]
    assert set(d["rule_switches"]["effects"]) == {"optimal", "chart", "simple"}


# ---------------------------------------------------------------------------
# item 6: side bets
# ---------------------------------------------------------------------------

def test_issue31_6_aces_up_as_a_side_bet_reproduces_its_published_figures(counts):
    """The Aces Up written as a side bet on the player's hand gives each named table's exact return
    (seed 004: RTP 96.63% for 50/30/7/6/5/2/1; Wikipedia: house edges from 1.98% to 6.15%)."""
    edges = []
    for name, table in ACES_UP_TABLES.items():
        bet = parse_side_bet("player:" + ",".join(f"{k}={v}" for k, v in table.as_dict().items()))
        f = side_bet_figures(bet, counts=counts)
        assert f.table.house_edge == an.aces_up(table).house_edge, name
        edges.append(f.table.house_edge)
    assert round(float(side_bet_figures(parse_side_bet("player:4K=50,SF=30,3K=7,F=6,S=5,2P=2,AA=1"),
                                        counts=counts).return_) * 100, 2) == 96.63
    assert (round(float(min(edges)) * 100, 2), round(float(max(edges)) * 100, 2)) == (1.98, 6.15)


def test_issue31_6_bad_beat_bonus_against_its_published_house_edge(counts):
    """Four Card Poker's Bad Beat Bonus (the losing hand, two pair or better: 25,000 / 10,000 / 100 / 25 /
    15 / 4 to 1), published with a house edge "of around 20%" (docs/analysis.md "Side bets", with the
    sources); exactly 19.04% over every deal."""
    f = side_bet_figures(SIDE_BETS["bad-beat"], counts=counts)
    assert 0.19 < float(f.table.house_edge) < 0.21
    assert f.table.house_edge == Fraction(f.table.to_dict()["exact"]["expected_value"]) * -1
    assert round(float(f.table.house_edge), 10) == 0.1903916048
    assert [r.outcome for r in f.table.rows] == ["four of a kind", "straight flush", "three of a kind", "flush",
                                                 "straight", "two pair", "anything else (loses)"]


@pytest.mark.parametrize("spec", ["both:2P=1,S=2,F=3,3K=6,SF=30,4K=50",
                                  "dealer,player-loses:2P=1,S=2,F=2,3K=3,SF=10,4K=10",
                                  "player,player-wins:P=1,2P=2,S=3,F=3,3K=5",
                                  "dealer:AA=3,2P=1,3K=2,F=2,S=2"])
def test_issue31_6_side_bet_returns_agree_with_deals_settled_one_by_one(counts, spec):
    """A Monte Carlo of 200,000 deals, each settled by :meth:`SideBet.settle` on its two hands, agrees
    with the exact return within 4.5 standard errors."""
    bet = parse_side_bet(spec)
    exact = side_bet_figures(bet, counts=counts).table
    rng = np.random.default_rng(31)
    n = 200_000
    deals = np.argsort(rng.random((n, 52)), axis=1)[:, :11].astype(np.uint8)
    p = best4_of5(np.ascontiguousarray(deals[:, :5]))
    d = best4_of6(np.ascontiguousarray(deals[:, 5:]))
    from fourcards.hands import dense_to_value

    values = {int(r): dense_to_value(int(r)) for r in np.unique(np.concatenate([p, d]))}
    won = np.array([(x if (x := bet.settle(values[int(a)], values[int(b)])) is not None else -1)
                    for a, b in zip(p, d, strict=True)], dtype=np.float64)
    se = won.std() / math.sqrt(n)
    assert abs(won.mean() - float(exact.expected_value)) < 4.5 * se + 1e-12


def test_issue31_6_joint_categories_add_up_to_each_side(counts):
    from fourcards.poker.exact.side_bets import joint_categories

    j = joint_categories()
    count5 = np.bincount(CATEGORY_OF_DENSE[an.base_tables().rank5], minlength=8)
    assert (j.joint.sum(axis=1) == count5 * math.comb(47, 6)).all()
    assert int(j.dealer_dense.sum()) == math.comb(52, 6)
    # four of a kind against four of a kind: 13 x 48 player hands, the dealer's quads of one of 12 other ranks
    # with two more of the 43 cards left (not making the dealer's own hand better than quads... it cannot)
    assert j.joint[HandCategory.FOUR_OF_A_KIND, HandCategory.FOUR_OF_A_KIND] == 6_198_192


def test_issue31_6_side_bet_cli_and_bad_specs(counts, capsys):
    code, out, err = cli_run.run(capsys, "poker", "analyze", "--side-bet", "bad-beat", "--json")
    assert code == 0, err
    b = json.loads(out)["side_bets"][0]
    assert b["bet"]["spec"] == "both:4K=25000,SF=10000,3K=100,F=25,S=15,2P=4" and round(b["house_edge"], 4) == 0.1904
    for spec, message in (("nothing", "malformed side bet 'nothing'"), ("both:AA=3", "a pair of aces (AA) can be paid"),
                          ("both:ZZ=3", "unknown side bet pay 'zz'"), ("table:3K=1", "a side bet is paid on"),
                          ("both:3K=1,3K=2", "side bet pay 3K given twice")):
        code, out, err = cli_run.run(capsys, "poker", "analyze", "--side-bet", spec)
        assert code == 2 and out == "" and err.startswith(f"error: {message}") and err.count("\n") == 1, spec


def test_issue31_6_side_bet_settles_the_lower_hand_for_both():
    bad_beat = SIDE_BETS["bad-beat"]
    quads, better = _value("9h 9d 9s 9c 3d"), _value("Kd Ks Kc Kh 4s 2d")
    assert bad_beat.settle(quads, better) == 25_000 == bad_beat.settle(better, quads)
    assert bad_beat.settle(_value("Ah Kd 8c 5s 2d"), better) is None  # the lower hand is a high card
    assert SideBet("x", "player", (("flush", 5),), "player_loses").settle(_value("2h 5h 8h Jh 3c"), better) == 5


# ---------------------------------------------------------------------------
# item 7: poker protect --pairs
# ---------------------------------------------------------------------------

def test_issue31_7_protect_pairs_exact_table_adds_up_to_the_flashed_card_figure(counts, capsys):
    from fourcards.poker.exact.protect import hole_card_exact

    h = hole_card_exact("live", counts=counts)
    assert len(h.pairs) == 13 * 25 == 325
    assert sum(p.triples for p in h.pairs) == h.triples == 2_598_960 * 47 * 46
    total = sum((p.expected_value * p.triples for p in h.pairs), Fraction(0))
    assert total / h.triples == h.expected_value
    without = sum((p.expected_value_without * p.triples for p in h.pairs), Fraction(0))
    assert without / h.triples == h.expected_value_without == -an.analyze("live", counts=counts).house_edge
    fives = next(p for p in h.pairs if (p.up, p.hole, p.suited) == ("5", "5", False))
    assert fives.gain > Fraction(1, 10) > max(p.gain for p in h.pairs if p.up != p.hole)  # a pairing card is worth most
    code, out, err = cli_run.run(capsys, "poker", "protect", "--pairs", "--json")
    assert code == 0, err
    pairs = json.loads(out)["one_hole_card"]["pairs"]
    assert len(pairs) == 325 and pairs[0]["up"] == "2" and pairs[0]["hole"] == "2" and pairs[0]["suited"] is False
    code, out, _ = cli_run.run(capsys, "poker", "protect", "--pairs")
    assert code == 0 and "per (up card, flashed card)" in out


def test_issue31_7_protect_pairs_refuses_monte_carlo_options(counts, capsys):
    code, out, err = cli_run.run(capsys, "poker", "protect", "--pairs", "--colluders", "2")
    assert code == 2 and err.startswith("error: --pairs is the exact table of one flashed hole card")


def test_issue31_binom_is_the_colex_basis():  # the kernels' card-set index, used by the side bet sweep
    assert BINOM[51, 5] == math.comb(51, 5)
