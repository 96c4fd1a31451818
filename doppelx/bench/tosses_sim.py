"""A tracked cube toss re-run in PyBullet or MuJoCo from its fitted release state.

The world is :mod:`doppelx.bench.cuboid`'s (a flat table top and one sharp box, the
project's solver: :class:`~physics.settings.SimSettings` with its adaptive sub-steps in
PyBullet, :class:`~physics.mujoco_world.MujocoParams` in MuJoCo), the die the data's cube
(edge 104.8 mm, 0.37 kg, the data's moment of inertia). The contact is a :class:`TossParams`. A run records
the pose every 1/240 s until the cube has rested (:data:`REST_HOLD` within the settle test's
0.5 mm and 1°) or :data:`TIME_CAP`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

#: A run ends once the cube has stayed within the settle test's distance and angle this long (s) ...
REST_HOLD = 0.3
#: ... and after at most this long (s; the real tosses rest within 3 s).
TIME_CAP = 5.0
#: Poses are recorded every this many seconds (PyBullet's step; 16 MuJoCo steps).
RECORD_DT = 1.0 / 240.0
ENGINES = ("pybullet", "mujoco")


@dataclass(frozen=True)
class TossParams:
    """The cube–board contact as one engine takes it.

    Attributes:
        friction: Coulomb coefficient.
        restitution: the engine's restitution input (PyBullet: the pair's coefficient;
            MuJoCo: the coefficient whose damping ratio the contact spring gets,
            :func:`physics.mujoco_materials.damping_ratio`).
        spinning_friction, rolling_friction: torsional and rolling resistance (m).
        time_constant: MuJoCo only: the contact spring's time constant (s; ``solref[0]``);
            ``None`` is the game's (:data:`physics.mujoco_materials.TIME_CONSTANT`).
        impedance: MuJoCo only: the constraint's impedance, constant over the penetration
            (``solimp = (d, d, 0.1 mm, 0.5, 2)``; lower is softer); ``None`` is the game's
            (:data:`physics.mujoco_materials.SOLIMP`). PyBullet has neither: ``None`` there.
        edge_radius: ``None`` is the sharp box; a radius (m) makes the edges and
            corners rounded geoms of their own (:mod:`doppelx.bench.rounded_box`) whose contact
            with the board is ``edge_friction`` (Coulomb; the face's spinning and rolling
            friction), ``edge_restitution`` (through the damping ratio, as ``restitution``) and
            ``edge_time_constant`` (MuJoCo only; s; ``None``: the face's); the faces keep the
            fields above. PyBullet builds the rims as links on fixed joints.
        edge_impedance, edge_impedance_width: MuJoCo only: the edge's impedance at first touch
            (``solimp``'s d0) and the penetration (m, ``solimp``'s width) over which it rises (or
            falls) to the face's ``impedance``: an edge soft at first touch and stiffer deeper in.
            ``None``: the face's constant impedance (d0 = ``impedance``, the game's 0.1 mm width).
    """

    friction: float
    restitution: float
    spinning_friction: float
    rolling_friction: float
    time_constant: float | None = None
    impedance: float | None = None
    edge_radius: float | None = None
    edge_friction: float | None = None
    edge_restitution: float | None = None
    edge_time_constant: float | None = None
    edge_impedance: float | None = None
    edge_impedance_width: float | None = None

    @property
    def edge(self) -> str:
        """``rounded`` when the edges are geoms of their own, else ``sharp``."""
        return "sharp" if self.edge_radius is None else "rounded"

    def to_dict(self) -> dict:
        """The parameters set (``None`` ones left out), rounded to 6 decimals."""
        return {k: round(v, 6) for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Trajectory:
    """Recorded poses: ``t`` (m,) s, ``pos`` (m, 3) m, ``quat`` (m, 4) ``(x, y, z, w)``."""

    t: np.ndarray
    pos: np.ndarray
    quat: np.ndarray


def game_params(engine: str) -> TossParams:
    """The game's die–board material (pair ``die-cardboard``) as the game hands it to ``engine``
    (restitution calibrated, :func:`physics.restitution_calibration.engine_materials`)."""
    from physics.materials import load_materials
    from physics.restitution_calibration import engine_materials
    from physics.settings import SimSettings

    pair = engine_materials(load_materials(), engine, SimSettings().restitution_calibration).pair("cardboard")
    return TossParams(pair.friction, pair.restitution, pair.spinning_friction, pair.rolling_friction)


class TossRunner:
    """One engine's world for the data's cube; :meth:`run` re-runs a release state.

    Args:
        engine: ``pybullet`` or ``mujoco``.
        half: half edge of the cube (m); mass: kg.
        inertia: its central moment (kg m², the same about every axis); ``None``: a homogeneous cube's.
    """

    def __init__(self, engine: str, half: float, mass: float, inertia: float | None = None):
        from doppelx.bench.cuboid import SCENE, CuboidTable, MujocoCuboidTable
        from physics.engine import check_engine

        check_engine(engine)
        self.engine = engine
        self.half3 = (half, half, half)
        self.mass = mass
        from doppelx.bench.tosses_data import homogeneous_inertia

        i = homogeneous_inertia(mass, half) if inertia is None else float(inertia)
        self.inertia = (i, i, i)
        self._scene = SCENE
        self._table = CuboidTable() if engine == "pybullet" else MujocoCuboidTable()
        self._models: dict[TossParams, tuple] = {}
        self.steps = 0

    def close(self) -> None:
        self._table.close()
        self._models.clear()

    def __enter__(self) -> TossRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(self, params: TossParams, state, until: float = 0.0, cap: float = TIME_CAP) -> Trajectory:
        """Release the cube in ``state`` (position, quaternion (x, y, z, w), velocity, spin; world frame)
        and record it until it has rested, at least ``until`` s, at most ``cap`` s."""
        scene = self._scene.with_(
            friction=params.friction,
            restitution=params.restitution,
            rolling_friction=params.rolling_friction,
            spinning_friction=params.spinning_friction,
        )
        self._table.scene = scene
        if self.engine == "pybullet":
            return self._run_pybullet(params, state, until, cap)
        return self._run_mujoco(params, state, until, cap)

    def _run_pybullet(self, params: TossParams, state, until: float, cap: float) -> Trajectory:
        tb: Any = self._table
        p, c, s = tb.p, tb.client, tb.s
        die = tb.build(self.half3, self.mass, self.inertia, state, _edge_of(params))
        corner = math.sqrt(3) * self.half3[0]
        substeps = 1

        def pose():
            pos, q = p.getBasePositionAndOrientation(die, physicsClientId=c)
            return pos, q

        def advance() -> None:
            nonlocal substeps
            v, w = p.getBaseVelocity(die, physicsClientId=c)
            k = s.substeps(math.hypot(*v) + math.hypot(*w) * corner + s.gravity * RECORD_DT)
            if k != substeps:
                p.setPhysicsEngineParameter(fixedTimeStep=s.time_step / k, physicsClientId=c)
                substeps = k
            for _ in range(k):
                p.stepSimulation(physicsClientId=c)
            self.steps += k

        return self._record(pose, advance, until, cap)

    def _run_mujoco(self, params: TossParams, state, until: float, cap: float) -> Trajectory:
        from physics.mujoco_world import _quat_matrix_wxyz

        tb: Any = self._table
        mj = tb.mj
        if params not in self._models:
            if len(self._models) >= 4:  # a fit tries many materials: keep only the latest models
                self._models.clear()
            m = mj.MjModel.from_xml_string(
                tb.mjcf_box(
                    self.half3,
                    self.mass,
                    self.inertia,
                    params.time_constant,
                    params.impedance,
                    edge=_edge_of(params),
                )
            )
            self._models[params] = (m, mj.MjData(m))
        m, d = self._models[params]
        position, (qx, qy, qz, qw), velocity, spin = state
        mj.mj_resetData(m, d)
        q = np.array([qw, qx, qy, qz], dtype=float)
        q /= np.linalg.norm(q)
        d.qpos[:3] = position
        d.qpos[3:7] = q
        d.qvel[:3] = velocity
        d.qvel[3:6] = _quat_matrix_wxyz(q).T @ np.asarray(spin)  # a free joint's spin is in the body frame
        every = max(1, round(RECORD_DT / m.opt.timestep))

        def pose():
            w, x, y, z = d.qpos[3:7]
            return tuple(d.qpos[:3]), (x, y, z, w)

        def advance() -> None:
            mj.mj_step(m, d, nstep=every)
            self.steps += every

        return self._record(pose, advance, until, cap)

    def _record(self, pose, advance, until: float, cap: float) -> Trajectory:
        s = self._table.s
        d2, cos_half = s.settle_distance**2, math.cos(s.settle_angle / 2)
        ts, ps, qs = [0.0], [], []
        pos, q = pose()
        ps.append(pos)
        qs.append(q)
        anchor, since, t, n = (pos, q), 0.0, 0.0, 0
        while t < min(cap, TIME_CAP) - 1e-9:
            advance()
            n += 1
            t = n * RECORD_DT
            pos, q = pose()
            ts.append(t)
            ps.append(pos)
            qs.append(q)
            a_pos, a_q = anchor
            moved = sum((pos[i] - a_pos[i]) ** 2 for i in range(3)) > d2
            turned = abs(sum(q[i] * a_q[i] for i in range(4))) < cos_half
            if moved or turned:
                anchor, since = (pos, q), t
            elif t - since >= REST_HOLD and t >= until:
                break
        quat = np.array(qs, dtype=float)
        return Trajectory(
            np.array(ts), np.array(ps, dtype=float), quat / np.linalg.norm(quat, axis=1, keepdims=True)
        )


def _edge_of(params: TossParams):
    """The rounded edge's contact of ``params`` for :meth:`MujocoCuboidTable.mjcf_box` (``None``: sharp)."""
    from doppelx.bench.cuboid import EdgeContact

    if params.edge_radius is None:
        return None
    friction = params.friction if params.edge_friction is None else params.edge_friction
    e = params.restitution if params.edge_restitution is None else params.edge_restitution
    return EdgeContact(params.edge_radius, friction, e, params.edge_time_constant, params.edge_impedance,
                       params.edge_impedance_width)  # fmt: skip


def pose_at(t: np.ndarray, pos: np.ndarray, quat: np.ndarray, times) -> tuple[np.ndarray, np.ndarray]:
    """Poses at ``times`` (k,) s by linear interpolation (normalised for the quaternions); held at the ends."""
    times = np.clip(np.asarray(times, dtype=float), t[0], t[-1])
    i = (
        np.clip(np.searchsorted(t, times, side="right") - 1, 0, len(t) - 2)
        if len(t) > 1
        else np.zeros(len(times), int)
    )
    if len(t) == 1:
        return np.repeat(pos[:1], len(times), 0), np.repeat(quat[:1], len(times), 0)
    f = ((times - t[i]) / (t[i + 1] - t[i]))[:, None]
    p = pos[i] * (1 - f) + pos[i + 1] * f
    q0, q1 = quat[i], quat[i + 1]
    q1 = np.where(np.sum(q0 * q1, 1, keepdims=True) < 0, -q1, q1)
    q = q0 * (1 - f) + q1 * f
    return p, q / np.linalg.norm(q, axis=1, keepdims=True)
