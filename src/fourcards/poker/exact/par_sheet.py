"""The figures of a strategy given by name, file or chart (:func:`analyze`) and the par sheet
(:func:`par_sheet` -> :class:`ParSheet`: every strategy compared, Aces Up, JSON-ready).

Strategies are resolved by :mod:`fourcards.poker.exact.strategy`, which itself builds on the
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

from fourcards.poker.exact import strategy as strat
from fourcards.poker.exact.aces_up import AcesUpFigures, aces_up, aces_up_with_folds
from fourcards.poker.exact.counts import ExactCounts, exact_counts
from fourcards.poker.exact.figures import (
    GameFigures,
    _frac,
    figures_from_chart,
    figures_from_decisions,
)
from fourcards.poker.exact.returns import ReturnTable, aces_up_table, game_tables
from fourcards.poker.rules import PokerRules, as_rules

__all__ = ["analyze", "ParSheet", "WinCapSheet", "par_sheet"]


def analyze(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
            counts: ExactCounts | None = None,
            progress: Callable[[int, int], None] | None = None) -> GameFigures:
    """Exact figures of the ante/play game under ``strategy``.

    Args:
        rules: a :class:`PokerRules` or a preset name.
        strategy: ``"optimal"``, ``"simple"`` (Shuffle Master's published simple
            strategy), ``"chart"`` (the compact chart of :func:`strategy.optimal_chart`),
            a path to a strategy chart file (CSV), a
            :class:`~fourcards.poker.exact.strategy.Strategy`, a
            :class:`~fourcards.poker.exact.strategy.StrategyChart`, a
            ``(13, n_orbits)`` array of play multiples, or a policy named
            ``module:function`` (scored over every deal by
            :func:`fourcards.poker.exact.policy.score_policy`).
        counts: the :class:`ExactCounts` (default :func:`exact_counts`).

    Raises:
        RulesError: unknown preset, or a strategy that is not valid for the rules.
    """
    from fourcards.poker.exact import policy

    rules = as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    if policy.is_policy_spec(strategy):
        return policy.score_policy(policy.load_policy(strategy), rules, counts=counts, name=strategy)
    s = strat.get_strategy(strategy, rules, counts=counts)
    return figures_from_decisions(counts, rules, s.decisions, s.name)


@dataclass(frozen=True)
class WinCapSheet:
    """The win cap on the par sheet (issue 31, item 4): where it starts to bind and what it costs at
    the table's largest bets, each under the play that is optimal under the cap
    (:mod:`fourcards.poker.exact.win_cap`).

    Attributes:
        cap: the cap in chips.
        binding_ante: the smallest ante at which a round can pass the cap with no Aces Up bet (None:
            never within the table's limits); ``binding_ante_with_aces_up``: with an Aces Up bet equal
            to the ante.
        rows: :class:`~fourcards.poker.exact.win_cap.WinCapFigures` at the largest ante alone and at the
            largest ante and Aces Up bet (RTP under the cap and uncapped, the chance a round hits it).
    """

    cap: int
    binding_ante: int | None
    binding_ante_with_aces_up: int | None
    rows: tuple[Any, ...]

    @property
    def maximum_bets(self) -> Any:
        """The figures at the table's largest ante and Aces Up bet (the last row)."""
        return self.rows[-1]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``cap``, ``binding_ante``, ``binding_ante_with_aces_up``, ``maximum_bets`` and
        ``rows`` (:meth:`WinCapFigures.to_dict`)."""
        return {"cap": self.cap, "binding_ante": self.binding_ante,
                "binding_ante_with_aces_up": self.binding_ante_with_aces_up,
                "maximum_bets": self.maximum_bets.to_dict(), "rows": [r.to_dict() for r in self.rows]}


def win_cap_sheet(rules: PokerRules, counts: ExactCounts, optimal: GameFigures | None = None) -> WinCapSheet | None:
    """The :class:`WinCapSheet` of ``rules``, or None without a win cap; ``optimal``: the optimal
    play's figures of ``rules`` if at hand."""
    if rules.win_cap is None:
        return None
    from fourcards.poker.exact import win_cap as wc

    rows = (wc.win_cap_figures(rules, rules.max_ante, 0, counts=counts, optimal=optimal),
            wc.win_cap_figures(rules, rules.max_ante, rules.max_aces_up, counts=counts, optimal=optimal))
    return WinCapSheet(rules.win_cap, wc.binding_ante(rules, 0), wc.binding_ante(rules, None), rows)


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
    win_cap: WinCapSheet | None = None
    side_bets: tuple[Any, ...] = ()
    strategy_chart: Any = None

    @cached_property
    def wagers(self) -> dict[str, ReturnTable]:
        """The return table of every wager under :attr:`game`'s strategy (:mod:`~fourcards.poker.exact.returns`):
        ``"game"`` (ante, play and ante bonus: the base game), ``"ante_play"``, ``"ante_bonus"`` (per
        ante, over every deal) and ``"aces_up"`` (per unit bet, over the five-card hands)."""
        game, ante_play, ante_bonus = game_tables(self.game)
        return {"game": game, "ante_play": ante_play, "ante_bonus": ante_bonus,
                "aces_up": aces_up_table(self.aces_up)}

    def strategy_figures(self) -> dict[str, GameFigures]:
        """The strategies compared, by name: optimal, chart, simple and the requested one."""
        return {"optimal": self.optimal, "chart": self.chart, "simple": self.simple, self.game.strategy: self.game}

    def to_dict(self) -> dict[str, Any]:
        """JSON form: :meth:`GameFigures.to_dict` of :attr:`game`, plus ``rules``, ``aces_up``,
        ``aces_up_tables``, per-strategy figures (with ``loss_vs_optimal`` in antes), ``wagers`` (the
        return table and par sheet figures of each wager: :meth:`ReturnTable.to_dict`), ``rule_switches``
        (how the rules have them and each one's exact effect per strategy: :func:`_effects`),
        ``win_cap`` (:meth:`WinCapSheet.to_dict`, null without a cap), ``side_bets`` (each one's
        :meth:`~fourcards.poker.exact.side_bets.SideBetFigures.to_dict`), ``strategy_chart`` (the chart
        of the strategy assumed, :meth:`StrategyChart.to_dict`; null for a policy) and timings (s).
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
        d["rule_switches"] = {
            "aces_up_lost_on_fold": self.rules.aces_up_lost_on_fold,
            "ante_bonus_requires_play": self.rules.ante_bonus_requires_play,
            "effects": {name: _effects(f, self.rules) for name, f in self.strategy_figures().items()},
        }
        d["win_cap"] = None if self.win_cap is None else self.win_cap.to_dict()
        d["side_bets"] = [b.to_dict() for b in self.side_bets]
        d["strategy_chart"] = None if self.strategy_chart is None else self.strategy_chart.to_dict()
        d["computation"] = {"dealer_counts": self.counts_source,
                            "dealer_counts_seconds": round(self.counts_seconds, 3),
                            "seconds": round(self.seconds, 3)}
        return d


def _effects(f: GameFigures, rules: PokerRules) -> dict[str, Any]:
    """JSON form of :meth:`GameFigures.switch_effects`: the change each rule switch makes under the
    strategy ``f``, per ante and per total wagered (the ante bonus) or per Aces Up bet (the Aces Up),
    with the exact fractions."""
    e = f.switch_effects(rules.aces_up)
    bonus, au = e["ante_bonus_requires_play"], e["aces_up_lost_on_fold"]
    return {"ante_bonus_requires_play": {"per_ante": float(bonus), "per_total_wagered": float(bonus / f.average_total_bet),
                                         "exact": _frac(bonus)},
            "aces_up_lost_on_fold": {"per_aces_up_bet": float(au), "exact": _frac(au)}}


def _chart_of(strategy: Any, optimal_chart: Any) -> Any:
    """The chart shown for the strategy assumed: the compact chart for ``optimal`` and ``chart``,
    the published one for ``simple``, the file's for a chart file; None for a policy or an array."""
    import os


    if isinstance(strategy, strat.StrategyChart):
        return strategy
    if not isinstance(strategy, str):
        return None
    if strategy in ("optimal", "chart"):
        return optimal_chart
    if strategy == "simple":
        return strat.simple_chart()
    if os.path.isfile(strategy):
        return strat.load_chart(strategy)
    return None


def par_sheet(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
              counts: ExactCounts | None = None,
              progress: Callable[[int, int], None] | None = None, side_bets: Any = ()) -> ParSheet:
    """The full par sheet for a rule set (exact), with the win cap's figures when the rules have one
    and the return table of each of ``side_bets`` (:class:`~fourcards.poker.side_bets.SideBet`).

    Raises:
        RulesError: unknown preset, a malformed table or an invalid strategy.
    """
    from fourcards.poker.rules import ACES_UP_TABLES

    t0 = time.perf_counter()
    rules = as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    opt = strat.optimal_strategy(rules, counts)
    optimal = figures_from_decisions(counts, rules, opt.decisions, "optimal")
    compact = strat.optimal_chart(rules, counts)
    chart = figures_from_chart(counts, rules, compact.table, "chart")
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
    # docs/rules.md FCP-16: a fold loses the Aces Up bet, so its return depends on the strategy's folds
    au = aces_up_with_folds(rules.aces_up, game.folded) if rules.aces_up_lost_on_fold else aces_up(rules.aces_up)
    from fourcards.poker.exact.side_bets import side_bet_figures

    bets = tuple(side_bet_figures(b, counts=counts) for b in side_bets)
    return ParSheet(rules, game, optimal, chart, simple, au, tables, counts.source,
                    counts.seconds, time.perf_counter() - t0, win_cap_sheet(rules, counts, optimal), bets,
                    _chart_of(strategy, compact))

