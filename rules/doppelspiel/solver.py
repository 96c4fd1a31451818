"""The write solver: the best split of the ten dice into two groups and the best fields for them.

For every split of the dice (as multisets) it finds the two targets — fields to write or
strike, or Aussetzen — that maximise a linear objective: the points written plus a
per-field offset (all zero by default, so the default objective is "most points now";
a bot passes par values as negative offsets). Doublings (Joker, DOPPLER, DOPPELDOPPLER),
Zwang marks, the Aussetzen boxes and the 10er are all taken into account, exactly as
:class:`rules.doppelspiel.state.DoppelState` allows them.

:class:`WriteContext` also accepts other value tables of the same shape (e.g. expected
values after re-throws), which is how the strong bot plans its throws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.common.errors import RulesError
from rules.doppelspiel.actions import Action, FieldRef, Place, Split, WriteTen
from rules.doppelspiel.fields import GroupTable, group_table, split_groups
from rules.doppelspiel.state import DoppelState

NEG = -np.inf
SKIP = -1
NONE = -2


@dataclass(frozen=True)
class Entry:
    """One planned entry: ``group`` into ``target`` (``None`` for Aussetzen) with ``mode`` and ``value``."""

    group: tuple[int, ...]
    mode: str
    target: FieldRef | None
    value: int
    doubled: bool = False

    def __str__(self) -> str:
        g = "".join(map(str, self.group))
        if self.mode == "skip":
            return f"{g} > Aussetzen"
        if self.mode == "strike":
            return f"{g} > strike {self.target}"
        if self.target is not None and self.target.key == "ten":
            return f"all ten > {self.target} = {self.value}"
        return f"{g} > {self.target}{' x2' if self.doubled else ''} = {self.value}"


@dataclass(frozen=True)
class WritePlan:
    """A complete way to end the throwing.

    Attributes:
        actions: the actions that carry it out, in order (``Split`` + ``Place``s, or ``WriteTen``).
        entries: what goes where.
        points: points written by the plan.
        utility: the objective value (equals ``points`` for the default objective).
    """

    actions: tuple[Action, ...]
    entries: tuple[Entry, ...]
    points: int
    utility: float

    def __str__(self) -> str:
        return " + ".join(str(e) for e in self.entries) + f"  ({self.points} points)"


class WriteContext:
    """Targets and rules of the current write, for fast evaluation of many splits.

    Args:
        state: a state in phase ``throw`` or ``place``.
        offsets: ``(columns, fields)`` added to the utility of writing or striking a field.
        skip_value: utility of an Aussetzen entry.
    """

    def __init__(self, state: DoppelState, offsets: np.ndarray | None = None, skip_value: float = 0.0):
        spec = state.spec
        sheet = state.sheet
        self.state = state
        self.table: GroupTable = group_table(spec)
        marks = state.marks[state.player]
        self.forced = bool(marks)
        ten = spec.ten_index
        if self.forced:
            cells = [
                (r.column, spec.index(r.key))
                for r in marks
                if r.key != spec.fields[ten].key and sheet.is_open(r.column, spec.index(r.key))
            ]
        else:
            cells = [(c.column, c.field) for c in sheet.open_cells() if c.field != ten]
        self.cells = cells
        self.refs = [FieldRef(c, spec.fields[i].key) for c, i in cells]
        self.fidx = np.array([i for _, i in cells], dtype=np.intp)
        self.jokerable = np.array([spec.fields[i].jokerable for _, i in cells], dtype=bool)
        off = np.zeros((spec.columns, len(spec.fields))) if offsets is None else np.asarray(offsets, float)
        self.offsets = off
        self.offset = np.array([off[c, i] for c, i in cells], dtype=float)
        self.may_strike = self.forced or sheet.aussetzen >= spec.aussetzen_boxes
        self.skip_left = 0 if self.forced else spec.aussetzen_boxes - sheet.aussetzen
        self.skip_value = float(skip_value)
        self.targets = len(cells)

    # --- utility matrices ---------------------------------------------------------------
    def plain(self, values: np.ndarray, strike: bool | None = None) -> np.ndarray:
        """``(S, T)`` utility of plain entries from ``(S, fields)`` values (NaN = not writable).

        Where a group may not be written it may strike the field if ``strike`` (default:
        whether all Aussetzen boxes are used now).
        """
        v = values[:, self.fidx]
        if self.may_strike if strike is None else strike:
            v = np.where(np.isnan(v), 0.0, v)
        u = v + self.offset
        return np.where(np.isnan(u), NEG, u)

    def doubled(self, values: np.ndarray, jokers_only: bool) -> np.ndarray:
        """``(S, T)`` utility of doubled entries (only writable groups; Joker: upper/middle only)."""
        u = 2.0 * values[:, self.fidx] + self.offset
        u = np.where(np.isnan(u), NEG, u)
        if jokers_only:
            u = np.where(self.jokerable, u, NEG)
        return u

    # --- search -------------------------------------------------------------------------
    def search(
        self, va: np.ndarray, vb: np.ndarray, any_d: int, joker_d: int, fixed_order: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Best pair of entries for each split.

        Args:
            va, vb: ``(S, fields)`` values of group 1 and group 2 of each split.
            any_d, joker_d: doublings available (any field / Joker).
            fixed_order: group 1 must be placed first (matters only for one-entry writes).

        Returns:
            ``best`` ``(S,)`` utilities and ``choice`` ``(S, 5)`` rows ``(ta, da, tb, db, first)``:
            target index into :attr:`refs` (``SKIP``, ``NONE``), doubled flag, and which group
            is placed first (0 or 1).
        """
        S = va.shape[0]
        types_a = self._types(va, any_d, joker_d)
        types_b = self._types(vb, any_d, joker_d)
        cands: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        single = self.targets + self.skip_left == 1
        # the first group filling the last open field ends the turn (no Aussetzen after it)
        last_field = self.targets == 1 and not self.forced
        zeros = np.zeros(S, dtype=np.intp)
        if last_field and not single:
            for first, types in ((0, types_a), (1, types_b)):
                if first == 1 and fixed_order:
                    continue
                for (kind, _), m in types.items():
                    if m.shape[1]:
                        cands.append(_single(m[:, 0], zeros, zeros + kind, first))
        if single:
            for first, types in ((0, types_a), (1, types_b)):
                if first == 1 and fixed_order:
                    continue
                for (kind, _), m in types.items():
                    if m.shape[1]:
                        i = np.argmax(m, axis=1)
                        cands.append(_single(m[np.arange(S), i], i, zeros + kind, first))
                if self.skip_left:
                    cands.append(_single(np.full(S, self.skip_value), zeros + SKIP, zeros, first))
        else:
            for (ka, ua), ma in types_a.items():
                for (kb, ub), mb in types_b.items():
                    if ua[0] + ub[0] > any_d or ua[1] + ub[1] > joker_d:
                        continue
                    val, ia, ib = _best_distinct(ma, mb)
                    cands.append((val, ia, zeros + ka, ib, zeros + kb, zeros))
            if self.skip_left >= 1:
                # the Aussetzen entry goes first: after the last box a field may be struck
                after = self.skip_left == 1
                for side, vals in ((0, vb), (1, va)):
                    if side == 1 and fixed_order:
                        types, first = types_a, 0
                    else:
                        types, first = self._types(vals, any_d, joker_d, strike=after), side
                    for (kind, _), m in types.items():
                        if not m.shape[1]:
                            continue
                        i = np.argmax(m, axis=1)
                        val = m[np.arange(S), i] + self.skip_value
                        if side == 0:
                            cands.append((val, zeros + SKIP, zeros, i, zeros + kind, zeros))
                        elif last_field and first == 0:
                            continue  # group 1 would fill the last field and end the turn
                        else:
                            cands.append((val, i, zeros + kind, zeros + SKIP, zeros, zeros + first))
            if self.skip_left >= 2:
                cands.append(
                    (np.full(S, 2 * self.skip_value), zeros + SKIP, zeros, zeros + SKIP, zeros, zeros)
                )
        if not cands:
            return np.full(S, NEG), np.zeros((S, 5), dtype=np.intp)
        vals = np.stack([c[0] for c in cands], axis=1)
        pick = np.argmax(vals, axis=1)
        rows = np.arange(S)
        best = vals[rows, pick]
        choice = np.stack([np.stack([c[k] for c in cands], axis=1)[rows, pick] for k in range(1, 6)], axis=1)
        return best, choice

    def _types(self, values: np.ndarray, any_d: int, joker_d: int, strike: bool | None = None) -> dict:
        """Utility matrices by entry type: key ``(doubled flag, (any used, joker used))``."""
        out = {(0, (0, 0)): self.plain(values, strike)}
        if joker_d > 0:
            out[(1, (0, 1))] = self.doubled(values, jokers_only=True)
        if any_d > 0:
            out[(1, (1, 0))] = self.doubled(values, jokers_only=False)
        return out


def _single(val: np.ndarray, target: np.ndarray, kind: np.ndarray, first: int):
    """A one-entry candidate: group ``first`` goes to ``target``, the other group nowhere."""
    none = np.full_like(target, NONE)
    zero = np.zeros_like(target)
    if first == 0:
        return val, target, kind, none, zero, zero
    return val, none, zero, target, kind, zero + 1


def _best_distinct(ma: np.ndarray, mb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Best ``ma[s, i] + mb[s, j]`` with ``i != j`` per row."""
    S, T = ma.shape
    if T < 2:
        z = np.zeros(S, dtype=np.intp)
        return np.full(S, NEG), z, z
    ia = np.argsort(-ma, axis=1, kind="stable")[:, :2]
    ib = np.argsort(-mb, axis=1, kind="stable")[:, :2]
    rows = np.arange(S)
    a1, a2, b1, b2 = ia[:, 0], ia[:, 1], ib[:, 0], ib[:, 1]
    va1, va2, vb1, vb2 = ma[rows, a1], ma[rows, a2], mb[rows, b1], mb[rows, b2]
    same = a1 == b1
    alt_b = va1 + vb2
    alt_a = va2 + vb1
    use_b2 = same & (alt_b >= alt_a)
    use_a2 = same & ~use_b2
    val = np.where(same, np.maximum(alt_b, alt_a), va1 + vb1)
    ia_out = np.where(use_a2, a2, a1)
    ib_out = np.where(use_b2, b2, b1)
    return val, ia_out, ib_out


def _split_sources(state: DoppelState, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, int]:
    jokers = len(state.active_jokers)
    five_a, five_b = len(set(a)) == 1, len(set(b)) == 1
    if five_a and five_b:
        return (2, 0) if a[0] == b[0] else (1, jokers)
    return 0, jokers


def _entry(ctx: WriteContext, group: tuple[int, ...], t: int, doubled: int) -> tuple[Entry, Place]:
    if t == SKIP:
        return Entry(group, "skip", None, 0), Place("skip")
    ref = ctx.refs[t]
    value = ctx.table.values[ctx.table.index[group], ctx.fidx[t]]
    if np.isnan(value):
        return Entry(group, "strike", ref, 0), Place("strike", ref)
    v = int(value) * (2 if doubled else 1)
    return Entry(group, "write", ref, v, bool(doubled)), Place("write", ref, bool(doubled))


def _plan(ctx: WriteContext, a, b, choice, utility: float, with_split: bool) -> WritePlan:
    ta, da, tb, db, first = (int(x) for x in choice)
    groups = [(a, ta, da), (b, tb, db)]
    if first == 1:
        groups.reverse()
    entries: list[Entry] = []
    actions: list[Action] = []
    if with_split:
        actions.append(Split(groups[0][0]))
    for g, t, d in groups:
        if t == NONE:
            continue
        e, p = _entry(ctx, g, t, d)
        entries.append(e)
        actions.append(p)
    return WritePlan(tuple(actions), tuple(entries), sum(e.value for e in entries), float(utility))


def ten_plans(state: DoppelState, offsets: np.ndarray | None = None) -> list[WritePlan]:
    """The 10er writes open to the player now."""
    spec = state.spec
    out = []
    for action in state.write_starts():
        if isinstance(action, WriteTen):
            total = sum(state.thrown)
            off = 0.0 if offsets is None else float(offsets[action.column, spec.ten_index])
            ref = FieldRef(action.column, spec.fields[spec.ten_index].key)
            out.append(
                WritePlan(
                    (action,), (Entry(tuple(sorted(state.thrown)), "write", ref, total),), total, total + off
                )
            )
    return out


def best_writes(
    state: DoppelState, offsets: np.ndarray | None = None, skip_value: float = 0.0, top: int = 1
) -> list[WritePlan]:
    """The best ways to end the current throwing (phase ``throw``) or finish the write (``place``).

    Returns up to ``top`` plans, best first: the best plan per split of the dice plus the
    10er writes, by utility (points written + ``offsets``; Aussetzen counts ``skip_value``).
    """
    if state.phase not in ("throw", "place"):
        raise RulesError(f"nothing to write in phase {state.phase!r}")
    ctx = WriteContext(state, offsets, skip_value)
    table = ctx.table
    plans: list[WritePlan] = []
    if state.phase == "place":
        a, b = state.groups
        any_d, joker_d = state.doublings
        va = table.values[[table.index[a]]]
        vb = table.values[[table.index[b]]]
        if state.placed == 0:
            best, choice = ctx.search(va, vb, any_d, joker_d, fixed_order=True)
            plans.append(_plan(ctx, a, b, choice[0], best[0], with_split=False))
        else:
            types = ctx._types(vb, any_d, joker_d)
            bestv, bestc = NEG, None
            for (kind, _), m in types.items():
                if m.shape[1]:
                    i = int(np.argmax(m[0]))
                    if m[0, i] > bestv:
                        bestv, bestc = m[0, i], (i, kind)
            if ctx.skip_left and ctx.skip_value > bestv:
                bestv, bestc = ctx.skip_value, (SKIP, 0)
            assert bestc is not None  # the split was allowed only with a target for this group
            e, p = _entry(ctx, b, *bestc)
            plans.append(WritePlan((p,), (e,), e.value, float(bestv)))
        return plans
    starts = state.write_starts()
    if any(isinstance(s, Split) for s in starts):
        pairs = [(a, b) for a, b in split_groups(state.dice, state.spec.group_size) if a <= b]
        ia = np.array([table.index[a] for a, _ in pairs], dtype=np.intp)
        ib = np.array([table.index[b] for _, b in pairs], dtype=np.intp)
        any_d, joker_d = 0, len(state.active_jokers)
        best, choice = ctx.search(table.values[ia], table.values[ib], any_d, joker_d)
        for k, (a, b) in enumerate(pairs):
            src = _split_sources(state, a, b)
            if src != (any_d, joker_d):
                bk, ck = ctx.search(table.values[ia[k : k + 1]], table.values[ib[k : k + 1]], *src)
                best[k], choice[k] = bk[0], ck[0]
        order = np.argsort(-best, kind="stable")[: max(top, 1)]
        plans += [
            _plan(ctx, pairs[k][0], pairs[k][1], choice[k], best[k], with_split=True)
            for k in order
            if np.isfinite(best[k])
        ]
    plans += ten_plans(state, offsets)
    plans.sort(key=lambda p: -p.utility)
    return plans[:top]
