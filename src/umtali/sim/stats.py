"""Small statistics for the arena: rates with confidence intervals, means, quantiles.

Standard library only, and exact enough to test against hand-computed values.

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
>>> mean_interval([0.0, 1.0, 1.0, 1.0])[0]
0.75
>>> quantile([1, 2, 3, 4], 0.5)
2.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Final

__all__ = ["Z95", "mean_interval", "quantile", "sample_sd", "wilson_interval"]

Z95: Final = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.959963984540054."""


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` out of ``n`` trials.

    ``successes`` may be fractional (a drawn game counted as half a win); the interval
    then treats the score rate as if it were a plain proportion.
    """
    if n < 1:
        raise ValueError(f"a rate needs at least one trial, not {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie between 0 and {n}, not {successes}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def sample_sd(values: Sequence[float]) -> float:
    """The sample standard deviation (n − 1 in the denominator); 0 for fewer than 2 values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval, (mean, low, high).

    With fewer than two values there is no spread to measure: low = high = mean.
    """
    n = len(values)
    if n < 1:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    half = z * sample_sd(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics
    (the usual "type 7" definition, as in numpy's default)."""
    if not values:
        raise ValueError("a quantile needs at least one value")
    if not 0 <= q <= 1:
        raise ValueError(f"q must lie between 0 and 1, not {q}")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return ordered[below] + (ordered[above] - ordered[below]) * fraction
