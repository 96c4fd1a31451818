"""The off-the-box insets drawn in the window: their pictures, frames and captions.

A mixin of :class:`render.window.TableWindow`. :mod:`render.inset` decides where an inset
goes and what it shows (the dice lying on the table outside the box, seen from above; one
inset for each group of dice lying together); this draws them — each picture into a
framebuffer of its own, redrawn only when those dice, the table or the view's turn change,
and blitted every frame — and their frames and captions as pyglet shapes over the HUD.
"""

# ruff: noqa: I001  (imports are ordered on purpose: pyglet is configured (render.backend) before its modules load)

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from render.backend import pyglet
from render import box_mesh
from render import inset as off_box_inset
from render.hud import scale_for
from render.labels import Rect
from render.msaa import MsaaTarget, software_scale
from render.snapshot import Snapshot

if TYPE_CHECKING:
    from render.camera import Camera
    from render.hud import Hud
    from render.scene import Scene

gl = pyglet.gl
#: A die this far below the table top (m) has fallen off the table onto the room's floor.
FLOOR_BELOW = 0.1


class InsetView:
    """The off-the-box insets' drawing (mixed into the window)."""

    if TYPE_CHECKING:
        # What these methods use of the window; declared for the type checker only.
        width: int
        height: int
        camera: Camera
        hud: Hud
        scene: Scene | None
        software: bool
        insets: list[Rect]
        _inset_cameras: list[Camera]
        _inset_batch: Any
        _inset_items: list[Any]
        _inset_targets: list[MsaaTarget]
        _inset_drawn: list[object]

        def overlay_boxes(self) -> list[Rect]: ...

        def column_rect(self) -> Rect | None: ...

        def _box_on_screen(self, snap: Snapshot) -> Rect: ...

        def _left_of_box(self, dice: list) -> bool: ...

    def _inset_picture(self, snap: Snapshot, out: list, px: tuple[int, int, int, int], pane: int) -> None:
        """Put inset ``pane``'s picture at the window pixels ``px`` (x, y, width, height): drawn
        into its own framebuffer — on a software renderer at the main scene's reduced resolution —
        only when the dice off the box, the table or the view's turn changed, and stretched
        into the window every frame (a die resting off the box costs one blit a frame)."""
        assert self.scene is not None
        x, y, w, h = px
        scale = software_scale(self.width, self.height) if self.software else 1.0
        fw, fh = max(1, round(w * scale)), max(1, round(h * scale))
        key = (fw, fh, id(self.scene), tuple((o, p.position, p.quaternion) for o, p in out), self.camera.yaw)
        while len(self._inset_targets) <= pane:
            self._inset_targets.append(MsaaTarget(0))
            self._inset_drawn.append(None)
        target, camera = self._inset_targets[pane], self._inset_cameras[pane]
        if key != self._inset_drawn[pane]:
            if not target.begin(fw, fh):  # no framebuffer: straight into the window
                self.scene.draw_inset(snap, camera, px)
                self._inset_drawn[pane] = None
                return
            self.scene.draw_inset(snap, camera, (0, 0, fw, fh))
            self._inset_drawn[pane] = key
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, target.fbo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        filt = gl.GL_NEAREST if (fw, fh) == (w, h) else gl.GL_LINEAR
        gl.glBlitFramebuffer(0, 0, fw, fh, x, y, x + w, y + h, gl.GL_COLOR_BUFFER_BIT, filt)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def _draw_inset(self, snap: Snapshot | None, width: int, height: int) -> None:
        """Draw the off-the-box insets (:mod:`render.inset`) over the scene while a die lies on
        the table outside the box — the main view keeps the box framed — one for each group of
        dice lying together (:func:`render.inset.groups`: a die knocked far from the others has
        its own, clear of the first), and their frames and captions (drawn after the HUD);
        nothing while no die is outside. In the referee view too (sixth playtest: seen from
        above, a die off the box lay under the Last throw panel and its label ran off the
        window's edge)."""
        self.insets, self._inset_cameras = [], []
        dice = [] if snap is None or self.scene is None else self.scene.dice_poses(snap)
        out = off_box_inset.off_box(snap.table, dice) if snap is not None and dice else []
        key = None
        if out and snap is not None and self.scene is not None:
            panels = list(self.hud.panels) + self.overlay_boxes()
            column = self.column_rect()  # the throw log's column (L), the end screen's standings
            if column is not None:  # (eighteenth playtest: opening the log moved the inset onto it)
                panels.append(column)
            box = self._box_on_screen(snap)
            groups = off_box_inset.groups(out)
            for group in groups:
                rect = off_box_inset.inset_rect(
                    self.width, self.height, panels + self.insets, [box], self._left_of_box(group)
                )
                self.insets.append(rect)
                self._inset_cameras.append(off_box_inset.inset_camera(group, self.camera.yaw))
            ys = [
                sum(self.camera.project(p.position, self.width, self.height)[1] for _, p in group)
                / len(group)
                for group in groups
            ]
            self.insets = off_box_inset.in_screen_order(self.insets, ys)
            sx, sy = width / max(self.width, 1), height / max(self.height, 1)
            for pane, rect in enumerate(self.insets):
                px = (
                    round(rect.x0 * sx),
                    round(rect.y0 * sy),
                    round((rect.x1 - rect.x0) * sx),
                    round((rect.y1 - rect.y0) * sy),
                )
                self._inset_picture(snap, out, px, pane)
            gl.glViewport(0, 0, width, height)
            gl.glDisable(gl.GL_DEPTH_TEST)
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            said = self._inset_texts(snap, groups)
            key = tuple(
                (rect, tuple(o for o, _ in group), texts)
                for rect, group, texts in zip(self.insets, groups, said)
            )
        if key == getattr(self, "_inset_key", None):
            return
        self._inset_key = key
        for item in self._inset_items:
            item.delete()
        self._inset_items, self._inset_batch = [], None
        if key is None or snap is None:
            return
        batch = self._inset_batch = pyglet.graphics.Batch()
        for rect, owners, texts in key:
            self._inset_items += self._inset_frame(snap, rect, owners, texts, batch)

    @staticmethod
    def _inset_texts(snap: Snapshot, groups: list[list]) -> list[tuple[str, ...]]:
        """What the labels over the dice off the box say, for each inset's ``groups`` of dice:
        a label on the table goes with the group of the die nearest to it; a group lying on the
        room's floor, off the table, says so (the picture shows no table there)."""
        said: list[list[str]] = [[] for _ in groups]
        for f in snap.floating:
            if off_box_inset.on_table(snap.table, f.position):
                near = min(
                    range(len(groups)),
                    key=lambda g: min(
                        (p.position[0] - f.position[0]) ** 2 + (p.position[1] - f.position[1]) ** 2
                        for _, p in groups[g]
                    ),
                )
                said[near].append(f.text)
        floor = box_mesh.table_z(snap.table.box) - FLOOR_BELOW
        for texts, group in zip(said, groups):
            if all(p.position[2] < floor for _, p in group):  # nothing is drawn there: say where
                texts.append("on the floor")  # (fifteenth playtest: a die on a black ground)
        return [tuple(texts) for texts in said]

    def _inset_frame(self, snap: Snapshot, rect: Rect, owners: tuple[str, ...], said, batch) -> list[Any]:
        """One inset's frame in its first die's colour and its caption on a plate at its top
        (two lines on a taller plate when too long for one at the smallest font)."""
        back, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        w, h = rect.x1 - rect.x0, rect.y1 - rect.y0
        colour = snap.table.dice[owners[0]].colour
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        s = scale_for(self.width, self.height)
        size = max(9.0, 12.0 * s)
        plate_h = size * 2.0
        items: list[Any] = [
            pyglet.shapes.Box(rect.x0, rect.y0, w, h, 3, color=(r, g, b, 255), batch=batch, group=front),
            pyglet.shapes.Rectangle(
                rect.x0, rect.y1 - plate_h, w, plate_h, color=(18, 18, 22, 200), batch=batch, group=back
            ),
            pyglet.text.Label(
                off_box_inset.caption(owners, said),
                x=rect.x0 + w / 2,
                y=rect.y1 - plate_h / 2,
                font_name="DejaVu Sans",
                font_size=size,
                color=(236, 236, 236, 255),
                anchor_x="center",
                anchor_y="center",
                batch=batch,
                group=front,
            ),
        ]
        text = items[-1]
        while text.content_width > w - 8 and text.font_size > 7:  # a long caption gets a smaller font
            text.font_size -= 1
        if text.content_width > w - 8:  # still too wide (800 × 500): two lines, on a taller plate
            text.width, text.multiline = round(w - 8), True
            text.set_style("align", "center")
            plate = items[1]
            plate.height = text.content_height + 6
            plate.y = rect.y1 - plate.height
            text.y = rect.y1 - plate.height / 2
        left = text.x - (text.width if text.multiline else text.content_width) / 2
        text.x += round(left) - left  # glyphs at half a pixel lost a "d"'s stem ("back to hanc")
        return items
