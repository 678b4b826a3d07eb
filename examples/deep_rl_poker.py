"""Deep RL that reaches the optimum: MaskablePPO on Four Card Poker, scored exactly, within 0.5% of the optimal.

The learner plays :class:`fourcards.rl.sb3.PokerSB3VecEnv` with the hand as a player reads it
(``features="hand-v1"``: the four-card hand's strength and class, the up card's rank, the cards of
that rank the player holds, the ranks held; :mod:`fourcards.rl.features`) - what makes it work -, the
rewards in quarter antes (``reward_scale=0.25``; antes do as well), one decision an episode
(``gamma=0``), 16,384 rounds an update and a learning rate decaying to zero. At checkpoints the network is scored exactly by
:func:`fourcards.poker.policy.score_policy` (once per suit pattern: exact, the features read no suits)
- scoring time is not training time. docs/rl.md "Deep RL that reaches the optimum" has the runs.

Usage (needs the sb3 extra: pip install 'fourcards[sb3]'; PyTorch):

    python examples/deep_rl_poker.py [--rules live] [--steps 6000000] [--checkpoints 6] [--seed 0]
                                     [--threads 2] [--save poker-ppo.zip]
"""

from __future__ import annotations

import argparse
import os
import time

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from fourcards.poker import analysis as an
from fourcards.poker.policy import score_policy
from fourcards.rl.agents import save
from fourcards.rl.sb3 import PokerSB3VecEnv, policy_of


class Checkpoints(BaseCallback):
    """Score the network exactly every ``every`` rounds; the training clock stops while it scores."""

    def __init__(self, every: int, rules: str, optimal: float) -> None:
        super().__init__()
        self.every, self.rules, self.optimal = every, rules, optimal
        self.next = every
        self.train_wall = self.train_cpu = 0.0
        self.rows: list[dict] = []

    def _on_training_start(self) -> None:
        self.t0, self.c0 = time.perf_counter(), time.process_time()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            self.score()
        return True

    def score(self) -> None:
        self.train_wall += time.perf_counter() - self.t0
        self.train_cpu += time.process_time() - self.c0
        figures = score_policy(policy_of(self.model, self.rules), self.rules)
        edge = float(figures.house_edge)
        row = {"rounds": self.num_timesteps, "wall_s": self.train_wall, "cpu_s": self.train_cpu, "house_edge": edge,
               "gap": edge - self.optimal, "load": os.getloadavg()[0]}
        self.rows.append(row)
        print(f"{row['rounds']:>11,} rounds  trained {row['wall_s']:5.0f} s wall, {row['cpu_s']:5.0f} s CPU  house "
              f"edge {edge:.4%} ({edge - self.optimal:+.4%} against the optimal; load average {row['load']:.1f})",
              flush=True)
        self.t0, self.c0 = time.perf_counter(), time.process_time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="live")
    parser.add_argument("--steps", type=int, default=6_000_000, help="rounds to learn from")
    parser.add_argument("--checkpoints", type=int, default=6, help="exact scorings along the way")
    parser.add_argument("--envs", type=int, default=4096, help="rounds a step")
    parser.add_argument("--n-steps", type=int, default=4, help="steps a rollout (rounds an update: envs x n-steps)")
    parser.add_argument("--batch", type=int, default=4096, help="minibatch")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3, help="initial learning rate (decays linearly to 0)")
    parser.add_argument("--reward-scale", type=float, default=0.25)
    parser.add_argument("--features", default="hand-v1", choices=["hand-v1", "onehot"])
    parser.add_argument("--arch", default="64,64", help="hidden layers of the policy and value networks")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2, help="PyTorch threads")
    parser.add_argument("--save", default=None, help="write the agent file (fourcards.rl.agents) here")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    optimal = float(an.analyze(args.rules).house_edge)
    env = PokerSB3VecEnv(args.envs, args.rules, seed=args.seed, features=args.features,
                         reward_scale=args.reward_scale)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch, n_epochs=args.epochs,
                        learning_rate=lambda remaining: args.lr * remaining, gamma=0.0, gae_lambda=1.0,
                        ent_coef=0.0, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [int(x) for x in args.arch.split(",")]})
    print(f"MaskablePPO on {args.rules}, features {args.features}, reward x {args.reward_scale}, "
          f"{args.envs * args.n_steps:,} rounds an update, {args.epochs} epochs, learning rate {args.lr} to 0, "
          f"{args.threads} PyTorch thread(s), seed {args.seed}; optimal house edge {optimal:.4%}", flush=True)
    checkpoints = Checkpoints(args.steps // args.checkpoints, args.rules, optimal)
    model.learn(total_timesteps=args.steps, callback=checkpoints)
    if not checkpoints.rows or checkpoints.rows[-1]["rounds"] < model.num_timesteps:
        checkpoints.score()
    if args.save:
        print(f"agent file: {save(model, args.save, name='deep-ppo', rules=args.rules)}")


if __name__ == "__main__":
    main()
