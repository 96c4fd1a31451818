"""Run ``python -m doppelx ARGS`` in a child process, as a user's shell would, for the tests
that need a real process (another environment, a display, a cluster, a signal)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: The checkout the tests run from: the child imports this tree's code whatever its folder.
REPO = Path(__file__).resolve().parents[2]


def run_doppelx(
    args: list[str],
    *,
    cwd: Path | str = REPO,
    env: Mapping[str, str] | None = None,
    drop: tuple[str, ...] = (),
    timeout: float = 120,
    stdin: str | None = None,
) -> subprocess.CompletedProcess:
    """``python -m doppelx *args`` in ``cwd`` with this environment, ``env`` over it and the
    variables ``drop`` (names, or prefixes ending in ``*``) left out; text output captured."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if not any(k == d or (d.endswith("*") and k.startswith(d[:-1])) for d in drop)
    }
    environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), environ.get("PYTHONPATH", "")) if p)
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "doppelx", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=stdin,
    )
