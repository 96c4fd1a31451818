"""The table camera: an orbit camera (orbit, zoom, pan) and the straight-down referee view.

Yaw 0 looks from the south (−y) towards the north; yaw π/2 from the east. Pitch is the
elevation above the horizontal (rad). The referee view is orthographic, north up, fitted to
the box. Screen points are window pixels with the origin at the bottom left (as in GL).
"""

from __future__ import annotations

import math

import numpy as np

from render.transforms import look_at, ortho, perspective

#: Yaw that looks over a thrower's shoulder from each wall.
WALL_YAW = {"S": 0.0, "E": math.pi / 2, "N": math.pi, "W": -math.pi / 2}


class Camera:
    """Orbit camera around ``target`` with a switchable straight-down referee view.

    Args:
        extent: half the width of what the referee view must show (m), e.g. the box's
            outer half size plus a margin.
        floor_z: lowest z the camera may look at (for near/far planes).
    """

    PITCH_RANGE = (math.radians(8), math.radians(89))
    DISTANCE_RANGE = (0.18, 2.5)

    def __init__(self, extent: float = 0.16, floor_z: float = -0.03):
        self.extent = extent
        self.floor_z = floor_z
        self.fov = math.radians(40)
        #: Straight-down orthographic view (the window's referee view) instead of the orbit.
        self.referee = False
        #: The picture moved sideways and scaled on the screen: ``(dx, k)`` in normalised device
        #: coordinates (``dx`` = 2 moves it a window's width; ``k`` < 1 shrinks it about the
        #: window's centre) — the window moves the table clear of the throw log with it.
        self.screen_shift: tuple[float, float] = (0.0, 1.0)
        self.reset()

    def reset(self) -> None:
        """The default view: from the south, a bit above the rim, the whole box in sight;
        the referee view centred on the box."""
        self.target = np.array([0.0, 0.012, -0.005])
        self.yaw = 0.0
        self.pitch = math.radians(54)
        self.distance = 0.56
        self.goal_yaw: float | None = None
        self.referee_centre = np.zeros(2)

    # --- control ----------------------------------------------------------------------------
    def orbit(self, d_yaw: float, d_pitch: float) -> None:
        """Turn around the target by ``d_yaw`` and tilt by ``d_pitch`` (rad)."""
        self.goal_yaw = None
        self.yaw = (self.yaw + d_yaw + math.pi) % (2 * math.pi) - math.pi
        self.pitch = float(np.clip(self.pitch + d_pitch, *self.PITCH_RANGE))

    def zoom(self, factor: float) -> None:
        """Move closer (``factor`` < 1) or further away; in the referee view, scale the area."""
        if self.referee:
            self.extent = float(np.clip(self.extent * factor, 0.04, 0.6))
        else:
            self.distance = float(np.clip(self.distance * factor, *self.DISTANCE_RANGE))

    def pan(self, dx: float, dy: float, height: int) -> None:
        """Shift the view by ``(dx, dy)`` window pixels (drag the table along)."""
        if self.referee:
            scale = 2 * self.extent / max(height, 1)
            self.referee_centre = np.clip(self.referee_centre - np.array([dx, dy]) * scale, -0.4, 0.4)
            return
        scale = 2 * self.distance * math.tan(self.fov / 2) / max(height, 1)
        right = np.array([math.cos(self.yaw), math.sin(self.yaw), 0.0])
        forward = np.array([-math.sin(self.yaw), math.cos(self.yaw), 0.0])
        self.target -= (right * dx + forward * dy) * scale
        self.target[:2] = np.clip(self.target[:2], -0.4, 0.4)

    def face_wall(self, wall: str) -> None:
        """Start turning to look over the shoulder of a thrower at ``wall``."""
        self.goal_yaw = WALL_YAW[wall]

    def update(self, dt: float) -> None:
        """Advance the turn started by :meth:`face_wall` by ``dt`` seconds."""
        if self.goal_yaw is None:
            return
        d = (self.goal_yaw - self.yaw + math.pi) % (2 * math.pi) - math.pi
        step = d * min(1.0, dt * 6.0)
        if abs(d) < 1e-3:
            self.yaw, self.goal_yaw = self.goal_yaw, None
        else:
            self.yaw += step

    # --- matrices ---------------------------------------------------------------------------
    @property
    def eye(self) -> np.ndarray:
        """Camera position (3,) m (high above the target in the referee view)."""
        if self.referee:
            return np.array([self.referee_centre[0], self.referee_centre[1], 2.0])
        cp = math.cos(self.pitch)
        offset = np.array([math.sin(self.yaw) * cp, -math.cos(self.yaw) * cp, math.sin(self.pitch)])
        return self.target + offset * self.distance

    def view(self) -> np.ndarray:
        """World → eye matrix (4×4)."""
        if self.referee:
            eye = self.eye
            return look_at(eye, (eye[0], eye[1], 0.0), up=(0.0, 1.0, 0.0))
        return look_at(self.eye, self.target)

    def projection(self, width: int, height: int) -> np.ndarray:
        """Eye → clip matrix (4×4) for a viewport of ``width`` × ``height`` px."""
        aspect = max(width, 1) / max(height, 1)
        if self.referee:
            e = self.extent
            w, h = (e * aspect, e) if aspect >= 1 else (e, e / aspect)
            proj = ortho(-w, w, -h, h, 0.5, 3.0)
        else:
            near = max(0.01, self.distance * 0.05)
            proj = perspective(self.fov, aspect, near, self.distance + 3.0)
        dx, k = self.screen_shift
        if (dx, k) == (0.0, 1.0):
            return proj
        shift = np.array([[k, 0, 0, dx], [0, k, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
        return shift @ proj

    def view_projection(self, width: int, height: int) -> np.ndarray:
        """World → clip matrix (4×4)."""
        return self.projection(width, height) @ self.view()

    def project(self, point, width: int, height: int) -> tuple[float, float, float]:
        """Window pixel ``(x, y)`` of a world point and its depth in [0, 1] (bottom-left origin)."""
        p = self.view_projection(width, height) @ np.array([*point, 1.0])
        ndc = p[:3] / p[3]
        return ((ndc[0] + 1) / 2 * width, (ndc[1] + 1) / 2 * height, (ndc[2] + 1) / 2)

    def ray(self, x: float, y: float, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
        """World ray ``(origin, unit direction)`` through window pixel ``(x, y)``."""
        inv = np.linalg.inv(self.view_projection(width, height))
        ndc = np.array([2 * x / width - 1, 2 * y / height - 1])
        a = inv @ np.array([ndc[0], ndc[1], -1.0, 1.0])
        b = inv @ np.array([ndc[0], ndc[1], 1.0, 1.0])
        a, b = a[:3] / a[3], b[:3] / b[3]
        d = b - a
        return a, d / np.linalg.norm(d)

    def on_plane(self, x: float, y: float, width: int, height: int, z: float) -> np.ndarray | None:
        """Where the ray through pixel ``(x, y)`` meets the plane at height ``z`` (3,), or ``None``."""
        o, d = self.ray(x, y, width, height)
        if abs(d[2]) < 1e-6:
            return None
        t = (z - o[2]) / d[2]
        if t <= 0:
            return None
        return o + t * d
