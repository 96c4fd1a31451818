"""Rim: a die at rest over a hole's rim, against the statics of the real (rounded) die.

The holes decide how many dice a game loses, so the bench judges the hole's edge itself:
the rest half of ``doppelx bench holes`` (:func:`doppelx.bench.holes.rest_rows`) runs in
the suite. A die is set flat and still beside hole ``h-northwest`` of side I, turned by
0°, 22.5° and 45°, and the smallest distance of its centre from the hole's centre from
which it stays on the board is found by bisection (1/8 mm). Statics give the answer: a
die lying flat stands on its flat bottom (``a − 2ρ`` square, the rounded rim of a real
die curving up off the board), so it stays exactly while its centre lies over that part
of its bottom which meets the board (:func:`doppelx.bench.holes.holds`).

Rows, per yaw: ``stays.yawN`` (mm) with that analytic distance as its expectation, judged
by its distance to it (moving towards it is never a failure; beyond ±0.25 mm of the
baseline and farther away is ``WORSE``); and ``worst_error``, the largest distance from the
statics over the yaws, which must stay within :data:`LIMIT_MM` whatever the baseline says.
Today PyBullet's hull frames stay 0.2–0.6 mm beyond the statics and MuJoCo's within
0.05 mm; hole frames built as Bullet boxes (their margin rounds the rim inside the box's
footprint) let a die hang 1.0–2.8 mm further over, like a sharp cube: caught here, while
the tray's hole rate (~1.7 pp) stays within its binomial band even over 2 000 throws.
"""

from __future__ import annotations

from doppelx.bench.common import Profile, Tally
from doppelx.bench.metrics import Check, Metric

NAME = "rim"
#: Largest distance (mm) the engine's rest distance may have from the statics, at any yaw.
LIMIT_MM = 1.0
#: Band around the baseline (mm): two bisection steps.
BAND_MM = 0.25


def run(profile: Profile, tally: Tally, settings=None, engine: str = "pybullet") -> list[Metric]:
    """The rim metrics (see the module docstring); the same in every profile (about 1 s)."""
    from doppelx.bench.holes import rest_rows
    from physics.engine import check_engine, make_world
    from rules.doppelx.board_file import load_board

    check_engine(engine)
    with tally.timing(), make_world(load_board("I"), settings=settings, engine=engine) as world:
        rows = rest_rows(world)
    tally.runs += len(rows)
    out = [
        Metric(
            NAME,
            f"stays.yaw{r['yaw_deg']:g}",
            r["stays_from_mm"],
            "mm",
            r["rounded_die_mm"],
            Check(tol=BAND_MM),
        )
        for r in rows
    ]
    worst = max(abs(r["stays_from_mm"] - r["rounded_die_mm"]) for r in rows)
    out.append(Metric(NAME, "worst_error", round(worst, 3), "mm", 0.0, Check(limit=("<=", LIMIT_MM))))
    return out
