"""The world: every static piece is there, dice lying from earlier throws stay put, options."""

from __future__ import annotations

import os

import numpy as np
import pytest
import shapely

from physics.run import run_throw
from physics.world import World
from rules.doppelx.board_file import BUILTIN_SIDES, load_board
from rules.doppelx.dice import load_dice
from rules.doppelx.outcome import Pose
from tests.helpers.releases import drop, throw_of

DICE = load_dice()


@pytest.mark.parametrize("side", BUILTIN_SIDES)
def test_every_static_piece_is_solid(side):
    """A ray straight down onto any point of any piece's top hits it (PyBullet drops compound
    children beyond 16 without a word; the world splits larger groups)."""
    with World(load_board(side)) as w:
        w.reset({})
        rng = np.random.default_rng(0)
        starts, ends = [], []
        for piece in w.layout.boxes:
            if piece.name.startswith("table") or piece.name == "spinner:pin":
                continue
            fp = piece.footprint()
            top = piece.position[2] + piece.half_extents[2]
            for x, y in shapely.get_coordinates(
                shapely.points(rng.uniform(*fp.bounds[::2], 8), rng.uniform(*fp.bounds[1::2], 8))
            ):
                if fp.contains(shapely.Point(x, y)):
                    starts.append((x, y, top + 0.0005))
                    ends.append((x, y, top - 0.0005))
        for hull in w.layout.hulls:
            c = hull.world_vertices().mean(axis=0)
            starts.append((c[0], c[1], c[2] + 0.01))
            ends.append((c[0], c[1], c[2] - 0.01))
        hits = w.p.rayTestBatch(starts, ends, physicsClientId=w.client)
        missing = [s for s, h in zip(starts, hits) if h[0] < 0]
        assert not missing


def test_dice_lying_untouched_keep_their_exact_pose(world_i):
    lying = {
        "red": Pose.resting(DICE["red"], -0.10, -0.10, 0.3, "2"),
        "green": Pose.resting(DICE["green"], 0.10, 0.03, 1.1, "X"),
    }
    throw = throw_of(drop("blue", 0.02, -0.02, 0.03))
    r = run_throw(world_i, throw, lying)
    for owner, pose in lying.items():
        assert r.outcome.get(owner).pose is pose


def test_a_die_leaning_on_nothing_falls(world_i):
    """A lying die whose support was taken away (it leant on a lifted die) settles down."""
    tilted = Pose((0.05, 0.05, 0.012), (0.2588, 0.0, 0.0, 0.9659))  # 30° about x, in the air
    r = run_throw(world_i, throw_of(drop("blue", -0.05, -0.05, 0.03)), {"red": tilted})
    red = r.outcome.get("red")
    assert red.pose.position[2] == pytest.approx(DICE["red"].half, abs=1e-3)


def test_thrown_and_lying_die_must_differ(world_i):
    with pytest.raises(ValueError, match="lift it"):
        run_throw(
            world_i, throw_of(drop("red", 0, 0, 0.03)), {"red": Pose.resting(DICE["red"], 0, 0, 0, "1")}
        )


def test_spinner_is_optional():
    with World(load_board("III"), spinner=False) as w:
        w.reset({})
        assert w.spinner_id is None and w.layout.spinner is None
        assert w.spinner_angle() == 0.0
    with World(load_board("III")) as w:
        w.reset({}, spinner_angle=1.0)
        assert w.spinner_angle() == pytest.approx(1.0)


def test_close_makes_the_world_unusable():
    w = World(load_board("I"))
    w.close()
    assert w.client == -1
    w.close()  # twice is harmless


def test_hull_files_are_shared_by_content_and_no_process_leaves_a_folder_behind(tmp_path):
    """Every killed worker had left a /tmp/doppelx-hulls-<random> folder of its own (390 of them
    after a day of batches): the files now live in one folder per user, named by content."""
    import subprocess
    import sys

    code = (
        f"import tempfile, os; tempfile.tempdir = {str(tmp_path)!r}\n"
        "from physics.world import hull_box_file\n"
        "a = hull_box_file((0.01, 0.02, 0.005)); b = hull_box_file((0.01, 0.02, 0.005))\n"
        "assert a == b and open(a).read().startswith('v ')\n"
        "print(a)\n"
        "os._exit(0)  # killed, in effect: no clean-up runs\n"
    )
    paths = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(paths) == 1  # the second process reused the first one's file
    (path,) = paths
    assert [p.name for p in tmp_path.iterdir()] == [os.path.basename(os.path.dirname(path))]
    assert not [p for p in os.listdir(os.path.dirname(path)) if p.startswith(".part-")]
