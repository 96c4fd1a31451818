"""The identity of the code that makes a batch run's rows: a SHA-256 of its sources and libraries.

A run's fingerprint (``doppelx.batch.plan.RunSpec.fingerprint``) says "same fingerprint ⇒
same rows" — true only if the code that throws and scores is the same too. A run therefore
pins :func:`code_version` among its parameters (``code_sha256``, with the board and dice
files' pins: ``doppelx.batch.params.pin_files``), so that:

* an interrupted run resumed by another version of the simulator is refused (rows of two
  physics never mix in one table), with a message saying so;
* a worker whose code differs from the run's — a Ray node with another checkout or other
  libraries, a pool worker started after a source was edited — refuses its chunk instead of
  writing rows of other code (:func:`check_worker_code`). A worker works its version out
  once, when it starts: an edit made while it runs is not seen by it (nor by the modules it
  has loaded already).

What counts: every Python file of the packages ``rules``, ``physics`` and ``doppelx`` that a
batch worker can run — not the window (``doppelx/games/doppelx/play``), the sibling games (their
folders under ``doppelx/games`` and ``rules``), the command line and the parent's side of a run
(``doppelx/commands``, ``cli``, the run store, the reports, the backends, the pool: they
build the parameters, which the run pins itself, and write what the workers return) or the
bench scenes — the DoppelX assets (the sides' TOML files, box, dice, bet cards, materials,
the restitution calibration), the Python minor version, and the versions of PyBullet, NumPy
and Shapely (and MuJoCo's for a run on MuJoCo). A change to any of them, even one that
leaves the rows alone (a comment), makes another code version: the check is conservative,
never lenient. ``tests/badinput/test_badinput_batch.py`` runs a chunk of each kind in a
fresh process and checks that every module of this checkout it loads is hashed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import sys
from pathlib import Path

#: The checkout's root (the folder holding ``rules``, ``physics``, ``doppelx`` and ``assets``).
ROOT = Path(__file__).resolve().parents[2]
#: Packages whose Python sources make the rows.
PACKAGES = ("rules", "physics", "doppelx")
#: Folders and modules inside them that no batch worker runs (a test runs chunks and checks
#: that every module of the checkout a worker loads is hashed).
LEFT_OUT = (
    "doppelx/games/doppelx/play",
    "doppelx/games/clever",
    "doppelx/games/doppelspiel",
    "doppelx/games/oder_nichts",
    "doppelx/games/wuerfelblitz",
    "doppelx/games/options.py",
    "doppelx/commands",
    "doppelx/bench",
    "doppelx/__main__.py",
    "doppelx/cli.py",
    "doppelx/terminal.py",
    "doppelx/board_picture.py",
    "doppelx/logs.py",
    "doppelx/batch/backends.py",
    "doppelx/batch/pool.py",
    "doppelx/batch/report.py",
    "doppelx/batch/stats.py",
    "doppelx/batch/store.py",
    "doppelx/batch/sweep.py",
    "rules/clever",
    "rules/doppelspiel",
    "rules/oder_nichts",
    "rules/wuerfelblitz",
    "rules/doppelx/style.py",
    "rules/common/atomic.py",
    "rules/doppelx/game_state_io.py",
    "rules/conformance.py",
    "rules/contract.py",
    "rules/doppelx/table_state.py",
)
#: Asset files (under ``assets/``) that make the rows: the table, the dice and their physics
#: (of a folder its TOML files, so an editor's swap file there is no other code).
ASSETS = (
    "__init__.py",
    "boards",
    "box.toml",
    "dice.toml",
    "bet_cards.toml",
    "materials.toml",
    "restitution_calibration.toml",
)
#: Libraries whose versions are part of the code (the engine, the random streams, geometry);
#: MuJoCo's only for a run on MuJoCo (:func:`library_versions`).
LIBRARIES = ("pybullet", "numpy", "shapely")


def source_files(root: Path = ROOT) -> list[Path]:
    """The files :func:`code_version` hashes, in a fixed order (by path relative to ``root``)."""
    files = [f for pkg in PACKAGES for f in (root / pkg).rglob("*.py")]
    for name in ASSETS:
        path = root / "assets" / name
        files.extend(sorted(path.rglob("*.toml")) if path.is_dir() else [path])
    kept = [f for f in files if f.is_file() and not _left_out(f.relative_to(root).as_posix())]
    return sorted(kept, key=lambda f: f.relative_to(root).as_posix())


def _left_out(relative: str) -> bool:
    return any(relative == d or relative.startswith(d + "/") for d in LEFT_OUT)


def library_versions(engine: str = "pybullet") -> dict[str, str]:
    """``{library: version}`` of :data:`LIBRARIES`, with MuJoCo's for ``engine`` "mujoco"
    (``"-"`` where one is not installed)."""
    versions = {}
    for name in (*LIBRARIES, "mujoco") if engine == "mujoco" else LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "-"
    return versions


def compute_code_version(root: Path = ROOT, engine: str = "pybullet") -> str:
    """SHA-256 (hex) of the sources, assets, Python minor version and library versions."""
    h = hashlib.sha256()
    for path in source_files(root):
        data = path.read_bytes()
        h.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    h.update(f"python {sys.version_info[0]}.{sys.version_info[1]}\0".encode())
    for name, version in library_versions(engine).items():
        h.update(f"{name} {version}\0".encode())
    return h.hexdigest()


@functools.cache
def code_version(engine: str = "pybullet") -> str:
    """:func:`compute_code_version` of this installation for a run on ``engine``, worked out
    once per process."""
    return compute_code_version(engine=engine)


def check_worker_code(params: dict) -> None:
    """Refuse to run a chunk of a run pinned to other code than this worker's.

    A run without a pin (made before runs pinned their code, or built by a script rather
    than ``doppelx simulate``) is not checked.
    """
    pinned = params.get("code_sha256")
    mine = code_version(params.get("engine") or "pybullet")
    if pinned is not None and pinned != mine:
        from rules.common.errors import DoppelXError

        raise DoppelXError(
            f"this worker runs other code than the run was made with (code {mine[:12]}, "
            f"the run's {str(pinned)[:12]}): its rows would not match; give every worker the same "
            f"checkout and libraries ({ROOT})"
        )
