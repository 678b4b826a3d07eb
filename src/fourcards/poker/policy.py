"""Exact figures of any Four Card Poker policy, scored over every deal - the public path of
:mod:`fourcards.poker.exact.policy`, where the scoring lives beside the exact analysis it uses
(see that module for what a policy is and how it is scored).
"""

from fourcards.poker.exact.policy import N_DEALS, is_policy_spec, load_policy, score_policy

__all__ = ["score_policy", "load_policy", "is_policy_spec", "N_DEALS"]
