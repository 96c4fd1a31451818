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
