"""Würfelblitz bots: a reaction-time and error-rate model per skill level.

A bot looks at the throw and calls once. Its answer time is log-normal around a median
that grows with the work the throw needs::

    median = base_s + per_die_s * (dice showing pips + dice to add) + variant_s * [variant on]
    time   = max(min_s, median * exp(sigma * N(0, 1)))

"Dice showing pips" are the coloured dice whose dot the player must check against the
visible dots; "dice to add" are the ones that make up the sum; with the variant on, every
throw also needs a look for a doubled dot. With probability ``error_rate`` the call is
wrong, by the typical slip: one coloured die showing pips, picked at random, is treated
the wrong way (a counted die left out, or an excluded die added), so the wrong number is
``correct - pips`` or ``correct + pips``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rules.wuerfelblitz import BlitzThrow, Call, breakdown


@dataclass(frozen=True)
class BlitzSkill:
    """Parameters of one skill level (times in seconds).

    Attributes:
        name: level name used on the command line.
        base_s: median time to take in the throw and shout with nothing to add (s).
        per_die_s: median extra time per die to check and per die to add (s).
        variant_s: median extra time to look for a doubled dot when the variant is on (s).
        sigma: spread of the log-normal answer time (dimensionless).
        error_rate: probability that a call is wrong.
        min_s: no answer comes faster than this (s).
    """

    name: str
    base_s: float
    per_die_s: float
    variant_s: float
    sigma: float
    error_rate: float
    min_s: float = 0.4

    def __post_init__(self) -> None:
        if not (0.0 <= self.error_rate <= 1.0):
            raise ValueError(f"error_rate must be in [0, 1], got {self.error_rate}")
        if min(self.base_s, self.per_die_s, self.variant_s, self.sigma, self.min_s) < 0:
            raise ValueError("skill times and spread must be >= 0")


#: The skill levels, from a beginner to a practised player.
SKILLS: dict[str, BlitzSkill] = {
    "easy": BlitzSkill("easy", base_s=1.5, per_die_s=0.45, variant_s=0.8, sigma=0.45, error_rate=0.15),
    "medium": BlitzSkill("medium", base_s=1.2, per_die_s=0.32, variant_s=0.5, sigma=0.40, error_rate=0.10),
    "hard": BlitzSkill("hard", base_s=0.9, per_die_s=0.22, variant_s=0.3, sigma=0.35, error_rate=0.05),
}


def skill(name: str) -> BlitzSkill:
    """The skill level called ``name``; ``ValueError`` naming the levels otherwise."""
    try:
        return SKILLS[name]
    except KeyError:
        raise ValueError(f"unknown skill {name!r}; choose from {', '.join(SKILLS)}") from None


@dataclass(frozen=True)
class BlitzBot:
    """A caller with one skill level.

    Attributes:
        skill: its reaction-time and error model.
        name: shown in the terminal and in batch statistics.
    """

    skill: BlitzSkill
    name: str = "bot"

    def median_time(self, throw: BlitzThrow, variant: bool) -> float:
        """Median answer time for ``throw`` (s)."""
        showing = sum(1 for _, f in throw.coloured if isinstance(f, int))
        adds = len(breakdown(throw, variant).counted)
        s = self.skill
        return s.base_s + s.per_die_s * (showing + adds) + (s.variant_s if variant else 0.0)

    def call(self, player: int, throw: BlitzThrow, variant: bool, rng: np.random.Generator) -> Call | None:
        """The bot's call on ``throw`` as seat ``player``.

        Draws three numbers from ``rng`` every time (time noise, error, slipped die), so a
        bot's stream use does not depend on the throw.
        """
        noise, err, pick = rng.standard_normal(), rng.random(), rng.random()
        time = max(self.skill.min_s, self.median_time(throw, variant) * math.exp(self.skill.sigma * noise))
        bd = breakdown(throw, variant)
        value = bd.total
        if err < self.skill.error_rate:
            showing = [(c, f) for c, f in throw.coloured if isinstance(f, int)]
            if showing:
                colour, pips = showing[min(int(pick * len(showing)), len(showing) - 1)]
                counted = any(c == colour for c, _ in bd.counted)
                value = bd.total - pips if counted else bd.total + pips
            else:
                value = bd.total + 1
        return Call(player, int(value), float(time))
