"""The learned Four of a Kind bot against ``pots`` over duplicate deals, in the engine.

Every deal is played twice with the same cards (``Game(..., rng=random.Random(seed of the deal))``:
the deck, and its reshuffles after a re-dealt duplicate, come from that seed alone, never from the
bets): first the learned bot in the even seats and ``pots`` in the odd ones, then the seats
swapped. The deal's figure is the learned bot's net chips over both plays divided by the seats
(chips per deal per seat); the deals are independent, so the 95% interval is
``mean +- 1.96 sd / sqrt(deals)``. Stacks of 40 antes, family rules, the button at seat
``deal % players``: the setting of docs/kind.md "Bot tournament".

Usage (docs/rl.md "A learned bot" records its output):

    python benchmarks/kind_bot_match.py --players 4 --deals 20000 [--seed 2026] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from fourcards.kind.bots import PotsBot, play_deal
from fourcards.kind.rules import KindRules
from fourcards.rl.bots import LearnedKindBot


def match(players: int, first: int, deals: int, seed: int) -> list[int]:
    """The learned bot's net chips over both seatings of deals ``first .. first + deals - 1``."""
    rules = KindRules()
    learned, pots = LearnedKindBot(), PotsBot()
    stacks = [40 * rules.ante] * players
    out = []
    for j in range(first, first + deals):
        total = 0
        for even in (True, False):
            bots = [learned if (s % 2 == 0) == even else pots for s in range(players)]
            game = play_deal(rules, bots, stacks, random.Random(seed * 1_000_003 + j), j % players)
            total += sum(r for s, r in enumerate(game.returns()) if (s % 2 == 0) == even)
        out.append(total)
    return out


def summary(per_deal: list[int], players: int) -> dict[str, float]:
    """Mean chips per deal per seat of the learned bot and its 95% interval."""
    n = len(per_deal)
    x = [v / players for v in per_deal]
    mean = sum(x) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in x) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return {"deals": n, "mean": mean, "low": mean - half, "high": mean + half, "sd": sd}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    for players in args.players:
        t0 = time.perf_counter()
        chunk = -(-args.deals // (4 * args.workers))
        starts = list(range(0, args.deals, chunk))
        sizes = [min(chunk, args.deals - s) for s in starts]
        with ProcessPoolExecutor(args.workers) as pool:
            parts = pool.map(match, [players] * len(starts), starts, sizes, [args.seed] * len(starts))
            per_deal = [v for part in parts for v in part]
        r = summary(per_deal, players)
        print(f"{players} seats, {r['deals']:,} duplicate deals (seed {args.seed}): learned {r['mean']:+.3f} chips "
              f"per deal per seat, 95% interval [{r['low']:+.3f}, {r['high']:+.3f}] (sd {r['sd']:.2f}); "
              f"{time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
