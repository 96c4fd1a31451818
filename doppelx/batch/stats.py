"""Small statistics for reports: proportions with Wilson intervals, means with Student-t intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


def t95(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom (t₀.₉₇₅).

    Exact for 1 and 2 degrees of freedom; above, the Cornish–Fisher expansion about the
    normal quantile (Abramowitz & Stegun 26.7.5, four terms), within 0.12 % at 3 degrees of
    freedom and 0.01 % from 6 on (against the tables: 3.182, 2.571, 2.228, 2.042 for 3, 5,
    10, 30). A mean of a few values then gets the wider interval it needs (20 values: 2.093
    instead of 1.960).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df == 1:
        return math.tan(math.pi * 0.475)
    if df == 2:
        return math.sqrt(2 / (0.05 * 1.95) - 2)
    z = Z95
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(g / df ** (k + 1) for k, g in enumerate(terms))


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
    return _wilson(hits / n, n)


def _wilson(p: float, n: int) -> Estimate:
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean(values) -> Estimate:
    """Mean with a Student-t 95 % interval (:func:`t95`), clipped to the data's range.

    Values that are all the same (every card G pay-out 0, no rival knocked out) give no
    interval (``[n/a]``): the formula would say [m, m], a certainty the sample
    cannot give — the next value may well differ.
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    half = t95(len(x) - 1) * sd / math.sqrt(len(x)) if sd > 0 else math.nan
    # the interval never reaches past the data (a mean of pay-outs ≥ 0 has no negative bound)
    return Estimate(m, max(m - half, float(x.min())), min(m + half, float(x.max())), len(x))


def clustered_ratio(parts, bounds: tuple[float, float] | None = None) -> Estimate:
    """``Σ numerator / Σ denominator`` over clusters ``parts = [(numerator, denominator), ...]``
    with a cluster-robust 95 % interval.

    For figures whose units are not independent: the seats of one game share one winner, the
    throws of one game share its table. Each game is one cluster; the ratio estimator's
    variance ``n/(n−1) Σ (y_g − r·d_g)² / (Σ d_g)²`` treats the games, not the seats or
    throws, as the sample. ``bounds`` clips the interval (0–1 for a share). Without variation
    between the clusters (or with one cluster) the variance says nothing: a share then gets
    the Wilson interval with the clusters as its sample (as if each game were one trial, the
    conservative end), any other ratio no interval (``[n/a]``).
    """
    y = np.array([p[0] for p in parts], dtype=float)
    d = np.array([p[1] for p in parts], dtype=float)
    keep = d > 0
    y, d = y[keep], d[keep]
    n, total = len(d), float(d.sum())
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    r = float(y.sum()) / total
    resid = y - r * d
    var = n / (n - 1) * float((resid**2).sum()) / total**2 if n > 1 else 0.0
    if var <= 0:
        if bounds == (0.0, 1.0):
            return _wilson(r, n)
        return Estimate(r, math.nan, math.nan, n)
    half = t95(n - 1) * math.sqrt(var)
    low, high = r - half, r + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return Estimate(r, low, high, n)


def t_two_sided_p(t: float, df: int) -> float:
    """The two-sided p-value of Student's t statistic ``t`` with ``df`` degrees of freedom.

    Exact series (Abramowitz & Stegun 26.7.3 and 26.7.4) up to 200 degrees of freedom, the
    normal distribution above (their difference is below 0.001 there).
    """
    if not math.isfinite(t):
        return 0.0 if math.isinf(t) else math.nan
    t = abs(t)
    if df > 200:
        return math.erfc(t / math.sqrt(2))
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    if df % 2:
        term, total = c, c if df > 1 else 0.0
        for k in range(3, df - 1, 2):
            term *= (k - 1) / k * c * c
            total += term
        inside = 2 / math.pi * (theta + s * total)
    else:
        term = total = 1.0
        for k in range(2, df - 1, 2):
            term *= (k - 1) / k * c * c
            total += term
        inside = s * total
    return min(1.0, max(0.0, 1.0 - inside))


def chi2_sf(x: float, df: int) -> float:
    """The upper tail ``P(χ² > x)`` with ``df`` degrees of freedom (closed forms of the
    regularised incomplete gamma function for whole and half-whole shapes)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    for i in range(1, (df - 1) // 2 + 1):
        total += math.exp((i - 0.5) * math.log(h) - h - math.lgamma(i + 0.5))
    return min(1.0, total)


@dataclass(frozen=True)
class Paired:
    """``b − a`` over the same items: the difference with its 95 % interval, the p-value of a
    paired t test (difference 0) and the correlation of ``a`` and ``b`` across the items."""

    difference: Estimate
    p_value: float
    correlation: float


def paired(a, b) -> Paired:
    """The paired comparison of two variants' per-item values (items missing in either dropped)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    d = mean(b - a)
    n = len(a)
    if n < 2:
        return Paired(d, math.nan, math.nan)
    diff = b - a
    sd = float(diff.std(ddof=1))
    if sd == 0:
        p = 1.0 if float(diff.mean()) == 0 else 0.0
    else:
        p = t_two_sided_p(float(diff.mean()) / (sd / math.sqrt(n)), n - 1)
    corr = math.nan
    if a.std() > 0 and b.std() > 0:
        corr = float(np.corrcoef(a, b)[0, 1])
    return Paired(d, p, corr)


def fmt_p(p: float) -> str:
    """``"0.003"``, ``"< 0.001"``, ``"–"`` without one."""
    if not math.isfinite(p):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"
