"""Exact Four Card Poker mathematics: dealer counts, optimal strategy, house edge, Aces Up.

Everything here is a complete enumeration (no sampling). The method, the
timings and the published figures it reproduces are in ``docs/analysis.md``.
This module is the public API; the work is done in :mod:`fourcards.poker.exact`,
one module per job (every public name below is re-exported here):

* :mod:`~fourcards.poker.exact.tables` - every five-card hand, its best four, its
  suit orbit; locating a (hand, up card) pair;
* :mod:`~fourcards.poker.exact.counts` - the dealer counts (:func:`exact_counts`);
* :mod:`~fourcards.poker.exact.cache` - their disk cache;
* :mod:`~fourcards.poker.exact.figures` - EVs and :class:`GameFigures` of decisions;
* :mod:`~fourcards.poker.exact.hand_ev` - one hand's EVs (:func:`hand_ev`);
* :mod:`~fourcards.poker.exact.aces_up` - the Aces Up return (:func:`aces_up`);
* :mod:`~fourcards.poker.exact.par_sheet` - :func:`analyze` (a strategy by name)
  and the par sheet (:func:`par_sheet`);
* :mod:`~fourcards.poker.exact.returns` - every wager's return table and the par sheet
  figures that follow from it (hit frequency, volatility index, hold intervals).

The pay-table-independent core is :func:`exact_counts`: for every player
five-card hand ``P`` and every dealer up card ``u`` the number of dealer
six-card hands (``u`` plus five of the 46 unseen cards, ``C(46,5) = 1,370,754``)
whose best four is *at most* the player's best four (``le``: the player wins or
ties - ties go to the player, the dealer always qualifies) and *strictly below*
it (``lt``). Suit symmetry is used twice: the up card's suit is mapped to clubs
(13 up ranks, weight 4 each), and the player's hands are reduced to orbits under
the 6 permutations of the other three suits (about 6x fewer hands). The counts
are cached on disk (``FOURCARDS_CACHE_DIR`` or ``platformdirs.user_cache_dir``)
so that a pay-table change only recomputes the decisions.

Public API:

* :func:`exact_counts` -> :class:`ExactCounts` (cached, pay-table independent);
* :func:`analyze` -> :class:`GameFigures` (house edge, element of risk, RTP,
  average total bet, decision and outcome frequencies) for any
  :class:`~fourcards.poker.rules.PokerRules` and any strategy;
* :func:`aces_up` -> :class:`AcesUpFigures` (exact return of any Aces Up table);
* :func:`hand_ev` -> :class:`HandEV` (EV of every option for one hand and up card:
  what a trainer needs);
* :func:`count_hand` - the dealer counts of one hand by direct enumeration;
* :func:`par_sheet` -> :class:`ParSheet` (everything above, JSON-ready; as Rich tables and text:
  :mod:`fourcards.report.par_sheet`).
"""

from __future__ import annotations

from fourcards.poker.exact.aces_up import AcesUpFigures, aces_up, aces_up_counts
from fourcards.poker.exact.cache import CACHE_VERSION, cache_dir
from fourcards.poker.exact.counts import ExactCounts, count_hand, counts_cached, exact_counts
from fourcards.poker.exact.figures import (
    GameFigures,
    OutcomeRow,
    bonus_pays,
    ev_numerators,
    figures_from_chart,
    figures_from_decisions,
    option_name,
    options,
    settle_per_ante,
)
from fourcards.poker.exact.hand_ev import HandEV, hand_ev
from fourcards.poker.exact.par_sheet import ParSheet, analyze, par_sheet
from fourcards.poker.exact.returns import ReturnRow, ReturnTable, aces_up_table, game_tables
from fourcards.poker.exact.tables import (
    N_DEALER_HANDS,
    N_DEALS,
    N_HANDS5,
    N_HANDS_PER_UP,
    N_PLAYER_UP_PAIRS,
    BaseTables,
    base_tables,
    locate,
    map_to_clubs,
)

__all__ = [
    "N_DEALER_HANDS",
    "N_PLAYER_UP_PAIRS",
    "ExactCounts",
    "exact_counts",
    "count_hand",
    "cache_dir",
    "HandEV",
    "hand_ev",
    "settle_per_ante",
    "GameFigures",
    "analyze",
    "AcesUpFigures",
    "aces_up",
    "ParSheet",
    "par_sheet",
    "ReturnRow",
    "ReturnTable",
    "game_tables",
    "aces_up_table",
    "N_DEALS",
    "option_name",
    # also public (used by strategies, the simulator and tests)
    "N_HANDS5",
    "N_HANDS_PER_UP",
    "CACHE_VERSION",
    "BaseTables",
    "base_tables",
    "map_to_clubs",
    "locate",
    "counts_cached",
    "options",
    "bonus_pays",
    "ev_numerators",
    "OutcomeRow",
    "figures_from_decisions",
    "figures_from_chart",
    "aces_up_counts",
]
