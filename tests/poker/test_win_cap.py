"""Issue 23 item 5: the win cap's cost (docs/rules.md FCP-7; seed 004's cap of 8,400)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import cli_run
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourcards.errors import RulesError
from fourcards.hands import dense_to_value
from fourcards.poker import analysis as an
from fourcards.poker.exact import win_cap as wc
from fourcards.poker.rules import get_rules
from fourcards.poker.settlement import settle


@pytest.mark.parametrize("preset,cap,aces_up,binding", [
    ("online", None, 0, 290),  # 290 x (1 + 3 + 25) = 8,410 > 8,400: four of a kind played 3x
    ("online", None, None, 107),  # Aces Up bet = ante: 107 x (29 + 50) = 8,453
    ("online", None, 100, 118),  # 118 x 29 + 100 x 50 = 8,422
    ("live", 5000, 0, 173),
])
def test_issue23_5_below_the_binding_ante_the_capped_return_equals_the_uncapped(counts, preset, cap, aces_up,
                                                                                binding):
    rules = get_rules(preset)
    assert wc.binding_ante(rules, aces_up, cap=cap) == binding
    below = wc.win_cap_figures(rules, binding - 1, binding - 1 if aces_up is None else aces_up, cap=cap,
                               counts=counts)
    at = wc.win_cap_figures(rules, binding, binding if aces_up is None else aces_up, cap=cap, counts=counts)
    assert below.return_to_player == below.return_to_player_uncapped and below.hits_cap == 0 and below.cost == 0
    assert at.return_to_player < at.return_to_player_uncapped
    # online a capped win happens; live the player can bet just up to the cap (the kink) instead
    assert (at.hits_cap > 0) == (preset == "online")
    if aces_up == 0:  # the ante/play game alone: the par sheet's RTP, 1 - element of risk
        assert below.return_to_player == an.analyze(rules, counts=counts).return_to_player


def test_issue23_5_capped_play_is_at_least_the_uncapped_strategy_settled_under_the_cap(counts):
    """Independent of the module: the uncapped optimal strategy's outcome rows, each settled in chips
    by the settlement core under the cap; the play re-optimised under the cap does at least as well,
    and exactly as well where the cap changes no decision."""
    rules = get_rules("online")
    figs = an.analyze(rules, counts=counts)
    groups = {"no ante bonus": dense_to_value(0), "three of a kind": None, "straight flush": None,
              "four of a kind": None}
    from fourcards.hands import CATEGORY_OF_DENSE, HandCategory

    for name, cat in (("three of a kind", HandCategory.THREE_OF_A_KIND), ("straight flush", HandCategory.STRAIGHT_FLUSH),
                      ("four of a kind", HandCategory.FOUR_OF_A_KIND)):
        groups[name] = dense_to_value(int((CATEGORY_OF_DENSE == cat).nonzero()[0][0]))
    for ante in (250, 300, 1000):
        expected = Fraction(0)
        for r in figs.outcomes:
            if r.multiple == 0:
                expected += r.probability * -ante
                continue
            dealer = dense_to_value(0) if r.result in ("win", "tie") else dense_to_value(2534)
            s = settle(rules, groups[r.hand], dealer, ante=ante, play=r.multiple * ante)
            expected += r.probability * s.net
        f = wc.win_cap_figures(rules, ante, 0, counts=counts)
        assert f.expected_net >= expected
        if ante == 250:  # below the binding ante: nothing changes
            assert f.expected_net == expected == -figs.house_edge * ante
        if ante == 1000:  # the cap makes 1x better than 3x for some big hands
            assert f.expected_net > expected and f.decisions["play 1x"] > figs.decisions["play_1x"]


def test_issue23_5_the_return_falls_with_the_ante_and_the_aces_up_bet(counts):
    rules = get_rules("online")
    rtp = [wc.win_cap_figures(rules, a, 0, counts=counts).return_to_player for a in (100, 290, 400, 700, 1000)]
    assert rtp == sorted(rtp, reverse=True) and rtp[0] > rtp[-1]
    top = wc.win_cap_figures(rules, 1000, 1000, counts=counts)
    assert top.return_to_player < wc.win_cap_figures(rules, 1000, 0, counts=counts).return_to_player
    assert 0 < top.hits_cap < 1 and sum(top.decisions.values()) == 1


def test_issue23_5_live_any_amount_may_bet_the_kink(counts):
    """Live play bets are any amount from 1x to 3x: under a cap the best one can lie between (where the
    winning lines reach the cap); the option set then holds that amount and the figures stay exact."""
    rules = get_rules("live")
    f = wc.win_cap_figures(rules, 300, 0, cap=8400, counts=counts)
    assert f.decisions["play 2x"] > 0  # four of a kind: 300 + 600 + 25 x 300 = 8,400, just the cap
    assert wc.win_cap_figures(rules, 173, 0, cap=5000, counts=counts).decisions["play 502"] > 0  # 173 + 502 + 4,325
    online = wc.win_cap_figures(replace(get_rules("online"), aces_up=rules.aces_up), 300, 0, counts=counts)
    assert f.expected_net >= online.expected_net  # more options, never worse


def test_issue23_5_cli_json_and_bad_input(counts, capsys):
    def run(*argv):
        return cli_run.run(capsys, *argv)

    code, out, err = run("poker", "win-cap", "--ante", "289", "--ante", "290", "--aces-up-bet", "0", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["cap"] == 8400 and d["scenarios"][0]["binding_ante"] == 290
    rows = d["scenarios"][0]["rows"]
    assert rows[0]["cost"] == 0 and rows[1]["cost"] > 0
    assert d["maximum_bets"]["ante"] == 1000 and d["maximum_bets"]["aces_up"] == 1000
    code, out, _ = run("poker", "win-cap")
    words = " ".join(out.split())  # the console wraps long titles
    assert code == 0 and "binds from an ante of 290" in words and "binds from an ante of 107" in words
    for argv, match in ((["--rules", "live"], "no win cap"), (["--ante", "5000"], "table's limits"),
                        (["--aces-up-bet", "lots"], "chips or 'ante'")):
        code, out, err = run("poker", "win-cap", *argv)
        assert code == 2 and err.startswith("error: ") and match in err and len(err.splitlines()) == 1
    with pytest.raises(RulesError):
        wc.binding_ante(get_rules("live"))


@given(st.lists(st.tuples(st.integers(-40, 40), st.integers(-400, 400)), min_size=1, max_size=5),
       st.integers(1, 60))
def test_win_cap_best_option_intervals_are_the_first_maximum_of_each_le(lines, n):
    """The win cap's options are lines in ``le`` (chips x n): the interval given to each option is
    exactly where it is the first maximum (the smaller wager on a tie), checked at every ``le``."""
    spans = [wc._interval(j, lines, n) for j in range(len(lines))]
    for x in range(n + 1):
        evs = [a * x + b for a, b in lines]
        best = evs.index(max(evs))
        assert [j for j, (lo, hi) in enumerate(spans) if lo <= x <= hi] == [best]


def test_win_cap_class_sums_cached_next_to_the_counts_and_tied_to_them(counts):
    """The win cap's summary of the counts is written next to the counts (so a warm ``poker analyze
    --rules online`` reads it instead of summing 6 million entries); a file that does not belong to
    these counts is recomputed, never used."""
    import numpy as np

    from fourcards.poker.exact import cache as disk

    fresh = wc._compute_class_sums(counts)
    wc.class_sums(counts)
    path = disk._class_sums_file(an.cache_dir())
    assert np.array_equal(disk.read_class_sums(path), fresh)
    sums = wc.class_sums(counts)
    assert sums.offsets[-1] == len(sums.le) and int(sums.cum_weight[-1]) == int(counts.weight.sum())
    stale = fresh.copy()
    stale[0] += 1  # another counts file's checksum
    disk.write_class_sums(path, stale)
    wc._SUMS.clear()
    assert np.array_equal(wc.class_sums(counts).le, sums.le) and np.array_equal(disk.read_class_sums(path), fresh)
    disk.write_class_sums(path, fresh[:100])  # a truncated file
    wc._SUMS.clear()
    assert np.array_equal(wc.class_sums(counts).cum_weight_le, sums.cum_weight_le)


def test_win_cap_on_the_par_sheet_equals_the_figures_computed_alone(counts):
    rules = get_rules("online")
    sheet = an.par_sheet(rules, counts=counts)
    wc._PER_UNIT.clear()
    alone = wc.win_cap_figures(rules, rules.max_ante, rules.max_aces_up, counts=counts)
    assert sheet.win_cap is not None and sheet.win_cap.maximum_bets == alone
