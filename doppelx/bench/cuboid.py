"""Cuboid dice: the project's contact model against real cuboid dice thrown by hand.

``doppelx bench cuboid`` throws a homogeneous cuboid die — two square y × y faces and four
x × y faces, x along its stretched axis — onto a flat hard surface and counts how often a
square face ends up on top (equivalently at the bottom: the two square faces count
together), per ratio x/y, with a Wilson 95 % interval.

Beside it:

* **The experiment** (:data:`BUDDEN`): 15 steel cuboid dice cut from one square bar and
  rolled by students, x/y from 0.47 to 2.65, 275–1011 rolls each (Budden, *Math. Gazette*
  64, 1980, as tabulated by C. E. Mungan, "Probability analysis for rolls of a square
  cuboidal die", *Math. Gazette* 97, note 97.16, March 2013, Table 1).
* **A published analytic model**: the solid-angle model (Singmaster, *Math. Gazette* 65,
  1981; the hypothesis Mungan cites as [2]) — a face comes up with the probability of
  the solid angle it subtends from the centre of mass:
  ``p_square = (2/π) atan(1 / (r √(2 + r²)))`` for ``r = x/y`` (1/3 for the cube).

The scene is the experiment's, the contact model the project's (:data:`SCENE`, see
docs/physics.md, "Cuboid dice", for the sources): a die with the square edge ``y`` =
:data:`EDGE` of the project's dice and their density, sharp-edged like Budden's dice sawn
from a bar, on a flat table top with the material of steel on a wooden desk (μ 0.3, e
0.4), thrown by a brisk hand roll (:func:`throw_of`): uniformly random orientation,
released 20–40 cm above the table, 1–2.5 m/s sideways in a random direction, tumbling at
20–45 rad/s about a random axis — impacts at 2.2–3.8 m/s, the speeds of real hand throws.
:func:`project_scene` is the same scene with the project's die–table material and the
game's gentler throws (the scene's first defaults). The solver is the project's
(:class:`~physics.settings.SimSettings`, sub-steps included) or, with ``engine="mujoco"``,
MuJoCo's soft contact (:class:`MujocoCuboidTable`). A throw ends when the die has stayed
within 0.5 mm and 1° of one pose for ``settle_hold_leaning``; a die that ends tilted by
more than 25° from every face (leaning on nothing: balanced on an edge) is counted as
neither and left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

#: Budden's steel cuboid dice: (x/y, fraction of rolls with a square face up, rolls).
BUDDEN: tuple[tuple[float, float, int], ...] = (
    (0.47, 0.916, 332),
    (0.63, 0.738, 840),
    (0.75, 0.548, 799),
    (0.81, 0.496, 740),
    (0.93, 0.399, 516),
    (0.97, 0.385, 530),
    (1.16, 0.148, 1011),
    (1.23, 0.154, 532),
    (1.44, 0.052, 654),
    (1.55, 0.040, 606),
    (1.60, 0.017, 702),
    (1.71, 0.031, 609),
    (1.87, 0.009, 680),
    (2.12, 0.007, 275),
    (2.65, 0.006, 503),
)
RATIOS = tuple(r for r, _, _ in BUDDEN)
#: Edge of the square faces (m): the project's dice.
EDGE = 0.016
#: Aims of the issue: inside the experiment's 95 % interval at this fraction of its ratios ...
AIM_INSIDE = 0.8
#: ... and a mean absolute error of at most this.
AIM_MAE = 0.03
COCKED = math.radians(25.0)


@dataclass(frozen=True)
class Result:
    """One ratio: square-face count of ``throws`` counted throws, with its Wilson interval."""

    x_over_y: float
    square: int
    throws: int
    left_out: int

    @property
    def p_square(self) -> float:
        return self.square / self.throws if self.throws else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.square, self.throws)

    def to_dict(self) -> dict:
        lo, hi = self.interval
        return {
            "x_over_y": self.x_over_y,
            "p_square": round(self.p_square, 4),
            "lo": round(lo, 4),
            "hi": round(hi, 4),
            "throws": self.throws,
        }


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval (95 % by default) of a proportion ``k`` of ``n``."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def solid_angle_model(r: float) -> float:
    """Probability of a square face by the solid-angle model, for ``r = x/y``."""
    return 2 / math.pi * math.atan(1 / (r * math.sqrt(2 + r * r)))


def experiment(r: float) -> tuple[float, int] | None:
    """Budden's ``(p, rolls)`` at ratio ``r`` (within 0.005), or ``None``."""
    for ratio, p, n in BUDDEN:
        if abs(ratio - r) < 0.005:
            return p, n
    return None


@dataclass(frozen=True)
class CuboidScene:
    """The experiment's conditions: the die–surface contact and the hand's throw.

    Attributes:
        friction, restitution: Coulomb coefficient and coefficient of restitution of the
            die on the surface.
        rolling_friction, spinning_friction: rolling and spinning resistance (m).
        height: release height of the die's lowest point above the surface (m), uniform in range ...
        speed: ... sideways speed (m/s) in a random direction ...
        spin: ... and tumbling rate (rad/s) about a random axis.
        edge: edge of the square faces (m).
    """

    friction: float
    restitution: float
    rolling_friction: float
    spinning_friction: float
    height: tuple[float, float]
    speed: tuple[float, float]
    spin: tuple[float, float]
    edge: float = EDGE

    def with_(self, **changes) -> CuboidScene:
        """A copy with some fields changed."""
        return replace(self, **changes)


#: The scene's defaults: Budden's steel dice rolled by hand on a wooden desk (docs/physics.md,
#: "Cuboid dice"): steel on dry wood, μ 0.3 (kinetic) and e 0.4; a brisk hand roll.
SCENE = CuboidScene(
    friction=0.3,
    restitution=0.4,
    rolling_friction=0.00001,
    spinning_friction=0.0008,
    height=(0.20, 0.40),
    speed=(1.0, 2.5),
    spin=(20.0, 45.0),
)


def project_scene() -> CuboidScene:
    """The scene with the project's die–table material and the throw model's gentler ranges."""
    from physics.materials import load_materials

    pair = load_materials().pair("table")
    return SCENE.with_(
        friction=pair.friction,
        restitution=pair.restitution,
        rolling_friction=pair.rolling_friction,
        spinning_friction=pair.spinning_friction,
        height=(0.10, 0.20),
        speed=(0.2, 1.5),
        spin=(8.0, 30.0),
    )


def throw_of(rng: np.random.Generator, scene: CuboidScene = SCENE) -> tuple[tuple, tuple, tuple, tuple]:
    """A hand-like throw: ``(position, quaternion, velocity, angular velocity)`` above the surface."""
    from physics.throw import random_quaternion, random_spin

    height = float(rng.uniform(*scene.height))
    heading = float(rng.uniform(0.0, 2 * math.pi))
    speed = float(rng.uniform(*scene.speed))
    spin = random_spin(rng, *scene.spin)
    return (
        (0.0, 0.0, height),
        random_quaternion(rng),
        (speed * math.cos(heading), speed * math.sin(heading), 0.0),
        tuple(float(w) for w in spin),
    )


def cuboid_body(
    r: float, scene: CuboidScene
) -> tuple[tuple[float, float, float], float, tuple[float, float, float]]:
    """Half extents (m; x along the stretched axis z), mass (kg) and principal inertia of ratio ``r``."""
    from rules.doppelx.dice import load_dice

    spec = next(iter(load_dice().dice.values()))
    density = spec.mass / spec.size**3
    h = (scene.edge / 2, scene.edge / 2, r * scene.edge / 2)
    mass = density * 8 * h[0] * h[1] * h[2]
    inertia = (
        mass / 3 * (h[1] ** 2 + h[2] ** 2),
        mass / 3 * (h[0] ** 2 + h[2] ** 2),
        mass / 3 * (h[0] ** 2 + h[1] ** 2),
    )
    return h, mass, inertia


def face_up(up: np.ndarray) -> int | None:
    """1 a square face up, 0 a long face, ``None`` cocked, from world z in the die's frame."""
    axis = int(np.argmax(np.abs(up)))
    if math.acos(min(1.0, abs(float(up[axis])))) > COCKED:
        return None
    return int(axis == 2)


class CuboidTable:
    """One PyBullet client: a flat table top and one cuboid die, rebuilt for every throw.

    Args:
        settings: the solver (default the project's).
        scene: the material and the throw (default :data:`SCENE`).
    """

    engine = "pybullet"

    def __init__(self, settings=None, scene: CuboidScene | None = None):
        from physics.settings import SimSettings
        from physics.world import import_pybullet

        self.p = import_pybullet()
        self.s = settings or SimSettings()
        self.scene = scene or SCENE
        self.client = self.p.connect(self.p.DIRECT)

    def close(self) -> None:
        self.p.disconnect(physicsClientId=self.client)

    def __enter__(self) -> CuboidTable:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def build(self, half, mass: float, inertia, state, edge: EdgeContact | None = None) -> int:
        """Reset the world: the table top and one box die of ``half`` extents (3,) m, ``mass`` kg and
        principal ``inertia`` (3,) kg m², released in ``state`` = (position (3,) m, quaternion
        (x, y, z, w), velocity (3,) m/s, angular velocity (3,) rad/s, world frame); the die's body id.
        ``edge``: a cube with rounded edges carrying their own contact (:meth:`_rounded_die`)."""
        from physics.world import set_engine_parameters

        p, c, s, sc = self.p, self.client, self.s, self.scene
        position, quaternion, velocity, spin = state
        p.resetSimulation(physicsClientId=c)
        set_engine_parameters(p, c, s)
        table = p.createCollisionShape(p.GEOM_BOX, halfExtents=[10.0, 10.0, 0.025], physicsClientId=c)
        floor = p.createMultiBody(0.0, table, basePosition=(0.0, 0.0, -0.025), physicsClientId=c)
        # Bullet multiplies the two bodies' friction and restitution: the table carries 1, the die the pair's
        p.changeDynamics(
            floor, -1, lateralFriction=1.0, restitution=1.0, rollingFriction=0.0, spinningFriction=0.0,
            physicsClientId=c,
        )  # fmt: skip
        if edge is not None:
            die, mass, inertia = self._rounded_die(half, mass, inertia, position, quaternion, edge)
        else:
            shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=list(half), physicsClientId=c)
            die = p.createMultiBody(
                mass, shape, basePosition=position, baseOrientation=quaternion, physicsClientId=c
            )
        p.changeDynamics(
            die, -1, mass=mass, localInertiaDiagonal=list(inertia), lateralFriction=sc.friction,
            restitution=sc.restitution, rollingFriction=sc.rolling_friction,
            spinningFriction=sc.spinning_friction, linearDamping=0.0, angularDamping=0.0, physicsClientId=c,
        )  # fmt: skip
        p.resetBaseVelocity(die, velocity, spin, physicsClientId=c)
        return die

    def _rounded_die(self, half, mass: float, inertia, position, quaternion, edge: EdgeContact):
        """The rounded cube of :mod:`doppelx.bench.rounded_box` in PyBullet: a compound shape carries one
        friction, so the edges and corners are links on fixed joints (rigid in Bullet's reduced
        coordinates), each with the edge's friction and restitution; the base (the face boxes) keeps the
        cube's mass and inertia less the links' (:data:`~doppelx.bench.rounded_box.LINK_MASS` each).
        The die's body id and the base's mass and inertia."""
        from doppelx.bench.rounded_box import LINK_INERTIA, LINK_MASS, parts

        if edge.time_constant is not None or edge.impedance is not None or edge.impedance_width is not None:
            raise ValueError("PyBullet's rounded edges take no time constant or impedance")
        p, c, sc = self.p, self.client, self.scene
        boxes, rims = parts(half[0], edge.radius)
        base = p.createCollisionShapeArray(
            [p.GEOM_BOX] * len(boxes), halfExtents=[list(b) for b in boxes], physicsClientId=c
        )
        shapes, positions, orientations = [], [], []
        for kind, pos, axis, length in rims:
            if kind == "sphere":
                shapes.append(p.createCollisionShape(p.GEOM_SPHERE, radius=edge.radius, physicsClientId=c))
                orientations.append((0.0, 0.0, 0.0, 1.0))
            else:  # Bullet's cylinder lies along its z: turned onto ``axis``
                shapes.append(p.createCollisionShape(p.GEOM_CYLINDER, radius=edge.radius, height=length,
                                                     physicsClientId=c))  # fmt: skip
                orientations.append(_Z_ONTO[axis])
            positions.append(list(pos))
        n = len(rims)
        # the links' share of the inertia about the centre is isotropic (the cube's symmetry): off the base
        share = LINK_MASS * sum(float(np.dot(x, x)) for x in positions) * 2.0 / 3.0 + n * LINK_INERTIA
        die = p.createMultiBody(
            mass - n * LINK_MASS, base, basePosition=position, baseOrientation=quaternion,
            linkMasses=[LINK_MASS] * n, linkCollisionShapeIndices=shapes, linkVisualShapeIndices=[-1] * n,
            linkPositions=positions, linkOrientations=orientations, linkInertialFramePositions=[[0.0] * 3] * n,
            linkInertialFrameOrientations=[[0.0, 0.0, 0.0, 1.0]] * n, linkParentIndices=[0] * n,
            linkJointTypes=[p.JOINT_FIXED] * n, linkJointAxis=[[0.0, 0.0, 1.0]] * n, physicsClientId=c,
        )  # fmt: skip
        for j in range(n):
            p.changeDynamics(
                die, j, lateralFriction=edge.friction, restitution=edge.restitution,
                rollingFriction=sc.rolling_friction, spinningFriction=sc.spinning_friction,
                localInertiaDiagonal=[LINK_INERTIA] * 3, linearDamping=0.0, angularDamping=0.0, physicsClientId=c,
            )  # fmt: skip
        return die, mass - n * LINK_MASS, [i - share for i in inertia]

    def throw(self, r: float, rng: np.random.Generator) -> tuple[int | None, float]:
        """Throw a cuboid of ratio ``r`` once: (1 square face up, 0 a long face, None cocked; sim s)."""
        half, mass, inertia = cuboid_body(r, self.scene)
        position, quaternion, velocity, spin = throw_of(rng, self.scene)
        position = (position[0], position[1], position[2] + max(half))  # the whole die above the table
        die = self.build(half, mass, inertia, (position, quaternion, velocity, spin))
        p, c, s = self.p, self.client, self.s
        corner = math.sqrt(sum(h * h for h in half))
        substeps, dt = 1, s.time_step
        anchor = (position, quaternion)
        since, t = 0.0, 0.0
        d2, cos_half = s.settle_distance**2, math.cos(s.settle_angle / 2)
        while t < s.time_cap:
            v, w = p.getBaseVelocity(die, physicsClientId=c)
            k = s.substeps(math.hypot(*v) + math.hypot(*w) * corner + s.gravity * s.sample_dt)
            if k != substeps:
                p.setPhysicsEngineParameter(fixedTimeStep=dt / k, physicsClientId=c)
                substeps = k
            for _ in range(s.sample_every * k):
                p.stepSimulation(physicsClientId=c)
            t += s.sample_dt
            pos, q = p.getBasePositionAndOrientation(die, physicsClientId=c)
            a_pos, a_q = anchor
            moved = sum((pos[i] - a_pos[i]) ** 2 for i in range(3)) > d2
            turned = abs(sum(q[i] * a_q[i] for i in range(4))) < cos_half
            if moved or turned:
                anchor, since = (pos, q), t
            elif t - since >= s.settle_hold_leaning:
                break
        _, q = p.getBasePositionAndOrientation(die, physicsClientId=c)
        return face_up(np.array(p.getMatrixFromQuaternion(q)).reshape(3, 3)[2, :]), t


#: Bullet's cylinder lies along its z: the quaternion (x, y, z, w) turning z onto x, y and z.
_Z_ONTO = {
    0: (0.0, math.sqrt(0.5), 0.0, math.sqrt(0.5)),
    1: (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)),
    2: (0.0, 0.0, 0.0, 1.0),
}


@dataclass(frozen=True)
class EdgeContact:
    """Rounded edges of radius ``radius`` (m) with their own contact against the table:
    Coulomb ``friction``, ``restitution`` (through the damping ratio) and ``time_constant``
    (s; ``None``: the face's); MuJoCo only, ``impedance`` at first touch (``solimp``'s d0) rising to
    the face's over ``impedance_width`` (m; ``solimp``'s width), each ``None``: the face's.
    See :mod:`doppelx.bench.rounded_box`."""

    radius: float
    friction: float
    restitution: float
    time_constant: float | None = None
    impedance: float | None = None
    impedance_width: float | None = None


class MujocoCuboidTable:
    """The same scene in MuJoCo: a plane and one sharp-edged box die, MuJoCo's soft contact.

    The material maps as in :mod:`physics.mujoco_materials` (μ one to one, e through the
    damping ratio of the contact spring); solver and step are :class:`~physics.mujoco_world.MujocoParams`'.
    A model is compiled once per ratio; every throw resets its data.
    """

    engine = "mujoco"

    def __init__(self, settings=None, scene: CuboidScene | None = None, params=None):
        from physics.mujoco_world import MujocoParams, import_mujoco
        from physics.settings import SimSettings

        self.mj = import_mujoco()
        self.s = settings or SimSettings()
        self.scene = scene or SCENE
        self.params = params or MujocoParams()
        self._models: dict[float, tuple] = {}

    def close(self) -> None:
        self._models.clear()

    def __enter__(self) -> MujocoCuboidTable:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def mjcf(self, r: float) -> str:
        """The MJCF text of the table and a cuboid die of ratio ``r``."""
        return self.mjcf_box(*cuboid_body(r, self.scene))

    def mjcf_box(self, half, mass: float, inertia, time_constant: float | None = None,
                 impedance: float | None = None, edge: EdgeContact | None = None) -> str:  # fmt: skip
        """The MJCF text of the table and a box die of ``half`` extents (3,) m, ``mass`` kg, ``inertia`` (3,) kg m²;
        ``time_constant`` (s) and a constant ``impedance`` replace the contact's solref time and solimp if given;
        ``edge``: a cube (equal extents) with rounded edges that carry their own contact."""
        from physics.mujoco_materials import SOLIMP, MujocoContact, damping_ratio

        sc, par = self.scene, self.params
        tc = par.time_constant if time_constant is None else time_constant
        solimp = SOLIMP if impedance is None else (impedance, impedance, *SOLIMP[2:])
        solref = (tc, damping_ratio(min(max(sc.restitution, 1e-3), 0.999)))
        friction = (sc.friction, sc.spinning_friction, sc.rolling_friction)
        table = MujocoContact(friction, solref, solimp, par.condim, 1)
        die = MujocoContact(friction, solref, solimp, par.condim, 0)
        v = " ".join
        if edge is None:
            shape = f'<geom name="die" type="box" size="{v(f"{h:.9g}" for h in half)}" {die.attributes()}/>'
        else:
            from doppelx.bench.rounded_box import geoms

            if len(set(half)) != 1:
                raise ValueError("rounded edges are built for a cube (equal half extents)")
            edge_solref = (tc if edge.time_constant is None else edge.time_constant,
                           damping_ratio(min(max(edge.restitution, 1e-3), 0.999)))  # fmt: skip
            # the edge's impedance starts at its own d0 and reaches the face's over its own width
            edge_solimp = (
                solimp[0] if edge.impedance is None else edge.impedance,
                solimp[1],
                solimp[2] if edge.impedance_width is None else edge.impedance_width,
                *solimp[3:],
            )
            # priority 2 over the table's 1: an edge's or corner's contact is its own
            rim = MujocoContact((edge.friction, *friction[1:]), edge_solref, edge_solimp, par.condim, 2)
            shape = geoms(half[0], edge.radius, die.attributes(), rim.attributes())
        return (
            '<mujoco model="cuboid">'
            f'<option timestep="{par.time_step:.9g}" gravity="0 0 {-self.s.gravity:.9g}" '
            f'iterations="{par.iterations}" tolerance="{par.tolerance:.3g}" cone="{par.cone}" '
            f'integrator="{par.integrator}" solver="Newton"/>'
            f'<worldbody><geom name="table" type="plane" size="10 10 0.1" {table.attributes()}/>'
            '<body name="die"><freejoint/>'
            f'<inertial pos="0 0 0" mass="{mass:.9g}" diaginertia="{v(f"{i:.9g}" for i in inertia)}"/>'
            f"{shape}</body></worldbody></mujoco>"
        )

    def throw(self, r: float, rng: np.random.Generator) -> tuple[int | None, float]:
        """As :meth:`CuboidTable.throw`, in MuJoCo."""
        from physics.mujoco_world import _quat_matrix_wxyz

        mj, s = self.mj, self.s
        if r not in self._models:
            m = mj.MjModel.from_xml_string(self.mjcf(r))
            self._models[r] = (m, mj.MjData(m))
        m, d = self._models[r]
        half, _, _ = cuboid_body(r, self.scene)
        position, (qx, qy, qz, qw), velocity, spin = throw_of(rng, self.scene)
        mj.mj_resetData(m, d)
        q = np.array([qw, qx, qy, qz], dtype=float)
        q /= np.linalg.norm(q)
        d.qpos[:3] = (position[0], position[1], position[2] + max(half))
        d.qpos[3:7] = q
        d.qvel[:3] = velocity
        d.qvel[3:6] = _quat_matrix_wxyz(q).T @ np.asarray(spin)  # a free joint's spin is in the body frame
        every = max(1, round(s.sample_dt / m.opt.timestep))
        d2, cos_half = s.settle_distance**2, math.cos(s.settle_angle / 2)
        a_pos, a_q = d.qpos[:3].copy(), d.qpos[3:7].copy()
        since = t = 0.0
        while t < s.time_cap:
            mj.mj_step(m, d, nstep=every)
            t += s.sample_dt
            pos, qq = d.qpos[:3], d.qpos[3:7]
            if float(np.sum((pos - a_pos) ** 2)) > d2 or abs(float(np.dot(qq, a_q))) < cos_half:
                a_pos, a_q, since = pos.copy(), qq.copy(), t
            elif t - since >= s.settle_hold_leaning:
                break
        return face_up(_quat_matrix_wxyz(d.qpos[3:7])[2, :]), t


def run(
    ratios=RATIOS,
    throws: int = 1000,
    seed: int = 2026,
    settings=None,
    scene: CuboidScene | None = None,
    engine: str = "pybullet",
) -> list[Result]:
    """``throws`` throws per ratio in ``engine``; ratio ``k`` draws from ``child_rng(seed, k)``."""
    from physics.engine import check_engine
    from rules.common.rng import child_rng

    check_engine(engine)
    table_of = MujocoCuboidTable if engine == "mujoco" else CuboidTable
    out = []
    with table_of(settings, scene) as table:
        for k, r in enumerate(ratios):
            rng = child_rng(seed, k)
            square = counted = left = 0
            for _ in range(throws):
                face, _ = table.throw(r, rng)
                if face is None:
                    left += 1
                    continue
                counted += 1
                square += face
            out.append(Result(float(r), square, counted, left))
    return out


def compare(results: list[Result]) -> dict:
    """Against Budden's dice (the ratios that have one): inside the 95 % interval, mean absolute error.

    ``chi2``: the two-sample χ² of simulation and experiment, ``Σ (p_sim − p_exp)² / (v_sim + v_exp)``
    with the binomial variances ``v = max(p (1 − p), 0.001) / n`` of both (the floor keeps a
    ratio that never came up square from dividing by zero); about one per ratio if they agree.
    """
    inside, errors, model_errors, chi2 = 0, [], [], 0.0
    for res in results:
        e = experiment(res.x_over_y)
        if e is None:
            continue
        p, n = e
        lo, hi = wilson(round(p * n), n)
        inside += lo <= res.p_square <= hi
        errors.append(abs(res.p_square - p))
        model_errors.append(abs(solid_angle_model(res.x_over_y) - p))  # over the same ratios
        q = res.p_square
        chi2 += (q - p) ** 2 / (max(q * (1 - q), 1e-3) / res.throws + max(p * (1 - p), 1e-3) / n)
    n = len(errors)
    return {
        "compared": n,
        "inside": inside,
        "inside_fraction": inside / n if n else float("nan"),
        "mae": float(np.mean(errors)) if errors else float("nan"),
        "chi2": chi2 if errors else float("nan"),
        "model_mae": float(np.mean(model_errors)) if model_errors else float("nan"),
    }


def format_results(results: list[Result]) -> str:
    """A table: ratio, simulated p with interval and throws, experiment, model."""
    head = f"{'x/y':>5} {'p_square':>8} {'95 % interval':>15} {'throws':>6} {'experiment':>16} {'model':>6}"
    lines = [head, "-" * len(head)]
    for res in results:
        lo, hi = res.interval
        e = experiment(res.x_over_y)
        exp = f"{e[0]:.3f} (n={e[1]})" if e else "—"
        lines.append(
            f"{res.x_over_y:5.2f} {res.p_square:8.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {res.throws:6d} "
            f"{exp:>16} {solid_angle_model(res.x_over_y):6.3f}"
        )
    return "\n".join(lines)


def plot(results: list[Result], out: str, title: str = "", engine: str = "pybullet") -> None:
    """Simulation, Budden's experiment and the solid-angle model on one picture (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.2), constrained_layout=True)
    rs = np.linspace(0.4, 2.8, 200)
    ax.plot(
        rs,
        [solid_angle_model(r) for r in rs],
        color="gray",
        lw=1.5,
        label="solid-angle model (Singmaster 1981)",
    )
    er = np.array([r for r, _, _ in BUDDEN])
    ep = np.array([p for _, p, _ in BUDDEN])
    eci = np.array([wilson(round(p * n), n) for _, p, n in BUDDEN])
    e_err = np.clip([ep - eci[:, 0], eci[:, 1] - ep], 0.0, None)  # Wilson's bound at k = 0 may round above 0
    ax.errorbar(
        er, ep, yerr=e_err, fmt="s", color="tab:red", ms=5, capsize=3,
        label="real steel dice (Budden 1980, via Mungan 2013), 95 %",
    )  # fmt: skip
    sr = np.array([res.x_over_y for res in results])
    sp = np.array([res.p_square for res in results])
    sci = np.array([res.interval for res in results])
    s_err = np.clip([sp - sci[:, 0], sci[:, 1] - sp], 0.0, None)
    ax.errorbar(
        sr + 0.012, sp, yerr=s_err, fmt="o", color="tab:blue", ms=5, capsize=3,
        label=f"simulation ({engine}, {results[0].throws if results else 0}+ throws each), 95 %",
    )  # fmt: skip
    ax.axhline(1 / 3, color="silver", ls=":", lw=1)
    ax.set_xlabel("x / y (stretched edge over square edge)")
    ax.set_ylabel("probability of a square face up")
    ax.set_title(title or "Cuboid dice: simulation, experiment and model", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    from rules.common.atomic import save_figure

    save_figure(fig, out, dpi=110, what="cuboid plot")
    plt.close(fig)
