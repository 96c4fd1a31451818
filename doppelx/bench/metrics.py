"""Benchmark metrics and how each is judged against the baseline.

A scene returns :class:`Metric` rows: a value, its unit, the analytic expectation when there
is one (shown, not judged) and a :class:`Check` saying how far the value may move from the
committed baseline (:func:`judge`):

* ``tol``/``rel``: allowed distance from the baseline, ``max(tol, rel · |baseline|)``;
* ``better``: ``"lower"`` or ``"higher"`` — beyond the band in the good direction the
  verdict is ``better`` (passes; refresh the baseline), in the bad one ``WORSE``; without a
  direction any move beyond the band is ``CHANGED``;
* ``limit``: an absolute requirement, whatever the baseline says (``("==", 0)`` for
  tunnelling, ``(">=", 0.001)`` for a p-value); violated → ``FAIL``;
* ``expect``: the value must lie within this fraction of the metric's analytic expectation,
  whatever the baseline says (the physics must hold, not only stay where it was); beyond →
  ``FAIL``. Only rows whose physics holds in every engine that runs them carry one;
  benchmarks/README.md lists the rows that differ from their expectation today;
* ``poisson``: for counts (``unsettled``): the band is also ``poisson · √baseline`` — the
  Poisson spread of the *baseline's* count, never of the run's own (a run that hits the
  time cap 8 times where the baseline did 0 times must not widen its own band);
* ``signed``: a signed value whose sign is physics (the spinner's turn after a hit): a
  value whose sign differs from the baseline's, both beyond ``tol`` from 0, is ``CHANGED``;
  otherwise it is judged as usual;
* ``exact``: the value must equal the baseline;
* ``info``: shown with its change, never judged (absolute speeds depend on the machine;
  the tray's pose hash changes with the last bit of any pose, so a refactor that reorders
  a sum moves it: it is information, and determinism is judged by
  ``tray/determinism_mismatches``).

A row with an analytic expectation and a two-sided band (no ``better``) is judged by its
distance to the expectation (:func:`judge`): beyond the band and farther from the
expectation than the baseline was → ``WORSE``; beyond the band but closer → ``better``
(moving towards the physics is never a failure). That holds while the expectation itself
stays: one that moved beyond the band since the baseline was recorded (the baseline keeps
it) was computed from other inputs — a material, the die, a setting — and the row is
``CHANGED`` (halved friction moves the friction angle *and* its expectation together).

A metric in the baseline that a scene which ran did not measure is ``MISSING``
(:func:`doppelx.bench.baseline.missing`): a renamed or dropped metric must not pass
unseen. ``WORSE``, ``CHANGED``, ``FAIL`` and ``MISSING`` make ``doppelx bench`` exit 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: Verdicts that fail the run.
FAILING = ("WORSE", "CHANGED", "FAIL", "MISSING")
_OPS = {
    "==": lambda a, b: a == b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}


@dataclass(frozen=True)
class Check:
    """How a metric is judged (see the module docstring)."""

    tol: float = 0.0
    rel: float = 0.0
    better: str | None = None
    limit: tuple[str, float] | None = None
    expect: float | None = None
    exact: bool = False
    info: bool = False
    poisson: float = 0.0
    signed: bool = False

    def __post_init__(self) -> None:
        if self.better not in (None, "lower", "higher"):
            raise ValueError(f"better must be 'lower', 'higher' or None, got {self.better!r}")
        if self.limit is not None and self.limit[0] not in _OPS:
            raise ValueError(f"unknown limit operator {self.limit[0]!r}")

    def band(self, baseline: float) -> float:
        """Allowed distance from ``baseline``."""
        return max(self.tol, self.rel * abs(baseline), self.poisson * math.sqrt(abs(baseline)))

    def describe(self) -> str:
        """Short text of the tolerance, for the table and the JSON."""
        if self.info:
            return "info"
        if self.exact:
            return "exact"
        parts = []
        if self.tol or self.rel or self.poisson:
            band = " or ".join(
                p
                for p in (
                    f"±{self.tol:.3g}" if self.tol else "",
                    f"±{self.rel:.0%}" if self.rel else "",
                    f"±{self.poisson:g}√baseline" if self.poisson else "",
                )
                if p
            )
            parts.append(
                band
                + {"lower": " (lower is better)", "higher": " (higher is better)"}.get(self.better or "", "")
            )
        if self.signed:
            parts.append("sign kept")
        if self.limit is not None:
            parts.append(f"must be {self.limit[0]} {self.limit[1]:.3g}")
        if self.expect is not None:
            parts.append(f"within {self.expect:.0%} of expected")
        return "; ".join(parts) or "—"


INFO = Check(info=True)
EXACT = Check(exact=True)


@dataclass(frozen=True)
class Metric:
    """One measured figure of a scene.

    Attributes:
        scene: scene name (``drop``, ``tray``, ...).
        name: metric name within the scene (``e.flat.100mm``).
        value: the figure (a number, or a string for hashes; ``None`` only on a
            ``MISSING`` row: in the baseline, not measured).
        unit: its unit (``""`` for ratios and counts).
        expected: the analytic expectation, if there is one (shown; judged only with a
            :attr:`Check.expect`).
        check: how it is judged against the baseline.
        note: what to look at when it fails (e.g. which throws tunnelled); JSON only.
    """

    scene: str
    name: str
    value: float | int | str | None
    unit: str = ""
    expected: float | None = None
    check: Check = field(default=INFO)
    note: str = ""

    @property
    def key(self) -> str:
        """``scene/name``, the key in the baseline file."""
        return f"{self.scene}/{self.name}"


@dataclass(frozen=True)
class Row:
    """A metric with its baseline, change and verdict."""

    metric: Metric
    baseline: float | int | str | None
    change: float | None
    verdict: str
    why: str = ""  # why a row that looks in band failed (its expectation moved)

    def to_dict(self) -> dict:
        m = self.metric
        out = {
            "scene": m.scene,
            "metric": m.name,
            "value": m.value,
            "unit": m.unit,
            "expected": m.expected,
            "baseline": self.baseline,
            "change": self.change,
            "verdict": self.verdict,
            "tolerance": m.check.describe(),
        }
        if m.note:
            out["note"] = m.note
        if self.why:
            out["why"] = self.why
        return out


def judge(metric: Metric, baseline, expected_then: float | None = None) -> Row:
    """The verdict of ``metric`` against its ``baseline`` value (``None``: not in the baseline);
    ``expected_then``: the row's analytic expectation when the baseline was recorded."""
    c, v = metric.check, metric.value
    if _breaks_requirement(metric):
        return Row(metric, baseline, _change(v, baseline), "FAIL")
    if baseline is None:
        return Row(metric, None, None, "new")
    change = _change(v, baseline)
    if c.info:
        return Row(metric, baseline, change, "info")
    if c.exact or isinstance(v, str) or isinstance(baseline, str):
        return Row(metric, baseline, None, "ok" if v == baseline else "CHANGED")
    if not (c.tol or c.rel or c.poisson):
        return Row(metric, baseline, change, "ok")
    if not (isinstance(v, (int, float)) and math.isfinite(v)):
        return Row(metric, baseline, None, "CHANGED")
    e = metric.expected
    if (
        expected_then is not None
        and isinstance(e, (int, float))
        and abs(e - expected_then) > c.band(expected_then)
    ):
        why = f"its expectation moved from {expected_then:g} to {e:g}: the model's inputs changed"
        return Row(metric, baseline, change, "CHANGED", why)
    return Row(metric, baseline, change, _against_baseline(metric, float(v), float(baseline)))


def _breaks_requirement(metric: Metric) -> bool:
    """The value breaks the row's ``limit``, or lies beyond ``expect`` of its expectation."""
    c, v = metric.check, metric.value
    if c.limit is not None and not _OPS[c.limit[0]](v, c.limit[1]):
        return True
    return c.expect is not None and metric.expected is not None and not _near(v, metric.expected, c.expect)


def _against_baseline(metric: Metric, v: float, baseline: float) -> str:
    """The verdict of a finite number against a numeric baseline (see the module docstring)."""
    c = metric.check
    if c.signed and abs(v) > c.tol and abs(baseline) > c.tol and (v > 0) != (baseline > 0):
        return "CHANGED"
    d = v - baseline
    if abs(d) <= c.band(baseline) + 1e-12:
        return "ok"
    if metric.expected is not None and c.better is None:
        # judged by the distance to the analytic expectation: towards it is never a failure
        closer = abs(v - metric.expected) <= abs(baseline - metric.expected)
        return "better" if closer else "WORSE"
    if c.better is None:
        return "CHANGED"
    good = d < 0 if c.better == "lower" else d > 0
    return "better" if good else "WORSE"


def _near(value, expected: float, fraction: float) -> bool:
    return (
        isinstance(value, (int, float))
        and math.isfinite(value)
        and abs(value - expected) <= fraction * abs(expected)
    )


def _change(v, baseline) -> float | None:
    if baseline is None or isinstance(v, str) or isinstance(baseline, str):
        return None
    return v - baseline
