"""The rules layer imports neither pybullet nor pyglet (design: rules ← physics ← render)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_rules_import_no_physics_or_gl():
    code = (
        "import sys, pkgutil, importlib, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in ('pybullet', 'pyglet', 'physics', 'render', 'doppelx') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "", f"rules imported {out.stdout.strip()}"


def test_score_command_runs_without_physics_stack():
    code = (
        "import sys\n"
        "from doppelx.cli import main\n"
        "rc = main(['score', '--state', 'tests/data/states/E2.json', '--json'])\n"
        "assert rc == 0\n"
        "print(','.join(m for m in ('pybullet', 'pyglet') if m in sys.modules), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stderr.strip() == ""


@pytest.mark.parametrize(
    "args",
    [
        ["clever", "--bots-only", "--games", "1", "--seed", "1"],
        ["doppel", "--bots-only", "--games", "1", "--seed", "1"],
        ["blitz", "--bots-only", "--games", "1", "--seed", "1"],
        ["oder-nichts", "--bots-only", "--games", "1", "--seed", "1"],
    ],
    ids=lambda a: a[0],
)
def test_the_sibling_games_run_without_physics_or_gl(args):
    """The four terminal games are plain logic: no physics engine, GL or plotting stack is loaded."""
    code = (
        "import sys\n"
        "from doppelx.cli import main\n"
        f"rc = main({args!r})\n"
        "assert rc == 0, rc\n"
        "heavy = ('pybullet', 'mujoco', 'pyglet', 'render', 'physics.world', 'matplotlib', 'trimesh', 'ray')\n"
        "print('loaded:' + ','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stderr.strip().splitlines()[-1] == "loaded:", f"{args[0]}: {out.stderr.strip()[-500:]}"
