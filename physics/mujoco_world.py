"""The MuJoCo world of one board in the box: the same tray, dice and spinner as the PyBullet world.

:class:`MujocoWorld` builds an MJCF model from the same :class:`~physics.geometry.Layout`
as :class:`physics.world.World` — static boxes (shell, insert pieces, hole frames, table),
static convex hulls (bet cards, prism fallbacks, obstacles), the spinner as a body on a
hinge whose bearing friction is MuJoCo's joint ``frictionloss`` (Coulomb torque
``μ m g r_pin``) plus ``damping`` — and the dice as free bodies. Materials follow
:mod:`physics.mujoco_materials`.

Rounded dice: a die is a box of half edge ``half − edge_radius`` with a contact margin of
``edge_radius``. MuJoCo detects contacts closer than the margin and its contact spring acts
on ``distance − margin``, so the die touches the world as the Minkowski sum of the smaller
box and a sphere of the edge radius: flat faces where the real die is flat, edges and
corners rounded with the real radius (as Bullet's collision margin does). Dice touch each
other through a second geom, the convex hull of the rounded cube
(:func:`physics.die_shape.rounded_cube_points`) without margin: MuJoCo takes the larger of two
geoms' margins, not their sum, and margin-based die–die pairs were found millimetres deep
by the box–box collider (docs/physics.md).

A compiled model holds the dice of one throw (the thrown ones and the lying ones); models
are compiled once per set of owners and kept. :meth:`MujocoWorld.reset` resets the data
(``mj_resetData``) and writes every pose and velocity, so a throw's result depends only on
its inputs, as in the PyBullet world.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Unpack

import numpy as np

from physics.die_shape import rounded_cube_points
from physics.geometry import CARDBOARD, SPINNER, TABLE
from physics.materials import DIE
from physics.mujoco_materials import TIME_CONSTANT, contact_of
from physics.throw import DieRelease
from physics.tray_world import DieEntry, TraySpecs, TrayWorld
from rules.common.vec import matmul, norm
from rules.doppelx.board import BoardSide
from rules.doppelx.outcome import Pose

#: Contact type bits: the dice's boxes collide with the tray ...
_DIE_BITS = 'contype="1" conaffinity="2"'
_TRAY_BITS = 'contype="2" conaffinity="1"'
#: ... and dice meet each other through their rounded hulls only.
_HULL_BITS = 'contype="4" conaffinity="4"'
#: With ``die_shape = "hull"`` the hull meets everything and the box nothing.
_ALL_BITS = 'contype="5" conaffinity="6"'
_OFF_BITS = 'contype="0" conaffinity="0"'


@dataclass(frozen=True)
class MujocoParams:
    """MuJoCo's own solver settings (the engine-neutral ones come from :class:`SimSettings`).

    Attributes:
        time_step: physics step (s). MuJoCo's contacts are springs with a time constant
            of several steps; 1/3840 s (0.26 ms) keeps the rebound of a flat drop within
            ±0.04 of the coefficient (docs/physics.md, "Second engine: MuJoCo"), and 16
            steps make one PyBullet step of 1/240 s, so samples and replay frames fall on
            the same instants (1/60 s) in both engines.
        time_constant: the contact springs' time constant (s).
        iterations: Newton solver iterations per step (MuJoCo's default 100; it stops at
            ``tolerance`` first).
        tolerance: solver tolerance.
        cone: ``elliptic`` (exact Coulomb cone) or ``pyramidal``.
        integrator: ``implicitfast`` (MuJoCo's recommended default) or ``Euler``.
        condim: contact dimensionality (6: sliding, torsional and rolling friction).
        die_shape: ``"box"`` (a margin-rounded box against the tray, the hull against other
            dice) or ``"hull"`` (the rounded hull against everything).
        sleep: MuJoCo's island sleeping (``<flag sleep="enable"/>``, MuJoCo 4): bodies
            that stay slower than ``sleep_tolerance`` are frozen until something touches
            them, as Bullet's sleeping does; a standard turn runs about 7× faster.
    """

    time_step: float = 1.0 / 3840.0
    time_constant: float = TIME_CONSTANT
    iterations: int = 50
    tolerance: float = 1e-8
    cone: str = "elliptic"
    integrator: str = "implicitfast"
    sleep: bool = True
    condim: int = 6
    die_shape: str = "box"

    def __post_init__(self) -> None:
        if self.die_shape not in ("box", "hull"):
            raise ValueError(f"die_shape must be 'box' or 'hull', got {self.die_shape!r}")
        if self.time_constant < 2 * self.time_step:
            raise ValueError("time_constant must span at least two steps (MuJoCo's own limit)")


class MujocoWorld(TrayWorld):
    """One board in the box in MuJoCo (the interface of :class:`physics.world.World`).

    Args:
        board: the playfield side.
        box, dice, materials, settings: specs (default: the shipped files and settings);
            of the settings MuJoCo uses the engine-neutral ones (sampling, settle test,
            time cap, gravity, hole polygons).
        spinner: put the spinner on boards that have a mount.
        params: MuJoCo's own settings.
        gui: not supported (MuJoCo's viewer is not part of this project).
    """

    engine = "mujoco"

    def __init__(
        self,
        board: BoardSide,
        *,
        params: MujocoParams | None = None,
        gui: bool = False,
        **specs: Unpack[TraySpecs],
    ):
        mujoco = import_mujoco()
        if gui:
            raise ValueError("the MuJoCo world has no GUI; use the project's window (doppelx play)")
        self.mj = mujoco
        super().__init__(board, **specs)
        self.params = params or MujocoParams()
        #: Steps per sample of the run loop: the same sample interval as the PyBullet world.
        self.sample_every = max(1, round(self.settings.sample_dt / self.params.time_step))
        self._models: dict[tuple[str, ...], tuple] = {}
        # MuJoCo's compiled model and its state (``mujoco.MjModel``/``MjData``; the extra is optional)
        self.model: Any = None
        self.data: Any = None
        self.owners: tuple[str, ...] = ()
        self.index: dict[str, int] = {}
        self._closed = False
        self._sleep_policy = 0  # MuJoCo's sleep policy of a die's tree as compiled

    # -- life cycle -----------------------------------------------------------------------
    def close(self) -> None:
        """Drop the compiled models."""
        self._models.clear()
        self.model = self.data = None
        self._closed = True

    # -- building -------------------------------------------------------------------------
    def _set_up(self, lying: dict[str, Pose], spinner_angle: float, entries: list[DieEntry]) -> None:
        """:meth:`TrayWorld.reset` in MuJoCo: the model of these dice (compiled once), its data reset, every pose written."""
        if self._closed:
            raise RuntimeError("the world is closed")
        owners = tuple(e[0] for e in entries)
        if len(set(owners)) != len(owners):
            raise ValueError(f"a die is in the world twice: {owners}")
        key = tuple(sorted(owners))
        if key not in self._models:
            self._models[key] = self._compile(key)
        self.model, self.data, self.index, self._die_geoms, self._spinner_geom, self._die_trees = (
            self._models[key]
        )
        self.owners = key
        m, d = self.model, self.data
        self.mj.mj_resetData(m, d)
        m.tree_sleep_policy[self._die_trees] = self._sleep_policy  # as compiled (keep_awake changes it)
        m.opt.gravity[:] = (0.0, 0.0, -self.settings.gravity)
        if self._spinner_geom is not None:  # a bench may have freed the bearing
            g = self.layout.spinner
            assert g is not None  # a spinner geom comes from the layout's spinner
            n = len(key)
            m.dof_frictionloss[6 * n] = self.materials.bearing_torque(
                g.mass, g.pin_radius, self.settings.gravity
            )
            m.dof_damping[6 * n] = self.materials.bearing_damping
        for owner, position, quaternion, velocity, angular in entries:
            i = self.index[owner]
            qx, qy, qz, qw = quaternion
            q = np.array([qw, qx, qy, qz], dtype=float)
            q /= norm(q)
            d.qpos[7 * i : 7 * i + 3] = position
            d.qpos[7 * i + 3 : 7 * i + 7] = q
            d.qvel[6 * i : 6 * i + 3] = velocity
            # a free joint's angular velocity is in the body's own frame
            d.qvel[6 * i + 3 : 6 * i + 6] = matmul(_quat_matrix_wxyz(q).T, np.asarray(angular, dtype=float))
        if self.spinner_id is not None:
            d.qpos[7 * len(key)] = spinner_angle
        self.mj.mj_forward(m, d)

    def _compile(self, owners: tuple[str, ...]):
        xml = self.mjcf(owners)
        m = self.mj.MjModel.from_xml_string(xml)
        d = self.mj.MjData(m)
        index = {o: k for k, o in enumerate(owners)}
        prefix = "die" if self.params.die_shape == "box" else "die_hull"
        die_geoms = np.array(
            [self.mj.mj_name2id(m, self.mj.mjtObj.mjOBJ_GEOM, f"{prefix}:{o}") for o in owners]
        )
        sg = self.mj.mj_name2id(m, self.mj.mjtObj.mjOBJ_GEOM, "spinner")
        self.spinner_id = 0 if self.layout.spinner is not None else None
        bodies = [self.mj.mj_name2id(m, self.mj.mjtObj.mjOBJ_BODY, f"die:{o}") for o in owners]
        die_trees = m.body_treeid[bodies]
        if len(die_trees):
            self._sleep_policy = int(m.tree_sleep_policy[die_trees[0]])  # the same for every die
        return m, d, index, die_geoms, (sg if sg >= 0 else None), die_trees

    def mjcf(self, owners: Sequence[str]) -> str:
        """The MJCF text of the tray with the dice ``owners`` (free bodies at the origin)."""
        mats = self.engine_materials
        par = self.params
        contact = {
            name: contact_of(mats, name, par.time_constant) for name in (DIE, CARDBOARD, SPINNER, TABLE)
        }
        assets: list[str] = []
        world: list[str] = []
        for b in self.layout.boxes:
            if b.name == "spinner:pin":
                continue
            world.append(
                f'<geom name="{b.name}" type="box" size="{_v(b.half_extents)}" pos="{_v(b.position)}" '
                f'quat="{_v(_wxyz(b.quaternion))}" {_TRAY_BITS} {contact[b.material].attributes()}/>'
            )
        for k, h in enumerate(self.layout.hulls):
            assets.append(f'<mesh name="hull{k}" vertex="{_v(np.ravel(h.vertices))}"/>')
            world.append(
                f'<geom name="{h.name}" type="mesh" mesh="hull{k}" pos="{_v(h.position)}" '
                f'quat="{_v(_wxyz(h.quaternion))}" {_TRAY_BITS} {contact[h.material].attributes()}/>'
            )
        bodies: list[str] = []
        g = self.layout.spinner
        if g is not None:
            assert g.pin is not None
            pin = g.pin
            world.append(
                f'<geom name="spinner:pin" type="box" size="{_v(pin.half_extents)}" pos="{_v(pin.position)}" '
                f"{_TRAY_BITS} {contact[CARDBOARD].attributes()}/>"
            )
            assets.append(f'<mesh name="spinner" vertex="{_v(np.ravel(g.vertices))}"/>')
            thickness = g.z_high - g.z_low
            torque = mats.bearing_torque(g.mass, g.pin_radius, self.settings.gravity)
            bodies.append(
                f'<body name="spinner" pos="{g.center[0]:.9g} {g.center[1]:.9g} {g.z_low:.9g}">'
                f'<joint name="spinner" type="hinge" axis="0 0 1" frictionloss="{torque:.9g}" '
                f'damping="{mats.bearing_damping:.9g}"/>'
                f'<inertial pos="0 0 {thickness / 2:.9g}" mass="{g.mass:.9g}" diaginertia="{_v(g.inertia)}"/>'
                f'<geom name="spinner" type="mesh" mesh="spinner" {_TRAY_BITS} '
                f"{contact[SPINNER].attributes()}/></body>"
            )
        hulls: dict[tuple[float, float], str] = {}
        for o in owners:
            spec = self.dice[o]
            core = spec.half - spec.edge_radius
            shape = (spec.size, spec.edge_radius)
            if shape not in hulls:
                hulls[shape] = f"die_hull{len(hulls)}"
                assets.append(
                    f'<mesh name="{hulls[shape]}" vertex="{_v(np.ravel(rounded_cube_points(spec, 5)))}"/>'
                )
            box_bits, hull_bits = (
                (_DIE_BITS, _HULL_BITS) if par.die_shape == "box" else (_OFF_BITS, _ALL_BITS)
            )
            world.append(
                f'<body name="die:{o}"><freejoint name="die:{o}"/>'
                f'<inertial pos="0 0 0" mass="{spec.mass:.9g}" diaginertia="{_v([spec.inertia] * 3)}"/>'
                f'<geom name="die:{o}" type="box" size="{_v([core] * 3)}" margin="{spec.edge_radius:.9g}" '
                f"{box_bits} {contact[DIE].attributes()}/>"
                f'<geom name="die_hull:{o}" type="mesh" mesh="{hulls[shape]}" {hull_bits} '
                f"{contact[DIE].attributes()}/></body>"
            )
        world += bodies  # after the dice: qpos holds the dice (7 each), then the spinner's angle
        gravity = f"0 0 {-self.settings.gravity:.9g}"
        flags = '<flag sleep="enable"/>' if par.sleep else ""
        return (
            '<mujoco model="doppelx">'
            '<compiler angle="radian" autolimits="true"/>'
            f'<option timestep="{par.time_step:.9g}" gravity="{gravity}" iterations="{par.iterations}" '
            f'tolerance="{par.tolerance:.3g}" cone="{par.cone}" integrator="{par.integrator}" '
            f'solver="Newton">{flags}</option>'
            f"<asset>{''.join(assets)}</asset>"
            f"<worldbody>{''.join(world)}</worldbody>"
            "</mujoco>"
        )

    def _add_die(self, release: DieRelease) -> int:
        """:meth:`TrayWorld.add_die` in MuJoCo: the dice in the world now keep their poses and
        velocities (a model with one die more); returns the die's index."""
        releases = [DieRelease(o, *self.pose(o), *self.velocity(o)) for o in self.owners]
        releases.append(release)
        angle = self.spinner_angle()
        gravity = tuple(self.model.opt.gravity) if self.model is not None else None
        self.reset({}, angle, releases)
        if gravity is not None:
            self.set_gravity(gravity)
        return self.index[release.owner]

    # -- stepping and reading -------------------------------------------------------------
    def step(self) -> None:
        """Advance one physics step."""
        self.mj.mj_step(self.model, self.data)

    def steps(self, n: int) -> None:
        """Advance ``n`` physics steps."""
        self.mj.mj_step(self.model, self.data, n)

    @property
    def time_step(self) -> float:
        """The physics step (s)."""
        return self.params.time_step

    def pose(self, owner: str) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
        """Position (m) and quaternion (x, y, z, w) of a die."""
        i = self.index[owner]
        q = self.data.qpos[7 * i : 7 * i + 7]
        return (float(q[0]), float(q[1]), float(q[2])), _xyzw(q[3:7])

    def contact_count(self) -> int:
        """Contacts the solver carries now (``mjData.ncon``), a measure of its load (``doppelx bench``)."""
        return int(self.data.ncon)

    def poses(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions (n, 3) m and quaternions (n, 4) ``(x, y, z, w)`` of the dice, in :attr:`owners` order."""
        q = self.data.qpos[: 7 * len(self.owners)].reshape(-1, 7)
        return q[:, :3].copy(), q[:, [4, 5, 6, 3]].copy()

    def velocity(self, owner: str) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """Linear (m/s) and angular (rad/s) velocity of a die, board frame."""
        i = self.index[owner]
        v = self.data.qvel[6 * i : 6 * i + 6]
        w = matmul(_quat_matrix_wxyz(self.data.qpos[7 * i + 3 : 7 * i + 7]), v[3:6])
        return (float(v[0]), float(v[1]), float(v[2])), (float(w[0]), float(w[1]), float(w[2]))

    def speeds(self) -> tuple[np.ndarray, np.ndarray]:
        """Squared linear (n,) m²/s² and angular (n,) rad²/s² speeds of the dice."""
        v = self.data.qvel[: 6 * len(self.owners)].reshape(-1, 6)
        return (v[:, :3] ** 2).sum(axis=1), (v[:, 3:] ** 2).sum(axis=1)

    def spinner_angle(self) -> float:
        """The spinner's angle about its pin (rad), 0 without a spinner."""
        if self.spinner_id is None or self.data is None:
            return 0.0
        return float(self.data.qpos[7 * len(self.owners)])

    def spinner_speed(self) -> float:
        """The spinner's angular speed about its pin (rad/s), 0 without a spinner."""
        if self.spinner_id is None or self.data is None:
            return 0.0
        return float(self.data.qvel[6 * len(self.owners)])

    def set_spinner(self, angle: float, speed: float) -> None:
        """Turn the spinner to ``angle`` (rad) with angular speed ``speed`` (rad/s)."""
        n = len(self.owners)
        self.data.qpos[7 * n] = angle
        self.data.qvel[6 * n] = speed

    def free_spinner(self) -> None:
        """Take the bearing off the spinner until the next reset (no friction, no damping)."""
        n = len(self.owners)
        self.model.dof_frictionloss[6 * n] = 0.0
        self.model.dof_damping[6 * n] = 0.0

    def spinner_touching(self) -> set[str]:
        """Owners of the dice touching the spinner card now."""
        d = self.data
        if self._spinner_geom is None or d.ncon == 0:
            return set()
        geom = d.contact.geom
        near = d.contact.dist - d.contact.includemargin <= 1e-4
        out = set()
        sg = self._spinner_geom
        for k in np.nonzero(near & ((geom[:, 0] == sg) | (geom[:, 1] == sg)))[0]:
            other = geom[k, 1] if geom[k, 0] == sg else geom[k, 0]
            hit = np.nonzero(self._die_geoms == other)[0]
            if len(hit):
                out.add(self.owners[int(hit[0])])
        return out

    def keep_awake(self, owners: Collection[str]) -> None:
        """Keep the dice ``owners`` awake (MuJoCo's island sleeping may not freeze them, and a
        frozen one wakes at the next step); the others sleep as compiled. Until the next reset.

        The run loop keeps awake the dice on the board that do not lie flat and have not
        been slow long enough to rest (:meth:`physics.settle.Settle.restless`).
        """
        never = int(self.mj.mjtSleepPolicy.mjSLEEP_NEVER)
        self.model.tree_sleep_policy[self._die_trees] = [
            never if o in owners else self._sleep_policy for o in self.owners
        ]

    def sleep(self, owner: str) -> None:
        """Stop a die resting on the board (MuJoCo has no per-body sleep here: its velocity is zeroed)."""
        i = self.index[owner]
        self.data.qvel[6 * i : 6 * i + 6] = 0.0

    def set_gravity(self, vector: Iterable[float]) -> None:
        """Gravity (3,) m/s² until the next reset."""
        self.model.opt.gravity[:] = tuple(float(v) for v in vector)

    def penetration(self, a: str, b: str, reach: float = 0.0) -> float:
        """Signed distance between dice ``a`` and ``b`` (m; negative = overlapping), or ``reach`` if farther."""
        m = self.model
        ga, gb = (self.mj.mj_name2id(m, self.mj.mjtObj.mjOBJ_GEOM, f"die_hull:{o}") for o in (a, b))
        dist = self.mj.mj_geomDistance(m, self.data, ga, gb, reach, None)
        return min(float(dist), reach)


def import_mujoco():
    """Import mujoco, or a one-line user error naming the extra that installs it."""
    from rules.common.optional import import_optional

    return import_optional("mujoco", "mujoco", "the MuJoCo engine (--engine mujoco)")


def _wxyz(q) -> tuple[float, float, float, float]:
    return (q[3], q[0], q[1], q[2])


def _xyzw(q) -> tuple[float, float, float, float]:
    return (float(q[1]), float(q[2]), float(q[3]), float(q[0]))


def _v(values) -> str:
    return " ".join(f"{float(v):.9g}" for v in values)


def _quat_matrix_wxyz(q) -> np.ndarray:
    """Rotation matrix (3, 3) of a quaternion ``(w, x, y, z)``."""
    w, x, y, z = (float(v) for v in q)
    n = w * w + x * x + y * y + z * z
    s = 2.0 / n if n > 0 else 0.0
    return np.array(
        [
            [1 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w)],
            [s * (x * y + z * w), 1 - s * (x * x + z * z), s * (y * z - x * w)],
            [s * (x * z - y * w), s * (y * z + x * w), 1 - s * (x * x + y * y)],
        ]
    )
