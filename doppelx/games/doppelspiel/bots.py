"""Bots for Das Doppel Spiel: a uniformly random legal bot and a strong solver-driven bot.

The strong bot judges an entry by its points minus the field's *par* (the score the field
typically gets in good play), so it writes where the throw is relatively good and sets a
poor group aside. To decide which dice to throw again it plans the split of the ten dice
and the two target fields on the expected scores after the re-throws left
(:class:`rules.doppelspiel.odds.Odds`), keeps the dice that plan wants and throws the rest.
Free throws, Wiederholen and Tauschen are used when their estimated gain passes a margin;
a ready Joker is activated while upper/middle fields are open; a ready Zwang marks the
opponent's two fields with the highest par.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from rules.doppelspiel.actions import (
    Action,
    ActivateJoker,
    FieldRef,
    FreeThrow,
    Pass,
    Repeat,
    Roll,
    Swap,
    Zwang,
)
from rules.doppelspiel.fields import split_groups
from rules.doppelspiel.odds import odds
from rules.doppelspiel.solver import NONE, WriteContext, best_writes
from rules.doppelspiel.state import DoppelState

#: Typical score of each field in good play (calibrated by strong-bot self-play).
PAR: dict[str, float] = {
    "116": 18.4,
    "225": 19.7,
    "334": 21.3,
    "443": 22.4,
    "552": 24.2,
    "661": 25.3,
    "ten": 49.6,
    "1s": 2.9,
    "2s": 6.5,
    "3s": 11.8,
    "4s": 16.5,
    "5s": 22.9,
    "6s": 29.3,
    "3k": 29.1,
    "4k": 25.7,
    "fh": 24.6,
    "ss": 29.5,
    "ls": 39.0,
    "5k": 51.4,
    "ch": 28.7,
}
#: Utility of setting a group aside (Aussetzen); negative because the boxes are few.
SKIP_VALUE = -4.0
#: Least estimated gain for which the bot uses an extra.
SWAP_MIN = 9.0
FREE_MIN = 3.0
REPEAT_MIN = 5.0


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, state: DoppelState, rng: np.random.Generator) -> Action:
        """One uniformly random legal action."""
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))]


class StrongBot:
    """Plans splits, fields and re-throws with the write solver and the expectation tables.

    Args:
        par: par score per field key (default :data:`PAR`).
    """

    name = "strong"

    def __init__(self, par: dict[str, float] | None = None):
        self.par = dict(PAR if par is None else par)

    def _offsets(self, state: DoppelState) -> np.ndarray:
        """``(columns, fields)`` utility offsets: minus each field's par."""
        spec = state.spec
        row = np.array([-self.par.get(f.key, 0.0) for f in spec.fields])
        return np.tile(row, (spec.columns, 1))

    def act(self, state: DoppelState, rng: np.random.Generator) -> Action:
        """The bot's action for the player to decide (``rng`` is not needed; kept for the common API)."""
        phase = state.phase
        if phase == "start":
            return self._start(state)
        if phase == "throw":
            return self._throw(state)
        if phase == "place":
            return best_writes(state, self._offsets(state), SKIP_VALUE)[0].actions[0]
        if phase == "zwang":
            return self._zwang(state)
        raise ValueError(f"no decision in phase {state.phase!r}")

    # --- turn start ---------------------------------------------------------------------
    def _start(self, state: DoppelState) -> Action:
        spec, sheet = state.spec, state.sheet
        if not state.active_jokers:
            open_jokerable = sum(1 for c in sheet.open_cells() if spec.fields[c.field].jokerable)
            for a in state.legal_actions():
                if isinstance(a, ActivateJoker) and open_jokerable > 0:
                    return a
        return Roll(tuple(range(spec.dice)))

    # --- throwing -----------------------------------------------------------------------
    def _plan(self, state: DoppelState, ctx: WriteContext, values: np.ndarray, dice: tuple[int, ...]):
        """Best split and targets of ``dice`` on value table ``values``: (utility, a, b, choice)."""
        table = ctx.table
        pairs = [(a, b) for a, b in split_groups(dice, state.spec.group_size) if a <= b]
        ia = np.array([table.index[a] for a, _ in pairs], dtype=np.intp)
        ib = np.array([table.index[b] for _, b in pairs], dtype=np.intp)
        best, choice = ctx.search(values[ia], values[ib], 0, len(state.active_jokers))
        k = int(np.argmax(best))
        return float(best[k]), pairs[k][0], pairs[k][1], choice[k]

    def _ten_option(self, state: DoppelState, offsets: np.ndarray, rolls: int) -> tuple[float, int] | None:
        """Best 10er column and its expected utility with ``rolls`` re-throws, if a 10er may be written."""
        spec, sheet = state.spec, state.sheet
        ten = spec.ten_index
        marks = state.marks[state.player]
        cols = [c for c in range(spec.columns) if sheet.is_open(c, ten)]
        if marks:
            cols = [c for c in cols if marks == (FieldRef(c, spec.fields[ten].key),)]
        if not cols:
            return None
        o = odds(spec)
        r = min(rolls, len(o.ten) - 1)
        keep_at = o.ten[r - 1] if r > 0 else 0.0
        expect = (
            sum(d if d >= keep_at else o.ten[r - 1] for d in state.thrown) if r > 0 else sum(state.thrown)
        )
        c = max(cols, key=lambda c: offsets[c, ten])
        return expect + offsets[c, ten], c

    def _throw(self, state: DoppelState) -> Action:
        spec, sheet = state.spec, state.sheet
        offsets = self._offsets(state)
        ctx = WriteContext(state, offsets, SKIP_VALUE)
        o = odds(spec)
        now = best_writes(state, offsets, SKIP_VALUE)[0]
        rolls = spec.throws_per_turn - state.throws
        splittable = ctx.targets + ctx.skip_left > 0 and len(state.marks[state.player]) != 1
        if rolls > 0:
            reroll = self._reroll(state, ctx, o, min(rolls, 3), offsets, splittable)
            if reroll:
                return Roll(reroll)
        # extras, then write
        swap = self._best_swap(state, ctx, now.utility) if splittable else None
        if swap is not None:
            return swap
        if sheet.free_available() > 0:
            reroll = self._reroll(state, ctx, o, 1, offsets, splittable, baseline=now.utility + FREE_MIN)
            if reroll:
                return FreeThrow(reroll)
        if splittable:
            rep = self._best_repeat(state, ctx, o, now.utility)
            if rep is not None:
                return rep
        return now.actions[0]

    def _reroll(
        self,
        state: DoppelState,
        ctx: WriteContext,
        o,
        rolls: int,
        offsets: np.ndarray,
        splittable: bool,
        baseline: float | None = None,
    ) -> tuple[int, ...]:
        """Positions to throw again with ``rolls`` re-throws planned; empty to stop."""
        dice = state.thrown
        best = -np.inf
        keep: Counter = Counter(dice)
        if splittable:
            util, a, b, choice = self._plan(state, ctx, o.value[rolls], dice)
            ta, _, tb, _, _ = (int(x) for x in choice)
            kept: Counter = Counter()
            for g, t in ((a, ta), (b, tb)):
                if t >= 0:
                    kept.update(o.keep_for(g, int(ctx.fidx[t]), rolls))
                elif t == NONE:
                    kept.update(g)
            best, keep = util, kept
        ten = self._ten_option(state, offsets, rolls)
        if ten is not None and ten[0] > best:
            threshold = o.ten[rolls - 1]
            best, keep = ten[0], Counter(d for d in dice if d >= threshold)
        if baseline is not None and best < baseline:
            return ()
        need = Counter(keep)
        out = []
        for i, d in enumerate(dice):
            if need[d] > 0:
                need[d] -= 1
            else:
                out.append(i)
        return tuple(out)

    def _best_swap(self, state: DoppelState, ctx: WriteContext, now: float) -> Action | None:
        sheet, dice = state.sheet, state.thrown
        faces = range(1, state.spec.faces + 1)
        free = [f for f in faces if f not in sheet.swaps]
        if len(free) < 2:
            return None
        best_gain, best_action = SWAP_MIN, None
        for i, old in enumerate(dice):
            if old not in free or old in dice[:i]:
                continue
            for new in free:
                if new == old:
                    continue
                swapped = dice[:i] + (new,) + dice[i + 1 :]
                util = self._exact(state, ctx, swapped)
                if util - now > best_gain:
                    best_gain, best_action = util - now, Swap(i, new)
        return best_action

    def _exact(self, state: DoppelState, ctx: WriteContext, dice: tuple[int, ...]) -> float:
        table = ctx.table
        pairs = [(a, b) for a, b in split_groups(dice, state.spec.group_size) if a <= b]
        ia = np.array([table.index[a] for a, _ in pairs], dtype=np.intp)
        ib = np.array([table.index[b] for _, b in pairs], dtype=np.intp)
        best, _ = ctx.search(table.values[ia], table.values[ib], 0, len(state.active_jokers))
        for k, (a, b) in enumerate(pairs):
            if len(set(a)) == 1 and len(set(b)) == 1:
                src = (2, 0) if a[0] == b[0] else (1, len(state.active_jokers))
                bk, _ = ctx.search(table.values[ia[k : k + 1]], table.values[ib[k : k + 1]], *src)
                best[k] = bk[0]
        return float(best.max())

    def _best_repeat(self, state: DoppelState, ctx: WriteContext, o, now: float) -> Action | None:
        sheet, dice = state.sheet, state.thrown
        table = ctx.table
        pairs = [(a, b) for a, b in split_groups(dice, state.spec.group_size) if a <= b]
        ia = np.array([table.index[a] for a, _ in pairs], dtype=np.intp)
        ib = np.array([table.index[b] for _, b in pairs], dtype=np.intp)
        best_gain, best_action = REPEAT_MIN, None
        for f in sorted(set(dice)):
            if f in sheet.repeats:
                continue
            va = o.after[1][o.without[ia, f - 1]]
            vb = o.after[1][o.without[ib, f - 1]]
            best, _ = ctx.search(va, vb, 0, len(state.active_jokers))
            gain = float(best.max()) - now
            if gain > best_gain:
                best_gain, best_action = gain, Repeat(f)
        return best_action

    # --- Zwang --------------------------------------------------------------------------
    def _zwang(self, state: DoppelState) -> Action:
        spec = state.spec
        opp = state.sheets[1 - state.player]
        squares = []
        for cell in opp.open_cells():
            f = spec.fields[cell.field]
            if f.has_square and not f.is_ten:
                squares.append((self.par.get(f.key, 0.0), FieldRef(cell.column, f.key)))
        squares.sort(key=lambda x: (-x[0], x[1]))
        if len(squares) >= 2:
            return Zwang((squares[0][1], squares[1][1]))
        tens = [
            FieldRef(c.column, spec.fields[c.field].key)
            for c in opp.open_cells()
            if spec.fields[c.field].is_ten
        ]
        if tens:
            return Zwang((tens[0],))
        return Pass()


BOTS = {"random": RandomBot, "strong": StrongBot}


def make_bot(name: str):
    """A bot by name (``random`` or ``strong``)."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
