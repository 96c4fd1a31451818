"""The MuJoCo world: builds the same tray, runs throws to rest, is deterministic, bounces right."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("mujoco")

from doppelx.bench.engines import rebound
from doppelx.bench.throws import standard_turns
from physics.engine import EngineError, check_engine, make_world
from physics.mujoco_materials import damping_ratio, restitution_of
from physics.mujoco_world import MujocoWorld
from physics.run import run_throw
from rules.common.rng import make_rng
from rules.doppelx.board_file import load_board
from rules.doppelx.outcome import Status


@pytest.fixture(scope="module")
def world_iii():
    w = make_world(load_board("III"), engine="mujoco")
    yield w
    w.close()


def test_world_builds_the_layout_of_every_side():
    for side in ("I", "II", "III", "IV"):
        w = MujocoWorld(load_board(side))
        w.reset({}, 0.4, ())
        m = w.model
        names = {w.mj.mj_id2name(m, w.mj.mjtObj.mjOBJ_GEOM, g) for g in range(m.ngeom)}
        assert {b.name for b in w.layout.boxes} <= names
        assert {h.name for h in w.layout.hulls} <= names
        if w.layout.spinner is not None:
            assert "spinner" in names and w.spinner_angle() == pytest.approx(0.4)
        w.close()


def test_hulls_stand_where_the_layout_puts_them(world_iii):
    w = world_iii
    w.reset({}, 0.0, ())
    m, d = w.model, w.data
    for h in w.layout.hulls:
        g = w.mj.mj_name2id(m, w.mj.mjtObj.mjOBJ_GEOM, h.name)
        mesh = m.geom_dataid[g]
        a, n = m.mesh_vertadr[mesh], m.mesh_vertnum[mesh]
        placed = m.mesh_vert[a : a + n] @ d.geom_xmat[g].reshape(3, 3).T + d.geom_xpos[g]
        ref = h.world_vertices()
        assert np.min(np.linalg.norm(placed[:, None] - ref[None], axis=2), axis=1).max() < 1e-6


def test_throw_runs_to_rest_with_valid_statuses(world_iii):
    board, items = standard_turns(2, make_rng(5), "III")
    for lying, throw in items:
        r = run_throw(world_iii, throw, lying)
        assert r.settled and r.tunnel_events == ()
        assert [d.owner for d in r.outcome.dice] == [*throw.owners, *lying]
        for d in r.outcome.dice:
            assert d.status in (Status.BOARD, Status.HOLE, Status.OFF)
            x, y, z = d.pose.position
            if d.status is Status.BOARD:
                assert abs(x) < 0.135 and abs(y) < 0.135 and z > 0
        untouched = [o for o in lying if r.outcome.get(o).pose == lying[o]]
        assert untouched  # dice the throw did not reach keep their exact lying pose


def test_same_seed_same_outcome_in_a_fresh_world(world_iii):
    board, items = standard_turns(1, make_rng(11), "III")
    lying, throw = items[0]
    a = run_throw(world_iii, throw, lying)
    run_throw(world_iii, *standard_turns(1, make_rng(12), "III")[1][0][::-1])  # something else between
    b = run_throw(world_iii, throw, lying)
    fresh = make_world(load_board("III"), engine="mujoco")
    c = run_throw(fresh, throw, lying)
    fresh.close()
    assert a.outcome.dice == b.outcome.dice == c.outcome.dice
    assert a.steps == b.steps == c.steps


def test_flat_drop_rebounds_with_the_material_restitution():
    # within ±0.05 at every speed (issue 11's aim); the onset of the contact within a step
    # moves it by up to ±0.04 from speed to speed (docs/physics.md)
    w = MujocoWorld(load_board("I"))
    e = w.materials.pair("cardboard").restitution
    for speed in (0.5, 1.3, 2.0, 3.7):
        assert rebound(w, speed) == pytest.approx(e, abs=0.05)
    w.close()


def test_die_rests_at_its_half_edge_and_spinner_bearing_holds():
    w = MujocoWorld(load_board("III"))
    w.reset({}, 0.0, ())
    w.add_die("blue", (0.06, -0.02, 0.0081), (0.0, 0.0, 0.0, 1.0))
    for _ in range(800):
        w.step()
    assert w.pose("blue")[0][2] == pytest.approx(w.dice["blue"].half, abs=5e-5)
    w.set_spinner(0.0, 1.0)  # 1 rad/s: the bearing's Coulomb torque stops it within a turn
    for _ in range(8000):
        w.step()
    assert abs(w.spinner_speed()) < 1e-3 and 0.0 < w.spinner_angle() < 2 * math.pi


def test_restitution_to_damping_ratio_round_trip():
    for e in (0.2, 0.35, 0.4, 0.6, 0.9):
        z = damping_ratio(e)
        assert 0 < z < 1 and restitution_of(z) == pytest.approx(e, abs=1e-9)
    # the linear oscillator's ratio rebounds harder once the spring may only push (0.40 -> 0.47)
    zeta_linear = -math.log(0.4) / math.sqrt(math.pi**2 + math.log(0.4) ** 2)
    assert restitution_of(zeta_linear) == pytest.approx(0.472, abs=0.002)


def test_unknown_engine_is_a_user_error():
    with pytest.raises(EngineError, match="unknown physics engine 'ode'"):
        check_engine("ode")


def test_a_die_resting_on_another_is_held_as_long_as_a_leaning_die():
    """MuJoCo's run loop keeps PyBullet's rule: a die not lying flat must keep its pose longer."""
    from physics.throw import DieRelease, Throw
    from rules.doppelx.outcome import Pose

    world = make_world(load_board("I"), engine="mujoco")
    try:
        half = world.dice["blue"].half
        x, y = 0.06, -0.09
        red = {"red": Pose((x, y, half), (0.0, 0.0, 0.0, 1.0))}
        still = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))

        def placed(z: float) -> Throw:
            return Throw((DieRelease("blue", (x, y, z), (0.0, 0.0, 0.0, 1.0), *still),))

        flat = run_throw(world, placed(half + 0.0005))  # blue alone, flat on the playfield
        stacked = run_throw(world, placed(3 * half + 0.0005), red)  # blue on top of red
    finally:
        world.close()
    s = world.settings
    assert flat.settled and flat.sim_time < s.settle_hold_leaning
    assert stacked.settled and stacked.sim_time >= s.settle_hold_leaning
    assert stacked.outcome.get("blue").pose.position[2] == pytest.approx(3 * half, abs=0.001)
