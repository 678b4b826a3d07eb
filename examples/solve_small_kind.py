"""Solve Small Four of a Kind (a research variant, not the seeds' game) with OpenSpiel's CFR+ and MCCFR, and
measure the built-in bots' exploitability: docs/rl.md "A game small enough to solve" prints this script's output.

Usage (the rl extra):

    python examples/solve_small_kind.py [--game "python_small_kind_variant(players=2)"] [--cfr 10,30,100,300]
                                        [--mccfr 1000,10000] [--bots random,cautious,odds,pots,learned]
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python.algorithms import exploitability, get_all_states

import fourcards.openspiel  # noqa: F401 - registers python_small_kind_variant
from fourcards.rl.small_kind import bot_policy, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="python_small_kind_variant")
    parser.add_argument("--cfr", default="10,30,100,300", help="CFR+ iterations to measure at")
    parser.add_argument("--mccfr", default="1000,10000", help="external-sampling MCCFR iterations to measure at")
    parser.add_argument("--bots", default="random,cautious,odds,pots,learned")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(args.game)
    states = get_all_states.get_all_states(game, include_terminals=False, include_chance_states=False)
    print(f"{args.game}: {game.get_type().long_name}; {len(states):,} decision states "
          f"(information sets: perfect information)", flush=True)
    print("| algorithm | iterations | exploitability (chips/deal) | NashConv | solving time |")
    print("|---|---|---|---|---|")

    def show(row: dict) -> None:
        print(f"| {row['algorithm']} | {row['iterations']:,} | {row['exploitability']:.5f} | {row['nash_conv']:.5f} "
              f"| {row['seconds']:.1f} s |", flush=True)

    if args.cfr:
        solve(game, "cfr+", [int(x) for x in args.cfr.split(",")], progress=show)
    if args.mccfr:
        solve(game, "mccfr", [int(x) for x in args.mccfr.split(",")], seed=args.seed, progress=show)
    for name in args.bots.split(","):
        t0 = time.perf_counter()
        conv = exploitability.nash_conv(game, bot_policy(game, name))
        print(f"| bot `{name}` in every seat | - | {conv / game.num_players():.5f} | {conv:.5f} "
              f"| {time.perf_counter() - t0:.1f} s to measure |", flush=True)


if __name__ == "__main__":
    main()
