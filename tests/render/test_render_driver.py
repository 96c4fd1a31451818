"""The fixed-step driver: steps owed by real time, interpolation factor, no spiral of death."""

import pytest

from render.driver import FixedStep
from render.snapshot import Snapshot


class Recorder:
    def __init__(self):
        self.shown = []

    def show(self, current, previous=None, alpha=1.0):
        self.shown.append((current, previous, alpha))


def test_steps_and_alpha(table_i):
    made = []

    def step():
        made.append(Snapshot(table_i, time=len(made) + 1))
        return made[-1]

    win = Recorder()
    drive = FixedStep(win, step, Snapshot(table_i), dt=0.01)
    assert drive.tick(0.025) == pytest.approx(0.5)
    assert len(made) == 2
    current, previous, alpha = win.shown[-1]
    assert current is made[1] and previous is made[0] and alpha == pytest.approx(0.5)
    drive.tick(0.004)
    assert len(made) == 2 and win.shown[-1][2] == pytest.approx(0.9)
    drive.tick(0.001)
    assert len(made) == 3


def test_a_long_frame_does_not_spiral(table_i):
    win = Recorder()
    drive = FixedStep(win, lambda: Snapshot(table_i), Snapshot(table_i), dt=0.01, max_steps=5)
    drive.tick(10.0)
    assert drive.steps == 5 and drive.accumulated <= 0.01
    with pytest.raises(ValueError):
        FixedStep(win, lambda: Snapshot(table_i), Snapshot(table_i), dt=0.0)


def test_impacts_of_every_step_reach_the_window(table_i):
    speeds = iter([(0.5,), (), (0.9, 0.2)])
    win = Recorder()
    drive = FixedStep(win, lambda: Snapshot(table_i, impacts=next(speeds)), Snapshot(table_i), dt=0.01)
    drive.tick(0.035)
    assert sorted(win.shown[-1][0].impacts) == [0.2, 0.5, 0.9]
