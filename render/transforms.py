"""4×4 matrix and quaternion helpers (numpy): projections, look-at, poses, slerp.

Matrices act on column vectors (``M @ [x, y, z, 1]``) and are stored row-major as numpy
holds them (:meth:`render.gl_program.Program.set` transposes for GLSL). Quaternions are
``(x, y, z, w)`` as in :class:`rules.doppelx.outcome.Pose`.
"""

from __future__ import annotations

import math

import numpy as np


def perspective(fovy: float, aspect: float, near: float, far: float) -> np.ndarray:
    """OpenGL perspective projection; ``fovy`` in rad."""
    f = 1.0 / math.tan(fovy / 2)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2 * far * near / (near - far)
    m[3, 2] = -1.0
    return m


def ortho(left: float, right: float, bottom: float, top: float, near: float, far: float) -> np.ndarray:
    """OpenGL orthographic projection."""
    m = np.eye(4)
    m[0, 0] = 2 / (right - left)
    m[1, 1] = 2 / (top - bottom)
    m[2, 2] = -2 / (far - near)
    m[0, 3] = -(right + left) / (right - left)
    m[1, 3] = -(top + bottom) / (top - bottom)
    m[2, 3] = -(far + near) / (far - near)
    return m


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> np.ndarray:
    """View matrix of a camera at ``eye`` looking at ``target`` (world → eye space)."""
    eye, target, up = (np.asarray(v, dtype=float) for v in (eye, target, up))
    f = target - eye
    f /= np.linalg.norm(f)
    s = np.cross(f, up)
    if np.linalg.norm(s) < 1e-9:  # looking along ``up``: pick any side vector
        s = np.cross(f, (0.0, 1.0, 0.0) if abs(f[1]) < 0.9 else (1.0, 0.0, 0.0))
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def quat_matrix(q) -> np.ndarray:
    """3×3 rotation matrix of the quaternion ``(x, y, z, w)`` (normalised first)."""
    x, y, z, w = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def pose_matrix(position, quaternion) -> np.ndarray:
    """4×4 model matrix of a pose: rotate by ``quaternion`` then move to ``position`` (m)."""
    m = np.eye(4)
    m[:3, :3] = quat_matrix(quaternion)
    m[:3, 3] = position
    return m


def translation(x: float, y: float, z: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def rotation_z(angle: float) -> np.ndarray:
    """4×4 rotation by ``angle`` rad about z."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.eye(4)
    m[:2, :2] = [[c, -s], [s, c]]
    return m


def slerp(q0, q1, t: float) -> tuple[float, float, float, float]:
    """Spherical interpolation between unit quaternions (shortest arc), ``t`` in [0, 1]."""
    a = np.asarray(q0, dtype=float)
    b = np.asarray(q1, dtype=float)
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    d = float(np.dot(a, b))
    if d < 0.0:
        b, d = -b, -d
    if d > 0.9995:
        q = a + t * (b - a)
    else:
        theta = math.acos(d)
        q = (math.sin((1 - t) * theta) * a + math.sin(t * theta) * b) / math.sin(theta)
    q /= np.linalg.norm(q)
    return tuple(float(v) for v in q)  # type: ignore[return-value]


def lerp_angle(a: float, b: float, t: float) -> float:
    """Interpolate two angles (rad) along the shorter way round."""
    d = (b - a + math.pi) % (2 * math.pi) - math.pi
    return a + t * d
