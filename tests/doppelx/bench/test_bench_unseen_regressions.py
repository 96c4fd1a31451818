"""The rim scene (issue 34): a die at rest over a hole's rim, judged against the rounded die's
statics; the hole frames built as boxes (a regression the tray's hole rate cannot see) must fail it."""

from __future__ import annotations

import pytest

from doppelx.bench import baseline, rim
from doppelx.bench.common import PROFILES, Tally
from doppelx.bench.metrics import FAILING
from physics.settings import SimSettings


def _judged(metrics, section: str) -> dict[str, str]:
    rows = baseline.compare(metrics, baseline.load(baseline.default_path()), section, scenes=[rim.NAME])
    return {r.metric.name: r.verdict for r in rows}


@pytest.mark.parametrize("engine", ["pybullet", "mujoco"])
def test_the_rim_rows_pass_against_the_shipped_baseline(engine):
    metrics = rim.run(PROFILES["quick"], Tally(), engine=engine)
    section = "quick" if engine == "pybullet" else "quick@mujoco"
    verdicts = _judged(metrics, section)
    assert set(verdicts) == {"stays.yaw0", "stays.yaw22.5", "stays.yaw45", "worst_error"}
    assert not [k for k, v in verdicts.items() if v in FAILING], verdicts
    worst = next(m for m in metrics if m.name == "worst_error")
    assert worst.value <= rim.LIMIT_MM


def test_hole_frames_as_boxes_fail_the_rim_rows():
    metrics = rim.run(PROFILES["quick"], Tally(), settings=SimSettings(hole_frames="boxes"))
    verdicts = _judged(metrics, "quick")
    assert verdicts["worst_error"] == "FAIL"
    assert verdicts["stays.yaw45"] == "WORSE"
