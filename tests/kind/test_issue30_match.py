"""Issue 30, item 3: ``fourcards kind match`` and ``fourcards poker match`` - duplicate deals (every seat rotation
of the same cards), chips per deal with 95% intervals, a rating table (openskill), ``--json``."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from fourcards.cli import main
from fourcards.kind.bots import PotsBot, play_deal
from fourcards.kind.rules import KindRules
from fourcards.rl.bots import LearnedKindBot
from fourcards.sim.match import _kind_deals, _KindJob, kind_match, lineup_rotations, poker_match


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as e:
        main(args)
    out = capsys.readouterr()
    return int(e.value.code or 0), out.out, out.err


def test_issue30_3_kind_match_plays_the_docs_duplicate_deals_learned_against_pots() -> None:
    """docs/rl.md's figure (learned +5.641 [+4.997, +6.285] chips per deal per seat, 5,000 deals, seed 2026):
    every deal of `kind match learned pots --players 4 --seed 2026` is the benchmark's pair of plays - the
    same cards (random.Random(seed * 1_000_003 + deal)), learned in the even seats then the odd ones."""
    rules, stacks, seed = KindRules(), [200] * 4, 2026
    job = _KindJob(("learned", "pots"), rules, tuple(stacks), seed)
    totals = _kind_deals(job, 0, 12)
    learned, pots = LearnedKindBot(), PotsBot()
    for j in range(12):
        total = 0
        for even in (True, False):  # benchmarks/kind_bot_match.py, deal by deal
            bots = [learned if (s % 2 == 0) == even else pots for s in range(4)]
            game = play_deal(rules, bots, stacks, random.Random(seed * 1_000_003 + j), j % 4)
            total += sum(r for s, r in enumerate(game.returns()) if (s % 2 == 0) == even)
        assert totals[j, 0] == total and totals[j, 1] == -total
    result = kind_match(["learned", "pots"], 12, players=4, seed=seed)
    assert result.rotations == 2 and result.bots[0].summary.mean == pytest.approx(totals[:, 0].sum() / 4 / 12)


def test_issue30_3_every_rotation_seats_each_bot_in_each_seat_equally() -> None:
    assert lineup_rotations(2, 4) == [0, 1]
    assert lineup_rotations(3, 4) == [0, 1, 2, 3]  # lineup a b c a: all four rotations differ
    for k, n in ((3, 4), (3, 6), (4, 8), (2, 5)):
        seats = np.zeros((k, n), dtype=int)
        for r in lineup_rotations(k, n):
            for s in range(n):
                seats[((s + r) % n) % k, s] += 1
        assert (seats == seats[:, :1]).all()  # every bot the same number of times in every seat


def test_issue30_3_kind_match_cli_gives_chips_intervals_and_ratings_as_json(capsys) -> None:
    code, out, err = _cli(["kind", "match", "learned", "pots", "random", "--deals", "12", "--players", "4",
                           "--seed", "7", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["game"] == "kind" and d["deals"] == 12 and d["rotations"] == 4 and d["seed"] == 7
    assert [b["bot"] for b in d["bots"]] == ["learned", "pots", "random"]
    for b in d["bots"]:
        lo, hi = b["ci95"]
        assert lo <= b["mean_per_deal"] <= hi and b["deals"] == 12
    assert d["bots"][0]["vs_first"] is None
    for b in d["bots"][1:]:  # the duplicate comparison: each bot's figure minus the first's, deal by deal
        assert b["vs_first"]["mean"] == pytest.approx(b["mean_per_deal"] - d["bots"][0]["mean_per_deal"])
    seats = {b["bot"]: b["seats"] for b in d["bots"]}
    assert seats == {"learned": 2, "pots": 1, "random": 1}
    assert sum(b["mean_per_deal"] * b["seats"] for b in d["bots"]) == pytest.approx(0)  # chips are conserved
    ranks = {r["bot"]: r for r in d["ratings"]}
    assert sorted(r["rank"] for r in d["ratings"]) == [1, 2, 3] and ranks["random"]["rank"] == 3
    assert all(r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"]) for r in d["ratings"])
    code, out, err = _cli(["kind", "match", "learned", "pots", "--deals", "4", "--seed", "7"], capsys)
    assert code == 0 and "ratings" in out and "Four of a Kind match - 4 duplicate deals x 2 seatings" in out


def test_issue30_3_poker_match_plays_every_bot_on_the_same_deals(capsys) -> None:
    code, out, err = _cli(["poker", "match", "optimal", "simple", "--deals", "20000", "--seed", "3", "--json"],
                          capsys)
    assert code == 0, err
    d = json.loads(out)
    optimal, simple = d["bots"]
    assert optimal["bot"] == "optimal" and -optimal["mean_per_deal"] == pytest.approx(0.028, abs=0.03)
    assert d["ratings"][0]["bot"] == "optimal"  # better on the deals where they differ
    lo, hi = simple["vs_first"]["ci95"]  # exact: 3.3971% - 2.7879% = 0.0061 antes a deal worse
    assert lo < -0.0061 < hi and hi - lo < (simple["ci95"][1] - simple["ci95"][0]) / 3  # the same cards cancel
    again = poker_match(["optimal", "simple"], 20000, seed=3)
    assert again.bots[0].summary.mean == optimal["mean_per_deal"]  # the same deals from the same seed


@pytest.mark.parametrize("args, message", [
    (["kind", "match", "pots", "--deals", "2"], "at least two bots"),
    (["kind", "match", "pots", "odds", "random", "cautious", "learned", "--players", "4"], "5 bots for 4 seats"),
    (["kind", "match", "pots", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["poker", "match", "optimal", "nosuchbot"], "unknown Four Card Poker bot"),
    (["kind", "match", "pots", "file:/no/such/agent.zip"], "cannot read the agent file"),
])
def test_issue30_3_match_refuses_bad_input_in_one_line(args: list[str], message: str, capsys) -> None:
    code, out, err = _cli(args, capsys)
    assert code == 2 and message in err and err.count("\n") == 1
