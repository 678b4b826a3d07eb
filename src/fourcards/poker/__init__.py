"""Four Card Poker (seeds 002-004): rules and pay tables, the round state machine, exact analysis.

Modules (one job each; the round's parts as :mod:`fourcards.kind` has them):

* :mod:`~fourcards.poker.rules` - :class:`~fourcards.poker.rules.PokerRules`, presets, pay tables;
* :mod:`~fourcards.poker.settlement` - one seat's wagers settled in chips from two hand values;
* :mod:`~fourcards.poker.actions` - phases, the actions, :class:`~fourcards.poker.actions.LegalAction`;
* :mod:`~fourcards.poker.history` - the history's records (the deal included), their JSON form;
* :mod:`~fourcards.poker.results` - each seat's settlement with its cards (``settle_hand``);
* :mod:`~fourcards.poker.observation` - what a player sees;
* :mod:`~fourcards.poker.round` - the :class:`~fourcards.poker.round.PokerRound` state machine
  (and the names above, re-exported);
* :mod:`~fourcards.poker.bots` - computer players (the strategies by name, plug-ins);
* :mod:`~fourcards.poker.payout` - checking a dealer's payout by hand;
* :mod:`~fourcards.poker.side_bets` - side bets' pay tables;
* :mod:`~fourcards.poker.exact` - the exact analysis, strategies and policies
  (public API: :mod:`~fourcards.poker.analysis`, :mod:`~fourcards.poker.strategy`,
  :mod:`~fourcards.poker.policy`);
* ``kernels``, ``protect_kernels``, ``side_bet_kernels`` - the compiled inner loops.

Importing this package imports none of them (a warm ``poker analyze`` imports only what it uses).
"""
