"""The distribution of the correct sum: exact by enumerating every throw, and by Monte Carlo.

The exact count enumerates all ``6**(coloured dice + white dice)`` equally likely ordered
throws (10,077,696 with three white dice) with numpy integer arithmetic, so the result is
exact; probabilities are returned as :class:`fractions.Fraction`. The Monte Carlo estimate
samples throws and scores each with the engine's own :func:`correct_sum` — a separate code
path, so agreement between the two checks both.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rules.wuerfelblitz.scoring import correct_sum
from rules.wuerfelblitz.spec import BlitzSpec
from rules.wuerfelblitz.throw import sample_throw


@dataclass(frozen=True)
class SumDistribution:
    """Exact distribution of the correct sum for one set of rules.

    Attributes:
        white_dice: white dice in play (2 or 3).
        variant: whether the "Hirnverdreher" variant is played.
        counts: number of equally likely ordered throws giving each sum (only sums that occur).
        outcomes: number of equally likely ordered throws enumerated.
    """

    white_dice: int
    variant: bool
    counts: dict[int, int]
    outcomes: int

    def probability(self, total: int) -> Fraction:
        """Exact probability that the correct sum is ``total``."""
        return Fraction(self.counts.get(total, 0), self.outcomes)

    @property
    def probabilities(self) -> dict[int, Fraction]:
        return {s: Fraction(n, self.outcomes) for s, n in sorted(self.counts.items())}

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(s * n for s, n in self.counts.items()), self.outcomes)

    @property
    def mode(self) -> int:
        return max(sorted(self.counts), key=lambda s: self.counts[s])


def _coloured_tables(spec: BlitzSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per die and face: pips (0 on the dot face) and one-hot dot colour; die colour indices."""
    cidx = {c: i for i, c in enumerate(spec.colours)}
    n, k = len(spec.coloured), len(spec.colours)
    pips = np.zeros((n, 6), dtype=np.int64)
    dots = np.zeros((n, 6, k), dtype=np.int64)
    for d, die in enumerate(spec.coloured):
        for f, face in enumerate(die.faces):
            if isinstance(face, str):
                dots[d, f, cidx[face]] = 1
            else:
                pips[d, f] = face
    own = np.array([cidx[die.colour] for die in spec.coloured])
    return pips, dots, own


def exact_distribution(spec: BlitzSpec, white_dice: int, variant: bool = False) -> SumDistribution:
    """Count the correct sum over every equally likely throw of the dice in play.

    Args:
        spec: the dice.
        white_dice: white dice in play (2 or 3).
        variant: whether the "Hirnverdreher" variant is played.
    """
    pips, dots, own = _coloured_tables(spec)
    n = len(spec.coloured)
    cidx = {c: i for i, c in enumerate(spec.colours)}
    # every ordered outcome of the coloured dice: face index per die, shape (6**n, n)
    faces = np.stack(np.meshgrid(*[np.arange(6)] * n, indexing="ij"), axis=-1).reshape(-1, n)
    die = np.arange(n)
    values = pips[die, faces]  # (M, n) pips, 0 on dot faces
    dot_counts = dots[die, faces].sum(axis=1)  # (M, k) dots shown by coloured dice
    hist = np.zeros(spec.max_call + 1, dtype=np.int64)
    for white in itertools.product(spec.white_faces, repeat=white_dice):
        counts = dot_counts.copy()
        for w in white:
            counts[:, cidx[w]] += 1
        excluded = counts[:, own] > 0  # (M, n): die's colour visible as a dot
        total = np.where(excluded, 0, values).sum(axis=1)
        if variant:
            rev = (counts >= 2).any(axis=1)
            total = np.where(rev, np.where(excluded, values, 0).sum(axis=1), total)
        hist += np.bincount(total, minlength=hist.size)
    return SumDistribution(
        white_dice, variant, {s: int(c) for s, c in enumerate(hist) if c}, 6 ** (n + white_dice)
    )


def monte_carlo_counts(
    spec: BlitzSpec, white_dice: int, variant: bool, samples: int, rng: np.random.Generator
) -> Counter[int]:
    """How often each correct sum came up in ``samples`` random throws."""
    return Counter(correct_sum(sample_throw(spec, white_dice, rng), variant) for _ in range(samples))


def max_z_score(dist: SumDistribution, counts: Counter[int]) -> float:
    """Largest ``|p_mc - p| / sqrt(p (1 - p) / n)`` over all sums (``inf`` if an impossible sum came up)."""
    n = sum(counts.values())
    worst = 0.0
    for s in set(dist.counts) | set(counts):
        p = float(dist.probability(s))
        if p == 0.0:
            if counts.get(s, 0):
                return math.inf
            continue
        se = math.sqrt(p * (1 - p) / n)
        worst = max(worst, abs(counts.get(s, 0) / n - p) / se) if se > 0 else worst
    return worst


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def analysis_report(spec: BlitzSpec, samples: int, seed: int) -> dict:
    """Exact distributions for 2 and 3 white dice, standard rule and variant, each checked
    against ``samples`` Monte Carlo throws, as a JSON-ready dict.

    Case i's Monte Carlo run uses ``child_rng(seed, i)``; fractions are ``"num/den"`` strings.
    """
    from rules.common.rng import child_rng

    cases = []
    for i, (white, variant) in enumerate([(2, False), (3, False), (2, True), (3, True)]):
        dist = exact_distribution(spec, white, variant)
        counts = monte_carlo_counts(spec, white, variant, samples, child_rng(seed, i))
        p0 = dist.probability(0)
        cases.append(
            {
                "white_dice": white,
                "variant": variant,
                "outcomes": dist.outcomes,
                "p_zero": _frac(p0),
                "p_zero_float": float(p0),
                "mean": _frac(dist.mean),
                "mean_float": float(dist.mean),
                "mode": dist.mode,
                "distribution": {str(s): _frac(p) for s, p in dist.probabilities.items()},
                "monte_carlo": {
                    "samples": samples,
                    "seed": seed,
                    "counts": {str(s): n for s, n in sorted(counts.items())},
                    "p_zero": counts.get(0, 0) / samples,
                    "p_zero_stderr": math.sqrt(float(p0) * (1 - float(p0)) / samples),
                    # None would mean a sum the enumeration calls impossible came up
                    "max_abs_z": z if math.isfinite(z := max_z_score(dist, counts)) else None,
                },
            }
        )
    return {"game": "wuerfelblitz", "dice": spec.source, "cases": cases}
