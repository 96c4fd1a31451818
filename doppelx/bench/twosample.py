"""Two-sample tests with numpy alone: chi-square of homogeneity and Kolmogorov–Smirnov.

:func:`chi2_homogeneity` asks whether two samples of a categorical variable (counts per
category) come from one distribution; :func:`ks_2samp` whether two samples of a continuous
variable do. Both return ``(statistic, p_value)``. The chi-square p-value is the
regularised upper incomplete gamma function ``Q(dof/2, x/2)`` (series and continued
fraction, Numerical Recipes §6.2); the KS p-value is the asymptotic Kolmogorov
distribution with Stephens' small-sample correction (Numerical Recipes §14.3).
"""

from __future__ import annotations

import math

import numpy as np


def chi2_sf(x: float, dof: int) -> float:
    """P(χ² with ``dof`` degrees of freedom > ``x``)."""
    if dof <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    return _gammq(dof / 2.0, x / 2.0)


def chi2_homogeneity(a, b) -> tuple[float, int, float]:
    """Chi-square test that counts ``a`` (k,) and ``b`` (k,) share one distribution.

    Categories empty in both samples are dropped. Returns ``(statistic, dof, p)``;
    ``dof = categories − 1``.
    """
    table = np.vstack([np.asarray(a, dtype=float), np.asarray(b, dtype=float)])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2 or (table.sum(axis=1) == 0).any():
        return 0.0, 0, 1.0
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    stat = float(((table - expected) ** 2 / expected).sum())
    dof = table.shape[1] - 1
    return stat, dof, chi2_sf(stat, dof)


def ks_2samp(a, b) -> tuple[float, float]:
    """Two-sample Kolmogorov–Smirnov test: ``(D, p)`` (asymptotic, two-sided)."""
    a = np.sort(np.asarray(a, dtype=float))
    b = np.sort(np.asarray(b, dtype=float))
    if len(a) == 0 or len(b) == 0:
        return 0.0, 1.0
    grid = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, grid, side="right") / len(a)
    cdf_b = np.searchsorted(b, grid, side="right") / len(b)
    d = float(np.max(np.abs(cdf_a - cdf_b)))
    en = math.sqrt(len(a) * len(b) / (len(a) + len(b)))
    return d, _kolmogorov_q((en + 0.12 + 0.11 / en) * d)


def _kolmogorov_q(lam: float) -> float:
    """Q_KS(λ) = 2 Σ (−1)^(j−1) exp(−2 j² λ²)."""
    if lam < 1e-3:
        return 1.0
    total, sign, prev = 0.0, 1.0, 0.0
    for j in range(1, 101):
        term = sign * 2.0 * math.exp(-2.0 * j * j * lam * lam)
        total += term
        if abs(term) <= 1e-10 * abs(total) or abs(term) <= 1e-12 * prev:
            return float(min(max(total, 0.0), 1.0))
        prev = abs(term)
        sign = -sign
    return 1.0  # the series did not converge: λ is tiny, the samples agree


def _gammq(a: float, x: float) -> float:
    """Regularised upper incomplete gamma ``Q(a, x)``."""
    if x < a + 1.0:
        return 1.0 - _gser(a, x)
    return _gcf(a, x)


def _gser(a: float, x: float) -> float:
    ap, total = a, 1.0 / a
    delta = total
    for _ in range(1000):
        ap += 1.0
        delta *= x / ap
        total += delta
        if abs(delta) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gcf(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
