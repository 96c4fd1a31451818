"""The settle and converge scenes and the speed record of a machine kind (issue 34): each row
must fail on the regression it exists for, with real PyBullet and MuJoCo."""

from __future__ import annotations

import dataclasses

import pytest

from doppelx.bench import converge, settle
from doppelx.bench import speedrecord as sr
from doppelx.bench.common import Tally
from doppelx.bench.metrics import Check, Metric
from doppelx.cli import main
from physics.settings import SimSettings
from physics.world import World
from rules.doppelx.board_file import load_board


@pytest.fixture(scope="module")
def side_i():
    with World(load_board("I")) as w:
        yield w


def test_a_knocked_lying_die_slides_v2_over_2_mu_g(side_i):
    v, travel, expected = settle.knock(side_i, 0.42, Tally())
    assert 0.06 < v < 0.3
    assert travel == pytest.approx(expected, rel=0.25)


def test_the_slow_knock_bug_fails_the_knock_row():
    """PyBullet's default sleep threshold froze a lying die knocked slower than it (docs/physics.md)."""
    with World(load_board("I"), settings=SimSettings(sleep_threshold=0.224)) as w:
        v, travel, expected = settle.knock(w, 0.42, Tally())
    assert v < 0.224 and travel < 0.75 * expected


def test_loose_settle_thresholds_read_a_creeping_die_at_rest():
    s = SimSettings()
    loose = dataclasses.replace(
        s,
        settle_distance=10 * s.settle_distance,
        settle_angle=10 * s.settle_angle,
        settle_distance_leaning=10 * s.settle_distance_leaning,
        settle_angle_leaning=10 * s.settle_angle_leaning,
    )
    with World(load_board("I"), settings=loose) as w:
        bad, moved = settle.creep(w, Tally())
    assert bad >= 1 and moved > 1.0
    with World(load_board("I")) as w:
        assert settle.creep(w, Tally()) == (0, 0.0)


def test_hurled_throws_tunnel_without_sub_steps():
    assert settle.hurled(16, None, Tally())[0] == 0
    tunnelled, note = settle.hurled(16, SimSettings(max_travel=0.0), Tally())
    assert tunnelled > 0 and "throw" in note


def test_the_card_drops_settle_before_the_cap():
    with World(load_board("III")) as w:
        unsettled, longest = settle.card(w, 40, 53, Tally())
    assert unsettled == [] and longest < SimSettings().time_cap


def test_a_cut_in_solver_iterations_leaves_the_refined_reference():
    rows = {m.name: m for m in converge.run(None, Tally())}
    assert rows["knock.distance"].value <= converge.LIMITS["pybullet"]["knock"]
    cut = {m.name: m for m in converge.run(None, Tally(), SimSettings(solver_iterations=5))}
    assert cut["knock.distance"].value > converge.LIMITS["pybullet"]["knock"]


def test_mujoco_iterations_cut_leaves_the_refined_reference():
    from physics.mujoco_world import MujocoParams, import_mujoco

    import_mujoco()
    from physics.engine import make_world

    with_default = make_world(load_board("I"), engine="mujoco")
    ref = make_world(load_board("I"), engine="mujoco", params=converge.refined_params())
    cut = make_world(load_board("I"), engine="mujoco", params=MujocoParams(iterations=5))
    try:
        now, truth, bad = (converge.measure(w, Tally()) for w in (with_default, ref, cut))
    finally:
        for w in (with_default, ref, cut):
            w.close()
    limit = converge.LIMITS["mujoco"]["knock"] / 1e3
    assert abs(now["knock.x"] - truth["knock.x"]) < limit < abs(bad["knock.x"] - truth["knock.x"])


def test_a_record_of_the_machine_kind_judges_speed_where_this_host_has_none():
    metric = Metric("speed", "tray.steps_ratio", 1.0, check=Check(rel=0.2, better="higher"))
    shipped = sr.recorded(sr.empty(), [dataclasses.replace(metric, value=1.5)], "full", by_kind=True)
    (key,) = shipped["machines"]
    assert key == sr.kind_fingerprint() and "host" not in shipped["machines"][key]["machine"]
    assert sr.compare([metric], sr.empty(), "full", shipped)[0].verdict == "WORSE"  # 0.67× the record
    assert sr.compare([metric], sr.empty(), "full")[0].verdict == "info"  # no record at all
    own = sr.recorded(sr.empty(), [metric], "full")
    assert sr.compare([metric], own, "full", shipped)[0].verdict == "ok"  # this machine's own record first


def test_record_kind_goes_with_record_speed(tmp_path, capsys):
    argv = ["bench", "--quick", "--scene", "incline", "speed", "--record-kind"]
    assert main([*argv, "--speed-record", str(tmp_path / "s.json")]) == 2
    assert "--record-kind goes with --record-speed" in capsys.readouterr().err
