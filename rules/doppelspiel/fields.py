"""What one group of five dice is worth in each field, with the five-of-a-kind rules.

A group is a sorted tuple of face values. :func:`base_value` applies "5 Gleiche können
universell in jedes Feld (außer 10er Wurf) mit der für das jeweilige Feld höchsten
Punktzahl verwendet werden". :class:`GroupTable` holds the same numbers for every possible
group as a numpy table, for the solver and the bots.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

import numpy as np

from rules.doppelspiel.spec import DoppelSpec, FieldSpec


def as_group(values) -> tuple[int, ...]:
    """The canonical (sorted) form of a group of dice values."""
    return tuple(sorted(int(v) for v in values))


def is_five_of_a_kind(group: tuple[int, ...]) -> bool:
    """True if the group is five (``group_size``) equal dice."""
    return len(group) >= 2 and len(set(group)) == 1


def base_value(field: FieldSpec, group: tuple[int, ...]) -> int | None:
    """Score of ``group`` written into ``field`` before any doubling; ``None`` if not allowed.

    A five of a kind scores the field's maximum in every field except the 10er; any other
    group scores by the field's own requirement (:meth:`FieldSpec.natural`).
    """
    if field.is_ten:
        return field.natural(group)
    if is_five_of_a_kind(group):
        return field.max_value
    return field.natural(group)


def fives_in(dice, group_size: int = 5, limit: int = 2) -> int:
    """Disjoint fives of a kind among ``dice`` (0, 1 or 2): the Freiwurf crosses a throw earns.

    "Für jeweils 5 Gleiche ..., egal wie diese verwertet werden, darf ein Kreuz im Freiwurf
    gemacht werden"; a DOPPLER or DOPPELDOPPLER earns two.
    """
    return min(limit, sum(c // group_size for c in Counter(dice).values()))


def doppler_kind(group_a: tuple[int, ...], group_b: tuple[int, ...]) -> str | None:
    """``"doppeldoppler"`` (ten equal dice), ``"doppler"`` (two different fives of a kind) or ``None``."""
    if not (is_five_of_a_kind(group_a) and is_five_of_a_kind(group_b)):
        return None
    return "doppeldoppler" if group_a[0] == group_b[0] else "doppler"


class GroupTable:
    """Every group of five dice and its base value in every field of a column.

    Attributes:
        groups: the groups, sorted tuples, in ``itertools.combinations_with_replacement`` order.
        index: group -> row.
        values: ``(n_groups, n_fields)`` float array of :func:`base_value`, ``nan`` where the
            group may not be written; the 10er column is ``nan`` (it takes ten dice).
        five: ``(n_groups,)`` bool, the group is a five of a kind.
        counts: ``(n_groups, faces)`` int, dice of each face.
    """

    def __init__(self, spec: DoppelSpec):
        self.spec = spec
        self.groups = list(itertools.combinations_with_replacement(range(1, spec.faces + 1), spec.group_size))
        self.index = {g: i for i, g in enumerate(self.groups)}
        values = np.full((len(self.groups), len(spec.fields)), np.nan)
        for i, g in enumerate(self.groups):
            for j, f in enumerate(spec.fields):
                if f.is_ten:
                    continue
                v = base_value(f, g)
                if v is not None:
                    values[i, j] = v
        self.values = values
        self.values.setflags(write=False)
        self.five = np.array([is_five_of_a_kind(g) for g in self.groups])
        self.counts = np.array([[g.count(v) for v in range(1, spec.faces + 1)] for g in self.groups])


@lru_cache(maxsize=4096)
def _split_cache(size: int, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    counts = Counter(dice)
    values = sorted(counts)
    out = []

    def rec(i: int, left: int, chosen: list[int]) -> None:
        if i == len(values):
            if left == 0:
                a = tuple(v for v, c in zip(values, chosen) for _ in range(c))
                b = tuple(v for v, c in zip(values, chosen) for _ in range(counts[v] - c))
                out.append((a, b))
            return
        v = values[i]
        for c in range(min(counts[v], left), -1, -1):
            rec(i + 1, left - c, chosen + [c])

    rec(0, size, [])
    return tuple(out)


def split_groups(dice, size: int = 5) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every ordered split of ``dice`` into a group of ``size`` and the rest, as multisets."""
    return _split_cache(size, as_group(dice))


@lru_cache(maxsize=4)
def group_table(spec: DoppelSpec) -> GroupTable:
    """The (cached) group table of ``spec``."""
    return GroupTable(spec)
