"""Invariants over thousands of random deals with random legal actions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK
from fourcards.kind import Game, KindRules, Redeal, side_pots
from fourcards.kind.bots import RandomBot
from fourcards.kind.history import AwardChips, DealCard, ReturnCard, TurnCard

STACKS = [0, 3, 5, 6, 9, 12, 20, 35, 60, 200]


def check_table_invariants(game: Game, total: int) -> None:
    """What must hold at every step, chance steps and pauses between rounds included."""
    assert sum(game.stacks) + game.pot == total
    assert all(s >= 0 for s in game.stacks)
    obs = game.observation(game.actor)
    pots = sum(p.amount for p in game.side_pots())
    assert sum(p.amount for p in obs.pots) == pots and obs.pot == game.pot
    if obs.phase == "betting":
        # during a round: the pots hold the completed rounds, this round's bets are the stakes
        assert pots + sum(game.stakes) == game.pot
        assert pots + sum(v.stake for v in obs.seats) == obs.pot
    else:
        # no betting round open (dealing, turning, finished): the pots shown are the whole pot
        assert pots == game.pot
        assert not any(game.stakes) or game.is_terminal
    if game.actor is None:
        assert not game.legal_actions()
        return
    seat = game.actor
    others = [s for s in game.active_seats if s != seat]
    can_answer = any(game.stakes[s] + game.stacks[s] > game.level for s in others)
    wagers = [la for la in game.legal_actions() if la.kind.value in ("bet", "raise")]
    # ruling 8: never a bet or raise that no other player still in could answer
    assert not wagers or can_answer, (seat, game.legal_actions())
    # a round needs action only while the actor has a real choice
    assert game.to_call(seat) > 0 or any(game.stacks[s] > 0 for s in others)


def run_random_deal(seed: int, check_every_step: bool = True, fed: bool = False) -> Game:
    """A random deal with random legal actions. ``fed``: the game is given its cards one at
    a time through ``supply()`` (a scripted game), so every pause between rounds is checked."""
    r = random.Random(seed)
    n = r.randint(4, 13)
    rules = KindRules(ante=r.choice([0, 1, 5]), min_bet=r.choice([1, 5]), max_raises=r.choice([0, 1, 3]),
                      redeal=r.choice(list(Redeal)))
    rules = rules.with_(max_bet=rules.min_bet * r.choice([1, 2, 3]))
    while True:
        stacks = [r.choice(STACKS) for _ in range(n)]
        if sum(s >= rules.ante and s > 0 for s in stacks) >= 4:
            break
    deck_rng = random.Random(seed * 7 + 1)
    if fed:
        game = Game(rules, stacks, r.randrange(n), cards=[])
    else:
        game = Game(rules, stacks, r.randrange(n), rng=deck_rng)
    total = sum(stacks)
    bot = RandomBot()
    steps = cards_fed = 0
    while not game.is_terminal:
        if check_every_step:
            check_table_invariants(game, total)
        if game.actor is None:
            assert fed and game.pending_chance is not None
            cards_fed += 1
            assert cards_fed < 100_000, "the deal must end"
            seen = {c for cs in game.cards for c in cs} | set(game.discards)
            game.supply(deck_rng.choice([c for c in FULL_DECK if c not in seen]))
            continue
        steps += 1
        assert steps < 2000, "the deal must end"
        obs = game.observation(game.actor)
        legal = obs.legal_actions
        assert legal
        game.apply(bot.act(obs, legal, r))
    if check_every_step:
        check_table_invariants(game, total)
    return game


def check_finished(game: Game) -> None:
    assert sum(game.payoffs) == 0
    assert sum(game.stacks) == sum(game.initial_stacks)
    assert all(s >= 0 for s in game.stacks)
    # chips won equal chips put in, pot by pot
    assert sum(op.amount for op in game.history if isinstance(op, AwardChips)) == sum(game.contributed)
    # every card dealt at most once (a returned duplicate may come back)
    out: set = set()
    for op in game.history:
        if isinstance(op, (DealCard, TurnCard)):
            assert op.card not in out, f"{op.card} dealt twice"
            out.add(op.card)
        elif isinstance(op, ReturnCard):
            out.remove(op.card)
    held = [c for cs in game.cards for c in cs]
    assert len(held) + len(game.discards) == len(out) == len(set(held) | set(game.discards))
    live = [s for s in range(game.n_seats) if game.live[s]]
    if game.finish_reason == "four":
        fours = [s for s in live if len(game.cards[s]) == 4]
        assert len(fours) == 1
        ranks = [game.cards[s][0].rank for s in range(game.n_seats) if game.in_deal[s]]
        assert len(set(ranks)) == len(ranks)
    else:
        assert len(live) == 1
    # payoffs never exceed what the others lost; a seat that sat out is untouched
    for s in range(game.n_seats):
        if not game.in_deal[s]:
            assert game.payoffs[s] == 0


def test_thousands_of_random_deals_conserve_chips_and_end():
    reasons = set()
    for seed in range(2000):
        game = run_random_deal(seed, check_every_step=seed < 300, fed=seed % 2 == 1)
        check_finished(game)
        reasons.add(game.finish_reason)
        if seed % 50 == 0:
            assert Game.from_history(game.history).history == game.history
    assert reasons == {"four", "last_player"}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_random_deal_invariants_hypothesis(seed, fed):
    """Chips conserved, pots add up (issue 9.2) and no unanswerable bet or raise (issue 9.1),
    at every step of random deals, dealt from a shuffled deck or fed card by card."""
    game = run_random_deal(seed, fed=fed)
    check_finished(game)
    again = Game.from_history(game.history)
    assert again.payoffs == game.payoffs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), min_size=2, max_size=8), st.data())
def test_side_pots_sum_to_the_pot(contributed, data):
    live = data.draw(st.lists(st.booleans(), min_size=len(contributed), max_size=len(contributed)))
    if not any(lv and c > 0 for lv, c in zip(live, contributed)):
        live[max(range(len(contributed)), key=lambda i: contributed[i])] = True
    if sum(contributed) == 0:
        assert side_pots(contributed, live) == []
        return
    pots = side_pots(contributed, live)
    assert sum(p.amount for p in pots) == sum(contributed)
    for p in pots:
        assert p.eligible and all(live[s] for s in p.eligible)
    # eligibility shrinks as the levels rise
    for a, b in zip(pots, pots[1:]):
        assert set(b.eligible) < set(a.eligible)
