"""Statistics from exact integer counts: mean, standard deviation, 95% intervals, quantiles.

Simulations accumulate *counts* of outcomes (integers), never float sums, so a
result does not depend on the order in which chunks were added. The figures here
are computed from those counts with Python integers (exact) and only converted
to floats at the end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Z95", "Summary", "summarize_counts", "summarize_sums", "quantiles_from_histogram"]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Summary:
    """Mean, standard deviation and the 95% confidence interval of the mean.

    Attributes:
        n: observations.
        mean: sample mean (in the unit the caller chose, e.g. antes per round).
        std: sample standard deviation of one observation (n - 1 denominator).
        sem: standard error of the mean, ``std / sqrt(n)``.
        ci95: ``(mean - 1.96 sem, mean + 1.96 sem)``.
    """

    n: int
    mean: float
    std: float

    @property
    def sem(self) -> float:
        """Standard error of the mean, ``std / sqrt(n)``, in the unit of :attr:`mean`; NaN when ``n == 0``."""
        return self.std / math.sqrt(self.n) if self.n > 0 else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        """Normal 95% confidence interval of the mean, ``mean -/+ Z95 * sem`` (unit of :attr:`mean`)."""
        h = Z95 * self.sem
        return (self.mean - h, self.mean + h)

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in :attr:`ci95`."""
        lo, hi = self.ci95
        return lo <= value <= hi


def summarize_sums(n: int, total: int, total_sq: int, unit: int = 1) -> Summary:
    """A :class:`Summary` from exact integer ``n``, sum and sum of squares, divided by ``unit``.

    Raises:
        ValueError: ``n`` < 0.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if n == 0:
        return Summary(0, float("nan"), float("nan"))
    n, total, total_sq = int(n), int(total), int(total_sq)
    mean = total / (n * unit)
    # exact integer numerator of the variance: n * sum_sq - sum^2
    var_num = n * total_sq - total * total
    var = var_num / (n * (n - 1)) / (unit * unit) if n > 1 else 0.0
    return Summary(n, mean, math.sqrt(max(var, 0.0)))


def summarize_counts(counts: np.ndarray, values: np.ndarray, unit: int = 1) -> Summary:
    """A :class:`Summary` of a distribution given as integer ``counts`` of integer ``values``.

    Args:
        counts, values: same-shape integer arrays (e.g. rounds per outcome and the
            outcome's net chips).
        unit: divide the values by this (e.g. the ante, for figures per ante).
    """
    c = [int(x) for x in np.ravel(counts)]
    v = [int(x) for x in np.ravel(values)]
    n = sum(c)
    total = sum(a * b for a, b in zip(c, v, strict=True))
    total_sq = sum(a * b * b for a, b in zip(c, v, strict=True))
    return summarize_sums(n, total, total_sq, unit)


def quantiles_from_histogram(values: np.ndarray, counts: np.ndarray, qs: Sequence[float]) -> list[int]:
    """Quantiles (lower empirical: the smallest value with cumulative share >= q) of a histogram.

    Args:
        values: sorted distinct values; counts: how often each occurs.
        qs: probabilities in (0, 1].
    """
    if len(values) == 0:
        return [0 for _ in qs]
    cum = np.cumsum(np.asarray(counts, dtype=np.int64))
    n = int(cum[-1])
    out = []
    for q in qs:
        need = max(1, math.ceil(q * n))
        out.append(int(values[int(np.searchsorted(cum, need))]))
    return out
