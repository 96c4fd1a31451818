"""Run the benchmark scenes, judge them against the baseline, print the table.

:func:`run_suite` runs the chosen scenes of a profile (with ``speed``, each one is timed
against the reference workload, see :mod:`doppelx.bench.speed`); :func:`format_table`
prints the rows that :func:`doppelx.bench.baseline.compare` judged.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from doppelx.bench.common import Profile, Tally
from doppelx.bench.metrics import FAILING, INFO, Metric, Row

#: The measuring scenes, in the order they run.
SCENES: tuple[str, ...] = (
    "drop",
    "incline",
    "pile",
    "impact",
    "spinner",
    "rim",
    "settle",
    "converge",
    "tray",
)
#: Every scene name ``--scene`` accepts; ``speed`` times the others.
ALL: tuple[str, ...] = (*SCENES, "speed")
#: Scenes the speed scene does not time (they run once): short checks of the hole's rim, the
#: settle path and the solver's convergence, whose speed the other scenes' figures already cover; timing
#: repeats a scene at least twice, which would add ~2 s to the quick profile.
UNTIMED: tuple[str, ...] = ("rim", "settle", "converge")
#: The scenes each engine runs (the others use PyBullet's own API: contact points, joint motors).
ENGINE_SCENES: dict[str, tuple[str, ...]] = {
    "pybullet": ALL,
    "mujoco": ("drop", "incline", "rim", "converge", "tray", "speed"),
}


@dataclass(frozen=True)
class SuiteResult:
    """The metrics of one run of the suite, and how long each scene took (wall s)."""

    profile: str
    metrics: list[Metric]
    seconds: dict[str, float]


def scene_runner(name: str) -> Callable:
    """The ``run(profile, tally, settings)`` function of scene ``name``."""
    if name not in SCENES:
        raise ValueError(f"no scene {name!r}; scenes are {', '.join(SCENES)}")
    return importlib.import_module(f"doppelx.bench.{name}").run


def run_suite(
    profile: Profile,
    scenes: Sequence[str] = ALL,
    settings=None,
    progress: Callable[[str], None] | None = None,
    engine: str = "pybullet",
) -> SuiteResult:
    """Run ``scenes`` of ``profile``; ``speed`` alone times every measuring scene.

    Args:
        profile: run sizes.
        scenes: names from :data:`ALL`.
        settings: simulation settings (default: the project's).
        progress: called with a line after each scene.
        engine: ``pybullet`` or ``mujoco`` (:data:`ENGINE_SCENES` says which scenes it runs).
    """
    from doppelx.bench.speed import NAME as SPEED
    from doppelx.bench.speed import speed_metrics, timed

    unknown = [s for s in scenes if s not in ALL]
    if unknown:
        raise ValueError(f"no scene {unknown[0]!r}; scenes are {', '.join(ALL)}")
    with_speed = SPEED in scenes
    able = ENGINE_SCENES[engine]
    chosen = [s for s in SCENES if s in scenes and s in able] or [s for s in SCENES if s in able]
    metrics: list[Metric] = []
    speed_rows: list[Metric] = []
    refs: list[float] = []
    seconds: dict[str, float] = {}
    for name in chosen:
        t0 = time.perf_counter()
        run = scene_runner(name)
        if engine != "pybullet":
            run = functools.partial(run, engine=engine)
        if with_speed and name not in UNTIMED:
            out, tally, ref = timed(run, profile, settings)
            speed_rows += speed_metrics(name, tally, ref, profile)
            refs.append(ref)
        else:
            out = run(profile, Tally(), settings)
        if SPEED not in scenes or name in scenes:
            metrics += out
        seconds[name] = round(time.perf_counter() - t0, 2)
        if progress is not None:
            progress(f"{name}: {seconds[name]:.1f} s")
    if refs:
        speed_rows.insert(0, Metric(SPEED, "reference.steps_per_s", round(max(refs)), "1/s", None, INFO))
    return SuiteResult(profile.name, metrics + speed_rows, seconds)


def failed(rows: Sequence[Row]) -> list[Row]:
    """The rows whose verdict fails the run."""
    return [r for r in rows if r.verdict in FAILING]


def format_table(rows: Sequence[Row]) -> str:
    """The rows as an aligned text table: scene, metric, value, expected, baseline, change,
    tolerance (how the row is judged against the baseline: ``Check.describe``), verdict."""
    head = ("scene", "metric", "value", "expected", "baseline", "change", "tolerance", "verdict")
    body = []
    for r in rows:
        m = r.metric
        unit = f" {m.unit}" if m.unit else ""
        body.append(
            (
                m.scene,
                m.name,
                _num(m.value) + unit,
                _num(m.expected),
                _num(r.baseline),
                _change(r),
                m.check.describe(),
                r.verdict,
            )
        )
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(b, widths)).rstrip() for b in body]
    return "\n".join(lines)


def summary(rows: Sequence[Row]) -> str:
    """One line: how many metrics got each verdict."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    order = ("ok", "better", "info", "new", "WORSE", "CHANGED", "FAIL", "MISSING")
    return f"{len(rows)} metrics: " + ", ".join(f"{counts[v]} {v}" for v in order if v in counts)


def _num(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        return f"{v:.3g}"
    return f"{v:.4g}"


def _change(r: Row) -> str:
    if r.change is None:
        return "—"
    if r.baseline and not isinstance(r.baseline, str):
        return f"{r.change / abs(r.baseline):+.1%}"
    return f"{r.change:+.3g}"
