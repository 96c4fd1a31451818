"""``doppelx bench holes``: the crossing model on known numbers, the scene in both engines, its JSON
and its bad input."""

from __future__ import annotations

import json
import math

import pytest
from shapely.geometry import Polygon

from doppelx.bench import holes as ho
from doppelx.cli import main
from physics.geometry import hole_opening
from rules.doppelx.board_file import load_board

A, RHO = 0.016, 0.0025
#: The project's die on cardboard (assets/dice.toml, assets/materials.toml), SI units.
DIE = ho.Die2D(A, RHO, 0.0045, 0.35, 0.40, 9.81, 0.003)
SQUARE = Polygon([(-0.015, -0.015), (0.015, -0.015), (0.015, 0.015), (-0.015, 0.015)])


def test_a_square_hole_is_met_by_straight_rims():
    geo = ho.crossing(SQUARE, 0.0, A, RHO)
    assert (geo.lead, geo.support, geo.far, geo.far_radius) == pytest.approx((-0.015, -0.015, 0.015, RHO))


def test_side_one_round_hole_shortens_the_gap_to_where_the_flat_bottom_and_the_rounded_front_meet_it():
    hole = next(h for h in load_board("I").holes if h.id == ho.HOLE)
    cx, cy, r = hole.circle
    geo = ho.crossing(hole_opening(hole, 16), cy, A, RHO)
    apothem = r * math.sqrt(math.pi / (16 * math.tan(math.pi / 16)))
    assert geo.lead - cx == pytest.approx(-apothem)  # 14.90 mm: the flat edge facing the die
    # the flat bottom (5.5 mm to each side) rests on the 16-gon's edge between its vertices at
    # 11.25° and 33.75° (vertex radius apothem / cos(π/16))
    rv = apothem / math.cos(math.pi / 16)
    p, q = [(rv * math.cos(math.radians(d)), rv * math.sin(math.radians(d))) for d in (11.25, 33.75)]
    x_at = p[0] + (0.0055 - p[1]) * (q[0] - p[0]) / (q[1] - p[1])
    assert geo.support - cx == pytest.approx(-x_at, abs=1e-9)
    assert geo.support - cx == pytest.approx(-0.01385, abs=1e-5)
    # the rounded vertical edge meets that same edge where its slope (tan 22.5°) matches the rim's
    assert geo.far - cx == pytest.approx(0.01345, abs=1e-4)
    assert geo.far_radius == pytest.approx(RHO * math.cos(math.radians(22.5)), abs=1e-4)


def test_a_die_slower_than_the_run_up_allows_stops_short():
    geo = ho.crossing(SQUARE, 0.0, A, RHO)
    v_stop = math.sqrt(2 * DIE.friction * DIE.gravity * A / 2)  # its centre must travel a/2 to the rim
    assert ho.predict(v_stop - 0.001, DIE, geo) == "short"
    assert ho.predict(v_stop + 0.002, DIE, geo) == "fall"


def test_slow_dice_must_fall_in_fast_rounded_ones_must_cross_and_sharp_ones_never_must():
    geo = ho.crossing(SQUARE, 0.0, A, RHO)
    assert ho.predict(0.3, DIE, geo) == "fall"
    assert ho.predict(3.0, DIE, geo) == "cross"
    b = ho.bounds(DIE, [geo])
    assert 0.25 < b.fall_below < b.cross_above < 3.0
    # free flight over the gap after the rear leaves the rim drops the die by g t²/2, t = (D − a)/v:
    # at cross_above that drop is below the rounding, or the front face would meet the rim
    drop = DIE.gravity / 2 * ((0.030 - A) / b.cross_above) ** 2
    assert drop < RHO
    sharp = ho.Die2D(A, 0.0, 0.0045, 0.35, 0.40, 9.81, 0.003)
    assert ho.bounds(sharp, [ho.crossing(SQUARE, 0.0, A, 0.0)]).cross_above is None
    # a wider hole needs more speed to be crossed
    wide = Polygon([(-0.017, -0.017), (0.017, -0.017), (0.017, 0.017), (-0.017, 0.017)])
    assert ho.bounds(DIE, [ho.crossing(wide, 0.0, A, RHO)]).cross_above > b.cross_above


@pytest.mark.parametrize("engine", ["pybullet", "mujoco"])
def test_the_scene_drops_a_slow_die_in_and_lets_a_fast_one_cross(engine):
    from physics.engine import make_world

    with make_world(load_board("I"), engine=engine) as world:
        slow, fast = ho.slide(world, 0.3), ho.slide(world, 2.0)
    assert slow.outcome == "in" and fast.outcome == "crossed"
    # the run-up delivers the chosen speed at the near rim (PyBullet's die loses a little where it
    # slides from the insert onto the hull frame round the hole)
    assert slow.speed_at_rim == pytest.approx(0.3, abs=0.02)
    assert fast.speed_at_rim == pytest.approx(2.0, abs=0.05)


def test_other_approaches_tumbling_turned_and_beside_the_hole():
    from physics.engine import make_world

    with make_world(load_board("I")) as world:
        assert ho.slide(world, 0.3, rolling=True).outcome == "in"
        assert ho.slide(world, 1.2, rolling=True).outcome == "crossed"
        assert ho.slide(world, 0.5, yaw=math.pi / 4).outcome == "in"
        # a die passing 20 mm beside the centre only grazes the hole with a corner
        assert ho.slide(world, 0.6, 0.02).outcome == "crossed"
        with pytest.raises(ValueError, match="misses"):
            ho.slide(world, 0.6, 0.03)


def test_json_shape(capsys):
    assert main(["bench", "holes", "--speeds", "2,0.3", "--engine", "mujoco", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "doppelx-bench-holes/1" and out["engine"] == "mujoco"
    assert (out["hole_diameter_mm"], out["die_mm"], out["edge_radius_mm"]) == (30.0, 16.0, 2.5)
    assert set(out["bounds"]) == {"fall_below", "cross_above"}
    assert [r["speed"] for r in out["rows"]] == [0.3, 2.0]
    assert [(r["crossed"], r["fell_in"], r["runs"], r["verdict"]) for r in out["rows"]] == [
        (0, 5, 5, "ok"),
        (5, 0, 5, "ok"),
    ]
    assert out["rows"][1]["fraction_crossed"] == 1.0
    assert 0.3 < out["transition_speed"] < 2.0
    assert out["verdict"].startswith("inside the analytic bounds")
    assert [r["yaw_deg"] for r in out["rest"]] == [0.0, 22.5, 45.0]
    assert all(
        set(r) == {"yaw_deg", "stays_from_mm", "rounded_die_mm", "sharp_cube_mm", "verdict"}
        for r in out["rest"]
    )
    assert all(r["verdict"] == "ok" for r in out["rest"]) and not out["rest_verdict"].startswith("WRONG")


def test_a_die_at_rest_holds_where_its_flat_bottom_over_the_board_surrounds_its_centre():
    # a straight rim: the centre must be over the board, whatever the rounding
    for flat in (0.0055, 0.008):
        d = ho.rest_threshold(lambda d, flat=flat: ho.holds(SQUARE, (-d, 0.0), 0.0, flat))
        assert d == pytest.approx(0.015, abs=0.00013)
    # side I's 16-gon: the rounded die rests from the support line of the slide, a sharp cube 1 mm further in
    hole = next(h for h in load_board("I").holes if h.id == ho.HOLE)
    cx, cy, _ = hole.circle
    opening = hole_opening(hole, 16)
    rounded = ho.rest_threshold(lambda d: ho.holds(opening, (cx - d, cy), 0.0, A / 2 - RHO))
    sharp = ho.rest_threshold(lambda d: ho.holds(opening, (cx - d, cy), 0.0, A / 2))
    assert rounded == pytest.approx(cx - ho.crossing(opening, cy, A, RHO).support, abs=0.00013)
    assert sharp == pytest.approx(cx - ho.crossing(opening, cy, A, 0.0).support, abs=0.00013)
    # turned by 45°, a sharp cube's corners reach around the rim: it bridges the hole 3 mm further in
    assert ho.rest_threshold(lambda d: ho.holds(opening, (cx - d, cy), math.pi / 4, A / 2)) < sharp - 0.002


def test_an_engine_outside_the_bounds_is_judged_wrong():
    b = ho.Bounds(0.5, 1.5)
    runs = [ho.Run(2.0, 0.0, "crossed", 2.0), ho.Run(2.0, 0.0, "rim", 2.0)]
    assert ho.judge(2.0, runs, b) == "WRONG"
    assert ho.judge(1.52, runs, b) == "band"  # within the tolerance
    assert ho.judge(0.3, [ho.Run(0.3, 0.0, "crossed", 0.3)], b) == "WRONG"
    assert ho.judge(0.3, [ho.Run(0.3, 0.0, "short", 0.3)], b) == "ok"


@pytest.mark.parametrize("speeds", ["0.5,fast", "0,1", "-1", ""])
def test_a_bad_speeds_value_is_one_clear_line_and_exit_2(speeds, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "holes", "--speeds", speeds])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--speeds" in err[0]
