"""Seeded randomness: one ``numpy.random.Generator`` per run, children by ``spawn``.

No module uses a global RNG. The same integer seed gives the same stream; child streams
for games or workers come from :func:`child_rng` (child ``i`` of a seed is the same however
many there are), so results do not depend on how work is split across workers.
"""

from __future__ import annotations

import numpy as np


def make_rng(seed: int | np.random.SeedSequence | None) -> np.random.Generator:
    """A PCG64 generator from an integer seed (or a SeedSequence; ``None`` = fresh entropy)."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))


def child_rng(seed: int, index: int) -> np.random.Generator:
    """Generator of child ``index`` of ``seed`` (e.g. game ``index`` of a batch)."""
    return make_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def fresh_seed() -> int:
    """A seed for a game nobody asked a seed of, from the OS's entropy: at most six digits, so
    a person can read it off the screen and type it to play the same game again."""
    import random

    return random.SystemRandom().randrange(1_000_000)
