"""Simulation settings: step, solver, settle test, time cap, collision choices.

The defaults are the tuned values measured in ``docs/physics.md``; :meth:`SimSettings.naive`
gives the baseline the throughput benchmark compares against (PyBullet's defaults).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

#: Standard gravity (m/s²), the one value every part of the physics uses.
GRAVITY = 9.81

#: Ways to build the static board: boxes (the fast path) or one concave triangle mesh.
BOARD_COLLISIONS = ("boxes", "mesh")
#: Die collision shapes: a box whose margin is the edge radius, or a hull of the rounded cube.
DIE_COLLISIONS = ("box", "rounded_hull")
#: The frames round the holes: Bullet boxes, or convex hulls that meet a die as the rounded cube it is.
HOLE_FRAMES = ("boxes", "hulls")


@dataclass(frozen=True)
class SimSettings:
    """How a throw is simulated.

    Attributes:
        time_step: physics step (s).
        solver_iterations: sequential-impulse iterations per step.
        sample_every: steps between samples; a sample checks for rest, records a replay
            frame and looks for tunnelling. 4 steps of 1/240 s = 60 samples per second.
        time_cap: a throw ends after this much simulated time even if dice still move (s).
        settle_distance: a die is still once its centre stays within this distance (m) ...
        settle_angle: ... and its orientation within this angle (rad) of one pose ...
        settle_hold: ... for this long (s) if it lies flat on the playfield or the table;
            the spinner likewise by its angle ...
        settle_hold_leaning: ... and for this long (s) otherwise (leaning, cocked, on
            another die): such a die may creep before it slides or topples. 0.5 s read a die
            balanced against a wall near its tipping point, turning 0.9°/s and slowly
            faster, 0.3 s before it toppled (settle check seed 32 throw 1164); 1 s read a die
            wedged at 34° in a corner, sliding 0.05 mm/s, 0.4 s before it toppled (seed 62
            throw 720). A die that only creeps (0.6–0.9°/s, seeds 41 and 63) is put to sleep
            after 2 s slower than ``sleep_threshold`` at its fastest point (physics.run).
        settle_distance_leaning: a die on the board that does not lie flat (leaning on a wall
            or another die, cocked) must keep its centre within this distance (m) ...
        settle_angle_leaning: ... and its orientation within this angle (rad) for
            ``settle_hold_leaning``: such a die creeps before it topples. With the flat
            dice's 0.5 mm and 1° a die standing on its edge with a corner on the wall crept
            0.7° in 1.5 s toward its balance point, was read, and toppled 0.4 s later (settle
            check seed 101 throw 757); a die that only creeps is put to sleep after 2 s
            and then keeps its pose exactly, so the tighter test costs only time.
        settle_speed: a die lying flat on the playfield slower than this (m/s) ...
        settle_spin: ... and turning slower than this (rad/s) is put to sleep at once.
        max_travel: adaptive sub-steps: a step is cut into ``k`` equal sub-steps so that
            the fastest die moves at most this far in one (m); ``0`` turns them off. This,
            not Bullet's CCD, keeps fast dice from passing through thin parts and each
            other: a box–box contact is found once the boxes overlap, and is pushed the
            right way while the overlap is under half the thinner body.
        max_substeps: the most sub-steps a step is cut into (a die faster than
            ``max_travel · max_substeps / time_step`` moves farther per sub-step).
        ccd: Bullet's continuous collision detection on the dice (swept sphere). Off by
            default: the contact it makes before an impact has no restitution (impacts
            faster than ~0.8 m/s at 240 Hz lost their bounce), and two dice whose swept
            spheres start inside each other freeze in mid-air; see docs/physics.md.
        ccd_radius: swept-sphere radius as a fraction of the die's half edge.
        ccd_allowed_penetration: Bullet ignores a swept-sphere hit whose motion into the
            surface is less than this per step (m). Bullet's default, 0.04 m, is a
            motion of 9.6 m/s at 240 Hz and turns CCD off for dice.
        sleep_lying: dice lying from earlier throws start asleep (woken when touched).
        sleep_still: a die found lying flat on the playfield and still at a sample is put to
            sleep at once (Bullet's own sleeping waits 2 s); it wakes when touched.
        sleep_threshold: Bullet's own sleeping of a die (m/s, and rad/s; run_throw applies
            it to the die's fastest point too): a die slower than this for 2 s is put to sleep, and a sleeping die woken by a passing die goes back
            to sleep as soon as that die has left it, unless it is faster than this. PyBullet's
            default, √0.05 = 0.224 m/s, froze a lying die knocked to 0.2 m/s in mid-slide,
            5 mm before it would have stopped (docs/physics.md, "Stepping"); at 0.05 m/s such
            a die stops at most v²/2μg = 0.36 mm short (under ``settle_distance``). Much lower
            (0.01) let a die wedged in a hole creep at 2–7 mm/s until the time cap (mixed
            throw 349 of seed 33), which Bullet's sleeping ends.
        die_collision: ``"box"`` or ``"rounded_hull"`` (see :data:`DIE_COLLISIONS`).
        board_collision: ``"boxes"`` or ``"mesh"`` (see :data:`BOARD_COLLISIONS`).
        hole_frames: the boxes that frame each hole, as Bullet boxes (``"boxes"``) or as
            convex hulls (``"hulls"``). Bullet's box–box test ignores collision margins, so
            against a box the die (a box whose margin is its edge radius) is a sharp 16 mm
            cube; against a hull Bullet's GJK sees the margin, so the die meets the hole's
            rim as the rounded cube it is and tips in as a rounded die does (docs/physics.md,
            "Where they differ, which is right").
        hole_segments: sides of the polygon standing in for a round hole.
        hole_margin: reach of a hole's cell of frame boxes beyond the hole (m).
        restitution_threshold: impacts slower than this do not bounce (m/s).
        restitution_calibration: hand the engine, for each material's restitution, the
            input whose flat drop rebounds with it (``assets/restitution_calibration.toml``,
            :mod:`physics.restitution_calibration`); off, the materials file's coefficients
            go to the engine as they stand (PyBullet's dice then rebound 0.025–0.05 higher,
            MuJoCo's 0.01–0.03 lower).
        contact_erp: error reduction of rigid-body contacts (Bullet's ``m_erp2``, PyBullet's
            ``contactERP``): the fraction of a penetration removed per step by a velocity
            (Baumgarte) push. PyBullet's default, 0.08.
        split_impulse: remove penetrations deeper than ``split_impulse_threshold`` by a
            separate position impulse that adds no velocity (Bullet's split impulse) ...
        split_impulse_threshold: ... (m, negative = penetrating). PyBullet's defaults (on,
            -0.04 m) leave every die contact to the Baumgarte push (dice never penetrate
            4 cm); 0 splits every penetration. ``doppelx bench sweep`` compares them.
        contact_threshold: Bullet's contact breaking threshold (m): bounding boxes grow by
            it, and a contact point stays in a pair's manifold while it is within this
            times the smaller body's size (Bullet's relative threshold: × 13.9 mm for a
            die). Bullet's default (``None``: 0.02 m) is larger than a die and merges the
            sleeping dice into islands with every passing die. Bullet keeps this one in a
            process-wide variable, so every world sets it on every reset.
        card_contact_threshold: ... used instead by a world with a spinner. At 2 mm a
            contact point stayed in the manifold only within 0.03 mm, so a die lying on
            the spinner card's hull (GJK finds one corner per step) lost each corner as
            soon as it rocked off it and wobbled on one corner after another for ever (7 of
            100 dice dropped onto the card; 0 of 1 000 at 7.5 mm). Everywhere it costs speed
            (the standard turn 0.76× at 7.5 mm), so only boards with a spinner pay it;
            docs/physics.md, "Stepping".
        cone_friction: PyBullet's implicit cone friction (it only acts on contacts with a
            multibody — the spinner). On (PyBullet's default), a die resting on the spinner
            jitters at ~1 cm/s and never settles; off, it rests.
        hull_margin: collision margin of the static hulls and the spinner (m). Bullet's
            default (about 1 mm) is most of a bet card's thickness; a die then sinks into
            the card and creeps.
        gravity: m/s².
    """

    time_step: float = 1.0 / 240.0
    solver_iterations: int = 50
    sample_every: int = 4
    time_cap: float = 10.0
    settle_distance: float = 0.0005
    settle_angle: float = 0.0175
    settle_hold: float = 0.15
    settle_hold_leaning: float = 1.5
    settle_distance_leaning: float = 0.0001
    settle_angle_leaning: float = 0.00175
    settle_speed: float = 0.004
    settle_spin: float = 0.15
    max_travel: float = 0.003
    max_substeps: int = 16
    ccd: bool = False
    ccd_radius: float = 0.8
    ccd_allowed_penetration: float = 0.0005
    sleep_lying: bool = True
    sleep_still: bool = True
    sleep_threshold: float = 0.05
    die_collision: str = "box"
    board_collision: str = "boxes"
    hole_frames: str = "hulls"
    hole_segments: int = 16
    hole_margin: float = 0.004
    restitution_threshold: float = 0.2
    restitution_calibration: bool = True
    contact_erp: float = 0.08
    split_impulse: bool = True
    split_impulse_threshold: float = -0.04
    contact_threshold: float = 0.002
    card_contact_threshold: float = 0.0075
    cone_friction: bool = False
    hull_margin: float = 0.0003
    gravity: float = GRAVITY

    def __post_init__(self) -> None:
        if self.die_collision not in DIE_COLLISIONS:
            raise ValueError(f"die_collision must be one of {DIE_COLLISIONS}, got {self.die_collision!r}")
        if self.board_collision not in BOARD_COLLISIONS:
            raise ValueError(
                f"board_collision must be one of {BOARD_COLLISIONS}, got {self.board_collision!r}"
            )
        if self.hole_frames not in HOLE_FRAMES:
            raise ValueError(f"hole_frames must be one of {HOLE_FRAMES}, got {self.hole_frames!r}")
        if self.time_step <= 0 or self.sample_every < 1 or self.solver_iterations < 1 or self.time_cap <= 0:
            raise ValueError("time_step, sample_every, solver_iterations and time_cap must be positive")
        if self.sleep_threshold < 0:
            raise ValueError(f"sleep_threshold must be >= 0, got {self.sleep_threshold}")
        if self.max_travel < 0 or self.max_substeps < 1:
            raise ValueError("max_travel must be >= 0 and max_substeps >= 1")
        if self.hole_segments < 6:
            raise ValueError("hole_segments must be at least 6")
        if not 0.0 < self.contact_erp <= 1.0:
            raise ValueError(f"contact_erp must be within (0, 1], got {self.contact_erp}")

    @property
    def sample_dt(self) -> float:
        """Simulated time between two samples (s)."""
        return self.time_step * self.sample_every

    def substeps(self, speed: float) -> int:
        """Sub-steps per step while the fastest die moves at ``speed`` (m/s); 1 = none."""
        if self.max_travel <= 0:
            return 1
        return max(1, min(self.max_substeps, math.ceil(speed * self.time_step / self.max_travel - 1e-9)))

    @classmethod
    def naive(cls) -> SimSettings:
        """The baseline: board as one concave mesh, every body awake, PyBullet's default solver."""
        return cls(
            solver_iterations=50,
            max_travel=0.0,
            ccd=False,
            ccd_allowed_penetration=0.04,
            sleep_lying=False,
            sleep_still=False,
            sleep_threshold=math.sqrt(0.05),
            board_collision="mesh",
            restitution_threshold=0.2,
            contact_threshold=0.02,
            card_contact_threshold=0.02,
            cone_friction=True,
        )

    def with_(self, **changes) -> SimSettings:
        """A copy with some fields changed."""
        return replace(self, **changes)
