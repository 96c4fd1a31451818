"""The box bottom around the playfield, the table it stands on and the room's floor.

Parts are separate meshes because they are drawn in different materials: the inner walls
(from the box floor up to the rim), the rim, the printed outside, the box floor under the
insert (the cavity's floor), the wooden table (its top and edge as large as the physics'
table, :data:`rules.doppelx.box.TABLE_HALF`) and the room's floor the physics has
:data:`rules.doppelx.box.GROUND_DROP` below it, where a die that falls off the table rests.
"""

from __future__ import annotations

import numpy as np
from shapely.geometry import box as rect

from render.mesh import Mesh, flat_mesh, merge, ring_wall
from rules.doppelx.box import GROUND_DROP, TABLE_HALF, TABLE_THICKNESS, BoxSpec

#: Thickness of the box's bottom board under the cavity (m).
BOTTOM = 0.002


def table_z(box: BoxSpec) -> float:
    """Height of the table top in the board frame (m)."""
    return box.floor_z - BOTTOM


def outer_half(box: BoxSpec) -> tuple[float, float]:
    """Half the box's outside size (x, y) in m."""
    return box.inner_size[0] / 2 + box.wall_thickness, box.inner_size[1] / 2 + box.wall_thickness


def inner_walls(box: BoxSpec, z0: float, z1: float) -> Mesh:
    """The four inner wall faces from height ``z0`` to ``z1`` (m), facing into the box.

    The scene draws the part above the playfield (0 → rim) and the part in the cavity
    (floor → underside of the insert) separately, so the hidden part costs nothing.
    """
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    ring = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)])
    return ring_wall(ring, z0, z1, outward=False)


def rim(box: BoxSpec) -> Mesh:
    """The top edge of the walls (a rectangular ring at the rim height)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    ox, oy = outer_half(box)
    return flat_mesh(rect(-ox, -oy, ox, oy).difference(rect(-hx, -hy, hx, hy)), box.rim_z)


def outer_walls(box: BoxSpec) -> Mesh:
    """The printed outside of the walls; each side maps the whole print (u 0 → 1 left to right)."""
    ox, oy = outer_half(box)
    z0, z1 = table_z(box), box.rim_z
    corners = [(-ox, -oy), (ox, -oy), (ox, oy), (-ox, oy)]
    parts = []
    for i in range(4):
        a, b = np.array(corners[i]), np.array(corners[(i + 1) % 4])
        d = b - a
        n = np.array([d[1], -d[0], 0.0]) / np.linalg.norm(d)
        pos = [(*a, z0), (*b, z0), (*b, z1), (*a, z1)]
        parts.append(Mesh.build(pos, [n], [(0, 0), (1, 0), (1, 1), (0, 1)], [0, 1, 2, 0, 2, 3]))
    return merge(parts)


def box_floor(box: BoxSpec) -> Mesh:
    """The box floor inside (the bottom of the cavity under the insert)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    return flat_mesh(rect(-hx, -hy, hx, hy), box.floor_z)


def table(box: BoxSpec, half: float = TABLE_HALF, tile: float = 0.9, cells: int = 32) -> Mesh:
    """The table: a top of ``2 * half`` m square under the box (the physics' table, so a die
    rests on wood exactly where it is drawn) and its edge, :data:`rules.doppelx.box.TABLE_THICKNESS`
    deep; the wood print repeats every ``tile`` m.

    The top is a grid of ``cells`` × ``cells`` quads, so fog and light computed per vertex vary over it.
    """
    z = table_z(box)
    top = _grid(half, cells, z, tile)
    ring = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    edge = ring_wall(ring, z - TABLE_THICKNESS, z, outward=True)
    edge = Mesh(
        edge.positions,
        edge.normals,
        (edge.uvs * [1.0 / tile, TABLE_THICKNESS / tile]).astype(np.float32),
        edge.faces,
        edge.indices,
    )
    return merge([top, edge])


def room_floor(box: BoxSpec, half: float = 8.0, cells: int = 32) -> Mesh:
    """The room's floor, :data:`rules.doppelx.box.GROUND_DROP` below the table top, ``2 * half``
    m square (the physics' floor is wider; beyond this the fog has hidden it)."""
    return _grid(half, cells, table_z(box) - GROUND_DROP, 1.0)


def _grid(half: float, cells: int, z: float, tile: float) -> Mesh:
    """A square of ``2 * half`` m at height ``z`` facing up, ``cells`` × ``cells`` quads, uv = xy / ``tile``."""
    c = np.linspace(-half, half, cells + 1)
    x, y = np.meshgrid(c, c, indexing="xy")
    pos = np.c_[x.reshape(-1), y.reshape(-1), np.full(x.size, z)]
    n = cells + 1
    i, j = np.meshgrid(np.arange(cells), np.arange(cells), indexing="xy")
    a = (j * n + i).reshape(-1)
    idx = np.c_[a, a + 1, a + n + 1, a, a + n + 1, a + n].reshape(-1, 3)
    return Mesh.build(pos, [(0.0, 0.0, 1.0)], pos[:, :2] / tile, idx)
