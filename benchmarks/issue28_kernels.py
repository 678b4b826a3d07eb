"""Issue 28 item 6: the compiled kernels' speed, old against new in one run (one compiled ranking).

    .venv/bin/python benchmarks/issue28_kernels.py --old-src OLD/src [--rounds 3] [--json out.json]

``--old-src`` is the ``src`` folder of the code to compare with, with its own compiled kernels
(``fourcards/_aot*.so``); this checkout's ``src`` (with its rebuilt ``_aot``) is the new one. Each
round runs one child process per version, alternating, so that the machine's load hits both
alike; a child warms every kernel (the JIT-only ones from a numba cache of its own version) and
times each job best of three, in CPU seconds of the process (the steadier figure on a shared
machine; for the parallel JIT kernels it sums both threads). The table gives the median over the
rounds of each version's best.

The jobs are the calls of ``bench_hands.py`` (``best4_of5``/``best4_of6``), ``bench_sim.py``
(``simulate_poker``, one worker) and ``bench_analysis.py`` (the dealer counts from nothing, one
thread; ``decide``), and the kernels of game protection and the side bets.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, math, sys, time
import numpy as np
from fourcards import hands, native
from fourcards.hands import BINOM, CATEGORY_OF_DENSE, DENSE_RANK_4, N_VALUES
from fourcards.poker import analysis as an
from fourcards.poker import strategy as st
from fourcards.poker.rules import get_rules
from fourcards.sim import tables as T
from fourcards.sim.poker import load_sim_strategy, simulate_poker

assert native.aot_module() is not None, "build the compiled kernels first (setup.py build_ext --inplace)"
out = {}

def timed(name, fn, n=3):
    fn()  # warm: compiled or loaded, caches filled
    best = math.inf
    for _ in range(n):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    out[name] = best

h5 = hands.all_hands(5)
rng = np.random.default_rng(0)
h6 = np.argpartition(rng.random((1_000_000, 52)), 6, axis=1)[:, :6].astype(np.uint8)
timed("hands.best4_of5, all 2,598,960 five-card hands (JIT, parallel)", lambda: hands.best4_of5(h5))
timed("hands.best4_of6, 1,000,000 six-card hands (JIT, parallel)", lambda: hands.best4_of6(h6))

strat = load_sim_strategy("optimal", get_rules("live"))
timed("simulate_poker, 4,000,000 rounds, optimal strategy, 1 worker (sim_chunk)",
      lambda: simulate_poker(4_000_000, strategy=strat, seed=2))
ks = native.load("fourcards.sim.kernels", "sim")
cards = np.empty((1_000_000, 11), np.uint8)
ks.deal_chunk(np.array([1, 2, 3, 4], np.uint64), 1_000_000, cards)
ranks = np.empty((1_000_000, 2), np.int64)
timed("eval_rounds, 1,000,000 deals (player and dealer values)", lambda: ks.eval_rounds(cards, *T.tables(), ranks))

t = an.base_tables()
kp = native.load("fourcards.poker.kernels", "poker")
r5 = np.empty(t.combos.shape[0], np.uint16)
rep = np.empty(t.combos.shape[0], np.int32)
size = np.empty(t.combos.shape[0], np.uint8)
timed("best5_all, 2,598,960 hands (base tables)", lambda: kp.best5_all(t.combos, DENSE_RANK_4, BINOM, r5))
timed("orbits, 2,598,960 hands (base tables)", lambda: kp.orbits(t.combos, BINOM, rep, size))
timed("exact dealer counts from nothing, 1 thread (13 x sweep_up_rank)",
      lambda: an.exact_counts(use_cache=False, workers=1), n=2)
hands20 = [("As Ad 7c 5h 2d", "Kc"), ("9h 9d 9s Kc 3d", "Qd"), ("2c 3d 4h 5s 7c", "Ac"), ("Th Jh Qh Kh 2c", "3d")]
timed("count_hand x 4 (count_one: every dealer completion)", lambda: [an.count_hand(c, u) for c, u in hands20])
table = st.decision_table("live", "simple")
deals = np.argpartition(rng.random((1_000_000, 52), dtype=np.float32), 6, axis=1)[:, :6].astype(np.uint8)
timed("strategy.decide, 1,000,000 hands (JIT, parallel)", lambda: st.decide(deals[:, :5], deals[:, 5], table))

from fourcards.poker.exact import protect as pr
rules = get_rules("live")
counts = an.exact_counts()
lists = pr._player_lists()
kk = pr._kernels()
bonus = pr.bonus_pays(rules).astype(np.int64)
dec = pr._decision_rows(rules, counts)

def hole_cards():
    for ur, hr, suit in ((0, 5, 1), (12, 12, 1), (7, 3, 0), (11, 0, 1)):
        packed, weight, start = lists["clubs" if suit == 0 else "diamonds"]
        o = np.zeros(12, dtype=np.int64)
        kk.hole_card_class(4 * ur, 4 * hr + suit, packed, weight, start, DENSE_RANK_4, BINOM, bonus,
                           np.ascontiguousarray(dec[ur]), 1, 3, o, np.empty(0, dtype=np.uint8))

timed("hole_card_class x 4 (up card, flashed hole card) pairs", hole_cards)
timed("count_known x 20 (a hand against the up card and one hole card)",
      lambda: [pr.hand_with_cards("As Ad 7c 5h 2d", "Kc", holes=h) for h in
               ("2c 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5s 6c 6d 6h 6s 7d 7h").split()])
from fourcards.poker.exact import side_bets as sb
kb = sb._kernels()
cat5 = np.ascontiguousarray(CATEGORY_OF_DENSE[t.rank5], dtype=np.uint8)
cat = np.ascontiguousarray(CATEGORY_OF_DENSE, dtype=np.uint8)

def six_sweep():
    kb.dealer_six_sweep(5, 40, DENSE_RANK_4, cat, BINOM, cat5, np.zeros((math.comb(52, 4), 8), np.int32),
                        np.zeros((8, 8), np.int64), np.zeros(N_VALUES, np.int64))

timed("dealer_six_sweep, the 3,838,380 six-card hands below card 40", six_sweep)
print(json.dumps(out))
"""


def child(src: Path, numba_cache: Path, cache: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(numba_cache), FOURCARDS_CACHE_DIR=str(cache),
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("FOURCARDS_JIT", None)
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-src", type=Path, required=True)
    ap.add_argument("--new-src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path)
    opts = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="fourcards-bench28-"))
    versions = {"old": opts.old_src, "new": opts.new_src}
    runs: dict[str, list[dict[str, float]]] = {v: [] for v in versions}
    load0 = os.getloadavg()
    for r in range(opts.rounds):
        for v, src in versions.items():
            t0 = time.perf_counter()
            runs[v].append(child(src, tmp / f"numba-{v}", tmp / "cache"))
            print(f"  round {r + 1}, {v}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    load1 = os.getloadavg()
    print(f"\n{time.strftime('%Y-%m-%d %H:%M')}; {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} "
          f"{platform.release()}; Python {platform.python_version()}; load average {load0[0]:.1f} before, "
          f"{load1[0]:.1f} after; {opts.rounds} rounds\n")
    print("| kernel job | old (CPU s) | new (CPU s) | new / old |")
    print("|---|---|---|---|")
    table = {}
    for name in runs["old"][0]:
        old = statistics.median(run[name] for run in runs["old"])
        new = statistics.median(run[name] for run in runs["new"])
        table[name] = {"old": old, "new": new}
        print(f"| {name} | {old:.4f} | {new:.4f} | {new / old:.2f} |")
    if opts.json:
        opts.json.write_text(json.dumps({"runs": runs, "median": table}, indent=2))


if __name__ == "__main__":
    main()
