"""Tray throws: many standard turns on each side I–IV, run to rest with the tunnel watch on.

A standard turn (:func:`doppelx.bench.throws.standard_turns`): six dice lying, blue and white
thrown by the medium bot's throw model at its best spot; the scenes of side ``k`` come from
``child_rng(SEED, k)``. Measured over the thrown dice:

* faces: the die axis pointing up against the uniform distribution — chi-square with 5
  degrees of freedom (its mean is 5; above 20.5, p < 0.001, the faces are not fair) — over
  ``profile.face_throws`` single throws on side I (:func:`doppelx.bench.throws.face_throw`,
  seeded by ``child_rng(FACES_SEED, i)``), the dice resting on the board. The same count
  over the standard turns' thrown dice is shown as ``turn_faces`` and not judged: a die
  thrown low onto a crowded board keeps some of its release orientation, so a fixed set
  of 2 000 turns carries its own sample's tilt. Moved by 10 µm at release, the same turns
  gave chi-square 9.0–20.9 (mean 14) with one physics and 4.2–8.3 with another, while
  2 000 turns of other seeds gave 3.9 and 4.4 (benchmarks/README.md, "tray");
* settle times (simulated s until the settle test ends the throw): mean, median, 90th
  percentile, maximum;
* rates: cocked (on the board, tilted more than the dice file's cocked angle), in a hole,
  off the board; throws that reached the time cap;
* tunnelling: throws the tunnel watch flagged — must be 0 (the note names them: side,
  throw index within the side, events; ``doppelx.bench.tray.scenes`` rebuilds them);
* false settles: every throw read at rest is run on for one more second
  (:func:`doppelx.bench.settle.false_settle`); a die on the board, rim, card or table that
  then moves more than 1 mm, changes status or shows another face counts — must be 0;
* determinism: the first throws are run again in a fresh world, in reverse order; every
  resting pose must come out bit for bit the same (0 mismatches). A SHA-256 of all
  resting poses (every die of every throw, IEEE doubles) is shown as information: it
  changes with the last bit of any pose (a refactor that reorders a sum), so the verdict
  rests on the physical rows; ``determinism_mismatches`` is what enforces determinism.
* ``unsettled`` (throws that reached the time cap) is judged against the baseline's count
  (its Poisson spread, at least 2), never against the run's own.
* ``contacts_at_rest``: the contact points the solver carries when a throw has come to rest
  (``contact_count`` of the world: PyBullet's persistent manifold points, MuJoCo's ``ncon``),
  a mean over the throws — the rows of the solver's system every step, so its load, judged
  against the baseline (±10 %, lower is better). Deterministic, so unlike a speed figure it
  does not move with the machine's load: a contact breaking threshold of 20 mm instead of
  2 mm leaves every physics row in place but keeps 39 % more points (25.4 → 35.3 a throw
  over 32 turns) and runs at 0.73–0.85× the speed.
"""

from __future__ import annotations

import hashlib
import math
import struct

import numpy as np

from doppelx.bench.common import Profile, Tally, binomial_tol
from doppelx.bench.metrics import INFO, Check, Metric

NAME = "tray"
SEED = 20240611
#: Seed of the single face throws (``child_rng(FACES_SEED, i)``).
FACES_SEED = SEED + 1
THROWN = ("blue", "white")
#: chi-square (5 degrees of freedom) with p = 0.001.
CHI2_P001 = 20.515


#: Band of ``contacts_at_rest`` around the baseline: deterministic, so only a real change moves it.
CONTACTS_BAND = 0.1


def scenes(per_side: int):
    """``(side, board, [(lying poses, throw), ...])`` with ``per_side`` standard turns for each side."""
    from doppelx.bench.throws import standard_turns
    from rules.common.rng import child_rng
    from rules.doppelx.board_file import BUILTIN_SIDES

    return [
        (side, *standard_turns(per_side, child_rng(SEED, k), side)) for k, side in enumerate(BUILTIN_SIDES)
    ]


def pose_bytes(outcome) -> bytes:
    """Every die's resting position and quaternion as little-endian doubles."""
    return b"".join(struct.pack("<7d", *d.pose.position, *d.pose.quaternion) for d in outcome.dice)


def run(profile: Profile, tally: Tally, settings=None, engine: str = "pybullet") -> list[Metric]:
    """The tray metrics (see the module docstring)."""
    from doppelx.bench.common import time_step
    from doppelx.bench.settle import RUN_ON, false_settle
    from doppelx.bench.throws import up_axis
    from physics.engine import make_world
    from physics.run import run_throw
    from rules.doppelx.dice import load_dice
    from rules.doppelx.outcome import Status

    cocked_angle = load_dice().cocked_angle
    digest = hashlib.sha256()
    counts = np.zeros(6, dtype=int)
    times: list[float] = []
    dice = cocked = holes = off = unsettled = tunnelled = false_settles = contacts = 0
    first: list[tuple] = []
    flagged: list[str] = []
    for side, board, items in scenes(profile.tray_per_side):
        world = make_world(board, settings=settings, engine=engine)
        for i, (lying, throw) in enumerate(items):
            with tally.timing():
                r = run_throw(world, throw, lying)
            tally.steps += r.steps
            tally.runs += 1
            contacts += world.contact_count()
            digest.update(pose_bytes(r.outcome))
            if r.settled:
                with tally.timing():
                    false_settles += false_settle(world, r.outcome) is not None
                tally.steps += int(RUN_ON / time_step(world))
            if side == "I" and i < profile.determinism_throws:
                first.append((lying, throw, pose_bytes(r.outcome)))
            times.append(r.sim_time)
            unsettled += not r.settled
            if r.tunnel_events:
                tunnelled += 1
                events = sorted(set(r.tunnel_events))
                flagged.append(f"side {side} throw {i}: {', '.join(events)}")
            for owner in THROWN:
                d = r.outcome.get(owner)
                assert d is not None  # every thrown die has an outcome
                dice += 1
                if d.status is Status.HOLE:
                    holes += 1
                elif d.status is Status.OFF:
                    off += 1
                else:
                    axis, tilt = up_axis(d.pose)
                    counts[axis] += 1
                    cocked += tilt > cocked_angle
        world.close()
    mismatches = _rerun(first, settings, tally, engine)
    return _metrics(
        _face_counts(profile.face_throws, settings, tally, engine),
        counts,
        np.array(times),
        dice,
        cocked,
        holes,
        off,
        unsettled,
        tunnelled,
        mismatches,
        false_settles,
        contacts,
        digest.hexdigest(),
        "; ".join(flagged[:10]),
    )


def _face_counts(n: int, settings, tally: Tally, engine: str) -> np.ndarray:
    """Up-axis counts of ``n`` single face throws on side I that came to rest on the board."""
    from doppelx.bench.throws import face_counts
    from physics.engine import make_world
    from rules.doppelx.board_file import load_board

    world = make_world(load_board("I"), settings=settings, engine=engine)
    with tally.timing():
        seen = face_counts(world, n, FACES_SEED, cocked_angle=0.0)
    tally.steps += seen.steps
    tally.runs += n
    world.close()
    return seen.axes


def _rerun(first, settings, tally: Tally, engine: str = "pybullet") -> int:
    """Run the kept throws again in a fresh world, in reverse order; how many came out different."""
    from physics.engine import make_world
    from physics.run import run_throw
    from rules.doppelx.board_file import load_board

    world = make_world(load_board("I"), settings=settings, engine=engine)
    bad = 0
    for lying, throw, expected in reversed(first):
        with tally.timing():
            r = run_throw(world, throw, lying)
        tally.steps += r.steps
        tally.runs += 1
        bad += pose_bytes(r.outcome) != expected
    world.close()
    return bad


def _metrics(
    faces,
    counts,
    times,
    dice,
    cocked,
    holes,
    off,
    unsettled,
    tunnelled,
    mismatches,
    false_settles,
    contacts,
    digest,
    flagged: str,
) -> list[Metric]:
    from doppelx.bench.throws import chi2_uniform

    n = len(times)
    on_board = int(counts.sum())
    chi2, p = chi2_uniform(faces)
    turn_chi2, turn_p = chi2_uniform(counts)
    sd = float(times.std()) if n > 1 else 0.0
    se = sd / math.sqrt(max(n, 1))

    def rate(k: int, of: int) -> float:
        return k / of if of else 0.0

    return [
        Metric(NAME, "throws", n, "", None, INFO),
        Metric(NAME, "faces.chi2", round(chi2, 3), "", 5.0, Check(limit=("<=", CHI2_P001))),
        Metric(NAME, "faces.p_value", round(p, 4), "", None, INFO),
        Metric(NAME, "faces.throws_on_board", int(faces.sum()), "", None, INFO),
        Metric(NAME, "turn_faces.chi2", round(turn_chi2, 3), "", 5.0, INFO),
        Metric(NAME, "turn_faces.p_value", round(turn_p, 4), "", None, INFO),
        Metric(NAME, "settle.mean", round(float(times.mean()), 4), "s", None, Check(tol=max(4 * se, 0.01))),
        Metric(
            NAME,
            "settle.p50",
            round(float(np.percentile(times, 50)), 4),
            "s",
            None,
            Check(tol=max(5 * se, 0.02)),
        ),
        Metric(
            NAME,
            "settle.p90",
            round(float(np.percentile(times, 90)), 4),
            "s",
            None,
            Check(tol=max(8 * se, 0.05)),
        ),
        Metric(NAME, "settle.max", round(float(times.max()), 4), "s", None, INFO),
        Metric(
            NAME,
            "cocked_rate",
            round(rate(cocked, on_board), 4),
            "",
            None,
            Check(tol=binomial_tol(rate(cocked, on_board), on_board)),
        ),
        Metric(
            NAME,
            "hole_rate",
            round(rate(holes, dice), 4),
            "",
            None,
            Check(tol=binomial_tol(rate(holes, dice), dice)),
        ),
        Metric(
            NAME,
            "off_rate",
            round(rate(off, dice), 4),
            "",
            None,
            Check(tol=binomial_tol(rate(off, dice), dice)),
        ),
        Metric(
            NAME,
            "unsettled",
            unsettled,
            "throws",
            0,
            Check(tol=2.0, poisson=4.0, better="lower"),
        ),
        Metric(NAME, "false_settles", false_settles, "throws", 0, Check(limit=("==", 0))),
        # the solver's load: a cost no physics row sees (a contact breaking threshold of 20 mm
        # keeps 39 % more points at the same poses and runs 0.73-0.85x as fast)
        Metric(
            NAME,
            "contacts_at_rest",
            round(contacts / max(n, 1), 3),
            "points",
            None,
            Check(rel=CONTACTS_BAND, better="lower"),
        ),
        Metric(NAME, "tunnelled", tunnelled, "throws", 0, Check(limit=("==", 0)), note=flagged),
        Metric(NAME, "determinism_mismatches", mismatches, "throws", 0, Check(limit=("==", 0))),
        Metric(NAME, "pose_hash", digest[:16], "", None, INFO),
    ]
