"""Bots for Doppelt so clever: a random legal player and a strong player.

The strong bot values a sheet by *projecting* each area's final score: its points now
plus what its open boxes are expected to bring with the player's remaining entries
(:class:`Evaluator`). The hand-made value is the sum of the projections, plus the foxes
times the lowest projection (foxes pay the weakest area), plus the actions held; a
linear correction on sheet features (:data:`FITTED_WEIGHTS`, fitted on the bot's own solo
games by ``benchmarks/clever_fit.py``) is added. Every decision takes the option with the
best value. In an active turn the value of the picks still to come is added (more dice
left in hand is worth more), the best few picks are re-judged by sampling the next roll
of the dice they leave in hand, a reroll is judged by sampling rerolls, and the free "?"
bonuses an entry earns are valued by their best resolution.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from rules.clever.actions import PASS, REROLL, ROLL, Action
from rules.clever.game import ACTIVE_PICK, BEFORE_ROLL, PLUS_ONE, CleverState, die_usages
from rules.clever.sheet import AREA_OF_FREE, Sheet
from rules.clever.spec import CleverSpec
from rules.common.errors import RulesError

# P(blue + white <= v) for v = 0..12.
_SUM_CDF = [0.0, 0.0] + [
    sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= v) / 36 for v in range(2, 13)
]


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, rng: np.random.Generator | int | None = None):
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    def choose(self, state: CleverState) -> Action:
        legal = state.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]


@dataclass(frozen=True)
class StrongParams:
    """Weights of the strong bot's evaluation (points, or shares of remaining entries).

    Attributes:
        share: share of the player's remaining entries each area is expected to get.
        pink_mean: expected value of a future pink entry.
        pink_hit: chance that a future pink entry reaches a box's threshold, by threshold.
        blue_boost: exponent turning P(blue + white <= last) into a fill rate (choice helps).
        green_high / green_low: expected die value in the first / second box of a pair.
        yellow_avail: fraction of yellow entries that find their number.
        silver_marks: silver marks per silver entry (platter marks included).
        col_chance: chance to complete a silver column / yellow row-column by marks
            (circles) still missing, index = missing count.
        bonus: value of each bonus in points (fox: value of a future fox).
        hold: value of an action held (reroll, return, plus1) at the start of the game.
        pick_value: value of one more pick in the current turn, by dice left in hand.
        reroll_samples: sampled rerolls when deciding whether to reroll.
        lookahead_top: best picks re-judged by sampling the next roll of the dice they leave
            in hand (1: no lookahead).
        lookahead_samples: sampled next rolls per re-judged pick.
    """

    share: dict[str, float] = field(
        default_factory=lambda: {"silver": 0.24, "yellow": 0.30, "blue": 0.26, "green": 0.24, "pink": 0.24}
    )
    pink_mean: float = 4.2
    pink_hit: tuple[float, ...] = (1.0, 1.0, 0.95, 0.85, 0.7, 0.5, 0.3)
    blue_boost: float = 0.45
    green_high: float = 5.0
    green_low: float = 1.8
    yellow_avail: float = 0.8
    silver_marks: float = 1.6
    col_chance: tuple[float, ...] = (1.0, 0.55, 0.3, 0.12, 0.04, 0.0)
    bonus: dict[str, float] = field(
        default_factory=lambda: {
            "reroll": 3.0,
            "return": 3.0,
            "plus1": 6.0,
            "fox": 18.0,
            "?silver": 6.0,
            "?yellow": 8.0,
            "?blue": 7.0,
            "?green": 7.0,
            "?pink": 8.0,
            "?any": 9.0,
            "": 0.0,
        }
    )
    hold: dict[str, float] = field(default_factory=lambda: {"reroll": 3.0, "return": 3.0, "plus1": 6.0})
    pick_value: tuple[float, ...] = (0.0, 4.0, 6.0, 7.0, 7.5, 8.0, 8.0)
    reroll_samples: int = 8
    lookahead_top: int = 3
    lookahead_samples: int = 10
    fox_weight: float = 1.0


class Evaluator:
    """Projected final scores and the value of a sheet (see the module docstring)."""

    def __init__(self, spec: CleverSpec, params: StrongParams, weights: Sequence[float] | None = None):
        self.spec = spec
        self.p = params
        self.weights = weights
        self.want_features = False
        b = dict(params.bonus, fox=0.0)
        self.pink_box = [
            params.pink_mean + b[spec.pink_bonuses[i]] * params.pink_hit[spec.pink_thresholds[i]]
            for i in range(spec.boxes)
        ]
        self.pink_fox = [
            params.pink_hit[spec.pink_thresholds[i]] if spec.pink_bonuses[i] == "fox" else 0.0
            for i in range(spec.boxes)
        ]
        self.blue_box = [
            spec.blue_points[i + 1] - spec.blue_points[i] + b[spec.blue_bonuses[i]] for i in range(spec.boxes)
        ]
        self.blue_fox = [1.0 if x == "fox" else 0.0 for x in spec.blue_bonuses]
        self.blue_rate = [min(1.0, c**params.blue_boost) for c in _SUM_CDF]
        m = spec.green_multipliers
        self.green_box = [b[x] for x in spec.green_bonuses]
        self.green_fox = [1.0 if x == "fox" else 0.0 for x in spec.green_bonuses]
        self.green_pair = [
            m[i] * params.green_high - m[i + 1] * params.green_low for i in range(0, spec.boxes, 2)
        ]
        self.bonus = b

    @staticmethod
    def _fill(
        per_box: Sequence[float], fox: Sequence[float], start: int, count: float
    ) -> tuple[float, float]:
        """Sums of ``per_box`` and ``fox`` over ``count`` boxes from ``start`` (the last one fractional)."""
        total, foxes, i = 0.0, 0.0, start
        while count > 0 and i < len(per_box):
            w = min(1.0, count)
            total += per_box[i] * w
            foxes += fox[i] * w
            count -= 1.0
            i += 1
        return total, foxes

    def projections(self, sheet: Sheet, remaining: float) -> tuple[dict[str, float], float]:
        """Each area's points now plus its expected gain from ``remaining`` future entries,
        and the number of foxes still expected."""
        p, spec = self.p, self.spec
        b = self.bonus
        out: dict[str, float] = dict(sheet.area_scores())
        share = p.share
        tau = min(1.0, remaining / 24.0)
        cc = p.col_chance
        # pink
        fut, fox = self._fill(self.pink_box, self.pink_fox, len(sheet.pink), share["pink"] * remaining)
        out["pink"] += fut
        # blue
        last = sheet.blue[-1] if sheet.blue else 12
        fut, f = self._fill(
            self.blue_box, self.blue_fox, len(sheet.blue), share["blue"] * remaining * self.blue_rate[last]
        )
        out["blue"] += fut
        fox += f
        # green
        g = sheet.green
        n = share["green"] * remaining
        fut = 0.0
        mult = spec.green_multipliers
        start = len(g)
        if start % 2 == 1 and start < spec.boxes:
            reach = min(1.0, n)
            fut += reach * (g[-1] * mult[start - 1] - p.green_low * mult[start] + self.green_box[start])
            fox += reach * self.green_fox[start]
            n -= 1.0
            start += 1
        while n > 0 and start < spec.boxes:
            part = min(1.0, n / 2.0)
            fut += part * (self.green_pair[start // 2] + self.green_box[start] + self.green_box[start + 1])
            fox += part * (self.green_fox[start] + self.green_fox[start + 1])
            n -= 2.0
            start += 2
        out["green"] += fut
        # yellow
        ys = sheet.yellow
        crosses = ys.count(2)
        circled = ys.count(1)
        empty = len(ys) - crosses - circled
        n = share["yellow"] * remaining * p.yellow_avail
        x1 = min(circled, n)
        x2 = min(empty, (n - x1) / 2.0)
        pts = spec.yellow_points
        target = crosses + x1 + x2
        lo = int(target)
        fut = pts[lo] + (target - lo) * (pts[min(lo + 1, len(pts) - 1)] - pts[lo]) - pts[crosses]
        for groups, bonuses in (
            (spec.yellow_rows, spec.yellow_row_bonuses),
            (spec.yellow_columns, spec.yellow_column_bonuses),
        ):
            for idx, bonus in zip(groups, bonuses):
                missing = sum(1 for i in idx if not ys[i])
                if missing:
                    chance = tau * cc[min(missing, len(cc) - 1)]
                    fut += chance * b[bonus]
                    if bonus == "fox":
                        fox += chance
        out["yellow"] += fut
        # silver
        marks = share["silver"] * remaining * p.silver_marks / 4.0
        sp = spec.silver_points
        fut = 0.0
        for row in sheet.silver:
            c = row.bit_count()
            t = min(6.0, c + marks)
            lo = int(t)
            fut += sp[lo] + (t - lo) * (sp[min(lo + 1, 6)] - sp[lo]) - sp[c]
        for v in range(6):
            bit = 1 << v
            missing = sum(1 for row in sheet.silver if not row & bit)
            if missing:
                chance = tau * cc[min(missing, len(cc) - 1)]
                bonus = spec.silver_column_bonuses[v]
                fut += chance * b[bonus]
                if bonus == "fox":
                    fox += chance
        out["silver"] += fut
        return out, fox

    def heuristic(
        self, sheet: Sheet, remaining: float, proj: dict[str, float] | None = None, fox: float = 0.0
    ) -> float:
        """The hand-made value: projected areas, foxes at the lowest projection, actions held."""
        if proj is None:
            proj, fox = self.projections(sheet, remaining)
        tau = min(1.0, remaining / 24.0)
        hold = self.p.hold
        return (
            sum(proj.values())
            + (sheet.foxes + self.p.fox_weight * fox) * min(proj.values())
            + tau * (sheet.rerolls * hold["reroll"] + sheet.returns * hold["return"])
            + sheet.plus_ones * hold["plus1"] * max(tau, 0.25)
        )

    def pick_value(self, hand: int, picks_left: int) -> float:
        """Value of the picks still to come in this turn with ``hand`` dice left to roll."""
        pv = self.p.pick_value
        return sum(pv[min(max(0, hand - j), len(pv) - 1)] for j in range(picks_left))

    def features(
        self, sheet: Sheet, remaining: float, proj: dict[str, float], fox: float, hand: int, picks_left: int
    ) -> list[float]:
        """Inputs of the fitted correction: sheet progress, projections, time and turn context."""
        tau = min(1.0, remaining / 24.0)
        scores = sheet.area_scores()
        low = min(proj.values())
        ordered = sorted(proj.values())
        ys = sheet.yellow
        g = sheet.green
        open_pair = float(len(g) % 2)
        first = g[-1] * self.spec.green_multipliers[len(g) - 1] if open_pair else 0.0
        silver_marks = sum(row.bit_count() for row in sheet.silver)
        out = [1.0, tau, tau * tau]
        for a in self.spec.areas:
            fut = (proj[a] - scores[a]) / 50.0
            out += [scores[a] / 50.0, fut, fut * tau]
        spec = self.spec
        near_rows = sum(1 for idx in spec.yellow_rows if sum(1 for i in idx if not ys[i]) == 1)
        near_cols = sum(1 for idx in spec.yellow_columns if sum(1 for i in idx if not ys[i]) == 1)
        col_marks = [sum(1 for row in sheet.silver if row & (1 << v)) for v in range(6)]
        last = sheet.blue[-1] if sheet.blue else 12
        nxt = len(sheet.pink)
        out += [
            sheet.foxes,
            fox,
            sheet.foxes * low / 50.0,
            fox * low / 50.0,
            low / 50.0,
            ordered[1] / 50.0,
            sheet.foxes * tau,
            sheet.rerolls * tau,
            sheet.returns * tau,
            sheet.plus_ones,
            sheet.plus_ones * tau,
            sheet.rerolls * tau * tau,
            sheet.returns * tau * tau,
            ys.count(1) / 5.0,
            ys.count(2) / 5.0,
            ys.count(1) * tau / 5.0,
            near_rows,
            near_cols,
            len(sheet.blue) / 6.0,
            last / 6.0,
            last * tau / 6.0,
            (spec.boxes - len(sheet.blue)) * self.blue_rate[last] * tau / 6.0,
            len(g) / 6.0,
            open_pair,
            first / 10.0,
            first * tau / 10.0,
            len(sheet.pink) / 6.0,
            len(sheet.pink) * tau / 6.0,
            (spec.pink_thresholds[nxt] if nxt < spec.boxes else 0) / 6.0,
            silver_marks / 12.0,
            silver_marks * tau / 12.0,
            sum(row.bit_count() ** 2 for row in sheet.silver) / 50.0,
            col_marks.count(3),
            col_marks.count(4),
            max(row.bit_count() for row in sheet.silver) / 6.0,
            hand / 3.0,
            picks_left,
            hand * picks_left / 3.0,
        ]
        return out

    def value(
        self, sheet: Sheet, remaining: float, hand: int = 0, picks_left: int = 0
    ) -> tuple[float, float, list[float] | None]:
        """``(value, base, features)``: ``base`` is the heuristic plus the turn's remaining picks,
        ``value`` adds the fitted correction ``weights . features``; ``features`` is ``None``
        unless there are weights or :attr:`want_features` is set (for fitting)."""
        proj, fox = self.projections(sheet, remaining)
        base = self.heuristic(sheet, remaining, proj, fox) + self.pick_value(hand, picks_left)
        if self.weights is None and not self.want_features:
            return base, base, None
        phi = self.features(sheet, remaining, proj, fox, hand, picks_left)
        if self.weights is None:
            return base, base, phi
        return base + sum(w * f for w, f in zip(self.weights, phi)), base, phi


def remaining_entries(state: CleverState, player: int) -> float:
    """Entries ``player`` can still expect after the current turn's picks (rounds, passive picks, +1s)."""
    n = state.num_players
    rounds_left = state.game.rounds - state.round
    if n == 1:
        future = rounds_left * 4 + (0 if state.solo_passive else 1)
    else:
        future = rounds_left * (3 + (n - 1))
        for seat in range(state.active + 1, n):
            future += 3 if seat == player else 1
    return future + state.sheets[player].plus_ones


class StrongBot:
    """Heuristic player: best option by projected sheet value (see :class:`Evaluator`).

    Args:
        params: evaluation weights.
        rng: generator for the sampled rolls of its lookahead (seeded: reproducible games).
        weights: the fitted correction (default: :data:`FITTED_WEIGHTS`; ``()`` for none).
    """

    name = "strong"

    def __init__(
        self,
        params: StrongParams | None = None,
        rng: np.random.Generator | int | None = None,
        weights: Sequence[float] | None = None,
    ):
        self.params = params or StrongParams()
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.weights = FITTED_WEIGHTS if weights is None else (tuple(weights) or None)
        self.record: list | None = None
        self._ev: Evaluator | None = None

    # ------------------------------------------------------------------ valuation
    @property
    def _live_ev(self) -> Evaluator:
        """The evaluator :meth:`choose` set up for the game being played."""
        assert self._ev is not None, "choose() sets the evaluator up first"
        return self._ev

    def _evaluator(self, spec: CleverSpec) -> Evaluator:
        if self._ev is None or self._ev.spec is not spec:
            self._ev = Evaluator(spec, self.params, self.weights)
            self._ev.want_features = self.record is not None
        return self._ev

    def _option(
        self,
        values: dict,
        sheet: Sheet,
        area: str,
        value: int,
        slot: int | None,
        remaining: float,
        sent: Sequence[str] = (),
        hand_left: int = 0,
        picks_left: int = 0,
    ) -> tuple[float, float, list[float] | None, Sheet, float]:
        """``(value, base, features, sheet after, gain of "?" bonuses)`` of entering ``(area, value,
        slot)`` on a copy of ``sheet``, with the platter marks of ``sent`` (dice showing ``values``)
        and the best resolution of the "?" bonuses earned."""
        ev = self._live_ev
        spec = ev.spec
        after = sheet.copy()
        free = after.enter(area, value, slot)
        for die in sent:
            face = values[die]
            rows = (spec.silver_rows.index(die),) if die in spec.silver_rows else range(4)
            best, best_row = None, None
            for r in rows:
                if after.can_enter("silver", face, r):
                    trial = after.copy()
                    trial.enter("silver", face, r)
                    v = ev.value(trial, remaining, hand_left, picks_left)[0]
                    if best is None or v > best:
                        best, best_row = v, r
            if best_row is not None:
                free += after.enter("silver", face, best_row)
        v, base, phi = ev.value(after, remaining, hand_left, picks_left)
        gain = sum(self._free_gain(after, b, remaining, v, hand_left, picks_left) for b in free)
        return v + gain, base + gain, phi, after, gain

    def _free_gain(
        self, sheet: Sheet, bonus: str, remaining: float, now: float, hand: int, picks_left: int
    ) -> float:
        """Gain of resolving free bonus ``bonus`` at its best (one level deep)."""
        ev = self._live_ev
        area = AREA_OF_FREE.get(bonus)
        areas = ev.spec.areas if area is None else (area,)
        best = 0.0
        for a in areas:
            for value, slot in sheet.free_entries(a):
                trial = sheet.copy()
                more = trial.enter(a, value, slot)
                gain = (
                    ev.value(trial, remaining, hand, picks_left)[0]
                    - now
                    + sum(self.params.bonus[m] for m in more)
                )
                best = max(best, gain)
        return best

    def _picks(
        self, sheet: Sheet, values: dict, hand: Sequence[str], picks_left: int, remaining: float
    ) -> list[tuple]:
        """Every pick from ``hand`` and the forfeit, as ``(value, base, features, action, sheet after,
        hand after, "?" gain)``; ``picks_left`` counts the picks after this one."""
        out = []
        for die in hand:
            face = values[die]
            rest = [d for d in hand if d != die and values[d] >= face]
            sent = [d for d in hand if values[d] < face]
            for area, value in die_usages(die, values):
                for slot in sheet.slots(area, value):
                    v, base, phi, after, gain = self._option(
                        values,
                        sheet,
                        area,
                        value,
                        slot,
                        remaining,
                        sent if area == "silver" else (),
                        len(rest),
                        picks_left,
                    )
                    out.append((v, base, phi, Action("choose", die, area, value, slot), after, rest, gain))
        v, base, phi = self._live_ev.value(sheet, remaining, len(hand), picks_left)
        out.append((v, base, phi, PASS, sheet, list(hand), 0.0))
        return out

    def _sample_faces(self, count: int) -> list[dict]:
        """``count`` random faces for all six dice (shared by every option compared)."""
        dice = self._live_ev.spec.dice
        rolls = self.rng.integers(1, 7, size=(count, len(dice)))
        return [dict(zip(dice, (int(v) for v in row))) for row in rolls]

    def _next_roll_value(
        self,
        sheet: Sheet,
        values: dict,
        hand: Sequence[str],
        picks_left: int,
        remaining: float,
        samples: list[dict],
    ) -> float:
        """Mean over ``samples`` of the best pick when ``hand`` is rolled next."""
        total = 0.0
        for faces in samples:
            rolled = dict(values)
            for d in hand:
                rolled[d] = faces[d]
            total += max(o[0] for o in self._picks(sheet, rolled, hand, picks_left, remaining))
        return total / len(samples)

    # ------------------------------------------------------------------ decisions
    def choose(self, state: CleverState) -> Action:
        """The action to take in ``state`` (which must be a decision of some player)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._evaluator(state.spec)
        if state.phase == BEFORE_ROLL:
            return self._before_roll(state, legal)
        if state.phase == ACTIVE_PICK:
            best = self._active_pick(state, legal)
        else:
            best = max(self._entry_options(state, legal), key=lambda o: o[0])
        if self.record is not None and best[2] is not None:
            self.record.append((best[2], best[1], state.decider))
        return best[3]

    def _active_pick(self, state: CleverState, legal: list[Action]) -> tuple:
        """The best pick (re-judged by lookahead), or a reroll when sampled rerolls promise more."""
        p = self.params
        player = state.decider
        sheet = state.sheets[player]
        remaining = remaining_entries(state, player)
        picks_left = state.spec.picks_per_turn - state.picks - 1
        options = self._picks(sheet, state.values, state.hand, picks_left, remaining)
        options.sort(key=lambda o: -o[0])
        best = options[0]
        if picks_left > 0 and p.lookahead_top > 1:
            samples = self._sample_faces(p.lookahead_samples)
            scored = []
            for opt in options[: p.lookahead_top]:
                after, rest, gain = opt[4], opt[5], opt[6]
                if rest:
                    value = gain + self._next_roll_value(
                        after, state.values, rest, picks_left - 1, remaining, samples
                    )
                else:
                    value = opt[0]
                scored.append((value,) + opt[1:])
            best = max(scored, key=lambda o: o[0])
        if REROLL in legal:
            cost = min(1.0, remaining / 24.0) * p.hold["reroll"] / sheet.rerolls
            again = sheet.copy()
            again.rerolls -= 1
            samples = self._sample_faces(p.reroll_samples)
            if (
                self._next_roll_value(again, state.values, state.hand, picks_left, remaining, samples) - cost
                > best[0]
            ):
                return (0.0, 0.0, None, REROLL)
        return best

    def _before_roll(self, state: CleverState, legal: list[Action]) -> Action:
        """Return a platter die (white first) when one more die in hand is worth the action."""
        returns = [a for a in legal if a.kind == "return"]
        picks_left = state.spec.picks_per_turn - state.picks
        hand = len(state.hand)
        ev = self._live_ev
        gain = ev.pick_value(hand + 1, picks_left) - ev.pick_value(hand, picks_left)
        remaining = remaining_entries(state, state.decider)
        cost = min(1.0, remaining / 24.0) * self.params.hold["return"]
        if returns and gain > cost:
            prefer = {d: i for i, d in enumerate(("white", "yellow", "blue", "pink", "green", "silver"))}
            return min(returns, key=lambda a: prefer[a.picked])
        return ROLL if ROLL in legal else PASS

    def _entry_options(self, state: CleverState, legal: list[Action]) -> list[tuple]:
        """``(value, base, features, action)`` of each legal action outside the active pick."""
        player = state.decider
        sheet = state.sheets[player]
        remaining = remaining_entries(state, player)
        plus = state.phase == PLUS_ONE
        start = sheet
        if plus:
            start = sheet.copy()
            start.plus_ones -= 1
        out: list[tuple] = []
        for action in legal:
            if action.kind in ("choose", "mark"):
                out.append(self._option(state.values, start, *action.entry, remaining)[:3] + (action,))
            else:
                out.append(self._live_ev.value(sheet, remaining) + (action,))
        return out


#: The fitted correction of the strong bot's value (see :meth:`Evaluator.features`).
FITTED_WEIGHTS: tuple[float, ...] | None = (
    53.1202,
    19.5881,
    27.0120,
    -3.2719,
    -1.6609,
    -0.7548,
    -21.1234,
    -31.3771,
    -31.1634,
    -33.2822,
    -16.4357,
    -10.3803,
    -1.5707,
    -0.5063,
    8.1828,
    -13.3237,
    1.2074,
    5.0853,
    -0.0425,
    -10.4265,
    -21.5172,
    -18.2432,
    1.1690,
    10.9093,
    -12.4564,
    7.6857,
    11.5827,
    3.6278,
    -9.9322,
    -11.8400,
    -15.8719,
    17.7058,
    7.1788,
    -10.8156,
    3.0288,
    2.0702,
    4.9506,
    2.7741,
    -11.4568,
    0.4452,
    -16.0090,
    -0.1163,
    2.1475,
    -2.9686,
    -0.5184,
    -19.9332,
    -0.0142,
    2.5937,
    -27.2458,
    -14.6551,
    1.0515,
    0.2133,
    2.9236,
    -7.0500,
    -0.5359,
    2.3173,
)


BOT_KINDS: dict[str, Callable[[np.random.Generator], object]] = {
    "random": lambda rng: RandomBot(rng),
    "strong": lambda rng: StrongBot(rng=rng),
}


def make_bot(kind: str, rng: np.random.Generator):
    """A bot of ``kind`` (``random`` or ``strong``) drawing from ``rng``."""
    try:
        return BOT_KINDS[kind](rng)
    except KeyError:
        raise RulesError(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}") from None
