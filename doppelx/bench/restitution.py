"""Restitution across impact speeds: a die dropped flat onto the playfield and onto a resting die.

``doppelx bench restitution`` releases a die flat, its lowest face :data:`GAP` above the
surface, moving straight down so that it meets the surface at exactly the chosen speed
(0.3 … 5 m/s; a real hand throw hits at 2–4 m/s). The surface is side I's playfield
(pair ``die-cardboard``) or the top face of a second die lying flat on it (pair
``die-die``). Measured: the rise of the falling die's centre above its touch-down height
at the first bounce's apex, as a rebound ratio ``e = sqrt(2 g rise) / v``, against the
pair's coefficient in ``assets/materials.toml``. Impacts slower than the restitution
threshold (``SimSettings.restitution_threshold``) do not bounce by design, so the aim —
``|e − e_material| ≤ 0.05`` — holds above it. Every drop also checks that nothing passed
through anything: the die bounced, and during the impact neither it nor the die beneath
sank by half an edge into what it touched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Default impact speeds (m/s).
SPEEDS = (0.3, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
#: Pairs measured: the pair name and the surface the die falls onto.
PAIRS = ("die-cardboard", "die-die")
#: Gap between the falling die's lowest face and the surface at release (m).
GAP = 0.002
#: Where on side I the drops stand: the seamless insert strip (see :mod:`doppelx.bench.common`).
FALLING, LOWER = "blue", "red"
#: Allowed distance of a measured rebound ratio from the material's coefficient.
AIM = 0.05


@dataclass(frozen=True)
class Row:
    """One drop: the pair, the impact speed (m/s), the measured ratio and the material's coefficient."""

    pair: str
    speed: float
    e_measured: float
    e_material: float
    tunnelled: bool

    def to_dict(self) -> dict:
        return {
            "pair": self.pair,
            "speed": self.speed,
            "e_measured": self.e_measured,
            "e_material": self.e_material,
        }


def drop(world, pair: str, speed: float) -> Row:
    """Drop the die onto the surface of ``pair`` at ``speed`` m/s; the measured row."""
    from doppelx.bench.common import SPOT
    from physics.throw import DieRelease
    from rules.outcome import Pose

    s = world.settings
    g = s.gravity
    spec = world.dice[FALLING]
    flat = (0.0, 0.0, 0.0, 1.0)
    if pair == "die-die":
        lower = world.dice[LOWER]
        lying = {LOWER: Pose((SPOT[0], SPOT[1], lower.half), flat)}
        surface = 2 * lower.half
    elif pair == "die-cardboard":
        lying, surface = {}, 0.0
    else:
        raise ValueError(f"pair must be one of {', '.join(PAIRS)}, got {pair!r}")
    touch = surface + spec.half  # the centre's height when the face meets the surface
    v0 = math.sqrt(max(speed * speed - 2 * g * GAP, 0.0))
    release = DieRelease(FALLING, (SPOT[0], SPOT[1], touch + GAP), flat, (0.0, 0.0, -v0), (0.0, 0.0, 0.0))
    world.reset(lying, 0.0, (release,))
    cap = int(math.ceil(1.5 / s.time_step))
    bounced, top, low, low_other = False, -math.inf, math.inf, math.inf
    for _ in range(cap):
        world.step()
        z = world.pose(FALLING)[0][2]
        low = min(low, z)
        if pair == "die-die":
            low_other = min(low_other, world.pose(LOWER)[0][2])
        vz = world.velocity(FALLING)[0][2]
        if not bounced and vz > 0.0:
            bounced = True
        if bounced:
            top = max(top, z)
            if vz <= 0.0:
                break
    rise = max(top - touch, 0.0) if bounced else 0.0
    e = math.sqrt(2 * g * rise) / speed
    # nothing passed through: the die never sank into what it hit by half its size, and the
    # lower die was not pushed into the playfield
    tunnelled = not bounced or low < touch - 0.5 * spec.half
    if pair == "die-die":
        tunnelled = tunnelled or low_other < world.dice[LOWER].half - 0.5 * spec.half
    material = world.materials.pairs[pair].restitution
    return Row(pair, speed, round(e, 4), material, tunnelled)


def run(speeds=SPEEDS, settings=None) -> list[Row]:
    """Every pair at every speed (m/s), on side I's playfield."""
    from physics.world import World
    from rules.board_file import load_board

    with World(load_board("I"), settings=settings) as world:
        return [drop(world, pair, v) for pair in PAIRS for v in speeds]


def verdict(row: Row, threshold: float) -> str:
    """``ok`` / ``MISS`` (beyond :data:`AIM`) / ``TUNNELLED``, or ``below threshold`` (not judged)."""
    if row.tunnelled:
        return "TUNNELLED"
    if row.speed <= threshold:
        return "below threshold"
    return "ok" if abs(row.e_measured - row.e_material) <= AIM + 1e-9 else "MISS"


def format_rows(rows: list[Row], threshold: float) -> str:
    """The rows as a text table with a verdict each."""
    head = f"{'pair':14} {'speed m/s':>9} {'e measured':>10} {'e material':>10}  verdict"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.pair:14} {r.speed:9.2f} {r.e_measured:10.3f} {r.e_material:10.3f}  {verdict(r, threshold)}"
        )
    return "\n".join(lines)
