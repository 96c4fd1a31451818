"""Same seed, same rows and games on every CPU: results do not depend on the BLAS kernel
nor on NumPy's SIMD paths.

NumPy's OpenBLAS picks its kernels by the CPU (an AVX-512 machine sums a dot product
otherwise than an AVX2 or an SSE one), and a throw is chaotic: one last bit in an aim or a
pose decides a face. ``OPENBLAS_CORETYPE`` makes OpenBLAS use another CPU's kernels on this
one, and ``NPY_DISABLE_CPU_FEATURES`` keeps NumPy's own loops to its SSE baseline, so each run below
stands for a machine of that kind; before ``rules.common.vec`` the batch rows and the bots'
game differed between the kernels (issue 33's "same seed, same rows"). Not covered: a CPU
without FMA (x86 before 2013), on which glibc's maths library takes other paths.
"""

from __future__ import annotations

import json
import platform
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.helpers.cli import run_doppelx

REPO = Path(__file__).resolve().parents[2]


def _kernels() -> list[str]:
    """OpenBLAS kernels this CPU can run: SSE3 always, AVX2 and AVX-512 when it has them."""
    if platform.machine() != "x86_64":
        return []
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        return []
    kernels = ["Prescott"]
    if {"avx2", "fma"} <= flags:
        kernels.append("Haswell")
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"} <= flags:
        kernels.append("SkylakeX")
    return kernels


def _numpy_dispatch() -> list[str]:
    """NumPy's SIMD targets above its baseline that this CPU has (AVX2, AVX-512, …)."""
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # NumPy 1.x
        from numpy.core import _multiarray_umath as umath  # type: ignore[no-redef]
    found = umath.__cpu_features__
    return [f for f in umath.__cpu_dispatch__ if found.get(f)]


#: Each run's environment: one per OpenBLAS kernel, and NumPy's loops kept to its baseline.
KERNELS = _kernels()
VARIANTS = {k: {"OPENBLAS_CORETYPE": k} for k in KERNELS}
if KERNELS and _numpy_dispatch():
    VARIANTS["numpy-baseline-simd"] = {"NPY_DISABLE_CPU_FEATURES": " ".join(_numpy_dispatch())}
pytestmark = pytest.mark.skipif(
    len(KERNELS) < 2, reason="needs an x86_64 Linux CPU that runs two of OpenBLAS's kernels"
)


def _run(variant: str, *args: str) -> subprocess.CompletedProcess:
    return run_doppelx(list(args), env=VARIANTS[variant], timeout=600)


@pytest.mark.parametrize(
    ("board", "policy"),
    [("III", "greedy"), ("IV", "field:2x")],
    ids=["side III greedy", "side IV field:2x"],
)
def test_a_batch_gives_the_same_rows_whatever_blas_kernel_the_cpu_picks(tmp_path, board, policy):
    """Six dice lying, an aim from a smoothed value map (matrix products and a Gaussian kernel;
    on side IV the map for 2x has exact ties, so one last bit moved the aim), the world's
    hulls, every die read: the rows and tidy tables, bit for bit."""
    tables = {}
    for variant in VARIANTS:
        out = tmp_path / variant
        done = _run(
            variant,
            "simulate",
            "throws",
            "--board",
            board,
            "--policy",
            policy,
            "--lying",
            "6",
            "--throws",
            "8",
            "--seed",
            "1",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(out),
        )
        assert done.returncode == 0, done.stderr[-2000:]
        tables[variant] = [
            pq.read_table(out / name).to_pylist() for name in ("throws.parquet", "dice", "bets")
        ]
    first = tables[KERNELS[0]]
    assert len(first[0]) == 8 and len(first[1]) == 8 * 8
    for variant in list(VARIANTS)[1:]:
        assert tables[variant] == first, f"{variant} rows differ from {KERNELS[0]}'s"


def test_a_bots_game_is_the_same_whatever_blas_kernel_the_cpu_picks():
    """An expert (its planner's rollouts and values), a medium and a hard bot on side III
    with the spinner: the same throws, readings and chips, bit for bit."""
    games = {}
    for kernel in VARIANTS:
        done = _run(
            kernel,
            "game",
            "--players",
            "3",
            "--board",
            "III",
            "--seed",
            "2",
            "--skills",
            "expert,medium,hard",
            "--think",
            "12",
            "--max-throws",
            "30",
            "--json",
        )
        # 30 throws are not a whole game: it stops with exit 2 after printing them
        assert done.returncode in (0, 2) and done.stdout, done.stderr[-2000:]
        games[kernel] = json.loads(done.stdout)
    first = games[KERNELS[0]]
    assert len(json.dumps(first)) > 1000
    for kernel in list(VARIANTS)[1:]:
        assert games[kernel] == first, f"{kernel}'s game differs from {KERNELS[0]}'s"
