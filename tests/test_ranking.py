"""Issue 28 item 6: one compiled ranking (:mod:`fourcards.ranking`) - the best-four sorting networks
and colex look-ups every kernel inlines, so that a ranking change lands once."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards import native, ranking
from fourcards.hands import BINOM, DENSE_RANK_4, best4_of5, best4_of6

SRC = Path(ranking.__file__).resolve().parent
#: Every module of numba kernels that values hands.
KERNELS = ("hand_kernels.py", "sim/kernels.py", "poker/kernels.py", "poker/protect_kernels.py",
           "poker/side_bet_kernels.py")


def _compare_exchanges(tree: ast.AST) -> list[int]:
    """Lines of ``x, y = min(x, y), max(x, y)``: a sorting network's step."""
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2
                and all(isinstance(e, ast.Call) and isinstance(e.func, ast.Name) for e in node.value.elts)
                and [e.func.id for e in node.value.elts] == ["min", "max"]):  # type: ignore[attr-defined]
            out.append(node.lineno)
    return out


def test_issue28_6_every_kernel_sorts_and_ranks_with_the_one_compiled_ranking() -> None:
    """No kernel module writes its own sorting network or best-four look-up: each imports
    fourcards.ranking, and the compiled module's source hash covers it (a ranking change makes an
    older fourcards._aot stale)."""
    for rel in KERNELS:
        tree = ast.parse((SRC / rel).read_text())
        imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "fourcards"
                   for a in n.names}
        assert "ranking" in imports, rel
        assert _compare_exchanges(tree) == [], rel
    assert len(_compare_exchanges(ast.parse((SRC / "ranking.py").read_text()))) == 5 + 9 + 12
    assert "fourcards.ranking" in native._SOURCES


@settings(max_examples=60)
@given(st.permutations(range(52)))
def test_issue28_6_networks_and_look_ups_agree_with_sorting_and_the_hand_values(deck) -> None:
    six = [np.int64(c) for c in deck[:6]]
    assert list(ranking.sort4(*six[:4])) == sorted(six[:4])
    assert list(ranking.sort5(*six[:5])) == sorted(six[:5])
    s6 = list(ranking.sort6(*six))
    assert s6 == sorted(six)
    s5 = sorted(six[:5])
    assert ranking.colex5(*s5, BINOM) == sum(BINOM[c, i + 1] for i, c in enumerate(s5))
    assert ranking.best4_of5(*s5, DENSE_RANK_4, BINOM) == best4_of5(np.array([deck[:5]], np.uint8))[0]
    assert ranking.best4_of6(*s6, DENSE_RANK_4, BINOM) == best4_of6(np.array([deck[:6]], np.uint8))[0]
    fours = [ranking.colex4(*q, BINOM) for q in itertools.combinations(s6, 4)]
    assert sorted(ranking.fours_of6(*s6, BINOM)) == sorted(fours)
    assert ranking.rank4(*s6[:4], DENSE_RANK_4, BINOM) == DENSE_RANK_4[fours[0]]
    up = deck[6] & 3  # the up card's suit and clubs (0) swap; the rank stays
    swap = {up: 0, 0: up}
    assert ([ranking.clubs_frame(np.int64(c), np.int64(up)) for c in deck[:5]]
            == [(c & ~3) | swap.get(c & 3, c & 3) for c in deck[:5]])


def test_issue28_6_multiset_index_numbers_every_multiset_of_ranks_once() -> None:
    m = [np.array([BINOM[x + k - 1, k] for x in range(13)], dtype=np.int64) for k in range(1, 7)]
    five = {ranking.multiset5(*r, *m[:5]) for r in itertools.combinations_with_replacement(range(13), 5)}
    six = {ranking.multiset6(*r, *m) for r in itertools.combinations_with_replacement(range(13), 6)}
    assert five == set(range(6188)) and six == set(range(18564))
