"""A box die with rounded edges whose edges and corners are geoms of their own (MJCF text, no mujoco import).

The rounded box of half width ``h`` and edge radius ``r`` is built from standard geoms:
three boxes carry the faces, twelve cylinders the edges and eight spheres the corners, so
MuJoCo gives an edge or corner contact its own friction, ``solref`` and ``solimp`` (the
geom of higher ``priority`` sets a pair's parameters) while a face keeps the board's.

* The edges and corners sit :data:`INSET` inside the faces' planes (their centres at
  ``c = h - r - INSET``): a face lying flat touches through its box alone, not through four
  coincident edge contacts as well.
* Each face box is shrunk by ``2 r`` (not ``r``) in its two in-plane directions: the box's
  own edge is then drawn back from the rounded edge, and a cube tilted onto an edge by more
  than ``INSET / (r - INSET)`` (2° at 3 mm) touches through the edge geom only — with boxes
  shrunk by ``r`` the box's edge would touch first up to ``√(2 INSET / r)`` (15° at 3 mm).
* Cylinders, not capsules, for the edges: a capsule's ends would duplicate the corner
  spheres, and MuJoCo's soft contact stiffens with every coincident contact.

The geoms carry no mass: the body's mass and inertia are set explicitly (``<inertial>``).
PyBullet builds the same pieces (:func:`parts`) as links on fixed joints
(:meth:`doppelx.bench.cuboid.CuboidTable.build`).
"""

from __future__ import annotations

import itertools

#: How far the edge and corner geoms sit inside the faces' planes (m).
INSET = 0.0001
#: Smallest edge radius (m): the face boxes shrink by 2 r and the inset must stay well below r.
MIN_RADIUS = 0.0005
#: PyBullet only: the mass (kg) and principal inertia (kg m²) of each edge or corner link (a
#: compound shape has one friction, so the rims are links on fixed joints; the base keeps the rest).
LINK_MASS = 1e-4
LINK_INERTIA = 1e-9


def parts(half: float, radius: float):
    """The pieces of a cube of half width ``half`` with edges of ``radius`` (m), in the body frame:
    (face boxes' half extents (3 × (3,)), rims: (kind, centre (3,), axis or None, length or None)
    for the twelve ``cylinder`` s (along ``axis``, full ``length``) and the eight ``sphere`` s)."""
    if not MIN_RADIUS <= radius < half / 2:
        raise ValueError(f"edge radius must lie in [{MIN_RADIUS}, {half / 2}) m, got {radius}")
    c = half - radius - INSET
    inner = half - 2 * radius
    boxes = [tuple(half if a == axis else inner for a in range(3)) for axis in range(3)]
    rims: list[tuple[str, tuple[float, float, float], int | None, float | None]] = []
    for axis in range(3):  # edges along ``axis`` at (±c, ±c) in the other two coordinates
        others = [a for a in range(3) if a != axis]
        for sa, sb in itertools.product((1, -1), repeat=2):
            centre = [0.0, 0.0, 0.0]
            centre[others[0]], centre[others[1]] = sa * c, sb * c
            rims.append(("cylinder", (centre[0], centre[1], centre[2]), axis, 2 * c))
    for sx, sy, sz in itertools.product((1, -1), repeat=3):
        rims.append(("sphere", (sx * c, sy * c, sz * c), None, None))
    return boxes, rims


def geoms(half: float, radius: float, face_attributes: str, edge_attributes: str) -> str:
    """The MJCF ``<geom>`` elements of a cube of half width ``half`` with edges of ``radius`` (m);
    faces carry ``face_attributes``, edges and corners ``edge_attributes`` (contact attributes)."""
    boxes, rims = parts(half, radius)
    out = [
        f'<geom name="face{a}" type="box" size="{_v(size)}" {face_attributes}/>'
        for a, size in enumerate(boxes)
    ]
    for k, (kind, centre, axis, length) in enumerate(rims):
        if kind == "sphere":
            where = f'pos="{_v(centre)}"'
            name = f"corner{k - 12}"
        else:
            a, b = list(centre), list(centre)
            a[axis], b[axis] = -length / 2, length / 2
            where = f'fromto="{_v(a)} {_v(b)}"'
            name = f"edge{k}"
        out.append(f'<geom name="{name}" type="{kind}" size="{radius:.9g}" {where} {edge_attributes}/>')
    return "".join(out)


def _v(values) -> str:
    return " ".join(f"{x:.9g}" for x in values)
