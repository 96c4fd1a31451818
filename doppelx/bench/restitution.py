"""Restitution across impact speeds: a die dropped flat onto the playfield and onto a resting die.

``doppelx bench restitution`` releases a die flat, its lowest face a little above the
surface, moving straight down so that it meets the surface at exactly the chosen speed
(0.3 … 5 m/s; a real hand throw hits at 2–4 m/s). The surface is side I's playfield
(pair ``die-cardboard``) or the top face of a second die lying flat on it (pair
``die-die``). Measured: the rise of the falling die's centre above its touch-down height
at the first bounce's apex, as a rebound ratio ``e = sqrt(2 g rise) / v``, against the
pair's coefficient in ``assets/materials.toml``. Where in a step the contact begins moves
the rebound by up to ±0.035 (the penetration the first contact step finds), so each row is
the mean over releases from the gaps of :data:`GAPS`, spread across the 3 mm a sub-step
moves a die at most; the row's ``e_range`` gives the lowest and highest. Impacts slower than the restitution
threshold (``SimSettings.restitution_threshold``) do not bounce by design, so the aim —
``|e − e_material| ≤ 0.05`` — holds above it. Every drop also checks that nothing passed
through anything: the die bounced, and during the impact neither it nor the die beneath
sank by half an edge into what it touched.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

#: Default impact speeds (m/s).
SPEEDS = (0.3, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
#: Pairs measured: the pair name and the surface the die falls onto.
PAIRS = ("die-cardboard", "die-die")
#: Gap between the falling die's lowest face and the surface at release (m), one drop.
GAP = 0.002
#: The gaps every row averages over (m): where in a step the contact begins moves the
#: rebound of both engines by up to ±0.035, so the rows and the calibration
#: (:mod:`physics.restitution_calibration`) average over gaps spread across the largest
#: travel of a sub-step, 3 mm (``SimSettings.max_travel``).
GAPS = (0.00025, 0.00075, 0.00125, 0.00175, 0.00225, 0.00275)
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
    #: lowest and highest ratio of the releases averaged (one drop: both the ratio)
    e_range: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        out = {
            "pair": self.pair,
            "speed": self.speed,
            "e_measured": self.e_measured,
            "e_material": self.e_material,
        }
        if self.e_range is not None:
            out["e_range"] = list(self.e_range)
        return out


def drop(world, pair: str, speed: float, gap: float = GAP) -> Row:
    """Drop the die onto the surface of ``pair`` at ``speed`` m/s from ``gap`` m above it; the measured row."""
    from doppelx.bench.common import SPOT
    from physics.throw import DieRelease
    from rules.doppelx.outcome import Pose

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
    v0 = math.sqrt(max(speed * speed - 2 * g * gap, 0.0))
    release = DieRelease(FALLING, (SPOT[0], SPOT[1], touch + gap), flat, (0.0, 0.0, -v0), (0.0, 0.0, 0.0))
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


def drop_mean(world, pair: str, speed: float) -> Row:
    """:func:`drop` from each gap of :data:`GAPS`: the mean ratio, its range, tunnelled if any was."""
    rows = [drop(world, pair, speed, gap) for gap in GAPS]
    values = [r.e_measured for r in rows]
    return Row(
        pair,
        speed,
        round(sum(values) / len(values), 4),
        rows[0].e_material,
        any(r.tunnelled for r in rows),
        (min(values), max(values)),
    )


def head_on_mean(world, speed: float) -> float:
    """:func:`head_on` averaged over the gaps of :data:`GAPS`."""
    return sum(head_on(world, speed, gap) for gap in GAPS) / len(GAPS)


def head_on(world, speed: float, gap: float = 0.002) -> float:
    """Restitution of two dice meeting face to face at relative ``speed`` m/s, gravity off.

    Blue and red fly at each other along x, ``gap`` m apart, high above side I's playfield; the
    ratio is the relative speed after the impact over the one before: the die–die
    coefficient by its definition, with no third body and no gravity in the measure.
    """
    from doppelx.bench.common import time_step
    from physics.throw import DieRelease

    half = world.dice["blue"].half
    z = 0.05
    a = DieRelease("blue", (-half - gap / 2, 0.0, z), (0, 0, 0, 1), (speed / 2, 0.0, 0.0), (0, 0, 0))
    b = DieRelease("red", (half + gap / 2, 0.0, z), (0, 0, 0, 1), (-speed / 2, 0.0, 0.0), (0, 0, 0))
    world.reset({}, 0.0, (a, b))
    world.set_gravity((0.0, 0.0, 0.0))
    for _ in range(int(0.02 / time_step(world))):
        world.step()
    va, vb = world.velocity("blue")[0][0], world.velocity("red")[0][0]
    return (vb - va) / speed


#: The calibration's impact speeds (m/s; :mod:`physics.restitution_calibration`): the
#: tray's impacts, a hand throw's first hit at 2–4 m/s and the bounces after it slower.
CALIBRATION_SPEEDS = (0.5, 1.0, 2.0, 3.0, 4.0)
#: The engine inputs the calibration measures.
CALIBRATION_INPUTS = tuple(round(0.05 * k, 2) for k in range(1, 20))


def rebound_curve(
    engine: str,
    scene: str = "drop",
    inputs=CALIBRATION_INPUTS,
    speeds=CALIBRATION_SPEEDS,
    progress: Callable[[str], None] | None = None,
) -> list[float]:
    """Mean rebound ratio in ``scene`` for each engine input coefficient, the calibration off.

    ``drop``: the die–cardboard pair carries the input straight to the engine and a die
    falls flat onto side I's playfield (:func:`drop`; a die that does not bounce counts 0).
    ``head_on``: the die–die pair carries it and two dice meet face to face with gravity
    off (:func:`head_on`). The ratios at ``speeds``, each the mean over the gaps of
    :data:`GAPS`, are averaged.
    """
    from physics.engine import make_world
    from physics.materials import load_materials
    from physics.restitution_calibration import SCENES
    from physics.settings import SimSettings
    from rules.doppelx.board_file import load_board

    if scene not in SCENES:
        raise ValueError(f"scene must be one of {SCENES}, got {scene!r}")
    pair = "die-die" if scene == "head_on" else "die-cardboard"
    base = load_materials()
    settings = SimSettings(restitution_calibration=False)
    board = load_board("I")
    out = []
    for e in inputs:
        pairs = dict(base.pairs)
        pairs[pair] = replace(pairs[pair], restitution=e)
        with make_world(
            board, engine=engine, settings=settings, materials=replace(base, pairs=pairs)
        ) as world:
            if scene == "head_on":
                ratios = [head_on_mean(world, v) for v in speeds]
            else:
                ratios = [drop_mean(world, pair, v).e_measured for v in speeds]
        out.append(sum(ratios) / len(ratios))
        if progress is not None:
            progress(f"{engine} {scene} input {e:.2f}: rebound {out[-1]:.4f}")
    return out


def run(speeds=SPEEDS, settings=None) -> list[Row]:
    """Every pair at every speed (m/s), on side I's playfield."""
    from physics.world import World
    from rules.doppelx.board_file import load_board

    with World(load_board("I"), settings=settings) as world:
        return [drop_mean(world, pair, v) for pair in PAIRS for v in speeds]


def verdict(row: Row, threshold: float) -> str:
    """``ok`` / ``MISS`` (beyond :data:`AIM`) / ``TUNNELLED``, or ``below threshold`` (not judged)."""
    if row.tunnelled:
        return "TUNNELLED"
    if row.speed <= threshold:
        return "below threshold"
    return "ok" if abs(row.e_measured - row.e_material) <= AIM + 1e-9 else "MISS"


def format_rows(rows: list[Row], threshold: float) -> str:
    """The rows as a text table with a verdict each."""
    head = f"{'pair':14} {'speed m/s':>9} {'e measured':>10} {'range':>13} {'e material':>10}  verdict"
    lines = [head, "-" * len(head)]
    for r in rows:
        span = f"{r.e_range[0]:.3f}–{r.e_range[1]:.3f}" if r.e_range is not None else ""
        lines.append(
            f"{r.pair:14} {r.speed:9.2f} {r.e_measured:10.3f} {span:>13} {r.e_material:10.3f}  {verdict(r, threshold)}"
        )
    return "\n".join(lines)
