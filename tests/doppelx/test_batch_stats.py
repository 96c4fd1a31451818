"""Report statistics against known values."""

import math

import pytest

from doppelx.batch.stats import mean, proportion


def test_wilson_interval_known_values():
    e = proportion(8, 10)  # textbook: Wilson 95 % for 8/10 is [0.490, 0.943]
    assert e.value == 0.8
    assert e.low == pytest.approx(0.4902, abs=1e-3) and e.high == pytest.approx(0.9433, abs=1e-3)
    e = proportion(0, 20)
    assert e.low == 0 and e.high == pytest.approx(0.1611, abs=1e-3)
    assert math.isnan(proportion(0, 0).value) and proportion(0, 0).fmt() == "–"


def test_mean_interval():
    e = mean([1, 2, 3, 4, 5])
    assert e.value == 3 and e.high - e.value == pytest.approx(1.96 * math.sqrt(2.5) / math.sqrt(5), rel=1e-3)


def test_one_value_has_no_interval_and_counts_read_well():
    from doppelx.batch.stats import counted

    assert mean([20.0]).fmt(digits=1) == "20.0 [n/a]"  # not "20.0 [nan, nan]"
    assert mean([3.0, float("nan")]).fmt() == "3.00 [n/a]"
    assert proportion(1, 1).fmt(percent=True, digits=1) == "100.0 % [20.7, 100.0]"
    assert (counted(1, "game"), counted(2, "game"), counted(1, "die", "dice"), counted(0, "die", "dice")) == (
        "1 game",
        "2 games",
        "1 die",
        "0 dice",
    )
