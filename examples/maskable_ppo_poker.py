"""MaskablePPO (sb3-contrib) on Four Card Poker, its network scored exactly over every deal.

The learner plays :class:`fourcards.rl.sb3.PokerSB3VecEnv` - many rounds a step, dealt and
settled by the numba kernels, the ``online`` mask (no 2x) through ``action_masks()`` - and the
trained network is then scored by :func:`fourcards.poker.policy.score_policy`: its house edge,
element of risk and return to player, exact (no sampling error), against the optimal strategy's.

Usage (needs the sb3 extra: pip install 'fourcards[sb3]'; PyTorch):

    python examples/maskable_ppo_poker.py [--rules live] [--steps 2000000] [--envs 1024] [--seed 0]
                                          [--lr 3e-4] [--epochs 4] [--entropy 0.0] [--every-deal]
"""

from __future__ import annotations

import argparse
import time

import torch
from sb3_contrib import MaskablePPO

from fourcards.poker import analysis as an
from fourcards.poker.policy import score_policy
from fourcards.rl.sb3 import PokerSB3VecEnv, policy_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="live")
    parser.add_argument("--steps", type=int, default=2_000_000, help="rounds to learn from")
    parser.add_argument("--envs", type=int, default=1024, help="rounds a step")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    parser.add_argument("--entropy", type=float, default=0.0, help="entropy coefficient")
    parser.add_argument("--every-deal", action="store_true",
                        help="also ask the network about all 122,151,120 (hand, up card) pairs (minutes), "
                             "not only once per suit pattern")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    env = PokerSB3VecEnv(args.envs, args.rules, seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=2048, n_epochs=args.epochs, learning_rate=args.lr,
                        gamma=0.0, ent_coef=args.entropy, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [64, 64]})
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - t0

    optimal = an.analyze(args.rules)
    print(f"MaskablePPO, {args.steps:,} rounds ({args.envs} a step), seed {args.seed}, learning rate {args.lr}, "
          f"{args.epochs} epochs, entropy {args.entropy}: trained in {seconds:.0f} s")
    for every_deal in (False, True) if args.every_deal else (False,):
        t1 = time.perf_counter()
        learned = score_policy(policy_of(model, args.rules), args.rules, symmetric=not every_deal,
                               name="MaskablePPO")
        scoring = time.perf_counter() - t1
        print(f"  {'every deal' if every_deal else 'once per suit pattern'}: house edge "
              f"{float(learned.house_edge):.4%} of the ante ({float(learned.house_edge - optimal.house_edge):+.4%} "
              f"against the optimal {float(optimal.house_edge):.4%}); element of risk "
              f"{float(learned.element_of_risk):.4%}; RTP {float(learned.return_to_player):.4%}; scored in "
              f"{scoring:.0f} s; decisions {({k: round(float(v), 4) for k, v in learned.decisions.items()})}")


if __name__ == "__main__":
    main()
