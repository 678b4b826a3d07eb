"""Train the learned Four of a Kind bot on the batched environment, then measure it against ``pots``.

The bot is a table of action classes by cells of position features
(:mod:`fourcards.rl.kind_learn`), learned by Monte Carlo policy iteration against
``pots``-like seats in :class:`fourcards.rl.kind_vector.KindVectorEnv` (numba), starting from
``pots``'s own decisions. The table is written as a ``.npy`` file (what
:class:`fourcards.rl.bots.LearnedKindBot` plays; the package ships it) and measured over
duplicate deals in the batched environment. The engine-level evaluation against the real
``pots`` bot, with its 95% interval, is ``benchmarks/kind_bot_match.py``.

Usage (numpy and numba only; no extra needed):

    python examples/train_kind_bot.py [--iterations 12] [--deals 32] [--envs 4096] [--seed 0]
                                      [--out src/fourcards/rl/data/kind_learned.npy]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fourcards.rl import kind_learn as kl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=12)
    parser.add_argument("--deals", type=int, default=32, help="deals per environment per iteration")
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--z", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--out", default="kind_learned.npy")
    parser.add_argument("--start", default=None, help="a table to start from (.npy); default: pots's decisions")
    args = parser.parse_args()

    t0 = time.perf_counter()
    start = np.load(args.start) if args.start else None
    result = kl.train(tuple(args.players), args.iterations, args.deals, args.envs, explore=args.explore, z=args.z,
                      seed=args.seed, table=start,
                      progress=lambda e: print(f"iteration {e['iteration']:2d} ({e['players']} seats): "
                                               f"{e['decisions']:,} learner decisions, {e['switched']} cells "
                                               f"switched, {time.perf_counter() - t0:.0f} s", flush=True))
    np.save(args.out, result.table)
    changed = int((result.table != kl.pots_table()).sum())
    print(f"table written to {args.out}: {changed} of {kl.N_CELLS} cells differ from pots's decisions")
    for n in args.players:
        r = kl.duplicate_match(result.table, n, 16, envs=8192, seed=10_000 + n)
        print(f"  {n} seats, {r['deals']:,} duplicate deals against pots-like seats: {r['mean']:+.3f} chips per "
              f"deal per seat [{r['low']:+.3f}, {r['high']:+.3f}]")
    print(f"{time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
