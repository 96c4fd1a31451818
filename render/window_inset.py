"""The off-the-box inset drawn in the window: its picture, frame and caption.

A mixin of :class:`render.window.TableWindow`. :mod:`render.inset` decides where the inset
goes and what it shows (the dice lying on the table outside the box, seen from above); this
draws it — the picture into a framebuffer of its own, redrawn only when those dice, the
table or the view's turn change, and blitted every frame — and its frame and caption as
pyglet shapes over the HUD.
"""

# ruff: noqa: I001  (imports are ordered on purpose: pyglet is configured (render.backend) before its modules load)

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from render.backend import pyglet
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


class InsetView:
    """The off-the-box inset's drawing (mixed into the window)."""

    if TYPE_CHECKING:
        # What these methods use of the window; declared for the type checker only.
        width: int
        height: int
        camera: Camera
        hud: Hud
        scene: Scene | None
        software: bool
        inset: Rect | None
        _inset_camera: Camera | None
        _inset_batch: Any
        _inset_items: list[Any]
        _inset_target: MsaaTarget | None
        _inset_drawn: object

        def overlay_boxes(self) -> list[Rect]: ...

        def _box_on_screen(self, snap: Snapshot) -> Rect: ...

        def _left_of_box(self, dice: list) -> bool: ...

    def _inset_picture(self, snap: Snapshot, out: list, px: tuple[int, int, int, int]) -> None:
        """Put the inset's picture at the window pixels ``px`` (x, y, width, height): drawn into
        its own framebuffer — on a software renderer at the main scene's reduced resolution —
        only when the dice off the box, the table or the view's turn changed, and stretched
        into the window every frame (a die resting off the box costs one blit a frame)."""
        assert self.scene is not None and self._inset_camera is not None
        x, y, w, h = px
        scale = software_scale(self.width, self.height) if self.software else 1.0
        fw, fh = max(1, round(w * scale)), max(1, round(h * scale))
        key = (fw, fh, id(self.scene), tuple((o, p.position, p.quaternion) for o, p in out), self.camera.yaw)
        if self._inset_target is None:
            self._inset_target = MsaaTarget(0)
        target = self._inset_target
        if key != self._inset_drawn:
            if not target.begin(fw, fh):  # no framebuffer: straight into the window
                self.scene.draw_inset(snap, self._inset_camera, px)
                self._inset_drawn = None
                return
            self.scene.draw_inset(snap, self._inset_camera, (0, 0, fw, fh))
            self._inset_drawn = key
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, target.fbo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        filt = gl.GL_NEAREST if (fw, fh) == (w, h) else gl.GL_LINEAR
        gl.glBlitFramebuffer(0, 0, fw, fh, x, y, x + w, y + h, gl.GL_COLOR_BUFFER_BIT, filt)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def _draw_inset(self, snap: Snapshot | None, width: int, height: int) -> None:
        """Draw the off-the-box inset (:mod:`render.inset`) over the scene while a die lies on
        the table outside the box — the main view keeps the box framed — and its frame and
        caption (drawn after the HUD); nothing while no die is outside. In the referee view too
        (sixth playtest: seen from above, a die off the box lay under the Last throw panel and
        its label ran off the window's edge)."""
        self.inset = self._inset_camera = None
        dice = [] if snap is None or self.scene is None else self.scene.dice_poses(snap)
        out = off_box_inset.off_box(snap.table, dice) if snap is not None and dice else []
        key = None
        if out and snap is not None and self.scene is not None:
            rect = off_box_inset.inset_rect(
                self.width,
                self.height,
                list(self.hud.panels) + self.overlay_boxes(),
                [self._box_on_screen(snap)],
                self._left_of_box(out),
            )
            self.inset, self._inset_camera = rect, off_box_inset.inset_camera(out, self.camera.yaw)
            sx, sy = width / max(self.width, 1), height / max(self.height, 1)
            px = (
                round(rect.x0 * sx),
                round(rect.y0 * sy),
                round((rect.x1 - rect.x0) * sx),
                round((rect.y1 - rect.y0) * sy),
            )
            self._inset_picture(snap, out, px)
            gl.glViewport(0, 0, width, height)
            gl.glDisable(gl.GL_DEPTH_TEST)
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            said = tuple(f.text for f in snap.floating if off_box_inset.on_table(snap.table, f.position))
            shown = tuple(o for o, _ in off_box_inset.framed(out))
            key = (rect, tuple(o for o, _ in out), said, shown)
        if key == getattr(self, "_inset_key", None):
            return
        self._inset_key = key
        for item in self._inset_items:
            item.delete()
        self._inset_items, self._inset_batch = [], None
        if key is None or snap is None:
            return
        rect, owners, said, shown = key
        batch = self._inset_batch = pyglet.graphics.Batch()
        back, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        w, h = rect.x1 - rect.x0, rect.y1 - rect.y0
        colour = snap.table.dice[owners[0]].colour
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        s = scale_for(self.width, self.height)
        size = max(9.0, 12.0 * s)
        plate_h = size * 2.0
        self._inset_items = [
            pyglet.shapes.Box(rect.x0, rect.y0, w, h, 3, color=(r, g, b, 255), batch=batch, group=front),
            pyglet.shapes.Rectangle(
                rect.x0, rect.y1 - plate_h, w, plate_h, color=(18, 18, 22, 200), batch=batch, group=back
            ),
            pyglet.text.Label(
                off_box_inset.caption(owners, said, shown),
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
        text = self._inset_items[-1]
        while text.content_width > w - 8 and text.font_size > 7:  # a long caption gets a smaller font
            text.font_size -= 1
        if text.content_width > w - 8:  # still too wide (800 × 500): two lines, on a taller plate
            text.width, text.multiline = round(w - 8), True
            text.set_style("align", "center")
            plate = self._inset_items[1]
            plate.height = text.content_height + 6
            plate.y = rect.y1 - plate.height
            text.y = rect.y1 - plate.height / 2
