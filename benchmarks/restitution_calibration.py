"""Measure each engine's restitution curves and write ``assets/restitution_calibration.toml``.

    python benchmarks/restitution_calibration.py [--engines pybullet,mujoco] [--out PATH] [--check]

For every input coefficient 0.05, 0.10, … 0.95 handed straight to the engine
(``SimSettings(restitution_calibration=False)``), two scenes at 0.5, 1, 2, 3 and 4 m/s,
averaged over the speeds (:func:`doppelx.bench.restitution.rebound_curve`):

* ``drop``: the die–cardboard pair carries the input, a die falls flat onto side I's
  playfield, and the rebound ratio is the rise to the first bounce's apex (as ``doppelx
  bench restitution`` measures it);
* ``head_on``: the die–die pair carries it, two dice meet face to face with gravity off,
  and the ratio is the relative speed after over before.

The curves are written, atomically, to ``--out`` (default: the shipped asset), which
:mod:`physics.restitution_calibration` inverts so that each engine realises the
materials' coefficients. ``--check`` writes nothing: it prints the fresh curves beside
the file's and exits 1 where they differ by more than 0.005. About 2 s of one core.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench.restitution import CALIBRATION_INPUTS, CALIBRATION_SPEEDS, rebound_curve
from physics.restitution_calibration import CALIBRATED_ENGINES, FORMAT, SCENES, load_calibration
from rules.common.assets import asset_path
from rules.common.atomic import write_text
from rules.common.errors import DoppelXError

#: Largest difference between a fresh curve and the file's that ``--check`` accepts.
TOLERANCE = 0.005


def usable(rebounds) -> list[tuple[float, float]]:
    """The ``(input, rebound)`` points a calibration can invert: rebounds rising, none above 1.

    A point whose rebound does not exceed the last kept one is left out (MuJoCo's very
    dead contacts rebound alike), and so is every point from the first rebound above 1
    on (MuJoCo's contact spring with almost no damping launches the die: inputs 0.90 and
    0.95 rebounded 1.10 and 2.05).
    """
    kept: list[tuple[float, float]] = []
    for x, y in zip(CALIBRATION_INPUTS, rebounds):
        if y > 1.0:
            break
        if not kept or y > kept[-1][1]:
            kept.append((x, y))
    return kept


def toml_text(curves: dict[str, dict[str, list[float]]]) -> str:
    """The calibration file for ``curves`` (engine → scene → rebound per input of the grid)."""

    def numbers(values) -> str:
        return "[" + ", ".join(f"{v:.4f}" for v in values) + "]"

    lines = [
        f'format = "{FORMAT}"',
        "# Per engine and scene, the mean rebound ratio measured for each input coefficient the",
        "# engine was handed, at the impact speeds below: drop = a die falling flat onto side I's",
        "# playfield (rise to the first apex; every die-surface pair), head_on = two dice face to",
        "# face with gravity off (die-die). Written by benchmarks/restitution_calibration.py;",
        "# physics/restitution_calibration.py reads it.",
        f"speeds = {numbers(CALIBRATION_SPEEDS)}",
    ]
    for engine, scenes in curves.items():
        for scene, rebounds in scenes.items():
            points = usable(rebounds)
            lines += [
                "",
                f"[{engine}.{scene}]",
                f'command = "python benchmarks/restitution_calibration.py --engines {engine}"',
                f"coefficients = {numbers(x for x, _ in points)}",
                f"rebounds = {numbers(y for _, y in points)}",
            ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default=",".join(CALIBRATED_ENGINES), help="comma-separated (default: both)")
    ap.add_argument(
        "--out", default=str(asset_path("restitution_calibration.toml")), help="the file to write"
    )
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = ap.parse_args(argv)
    engines = [e for e in args.engines.split(",") if e]
    bad = [e for e in engines if e not in CALIBRATED_ENGINES]
    if bad or not engines:
        print(
            f"restitution_calibration.py: --engines: unknown engine {bad[0] if bad else '(none)'!r} "
            f"(known: {', '.join(CALIBRATED_ENGINES)})",
            file=sys.stderr,
        )
        return 2
    old = {}
    if args.check or set(engines) != set(CALIBRATED_ENGINES):  # the file's curves are needed
        try:
            old = load_calibration(args.out) if Path(args.out).exists() else {}
        except DoppelXError as exc:
            print(f"restitution_calibration.py: {exc}", file=sys.stderr)
            return 2
    curves: dict[str, dict[str, list[float]]] = {}
    for engine in CALIBRATED_ENGINES:
        if engine in engines:
            t0 = time.process_time()
            curves[engine] = {
                scene: rebound_curve(engine, scene, progress=lambda m: print(m, file=sys.stderr, flush=True))
                for scene in SCENES
            }
            print(f"{engine}: {time.process_time() - t0:.1f} s CPU", file=sys.stderr)
        elif engine in old:
            curves[engine] = {
                scene: [old[engine][scene].rebound(x) for x in CALIBRATION_INPUTS] for scene in SCENES
            }
        else:
            print(
                f"restitution_calibration.py: {args.out} has no {engine} curves to keep; measure them too",
                file=sys.stderr,
            )
            return 2
    if args.check:
        worst = 0.0
        for engine in engines:
            for scene in SCENES:
                print(f"{engine} {scene}: input / fresh rebound / file's")
                for x, y in usable(curves[engine][scene]):
                    had = old[engine][scene].rebound(x) if engine in old else float("nan")
                    worst = max(worst, abs(y - had))
                    print(f"  {x:.2f} {y:.4f} {had:.4f}")
        print(f"largest difference {worst:.4f} (tolerance {TOLERANCE})")
        return 0 if worst <= TOLERANCE else 1
    write_text(args.out, toml_text(curves), what="calibration file")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
