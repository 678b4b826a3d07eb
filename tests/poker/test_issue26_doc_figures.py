"""Issue 26 item 9: the figures docs/analysis.md quotes are the kernel's, read from the page and
recomputed here - the par sheet's table (every wager's return, hit frequency, SD and volatility
indexes, as ``poker analyze`` prints them) and the game-protection sentence (a 5 up with a 5
flashed; the flashed card's worth by rank)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fourcards.poker import analysis as an
from fourcards.poker.exact import protect as pr
from fourcards.poker.exact.returns import VOLATILITY_CONFIDENCES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text()

#: The par sheet table's rows in docs/analysis.md -> (rules, wager key).
ROWS = {"base game": ("live", "game"), "ante and play": ("live", "ante_play"), "ante bonus": ("live", "ante_bonus"),
        "Aces Up 50/40/8/5/4/3/1 (`live`)": ("live", "aces_up"),
        "Aces Up 50/30/7/6/5/2/1 (`online`)": ("online", "aces_up")}


def _doc_row(label: str) -> list[str]:
    line = next(x for x in DOC.splitlines() if x.startswith(f"| {label} |"))
    return [c.strip() for c in line.strip("|").split("|")][1:]


def _pct(x: float) -> str:
    return f"{x * 100:+.4f} %".replace("+-", "-")


@pytest.mark.parametrize("label", list(ROWS))
def test_issue26_9_par_sheet_table_in_the_docs_is_the_kernels(label: str) -> None:
    """Each figure of the row is the kernel's at the precision the page prints: the Aces Up VI at
    95 % is 4.9278 (z = 1.959964 x SD 2.5142479), not 4.9279."""
    rules, key = ROWS[label]
    w = an.par_sheet(rules).wagers[key]
    want = [_pct(float(w.expected_value)), _pct(-float(w.element_of_risk)), f"{float(w.hit_frequency):.6f}",
            f"{w.standard_deviation:.6f}", *(f"{w.volatility_index(c):.4f}" for c in VOLATILITY_CONFIDENCES)]
    assert _doc_row(label) == want


def test_issue26_9_a_five_up_with_a_five_flashed_gains_what_the_kernel_says(counts) -> None:
    """docs/analysis.md: "a 5 up with a 5 flashed: +10.56 %" (it said +17 %): the exact gain of that
    (up card, hole card) pair from the hole-card sweep's kernel."""
    said = re.findall(r"a 5 up with a 5 flashed: \+([0-9.]+) %", DOC)
    assert said, "the sentence is gone from docs/analysis.md"
    gain = pr.hole_card_gain("5c", "5d", "live", counts=counts)
    assert f"{float(gain) * 100:.2f}" == "10.56"
    assert set(said) == {"10.56"}, said  # every place the docs say it


def test_issue26_9_flashed_card_worth_by_rank_in_the_docs_is_the_kernels(counts) -> None:
    """The ace's, the king's and the 4's worth quoted beside it are the sweep's, and they are the
    most, the next and the least."""
    by_rank = pr.hole_card_exact("live", counts=counts).gain_by_hole_rank
    quoted = dict(re.findall(r"an? (ace|king|4) \(\+([0-9.]+) %\)", DOC))
    assert quoted == {name: f"{float(by_rank[r]) * 100:.2f}" for name, r in (("ace", "A"), ("king", "K"), ("4", "4"))}
    order = sorted(by_rank, key=lambda r: by_rank[r])
    assert (order[-1], order[-2], order[0]) == ("A", "K", "4")
