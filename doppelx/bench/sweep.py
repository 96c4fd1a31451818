"""A grid of solver settings: speed against accuracy, with the Pareto front, as a picture.

Every point is one :class:`~physics.settings.SimSettings` variant of the project's settings:

* a full grid of time step (120, 240, 480 Hz) × solver iterations (5, 10, 20, 50) ×
  adaptive sub-steps on/off, and 960 Hz with 10 iterations (on/off);
* one change at a time from the project's settings: Bullet's CCD instead of sub-steps (the
  old default, at 10 and 50 iterations), the sub-step travel limit (2–6 mm), contact ERP
  (0.02, 0.2, 0.5), split impulse off / for every penetration (threshold 0) / beyond
  0.5 mm, and the sleeping thresholds (a die flat and slower than
  ``settle_speed``/``settle_spin`` is put to sleep: halved, doubled, quadrupled, or no
  early sleeping);
* the project's settings measured a second time, last, to show how far speed wanders
  between two measurements of the same point.

The sample rate of the settle test stays 60 Hz (``sample_every`` follows the time step).
Each point is measured on the same seeded inputs:

* speed: throws per CPU second over mixed random throws on sides I–IV
  (:func:`doppelx.bench.throws.random_scene`: turns, setup throws, violent throws);
* tunnelling: of those throws, how many the tunnel watch flagged (per 1000 throws);
* penetration: the worst contact penetration of the resting pile (:mod:`doppelx.bench.pile`);
* restitution error: mean |e − e_model| over drops flat/edge/corner from 50–400 mm,
  head-on die–die impacts at 0.5–3 m/s and the restitution scene's flat drops onto the
  playfield and onto a die at 0.5–5 m/s (:mod:`doppelx.bench.drop`,
  :mod:`doppelx.bench.impact`, :mod:`doppelx.bench.restitution`);
* resting creep: the pile's largest net displacement of a die over the second half of its
  rest, divided by that half's duration (a mean speed; :mod:`doppelx.bench.pile`).

A point is on a panel's Pareto front if no other point is at least as fast and at least as
accurate on that panel's measure (and better on one); the points on the front of
all four measures at once are listed (``front`` ``all``), not drawn. The project's settings
are the star.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from doppelx.bench.common import PROFILES, Tally

SEED = 20240612
#: (attribute, axis label, unit) of the four accuracy measures, lower is better.
MEASURES = (
    ("tunnelled_per_1000", "tunnelled throws per 1000", ""),
    ("penetration_mm", "worst resting penetration", "mm"),
    ("restitution_error", "restitution error |e − e_model|", ""),
    ("creep_mm_s", "resting creep (pile, awake)", "mm/s"),
)


@dataclass(frozen=True)
class Config:
    """A settings variant: a label, its group, and the fields changed from the project's settings."""

    label: str
    group: str
    changes: dict = field(default_factory=dict)

    def settings(self):
        """The :class:`~physics.settings.SimSettings` of this point (sampling kept at 60 Hz)."""
        from physics.settings import SimSettings

        base = SimSettings()
        changes = dict(self.changes)
        if "time_step" in changes:
            changes["sample_every"] = max(1, round(base.sample_dt / changes["time_step"]))
        return base.with_(**changes)


@dataclass(frozen=True)
class Point:
    """One measured point of the sweep."""

    config: Config
    throws: int
    throws_per_s: float
    steps_per_s: float
    tunnelled: int
    penetration_mm: float
    restitution_error: float
    creep_mm_s: float
    wall_s: float
    front: tuple[str, ...] = ()

    @property
    def tunnelled_per_1000(self) -> float:
        return 1000.0 * self.tunnelled / max(self.throws, 1)

    @property
    def chosen(self) -> bool:
        return self.config.group == "project"

    def to_dict(self) -> dict:
        return {
            "label": self.config.label,
            "group": self.config.group,
            "changes": self.config.changes,
            "chosen": self.chosen,
            "throws": self.throws,
            "throws_per_s": round(self.throws_per_s, 1),
            "steps_per_s": round(self.steps_per_s),
            "tunnelled": self.tunnelled,
            "tunnelled_per_1000": round(self.tunnelled_per_1000, 2),
            "penetration_mm": round(self.penetration_mm, 4),
            "restitution_error": round(self.restitution_error, 4),
            "creep_mm_s": round(self.creep_mm_s, 4),
            "pareto": list(self.front),
            "wall_s": round(self.wall_s, 2),
        }


def grid(quick: bool = False) -> list[Config]:
    """The settings variants; the project's own settings come first."""
    from physics.settings import SimSettings

    base = SimSettings()
    project = Config(
        f"project ({1 / base.time_step:g} Hz, {base.solver_iterations} it, "
        f"sub-steps {base.max_travel * 1000:g} mm)",
        "project",
    )
    if quick:
        return [
            project,
            Config(
                "120 Hz, 5 it, no sub-steps",
                "grid-nosub",
                {"time_step": 1 / 120, "solver_iterations": 5, "max_travel": 0.0},
            ),
            Config("split impulse everywhere", "split", {"split_impulse_threshold": 0.0}),
        ]
    out = [project]
    for hz, iters in [(h, i) for h in (120, 240, 480) for i in (5, 10, 20, 50)] + [(960, 10)]:
        for sub in (True, False):
            changes = {"time_step": 1 / hz, "solver_iterations": iters}
            if changes == {"time_step": base.time_step, "solver_iterations": base.solver_iterations} and sub:
                continue
            if not sub:
                changes["max_travel"] = 0.0
            label = f"{hz} Hz, {iters} it" + ("" if sub else ", no sub-steps")
            out.append(Config(label, "grid" if sub else "grid-nosub", changes))
    out += [
        Config(
            f"Bullet CCD, no sub-steps, {it} it",
            "ccd",
            {"ccd": True, "max_travel": 0.0, "solver_iterations": it},
        )
        for it in (10, 50)
    ]
    out += [
        Config(f"sub-steps {mm:g} mm", "substeps", {"max_travel": mm / 1000})
        for mm in (2.0, 3.0, 4.0, 5.0, 6.0)
        if abs(mm / 1000 - base.max_travel) > 1e-9
    ]
    out += [Config(f"contact ERP {e:g}", "erp", {"contact_erp": e}) for e in (0.02, 0.2, 0.5)]
    out += [
        Config("split impulse off", "split", {"split_impulse": False}),
        Config("split impulse everywhere", "split", {"split_impulse_threshold": 0.0}),
        Config("split impulse beyond 0.5 mm", "split", {"split_impulse_threshold": -0.0005}),
    ]
    out += [
        Config(f"sleep thresholds ×{f:g}", "sleep", {"settle_speed": 0.004 * f, "settle_spin": 0.15 * f})
        for f in (0.5, 2.0, 4.0)
    ]
    out.append(Config("no early sleeping", "sleep", {"sleep_still": False}))
    # the project's settings once more, last: how far the speed of the same point moves
    out.append(Config("project, measured again", "repeat", {}))
    return out


def measure(config: Config, throws: int, pile_seconds: float, heights, speeds, drop_speeds=()) -> Point:
    """Measure one settings variant (see the module docstring)."""
    from doppelx.bench import drop, impact, pile, restitution
    from doppelx.bench.throws import random_scene
    from physics.run import run_throw
    from physics.world import World
    from rules.common.rng import child_rng
    from rules.doppelx.board_file import BUILTIN_SIDES, load_board

    t_start = time.perf_counter()
    s = config.settings()
    worlds = {side: World(load_board(side), settings=s) for side in BUILTIN_SIDES}
    tally = Tally()
    tunnelled = 0
    for i in range(throws):
        side = BUILTIN_SIDES[i % len(BUILTIN_SIDES)]
        _, lying, throw = random_scene(worlds[side].board, child_rng(SEED, i))
        with tally.timing():
            r = run_throw(worlds[side], throw, lying)
        tally.steps += r.steps
        tally.runs += 1
        tunnelled += bool(r.tunnel_events)
    for w in worlds.values():
        w.close()
    scratch = Tally()
    world = World(load_board("I"), settings=s)
    rest = pile.rest(world, pile_seconds, scratch)
    world.close()
    profile = replace(PROFILES["full"], drop_heights=tuple(heights), head_on=tuple(speeds), glancing=())
    errors = [
        m
        for m in drop.run(profile, scratch, s)
        if m.name.startswith("e.") and m.expected is not None and m.name != "e.mean_abs_error"
    ]
    errors += [m for m in impact.run(profile, scratch, s) if m.name.endswith(".e")]
    gaps = [
        abs(float(m.value) - m.expected)
        for m in errors
        if m.expected is not None and isinstance(m.value, (int, float))
    ]
    gaps += [abs(r.e_measured - r.e_material) for r in restitution.run(drop_speeds, s)]
    err = float(np.mean(gaps))
    cpu = max(tally.cpu, 1e-9)
    return Point(
        config,
        throws,
        throws / cpu,
        tally.steps / cpu,
        tunnelled,
        rest["penetration"] * 1e3,
        err,
        rest["creep"] * 1e3,
        time.perf_counter() - t_start,
    )


def _labels(ax, items, min_dx: float = 125.0, min_dy: float = 11.0) -> None:
    """Label points, skipping a label that would overlap one already placed (display pixels)."""
    placed: list[tuple[float, float]] = []
    for x, y, text in sorted(items, key=lambda t: t[0], reverse=True):
        px, py = ax.transData.transform((x, y))
        if any(abs(px - qx) < min_dx and abs(py - qy) < min_dy for qx, qy in placed):
            continue
        placed.append((px, py))
        ax.annotate(text, (x, y), textcoords="offset points", xytext=(4, 5), fontsize=7, color="dimgray")


def pareto(points: list[Point]) -> list[Point]:
    """The points with their ``front`` filled: the measures on whose Pareto front each lies (``all`` too)."""
    keys = [m[0] for m in MEASURES]

    rivals = [q for q in points if q.config.group != "repeat"]  # a repeat only shows the noise

    def dominated(p: Point, attrs) -> bool:
        for q in rivals:
            if q is p:
                continue
            ge = q.throws_per_s >= p.throws_per_s and all(getattr(q, a) <= getattr(p, a) for a in attrs)
            gt = q.throws_per_s > p.throws_per_s or any(getattr(q, a) < getattr(p, a) for a in attrs)
            if ge and gt:
                return True
        return False

    out = []
    for p in points:
        if p.config.group == "repeat":
            out.append(p)
            continue
        front = tuple(a for a in keys if not dominated(p, (a,)))
        if not dominated(p, keys):
            front += ("all",)
        out.append(replace(p, front=front))
    return out


def run_sweep(quick: bool = False, progress: Callable[[str], None] | None = None) -> list[Point]:
    """Measure every point of the grid (``quick``: 3 points on small scenes)."""
    heights: tuple[float, ...]
    speeds: tuple[float, ...]
    drops: tuple[float, ...]
    if quick:
        throws, pile_s, heights, speeds, drops = 12, 1.0, (0.1, 0.4), (1.0, 3.0), (2.0,)
    else:
        throws, pile_s, heights, speeds = 400, 4.0, (0.05, 0.1, 0.2, 0.3, 0.4), (0.5, 1.0, 2.0, 3.0)
        drops = (0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
    configs = grid(quick)
    points = []
    for k, c in enumerate(configs, 1):
        pt = measure(c, throws, pile_s, heights, speeds, drops)
        points.append(pt)
        if progress is not None:
            progress(
                f"{k}/{len(configs)} {c.label}: {pt.throws_per_s:.0f} throws/s, {pt.tunnelled} tunnelled, "
                f"penetration {pt.penetration_mm:.3f} mm, e error {pt.restitution_error:.3f}, "
                f"creep {pt.creep_mm_s:.3f} mm/s ({pt.wall_s:.1f} s)"
            )
    return pareto(points)


def format_points(points: list[Point]) -> str:
    """The points as a text table, fastest first."""
    width = max([len("settings") - 1, *(len(p.config.label) for p in points)])  # the star takes a column
    head = (
        f"{'settings':{width + 1}} {'throws/s':>9} {'tunnel/1000':>11} {'pen mm':>7} {'e error':>7} "
        f"{'creep mm/s':>10}  front"
    )
    lines = [head, "-" * len(head)]
    for p in sorted(points, key=lambda p: -p.throws_per_s):
        star = "*" if p.chosen else " "
        lines.append(
            f"{star}{p.config.label:{width}} {p.throws_per_s:9.1f} {p.tunnelled_per_1000:11.1f} "
            f"{p.penetration_mm:7.3f} {p.restitution_error:7.3f} {p.creep_mm_s:10.3f}  "
            f"{','.join(_short(f) for f in p.front)}"
        )
    return "\n".join(lines)


def _short(front: str) -> str:
    return {
        "tunnelled_per_1000": "tunnel",
        "penetration_mm": "pen",
        "restitution_error": "e",
        "creep_mm_s": "creep",
    }.get(front, front)


_STYLE = {
    "project": ("*", "black"),
    "repeat": ("*", "silver"),
    "grid": ("o", "tab:blue"),
    "grid-nosub": ("x", "tab:red"),
    "ccd": ("P", "tab:brown"),
    "substeps": ("v", "tab:cyan"),
    "erp": ("s", "tab:green"),
    "split": ("D", "tab:purple"),
    "sleep": ("^", "tab:orange"),
}
_GROUP_LABEL = {
    "project": "project's settings",
    "repeat": "project's settings, measured again",
    "grid": "time step × iterations, sub-steps on",
    "grid-nosub": "time step × iterations, no sub-steps",
    "ccd": "Bullet's CCD instead of sub-steps (the old way)",
    "substeps": "sub-step travel limit",
    "erp": "contact ERP",
    "split": "split impulse",
    "sleep": "sleeping thresholds",
}


def plot(points: list[Point], out: str) -> None:
    """Speed against the four accuracy measures, Pareto fronts marked, written to ``out`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter

    fig, axes = plt.subplots(2, 2, figsize=(13, 9.5), constrained_layout=True)
    xs = np.array([p.throws_per_s for p in points])
    for ax, (attr, label, unit) in zip(axes.ravel(), MEASURES):
        ys = np.array([getattr(p, attr) for p in points], dtype=float)
        for group, (marker, colour) in _STYLE.items():
            sel = [i for i, p in enumerate(points) if p.config.group == group]
            if not sel:
                continue
            size = 260 if group in ("project", "repeat") else 55
            ax.scatter(
                xs[sel],
                ys[sel],
                marker=marker,
                s=size,
                c=colour,
                label=_GROUP_LABEL[group],
                zorder=5 if group == "project" else 3,
                edgecolors="white" if group == "project" else None,
                linewidths=0.8,
            )
        front = sorted((i for i, p in enumerate(points) if attr in p.front), key=lambda i: xs[i])
        if front:
            ax.step(
                xs[front],
                ys[front],
                where="post",
                color="gray",
                lw=1.4,
                ls="--",
                zorder=2,
                label="Pareto front (no other point is as fast and as accurate, and better in one)",
            )
        positive = ys[ys > 0]
        if positive.size and ys.max() / positive.min() > 30:
            if positive.size == ys.size:
                ax.set_yscale("log")
            else:
                lin = float(positive.min())
                ax.set_yscale("symlog", linthresh=lin, linscale=0.5)
                ax.set_ylim(-0.15 * lin, ys.max() * 1.6)
                ax.yaxis.set_minor_formatter(NullFormatter())
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}" if v >= 0 else ""))
        fig.canvas.draw()  # scales and limits fixed: label positions in pixels are final
        _labels(ax, [(xs[i], ys[i], points[i].config.label) for i in front if not points[i].chosen])
        star = next((i for i, p in enumerate(points) if p.chosen), None)
        if star is not None:
            ax.annotate(
                "project",
                (xs[star], ys[star]),
                textcoords="offset points",
                xytext=(-14, 9),
                fontsize=8,
                fontweight="bold",
            )
        ax.set_xlabel("speed: throws per CPU second (mixed throws on sides I–IV, one core)")
        ax.set_ylabel(f"{label} ({unit})" if unit else label)
        ax.set_title(f"{label} — lower is better", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=8, markerscale=0.7)
    fig.suptitle(
        "DoppelX contact solver: speed against accuracy (faster = right, more accurate = down)", fontsize=12
    )
    from rules.common.atomic import save_figure

    save_figure(fig, out, dpi=110)
    plt.close(fig)
