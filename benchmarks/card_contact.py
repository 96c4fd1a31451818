"""The spinner card's contact in PyBullet, today's and candidate settings side by side.

    python benchmarks/card_contact.py [--drops N] [--variants default,cone,stiff,...] [--json]

The card is the one multibody of the world (a revolute link on its pin), so its contacts
take Bullet's multibody solver path. This script measures, per variant of that contact:

* ``corner_spin``: a die balanced on a corner on the card, spinning at 100 rad/s about the
  vertical — its spin after 0.25, 0.5, 0.75 and 1 s (on the playfield it stops in about
  1.1 s through 0.4 mm of spinning friction; see ``playfield_corner_spin``);
* ``drops``: ``--drops`` dice dropped onto the card near its pin
  (``tests/physics/test_spinner.card_drops``, seed 1) run to rest: how many hit the time
  cap, how many stay on the card, the median time to rest;
* ``rebound_p90``: the 90th percentile, over the same drops, of the die's highest upward
  speed within 50 ms of its first touch over its downward speed before it (more than 1
  means the contact added energy; ``playfield_rebound_p90`` is the same drops onto side
  III's playfield at (0.1, 0.1) m, away from holes and the card);
* ``seed83``: the two throws of ``physics_checks.py`` seed 83 (3910, 11850) that ended at
  the time cap on the card — their time to rest, or ``null`` if capped.

Variants: ``default`` (today), ``cone`` (implicit cone friction on), ``stiff`` (contact
stiffness 3e4 N/m and damping 20 N s/m on the card), ``stiff1e5`` (1e5 N/m, 20 N s/m),
``soft`` (3e4 N/m, 200 N s/m), ``cone+stiff``. Figures are printed, never asserted;
docs/physics.md ("Nothing tunnels, nothing read early") gives a run.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "physics"))

#: name → (cone friction, contact stiffness N/m, contact damping N s/m); stiffness 0: Bullet's ERP.
VARIANTS = {
    "default": (False, 0.0, 0.0),
    "cone": (True, 0.0, 0.0),
    "stiff": (False, 3e4, 20.0),
    "stiff1e5": (False, 1e5, 20.0),
    "soft": (False, 3e4, 200.0),
    "cone+stiff": (True, 3e4, 20.0),
}
SEED83 = (3910, 11850)


def world_of(side: str, variant: str):
    """A world of ``side`` whose spinner card gets the contact of ``variant``."""
    from physics.settings import SimSettings
    from physics.world import World
    from rules.doppelx.board_file import load_board

    cone, k, c = VARIANTS[variant]

    class CardWorld(World):
        def _build_spinner(self, angle: float) -> None:
            super()._build_spinner(angle)
            if k > 0:
                self.p.changeDynamics(
                    self.spinner_id, 0, contactStiffness=k, contactDamping=c, physicsClientId=self.client
                )

    return CardWorld(load_board(side), settings=dataclasses.replace(SimSettings(), cone_friction=cone))


def corner_spin(world, x: float, y: float, surface_z: float, w0: float = 100.0) -> list[float]:
    """Spin (rad/s) of a die balanced on a corner at (x, y) after 0.25, 0.5, 0.75 and 1 s."""
    import numpy as np

    from doppelx.bench.common import quat_axis_angle
    from physics.throw import DieRelease

    # the body diagonal onto the vertical
    q = quat_axis_angle(np.cross([1.0, 1.0, 1.0], [0.0, 0.0, 1.0]), math.acos(1 / math.sqrt(3)))
    z = surface_z + world.dice["blue"].half * math.sqrt(3) + 1e-4
    world.reset({}, 0.0, [DieRelease("blue", (x, y, z), q, (0.0, 0.0, 0.0), (0.0, 0.0, w0))])
    p, c, b = world.p, world.client, world.body_of["blue"]
    out = []
    for i in range(240):
        p.stepSimulation(physicsClientId=c)
        if i % 60 == 59:
            out.append(round(math.hypot(*p.getBaseVelocity(b, physicsClientId=c)[1]), 1))
    return out


def rebound_p90(world, drops, offset=(0.0, 0.0, 0.0)) -> float:
    """90th percentile of (highest upward speed within 50 ms of first touch) / (downward speed before)."""
    from physics.throw import DieRelease

    ratios = []
    for throw, angle in drops:
        r0 = throw.releases[0]
        pos = tuple(a + b for a, b in zip(r0.position, offset))
        world.reset({}, angle, [DieRelease("white", pos, r0.quaternion, r0.velocity, r0.angular_velocity)])
        p, c, b = world.p, world.client, world.body_of["white"]
        first, v_in, up = None, r0.velocity, 0.0
        for step in range(240):
            world.step()
            v = p.getBaseVelocity(b, physicsClientId=c)[0]
            if first is None:
                if p.getContactPoints(bodyA=b, physicsClientId=c):
                    first = step
                else:
                    v_in = v
            elif step - first <= 12:
                up = max(up, v[2])
            else:
                break
        ratios.append(up / max(1e-6, -v_in[2]))
    ratios.sort()
    return round(ratios[int(0.9 * len(ratios))], 2)


def measure(variant: str, n: int) -> dict:
    from physics_checks import child_rng, random_scene
    from test_spinner import card_drops

    from physics.run import run_throw

    world = world_of("III", variant)
    g = world.layout.spinner
    assert g is not None
    out: dict = {"variant": variant, "cone_friction": VARIANTS[variant][0]}
    out["contact_stiffness"], out["contact_damping"] = VARIANTS[variant][1:]
    out["corner_spin"] = corner_spin(world, g.center[0], g.center[1], g.z_high + world.settings.hull_margin)
    drops = list(card_drops(n, 1))
    capped = on_card = 0
    times = []
    for throw, angle in drops:
        r = run_throw(world, throw, spinner_angle=angle)
        capped += not r.settled
        on_card += world.pose("white")[0][2] > g.z_high
        times.append(r.sim_time)
    times.sort()
    out["drops"] = {"n": n, "capped": capped, "on_card": on_card, "median_s": round(times[n // 2], 2)}
    out["rebound_p90"] = rebound_p90(world, drops)
    out["seed83"] = {}
    for i in SEED83:
        _, lying, throw = random_scene(world.board, child_rng(83, i))
        r = run_throw(world, throw, lying)
        out["seed83"][str(i)] = round(r.sim_time, 2) if r.settled else None
    world.close()
    return out


def playfield(n: int) -> dict:
    """The same corner spin and drops on side III's playfield, away from holes and card (the reference)."""
    from test_spinner import card_drops

    world = world_of("III", "default")
    spot = (0.1, 0.1)
    drops = list(card_drops(n, 1))
    out = {
        "playfield_corner_spin": corner_spin(world, *spot, 0.0),
        "playfield_rebound_p90": rebound_p90(world, drops, (*spot, -0.014)),
    }
    world.close()
    return out


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drops", type=int, default=300, help="dice dropped onto the card per variant (300)")
    ap.add_argument("--variants", default="default,cone,stiff,stiff1e5,soft,cone+stiff")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    names = [v for v in args.variants.split(",") if v]
    unknown = [v for v in names if v not in VARIANTS]
    if unknown or args.drops < 10:
        print(
            f"card_contact.py: unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)})"
            if unknown
            else f"card_contact.py: --drops {args.drops}: at least 10",
            file=sys.stderr,
        )
        return 2
    machine = {"machine": platform.machine(), "cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    rows = []
    for name in names:
        rows.append(measure(name, args.drops))
        if not args.json:
            r = rows[-1]
            print(
                f"{name:11s} corner spin {r['corner_spin']} rad/s; drops: {r['drops']['capped']} capped, "
                f"{r['drops']['on_card']}/{args.drops} on the card, median {r['drops']['median_s']} s; "
                f"rebound p90 {r['rebound_p90']}; seed 83 {r['seed83']}",
                flush=True,
            )
    ref = playfield(args.drops)
    if args.json:
        print(json.dumps({"variants": rows, **ref, **machine}))
    else:
        print(
            f"playfield   corner spin {ref['playfield_corner_spin']} rad/s; rebound p90 {ref['playfield_rebound_p90']}"
        )
        print(f"machine {machine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
