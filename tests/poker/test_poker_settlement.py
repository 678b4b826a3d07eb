"""One settlement core and one place for the legal play amounts (issue 10 item 2).

Test names cite the clause: ``opr803_*`` is seed 002 (OPR-803), ``seed004_*`` the
online rules page, ``design_*`` a ruling in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from fourcards.cards import Card, parse_cards
from fourcards.hands import best_hand
from fourcards.poker import analysis as an
from fourcards.poker.exact import strategy as st
from fourcards.poker.round import Deal, PokerRound, settle_hand
from fourcards.poker.rules import PRESETS, PokerRules
from fourcards.poker.settlement import settle

LIVE, ONLINE = PRESETS["live"], PRESETS["online"]
FIXED_1_2 = PokerRules(name="fixed-1-2", play_any_amount=False, play_multiples=(1, 2))
ANY_2_3 = PokerRules(name="any-2-3", min_play_multiple=2, play_multiples=(2, 3))

# (rules, legal play multiples on an ante of 1, any whole amount between the bounds?)
PLAY_RULES = [(LIVE, (1, 2, 3), True), (ONLINE, (1, 3), False), (FIXED_1_2, (1, 2), False),
              (ANY_2_3, (2, 3), True)]


def _expected_amounts(multiples: tuple[int, ...], any_amount: bool, ante: int) -> list[int]:
    if any_amount:
        return list(range(multiples[0] * ante, multiples[-1] * ante + 1))
    return [m * ante for m in multiples]


def _round_in_decisions(rules: PokerRules, ante: int) -> PokerRound:
    r = PokerRound(rules, 1)
    r.place_wagers(0, ante)
    r.apply(Deal.of({0: "9h 9d 9s Kc 3d"}, "Qd Qs 8c 8h 4s 2d", "Qd"))
    return r


# ----------------------------------------------------------- legal play amounts


@pytest.mark.parametrize("rules,multiples,any_amount", PLAY_RULES, ids=lambda x: getattr(x, "name", None))
@pytest.mark.parametrize("ante", [1, 5, 10])
def test_opr803_3_1_b_and_seed004_legal_play_amounts_agree_everywhere(rules, multiples, any_amount, ante):
    expected = _expected_amounts(multiples, any_amount, ante)
    # the round: legal actions and its checks
    rnd = _round_in_decisions(rules, ante)
    assert list(rnd.play_amounts(0)) == expected
    (play,) = [a for a in rnd.legal_actions() if a.kind == "play"]
    assert (play.min_amount, play.max_amount) == (expected[0], expected[-1])
    assert play.amounts == (None if any_amount else tuple(expected))
    for amount in range(0, 4 * ante + 2):
        assert rules.play_amount_allowed(ante, amount) == (amount in expected), amount
    # the analysis and the strategies choose among the multiples
    assert rules.decision_multiples == multiples
    assert an.options(rules) == (0, *multiples)
    assert st._allowed(rules, 2) in multiples and st._allowed(rules, 0) == 0


@pytest.mark.parametrize("rules,multiples,any_amount", PLAY_RULES, ids=lambda x: getattr(x, "name", None))
def test_design_web_bots_play_the_published_strategies_within_the_legal_play_amounts(rules, multiples, any_amount):
    """The web's bots play poker/strategy.py's strategies (simple, optimal) and bet only what the
    round's ``play`` option allows and their chips afford."""
    from fourcards.table import players

    (play,) = [a for a in _round_in_decisions(rules, 10).legal_actions(0) if a.kind == "play"]
    for name in players.POKER_BOTS:
        strategy = st.get_strategy(name, rules)
        for cards in ("9h 9d 9s Kc 3d", "5h 5d Ks 8c 3d", "2h 2d Ks 8c 3d", "Kh Jd 9s 7c 3d"):
            for balance in (0, 10, 20, 30, 1000):
                got = players.poker_play(name, rules, parse_cards(cards), "Qc", 10, play, balance)
                assert got is None or (got in _expected_amounts(multiples, any_amount, 10) and got <= balance)
                wanted = strategy.decide(cards, "Qc")
                if balance == 1000:  # chips to spare: the strategy's own decision
                    assert got == (wanted * 10 if wanted else None)


# ------------------------------------------------------------ the settlement


def reference_lines(rules: PokerRules, player: str, dealer: str, ante: int, play: int | None,
                    aces_up: int) -> dict[str, int]:
    """Each wager's result written straight from the seeds (no win cap):
    seed 002 Articles 4-6, seed 004 "How To Play"."""
    p, _ = best_hand(parse_cards(player))
    d, _ = best_hand(parse_cards(dealer))
    lines = {"ante": 0, "play": 0, "ante_bonus": 0, "aces_up": 0}
    if ante and play is None:
        lines["ante"] = -ante
    elif ante:
        sign = 1 if p >= d else -1  # ties go to the player; the dealer always qualifies
        lines["ante"], lines["play"] = sign * ante, sign * play
        lines["ante_bonus"] = ante * rules.ante_bonus.pays(p)  # whatever the dealer holds
    if aces_up:
        pays = rules.aces_up.pays(p)  # the player's hand alone, fold or not
        lines["aces_up"] = -aces_up if pays is None else aces_up * pays
    return lines


@settings(max_examples=300, deadline=None)
@given(deck=hst.permutations(range(52)), ante=hst.integers(0, 1000), aces_up=hst.integers(0, 1000),
       choice=hst.sampled_from(["fold", 1, 2, 3]), live=hst.booleans())
def test_design_settle_hand_pays_each_wager_as_the_seeds_say(deck, ante, aces_up, choice, live):
    rules = LIVE if live else ONLINE
    if ante == 0 and aces_up == 0:
        ante = 1
    cards = [Card(i) for i in deck[:11]]
    player, dealer = " ".join(map(str, cards[:5])), " ".join(map(str, cards[5:]))
    multiple = choice if choice == "fold" or choice in rules.decision_multiples else 3
    play = None if multiple == "fold" else multiple * ante
    res = settle_hand(rules, cards[:5], cards[5:], ante=ante, play=play, aces_up=aces_up)
    lines = reference_lines(rules, player, dealer, ante, play, aces_up)
    assert res.wagers == lines
    assert res.net == sum(lines.values()) + res.win_cap_adjustment
    assert res.win_cap_adjustment <= 0
    if rules.win_cap is None or sum(v for v in lines.values() if v > 0) <= rules.win_cap:
        assert res.win_cap_adjustment == 0


# ------------------------------------------- one core: round, simulator, analysis


@pytest.mark.parametrize("preset,ante,aces_up", [("live", 5, 2), ("online", 200, 100), ("online", 1, 0)])
def test_design_simulator_net_table_is_the_settlement_of_every_hand(preset, ante, aces_up):
    from fourcards.hands import N_VALUES, dense_to_value
    from fourcards.sim.poker import net_table
    from fourcards.sim.tables import PCLASS_OF_DENSE

    rules = PRESETS[preset]
    nets = net_table(rules, ante, aces_up)
    best = dense_to_value(N_VALUES - 1)
    for r in range(N_VALUES):
        player, pc = dense_to_value(r), int(PCLASS_OF_DENSE[r])
        for m in range(4):
            play = m * ante if m else None
            assert settle(rules, player, player, ante=ante, play=play, aces_up=aces_up).net == nets[m, 1, pc]
            if r < N_VALUES - 1:
                assert settle(rules, player, best, ante=ante, play=play, aces_up=aces_up).net == nets[m, 0, pc]


@pytest.mark.parametrize("preset,strategy", [("live", "optimal"), ("online", "simple"),
                                             ("live", "chart")])
def test_design_simulator_net_table_reproduces_the_exact_house_edge(counts, preset, strategy):
    from fourcards.sim.poker import net_table

    rules = PRESETS[preset]
    figs = an.analyze(rules, strategy, counts=counts)
    nets = net_table(rules)  # ante 1, no Aces Up: a net depends on the ante bonus group only
    pclass = {"no ante bonus": 0, "three of a kind": 6, "straight flush": 7, "four of a kind": 8}
    multiple = {"fold": 0, "play_1x": 1, "play_2x": 2, "play_3x": 3}
    ev = sum((row.probability * int(nets[multiple[row.option], int(row.result != "lose"),
                                         pclass.get(row.hand, 0)]) for row in figs.outcomes), Fraction(0))
    assert ev == figs.expected_value == -figs.house_edge


@pytest.mark.parametrize("cards,up", [("As Ad 7c 5h 2d", "Kc"), ("9h 9d 9s Kc 3d", "Qd"),
                                      ("2c 2d 2h 2s 7c", "Ah"), ("5h 6h 7h 8h Kd", "8s"),
                                      ("Kd Jh 6s 3c 2h", "Ac")])
@pytest.mark.parametrize("preset", ["live", "online"])
def test_design_hand_ev_is_the_settlement_weighted_by_the_exact_counts(counts, cards, up, preset):
    rules = PRESETS[preset]
    h = an.hand_ev(cards, up, rules, counts=counts)
    value, _ = best_hand(parse_cards(cards))
    n = an.N_DEALER_HANDS
    opts, ev = an.ev_numerators(counts, rules)  # the vectorised form the optimal strategy uses
    ur, o = an.locate(cards, up)
    for i, k in enumerate(opts):
        bonus = rules.ante_bonus.pays(value)
        closed_form = Fraction(-1) if k == 0 else (1 + k) * Fraction(2 * h.le - n, n) + bonus
        assert h.ev[an.option_name(k)] == closed_form == Fraction(int(ev[i, ur, o]), n)


# ------------------------------------------------------------------ the win cap

CAP_EXAMPLE = {"player": "5c 5d 5h 5s 2c", "dealer": "9c 9d 9h 9s Kd 3c", "up": "Kd"}


def test_seed004_win_cap_caps_the_sum_of_wins_losing_wagers_lost_in_full():
    # docs/rules.md FCP-7 worked example: ante -200, play -600, ante bonus +5,000, Aces Up +5,000;
    # wins 10,000 capped at 8,400; the losses are not netted first: net +7,600
    r = PokerRound(ONLINE, 1)
    r.place_wagers(0, 200, 100)
    r.apply(Deal.of({0: CAP_EXAMPLE["player"]}, CAP_EXAMPLE["dealer"], CAP_EXAMPLE["up"]))
    r.play(0, 600)
    res = r.results[0]
    assert res.wagers == {"ante": -200, "play": -600, "ante_bonus": 5_000, "aces_up": 5_000}
    assert res.net == 7_600 and r.returns() == (7_600,) and r.house_net == -7_600
    assert res.win_cap_adjustment == 8_400 - 10_000
    assert res.settlement.wins == 10_000


def test_seed004_win_cap_ante_bonus_is_a_win_of_its_own_when_the_ante_loses():
    # the ante bonus is paid whatever the dealer holds: it counts among the wins even
    # when the ante and play bet lose, and is capped alone when it exceeds the cap
    rules = replace(ONLINE, win_cap=1_000)
    quads, dealer = best_hand(parse_cards("5c 5d 5h 5s 2c"))[0], best_hand(parse_cards("9c 9d 9h 9s Kd 3c"))[0]
    res = settle(rules, quads, dealer, ante=100, play=300)
    assert res.wagers == {"ante": -100, "play": -300, "ante_bonus": 2_500, "aces_up": 0}
    assert (res.net, res.win_cap_adjustment) == (1_000 - 400, -1_500)
    assert res.wins == 2_500


def test_seed004_win_cap_in_the_simulator_caps_wins_not_the_net():
    from fourcards.sim.poker import net_table, settle_rounds

    assert net_table(ONLINE, ante=200, aces_up=100)[3, 0, 8] == 7_600  # play 3x, lose, four of a kind
    cards = np.array([[c.index for c in parse_cards(CAP_EXAMPLE["player"] + " " + CAP_EXAMPLE["dealer"])]],
                     dtype=np.uint8)
    got = settle_rounds(ONLINE, cards, np.array([3], dtype=np.uint8), ante=200, aces_up=100)
    assert got.tolist() == [7_600]


@settings(max_examples=300, deadline=None)
@given(deck=hst.permutations(range(52)), ante=hst.integers(0, 1000), aces_up=hst.integers(0, 1000),
       choice=hst.sampled_from(["fold", 1, 2, 3]), cap=hst.one_of(hst.none(), hst.integers(1, 20_000)))
def test_seed004_win_cap_property_wins_capped_losses_in_full(deck, ante, aces_up, choice, cap):
    rules = replace(LIVE, win_cap=cap)
    cards = [Card(i) for i in deck[:11]]
    player, dealer = best_hand(cards[:5])[0], best_hand(cards[5:])[0]
    res = settle(rules, player, dealer, ante=ante, play=None if choice == "fold" else choice * ante,
                 aces_up=aces_up)
    wins = sum(v for v in res.wagers.values() if v > 0)
    losses = -sum(v for v in res.wagers.values() if v < 0)
    assert res.net == (wins if cap is None else min(wins, cap)) - losses
    assert res.win_cap_adjustment == (0 if cap is None else min(0, cap - wins))
    assert res.wins == wins
