"""Expected field scores of a group of five dice under re-throws (one field at a time).

For every group of five dice, every field and ``r`` re-throws left, :class:`Odds` holds
the expected score when the player keeps the best sub-group for that field before each
re-throw and writes the field at the end (a group that misses the field counts 0; a five
of a kind counts the field's maximum, as on the sheet). These are the numbers a planner
needs to decide which dice to keep; the ten-dice split itself is planned on top of them
(see :mod:`rules.doppelspiel.solver` and the strong bot).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import lru_cache

import numpy as np

from rules.common.vec import matmul
from rules.doppelspiel.fields import group_table
from rules.doppelspiel.spec import DoppelSpec


class Odds:
    """Expectation tables for ``spec`` with up to ``max_rolls`` re-throws.

    Attributes:
        keeps: every multiset of 0..5 dice (sorted tuples); ``keep_index`` maps them back.
        value: ``value[r]`` is ``(n_groups, n_fields)``: expected score of a group with
            ``r`` re-throws left (``value[0]`` = the score now, 0 where the group misses).
        after: ``after[r]`` is ``(n_keeps, n_fields)``: expected score after throwing the
            missing dice to a kept multiset, with ``r - 1`` re-throws left afterwards.
        best_keep: ``best_keep[r]`` is ``(n_groups, n_fields)``: index in ``keeps`` of the
            sub-group to keep with ``r`` re-throws left.
        without: ``(n_groups, faces)``: index in ``keeps`` of the group minus every die of a face.
        ten: ``ten[r]`` is the expected final face of one die for the 10er with ``r`` re-throws left
            (keep a die when its face is at least ``ten[r - 1]``).
    """

    def __init__(self, spec: DoppelSpec, max_rolls: int = 3):
        table = group_table(spec)
        size, faces = spec.group_size, spec.faces
        self.spec = spec
        self.table = table
        self.keeps = [
            k
            for n in range(size + 1)
            for k in itertools.combinations_with_replacement(range(1, faces + 1), n)
        ]
        self.keep_index = {k: i for i, k in enumerate(self.keeps)}
        n_keeps, n_groups = len(self.keeps), len(table.groups)
        trans = np.zeros((n_keeps, n_groups))
        for i, k in enumerate(self.keeps):
            missing = size - len(k)
            for o in itertools.combinations_with_replacement(range(1, faces + 1), missing):
                counts = Counter(o)
                ways = math.factorial(missing)
                for c in counts.values():
                    ways //= math.factorial(c)
                g = tuple(sorted(k + o))
                trans[i, table.index[g]] += ways / faces**missing
        sub = np.zeros((n_groups, n_keeps), dtype=bool)
        for gi, g in enumerate(table.groups):
            for n in range(size + 1):
                for k in set(itertools.combinations(g, n)):
                    sub[gi, self.keep_index[k]] = True
        v0 = np.nan_to_num(table.values, nan=0.0)
        self.value = [v0]
        self.after = [np.zeros((n_keeps, v0.shape[1]))]
        self.best_keep = [
            np.tile(np.array([self.keep_index[g] for g in table.groups])[:, None], (1, v0.shape[1]))
        ]
        for _ in range(max_rolls):
            q = matmul(trans, self.value[-1])
            masked = np.where(sub[:, :, None], q[None, :, :], -np.inf)
            self.after.append(q)
            self.best_keep.append(np.argmax(masked, axis=1))
            self.value.append(masked.max(axis=1))
        self.without = np.array(
            [
                [self.keep_index[tuple(x for x in g if x != f)] for f in range(1, faces + 1)]
                for g in table.groups
            ]
        )
        ten = [sum(range(1, faces + 1)) / faces]
        for _ in range(max_rolls):
            ten.append(sum(max(f, ten[-1]) for f in range(1, faces + 1)) / faces)
        self.ten = ten

    def keep_for(self, group: tuple[int, ...], field: int, rolls: int) -> tuple[int, ...]:
        """The sub-group of ``group`` to keep when chasing ``field`` with ``rolls`` re-throws left."""
        r = min(rolls, len(self.value) - 1)
        return self.keeps[self.best_keep[r][self.table.index[group], field]]


@lru_cache(maxsize=4)
def odds(spec: DoppelSpec) -> Odds:
    """The (cached) expectation tables of ``spec``."""
    return Odds(spec)
