"""Four Card Poker strategies: optimal, the published simple strategy, charts, files - the public
path of :mod:`fourcards.poker.exact.strategy`, where they live beside the exact analysis they
build on (see that module for the decision table's layout and each function's contract).
"""

from fourcards.poker.exact.strategy import (
    HAND_CLASSES,
    SHIPPED_ANTE_BONUS,
    Strategy,
    StrategyChart,
    advise,
    decide,
    decide_hand,
    decision_table,
    get_strategy,
    hand_class_of_rank,
    load_chart,
    optimal_chart,
    optimal_strategy,
    ship_optimal_decisions,
    simple_chart,
    simple_strategy,
)

__all__ = [
    "Strategy",
    "StrategyChart",
    "optimal_strategy",
    "simple_strategy",
    "optimal_chart",
    "simple_chart",
    "load_chart",
    "get_strategy",
    "decision_table",
    "decide",
    "decide_hand",
    "advise",
    "HAND_CLASSES",
    "hand_class_of_rank",
    "SHIPPED_ANTE_BONUS",
    "ship_optimal_decisions",
]
