"""The sum rule of Würfelblitz and its "Hirnverdreher" variant, with a breakdown for display.

Standard rule: add the pips of every coloured die whose colour is *not* visible as a dot
anywhere in the throw. Variant: as soon as one dot colour is visible at least twice, add
exactly the dice that normally do not count (those whose colour is visible as a dot).
A coloured die lying on its dot face shows no pips and adds 0 in either case.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.wuerfelblitz.throw import BlitzThrow


@dataclass(frozen=True)
class SumBreakdown:
    """How the correct sum of a throw comes about.

    Attributes:
        excluded: colours of the coloured dice whose colour is visible as a dot.
        reversed: True when the variant applies to this throw (a dot visible twice or more),
            so exactly the excluded dice are summed.
        counted: ``(die colour, pips)`` of the dice that are summed and show pips.
        total: the correct sum.
    """

    excluded: tuple[str, ...]
    reversed: bool
    counted: tuple[tuple[str, int], ...]
    total: int


def excluded_colours(throw: BlitzThrow) -> frozenset[str]:
    """Colours of the coloured dice that are excluded because their colour shows as a dot."""
    seen = throw.dots()
    return frozenset(c for c, _ in throw.coloured if seen[c] > 0)


def variant_applies(throw: BlitzThrow) -> bool:
    """Whether some dot colour is visible at least twice (the variant's trigger)."""
    return any(n >= 2 for n in throw.dots().values())


def breakdown(throw: BlitzThrow, variant: bool = False) -> SumBreakdown:
    """The correct sum of ``throw`` with the dice that make it up.

    Args:
        throw: the faces showing.
        variant: whether the "Hirnverdreher" variant is played.
    """
    excluded = excluded_colours(throw)
    rev = variant and variant_applies(throw)
    counted = tuple((c, f) for c, f in throw.coloured if isinstance(f, int) and ((c in excluded) == rev))
    return SumBreakdown(
        excluded=tuple(c for c, _ in throw.coloured if c in excluded),
        reversed=rev,
        counted=counted,
        total=sum(f for _, f in counted),
    )


def correct_sum(throw: BlitzThrow, variant: bool = False) -> int:
    """The number a caller must name for ``throw``."""
    return breakdown(throw, variant).total
