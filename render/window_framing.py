"""Where the picture stands in the window: clear of a column at the right edge and of the
referee view's corner panels, the box and a person's hand fitted into the referee view.

A mixin of :class:`render.window.TableWindow`. While the throw log or the end standings lie
at the window's right edge (:meth:`Framing.column_edge`) the picture moves left, and shrinks
if it must, so the box lies beside them; in the referee view it keeps clear of the scoreboard
and the Last throw panel the same way (:meth:`Framing._clear_of_panels`). In the referee view,
while a person throws from the south or north wall, the view zooms out just enough to show the
hand's ring between the HUD's top and bottom lines (:meth:`Framing._frame_referee_hand`).
Nothing is decided here; the camera is only moved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from render import box_mesh
from render.hud import Hud, scale_for
from render.labels import Rect
from render.snapshot import InputMode, Snapshot

if TYPE_CHECKING:
    from render.aim import ThrowAim
    from render.camera import Camera


class Framing:
    """The window's framing of the box (mixed into the window, which provides the camera)."""

    if TYPE_CHECKING:
        # What these methods use of the window; declared for the type checker only.
        width: int
        height: int
        camera: Camera
        hud: Hud
        aim: ThrowAim | None
        referee: bool
        _referee_home: tuple[float, float]
        _referee_framed: tuple[float, float] | None
        _referee_span: tuple[float, float] | None
        _referee_reserve: tuple[tuple[int, int, int], dict[str, Rect]]  # (size, game's table) → panels

        def log_open(self) -> bool: ...

    def _frame_referee_hand(self, snap: Snapshot | None) -> None:
        """In the referee view, while a person throws from the south or north wall, fit the box
        and the hand's ring between the HUD's top and bottom lines (the ring sat under the hint
        bar): the view zooms out and moves just enough, and stays so until the view is left. The
        hands at every wall a person of the game throws from (``snap.hand_walls``) are fitted at
        once, and each hand fitted since the view was opened stays in it (hot seat: people at the
        south and the north wall), so it does not move when the thrower changes. A view the
        person has zoomed or panned (wheel, drag) is left as they set it."""
        cam, home = self.camera, self._referee_home
        framed = self._referee_framed
        if framed is not None and (
            abs(cam.extent - framed[0]) > 1e-9 or abs(cam.referee_centre[1] - framed[1]) > 1e-9
        ):
            self._referee_framed = self._referee_span = None  # the person moved the view: theirs now
            return
        throwing = snap is not None and snap.input is InputMode.THROW and self.aim is not None
        if (
            not (self.referee and throwing and self.aim is not None and self.aim.wall in ("S", "N"))
            or snap is None
        ):
            # the framing stays after the throw, while the referee view is on (twelfth playtest: it
            # zoomed in and out at every turn of a person's); leaving the view ends it
            if framed is not None and not self.referee:
                cam.extent, cam.referee_centre[1] = home
                self._referee_framed = self._referee_span = None
            return
        if framed is None and (
            abs(cam.extent - home[0]) > 1e-9 or abs(cam.referee_centre[1] - home[1]) > 1e-9
        ):
            return  # zoomed or panned by the person before the throw began
        box = snap.table.box
        s = scale_for(self.width, self.height)
        fb = (10 + 3 * 28 + 12) * s / max(self.height, 1)  # the bottom bands: buttons, message, hint
        ft = (10 + 30 + 30) * s / max(self.height, 1)  # the turn line and the activity line
        ring = abs(float(self.aim.release_point()[1])) + 0.012
        far = box.inner_size[1] / 2 + box.wall_thickness + 0.006
        walls = {self.aim.wall, *snap.hand_walls}  # every person's hand at once: no move between them
        lo, hi = (-ring if "S" in walls else -far), (ring if "N" in walls else far)
        # every hand fitted since the view was opened stays in (hot seat: the view moved at each
        # change of thrower between the south and the north wall)
        if self._referee_span is not None:
            lo, hi = min(lo, self._referee_span[0]), max(hi, self._referee_span[1])
        self._referee_span = (lo, hi)
        e = max(home[0], (hi - lo) / (2 * (1 - fb - ft)))
        centre = lo + e - 2 * e * fb
        cam.extent, cam.referee_centre[1] = e, centre
        self._referee_framed = (e, centre)

    def column_edge(self) -> float | None:
        """The left edge (window px) of a column at the window's right edge that the box keeps
        clear of: the throw log's while it is open, else none (``None``). An application adds
        its own overlays (:meth:`doppelx.games.doppelx.play.window.PlayWindow.column_edge`: the
        end-of-game standings)."""
        if not self.log_open():
            return None
        w = self.width
        s = scale_for(w, self.height)
        return w - 10 * s - Hud.log_width(w, s)

    def column_rect(self) -> Rect | None:
        """The column at the window's right edge (:meth:`column_edge`), full height, or ``None``."""
        edge = self.column_edge()
        return None if edge is None else Rect(edge, 0.0, float(self.width), float(self.height))

    def _panels_beside_box(self, table: object) -> list[Rect]:
        """The window boxes (px) the box keeps clear of: a column at the right edge
        (:meth:`column_edge`, full height) and, in the referee view — where the box fills the
        window's height — the scoreboard and the Last throw panel at the top corners (at
        800 × 500 with 8 players the Last throw panel lay over the box's top-right corner)."""
        column = self.column_rect()
        out: list[Rect] = [] if column is None else [column]
        if self.referee:
            out += self._referee_corners(table)
        return out

    def _referee_corners(self, table: object) -> list[Rect]:
        """The referee view's corner panels as the box keeps clear of them: each the largest it has
        been at this window size, in this game, shown or not. The Last throw panel goes while the
        dice roll and comes back a line longer or shorter, and a framing that followed it made the
        box grow, shrink and move three times a throw (eleventh playtest); now it moves when a
        panel first grows beyond what it reserved, no more."""
        key = (self.width, self.height, id(table))
        if self._referee_reserve[0] != key:
            self._referee_reserve = (key, {})
        reserve = self._referee_reserve[1]
        for name in ("scoreboard", "summary"):
            r = self.hud.blocks.get(name)
            if r is not None:
                old = reserve.get(name, r)
                reserve[name] = Rect(
                    min(old.x0, r.x0), min(old.y0, r.y0), max(old.x1, r.x1), max(old.y1, r.y1)
                )
        return list(reserve.values())

    def _clear_of_panels(self, snap: Snapshot | None) -> None:
        """Move the picture sideways — and shrink it if it must — so the box keeps clear of
        :meth:`_panels_beside_box` (issue 32: the throw log, then the standings covered part of
        the box; the referee view's Last throw panel its top-right corner), as little as
        possible: the largest scale ``k`` at which the box fits between the panels beside it,
        or clears those above or below it, then the smallest shift; otherwise the picture is
        where the camera puts it."""
        self.camera.screen_shift = (0.0, 1.0)
        panels = self._panels_beside_box(snap.table) if snap is not None else []
        if snap is None or not panels:
            return
        w, h = self.width, self.height
        m = 10 * scale_for(w, h)
        box = self._box_on_screen(snap)
        cx, cy = w / 2, h / 2
        k = 1.0
        while True:
            y0, y1 = cy + k * (box.y0 - cy), cy + k * (box.y1 - cy)
            beside = [p for p in panels if p.y0 - m < y1 and y0 < p.y1 + m]
            left = max([m] + [p.x1 + m for p in beside if p.x0 + p.x1 < w])
            right = min([w - m] + [p.x0 - m for p in beside if p.x0 + p.x1 >= w])
            fit = (right - left) / max(box.x1 - box.x0, 1.0)
            if fit >= k or k <= 0.2:
                break
            # shrink until the box fits between them, or until one of them no longer lies beside it
            clear = [
                (p.y0 - m - cy) / (box.y1 - cy) if p.y0 + p.y1 > h else (cy - p.y1 - m) / (cy - box.y0)
                for p in beside
                if p.y0 > m or p.y1 < h - m  # a full-height column is beside the box at every scale
            ]
            k = max(0.2, max([fit] + [c for c in clear if c < k]) - 1e-6)
        x0, x1 = cx + k * (box.x0 - cx), cx + k * (box.x1 - cx)
        dx = max(0.0, left - x0) if x0 < left else min(0.0, right - x1)
        self.camera.screen_shift = (2 * dx / w, k)

    def _box_on_screen(self, snap: Snapshot) -> Rect:
        """The window box (px) round the box's outer corners as the main view shows them."""
        box = snap.table.box
        ox, oy = box_mesh.outer_half(box)
        corners = [
            (x, y, z) for x in (-ox, ox) for y in (-oy, oy) for z in (box_mesh.table_z(box), box.rim_z)
        ]
        pts = [self.camera.project(c, self.width, self.height)[:2] for c in corners]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return Rect(min(xs), min(ys), max(xs), max(ys))

    def _left_of_box(self, dice: list) -> bool:
        """The dice off the box lie left of the box's centre as the main view shows them."""
        xs = [self.camera.project(pose.position, self.width, self.height)[0] for _, pose in dice]
        centre = self.camera.project((0.0, 0.0, 0.0), self.width, self.height)[0]
        return sum(xs) / len(xs) < centre
