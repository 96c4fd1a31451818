"""Snapshots and their interpolation between two physics steps."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render.snapshot import InputMode, ScoreLine, Snapshot, TableSpec, interpolate
from render.transforms import lerp_angle, quat_matrix, slerp
from rules.common.errors import SpecError
from rules.doppelx.outcome import Pose


def _q(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    s = math.sin(angle / 2)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2))


def test_standard_table_has_four_cards_in_corner_order(table_i):
    assert [c.letter for c in table_i.cards] == ["A", "B", "C", "D"]
    assert table_i.board.name == "I" and not table_i.has_spinner
    assert TableSpec.standard("III").has_spinner
    assert not TableSpec.standard("III", spinner_on=False).has_spinner
    assert table_i.card("C").payout == 3


def test_bad_cards_are_a_spec_error():
    with pytest.raises(SpecError):
        TableSpec.standard("I", cards=("A", "A", "B", "C"))


def test_interpolate_ends_and_middle(table_i):
    a = Snapshot(table_i, {"blue": Pose((0.0, 0.0, 0.008), _q((0, 0, 1), 0.0))}, spinner_angle=0.0, time=1.0)
    b = Snapshot(
        table_i,
        {"blue": Pose((0.1, -0.02, 0.008), _q((0, 0, 1), 1.0)), "white": Pose((0.05, 0.05, 0.008))},
        spinner_angle=1.0,
        time=2.0,
        turn="next",
        input=InputMode.THROW,
        scoreboard=(ScoreLine("Ann", "blue", 3),),
    )
    assert interpolate(a, b, 1.0) is b
    assert interpolate(a, b, 0.0).dice["blue"].position == a.dice["blue"].position
    mid = interpolate(a, b, 0.5)
    assert mid.dice["blue"].position == pytest.approx((0.05, -0.01, 0.008))
    yaw = 2 * math.atan2(mid.dice["blue"].quaternion[2], mid.dice["blue"].quaternion[3])
    assert yaw == pytest.approx(0.5)
    assert mid.dice["white"] == b.dice["white"]  # new dice appear where they are
    assert mid.spinner_angle == pytest.approx(0.5) and mid.time == pytest.approx(1.5)
    assert mid.turn == "next" and mid.input is InputMode.THROW and mid.scoreboard == b.scoreboard


def test_spinner_turns_the_short_way_round():
    assert lerp_angle(3.0, -3.0, 0.5) == pytest.approx(math.pi, abs=1e-9) or lerp_angle(
        3.0, -3.0, 0.5
    ) == pytest.approx(-math.pi, abs=1e-9)
    assert lerp_angle(0.1, -0.1, 0.5) == pytest.approx(0.0)


@settings(max_examples=60, deadline=None)
@given(st.floats(-3.0, 3.0), st.floats(-3.0, 3.0), st.floats(0.0, 1.0))
def test_slerp_stays_on_the_arc(a0, a1, t):
    """Slerp between two turns about one axis is the turn by the blended angle (short way)."""
    q = slerp(_q((1, 2, 3), a0), _q((1, 2, 3), a1), t)
    assert np.linalg.norm(q) == pytest.approx(1.0)
    d = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
    want = quat_matrix(_q((1, 2, 3), a0 + t * d))
    assert np.allclose(quat_matrix(q), want, atol=1e-6)
