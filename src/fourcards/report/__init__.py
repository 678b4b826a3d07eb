"""Rendering only: results of the engines, the exact analysis and the simulator made readable.

* :mod:`fourcards.report.par_sheet` - the Four Card Poker par sheet as Rich tables and text;
* :mod:`fourcards.report.charts` - a strategy chart as a Rich table and a PNG heat map;
* :mod:`fourcards.report.plots` - simulation plots (PNG).

Nothing here computes a figure: the data come from :mod:`fourcards.poker.analysis`,
:mod:`fourcards.poker.strategy` and :mod:`fourcards.sim`. PNG output needs the
``plots`` extra (matplotlib). Submodules are imported on demand.
"""
