"""render imports no doppelx and no physics; its data modules load without pyglet."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120
    )
    return out.stdout.strip()


def test_render_imports_neither_doppelx_nor_physics():
    code = (
        "import sys, pkgutil, importlib, render\n"
        "for m in pkgutil.walk_packages(render.__path__, 'render.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(','.join(m for m in ('doppelx', 'physics', 'pybullet') if m in sys.modules))\n"
    )
    assert _run(code) == ""


def test_snapshot_intents_aim_and_driver_need_no_pyglet():
    code = (
        "import sys\n"
        "import render.snapshot, render.intents, render.aim, render.driver, render.referee\n"
        "print('pyglet' in sys.modules)\n"
    )
    assert _run(code) == "False"
