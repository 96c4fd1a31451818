"""Mutation test of ``doppelx bench``: does the bench catch the regressions it exists for?

    python benchmarks/bench_mutations.py [--profile quick|full|both] [--only NAME ...]
                                         [--results FILE.json] [--again] [--list] [--json]

Each mutation in :data:`MUTATIONS` is a realistic regression (a solver setting, a material,
the die's shape or mass, the settle and sleep tests, MuJoCo's solver) or a harmless
refactor, written as an exact text substitution in one file. For each, the project is
copied to a temporary folder (the files git knows, as they are in the working tree), the
substitution is applied there (it must match exactly as often as written, else the
mutation is reported as stale), and ``doppelx bench`` runs on the copy — ``--engine
mujoco`` for MuJoCo's mutations — with ``--json --out``. Printed per mutation: the rows
whose verdict failed the run (``WORSE``, ``CHANGED``, ``FAIL``, ``MISSING``), and whether
that is right: a regression must be caught by a row other than the pose hash (which is
information), a harmless refactor must pass. Besides the two refactors, one control:
split impulse off, which with its threshold of −0.04 m (deeper than any die ever sinks)
changes nothing — the pose hash tells whether the physics stayed bit for bit.

Both profiles run every scene but speed (which repeats every scene and so doubles the
run; the quick profile's speed band, 40 %, is too wide to catch a regression anyway),
except the full run of the mutations marked ``speed``: the tray scene timed (``--scene
tray speed``) and judged against the shipped record of this kind of machine
(``assets/bench_speed_record.json``). A quick run
takes about 1 minute of one core, a full one 10–20.

Results are kept in ``--results`` (default ``runs/bench_mutations.json``) after every run,
so an interrupted run resumes where it stopped; ``--again`` runs the chosen ones anew.
``--only`` runs a subset. Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from doppelx.cli import OneLineParser  # noqa: E402

FAILING = ("WORSE", "CHANGED", "FAIL", "MISSING")


@dataclass(frozen=True)
class Mutation:
    """One substitution: ``old`` → ``new`` in ``path``, exactly ``count`` times.

    ``harmless``: a refactor that must pass. ``engine``: the bench engine that can see it.
    ``speed``: only speed can catch it (its full run includes the speed scene).
    """

    name: str
    what: str
    path: str
    old: str
    new: str
    count: int = 1
    harmless: bool = False
    engine: str = "pybullet"
    speed: bool = False


S = "physics/settings.py"
M = "physics/mujoco_world.py"
MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "iterations",
        "PyBullet solver iterations 50 → 10",
        S,
        "solver_iterations: int = 50",
        "solver_iterations: int = 10",
    ),
    Mutation(
        "time_step",
        "PyBullet step 1/240 → 1/120 s",
        S,
        "time_step: float = 1.0 / 240.0",
        "time_step: float = 1.0 / 120.0",
    ),
    Mutation(
        "substeps_off", "adaptive sub-steps off", S, "max_travel: float = 0.003", "max_travel: float = 0.0"
    ),
    Mutation(
        "restitution_up",
        "die–cardboard restitution +0.15",
        "assets/materials.toml",
        "restitution = 0.40\n",
        "restitution = 0.55\n",
    ),
    Mutation(
        "restitution_down",
        "die–cardboard restitution −0.15",
        "assets/materials.toml",
        "restitution = 0.40\n",
        "restitution = 0.25\n",
    ),
    Mutation(
        "friction_half",
        "die–cardboard friction halved",
        "assets/materials.toml",
        "friction = 0.35\nrestitution = 0.40\n",
        "friction = 0.175\nrestitution = 0.40\n",
    ),
    Mutation("erp", "contact ERP 0.08 → 0.2", S, "contact_erp: float = 0.08", "contact_erp: float = 0.2"),
    Mutation(
        "split_impulse_all",
        "split impulse for every penetration (threshold −0.04 → 0 m)",
        S,
        "split_impulse_threshold: float = -0.04",
        "split_impulse_threshold: float = 0.0",
    ),
    Mutation(
        "breaking_threshold",
        "contact breaking threshold 2 → 20 mm",
        S,
        "contact_threshold: float = 0.002",
        "contact_threshold: float = 0.02",
        speed=True,
    ),
    Mutation(
        "edge_rounding_0",
        "die edge rounding 2.5 → 0 mm",
        "assets/dice.toml",
        "edge_radius = 2.5 ",
        "edge_radius = 0.0 ",
    ),
    Mutation(
        "die_mass", "die mass 4.5 → 5.4 g (+20 %)", "assets/dice.toml", "mass_g = 4.5 ", "mass_g = 5.4 "
    ),
    Mutation(
        "settle_x10",
        "settle thresholds ×10 (distance, angle, leaning distance and angle)",
        S,
        "settle_distance: float = 0.0005\n    settle_angle: float = 0.0175\n    settle_hold: float = 0.15\n"
        "    settle_hold_leaning: float = 1.5\n    settle_distance_leaning: float = 0.0001\n"
        "    settle_angle_leaning: float = 0.00175\n",
        "settle_distance: float = 0.005\n    settle_angle: float = 0.175\n    settle_hold: float = 0.15\n"
        "    settle_hold_leaning: float = 1.5\n    settle_distance_leaning: float = 0.001\n"
        "    settle_angle_leaning: float = 0.0175\n",
    ),
    Mutation(
        "sleep_threshold",
        "sleep threshold 0.05 → 0.224 m/s (PyBullet's default)",
        S,
        "sleep_threshold: float = 0.05",
        "sleep_threshold: float = 0.224",
    ),
    Mutation(
        "box_plus5",
        "die collision box +5 %",
        "physics/world.py",
        "halfExtents=[spec.half] * 3",
        "halfExtents=[spec.half * 1.05] * 3",
    ),
    Mutation(
        "hole_frames_boxes",
        "hole frames as boxes instead of hulls",
        S,
        'hole_frames: str = "hulls"',
        'hole_frames: str = "boxes"',
    ),
    Mutation(
        "mujoco_step",
        "MuJoCo step 1/3840 → 1/1920 s",
        M,
        "time_step: float = 1.0 / 3840.0",
        "time_step: float = 1.0 / 1920.0",
        engine="mujoco",
    ),
    Mutation(
        "mujoco_cone",
        "MuJoCo friction cone elliptic → pyramidal",
        M,
        'cone: str = "elliptic"',
        'cone: str = "pyramidal"',
        engine="mujoco",
    ),
    Mutation(
        "mujoco_iterations",
        "MuJoCo iterations 50 → 5",
        M,
        "iterations: int = 50",
        "iterations: int = 5",
        engine="mujoco",
    ),
    Mutation(
        "inertia_s_times_s",
        "refactor: s**2 → s*s in the die's inertia",
        "rules/doppelx/dice.py",
        "self.mass * self.size**2 / 6",
        "self.mass * self.size * self.size / 6",
        harmless=True,
    ),
    Mutation(
        "split_impulse_off",
        "control: split impulse off — a no-op while its threshold (−0.04 m) is deeper than any die contact",
        S,
        "split_impulse: bool = True",
        "split_impulse: bool = False",
        harmless=True,
    ),
    Mutation(
        "rename_local",
        "refactor: a local variable renamed in the run loop",
        "physics/run.py",
        "fastest",
        "fastest_point",
        count=0,
        harmless=True,
    ),
)


#: Folders never copied when ``root`` is not a git checkout.
SKIP = {".git", ".venv", "__pycache__", "runs", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def project_files(root: Path) -> list[str]:
    """The files git knows in ``root`` (tracked and new, not ignored); outside a git checkout
    (a snapshot), every file but those under :data:`SKIP`."""
    out = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=root, capture_output=True, text=True
    )
    if out.returncode == 0 and (root / ".git").exists():
        return [f for f in out.stdout.splitlines() if (root / f).is_file()]
    return [
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and not SKIP.intersection(p.relative_to(root).parts)
    ]


def copy_project(root: Path, dest: Path) -> None:
    """Copy the project's files (as in the working tree) from ``root`` to ``dest``."""
    for f in project_files(root):
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / f, target)


def apply(m: Mutation, dest: Path) -> None:
    """Apply ``m`` in the copy at ``dest``; ``count == 0`` means every occurrence (at least one)."""
    path = dest / m.path
    text = path.read_text(encoding="utf-8")
    found = text.count(m.old)
    if (m.count and found != m.count) or found == 0:
        raise ValueError(
            f"mutation {m.name}: {m.old!r} occurs {found} times in {m.path}, expected {m.count or 'some'}"
        )
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")


def bench_command(m: Mutation, profile: str, copy: Path) -> list[str]:
    """The ``doppelx bench`` command for ``m`` in ``profile`` on the copy."""
    cmd = [sys.executable, "-m", "doppelx", "bench", "--json", "--out", str(copy / "result.json")]
    from doppelx.bench.suite import ENGINE_SCENES

    if profile == "quick":
        cmd.append("--quick")
    if profile == "quick" or not m.speed:
        cmd += ["--scene", *[s for s in ENGINE_SCENES[m.engine] if s != "speed"]]
    else:  # a speed-only regression: the tray's standard turns, timed against the shipped record
        cmd += ["--scene", "tray", "speed"]
    if m.engine != "pybullet":
        cmd += ["--engine", m.engine]
    return cmd


def run_one(m: Mutation, profile: str, root: Path) -> dict:
    """Copy, mutate, run the bench; the failed rows and the verdict."""
    with tempfile.TemporaryDirectory(prefix=f"bench-mut-{m.name}-") as tmp:
        copy = Path(tmp)
        copy_project(root, copy)
        try:
            apply(m, copy)
        except ValueError as exc:
            return {"stale": str(exc)}
        env = dict(os.environ, PYTHONPATH=str(copy))
        t0 = time.perf_counter()
        proc = subprocess.run(
            bench_command(m, profile, copy), cwd=copy, env=env, capture_output=True, text=True
        )
        wall = round(time.perf_counter() - t0, 1)
        result_file = copy / "result.json"
        if not result_file.exists():
            return {"exit": proc.returncode, "wall_s": wall, "error": proc.stderr.strip().splitlines()[-1:]}
        result = json.loads(result_file.read_text(encoding="utf-8"))
    failed = [f"{r['scene']}/{r['metric']} {r['verdict']}" for r in result["rows"] if r["verdict"] in FAILING]
    physical = [f for f in failed if not f.startswith("tray/pose_hash")]
    hashes = [r for r in result["rows"] if r["scene"] == "tray" and r["metric"] == "pose_hash"]
    same = hashes[0]["value"] == hashes[0]["baseline"] if hashes else None
    return {
        "exit": proc.returncode,
        "wall_s": wall,
        "caught_by": failed,
        "physical": bool(physical),
        "pose_hash_unchanged": same,
    }


def judged(m: Mutation, res: dict | None) -> str:
    """``caught``/``MISSED`` for a regression, ``passed``/``FALSE ALARM`` for a harmless one."""
    if res is None:
        return "not run"
    if "stale" in res:
        return "STALE"
    if "error" in res:
        return "ERROR"
    if m.harmless:
        return "passed" if res["exit"] == 0 else "FALSE ALARM"
    return "caught" if res["physical"] else "MISSED"


def table(results: dict, profiles: list[str]) -> str:
    """A Markdown table: mutation, what, and per profile the verdict and the rows that caught it."""
    head = "| mutation | what | " + " | ".join(profiles) + " |"
    lines = [head, "|" + "---|" * (2 + len(profiles))]
    for m in MUTATIONS:
        cells = []
        for p in profiles:
            res = results.get(f"{m.name}@{p}")
            verdict = judged(m, res)
            rows = ", ".join(res.get("caught_by", [])[:6]) if res else ""
            more = len(res.get("caught_by", [])) - 6 if res else 0
            cells.append(
                f"{verdict}" + (f": {rows}" if rows else "") + (f" (+{more} more)" if more > 0 else "")
            )
        lines.append(f"| {m.name} | {m.what} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = OneLineParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", choices=("quick", "full", "both"), default="quick")
    ap.add_argument("--only", nargs="+", metavar="NAME", choices=[m.name for m in MUTATIONS])
    ap.add_argument("--results", default="runs/bench_mutations.json", metavar="FILE.json")
    ap.add_argument("--again", action="store_true", help="run the chosen mutations anew")
    ap.add_argument("--list", action="store_true", help="list the mutations and stop")
    ap.add_argument("--table", action="store_true", help="print the table of the results kept and stop")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.list:
        for m in MUTATIONS:
            kind = "harmless" if m.harmless else "regression"
            print(f"{m.name:20} {kind:10} {m.engine:8} {m.path}: {m.what}")
        return 0
    profiles = ["quick", "full"] if args.profile == "both" else [args.profile]
    results_path = Path(args.results)
    results = json.loads(results_path.read_text(encoding="utf-8")) if results_path.exists() else {}
    by_name = {m.name: m for m in MUTATIONS}
    chosen = (
        [by_name[n] for n in dict.fromkeys(args.only)] if args.only else list(MUTATIONS)
    )  # --only's order
    if not args.table:
        for p in profiles:
            for m in chosen:
                key = f"{m.name}@{p}"
                if key in results and not args.again:
                    continue
                print(f"bench_mutations: {key} …", file=sys.stderr, flush=True)
                results[key] = run_one(m, p, ROOT)
                print(
                    f"bench_mutations: {key}: {judged(m, results[key])} {results[key]}",
                    file=sys.stderr,
                    flush=True,
                )
                results_path.parent.mkdir(parents=True, exist_ok=True)
                tmp = results_path.with_suffix(".tmp")
                tmp.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
                tmp.replace(results_path)
    shown = sorted({k.split("@")[1] for k in results} | set(profiles), key=["quick", "full"].index)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(table(results, shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
