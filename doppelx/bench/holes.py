"""A die slid across a hole: does it fall in or cross? Both engines against the analytic bounds.

``doppelx bench holes`` sets a die flat on side I's real playfield, west of hole
``h-northwest`` (framed as the world builds it: the area-equal 16-gon of the 30 mm round
hole, one flat edge facing the die), sliding east without spin straight across the hole,
its centre line :data:`OFFSETS` beside the hole's centre. It is released
:data:`RUNUP` before the near rim with the speed that friction (μ g) brings down to the
chosen speed ``v`` when its leading face reaches the rim (the measured speed there is
reported too). Each run ends when the die is in the hole, past the far rim, or at rest.

**The analytic model** (a die of edge ``a``, rounding ``ρ``, over a rim of a cut board
of thickness ``t``; the 2-D section along the slide, solved by :func:`predict`):

1. *Geometry.* Across a round hole the die does not meet straight rims: its flat
   bottom (``a − 2ρ`` wide) last rests on the near rim where the rim crosses the flat
   bottom's sides, ``x_support`` (side I: 13.85 mm from the centre, not the 14.90 mm
   apothem), and its rounded front first meets the far rim where the rim's slope matches
   the rounded vertical edge (side I: at 6.4 mm to the side, 13.48 mm from the centre,
   where the die's section is rounded by ``ρ' = 2.33 mm``). The gap a sliding die must
   bridge is therefore 27.3 mm, not the 29.8 mm across the middle.
2. *Run-up.* Until its centre of mass passes ``x_support`` the die lies flat and
   friction slows it: ``v_c² = v² − 2 μ g d`` (``d = a/2 + 1.05 mm`` on side I). Slower
   than ``√(2 μ g d)`` (0.249 m/s) it stops on the near side.
3. *Over the edge.* Past it the die hangs on the rim's corner: gravity's torque pitches
   its nose down while it slides on over the corner (Coulomb friction μ). A block
   pivoting about an edge at speed ``v`` would leave it above ``√(g a/2)`` (0.28 m/s);
   a *sliding* die does not pivot: it keeps the rim under its bottom face, pitching ever
   faster, until its rear leaves the rim. Then it flies.
4. *The far rim.* Where the die's section first meets the far rim (corner or the
   hole's wall below it):

   * its centre of mass at or below the playfield (the die has fallen more than half
     its height, ``h ≥ a/2``): the rim meets it at or above its centre of mass, a
     horizontal push cannot lift it — it **must fall in**;
   * the rim's corner under the rounded leading edge, with a contact normal steep
     enough that the impulse of a point mass with the pair's restitution and friction
     leaves it moving forward *and* upward — it rides over and **must cross** (the die's
     rotation, left out, only lowers the effective mass at the contact, so the centre
     keeps more of its forward speed: the test errs on the safe side);
   * anything else (the front face, nearly upright, hits the rim: it may bounce back,
     tumble over the rim, or slide up it depending on restitution and friction at the
     rim) is the **band** the model leaves open.

:func:`bounds` scans the speeds: ``fall_below`` is the speed below which every speed
must fall in (or stop short), ``cross_above`` the one above which every speed must cross,
the envelope over the offsets. A sharp-edged die (``ρ = 0``) has no ``cross_above``: its
flat front face always meets the rim. An engine is **wrong** where a die crosses more
than :data:`TOLERANCE` below ``fall_below`` or fails to cross more than that above
``cross_above``; within the band each engine's transition speed (half the runs crossing)
is reported, which the model does not decide.

**At rest over the rim** (:func:`rest_rows`): the die set flat and still, turned by
:data:`REST_YAWS`, its centre a distance ``d`` west of the hole's centre, watched for
:data:`REST_SECONDS`; the smallest ``d`` from which it stays on the board is found by
bisection. Statics: a die lying flat rests on the board only where its flat bottom
(``a − 2ρ`` square: the rounded rim of a real die curves up off the board) meets the
board, so it stays if and only if its centre lies inside the convex hull of that part of
its flat bottom (:func:`holds`). A sharp cube (the full ``a`` square) reaches 1 mm
further over the hole and, turned by 45°, bridges it with its corners 3 mm further. An
engine is wrong where its distance is more than :data:`REST_TOLERANCE` off the rounded
die's. Derivation, figures and the verdict: docs/physics.md, "Where they differ, which is
right".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The hole, the die and the slide's direction (+x, east).
HOLE = "h-northwest"
OWNER = "blue"
#: Default speeds at the near rim (m/s): 0.3 … 2.0 in steps of 0.1.
SPEEDS = tuple(round(0.3 + 0.1 * k, 2) for k in range(18))
#: The die's centre line beside the hole's centre (m): the runs of one speed.
OFFSETS = (-0.001, -0.0005, 0.0, 0.0005, 0.001)
#: Run-up from release to the near rim (m).
RUNUP = 0.004
#: Allowed error of an engine's outcome against a bound (m/s): see docs/physics.md.
TOLERANCE = 0.05
#: Longest run (s simulated).
TIME_CAP = 3.0
FORMAT = "doppelx-bench-holes/1"
#: Yaws of the die set at rest over the rim (rad), how long it is watched (s) and how far (m) the
#: distance from which an engine's die stays may be from the rounded die's.
REST_YAWS = (0.0, math.pi / 8, math.pi / 4)
REST_SECONDS = 1.0
REST_TOLERANCE = 0.00025
#: Penalty contact of the 2-D model: stiffness (N/m), step (s), friction's regularising slip (m/s).
_STIFF, _DT, _SLIP = 5000.0, 5e-5, 1e-3
#: Where the 2-D model first looks for the bounds (m/s), and how fine it resolves them.
_SCAN, _V_MAX, _RESOLVE = 0.05, 3.0, 0.005


@dataclass(frozen=True)
class Die2D:
    """What the model needs of the die and the board (SI units)."""

    size: float
    edge_radius: float
    mass: float
    friction: float
    restitution: float
    gravity: float
    insert_thickness: float

    @property
    def inertia(self) -> float:
        return self.mass * self.size**2 / 6


@dataclass(frozen=True)
class Crossing:
    """A straight slide across a hole (m, along +x).

    Attributes:
        lead: the near rim on the die's centre line (where the speed is taken).
        support: where the die's flat bottom last rests on the near rim.
        far: the far rim where the die's front first meets it ...
        far_radius: ... and the rounding of the die's section there.
    """

    lead: float
    support: float
    far: float
    far_radius: float


def chord(opening, y: float) -> tuple[float, float] | None:
    """The x extent of the polygon ``opening`` along the line at ``y``, or ``None`` if it misses it."""
    import shapely
    from shapely.geometry import LineString

    x0, _, x1, _ = opening.bounds
    cut = opening.intersection(LineString([(x0 - 1.0, y), (x1 + 1.0, y)]))
    if cut.is_empty:
        return None
    xs = shapely.get_coordinates(cut)[:, 0]
    return float(xs.min()), float(xs.max())


def crossing(opening, y: float, size: float, edge_radius: float, samples: int = 161) -> Crossing:
    """The slide along +x at ``y`` over ``opening`` for a die of ``size`` and ``edge_radius`` (m)."""
    core = size / 2 - edge_radius
    lead = _near(opening, y)
    support = (_near(opening, y - core) + _near(opening, y + core)) / 2
    best = None
    for k in range(samples):
        side = -size / 2 + size * k / (samples - 1)
        c = chord(opening, y + side)
        if c is None:
            continue
        over = abs(side) - core
        radius = edge_radius if over <= 0 else math.sqrt(max(edge_radius**2 - over**2, 0.0))
        front = c[1] + (edge_radius - radius)  # the die's front face when this section meets the rim
        if best is None or front < best[0]:
            best = (front, c[1], radius)
    if best is None:
        raise ValueError(f"the slide at y = {y} m misses the hole")
    return Crossing(lead, support, best[1], best[2])


def _near(opening, y: float) -> float:
    c = chord(opening, y)
    if c is None:
        raise ValueError(f"the slide at y = {y} m misses the hole")
    return c[0]


def _sdf(px: float, pz: float, core: float, radius: float) -> tuple[float, float, float]:
    """Signed distance of the body point ``p`` from a square of half ``core + radius`` rounded by
    ``radius``, and the outward normal there."""
    qx, qz = abs(px) - core, abs(pz) - core
    if qx > 0 or qz > 0:
        ox, oz = max(qx, 0.0), max(qz, 0.0)
        d = math.hypot(ox, oz)
        return d - radius, math.copysign(ox / d, px), math.copysign(oz / d, pz)
    if qx > qz:
        return qx - radius, math.copysign(1.0, px), 0.0
    return qz - radius, 0.0, math.copysign(1.0, pz)


def predict(v: float, die: Die2D, geo: Crossing) -> str:
    """The model's outcome of a slide at ``v`` m/s: ``short``, ``fall``, ``band`` or ``cross``."""
    a, rho, mu, g, m = die.size, die.edge_radius, die.friction, die.gravity, die.mass
    half, core = a / 2, a / 2 - die.edge_radius
    vc2 = v * v - 2 * mu * g * (geo.support - (geo.lead - half))
    if vc2 <= 0.0:
        return "short"
    x, z, phi = geo.support, half, 0.0  # centre of mass over the support line, lying flat
    vx, vz, w = math.sqrt(vc2), 0.0, 0.0
    damping = 2 * math.sqrt(_STIFF * m)  # critical: the corner does not bounce the die
    wall = [(geo.far, -die.insert_thickness * k / 6) for k in range(7)]  # rim corner first
    t = 0.0
    while t < 2.0:
        cs, sn = math.cos(phi), math.sin(phi)
        fx, fz, tau = 0.0, -m * g, 0.0
        # the near rim's corner (support, 0) against the die's full section
        rx, rz = geo.support - x, -z
        d, nbx, nbz = _sdf(cs * rx + sn * rz, -sn * rx + cs * rz, core, rho)
        if d < 0.0:
            nx, nz = cs * nbx - sn * nbz, sn * nbx + cs * nbz
            px, pz = vx - w * rz, vz + w * rx  # the die's point at the corner
            push = max(0.0, -_STIFF * d + damping * (px * nx + pz * nz))
            tx, tz = nz, -nx
            rub = -mu * push * math.tanh((px * tx + pz * tz) / _SLIP)
            ffx, ffz = -push * nx + rub * tx, -push * nz + rub * tz
            fx, fz = fx + ffx, fz + ffz
            tau += rx * ffz - rz * ffx
        for k, (wx, wz) in enumerate(wall):
            rx2, rz2 = wx - x, wz - z
            d2, n2x, n2z = _sdf(
                cs * rx2 + sn * rz2, -sn * rx2 + cs * rz2, core, geo.far_radius
            )  # same flat part
            if d2 <= 0.0:
                if z <= 0.0:
                    return "fall"
                if k:
                    return "band"  # the hole's wall below the rim: a face, not the corner
                return (
                    "cross"
                    if _rides_over(vx, vz, -(cs * n2x - sn * n2z), -(sn * n2x + cs * n2z), die)
                    else "band"
                )
        if z < -a:
            return "fall"
        vx += fx / m * _DT
        vz += fz / m * _DT
        w += tau / die.inertia * _DT
        x, z, phi, t = x + vx * _DT, z + vz * _DT, phi + w * _DT, t + _DT
    return "band"


def _rides_over(vx: float, vz: float, nx: float, nz: float, die: Die2D) -> bool:
    """A point mass at ``(vx, vz)`` hitting a corner that pushes along ``n``: forward and up after?"""
    un = vx * nx + vz * nz
    if un >= 0.0:
        return False
    jn = -(1 + die.restitution) * un
    tx, tz = vx - un * nx, vz - un * nz
    slip = math.hypot(tx, tz)
    rub = min(die.friction * jn, slip) / slip if slip > 0 else 0.0
    return vx + jn * nx - rub * tx > 0.0 and vz + jn * nz - rub * tz > 0.0


@dataclass(frozen=True)
class Bounds:
    """Below ``fall_below`` m/s every slide must fall in (or stop short); above ``cross_above`` it must
    cross (``None``: no speed up to 3 m/s must)."""

    fall_below: float
    cross_above: float | None

    def to_dict(self) -> dict:
        return {
            "fall_below": round(self.fall_below, 3),
            "cross_above": None if self.cross_above is None else round(self.cross_above, 3),
        }


def bounds(die: Die2D, geos: Sequence[Crossing]) -> Bounds:
    """The bounds of every slide in ``geos``: the lowest ``fall_below``, the highest ``cross_above``."""
    lows: list[float] = []
    highs: list[float | None] = []
    for geo in geos:
        grid = [0.1 + _SCAN * k for k in range(round((_V_MAX - 0.1) / _SCAN) + 1)]
        labels = [predict(v, die, geo) for v in grid]
        first = next((i for i, lab in enumerate(labels) if lab not in ("short", "fall")), None)
        if first is None:  # every speed up to the top falls in
            lows.append(_V_MAX)
        else:
            lows.append(
                grid[0] if first == 0 else _refine(die, geo, grid[first - 1], grid[first], ("short", "fall"))
            )
        last = max((i for i, lab in enumerate(labels) if lab != "cross"), default=-1)
        if last == len(grid) - 1:
            highs.append(None)
        elif last < 0:  # every speed crosses
            highs.append(grid[0])
        else:
            highs.append(_refine(die, geo, grid[last], grid[last + 1], ("band", "fall", "short"), upper=True))
    return Bounds(min(lows), None if None in highs else max(h for h in highs if h is not None))


def _refine(die: Die2D, geo: Crossing, lo: float, hi: float, below: tuple, upper: bool = False) -> float:
    """Bisect between ``lo`` (a label in ``below``) and ``hi`` (not) to :data:`_RESOLVE`."""
    while hi - lo > _RESOLVE:
        mid = (lo + hi) / 2
        if predict(mid, die, geo) in below:
            lo = mid
        else:
            hi = mid
    return hi if upper else lo


# -- the scene in an engine -------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One slide: where the die went and its speed when the leading face reached the near rim (m/s).

    ``in`` the hole; ``crossed``: past the far rim, or at rest on the board with its centre beyond
    the hole's centre (a die that hit the far rim and stopped astride it, or was turned aside past
    the hole); ``short``: at rest with its centre before the hole's centre (stopped, or bounced
    back); ``rim``: at rest on the board with its centre over the opening (bridging the hole)."""

    speed: float
    offset: float
    outcome: str
    speed_at_rim: float


def die_model(world) -> Die2D:
    """The model's die and board from a world's specs."""
    spec = world.dice[OWNER]
    pair = world.materials.pairs["die-cardboard"]
    return Die2D(
        spec.size,
        spec.edge_radius,
        spec.mass,
        pair.friction,
        pair.restitution,
        world.settings.gravity,
        world.box.insert_thickness,
    )


def crossings(world, offsets: Sequence[float] = OFFSETS) -> list[Crossing]:
    """The slides of the scene over the world's hole opening (as the physics cuts it)."""
    opening = world.layout.openings[HOLE]
    spec = world.dice[OWNER]
    cy = _hole(world).circle[1]
    return [crossing(opening, cy + dy, spec.size, spec.edge_radius) for dy in offsets]


def _hole(world):
    return next(h for h in world.board.holes if h.id == HOLE)


def slide(world, speed: float, offset: float = 0.0, yaw: float = 0.0, rolling: bool = False) -> Run:
    """Slide the die across the hole at ``speed`` m/s (at the near rim), ``offset`` m beside its centre.

    ``yaw`` (rad) turns the die about the vertical; the near rim is then the first point of the
    opening its footprint's band meets (which also lets a die pass beside the hole). ``rolling``
    releases it tumbling forward instead of sliding, spinning at ``speed / half`` about the axis
    across the slide with ``speed`` itself (no friction run-up: a tumbling cube does not slow as a
    sliding one does); the measured speed at the rim is reported all the same."""
    from shapely.geometry import box

    from doppelx.bench.common import quat_axis_angle, time_step
    from physics.throw import DieRelease

    spec = world.dice[OWNER]
    half = spec.half
    reach = half * (abs(math.cos(yaw)) + abs(math.sin(yaw)))  # half the footprint, along and across
    mu = world.materials.pairs["die-cardboard"].friction
    g = world.settings.gravity
    y = _hole(world).circle[1] + offset
    opening = world.layout.openings[HOLE]
    x0, _, far, _ = opening.bounds
    band = opening.intersection(box(x0 - 1.0, y - reach, far + 1.0, y + reach))
    if band.is_empty:
        raise ValueError(f"a slide {offset} m beside the hole's centre misses it")
    lead = band.bounds[0]  # the first point of the rim the die's footprint meets
    v0 = speed if rolling else math.sqrt(speed * speed + 2 * mu * g * RUNUP)
    spin = (0.0, speed / half if rolling else 0.0, 0.0)
    start = (lead - RUNUP - reach, y, half)
    pose = quat_axis_angle((0.0, 0.0, 1.0), yaw)
    world.reset({}, 0.0, (DieRelease(OWNER, start, pose, (v0, 0.0, 0.0), spin),))
    chunk = max(1, round(world.settings.time_step / time_step(world)))  # PyBullet's step: 1/240 s
    dt = chunk * time_step(world)
    at_rim, t, still = float("nan"), 0.0, 0.0
    outcome = ""
    while not outcome:
        if chunk > 1:
            world.steps(chunk)
        else:
            world.step()
        t += dt
        (x, _, z), _ = world.pose(OWNER)
        (vx, vy, vz), w = world.velocity(OWNER)
        if math.isnan(at_rim) and x + reach >= lead:
            # friction from where the step ended back to the rim (the die is still on the board)
            at_rim = math.sqrt(vx * vx + (0.0 if rolling else 2 * mu * g * (x + reach - lead)))
        if z < -half:
            outcome = "in"
        elif x - reach > far and z > 0.0:
            outcome = "crossed"
        still = still + dt if math.hypot(vx, vy, vz) < 0.002 and math.hypot(*w) < 0.05 else 0.0
        if still >= 0.1 or t >= TIME_CAP:
            outcome = _at_rest(world, x, world.pose(OWNER)[0][1], z)
    return Run(speed, offset, outcome, at_rim)


def _at_rest(world, x: float, y: float, z: float) -> str:
    """Where a die at rest ended: ``in`` the hole, over it on the board (``rim``: its centre over the
    opening), else ``crossed`` or ``short`` by the side of the hole's centre its centre lies on."""
    from shapely.geometry import Point

    if z < 0.0:
        return "in"
    if world.layout.openings[HOLE].contains(Point(x, y)):
        return "rim"
    return "crossed" if x > _hole(world).circle[0] else "short"


@dataclass(frozen=True)
class Row:
    """The runs of one speed and their verdict against the bounds."""

    speed: float
    runs: tuple[Run, ...]
    verdict: str

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.runs)

    @property
    def fraction_crossed(self) -> float:
        return self.count("crossed") / len(self.runs)

    def to_dict(self) -> dict:
        at_rim = [r.speed_at_rim for r in self.runs if not math.isnan(r.speed_at_rim)]
        return {
            "speed": self.speed,
            "crossed": self.count("crossed"),
            "fell_in": self.count("in"),
            "short": self.count("short"),
            "rim": self.count("rim"),
            "runs": len(self.runs),
            "fraction_crossed": round(self.fraction_crossed, 4),
            "speed_at_rim": round(sum(at_rim) / len(at_rim), 4) if at_rim else None,
            "verdict": self.verdict,
        }


def judge(speed: float, runs: Sequence[Run], b: Bounds) -> str:
    """``WRONG`` where an outcome breaks a bound by more than :data:`TOLERANCE`, ``ok`` where it keeps
    one, ``band`` where the model leaves it open."""
    crossed = sum(r.outcome == "crossed" for r in runs)
    if speed < b.fall_below - TOLERANCE:
        return "WRONG" if crossed else "ok"
    if b.cross_above is not None and speed > b.cross_above + TOLERANCE:
        return "WRONG" if crossed < len(runs) else "ok"
    return "band"


def transition(rows: Sequence[Row]) -> float | None:
    """The speed at which half the runs first cross (linear between rows), ``None`` if they never do."""
    prev = None
    for row in rows:
        f = row.fraction_crossed
        if f >= 0.5:
            if prev is None or prev[1] >= 0.5:
                return row.speed
            return prev[0] + (0.5 - prev[1]) * (row.speed - prev[0]) / (f - prev[1])
        prev = (row.speed, f)
    return None


# -- a die at rest over the rim ---------------------------------------------------------------


def holds(opening, centre: tuple[float, float], yaw: float, flat_half: float) -> bool:
    """Does a die lying flat at ``centre`` (m), turned by ``yaw`` (rad), rest on the board around
    ``opening``? Yes if its centre lies inside the convex hull of the part of its flat bottom (a square
    of half side ``flat_half``) over the board."""
    from shapely import affinity
    from shapely.geometry import Point, Polygon

    h = flat_half
    square = Polygon([(-h, -h), (h, -h), (h, h), (-h, h)])
    square = affinity.translate(affinity.rotate(square, yaw, origin=(0, 0), use_radians=True), *centre)
    support = square.difference(opening)
    return not support.is_empty and support.convex_hull.contains(Point(centre))


def rests(world, distance: float, yaw: float) -> bool:
    """Set the die flat and still, turned by ``yaw``, its centre ``distance`` m west of the hole's
    centre; does it still lie on the board (centre above the playfield) after :data:`REST_SECONDS`?"""
    from doppelx.bench.common import quat_axis_angle, time_step
    from physics.throw import DieRelease

    cx, cy, _ = _hole(world).circle
    half = world.dice[OWNER].half
    pose = quat_axis_angle((0.0, 0.0, 1.0), yaw)
    world.reset(
        {}, 0.0, (DieRelease(OWNER, (cx - distance, cy, half), pose, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),)
    )
    n = round(REST_SECONDS / time_step(world))
    if hasattr(world, "steps"):
        world.steps(n)
    else:
        for _ in range(n):
            world.step()
    return world.pose(OWNER)[0][2] > 0.0


def rest_threshold(stays, lo: float = 0.004, hi: float = 0.018, resolution: float = 0.000125) -> float:
    """The smallest distance (m) from which ``stays(distance)`` holds, by bisection between ``lo`` (falls)
    and ``hi`` (stays)."""
    while hi - lo > resolution:
        mid = (lo + hi) / 2
        if stays(mid):
            hi = mid
        else:
            lo = mid
    return hi


def rest_rows(world) -> list[dict]:
    """Per yaw: from which distance the engine's die stays on the rim, the real (rounded) die must, a
    sharp cube would, and the verdict."""
    cx, cy, _ = _hole(world).circle
    opening = world.layout.openings[HOLE]
    spec = world.dice[OWNER]
    out = []
    for yaw in REST_YAWS:
        engine = rest_threshold(lambda d, yaw=yaw: rests(world, d, yaw))
        rounded, sharp = (
            rest_threshold(lambda d, h=h, yaw=yaw: holds(opening, (cx - d, cy), yaw, h), resolution=1e-6)
            for h in (spec.half - spec.edge_radius, spec.half)
        )
        out.append(
            {
                "yaw_deg": round(math.degrees(yaw), 2),
                "stays_from_mm": round(1e3 * engine, 3),
                "rounded_die_mm": round(1e3 * rounded, 3),
                "sharp_cube_mm": round(1e3 * sharp, 3),
                "verdict": "ok" if abs(engine - rounded) <= REST_TOLERANCE else "WRONG",
            }
        )
    return out


def run(
    speeds: Sequence[float] = SPEEDS,
    engine: str = "pybullet",
    settings=None,
    params=None,
    offsets: Sequence[float] = OFFSETS,
) -> dict:
    """Every speed (sorted) × every offset in ``engine``; the JSON-ready result with the bounds."""
    from physics.engine import check_engine, make_world
    from rules.doppelx.board_file import load_board

    check_engine(engine)
    kw = {"params": params} if engine == "mujoco" and params is not None else {}
    with make_world(load_board("I"), settings=settings, engine=engine, **kw) as world:
        b = bounds(die_model(world), crossings(world, offsets))
        rows = []
        for v in sorted(speeds):
            runs = tuple(slide(world, v, dy) for dy in offsets)
            rows.append(Row(v, runs, judge(v, runs, b)))
        rest = rest_rows(world)
        hole = _hole(world)
        spec = world.dice[OWNER]
    v50 = transition(rows)
    wrong = [r.speed for r in rows if r.verdict == "WRONG"]
    return {
        "format": FORMAT,
        "engine": engine,
        "hole": HOLE,
        "hole_diameter_mm": round(2e3 * hole.circle[2], 3),
        "die_mm": round(1e3 * spec.size, 3),
        "edge_radius_mm": round(1e3 * spec.edge_radius, 3),
        "offsets_mm": [round(1e3 * dy, 3) for dy in offsets],
        "bounds": b.to_dict(),
        "tolerance": TOLERANCE,
        "rows": [r.to_dict() for r in rows],
        "transition_speed": None if v50 is None else round(v50, 3),
        "verdict": _verdict(b, v50, wrong),
        "rest": rest,
        "rest_verdict": _rest_verdict(rest),
    }


def _verdict(b: Bounds, v50: float | None, wrong: list[float]) -> str:
    top = "no speed up to 3 m/s" if b.cross_above is None else f"{b.cross_above:.2f} m/s"
    if wrong:
        return (
            f"WRONG at {', '.join(f'{v:g}' for v in wrong)} m/s: outside the analytic bounds "
            f"(fall in below {b.fall_below:.2f} m/s, cross above {top}, ±{TOLERANCE})"
        )
    where = "no speed crosses half the time" if v50 is None else f"half the slides cross from {v50:.2f} m/s"
    return (
        f"inside the analytic bounds (fall in below {b.fall_below:.2f} m/s, cross above {top}); "
        f"{where}, which the model does not decide"
    )


def _rest_verdict(rows: list[dict]) -> str:
    bad = [r for r in rows if r["verdict"] == "WRONG"]
    if not bad:
        return (
            f"the die stays on the rim where the real (rounded) die does, within {1e3 * REST_TOLERANCE:g} mm"
        )
    return "WRONG: " + "; ".join(
        f"at {r['yaw_deg']:g}° the die stays from {r['stays_from_mm']:.2f} mm, the rounded die only from "
        f"{r['rounded_die_mm']:.2f} mm (a sharp cube from {r['sharp_cube_mm']:.2f})"
        for r in bad
    )


def format_result(res: dict) -> str:
    """The rows as a text table, the bounds and the verdict."""
    head = f"{'speed m/s':>9} {'at rim':>7} {'crossed':>7} {'in':>3} {'short':>5} {'rim':>3}  verdict"
    lines = [
        f"{res['engine']}: a {res['die_mm']:g} mm die slid across side I's {res['hole_diameter_mm']:g} mm hole "
        f"{res['hole']}, {len(res['offsets_mm'])} runs a speed (offsets {res['offsets_mm']} mm)",
        head,
        "-" * len(head),
    ]
    for r in res["rows"]:
        at = "—" if r["speed_at_rim"] is None else f"{r['speed_at_rim']:.3f}"
        lines.append(
            f"{r['speed']:9.2f} {at:>7} {r['crossed']:7d} {r['fell_in']:3d} {r['short']:5d} {r['rim']:3d}  {r['verdict']}"
        )
    b = res["bounds"]
    lines.append("")
    lines.append(
        f"analytic bounds: must fall in below {b['fall_below']} m/s, must cross above {b['cross_above']} m/s"
    )
    v50 = res["transition_speed"]
    lines.append(f"transition (half crossing): {'—' if v50 is None else f'{v50:.3f} m/s'}")
    lines.append(f"verdict: {res['verdict']}")
    lines.append("")
    lines.append(
        "at rest over the rim: the die's centre's distance (mm) from the hole's centre from which it stays"
    )
    lines.append(f"{'yaw °':>6} {'engine':>7} {'rounded die':>11} {'sharp cube':>10}  verdict")
    for r in res["rest"]:
        lines.append(
            f"{r['yaw_deg']:6.1f} {r['stays_from_mm']:7.2f} {r['rounded_die_mm']:11.2f} {r['sharp_cube_mm']:10.2f}  "
            f"{r['verdict']}"
        )
    lines.append(f"verdict: {res['rest_verdict']}")
    return "\n".join(lines)
