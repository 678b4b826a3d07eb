"""The exact analysis of Four Card Poker, one module per job; its public API is
:mod:`fourcards.poker.analysis` (which re-exports every public name).

Dependencies run one way: ``tables`` <- ``counts`` (<- ``cache``) <- ``figures`` <-
``hand_ev``, ``aces_up``; :mod:`fourcards.poker.exact.strategy` builds on those, and
``par_sheet`` (strategies by name, the par sheet) and ``returns`` (every wager's return
table) on the strategies. The analyst's workbench (issue 23) builds on all of them:
``design`` (pay tables nearest a target return), ``protect`` (hole cards and colluders;
kernels in :mod:`fourcards.poker.protect_kernels`) and ``win_cap`` (the win cap's cost).
"""
