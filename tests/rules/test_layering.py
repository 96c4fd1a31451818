"""The rules layer imports neither pybullet nor pyglet (design: rules ← physics ← render)."""

import subprocess
import sys
from pathlib import Path

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
