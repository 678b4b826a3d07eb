"""Learning meets exact maths: a tabular learner on Four Card Poker, scored exactly.

A learner plays millions of rounds of ``fourcards.rl.PokerVectorEnv`` (one round an
episode, actions fold / play 1x / 2x / 3x), learns one decision per hand class and
dealer up rank, and writes its chart as CSV. The chart is then scored without
sampling error by the exact analysis - the same figures as

    fourcards poker analyze --strategy learned.csv

Usage (needs the 'rl' extra: pip install 'fourcards[rl]'):

    python examples/learn_poker_chart.py [--rules live] [--episodes 8388608] [--seed 0] [--csv learned.csv]
"""

from __future__ import annotations

import argparse
import time

from fourcards.poker import analysis as an
from fourcards.rl import PokerVectorEnv, train_chart


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="live", help="rules preset: live or online")
    parser.add_argument("--episodes", type=int, default=1 << 23, help="rounds to learn from")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--csv", default="learned.csv", help="where to write the learned chart")
    args = parser.parse_args()

    env = PokerVectorEnv(1 << 18, args.rules)
    t0 = time.perf_counter()
    learner = train_chart(env, args.episodes, seed=args.seed)
    seconds = time.perf_counter() - t0
    chart = learner.chart(f"learned ({args.episodes:,} rounds)")
    with open(args.csv, "w", encoding="utf-8") as f:
        f.write(chart.to_csv())

    learned = an.analyze(env.rules, chart)
    optimal = an.analyze(env.rules)
    best_chart = an.analyze(env.rules, "chart")
    print(f"trained on {args.episodes:,} rounds in {seconds:.1f} s; chart written to {args.csv}")
    print(f"  optimal strategy     house edge {float(optimal.house_edge):.4%} of the ante")
    print(f"  best chart (exact)   house edge {float(best_chart.house_edge):.4%}")
    print(f"  learned chart        house edge {float(learned.house_edge):.4%}  "
          f"({float(learned.house_edge - optimal.house_edge):+.4%} against optimal)")
    print(f"score it again with: fourcards poker analyze --rules {args.rules} --strategy {args.csv}")


if __name__ == "__main__":
    main()
