"""Monte Carlo simulation for both games, in one process, local processes or on Dask.

* :mod:`fourcards.sim.poker` - Four Card Poker: :func:`~fourcards.sim.poker.simulate_poker`
  (house edge with a 95% CI, spread, hit frequencies, sessions and risk of ruin);
* :mod:`fourcards.sim.kind` - Four of a Kind bot tournaments:
  :func:`~fourcards.sim.kind.simulate_kind`;
* :mod:`fourcards.sim.runner` - chunked, reproducible execution (serial, process
  pool, Dask ``LocalCluster`` or an existing scheduler);
* :mod:`fourcards.sim.kernels` - the numba kernels (deal, value, decide, settle);
* :mod:`fourcards.sim.stats` - exact-integer statistics; :mod:`fourcards.sim.plots` - figures.

See ``docs/simulation.md``. Submodules are imported on demand (numba compiles
on first use).
"""
