"""Dot products, norms and matrix products that give the same bits on every CPU.

NumPy hands ``a @ b``, ``np.dot`` and ``np.linalg.norm`` of a vector to its BLAS
(OpenBLAS in the wheels), which picks its kernels by the CPU it runs on: an AVX-512 kernel
sums in another order, or with fused multiply-adds, than an AVX2 or an SSE one, so the
last bits of a product differ between machines. A throw is chaotic after a few impacts,
so one bit in an aim or a die's pose decides a resting face: the same seed gave other
rows on another CPU (``OPENBLAS_CORETYPE`` shows it on one machine:
``tests/physics/test_cpu_independence.py``). Everything here is elementwise multiplication
and addition in a fixed order — IEEE-exact on every CPU, no BLAS.

Use these wherever a result can reach a throw, a reading, a bot's choice or a row, and take
``exp``, ``log``, ``sin`` and the like there from :mod:`math`, not from NumPy's ufuncs, whose
AVX-512 loops round otherwise than their other paths (docs/batch.md, "The same rows on every
x86 CPU"); plain ``@`` and ``np.exp`` are fine for what is only drawn or reported.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def dot(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """``a · b`` of two short vectors, summed left to right in double precision."""
    total = 0.0
    for x, y in zip(a, b, strict=True):
        total += float(x) * float(y)
    return total


def norm(a: Sequence[float] | np.ndarray) -> float:
    """The Euclidean length of a short vector: ``sqrt(a · a)``."""
    return math.sqrt(dot(a, a))


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` without BLAS: ``a`` of shape (..., K), ``b`` of shape (K, M) or (K,).

    Summed over K in order, one elementwise multiply-add a term (NumPy never fuses them):
    for the small K of poses and grids as fast as the BLAS call.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape[-1] != b.shape[0]:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not fit")
    if b.ndim == 1:
        out = a[..., 0] * b[0]
        for k in range(1, b.shape[0]):
            out = out + a[..., k] * b[k]
        return out
    out = a[..., 0:1] * b[0]
    for k in range(1, b.shape[0]):
        out = out + a[..., k : k + 1] * b[k]
    return out
