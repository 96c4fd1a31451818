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
"""

from __future__ import annotations

import itertools

#: How far the edge and corner geoms sit inside the faces' planes (m).
INSET = 0.0001
#: Smallest edge radius (m): the face boxes shrink by 2 r and the inset must stay well below r.
MIN_RADIUS = 0.0005


def geoms(half: float, radius: float, face_attributes: str, edge_attributes: str) -> str:
    """The MJCF ``<geom>`` elements of a cube of half width ``half`` with edges of ``radius`` (m);
    faces carry ``face_attributes``, edges and corners ``edge_attributes`` (contact attributes)."""
    if not MIN_RADIUS <= radius < half / 2:
        raise ValueError(f"edge radius must lie in [{MIN_RADIUS}, {half / 2}) m, got {radius}")
    c = half - radius - INSET
    inner = half - 2 * radius
    out = []
    for axis in range(3):
        size = [inner, inner, inner]
        size[axis] = half
        out.append(f'<geom name="face{axis}" type="box" size="{_v(size)}" {face_attributes}/>')
    for axis in range(3):  # edges along ``axis`` at (±c, ±c) in the other two coordinates
        others = [a for a in range(3) if a != axis]
        for sa, sb in itertools.product((1, -1), repeat=2):
            a, b = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
            for v in (a, b):
                v[others[0]], v[others[1]] = sa * c, sb * c
            a[axis], b[axis] = -c, c
            out.append(
                f'<geom name="edge{axis}{sa:+d}{sb:+d}" type="cylinder" size="{radius:.9g}" '
                f'fromto="{_v(a)} {_v(b)}" {edge_attributes}/>'
            )
    for sx, sy, sz in itertools.product((1, -1), repeat=3):
        out.append(
            f'<geom name="corner{sx:+d}{sy:+d}{sz:+d}" type="sphere" size="{radius:.9g}" '
            f'pos="{_v((sx * c, sy * c, sz * c))}" {edge_attributes}/>'
        )
    return "".join(out)


def _v(values) -> str:
    return " ".join(f"{x:.9g}" for x in values)
