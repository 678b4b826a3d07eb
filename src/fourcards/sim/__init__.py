"""Monte Carlo simulation for both games, in one process, local processes or on Dask.

* :mod:`fourcards.sim.poker` - Four Card Poker: :func:`~fourcards.sim.poker.simulate_poker`
  (house edge with a 95% CI, spread, hit frequencies, sessions and risk of ruin);
* :mod:`fourcards.sim.kind` - Four of a Kind bot tournaments:
  :func:`~fourcards.sim.kind.simulate_kind`;
* :mod:`fourcards.sim.runner` - chunked, reproducible execution (serial, threads,
  process pool, Dask ``LocalCluster`` or an existing scheduler), chosen by job size;
* :mod:`fourcards.sim.kernels` - the compiled kernels (deal, value, decide, settle),
  built at install or by numba on first use (:mod:`fourcards.native`);
  :mod:`fourcards.sim.tables` - their tables and seeds;
* :mod:`fourcards.sim.stats` - exact-integer statistics (plots of the results:
  :mod:`fourcards.report.plots`).

See ``docs/simulation.md``. Submodules are imported on demand.
"""
