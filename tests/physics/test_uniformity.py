"""A symmetric die thrown from random orientations shows its six faces about equally often."""

from __future__ import annotations

import math

import numpy as np

from physics.run import run_throw
from physics.throw_model import SKILLS, Aim, aimed_throw
from rules.common.rng import make_rng
from rules.doppelx.dice import AXIS_VECTORS
from rules.doppelx.outcome import Status

THROWS = 300


def chi2_sf_5(x: float) -> float:
    """Survival function of the chi-square distribution with 5 degrees of freedom."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def test_chi2_sf_matches_known_quantiles():
    assert chi2_sf_5(11.0705) == __import__("pytest").approx(0.05, abs=1e-4)
    assert chi2_sf_5(20.515) == __import__("pytest").approx(0.001, abs=1e-5)


def test_faces_are_uniform(world_i, box):
    rng = make_rng(6)
    counts = np.zeros(6, dtype=int)
    for _ in range(THROWS):
        aim = Aim(
            (float(rng.uniform(-0.08, 0.08)), float(rng.uniform(-0.08, 0.08))), float(rng.uniform(0.1, 0.8))
        )
        r = run_throw(world_i, aimed_throw(box, aim, ["blue"], SKILLS["easy"], rng, 0.016))
        d = r.outcome.get("blue")
        if d.status is not Status.BOARD:
            continue
        up = d.pose.rotation()[2, :]  # board z in the die's frame
        counts[int(np.argmax(AXIS_VECTORS @ up))] += 1
    n = counts.sum()
    assert n > 0.8 * THROWS
    expected = n / 6
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2_sf_5(chi2) > 1e-3, f"faces {counts.tolist()} (chi² {chi2:.1f})"
