"""The figures of a strategy given by name, file or chart (:func:`analyze`) and the par sheet
(:func:`par_sheet` -> :class:`ParSheet`: every strategy compared, Aces Up, JSON-ready).

Strategies are resolved by :mod:`fourcards.poker.strategy`, which itself builds on the
counts and figures modules (never on this one). The sheet's Rich tables and text are
:mod:`fourcards.report.par_sheet`. Part of :mod:`fourcards.poker.analysis` (which
re-exports the public names).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from fourcards.poker.exact.aces_up import AcesUpFigures, aces_up
from fourcards.poker.exact.counts import ExactCounts, exact_counts
from fourcards.poker.exact.figures import GameFigures, _as_rules, figures_from_chart, figures_from_decisions
from fourcards.poker.exact.returns import ReturnTable, aces_up_table, game_tables
from fourcards.poker.rules import PokerRules

__all__ = ["analyze", "ParSheet", "par_sheet"]


def analyze(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
            counts: ExactCounts | None = None,
            progress: Callable[[int, int], None] | None = None) -> GameFigures:
    """Exact figures of the ante/play game under ``strategy``.

    Args:
        rules: a :class:`PokerRules` or a preset name.
        strategy: ``"optimal"``, ``"simple"`` (Shuffle Master's published simple
            strategy), ``"chart"`` (the compact chart of :func:`strategy.optimal_chart`),
            a path to a strategy chart file (CSV), a
            :class:`~fourcards.poker.strategy.Strategy`, a
            :class:`~fourcards.poker.strategy.StrategyChart`, a
            ``(13, n_orbits)`` array of play multiples, or a policy named
            ``module:function`` (scored over every deal by
            :func:`fourcards.poker.policy.score_policy`).
        counts: the :class:`ExactCounts` (default :func:`exact_counts`).

    Raises:
        RulesError: unknown preset, or a strategy that is not valid for the rules.
    """
    from fourcards.poker import policy
    from fourcards.poker import strategy as strat

    rules = _as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    if policy.is_policy_spec(strategy):
        return policy.score_policy(policy.load_policy(strategy), rules, counts=counts, name=strategy)
    s = strat.get_strategy(strategy, rules, counts=counts)
    return figures_from_decisions(counts, rules, s.decisions, s.name)


@dataclass(frozen=True)
class ParSheet:
    """Everything an operator needs for one rule set (see :func:`par_sheet`).

    ``game`` is the ante/play game under the requested strategy; ``optimal``,
    ``chart`` (the compact chart of :func:`strategy.optimal_chart`) and ``simple``
    (the published simple strategy) are always included for comparison.
    """

    rules: PokerRules
    game: GameFigures
    optimal: GameFigures
    chart: GameFigures
    simple: GameFigures
    aces_up: AcesUpFigures
    aces_up_tables: tuple[AcesUpFigures, ...]
    counts_source: str
    counts_seconds: float
    seconds: float

    @cached_property
    def wagers(self) -> dict[str, ReturnTable]:
        """The return table of every wager under :attr:`game`'s strategy (:mod:`~fourcards.poker.exact.returns`):
        ``"game"`` (ante, play and ante bonus: the base game), ``"ante_play"``, ``"ante_bonus"`` (per
        ante, over every deal) and ``"aces_up"`` (per unit bet, over the five-card hands)."""
        game, ante_play, ante_bonus = game_tables(self.game)
        return {"game": game, "ante_play": ante_play, "ante_bonus": ante_bonus,
                "aces_up": aces_up_table(self.aces_up)}

    def to_dict(self) -> dict[str, Any]:
        """JSON form: :meth:`GameFigures.to_dict` of :attr:`game`, plus ``rules``, ``aces_up``,
        ``aces_up_tables``, per-strategy figures (with ``loss_vs_optimal`` in antes), ``wagers`` (the
        return table and par sheet figures of each wager: :meth:`ReturnTable.to_dict`) and timings (s).
        """
        d = self.game.to_dict()
        d["rules"] = self.rules.to_dict()
        d["aces_up"] = self.aces_up.to_dict()
        d["aces_up_tables"] = [
            {"table": str(f.table), "return": float(f.return_), "house_edge": float(f.house_edge)}
            for f in self.aces_up_tables
        ]
        d["strategies"] = {
            name: {
                "house_edge": float(f.house_edge),
                "element_of_risk": float(f.element_of_risk),
                "return_to_player": float(f.return_to_player),
                "average_total_bet": float(f.average_total_bet),
                "standard_deviation": f.standard_deviation,
                "loss_vs_optimal": float(f.house_edge - self.optimal.house_edge),
            }
            for name, f in (("optimal", self.optimal), ("chart", self.chart), ("simple", self.simple),
                            (self.game.strategy, self.game))
        }
        d["wagers"] = {key: table.to_dict() for key, table in self.wagers.items()}
        d["computation"] = {"dealer_counts": self.counts_source,
                            "dealer_counts_seconds": round(self.counts_seconds, 3),
                            "seconds": round(self.seconds, 3)}
        return d


def par_sheet(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
              counts: ExactCounts | None = None,
              progress: Callable[[int, int], None] | None = None) -> ParSheet:
    """The full par sheet for a rule set (exact).

    Raises:
        RulesError: unknown preset, a malformed table or an invalid strategy.
    """
    from fourcards.poker import strategy as strat
    from fourcards.poker.rules import ACES_UP_TABLES

    t0 = time.perf_counter()
    rules = _as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    opt = strat.optimal_strategy(rules, counts)
    optimal = figures_from_decisions(counts, rules, opt.decisions, "optimal")
    chart = figures_from_chart(counts, rules, strat.optimal_chart(rules, counts).table, "chart")
    simple = figures_from_chart(counts, rules, strat.simple_chart(rules).table, "simple")
    named = {"optimal": optimal, "chart": chart, "simple": simple}
    if isinstance(strategy, str) and strategy in named:
        game = named[strategy]
    elif isinstance(strategy, str) and ":" in strategy and strategy not in named:
        game = analyze(rules, strategy, counts=counts)  # a policy module:function, or a chart file
    else:
        s = strat.get_strategy(strategy, rules, counts=counts)
        game = figures_from_decisions(counts, rules, s.decisions, s.name)
    tables = tuple(aces_up(t) for t in ACES_UP_TABLES.values())
    return ParSheet(rules, game, optimal, chart, simple, aces_up(rules.aces_up), tables, counts.source,
                    counts.seconds, time.perf_counter() - t0)

