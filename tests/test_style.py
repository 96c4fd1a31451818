"""Style is checked by machines: ruff's linter and formatter over the whole tree, mypy
over the packages (both configured in pyproject.toml; mypy checks every function body).

Run ``ruff check --fix . && ruff format . && mypy`` to bring a change in line before committing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    exe = Path(sys.executable).with_name(name)
    if exe.exists():
        return [str(exe)]
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return [found]


def _ruff() -> list[str]:
    return _tool("ruff")


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff_is_clean(args):
    out = subprocess.run(_ruff() + args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_is_clean():
    out = subprocess.run(_tool("mypy"), cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
