"""Small statistics for reports: proportions with Wilson intervals, means with normal intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a 95 % interval and the sample size."""

    value: float
    low: float
    high: float
    n: int

    def fmt(self, percent: bool = False, digits: int = 2) -> str:
        """``"3.00 [2.10, 3.90]"``; ``"–"`` without a value, ``"3.00 [n/a]"`` without an interval
        (the mean of a single value)."""
        if self.n == 0 or not math.isfinite(self.value):
            return "–"
        k = 100 if percent else 1
        unit = " %" if percent else ""
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return f"{self.value * k:.{digits}f}{unit} [n/a]"
        return f"{self.value * k:.{digits}f}{unit} [{self.low * k:.{digits}f}, {self.high * k:.{digits}f}]"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 game"``, ``"2 games"`` (``plural`` for an irregular noun: ``counted(1, "die", "dice")``)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def proportion(hits: int, n: int) -> Estimate:
    """Share ``hits / n`` with the Wilson score interval (good at small n and near 0 or 1)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = hits / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean(values) -> Estimate:
    """Mean with a normal-approximation 95 % interval, clipped to the data's range."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.nan
    # the interval never reaches past the data (a mean of pay-outs ≥ 0 has no negative bound)
    return Estimate(m, max(m - half, float(x.min())), min(m + half, float(x.max())), len(x))
