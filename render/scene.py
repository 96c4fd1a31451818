"""Draws one frame of the table: the lit box and playfield, dice, shadows, markers.

A :class:`Scene` owns the GPU resources of one :class:`~render.snapshot.TableSpec`
(meshes, textures, programs); :meth:`Scene.draw` draws a snapshot with a camera. Opaque
parts are drawn roughly front to back (dice, playfield, walls, table, then the cavity) so
a software renderer's early depth test skips hidden pixels; with ``keep_still`` the parts
that never move come from a :class:`~render.backdrop.Backdrop` drawn once per view.
Shadows: the walls' and cards' are baked into the print, moving parts cast planar shadows
(stencilled so that overlaps darken once) and every die gets a soft contact shadow.

The wall nearest to the camera (:func:`near_wall`) is drawn last and faded to
:data:`NEAR_WALL_ALPHA`, so the front of the playfield and any die lying against that wall
stay in view — and to :data:`NEAR_WALL_HIDING_ALPHA`, logo and all, while a die lies in the
strip of playfield the wall hides; seen from a corner, the second wall facing the camera
(:func:`facing_walls`) fades to that too while it hides a die; in the referee view and from
high above every wall is opaque.
The fields a bet card covers are drawn on the card's top (:func:`render.referee.fields_under_cards`).
While a die lies under a bet card, or partly under one — and always in the referee view, whose
point is the print — the cards are drawn see-through
(:data:`CARD_SEE_THROUGH_ALPHA`; fainter over the die, :data:`CARD_OVER_DIE_ALPHA`), so are the dice
bet on that card that hide it in the view (:data:`BET_DIE_SEE_THROUGH_ALPHA`),
and that die is drawn again as an outline in its colour where something still hides it (:data:`GHOST_ALPHA`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from render import board_mesh, box_mesh, parts_mesh
from render.backdrop import Backdrop, bound_framebuffer
from render.backend import pyglet
from render.board_texture import board_image
from render.camera import Camera
from render.card_places import bet_die_poses, card_at, card_near
from render.card_texture import card_atlas
from render.decor_texture import box_side_image, wood_image
from render.dice_texture import TILES, dice_atlas
from render.die_mesh import rounded_cube
from render.gl_program import Program
from render.gpu import GpuMesh, delete_texture, texture
from render.lighting import BACKGROUND, LIGHT_DIR, baked_light, planar_shadow_matrix
from render.mesh import Mesh, merge
from render.referee import RefereeLabel, fields_under_cards, outlines
from render.shaders import MODES, lit_source
from render.snapshot import Snapshot, TableSpec
from render.transforms import pose_matrix, rotation_z, translation
from rules.doppelx.outcome import Pose
from rules.doppelx.style import hex_to_rgb, load_style

gl = pyglet.gl

INNER_WALL = "#e9e3d3"
RIM = "#f4f1e8"
CAVITY_FLOOR = "#4a4640"
#: The room's floor under the table (a die knocked off the table rests there; its inset showed
#: it on the background's black, fifteenth playtest): a dark stone grey.
ROOM_FLOOR = "#5b5853"
PIN = "#3a3a3c"
WHITE = (1.0, 1.0, 1.0)
#: Opacity of planar shadows on the playfield and on the table.
SHADOW_ALPHA = 0.42
#: Opacity of the wall nearest to the camera (its rim and printed outside).
NEAR_WALL_ALPHA = 0.3
#: Opacity of the near wall while a die lies in the strip of playfield it hides (its logo too).
NEAR_WALL_HIDING_ALPHA = 0.1
#: Opacity of the bet cards while a die lies under one, or partly under one (it shows through).
CARD_SEE_THROUGH_ALPHA = 0.3
#: ... and where a die under the card is seen through it: its print over the die's face stays faint.
CARD_OVER_DIE_ALPHA = 0.12
#: Opacity of the spinner's blade in the referee view, which shows the print: the blade covers
#: side III's 3x hub, and the eleventh playtest read "1 on 3x" for a die beside it with no 3x in sight.
BLADE_SEE_THROUGH_ALPHA = 0.35
#: A die under a bet card drawn through whatever hides it (the dice on the card): its outline
#: at this opacity (what lies outside the die shrunk to :data:`GHOST_INNER`), its inside at
#: :data:`GHOST_FILL` of it — the die on top keeps its own colour.
GHOST_ALPHA, GHOST_INNER, GHOST_FILL = 0.95, 0.78, 0.3
#: Opacity of the dice bet on a card while a die lies under that card (it shows through them:
#: the card alone see-through left it hidden by them, an outline only — second playtest).
BET_DIE_SEE_THROUGH_ALPHA = 0.3
#: A bet die fades when, in the view, it covers at least this share of the box a die under its
#: card covers on the screen (the boxes of cubes seen at an angle overlap a little when the dice
#: only touch).
BET_DIE_HIDES = 0.15
#: The stencil bit the outline pass uses (the planar shadows count in the low bits).
GHOST_BIT = 0x80
#: The stencil bit the opaque dice set where they are seen: the thrower's ring and arrow, drawn
#: at the hand in front of the near wall, fade over them (fifth playtest: they hid a die there).
DIE_BIT = 0x40
#: The ring's and arrow's opacity over a die, as a share of their own.
MARKER_OVER_DIE = 0.3
#: Seen from lower than this pitch the hand's ring tilts towards the camera by the difference.
RING_FACING_PITCH = math.radians(35)
#: Above this camera pitch every wall is drawn opaque (nothing of the playfield hides).
FADE_BELOW_PITCH = math.radians(75)
_WALLS = ("S", "E", "N", "W")


def _opaque_state() -> None:
    """The GL state the opaque parts are drawn in: depth-tested (less or equal), no culling, no blending."""
    gl.glEnable(gl.GL_DEPTH_TEST)
    gl.glDepthFunc(gl.GL_LEQUAL)
    gl.glDisable(gl.GL_CULL_FACE)
    gl.glDisable(gl.GL_BLEND)


def wall_of(x: float, y: float, hx: float, hy: float) -> str:
    """The wall (S, E, N, W) a point (x, y) of the box's outline belongs to."""
    scores = {"S": -y / hy, "E": x / hx, "N": y / hy, "W": -x / hx}
    return max(scores, key=scores.__getitem__)


def split_by_wall(mesh: Mesh, hx: float, hy: float) -> dict[str, Mesh]:
    """The triangles of a wall mesh grouped by the wall their centroid belongs to."""
    cent = mesh.positions[mesh.indices].mean(axis=1)
    walls = np.array([wall_of(float(c[0]), float(c[1]), hx, hy) for c in cent])
    return {
        s: Mesh(mesh.positions, mesh.normals, mesh.uvs, mesh.faces, mesh.indices[walls == s]) for s in _WALLS
    }


def near_wall(camera: Camera, hx: float, hy: float) -> str | None:
    """The wall between the camera and the playfield, or ``None`` (referee view, or looking down steeply)."""
    if camera.referee or camera.pitch >= FADE_BELOW_PITCH:
        return None
    eye = camera.eye
    return wall_of(float(eye[0]), float(eye[1]), hx, hy)


def facing_walls(camera: Camera, hx: float, hy: float) -> tuple[str, ...]:
    """The walls whose outside faces the camera — the eye beyond their plane — other than
    :func:`near_wall` (from a corner, low down, the second wall hides the dice along it as
    the near one does); none in the referee view or looking down steeply."""
    near = near_wall(camera, hx, hy)
    if near is None:
        return ()
    x, y = float(camera.eye[0]), float(camera.eye[1])
    beyond = {"S": y < -hy, "E": x > hx, "N": y > hy, "W": x < -hx}
    return tuple(w for w in _WALLS if beyond[w] and w != near)


def _area(b: tuple[float, float, float, float]) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The area two boxes ``(x0, y0, x1, y1)`` share."""
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


@dataclass(frozen=True)
class Marker:
    """The thrower's hand: release point (m), colour, and the flick arrow while aiming.

    Attributes:
        position: release point (x, y, z) m.
        colour: ``"#rrggbb"``.
        direction: unit (dx, dy) of the throw so far, or ``None``.
        length: arrow length (m).
    """

    position: tuple[float, float, float]
    colour: str
    direction: tuple[float, float] | None = None
    length: float = 0.0


@dataclass
class _Part:
    mesh: GpuMesh
    mode: str
    colour: tuple[float, float, float]
    tex: int = 0
    baked: bool = False
    ao: float = 0.0


def playfield_texture(table: TableSpec, size: int = 2048) -> np.ndarray:
    """The print with the baked direct light in alpha (0 in the holes), rows south → north;
    ``size`` px along the longer side."""
    box = table.box
    rgba = board_image(table.board, box, size).copy()
    rows, cols = rgba.shape[:2]
    cards = [
        np.asarray(parts_mesh.card_polygon(box, c).exterior.coords)[:3]
        for c in box.corner_order[: len(table.cards)]
    ]
    lit = np.maximum(baked_light(box, cards, cols, rows), 0.02)
    rgba[..., 3] = np.round(rgba[..., 3].astype(np.float32) * lit).astype(np.uint8)
    return np.flipud(rgba)


class Scene:
    """GPU resources and drawing for one table (create with the window's context current).

    Args:
        table: what to build.
        anisotropy: anisotropic filtering of the playfield print (1 = off, for software
            renderers, where it costs more than the rest of the frame).
        print_size: pixels of the playfield print along its longer side (a software renderer
            gets 1024: 4× faster to make at launch, and its scene is at most 1280 × 800 px).
    """

    def __init__(self, table: TableSpec, anisotropy: float = 8.0, print_size: int = 2048):
        self.table = table
        box, board = table.box, table.board
        style = load_style()
        self.programs = {m: Program(*lit_source(m)) for m in MODES}
        tex = self.textures = {
            "board": texture(playfield_texture(table, print_size), anisotropy=anisotropy),
            "dice": texture(dice_atlas()),
            "cards": texture(card_atlas(table.cards), anisotropy=min(anisotropy, 4.0)),
            "wood": texture(wood_image(), repeat=True, trilinear=False),
            "print": texture(box_side_image(), trilinear=False),
        }
        rgb = hex_to_rgb
        t = box.insert_thickness
        self.blade: GpuMesh | None = None
        self.pin: GpuMesh | None = None
        front: list[_Part] = []
        if table.has_spinner:
            sp = board.spinner
            assert sp is not None  # has_spinner: the board has a mount
            self.blade = GpuMesh(parts_mesh.spinner_blade(sp))
            self.pin = GpuMesh(parts_mesh.spinner_pin(sp))
            front.append(_Part(self.pin, "MODE_COLOUR", rgb(PIN)))
        self.cards: GpuMesh | None = None
        cards = [
            parts_mesh.card(box, corner, i, len(table.cards))
            for i, corner in enumerate(box.corner_order[: len(table.cards)])
        ]
        #: The bet cards' part (drawn see-through while a die lies under a card).
        self.cards_part: _Part | None = None
        self.under_card = False
        #: Owners of the dice drawn see-through in the last frame (under a card, hidden by it
        #: or by the dice lying on it).
        self.ghosts: tuple[str, ...] = ()
        #: The dice bet on a card with a die under it, drawn see-through in the last frame.
        self.faded_bets: frozenset[str] = frozenset()
        #: The fields under the cards drawn on the cards' tops: fills, then lines (mesh, RGBA).
        self.card_fields: tuple[list[tuple[GpuMesh, tuple]], list[tuple[GpuMesh, tuple]]] = ([], [])
        if cards:
            self.cards = GpuMesh(merge(cards))
            self.cards_part = _Part(self.cards, "MODE_TEXTURE", WHITE, tex["cards"])
            front.append(self.cards_part)
            fills, lines = fields_under_cards(table)
            self.card_fields = (
                [(GpuMesh(o.mesh), o.rgba) for o in fills if len(o.mesh.positions)],
                [(GpuMesh(o.mesh), o.rgba) for o in lines if len(o.mesh.positions)],
            )
        self.obstacles: GpuMesh | None = None
        obstacles = board_mesh.obstacles(board)
        if obstacles is not None:
            self.obstacles = GpuMesh(obstacles)
            front.append(_Part(self.obstacles, "MODE_COLOUR", rgb(style.board["obstacle"])))
        rim_mesh, outer_mesh = box_mesh.rim(box), box_mesh.outer_walls(box)
        self.rim = GpuMesh(rim_mesh)  # whole, for the shadows
        self.outer = GpuMesh(outer_mesh)
        hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
        rims, outers = split_by_wall(rim_mesh, hx, hy), split_by_wall(outer_mesh, hx, hy)
        inners = split_by_wall(box_mesh.inner_walls(box, 0.0, box.rim_z), hx, hy)
        #: Per wall: its rim, inner face and printed outside (the near one is faded).
        self.walls: dict[str, list[_Part]] = {
            wall: [
                _Part(GpuMesh(rims[wall]), "MODE_COLOUR", rgb(RIM)),
                _Part(GpuMesh(inners[wall]), "MODE_COLOUR", rgb(INNER_WALL), ao=0.45),
                _Part(GpuMesh(outers[wall]), "MODE_TEXTURE", WHITE, tex["print"]),
            ]
            for wall in _WALLS
        }
        #: The wall faded in the last frame drawn (``None``: all opaque).
        self.near: str | None = None
        #: The near wall's opacity in the last frame drawn.
        self.near_alpha = NEAR_WALL_ALPHA
        #: Other walls facing the camera drawn see-through in the last frame (:func:`facing_walls`).
        self.side_walls: tuple[str, ...] = ()
        self.parts: list[_Part] = front + [
            _Part(
                GpuMesh(board_mesh.insert_top(board, box)), "MODE_TEXTURE", WHITE, tex["board"], baked=True
            ),
        ]
        self.back_parts: list[_Part] = [
            _Part(GpuMesh(box_mesh.table(box)), "MODE_TEXTURE", WHITE, tex["wood"]),
            _Part(GpuMesh(box_mesh.room_floor(box)), "MODE_COLOUR", rgb(ROOM_FLOOR)),
            # the cavity, seen only through the holes
            _Part(GpuMesh(board_mesh.insert_sides(board, box)), "MODE_COLOUR", rgb(style.board["hole_rim"])),
            _Part(GpuMesh(box_mesh.inner_walls(box, box.floor_z, -t)), "MODE_COLOUR", rgb(INNER_WALL)),
            _Part(GpuMesh(box_mesh.box_floor(box)), "MODE_COLOUR", rgb(CAVITY_FLOOR)),
        ]
        self.spinner_colour = rgb(style.board["spinner"])
        die = next(iter(table.dice.dice.values()))
        self.die = GpuMesh(rounded_cube(die.size, die.edge_radius))
        self.quad = GpuMesh(parts_mesh.unit_quad())
        self.ring = GpuMesh(parts_mesh.ring(0.006, 0.009))
        self.spot = GpuMesh(parts_mesh.disc(0.012))
        self.arrow = GpuMesh(parts_mesh.arrow(1.0, 1.0, 0.3))
        self.table_shadow = planar_shadow_matrix(box_mesh.table_z(box) + 0.0004)
        self.board_shadow = planar_shadow_matrix(0.0003)
        self._overlay_key: object = None
        self._overlay: list[tuple[GpuMesh, tuple]] = []
        self._overlay_labels: list[RefereeLabel] = []
        #: Labels of the last referee frame drawn (empty in the table view).
        self.referee_labels: list[RefereeLabel] = []
        self._frame: dict = {}
        self._ready: set[str] = set()
        #: The still parts of the last view, copied under each frame drawn with ``keep_still``.
        self.backdrop: Backdrop | None = None

    # --- per frame -------------------------------------------------------------------------
    def draw(
        self,
        snap: Snapshot,
        camera: Camera,
        width: int,
        height: int,
        *,
        referee: bool = False,
        marker: Marker | None = None,
        origin: tuple[int, int] = (0, 0),
        keep_still: bool = False,
    ) -> None:
        """Draw ``snap`` into the current framebuffer (``width`` × ``height`` px, from pixel
        ``origin``: a viewport other than the whole framebuffer clears only its own pixels).

        ``keep_still``: copy the parts that do not move from a :class:`~render.backdrop.Backdrop`
        drawn once per view (a software renderer's saving while dice roll under a still camera;
        the picture is the same pixel for pixel); only for a whole framebuffer (``origin`` 0, 0)
        whose depth and stencil the driver can blit into."""
        dice = self.dice_poses(snap)
        blade_m = None
        if self.blade is not None:
            spinner = self.table.board.spinner
            assert spinner is not None  # a blade is made only for a board with a spinner
            cx, cy = spinner.center
            blade_m = translation(cx, cy, 0.0) @ rotation_z(snap.spinner_angle)
        self._frame = {
            "u_view_proj": camera.view_projection(width, height),
            "u_light_dir": LIGHT_DIR,
            "u_eye": camera.eye,
            "u_cavity_z": -self.table.box.insert_thickness,
            "u_floor_z": self.table.box.floor_z,
            "u_inner_half": (self.table.box.inner_size[0] / 2, self.table.box.inner_size[1] / 2),
            "u_fog": BACKGROUND,
            "u_referee": 1 if referee else 0,
            "u_tex": 0,
            "u_baked": 0,
            "u_ao": 0.0,
            "u_radial": 0,
            "u_board_half": (0.0, 0.0),
            "u_model": np.eye(4),
        }
        self._ready = set()
        gl.glActiveTexture(gl.GL_TEXTURE0)
        box = self.table.box
        hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
        near = None if referee else near_wall(camera, hx, hy)
        self.near = near
        #: Seen from a corner, a second wall facing the camera that hides a die fades as the
        #: near one does while it hides one (sixteenth playtest: orbited down to the table,
        #: labels pointed at dice behind the opaque logo wall).
        self.side_walls = (
            ()
            if referee
            else tuple(
                w for w in facing_walls(camera, hx, hy) if self._die_behind_wall(dice, w, camera.pitch)
            )
        )
        see_through = tuple(w for w in (near, *self.side_walls) if w is not None)
        #: A die lies under a bet card (seen from above), or the referee view shows the print:
        #: the cards are drawn see-through last.
        self.under_card = self.cards_part is not None and (referee or self._die_under_a_card(dice))
        still_copied = False
        if keep_still and origin == (0, 0):
            look = self._frame["u_view_proj"].tobytes(), tuple(camera.eye)
            key = (width, height, look, referee, see_through, self.under_card)
            still_copied = self._copy_backdrop(key, width, height, referee, see_through)
        if not still_copied:
            self._clear(origin, width, height)
        #: The dice bet on a card with a die under it: drawn see-through after the card.
        self.faded_bets = self._bets_over_a_die(snap, dice)
        self._draw_dice([(o, pose) for o, pose in dice if o not in self.faded_bets])
        if self.blade is not None and blade_m is not None and not referee:
            self._draw_blade(blade_m, 1.0)
        if not still_copied:
            self._draw_still(referee, see_through, after_dice=True)
        if not referee:
            self._draw_moving_shadows(dice, blade_m)
        self._draw_blobs(dice)
        if near is not None:
            hiding = self._die_behind_wall(dice, near, camera.pitch)
            self.near_alpha = NEAR_WALL_HIDING_ALPHA if hiding else NEAR_WALL_ALPHA
            self._draw_near_wall(near, self.near_alpha)
        for wall in self.side_walls:
            self._draw_near_wall(wall, NEAR_WALL_HIDING_ALPHA)
        if self.under_card and self.cards_part is not None:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            gl.glDepthMask(gl.GL_FALSE)
            gl.glEnable(gl.GL_CULL_FACE)  # one layer: the card's underside doubled its veil
            gl.glCullFace(gl.GL_BACK)
            # over a die seen under the card the veil and its print are fainter (a yellow die under
            # card A could not be read through "Doppel X": thirteenth playtest)
            gl.glEnable(gl.GL_STENCIL_TEST)
            gl.glStencilMask(0)
            for func, alpha in ((gl.GL_NOTEQUAL, CARD_SEE_THROUGH_ALPHA), (gl.GL_EQUAL, CARD_OVER_DIE_ALPHA)):
                gl.glStencilFunc(func, DIE_BIT, DIE_BIT)
                self._draw_part(self.cards_part, alpha)
            gl.glDisable(gl.GL_STENCIL_TEST)
            gl.glStencilMask(0xFF)
            gl.glDisable(gl.GL_CULL_FACE)
            gl.glDepthMask(gl.GL_TRUE)
            gl.glDisable(gl.GL_BLEND)
        if referee and self.blade is not None and blade_m is not None:  # over the print, see-through
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            gl.glDepthMask(gl.GL_FALSE)
            self._draw_blade(blade_m, BLADE_SEE_THROUGH_ALPHA)
            gl.glDepthMask(gl.GL_TRUE)
            gl.glDisable(gl.GL_BLEND)
        if self.faded_bets:
            self._draw_dice(
                [(o, pose) for o, pose in dice if o in self.faded_bets], BET_DIE_SEE_THROUGH_ALPHA
            )
        self._draw_card_fields(fill=not self.under_card)
        self.ghosts = self._draw_ghosts(dice) if self.under_card else ()
        if marker is not None:  # the thrower's hand, in the referee view too
            self._draw_marker(marker, camera)
        self.referee_labels = []
        if referee:
            self._draw_referee(snap)
        gl.glBindVertexArray(0)
        gl.glUseProgram(0)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)

    def _draw_blade(self, model: np.ndarray, alpha: float) -> None:
        """The spinner's blade at ``model`` in its colour at ``alpha`` (the caller sets blending)."""
        assert self.blade is not None
        p = self._use("MODE_COLOUR")
        p.set("u_colour", (*self.spinner_colour, alpha))
        p.set("u_model", model)
        self.blade.draw()
        p.set("u_model", np.eye(4))

    def draw_inset(self, snap: Snapshot, camera: Camera, rect: tuple[int, int, int, int]) -> None:
        """Draw ``snap`` seen by ``camera`` into the window pixels ``rect`` (x, y, width, height)
        of the current framebuffer — the off-the-box inset (:mod:`render.inset`) — leaving what
        the main view's frame recorded (near wall, see-through cards) as it was."""
        kept = (self.near, self.near_alpha, self.side_walls, self.under_card, self.ghosts, self.faded_bets)
        x, y, w, h = rect
        self.draw(snap, camera, w, h, origin=(x, y))
        self.near, self.near_alpha, self.side_walls, self.under_card, self.ghosts, self.faded_bets = kept

    def _clear(self, origin: tuple[int, int], width: int, height: int) -> None:
        """Clear the viewport (only its own pixels) and set the opaque parts' state."""
        gl.glViewport(*origin, width, height)
        if origin != (0, 0):
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glScissor(*origin, width, height)
        gl.glClearColor(*BACKGROUND, 1.0)
        gl.glClearStencil(0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT | gl.GL_STENCIL_BUFFER_BIT)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        _opaque_state()

    def _draw_still(self, referee: bool, see_through: tuple[str, ...], after_dice: bool = False) -> None:
        """The parts that never move, opaque (the see-through walls ``see_through`` and cards are
        drawn later), and their planar shadows (none in the referee view). ``after_dice``: drawn over
        the dice, so where a part hides a die its :data:`DIE_BIT` is taken back (drawn from the
        backdrop, the dice come after the parts and mark only where they are seen)."""
        if after_dice:
            gl.glEnable(gl.GL_STENCIL_TEST)
            gl.glStencilMask(DIE_BIT)
            gl.glStencilFunc(gl.GL_ALWAYS, 0, DIE_BIT)
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_REPLACE)
        for part in self.parts:
            if part is self.cards_part and self.under_card:
                continue
            self._draw_part(part)
        for wall in _WALLS:
            if wall not in see_through:
                for part in self.walls[wall]:
                    self._draw_part(part)
        for part in self.back_parts:
            self._draw_part(part)
        if after_dice:
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_KEEP)
            gl.glStencilMask(0xFF)
            gl.glDisable(gl.GL_STENCIL_TEST)
        if not referee:
            self._draw_still_shadows()

    def _copy_backdrop(
        self, key: object, width: int, height: int, referee: bool, see_through: tuple[str, ...]
    ) -> bool:
        """Copy the still parts of this view (``key``) into the current framebuffer, drawing
        them into the :class:`~render.backdrop.Backdrop` first if it holds another view;
        ``False`` if the driver will not (the caller then draws them itself)."""
        if self.backdrop is None:
            self.backdrop = Backdrop()
        target = bound_framebuffer()
        if not self.backdrop.fresh(key):
            if not self.backdrop.begin_record(width, height):
                gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, target)
                return False
            self._clear((0, 0), width, height)
            self._draw_still(referee, see_through)
            self.backdrop.end_record(key)
        ok = self.backdrop.copy_into(target, width, height)
        gl.glViewport(0, 0, width, height)
        _opaque_state()
        return ok

    def _under_cards(self, dice: list[tuple[str, Pose]]) -> list[tuple[str, Pose]]:
        """The dice below the rim under a bet card or partly under one: the card within a half
        diagonal of the die's centre (a die beside a card was hidden by an opaque card too), or,
        seen from this frame's camera, the card over the die's top."""
        box = self.table.box
        rim, card_top = box.rim_z, box.rim_z + box.bet_card_thickness
        eye = self._frame.get("u_eye")
        out = []
        for o, pose in dice:
            x, y, z = pose.position
            if z >= rim:
                continue
            half = self.table.dice[o].half
            if card_near(self.table, x, y, half * math.sqrt(2)) is not None:
                out.append((o, pose))
                continue
            if eye is None or eye[2] <= card_top:
                continue
            # seen from the camera: where the line of sight to the die's top crosses the cards'
            # height (a die beside a card, beyond it from the camera, is hidden by it: playtest)
            top = z + half
            t = (card_top - top) / (eye[2] - top)
            if card_near(self.table, x + t * (eye[0] - x), y + t * (eye[1] - y), half) is not None:
                out.append((o, pose))
        return out

    def _bets_over_a_die(self, snap: Snapshot, dice: list[tuple[str, Pose]]) -> frozenset[str]:
        """The dice lying on a bet card (bet on it) that hide, in this frame's view, a die under
        that card or partly under it (:meth:`_under_cards`): they would hide it even with the card
        see-through. Only those fade — every die bet on such a card used to, and a bettor's own
        die beside the one under the card all but vanished (thirteenth playtest)."""
        if not snap.bets:
            return frozenset()
        under = self._under_cards(dice)
        if not under:
            return frozenset()
        poses = dict(dice)
        reach = {o: self.table.dice[o].half * math.sqrt(2) for o, _ in under}
        letters = {card_near(self.table, pose.position[0], pose.position[1], reach[o]) for o, pose in under}
        hidden = [self._screen_box(o, pose) for o, pose in under]
        out = []
        for o, letter in snap.bets.items():
            if o in snap.dice or letter not in letters or o not in poses:
                continue
            mine = self._screen_box(o, poses[o])
            if any(_overlap(mine, box) >= BET_DIE_HIDES * _area(box) for box in hidden):
                out.append(o)
        return frozenset(out)

    def _screen_box(self, owner: str, pose: Pose) -> tuple[float, float, float, float]:
        """The box (normalised device coordinates) a die covers in this frame's view."""
        ndc = self.die_corners_ndc(owner, pose)
        if not len(ndc):
            return 0.0, 0.0, 0.0, 0.0  # behind the camera: it covers nothing
        (x0, y0), (x1, y1) = ndc.min(axis=0), ndc.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)

    def die_corners_ndc(self, owner: str, pose: Pose) -> np.ndarray:
        """A die's eight corners (8 × 2, normalised device coordinates) in the last frame's view;
        empty where one lies behind the camera."""
        h = self.table.dice[owner].half
        corners = np.array([(x, y, z, 1.0) for x in (-h, h) for y in (-h, h) for z in (-h, h)])
        clip = (self._frame["u_view_proj"] @ pose_matrix(pose.position, pose.quaternion) @ corners.T).T
        if np.any(clip[:, 3] <= 0):
            return np.empty((0, 2))
        return clip[:, :2] / clip[:, 3:4]

    def dice_under_cards(self, snap: Snapshot) -> list[tuple[str, Pose]]:
        """The dice of ``snap`` below the rim under a bet card or partly under one, seen from the
        camera of the last frame drawn (:meth:`_under_cards`)."""
        return self._under_cards(self.dice_poses(snap))

    def _die_under_a_card(self, dice: list[tuple[str, Pose]]) -> bool:
        """Some die lies below the rim under a bet card, or partly under one (:meth:`_under_cards`)."""
        return bool(self._under_cards(dice))

    def _draw_card_fields(self, fill: bool) -> None:
        """The fields under the bet cards on the cards' tops (:func:`render.referee.fields_under_cards`):
        depth-tested (a die lying on the card hides them), their fills only on an opaque card; on a
        see-through one not over a die (the die under the card shows whole)."""
        fills, lines = self.card_fields
        if not lines and not fills:
            return
        p = self._use("MODE_FLAT")
        gl.glDepthMask(gl.GL_FALSE)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        if not fill:  # a see-through card: its lines stop where a die is seen (DIE_BIT), the
            # die under it too (they ran across it as white lines: a die under card B read as cut in two)
            gl.glEnable(gl.GL_STENCIL_TEST)
            gl.glStencilMask(0)
            gl.glStencilFunc(gl.GL_NOTEQUAL, DIE_BIT, DIE_BIT)
        p.set("u_model", np.eye(4))
        for mesh, rgba in (fills if fill else []) + lines:
            p.set("u_colour", rgba)
            mesh.draw()
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glStencilMask(0xFF)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def _draw_ghosts(self, dice: list[tuple[str, Pose]]) -> tuple[str, ...]:
        """Every die under a bet card drawn again as a coloured outline (:data:`GHOST_ALPHA`)
        with a faint inside where something nearer hides it (a die lying on the card): depth
        test ``GL_GREATER``, so where the die is seen nothing changes. Returns the owners drawn."""
        under = self._under_cards(dice)
        if not under:
            return ()
        p = self._use("MODE_FLAT")
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthMask(gl.GL_FALSE)
        gl.glDepthFunc(gl.GL_GREATER)
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilMask(GHOST_BIT)
        # front faces only, pulled a hair towards the camera: the die's own faces where it is
        # seen are not "hidden" (its back faces, drawn before, lay over every die under a card)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glCullFace(gl.GL_BACK)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(-1.0, -4.0)
        inner = np.diag([GHOST_INNER, GHOST_INNER, GHOST_INNER, 1.0])
        for owner, pose in under:
            m = pose_matrix(pose.position, pose.quaternion)
            rgb = hex_to_rgb(self.table.dice[owner].colour)
            # 1. mark the die shrunk (stencil only) 2. the rest of its outline strong 3. its inside faint
            gl.glColorMask(gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE)
            gl.glStencilFunc(gl.GL_ALWAYS, GHOST_BIT, GHOST_BIT)
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_REPLACE)
            p.set("u_model", m @ inner)
            self.die.draw()
            gl.glColorMask(gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE)
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_KEEP)
            p.set("u_model", m)
            for func, alpha in ((gl.GL_NOTEQUAL, GHOST_ALPHA), (gl.GL_EQUAL, GHOST_ALPHA * GHOST_FILL)):
                gl.glStencilFunc(func, GHOST_BIT, GHOST_BIT)
                p.set("u_colour", (*rgb, alpha))
                self.die.draw()
            gl.glStencilFunc(gl.GL_ALWAYS, 0, GHOST_BIT)  # unmark
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_ZERO)
            gl.glColorMask(gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE)
            self.die.draw()
            gl.glColorMask(gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE)
        gl.glStencilMask(0xFF)
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_KEEP)
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glDisable(gl.GL_CULL_FACE)
        p.set("u_model", np.eye(4))
        gl.glDepthFunc(gl.GL_LEQUAL)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)
        return tuple(o for o, _ in under)

    def _draw_part(self, part: _Part, alpha: float = 1.0) -> None:
        p = self._use(part.mode)
        p.set("u_colour", (*part.colour, alpha))
        if part.tex:
            gl.glBindTexture(gl.GL_TEXTURE_2D, part.tex)
        if part.baked or part.ao:
            p.set("u_baked", int(part.baked))
            p.set("u_ao", part.ao)
        part.mesh.draw()
        if part.baked or part.ao:
            p.set("u_baked", 0)
            p.set("u_ao", 0.0)

    def _die_behind_wall(self, dice: list[tuple[str, Pose]], wall: str, pitch: float) -> bool:
        """Some die inside the box lies in the strip of playfield the wall ``wall`` hides from a
        camera looking down at ``pitch`` (rad): nearer its inner face than the rim's height over
        the die's top, carried down at that pitch, plus a die's size."""
        box = self.table.box
        hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
        normal, half = {"S": ((0, -1), hy), "N": ((0, 1), hy), "E": ((1, 0), hx), "W": ((-1, 0), hx)}[wall]
        for owner, pose in dice:
            x, y, z = pose.position
            if abs(x) > hx or abs(y) > hy or z > box.rim_z:
                continue  # outside the box, or above the rim: the wall hides nothing of it
            size = self.table.dice[owner].size if owner in self.table.dice.dice else 0.016
            gap = half - (x * normal[0] + y * normal[1])  # from the wall's inner face (m)
            reach = max(0.0, box.rim_z - (z + size / 2)) / max(math.tan(pitch), 0.05) + size
            if gap < reach:
                return True
        return False

    def _draw_near_wall(self, wall: str, alpha: float = NEAR_WALL_ALPHA) -> None:
        """The wall nearest to the camera, see-through at ``alpha`` (its rim and printed
        outside; its inner face looks away from the camera)."""
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthMask(gl.GL_FALSE)
        rim, _, outer = self.walls[wall]
        self._draw_part(outer, alpha)
        self._draw_part(rim, min(1.0, alpha * 1.6))
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def dice_poses(self, snap: Snapshot) -> list[tuple[str, Pose]]:
        """Every die drawn: the snapshot's dice and the dice lying on bet cards."""
        dice = [(o, pose) for o, pose in snap.dice.items() if o in self.table.dice.dice]
        on_cards = bet_die_poses(self.table, snap.bets, snap.dice)
        return dice + list(on_cards.items())

    def _use(self, mode: str) -> Program:
        """Bind the program of ``mode``, setting this frame's shared uniforms once."""
        p = self.programs[mode]
        p.use()
        if mode not in self._ready:
            for name, value in self._frame.items():
                p.set(name, value)
            self._ready.add(mode)
        return p

    def _shadow_state(self) -> Program:
        """Bind the shadow program and state: blended, no depth written, stencilled so that
        overlapping shadows darken once (the stencil's count bits, not the die and ghost bits)."""
        p = self._use("MODE_SHADOW")
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthMask(gl.GL_FALSE)
        gl.glEnable(gl.GL_STENCIL_TEST)
        gl.glStencilFunc(gl.GL_EQUAL, 0, 0xFF & ~(DIE_BIT | GHOST_BIT))  # the count's bits only
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_INCR)
        p.set("u_colour", (0.0, 0.0, 0.0, SHADOW_ALPHA))
        return p

    def _end_shadows(self, p: Program) -> None:
        p.set("u_board_half", (0.0, 0.0))
        gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_KEEP)
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def _draw_still_shadows(self) -> None:
        """Planar shadows of the parts that never move: the box and the cards on the table,
        the spinner's pin and the obstacles on the playfield. (Each pixel darkens once,
        whatever the order, so these may be drawn before or after the moving ones.)"""
        box = self.table.box
        hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
        p = self._shadow_state()
        p.set("u_board_half", (0.0, 0.0))
        p.set("u_model", self.table_shadow)
        self.outer.draw()
        self.rim.draw()
        if self.cards is not None:
            self.cards.draw()
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.textures["board"])
        p.set("u_board_half", (hx, hy))  # kept out of the holes
        p.set("u_model", self.board_shadow)
        for mesh in (self.pin, self.obstacles):
            if mesh is not None:
                mesh.draw()
        self._end_shadows(p)

    def _draw_moving_shadows(self, dice, blade_m) -> None:
        """Planar shadows of dice lying outside the box on the table, and of the dice and the
        spinner's blade on the playfield."""
        box = self.table.box
        hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
        ox, oy = box_mesh.outer_half(box)
        p = self._shadow_state()
        p.set("u_board_half", (0.0, 0.0))
        inside: list[Pose] = []
        for _, pose in dice:
            x, y, z = pose.position
            if abs(x) > ox or abs(y) > oy:
                p.set("u_model", self.table_shadow @ pose_matrix(pose.position, pose.quaternion))
                self.die.draw()
            elif (
                abs(x) < hx and abs(y) < hy and z > 0.0 and not (z > box.rim_z and card_at(self.table, x, y))
            ):
                inside.append(pose)  # (a die lying on a bet card: the card takes it)
        # on the playfield (kept out of the holes)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.textures["board"])
        p.set("u_board_half", (hx, hy))
        for pose in inside:
            p.set("u_model", self.board_shadow @ pose_matrix(pose.position, pose.quaternion))
            self.die.draw()
        if self.blade is not None and blade_m is not None:
            p.set("u_model", self.board_shadow @ blade_m)
            self.blade.draw()
        self._end_shadows(p)

    def _draw_dice(self, dice, alpha: float = 1.0) -> None:
        """The dice, opaque; or, with ``alpha`` < 1, see-through over what is drawn (no depth
        written, their back faces culled so a die is one layer)."""
        if not dice:
            return
        see_through = alpha < 1.0
        if see_through:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            gl.glDepthMask(gl.GL_FALSE)
            gl.glEnable(gl.GL_CULL_FACE)
            gl.glCullFace(gl.GL_BACK)
        else:  # mark where the dice are seen (DIE_BIT)
            gl.glEnable(gl.GL_STENCIL_TEST)
            gl.glStencilMask(DIE_BIT)
            gl.glStencilFunc(gl.GL_ALWAYS, DIE_BIT, DIE_BIT)
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_REPLACE)
        p = self._use("MODE_DIE")
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.textures["dice"])
        p.set("u_spec", 0.35)
        p.set("u_shininess", 60.0)
        for owner, pose in dice:
            spec = self.table.dice[owner]
            tiles = [float(TILES[f]) for f in spec.faces]
            p.set("u_colour", (*hex_to_rgb(spec.colour), alpha))
            p.set("u_pip", hex_to_rgb(spec.pips))
            p.set("u_tiles_a", tiles[:3])
            p.set("u_tiles_b", tiles[3:])
            p.set("u_model", pose_matrix(pose.position, pose.quaternion))
            self.die.draw()
        if see_through:
            gl.glDisable(gl.GL_CULL_FACE)
            gl.glDepthMask(gl.GL_TRUE)
            gl.glDisable(gl.GL_BLEND)
        else:
            gl.glStencilMask(0xFF)
            gl.glStencilOp(gl.GL_KEEP, gl.GL_KEEP, gl.GL_KEEP)
            gl.glDisable(gl.GL_STENCIL_TEST)

    def _draw_blobs(self, dice) -> None:
        """Soft contact shadows under dice that lie on (or hover just over) a surface."""
        box = self.table.box
        hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
        ox, oy = box_mesh.outer_half(box)
        p = self._use("MODE_SHADOW")
        p.set("u_radial", 1)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthMask(gl.GL_FALSE)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.textures["board"])
        for owner, pose in dice:
            spec = self.table.dice[owner]
            x, y, z = pose.position
            inside = abs(x) < hx and abs(y) < hy
            if inside and z >= -0.001:
                surface, mask = 0.0, True
            elif inside and z < -box.insert_thickness:
                surface, mask = box.floor_z, False
            elif abs(x) > ox or abs(y) > oy:
                surface, mask = box_mesh.table_z(box), False
            else:
                continue
            lift = max(0.0, z - spec.half - surface)
            strength = 0.55 * max(0.0, 1.0 - lift / 0.05)
            if strength <= 0.01:
                continue
            r = spec.size * (0.9 + 4.0 * lift)
            p.set("u_board_half", (hx, hy) if mask else (0.0, 0.0))
            p.set("u_colour", (0.0, 0.0, 0.0, strength))
            p.set("u_model", translation(x, y, surface + 0.0002) @ np.diag([r, r, 1.0, 1.0]))
            self.quad.draw()
        p.set("u_board_half", (0.0, 0.0))
        p.set("u_radial", 0)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def _draw_marker(self, marker: Marker, camera: Camera) -> None:
        """The thrower's hand: its spot on the table, the ring at the release point and the
        flick's arrow. Seen from lower than :data:`RING_FACING_PITCH` the ring tilts towards the
        camera by the difference, so it never lies edge-on (seventeenth playtest: in a low orbit
        the ring disappeared)."""
        p = self._use("MODE_FLAT")
        rgb = hex_to_rgb(marker.colour)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glDepthMask(gl.GL_FALSE)
        x, y, z = marker.position
        # the hand's spot on the table first: seen from straight above it lies under the ring
        p.set("u_colour", (0.0, 0.0, 0.0, 0.3))
        p.set("u_model", translation(x, y, box_mesh.table_z(self.table.box) + 0.0003))
        self.spot.draw()
        tilt = max(0.0, RING_FACING_PITCH - camera.pitch) if not camera.referee else 0.0
        right = (math.cos(camera.yaw), math.sin(camera.yaw), 0.0)  # about it, the ring's normal
        half = tilt / 2  # turns towards the eye
        ring_model = pose_matrix((x, y, z), (*(c * math.sin(half) for c in right), math.cos(half)))
        gl.glEnable(gl.GL_STENCIL_TEST)  # the ring and arrow fade over the dice (DIE_BIT)
        for func, fade in ((gl.GL_NOTEQUAL, 1.0), (gl.GL_EQUAL, MARKER_OVER_DIE)):
            gl.glStencilFunc(func, DIE_BIT, DIE_BIT)
            p.set("u_colour", (*rgb, 0.95 * fade))
            p.set("u_model", ring_model)
            self.ring.draw()
            if marker.direction is not None and marker.length > 0:
                ang = math.atan2(marker.direction[1], marker.direction[0])
                m = translation(x, y, z) @ rotation_z(ang) @ np.diag([marker.length, 0.006, 1.0, 1.0])
                p.set("u_colour", (*rgb, 0.85 * fade))
                p.set("u_model", m)
                self.arrow.draw()
        gl.glDisable(gl.GL_STENCIL_TEST)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def _draw_referee(self, snap: Snapshot) -> None:
        key = tuple(sorted((o, pose.position, pose.quaternion) for o, pose in snap.dice.items()))
        if key != self._overlay_key:
            for mesh, _ in self._overlay:
                mesh.delete()
            items, labels = outlines(self.table, dict(snap.dice))
            self._overlay = [(GpuMesh(o.mesh), o.rgba) for o in items if len(o.mesh.positions)]
            self._overlay_labels = labels
            self._overlay_key = key
        self.referee_labels = list(self._overlay_labels)
        p = self._use("MODE_FLAT")
        # depth-tested (never drawn across a die), without writing depth (halo and line blend)
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthMask(gl.GL_FALSE)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        p.set("u_model", np.eye(4))
        for mesh, rgba in self._overlay:
            p.set("u_colour", rgba)
            mesh.draw()
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)

    def delete(self) -> None:
        """Free the GPU resources (call with this scene's context current)."""
        meshes = {
            id(m): m
            for m in [part.mesh for part in self.parts + self.back_parts]
            + [part.mesh for parts in self.walls.values() for part in parts]
            + [self.rim, self.outer]
            + [self.blade, self.die, self.quad, self.ring, self.spot, self.arrow]
            + [mesh for mesh, _ in self._overlay]
            + [mesh for meshes in self.card_fields for mesh, _ in meshes]
            if m is not None
        }
        for m in meshes.values():
            m.delete()
        if self.backdrop is not None:
            self.backdrop.delete()
            self.backdrop = None
        self._overlay = []
        for t in self.textures.values():
            delete_texture(t)
        for p in self.programs.values():
            p.delete()
