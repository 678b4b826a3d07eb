"""The exact analysis of Four Card Poker, one module per job; its public API is
:mod:`fourcards.poker.analysis` (which re-exports every public name).

Dependencies run one way: ``tables`` <- ``counts`` (<- ``cache``) <- ``figures`` <-
``hand_ev``, ``aces_up``; :mod:`fourcards.poker.strategy` builds on those, and
``par_sheet`` (strategies by name, the par sheet) on the strategies.
"""
