"""The PyBullet world of one board in the box: one client, its static tray built once, the rest every throw.

A :class:`World` owns one PyBullet client (``DIRECT`` unless ``gui=True`` is asked for
explicitly). Its first :meth:`World.reset` builds the static tray from the
:class:`~physics.geometry.Layout` (boxes, hulls, the table); every reset removes the
spinner and the dice of the last throw and builds them again — the spinner at a given
angle, the dice lying from earlier throws, the thrown ones — so a throw's result depends
only on its inputs: the same in a fresh world, after a thousand other throws, or in another
process (the simple broadphase and newest-first removal make that so; see
:meth:`World._build_statics`, tests/physics/test_world_reuse.py).

Bodies: static boxes and hulls (see :mod:`physics.geometry`); the spinner as a multibody
with a fixed pin and a revolute link whose bearing friction is a velocity motor with a
torque limit; dice as rigid bodies (maximal coordinates), boxes whose collision margin is
the edge radius, or hulls of the rounded cube.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import math
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Sequence
from typing import Unpack

import numpy as np

from physics.die_shape import is_flat, rounded_cube_points
from physics.geometry import CARDBOARD, SPINNER, BoxPiece, HullPiece
from physics.materials import DIE
from physics.settings import SimSettings
from physics.throw import DieRelease
from physics.tray_world import DieEntry, TraySpecs, TrayWorld
from rules.doppelx.board import BoardSide
from rules.doppelx.dice import DieSpec
from rules.doppelx.outcome import Pose

log = logging.getLogger(__name__)

#: PyBullet drops the children of a compound shape beyond this many (silently).
MAX_COMPOUND_CHILDREN = 16


class World(TrayWorld):
    """One PyBullet client holding the tray of ``board``.

    Args:
        board: the playfield side.
        box, dice, materials, settings: specs (default: the shipped files, tuned settings).
        gui: open PyBullet's own window (``GUI``); the default is ``DIRECT``.
        spinner: put the spinner on boards that have a mount (optional on III/IV, D39).
    """

    engine = "pybullet"

    def __init__(self, board: BoardSide, *, gui: bool = False, **specs: Unpack[TraySpecs]):
        pybullet = import_pybullet()
        self.p = pybullet
        super().__init__(board, **specs)
        self._mesh = None
        if self.settings.board_collision == "mesh":
            from physics.mesh import board_mesh

            verts, faces = board_mesh(self.board, self.box)
            self._mesh = (verts.tolist(), faces.ravel().tolist())
        #: Bullet's contact breaking threshold in this world (dice rest on the spinner card's hull)
        self.contact_threshold = (
            self.settings.card_contact_threshold
            if self.layout.spinner is not None
            else self.settings.contact_threshold
        )
        self.client = pybullet.connect(pybullet.GUI if gui else pybullet.DIRECT)
        if self.client < 0:
            raise RuntimeError("could not start a PyBullet client")
        if not gui:
            _drop_renderer(pybullet, self.client)
        self.gui = gui
        #: rebuilds since the client was (re)connected (see :data:`RENEW_CLIENT_EVERY`)
        self.rebuilds = 0
        self.body_of: dict[str, int] = {}
        self.owner_of: dict[int, str] = {}
        self.static_ids: list[int] = []
        #: the spinner and the dice in creation order (removed newest first by the next reset)
        self._moving: list[int] = []
        self._spinner_shapes: tuple[int, int] | None = None
        self._die_shape: dict[tuple[float, float, str], int] = {}
        self._substeps = 1
        self._tray_plan: list[tuple] | None = None
        self._material_kws: dict[str, dict] = {}
        self._vertex_lists: dict[tuple, list[list[float]]] = {}

    # -- life cycle -----------------------------------------------------------------------
    def close(self) -> None:
        """Disconnect the client (the world is unusable afterwards)."""
        if self.client is not None and self.client >= 0:
            try:
                self.p.disconnect(physicsClientId=self.client)
            finally:
                self.client = -1

    # -- building -------------------------------------------------------------------------
    def _set_up(self, lying: dict[str, Pose], spinner_angle: float, entries: list[DieEntry]) -> None:
        """:meth:`TrayWorld.reset` in PyBullet: the tray (built once), the spinner, the dice ``entries``.

        Dice lying flat on the playfield start asleep (with ``settings.sleep_lying``) and wake
        when something comes near; others start awake and settle where they are.
        """
        if not self.gui and self.rebuilds >= RENEW_CLIENT_EVERY:
            self._renew_client()
        self.rebuilds += 1
        p, c, s = self.p, self.client, self.settings
        if self.static_ids:
            self._remove_moving()
        else:
            self._build_statics()
        set_engine_parameters(p, c, s, self.contact_threshold)
        self._substeps = 1
        self.body_of, self.owner_of = {}, {}
        self.spinner_id = None
        if self.layout.spinner is not None:
            self._build_spinner(spinner_angle)
        self._add_dice(entries)
        if s.sleep_lying:
            for owner, pose in lying.items():
                if _is_flat(pose, self.dice[owner]):
                    p.changeDynamics(
                        self.body_of[owner], -1, activationState=p.ACTIVATION_STATE_SLEEP, physicsClientId=c
                    )

    def _vertex_list(self, vertices) -> list[list[float]]:
        """The same list object for the same hull on every rebuild.

        PyBullet keeps a reference to each point of the ``vertices`` a mesh shape is made
        from (a reference leak in its C code: 14 objects a bet-card hull), so a new list on
        every rebuild grew a worker by ~0.6 KB a throw (tracemalloc); handing it the same
        list only raises reference counts.
        """
        key = tuple(tuple(v) for v in vertices)
        found = self._vertex_lists.get(key)
        if found is None:
            found = self._vertex_lists[key] = [list(v) for v in key]
        return found

    def _build_statics(self) -> None:
        """Wipe the client and build the static bodies: tray, hulls, table (the first reset, or a fresh client).

        The world uses Bullet's simple broadphase (``RESET_USE_SIMPLE_BROADPHASE``): it finds
        exactly the pairs whose boxes overlap now, from the bodies in creation order, and
        keeps no state between steps. The default tree broadphase remembers which stale pairs
        it has cleaned up (a cursor that runs on across throws) and rebalances its trees
        over time, so a world that kept its static bodies would throw differently after a
        thousand throws than in a fresh process; with the simple one it throws the same.
        """
        p, c, s = self.p, self.client, self.settings
        p.resetSimulation(p.RESET_USE_SIMPLE_BROADPHASE, physicsClientId=c)
        set_engine_parameters(p, c, s, self.contact_threshold)
        self.static_ids, self._moving = [], []
        self._die_shape, self._spinner_shapes = {}, None
        if self._mesh is not None:
            self._build_mesh_board()
        else:
            self._build_tray()
        # the naive mesh already holds the insert and the obstacles
        hulls = [
            h
            for h in self.layout.hulls
            if not (self._mesh is not None and h.name.startswith(("hole:", "obstacle:")))
        ]
        self._build_hulls(hulls)
        if s.sleep_lying:
            self._sleep_statics()

    def _remove_moving(self) -> None:
        """Remove the spinner and the dice, newest first, leaving the client as the static build left it.

        Newest first, every list Bullet and PyBullet keep (bodies, broadphase handles, body
        ids) shrinks from its end, so the next throw's bodies get the same places and ids
        as in a fresh world; tests/physics/test_world_reuse.py compares a throw made after
        a thousand others with the same throw in a fresh process, byte for byte. Bodies
        are only ever made through the world's methods, which keep that list.
        """
        p, c = self.p, self.client
        for body in reversed(self._moving):
            p.removeBody(body, physicsClientId=c)
        self._moving = []
        if self.spinner_id is not None:
            self._restore_collider_order()

    def _restore_collider_order(self) -> None:
        """Put back the order a removed spinner leaves swapped, so the next one is built as in a fresh world.

        The spinner is one multibody with two colliders (the pin and the card). Removing it
        frees them in their creation order, and the next spinner takes the freed places last
        in, first out: its pin gets the card's old place and its card the pin's. Every other
        rebuild so built the spinner with its colliders swapped, and Bullet, which meets
        contact pairs in the order of its colliders, threw a throw differently on odd and even
        rebuilds (measured: one side-III throw repeated in one world alternated between two
        resting poses; a batch of games on side III gave other rows resumed than run straight
        through — the analyst's audit of 2 Dec 2026). A scratch multibody of the same two
        shapes, made and removed here, swaps the places once more, back to the order a fresh
        world gives (``tests/physics/test_world_reuse.py``).
        """
        self.p.removeBody(self._spinner_body(), physicsClientId=self.client)

    def _renew_client(self) -> None:
        """A fresh ``DIRECT`` client in place of this one (same state a new process starts from).

        ``resetSimulation`` leaves about 0.7 KB behind in PyBullet on every rebuild (measured:
        RSS +0.07 MiB per 100 rebuilds, the same at d0dbfd1), which a worker running a
        million throws would pile up; a fresh client frees it. A rebuild does not depend on
        what ran before it, so results are unchanged (tests/physics/test_world_renew.py).
        """
        self.p.disconnect(physicsClientId=self.client)
        self.client = self.p.connect(self.p.DIRECT)
        if self.client < 0:
            raise RuntimeError("could not start a PyBullet client")
        _drop_renderer(self.p, self.client)
        self.static_ids, self._moving = [], []  # the next reset builds everything in the new client
        log.debug("fresh PyBullet client %d after %d rebuilds", self.client, self.rebuilds)
        self.rebuilds = 0

    def _sleep_statics(self) -> None:
        """Mark the static bodies asleep, so that a sleeping die lying on them costs nothing.

        Bullet runs the narrow phase for a pair unless both bodies are inactive, and a new
        static body counts as active: every die lying asleep on the playfield was collided
        with the tray's compounds at every step (about 1 µs per die and step, as much as the
        rest of the step). A static body never moves and Bullet never wakes it; a die in
        motion still collides with it (one of the two is active), and a sleeping die's
        contacts are not solved anyway. What changes is only when a lying die's contact
        manifold is made: when it wakes, not at the first step.
        """
        p, c = self.p, self.client
        for body in self.static_ids:
            p.changeDynamics(body, -1, activationState=p.ACTIVATION_STATE_SLEEP, physicsClientId=c)

    def _material_kw(self, name: str) -> dict:
        kw = self._material_kws.get(name)
        if kw is None:
            kw = self._material_kws[name] = self._material_kw_of(name)
        return kw

    def _material_kw_of(self, name: str) -> dict:
        m = self.engine_materials.bodies[name]
        return {
            "lateralFriction": m.friction,
            "restitution": m.restitution,
            "rollingFriction": m.rolling_friction,
            "spinningFriction": m.spinning_friction,
        }

    def _material(self, body: int, name: str, link: int = -1) -> None:
        self.p.changeDynamics(body, link, physicsClientId=self.client, **self._material_kw(name))

    def _build_tray(self) -> None:
        """The static boxes as a few compound bodies: shell, insert, each hole's frame, table.

        A compound costs one body to create and keeps box–box contacts: Bullet collides
        each die with the children near it. Each hole's frame is its own compound, so its
        bounding box stays local to the hole; with ``settings.hole_frames == "hulls"`` its
        children are convex hulls of the boxes (:func:`hull_box_file`). PyBullet
        keeps at most :data:`MAX_COMPOUND_CHILDREN` children per compound; larger groups
        are split.
        """
        p, c = self.p, self.client
        if self._tray_plan is None:
            self._tray_plan = self._plan_tray()
        for material, box, compound in self._tray_plan:
            if box is not None:
                half_extents, position, quaternion = box
                shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=half_extents, physicsClientId=c)
                body = p.createMultiBody(
                    0.0,
                    shape,
                    basePosition=position,
                    baseOrientation=quaternion,
                    useMaximalCoordinates=True,
                    physicsClientId=c,
                )
            else:
                centre, halves, frames, turns, hulls = compound
                # hull children (convex hulls of the boxes) PyBullet takes only from files
                kind, geometry = (
                    (p.GEOM_MESH, {"fileNames": [hull_box_file(h) for h in halves]})
                    if hulls
                    else (p.GEOM_BOX, {"halfExtents": halves})
                )
                shape = p.createCollisionShapeArray(
                    [kind] * len(halves),
                    collisionFramePositions=frames,
                    collisionFrameOrientations=turns,
                    physicsClientId=c,
                    **geometry,
                )
                body = p.createMultiBody(
                    0.0, shape, basePosition=centre, useMaximalCoordinates=True, physicsClientId=c
                )
            self._material(body, material)
            self.static_ids.append(body)

    def _plan_tray(self) -> list[tuple]:
        """The tray's static bodies as ``(material, box, compound)``, worked out once per world.

        ``box`` is ``(half_extents, position, quaternion)`` of a lone box, ``compound`` is
        ``(centre, half extents, child positions, child quaternions, hulls)``; one of them
        is ``None``. ``hulls``: the children are convex hulls of their boxes (the frames of
        the holes with ``settings.hole_frames == "hulls"``), else boxes.
        """
        groups: dict[tuple[str, str], list[BoxPiece]] = {}
        for piece in self.layout.boxes:
            if piece.name == "spinner:pin":
                continue
            groups.setdefault((_group_of(piece.name), piece.material), []).append(piece)
        shell, insert = ("shell", CARDBOARD), ("insert", CARDBOARD)
        if (
            shell in groups
            and insert in groups
            and len(groups[shell]) + len(groups[insert]) <= MAX_COMPOUND_CHILDREN
        ):
            groups[shell] += groups.pop(insert)  # one body less to create
        plan: list[tuple] = []
        for (group, material), pieces in groups.items():
            hulls = self.settings.hole_frames == "hulls" and group.startswith("hole:")
            for k in range(0, len(pieces), MAX_COMPOUND_CHILDREN):
                chunk = pieces[k : k + MAX_COMPOUND_CHILDREN]
                if len(chunk) == 1 and not hulls:
                    b = chunk[0]
                    plan.append((material, (b.half_extents, b.position, b.quaternion), None))
                else:
                    centre = tuple(float(v) for v in np.mean([b.position for b in chunk], axis=0))
                    frames = [tuple(b.position[i] - centre[i] for i in range(3)) for b in chunk]
                    compound = (
                        centre,
                        [b.half_extents for b in chunk],
                        frames,
                        [b.quaternion for b in chunk],
                        hulls,
                    )
                    plan.append((material, None, compound))
        return plan

    def _build_mesh_board(self) -> None:
        p, c = self.p, self.client
        assert self._mesh is not None
        verts, faces = self._mesh
        shape = p.createCollisionShape(
            p.GEOM_MESH, vertices=verts, indices=faces, flags=p.GEOM_FORCE_CONCAVE_TRIMESH, physicsClientId=c
        )
        body = p.createMultiBody(0.0, shape, useMaximalCoordinates=True, physicsClientId=c)
        self._material(body, CARDBOARD)
        self.static_ids.append(body)
        for piece in self.layout.boxes:  # the table and the room's floor stay boxes
            if piece.name.startswith("table"):
                shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=piece.half_extents, physicsClientId=c)
                body = p.createMultiBody(
                    0.0, shape, basePosition=piece.position, useMaximalCoordinates=True, physicsClientId=c
                )
                self._material(body, piece.material)
                self.static_ids.append(body)

    def _build_hulls(self, hulls: Sequence[HullPiece]) -> None:
        """Static hulls; hulls of the same shape (the four bet cards) are created in one batch."""
        p, c = self.p, self.client
        by_shape: dict[tuple, list[HullPiece]] = {}
        for h in hulls:
            by_shape.setdefault((h.vertices, h.material), []).append(h)
        for (verts, material), group in by_shape.items():
            shape = p.createCollisionShape(p.GEOM_MESH, vertices=self._vertex_list(verts), physicsClientId=c)
            if len(group) == 1:
                ids = [
                    p.createMultiBody(
                        0.0,
                        shape,
                        basePosition=group[0].position,
                        baseOrientation=group[0].quaternion,
                        useMaximalCoordinates=True,
                        physicsClientId=c,
                    )
                ]
            else:
                ids = list(
                    p.createMultiBody(
                        0.0,
                        shape,
                        batchPositions=[h.position for h in group],
                        useMaximalCoordinates=True,
                        physicsClientId=c,
                    )
                )
                for body, h in zip(ids, group):
                    p.resetBasePositionAndOrientation(body, h.position, h.quaternion, physicsClientId=c)
            for body in ids:
                self._material(body, material)
                p.changeDynamics(body, -1, collisionMargin=self.settings.hull_margin, physicsClientId=c)
                self.static_ids.append(body)

    def _build_spinner(self, angle: float) -> None:
        p, c = self.p, self.client
        g = self.layout.spinner
        assert g is not None and g.pin is not None
        pin = g.pin
        if self._spinner_shapes is None:  # the shapes outlive the bodies: made once per static build
            tri_shape = p.createCollisionShape(
                p.GEOM_MESH, vertices=self._vertex_list(g.vertices), physicsClientId=c
            )
            # PyBullet ignores changeDynamics(collisionMargin) on a multibody's link: the card
            # kept Bullet's default 1 mm margin (its top 1 mm above the card, a third of its
            # thickness; docs/physics.md, "Spinner"). The margin belongs to the shape, so it is
            # set through a static body holding the same shape for a moment (bodies do not own
            # shapes; removed at once, newest first, it leaves the lists as they were).
            holder = p.createMultiBody(0.0, tri_shape, physicsClientId=c)
            p.changeDynamics(holder, -1, collisionMargin=self.settings.hull_margin, physicsClientId=c)
            p.removeBody(holder, physicsClientId=c)
            self._spinner_shapes = (
                p.createCollisionShape(p.GEOM_BOX, halfExtents=pin.half_extents, physicsClientId=c),
                tri_shape,
            )
        body = self._spinner_body()
        self._moving.append(body)
        self._material(body, CARDBOARD)
        self._material(body, SPINNER, link=0)
        p.changeDynamics(
            body,
            0,
            linearDamping=0.0,
            angularDamping=0.0,
            collisionMargin=self.settings.hull_margin,
            physicsClientId=c,
        )
        if self.materials.bearing_damping > 0:  # in a call of its own: beside collisionMargin
            # PyBullet drops jointDamping without a word (test_spinner checks it is applied)
            p.changeDynamics(body, 0, jointDamping=self.materials.bearing_damping, physicsClientId=c)
        # alone and last: with the mass or the margin in the same call PyBullet recomputes the
        # inertia from the hull's bounding box (about twice the plate's about the pin)
        p.changeDynamics(body, 0, localInertiaDiagonal=g.inertia, physicsClientId=c)
        p.resetJointState(body, 0, angle, 0.0, physicsClientId=c)
        torque = self.materials.bearing_torque(g.mass, g.pin_radius, self.settings.gravity)
        p.setJointMotorControl2(
            body, 0, p.VELOCITY_CONTROL, targetVelocity=0.0, force=torque, physicsClientId=c
        )
        self.spinner_id = body

    def _spinner_body(self) -> int:
        """A new spinner body: one multibody, the pin its fixed base and the card a link on a
        revolute joint about the pin (the shapes made by :meth:`_build_spinner`)."""
        p, c = self.p, self.client
        g = self.layout.spinner
        assert g is not None and g.pin is not None and self._spinner_shapes is not None
        pin = g.pin
        pin_shape, tri_shape = self._spinner_shapes
        return p.createMultiBody(
            baseMass=0.0,
            baseCollisionShapeIndex=pin_shape,
            basePosition=pin.position,
            linkMasses=[g.mass],
            linkCollisionShapeIndices=[tri_shape],
            linkVisualShapeIndices=[-1],
            linkPositions=[(0.0, 0.0, g.z_low - pin.position[2])],
            linkOrientations=[(0, 0, 0, 1)],
            linkInertialFramePositions=[(0.0, 0.0, (g.z_high - g.z_low) / 2)],
            linkInertialFrameOrientations=[(0, 0, 0, 1)],
            linkParentIndices=[0],
            linkJointTypes=[p.JOINT_REVOLUTE],
            linkJointAxis=[(0, 0, 1)],
            useMaximalCoordinates=False,
            physicsClientId=c,
        )

    def _die_collision(self, spec: DieSpec) -> int:
        p, c = self.p, self.client
        key = (spec.size, spec.edge_radius, self.settings.die_collision)
        if key not in self._die_shape:
            if self.settings.die_collision == "box":
                shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=[spec.half] * 3, physicsClientId=c)
            else:
                shape = p.createCollisionShape(
                    p.GEOM_MESH,
                    vertices=self._vertex_list(tuple(map(tuple, rounded_cube_points(spec).tolist()))),
                    physicsClientId=c,
                )
            self._die_shape[key] = shape
        return self._die_shape[key]

    def _add_die(self, release: DieRelease) -> int:
        """:meth:`TrayWorld.add_die` in PyBullet: returns the die's body id."""
        r = release
        self._add_dice([(r.owner, r.position, r.quaternion, r.velocity, r.angular_velocity)])
        return self.body_of[r.owner]

    def _add_dice(self, entries: Sequence[tuple]) -> None:
        """Create dice ``(owner, position, quaternion, velocity, angular_velocity)``; one batch per shape."""
        for owner, *_ in entries:
            if owner in self.body_of:
                raise ValueError(f"die {owner!r} is already in the world")
        by_shape: dict[int, list[tuple]] = {}
        for e in entries:
            by_shape.setdefault(self._die_collision(self.dice[e[0]]), []).append(e)
        for shape, group in by_shape.items():
            ids = self._create_dice(shape, group)
            self._moving += ids
            for body, (owner, position, quaternion, velocity, angular) in zip(ids, group):
                if len(group) > 1:
                    self.p.resetBasePositionAndOrientation(
                        body, position, quaternion, physicsClientId=self.client
                    )
                self._die_dynamics(body, self.dice[owner])
                if any(velocity) or any(angular):
                    self.p.resetBaseVelocity(body, velocity, angular, physicsClientId=self.client)
                self.body_of[owner] = body
                self.owner_of[body] = owner

    def _create_dice(self, shape: int, group: list[tuple]) -> list[int]:
        """The bodies of a ``group`` of dice entries of one collision ``shape``, in one call.

        More than one die is created as a batch at its positions only; :meth:`_add_dice` then
        sets each one's pose.
        """
        p, c = self.p, self.client
        mass = self.dice[group[0][0]].mass
        if len(group) > 1:
            positions = [e[1] for e in group]
            return list(
                p.createMultiBody(
                    mass, shape, batchPositions=positions, useMaximalCoordinates=True, physicsClientId=c
                )
            )
        _, position, quaternion, *_ = group[0]
        body = p.createMultiBody(
            mass,
            shape,
            basePosition=position,
            baseOrientation=quaternion,
            useMaximalCoordinates=True,
            physicsClientId=c,
        )
        return [body]

    def _die_dynamics(self, body: int, spec: DieSpec) -> None:
        """A new die's mass, inertia, material, no damping, its collision margin and Bullet's sleep threshold."""
        s = self.settings
        kw = dict(self._material_kw(DIE))
        if s.ccd:
            kw["ccdSweptSphereRadius"] = s.ccd_radius * spec.half
        if s.die_collision == "box":
            kw["collisionMargin"] = spec.edge_radius
        # PyBullet takes the square of the speed (m/s and rad/s) below which Bullet
        # may put the die to sleep (settings.sleep_threshold)
        kw["sleepThreshold"] = s.sleep_threshold**2
        self.p.changeDynamics(
            body,
            -1,
            mass=spec.mass,
            localInertiaDiagonal=[spec.inertia] * 3,
            linearDamping=0.0,
            angularDamping=0.0,
            physicsClientId=self.client,
            **kw,
        )

    # -- stepping and reading -------------------------------------------------------------
    def step(self) -> None:
        """Advance one physics step, cut into sub-steps by the fastest die's speed (``settings.max_travel``)."""
        s, p, c = self.settings, self.p, self.client
        if s.max_travel > 0 and self.body_of:
            fastest = 0.0
            for owner, body in self.body_of.items():
                v, w = p.getBaseVelocity(body, physicsClientId=c)
                reach = math.hypot(*v) + math.hypot(*w) * math.sqrt(3) * self.dice[owner].half
                fastest = max(fastest, reach)
            self.set_substeps(s.substeps(fastest + s.gravity * s.time_step))
        for _ in range(self._substeps):
            p.stepSimulation(physicsClientId=c)

    @property
    def substeps(self) -> int:
        """Sub-steps of one step now (1: whole steps); each is ``time_step / substeps`` long."""
        return self._substeps

    def set_substeps(self, k: int) -> None:
        """Cut the following steps into ``k`` sub-steps (1: whole steps), until changed or reset.

        The caller then calls ``stepSimulation`` ``k`` times per step (as :meth:`step` does).
        """
        if k != self._substeps:
            self.p.setPhysicsEngineParameter(
                fixedTimeStep=self.settings.time_step / k, physicsClientId=self.client
            )
            self._substeps = k

    def pose(self, owner: str) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
        """Position (m) and quaternion (x, y, z, w) of a die."""
        return self.p.getBasePositionAndOrientation(self.body_of[owner], physicsClientId=self.client)

    def velocity(self, owner: str) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """Linear (m/s) and angular (rad/s) velocity of a die."""
        return self.p.getBaseVelocity(self.body_of[owner], physicsClientId=self.client)

    def contact_count(self) -> int:
        """Contact points the solver carries now (every pair's persistent manifold): the rows of
        its constraint system each step, so a measure of its load (``doppelx bench``)."""
        return len(self.p.getContactPoints(physicsClientId=self.client))

    def spinner_angle(self) -> float:
        """The spinner's angle about its pin (rad), 0 without a spinner."""
        if self.spinner_id is None:
            return 0.0
        return float(self.p.getJointState(self.spinner_id, 0, physicsClientId=self.client)[0])

    def spinner_speed(self) -> float:
        """The spinner's angular speed about its pin (rad/s), 0 without a spinner."""
        if self.spinner_id is None:
            return 0.0
        return float(self.p.getJointState(self.spinner_id, 0, physicsClientId=self.client)[1])

    @property
    def time_step(self) -> float:
        """The physics step (s): :meth:`step` advances this much."""
        return self.settings.time_step

    def set_spinner(self, angle: float, speed: float) -> None:
        """Turn the spinner to ``angle`` (rad) with angular speed ``speed`` (rad/s)."""
        self.p.resetJointState(self.spinner_id, 0, angle, speed, physicsClientId=self.client)

    def spinner_touching(self) -> set[str]:
        """Owners of the dice touching the spinner card now."""
        if self.spinner_id is None:
            return set()
        pts = self.p.getContactPoints(bodyA=self.spinner_id, linkIndexA=0, physicsClientId=self.client)
        return {self.owner_of[pt[2]] for pt in pts if pt[2] in self.owner_of and pt[8] <= 1e-4}

    def set_gravity(self, vector: Iterable[float]) -> None:
        """Point gravity along ``vector`` (3,) m/s² until the next reset (a tilted playfield, or none)."""
        x, y, z = map(float, vector)
        self.p.setGravity(x, y, z, physicsClientId=self.client)

    def sleep(self, owner: str) -> None:
        """Stop a die resting on the board and put it to sleep (it wakes when something comes near)."""
        body = self.body_of[owner]
        self.p.resetBaseVelocity(body, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), physicsClientId=self.client)
        self.p.changeDynamics(
            body, -1, activationState=self.p.ACTIVATION_STATE_SLEEP, physicsClientId=self.client
        )

    def penetration(self, a: str, b: str, reach: float = 0.0) -> float:
        """Signed distance between dice ``a`` and ``b`` (m; negative = overlapping), or ``reach`` if farther."""
        pts = self.p.getClosestPoints(self.body_of[a], self.body_of[b], reach, physicsClientId=self.client)
        return min((pt[8] for pt in pts), default=reach)


#: The collision margin PyBullet gives a convex hull loaded from a mesh file (Bullet's
#: default; it cannot be changed on a compound's children). A hole frame's hull is pulled in
#: by it at its top and bottom only, so that with its margin its flat top is the box's top
#: over the box's whole footprint, right up to the hole's rim; the margin then rounds the rim
#: by 1 mm outside the footprint, over the hole (tests/physics/test_hole_frames.py).
MESH_MARGIN = 0.001
_hull_dir: str | None = None


def _hulls_folder() -> str:
    """The folder of the hull files: one per user in the system's temporary folder, shared by
    every process (a file is named by its content, so a process killed before it could clean
    up leaves nothing behind that the next one does not reuse); a private temporary folder
    when that one is not this user's own."""
    global _hull_dir
    if _hull_dir is None:
        uid = os.getuid() if hasattr(os, "getuid") else None
        shared = os.path.join(tempfile.gettempdir(), f"doppelx-hulls-{uid if uid is not None else 'user'}")
        try:
            os.makedirs(shared, mode=0o700, exist_ok=True)
            info = os.lstat(shared)  # a real folder (not a link planted there), this user's alone
            mine = stat.S_ISDIR(info.st_mode) and (
                uid is None or (info.st_uid == uid and not info.st_mode & 0o022)
            )
        except OSError:
            mine = False
        if mine:
            _hull_dir = shared
        else:  # a folder of this process's own, removed when it ends
            _hull_dir = tempfile.mkdtemp(prefix="doppelx-hulls-")
            atexit.register(shutil.rmtree, _hull_dir, ignore_errors=True)
    return _hull_dir


def hull_box_file(half_extents: Sequence[float]) -> str:
    """A Wavefront OBJ file of the box ``half_extents`` (m), its top and bottom pulled in by :data:`MESH_MARGIN`.

    With the margin, the hull's top and bottom are the box's, flat over its whole
    footprint, and its sides stand 1 mm outside the box's, their edges rounded. For a
    hole's frame that keeps a die resting flat carried right up to the rim, as on the
    real board, and narrows the hole by 1 mm a side below the rim (the rounded lip sits
    over the hole); the statics of a die over the rim are then within 0.2–0.6 mm of the
    real rounded die's (``doppelx bench holes``; pulled in all round, the rim was rounded
    inside the footprint and dice tipped in 1.3–1.6 mm early). PyBullet builds a compound's
    convex children only from files; the files live in a temporary folder of the user's
    (:func:`_hulls_folder`), one per box, named by its content and written atomically, so
    processes share them and a killed process leaves no folder of its own behind.
    """
    hx, hy = (float(h) for h in half_extents[:2])
    hz = max(float(half_extents[2]) - MESH_MARGIN, 1e-5)
    corners = [(sx * hx, sy * hy, sz * hz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    faces = ((1, 2, 4, 3), (5, 7, 8, 6), (1, 5, 6, 2), (3, 4, 8, 7), (1, 3, 7, 5), (2, 6, 8, 4))
    text = "".join(f"v {x!r} {y!r} {z!r}\n" for x, y, z in corners)
    text += "".join("f {} {} {} {}\n".format(*f) for f in faces)
    folder = _hulls_folder()
    path = os.path.join(folder, hashlib.sha1(text.encode()).hexdigest() + ".obj")
    if not os.path.exists(path):  # written whole under another name, then renamed: never seen half
        fd, part = tempfile.mkstemp(prefix=".part-", suffix=".obj", dir=folder)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(text)
        try:
            os.replace(part, path)
        except PermissionError:  # (Windows) another process has it open: it holds the same content
            os.unlink(part)
    return path


def set_engine_parameters(p, client: int, s: SimSettings, contact_threshold: float | None = None) -> None:
    """Gravity and every solver parameter of ``s`` on a freshly reset client (whole steps).

    ``contact_threshold``: instead of ``s.contact_threshold`` (a world with a spinner).
    """
    p.setGravity(0.0, 0.0, -s.gravity, physicsClientId=client)
    # every parameter explicitly on every reset: some live in process-wide variables
    p.setPhysicsEngineParameter(
        fixedTimeStep=s.time_step,
        numSubSteps=0,
        numSolverIterations=s.solver_iterations,
        deterministicOverlappingPairs=1,
        restitutionVelocityThreshold=s.restitution_threshold,
        contactBreakingThreshold=s.contact_threshold if contact_threshold is None else contact_threshold,
        allowedCcdPenetration=s.ccd_allowed_penetration,
        enableConeFriction=int(s.cone_friction),
        contactERP=s.contact_erp,
        useSplitImpulse=int(s.split_impulse),
        splitImpulsePenetrationThreshold=s.split_impulse_threshold,
        physicsClientId=client,
    )


def import_pybullet():
    """Import pybullet without its "pybullet build time" banner on stderr (C-level printf)."""
    import sys

    if "pybullet" in sys.modules:
        return sys.modules["pybullet"]
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        import pybullet

        return pybullet
    sys.stderr.flush()
    saved = os.dup(fd)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), fd)
            import pybullet
    finally:
        os.dup2(saved, fd)
        os.close(saved)
    return pybullet


#: A ``DIRECT`` world takes a fresh client after this many rebuilds (bounded memory).
RENEW_CLIENT_EVERY = 5000
#: PyBullet's software renderer, loaded into every client; without a window nothing draws
#: through it, yet it makes a visual copy of every body created and frees them all on
#: ``resetSimulation`` — about a third of the cost of a rebuild (py-spy, benchmarks/README.md).
RENDERER_PLUGIN = "tinyRendererPlugin"


def _drop_renderer(pybullet, client: int) -> None:
    """Unload the software renderer from a ``DIRECT`` client (physics is unchanged: it only draws)."""
    plugin = pybullet.loadPlugin(RENDERER_PLUGIN, physicsClientId=client)
    if plugin >= 0:
        pybullet.unloadPlugin(plugin, physicsClientId=client)


def _group_of(name: str) -> str:
    """Compound group of a static piece: ``shell``, ``insert``, ``hole:<id>``, ``obstacle:<id>``, ``table``."""
    if name.startswith(("floor", "wall:")):
        return "shell"
    if name.startswith("insert:"):
        return "insert"
    if name.startswith("hole:"):
        return name.rsplit(":", 1)[0]
    if name.startswith("table"):
        return "table"  # the table top and the room's floor: one compound
    return name


def _is_flat(pose: Pose, spec: DieSpec) -> bool:
    """The pose rests flat on the playfield (z = half edge, a face straight up)."""
    return is_flat(pose.position, pose.quaternion, spec.half)
