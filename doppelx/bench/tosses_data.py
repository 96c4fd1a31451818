"""Tracked cube tosses (ContactNets' format): read, check, rescale, fit each toss's release state.

The file (``assets/validation/cube_tosses.README.md`` gives its source and format) holds
``states`` (n, 13): position (m), quaternion (w, x, y, z), linear velocity (m/s) and body-frame
angular velocity (rad/s) of every frame, ``offsets`` (tosses + 1,), ``toss_id`` (tosses,),
``dt`` (s), ``half_width_m`` and ``mass_kg``, and optionally ``inertia_kgm2``, the cube's moment of
inertia about any axis through its centre (a cube's mass spread with the cube's symmetry has one
moment for every axis; absent: a homogeneous cube's ``m (2h)² / 6``). A malformed file is a :class:`~rules.common.errors.DoppelXError`
naming the file and what is wrong (the CLI prints it on one line, exit 2).

Two corrections are applied before anything is compared (docs/physics.md, "Real motion"):

* **Length scale.** The tracked free fall accelerates at g ≈ 9.61 m/s² (median of a quadratic
  fit to each toss's first frames) and a cube resting flat sits at 51.3 mm instead of its
  52.4 mm half width: both are 2.0–2.2 % short, while the horizontal acceleration in flight is
  below 0.02 m/s² (a tilted board would show g·sin(tilt), 1.9 m/s² for the 11° that 9.61
  would need). A length scale of the tracking explains both; a frame-rate error would not
  move the resting height. Every length and linear velocity is multiplied by
  ``k = GRAVITY / g_fit`` (:func:`length_scale`, from the file itself), which brings the
  resting height to the cube's half width; the simulation keeps g = 9.81.
* **Release state.** The file's velocities are backward differences (frame 0's is the motion
  over the first interval), so the release state is fitted (:func:`release_state`) to the
  first :data:`FIT_FRAMES` frames before the first contact: position and velocity by least
  squares on a ballistic arc, orientation and angular velocity by a constant rotation (a
  cube's inertia is isotropic, so its spin is constant in free flight).

The shipped cube is not homogeneous: 0.37 kg is 27 % of a solid acrylic cube of its size
(1.36 kg), a "loose construction" of plates; the file carries the inertia its authors give
(0.00081 kg m², 1.20 × a homogeneous cube's; docs/physics.md, "Real motion").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from physics.settings import GRAVITY
from rules.common.errors import DoppelXError

#: Keys of the file and the tosses the fit half takes: even ``toss_id`` (docs/physics.md).
KEYS = ("states", "offsets", "toss_id", "dt", "half_width_m", "mass_kg")
#: The optional key: the cube's moment of inertia about its centre (kg m²).
INERTIA_KEY = "inertia_kgm2"
#: Mass anywhere inside a cube of half width h gives a central moment of at most 2 m h² (all of
#: it in the corners, each 3 h² from the centre: I = ⅔ Σ m r²); a file asking for more is refused.
MAX_INERTIA_FACTOR = 2.0
#: A quaternion whose length is further than this from 1 is refused.
UNIT_TOLERANCE = 1e-3
#: Frames of free flight (at most) the release state is fitted to, and the least accepted.
FIT_FRAMES = 8
MIN_FIT_FRAMES = 3
#: A frame is in free flight while the cube's lowest corner is this far above the board (m).
FLIGHT_CLEARANCE = 0.005
#: Frames of each toss the length scale's free-fall fit takes.
GRAVITY_FRAMES = 10
#: The length scale a file may need (the shipped one needs 1.020): beyond it the file's units
#: or frame rate are wrong (positions in mm, dt of another camera), not its tracking.
MAX_SCALE = 1.25
#: How far (a fraction of the half width) the rescaled cube's median resting height may be from
#: its half width (the shipped one: 0.2 %): beyond it the board is not at z = 0.
REST_TOLERANCE = 0.2


@dataclass(frozen=True)
class Toss:
    """One tracked toss, lengths rescaled (:func:`length_scale`).

    Attributes:
        toss_id: its number in the original data set.
        t: (n,) s from the first frame.
        pos: (n, 3) m, centre in the board frame.
        quat: (n, 4) body to board, ``(x, y, z, w)`` (PyBullet's order; the file's is w first).
    """

    toss_id: int
    t: np.ndarray
    pos: np.ndarray
    quat: np.ndarray


@dataclass(frozen=True)
class TossData:
    """A whole file: its tosses, the cube, the length scale applied and the file's SHA-256.

    ``inertia`` is the cube's central moment (kg m²): the file's ``inertia_kgm2``, or a
    homogeneous cube's when the file has none (``inertia_given`` says which)."""

    tosses: tuple[Toss, ...]
    half_width: float
    mass: float
    dt: float
    scale: float
    sha256: str
    source: str
    inertia: float
    inertia_given: bool

    def half(self, which: str) -> tuple[Toss, ...]:
        """``"fit"`` (even ``toss_id``), ``"eval"`` (odd) or ``"all"`` tosses."""
        if which == "all":
            return self.tosses
        parity = 0 if which == "fit" else 1
        return tuple(t for t in self.tosses if t.toss_id % 2 == parity)


def default_path() -> Path:
    """The shipped copy of the 456 tosses."""
    from rules.common.assets import asset_path

    return asset_path("validation", "cube_tosses.npz")


def load_tosses(path: str | Path | None = None) -> TossData:
    """Read and check a tosses file (default the shipped one); lengths rescaled by :func:`length_scale`."""
    path = Path(path) if path is not None else default_path()
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DoppelXError(f"{where}: cannot read the tosses file ({exc.strerror or exc})") from None
    try:
        import io

        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            arrays = {k: np.asarray(z[k]) for k in z.files}
    except Exception as exc:
        raise DoppelXError(f"{where}: not a NumPy .npz file of tosses ({type(exc).__name__})") from None
    states, offsets, ids, dt, half, mass = _checked(arrays, where)
    inertia = _inertia(arrays, half, mass, where)
    tosses = []
    for k in range(len(ids)):
        s = states[offsets[k] : offsets[k + 1]]
        quat = s[:, [4, 5, 6, 3]]
        tosses.append(Toss(int(ids[k]), np.arange(len(s)) * dt, s[:, :3].copy(), quat / _norm(quat)))
    scale = length_scale(tosses, dt)
    if not 1 / MAX_SCALE <= scale <= MAX_SCALE:
        raise DoppelXError(
            f"{where}: the tosses fall at g = {GRAVITY / scale:.3g} m/s² (a quadratic fit to each toss's first "
            f"{GRAVITY_FRAMES} frames' height), not about {GRAVITY:g}: are the positions in metres and dt "
            f"({dt:.6g}) in seconds?"
        )
    tosses = [Toss(t.toss_id, t.t, t.pos * scale, t.quat) for t in tosses]
    rest = float(np.median([t.pos[-1, 2] for t in tosses]))
    if abs(rest - half) > REST_TOLERANCE * half:
        raise DoppelXError(
            f"{where}: the cube comes to rest with its centre {rest:.4g} m above the board (median of the "
            f"last frames), not at its half width {half:g} m: are the positions in the board's frame, z up?"
        )
    return TossData(
        tuple(tosses), half, mass, dt, scale, hashlib.sha256(raw).hexdigest(), where,
        homogeneous_inertia(mass, half) if inertia is None else inertia, inertia is not None,
    )  # fmt: skip


def _shown(v: np.ndarray) -> str:
    """A refused array as a message shows it: a scalar's value, else its type and shape."""
    if v.shape == () and v.dtype.kind in "biuf":
        return f"{v.item()!r}"
    return f"{v.dtype} array of shape {v.shape}"


def homogeneous_inertia(mass: float, half: float) -> float:
    """The central moment (kg m²) of a homogeneous cube of ``mass`` kg and half width ``half`` m."""
    return mass * (2.0 * half) ** 2 / 6.0


def _inertia(a: dict, half: float, mass: float, where: str) -> float | None:
    """The file's ``inertia_kgm2``, checked (one positive number a cube of its mass and size can have)."""
    if INERTIA_KEY not in a:
        return None
    v = a[INERTIA_KEY]
    if v.shape != () or not np.issubdtype(v.dtype, np.number) or not np.isfinite(v) or float(v) <= 0:
        raise DoppelXError(f"{where}: {INERTIA_KEY} must be one positive number, got {_shown(v)}")
    most = MAX_INERTIA_FACTOR * mass * half**2
    if float(v) > most:
        raise DoppelXError(
            f"{where}: {INERTIA_KEY} {float(v):.6g} kg m² is more than a cube of {mass:g} kg and half width "
            f"{half * 1000:g} mm can have (at most 2 m h² = {most:.6g}, all of its mass in the corners)"
        )
    return float(v)


def _norm(q: np.ndarray) -> np.ndarray:
    return np.linalg.norm(q, axis=1, keepdims=True)


def _checked(a: dict, where: str):
    """The file's arrays, each checked: shape, dtype, finite, unit quaternions, offsets."""

    def bad(what: str) -> DoppelXError:
        return DoppelXError(f"{where}: {what}")

    missing = [k for k in KEYS if k not in a]
    if missing:
        raise bad(f"missing array(s) {', '.join(missing)} (a tosses file holds {', '.join(KEYS)})")
    states, offsets, ids = a["states"], a["offsets"], a["toss_id"]
    if states.ndim != 2 or states.shape[1] != 13 or not np.issubdtype(states.dtype, np.floating):
        raise bad(f"states must be a float array of shape (frames, 13), got {states.dtype} {states.shape}")
    if not np.all(np.isfinite(states)):
        row = int(np.argwhere(~np.isfinite(states))[0][0])
        raise bad(f"states row {row} holds NaN or infinity")
    for key in ("dt", "half_width_m", "mass_kg"):
        v = a[key]
        if v.shape != () or not np.issubdtype(v.dtype, np.number) or not np.isfinite(v) or float(v) <= 0:
            raise bad(f"{key} must be one positive number, got {_shown(v)}")
    if offsets.ndim != 1 or not np.issubdtype(offsets.dtype, np.integer) or len(offsets) < 2:
        raise bad(f"offsets must be integers of shape (tosses + 1,), got {offsets.dtype} {offsets.shape}")
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer) or len(ids) != len(offsets) - 1:
        raise bad(f"toss_id must be integers of shape ({len(offsets) - 1},) (one per toss), got {ids.shape}")
    if len(set(ids.tolist())) != len(ids):
        raise bad("toss_id repeats a toss")
    lengths = np.diff(offsets)
    if offsets[0] != 0 or offsets[-1] != len(states) or np.any(lengths < GRAVITY_FRAMES):
        raise bad(
            f"offsets do not fit the states: they must rise from 0 to {len(states)} (the frames) "
            f"with at least {GRAVITY_FRAMES} frames per toss, got {offsets[0]}…{offsets[-1]}, "
            f"shortest toss {int(lengths.min())} frames"
        )
    length = np.linalg.norm(states[:, 3:7], axis=1)
    off = np.abs(length - 1.0) > UNIT_TOLERANCE
    if np.any(off):
        row = int(np.argmax(off))
        raise bad(f"states row {row}: the quaternion (columns 3–6) has length {length[row]:.6g}, not 1")
    return states, offsets, ids, float(a["dt"]), float(a["half_width_m"]), float(a["mass_kg"])


def length_scale(tosses, dt: float) -> float:
    """``GRAVITY / g_fit``: g_fit the median over tosses of a quadratic fit to the first frames' height."""
    t = np.arange(GRAVITY_FRAMES) * dt
    g = [-2.0 * np.polyfit(t, toss.pos[:GRAVITY_FRAMES, 2], 2)[0] for toss in tosses]
    g_fit = float(np.median(g))
    if not g_fit > 0:
        raise DoppelXError("tosses file: the tosses do not fall (no positive free-fall acceleration)")
    return GRAVITY / g_fit


# ---- rotations (quaternions (x, y, z, w)) -------------------------------------------------


def quat_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (..., 3, 3) of quaternions (..., 4) ``(x, y, z, w)``."""
    x, y, z, w = np.moveaxis(np.asarray(q, dtype=float), -1, 0)
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


def quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton products ``a ⊗ b`` of quaternions (..., 4)."""
    x1, y1, z1, w1 = np.moveaxis(np.asarray(a, dtype=float), -1, 0)
    x2, y2, z2, w2 = np.moveaxis(np.asarray(b, dtype=float), -1, 0)
    return np.stack(
        [
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        ],
        -1,
    )


def quat_conj(q: np.ndarray) -> np.ndarray:
    return np.asarray(q, dtype=float) * np.array([-1.0, -1.0, -1.0, 1.0])


def rotvec_quat(v: np.ndarray) -> np.ndarray:
    """Quaternions (..., 4) of rotation vectors (..., 3) (rad)."""
    v = np.asarray(v, dtype=float)
    angle = np.linalg.norm(v, axis=-1, keepdims=True)
    safe = np.where(angle > 1e-12, angle, 1.0)
    axis = np.where(angle > 1e-12, v / safe, 0.0)
    return np.concatenate([axis * np.sin(angle / 2), np.cos(angle / 2)], -1)


def quat_rotvec(q: np.ndarray) -> np.ndarray:
    """Rotation vectors (..., 3) (rad, angle ≤ π) of quaternions (..., 4)."""
    q = np.asarray(q, dtype=float)
    q = np.where(q[..., 3:4] < 0, -q, q)
    s = np.linalg.norm(q[..., :3], axis=-1, keepdims=True)
    angle = 2 * np.arctan2(s, q[..., 3:4])
    return np.where(s > 1e-12, q[..., :3] / np.where(s > 1e-12, s, 1.0) * angle, 2 * q[..., :3])


def angle_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation angle (rad) from orientation ``a`` to ``b`` (..., 4)."""
    d = np.abs(np.sum(np.asarray(a) * np.asarray(b), axis=-1))
    return 2 * np.arccos(np.clip(d, 0.0, 1.0))


def lowest_corner(pos: np.ndarray, quat: np.ndarray, half: float) -> np.ndarray:
    """Height (n,) m of the lowest corner of a cube of half edge ``half`` at poses (n, 3), (n, 4)."""
    rz = quat_matrix(quat)[:, 2, :]  # world z of each body axis
    return pos[:, 2] - half * np.sum(np.abs(rz), axis=1)


@dataclass(frozen=True)
class Release:
    """A fitted release state at the toss's first frame, and how well the arc fits.

    Attributes:
        position: (3,) m; quaternion: (4,) ``(x, y, z, w)``; velocity: (3,) m/s;
            spin: (3,) rad/s, world frame.
        frames: frames the fit took; pos_rms: its position residual (m); angle_rms: (rad).
    """

    position: np.ndarray
    quaternion: np.ndarray
    velocity: np.ndarray
    spin: np.ndarray
    frames: int
    pos_rms: float
    angle_rms: float

    def state(self) -> tuple:
        """``(position, quaternion, velocity, spin)`` as tuples of floats."""
        return tuple(
            tuple(float(x) for x in a) for a in (self.position, self.quaternion, self.velocity, self.spin)
        )


def release_state(toss: Toss, half: float, gravity: float = GRAVITY) -> Release:
    """The ballistic release state fitted to the toss's free-flight frames (at most :data:`FIT_FRAMES`)."""
    low = lowest_corner(toss.pos, toss.quat, half)
    n = 0
    while n < min(FIT_FRAMES, len(low)) and low[n] > FLIGHT_CLEARANCE:
        n += 1
    n = max(n, MIN_FIT_FRAMES)
    t = toss.t[:n]
    a = np.stack([np.ones(n), t], 1)
    target = toss.pos[:n].copy()
    target[:, 2] += 0.5 * gravity * t * t
    coef, *_ = np.linalg.lstsq(a, target, rcond=None)
    p0, v0 = coef[0], coef[1]
    arc = p0 + np.outer(t, v0)
    arc[:, 2] -= 0.5 * gravity * t * t
    pos_rms = float(np.sqrt(np.mean(np.sum((arc - toss.pos[:n]) ** 2, 1))))
    q = toss.quat[:n].copy()
    for k in range(1, n):  # one hemisphere
        if np.dot(q[k], q[k - 1]) < 0:
            q[k] = -q[k]
    steps = quat_rotvec(quat_mul(q[1:], quat_conj(q[:-1])))  # world-frame rotation per frame
    spin = steps.mean(0) / (t[1] - t[0])
    back = quat_mul(rotvec_quat(-np.outer(t, spin)), q)  # each frame carried back to t = 0
    back = np.where(np.sum(back * back[:1], 1, keepdims=True) < 0, -back, back)
    q0 = back.mean(0)
    q0 /= np.linalg.norm(q0)
    model = quat_mul(rotvec_quat(np.outer(t, spin)), np.broadcast_to(q0, (n, 4)))
    angle_rms = float(np.sqrt(np.mean(angle_between(model, q) ** 2)))
    return Release(p0, q0, v0, spin, n, pos_rms, angle_rms)
