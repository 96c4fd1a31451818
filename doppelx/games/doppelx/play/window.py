"""The window of ``doppelx play``: the table window plus the new-game form and the end screen.

:class:`PlayWindow` is a :class:`render.window.TableWindow` that draws two overlays of the
application over the HUD — the new-game form (:class:`doppelx.games.doppelx.play.dialog.NewGameDialog`)
and the end-of-game panel with the final standings — and, while the form is open, sends
the mouse and keyboard to the form instead of the table. The end panel makes room for the
HUD's panels (the decisive throw's *Last throw* summary stays beside it) and the die and
referee labels keep clear of it (:meth:`PlayWindow.overlay_boxes`). It also puts the
thrower at their seat when a person's throw begins (:meth:`PlayWindow.stand`).
"""

# ruff: noqa: I001  (imports are ordered on purpose: pyglet is configured (render.backend) before its modules load)

from __future__ import annotations

import dataclasses

from collections.abc import Callable, Sequence

from doppelx.games.doppelx.play.dialog import NewGameDialog
from doppelx.games.doppelx.play.newgame import GameSetup
from doppelx.games.doppelx.play.view import counted
from doppelx.games.doppelx.play.view import places
from render.backend import pyglet
from render.hud import scale_for
from render.labels import Rect
from render.window import TableWindow

from pyglet.window import mouse  # (after render.backend set pyglet's options)

FONT = "DejaVu Sans"
#: Room the end panel leaves above it and below it (the buttons' row), px.
PANEL_TOP, PANEL_BOTTOM = 12, 52
#: Room the end panel leaves round a HUD panel it makes way for, px.
PANEL_GAP = 8
#: The end panel is a column at the right edge, at most this share of the window's width, and
#: the picture moves left of it (second playtest: at 1920×1080 it covered the board's middle).
COLUMN_SHARE = 0.4
#: How far the column may shrink below the HUD's scale to fit under the last throw's summary;
#: smaller than that, the panel goes in the middle as before.
COLUMN_SHRINK = 0.7
#: The smallest font of the end panel's note (why a close end came out so), points: it wraps
#: onto more lines rather than shrink (one shrunk line was 7 px tall at 800×500).
NOTE_POINTS = 8.0


class EndPanel:
    """The end screen's standings: a title and ``(name, colour hex, chips)`` rows, best first.

    It is laid out for a window size and the HUD panels it must not cover (``avoid``: the
    scoreboard, the last throw's summary, the turn line): in a column at the right edge under
    them (:func:`_in_column`; the window moves the picture left of it), or, where that has no
    room, centred and moved the least way that clears them.
    """

    def __init__(self, title: str, rows: Sequence[tuple[str, str, int]], footer: str, note: str = ""):
        self.title = title
        self.rows = list(rows)
        self.footer = footer
        self.note = note
        self.batch = pyglet.graphics.Batch()
        self._items: list = []
        self._size: tuple | None = None
        #: The panel's box (window px) as last laid out.
        self.rect = Rect(0, 0, 0, 0)

    def result_line(self) -> str:
        """The title and standings on one line (``"Blue wins! 1. Blue 12 · 2. Red 7 · 3. Yellow 0"``),
        for the Esc menu, which the panel is not drawn over."""
        ranks = self._ranks()
        return f"{self.title}  " + " · ".join(
            f"{rank}. {name} {chips}" for rank, (name, _, chips) in zip(ranks, self.rows, strict=True)
        )

    def _ranks(self) -> list[int]:
        """Each row's place (equal chips share one, unless a decider split them)."""
        return places((chips for _, _, chips in self.rows), decided=self.title.endswith("the decider!"))

    def box(self, width: int, height: int, avoid: Sequence[Rect] = ()) -> Rect:
        """The panel's box (window px) in a ``width`` × ``height`` window clear of ``avoid``."""
        if self._size != (width, height, tuple(avoid)):
            self._build(width, height, avoid)
        return self.rect

    def draw(self, width: int, height: int, avoid: Sequence[Rect] = ()) -> None:
        self.box(width, height, avoid)
        self.batch.draw()

    def _build(self, width: int, height: int, avoid: Sequence[Rect] = ()) -> None:
        for item in self._items:
            item.delete()
        self._items = []
        self._size = (width, height, tuple(avoid))
        # laid out at the HUD's scale, shrunk to fit between the top and the buttons' row below;
        # the note wraps at a readable size (at 800×500 one shrunk line was 7 px tall: fifth
        # playtest), so its height is known only once the width is: lay out until it fits
        w0 = 380 if not self.note else 480
        note_h = 20.0 if self.note else 0.0  # the note's height at scale 1 (px)
        for _ in range(4):
            h0 = 78 + 26 * len(self.rows) + 30 + note_h
            s, x0, top, w, h = self._place(w0, h0, width, height, avoid)
            if not self.note:
                break
            probe = self._note_label(w, s)
            need = probe.content_height / s + 6
            probe.delete()
            if need <= note_h + 0.5:
                break
            note_h = need
        row = 26 * s
        self.rect = Rect(x0, top - h, x0 + w, top)
        back = pyglet.graphics.Group(order=20)
        front = pyglet.graphics.Group(order=21)
        add = self._items.append

        def label(text: str, x: float, y: float, size: float, colour, **kw) -> None:
            add(
                pyglet.text.Label(
                    text,
                    x=round(x),  # whole pixels (as the HUD's): a fractional y cut glyph rows
                    y=round(y),
                    font_name=FONT,
                    font_size=max(6.0, size * s),
                    color=colour,
                    batch=self.batch,
                    group=front,
                    **kw,
                )
            )

        add(pyglet.shapes.Rectangle(x0, top - h, w, h, color=(14, 14, 18, 225), batch=self.batch, group=back))
        label(self.title, x0 + w / 2, top - 32 * s, 15, (244, 194, 27, 255), weight="bold", anchor_x="center")
        first = top - 66 * s
        if self.note:  # why a close end came out so, wrapped under the title
            add(self._note_label(w, s, x0 + w / 2, top - 44 * s, self.batch, front))
            first -= note_h * s
        ranks = self._ranks()
        for i, (name, colour, chips) in enumerate(self.rows):
            y = first - row * i
            c = colour.lstrip("#")
            rgb = (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), 255)
            add(  # with a light border, as on the scoreboard: a black die's swatch showed nothing
                pyglet.shapes.BorderedRectangle(  # on the dark panel (eighth playtest)
                    x0 + 24 * s,
                    y - 2 * s,
                    16 * s,
                    16 * s,
                    border=max(1.0, round(1.5 * s)),
                    color=rgb[:3],
                    border_color=(200, 200, 206),
                    batch=self.batch,
                    group=front,
                )
            )
            label(
                f"{ranks[i]}.  {name}",
                x0 + 52 * s,
                y,
                13,
                (236, 236, 236, 255),
                weight="bold" if i == 0 else "normal",
            )
            label(counted(chips, "chip"), x0 + w - 24 * s, y, 13, (244, 194, 27, 255), anchor_x="right")
        label(self.footer, x0 + w / 2, top - h + 16 * s, 10, (170, 170, 176, 255), anchor_x="center")
        _fit(self._items[-1], w - 16 * s)  # the keys' line ran to the panel's edges (second playtest)

    def _place(
        self, w0: float, h0: float, width: int, height: int, avoid: Sequence[Rect]
    ) -> tuple[float, float, float, float, float]:
        """The panel's scale, left edge, top, width and height for ``w0`` × ``h0`` px at scale 1."""
        s = min(scale_for(width, height), (height - PANEL_TOP - PANEL_BOTTOM) / h0, COLUMN_SHARE * width / w0)
        column = _in_column(w0, h0, s, width, height, avoid)
        if column is not None:  # at the right edge: the picture moves left of it (column_edge)
            s, x0, top = column
            return s, x0, top, w0 * s, h0 * s
        # no room there: in the middle, moved the least way that clears the HUD's panels
        w, h = w0 * s, h0 * s
        top = min(height - PANEL_TOP, max(height * 0.56, PANEL_BOTTOM + h))
        x0, top = _clear_of(Rect((width - w) / 2, top - h, (width + w) / 2, top), avoid, width, height)
        return s, x0, top, w, h

    def _note_label(self, w: float, s: float, x: float = 0.0, y: float = 0.0, batch=None, group=None):
        """The note as a label wrapped to the panel's width ``w`` (px) at scale ``s``, centred on
        ``x`` with its top at ``y``."""
        return pyglet.text.Label(
            self.note,
            x=round(x),
            y=round(y),
            batch=batch,
            group=group,
            width=max(40, round(w - 16 * s)),
            multiline=True,
            align="center",
            anchor_x="center",
            anchor_y="top",
            font_name=FONT,
            font_size=max(NOTE_POINTS, 9 * s),
            color=(236, 236, 236, 255),
        )

    def delete(self) -> None:
        for item in self._items:
            item.delete()
        self._items = []


def _fit(label, width: float) -> None:
    """Shrink ``label``'s font (to 70 % at most) until it is ``width`` px wide or less."""
    floor = label.font_size * 0.7
    while label.content_width > width and label.font_size > floor:
        label.font_size = max(floor, label.font_size * 0.92)


def _in_column(
    w0: float, h0: float, s: float, width: int, height: int, avoid: Sequence[Rect]
) -> tuple[float, float, float] | None:
    """The end panel in a column at the window's right edge, under the HUD's panels that reach
    into it (the last throw's summary, the turn line): ``(scale, left edge, top)``, shrunk to
    at most :data:`COLUMN_SHRINK` of ``s`` to fit above the buttons' row; ``None`` if it cannot."""
    margin = 10 * scale_for(width, height)
    k = s
    while k >= s * COLUMN_SHRINK - 1e-9:
        w, h = w0 * k, h0 * k
        x1 = width - margin
        x0 = x1 - w
        top = min(
            [height - PANEL_TOP] + [a.y0 - PANEL_GAP for a in avoid if a.x1 > x0 - PANEL_GAP and a.x0 < x1]
        )
        if top - h >= PANEL_BOTTOM - 1e-6:
            return k, x0, top
        k *= 0.95
    return None


def _clear_of(panel: Rect, avoid: Sequence[Rect], width: int, height: int) -> tuple[float, float]:
    """Where ``panel`` goes (its left edge and top, px): where it is, if it covers nothing of
    ``avoid``; else moved the least way — left, right or down — that clears every box of it and
    keeps it in the window between :data:`PANEL_TOP` and the buttons' row."""
    w, h = panel.x1 - panel.x0, panel.y1 - panel.y0
    g = PANEL_GAP
    spots = [(panel.x0, panel.y1)]
    for a in avoid:
        if panel.overlap(a) > 0:
            spots += [(a.x0 - g - w, panel.y1), (a.x1 + g, panel.y1), (panel.x0, a.y0 - g)]
    spots.sort(key=lambda p: abs(p[0] - panel.x0) + abs(p[1] - panel.y1))
    for x0, top in spots:
        r = Rect(x0, top - h, x0 + w, top)
        inside = (
            r.x0 >= 0 and r.x1 <= width and r.y0 >= PANEL_BOTTOM - 1e-6 and r.y1 <= height - PANEL_TOP + 1e-6
        )
        if inside and all(r.overlap(a) <= 0 for a in avoid):
            return x0, top
    return panel.x0, panel.y1


class PlayWindow(TableWindow):
    """The table window with the application's overlays (same arguments as :class:`TableWindow`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.dialog: NewGameDialog | None = None
        self.panel: EndPanel | None = None

    # --- overlays -------------------------------------------------------------------------
    @property
    def dialog_open(self) -> bool:
        return self.dialog is not None

    @property
    def overlay_open(self) -> bool:
        return bool(self.help or self.show_log or self.menu)

    def open_dialog(
        self,
        setup: GameSetup,
        on_start: Callable[[GameSetup], None],
        on_cancel: Callable[[], None] | None = None,
        *,
        in_progress: bool = False,
    ) -> NewGameDialog:
        """Show the new-game form over the table (``on_cancel`` ``None``: it cannot be cancelled;
        ``in_progress``: a game in progress behind it, which starting ends — the form says so)."""
        self.switch_to()
        self.close_dialog()

        def start(chosen: GameSetup) -> None:
            self.close_dialog()
            on_start(chosen)

        def cancel() -> None:
            self.close_dialog()
            if on_cancel is not None:  # the form offers Cancel only when there is one
                on_cancel()

        self.dialog = NewGameDialog(
            setup,
            start,
            cancel if on_cancel is not None else None,
            lambda: self.dispatch_event("on_close"),
            ends_game=in_progress,
        )
        self.help = False
        return self.dialog

    def close_dialog(self) -> None:
        self.dialog = None

    def show_panel(
        self, title: str, rows: Sequence[tuple[str, str, int]], footer: str, note: str = ""
    ) -> None:
        """Show the end screen's standings (``rows``: name, colour hex, chips; best first; equal
        chips share a place) and ``note``, why a close end came out so, under the title."""
        self.hide_panel()
        self.panel = EndPanel(title, rows, footer, note)

    def hide_panel(self) -> None:
        if self.panel is not None:
            self.panel.delete()
            self.panel = None

    def _panel_shown(self) -> bool:
        """The end panel is drawn now (not behind the form, the help, the throw log or the Esc
        menu: at game over the menu and its quit question must be readable)."""
        return (
            self.panel is not None
            and self.dialog is None
            and not self.help
            and not self.show_log
            and not self.menu
        )

    def overlay_boxes(self) -> list[Rect]:
        """The end panel's box while it is shown: the die and referee labels keep clear of it."""
        if self.panel is None or not self._panel_shown():
            return []
        return [self.panel.box(self.width, self.height, self._panel_avoid())]

    def column_edge(self) -> float | None:
        """The end standings' left edge while they are shown in their column at the right edge
        (the picture moves left of it, as of the throw log's), else the window's own column."""
        if self.panel is not None and self._panel_shown():
            rect = self.panel.box(self.width, self.height, self._panel_avoid())
            if rect.x0 > self.width / 2:
                return rect.x0
        return super().column_edge()

    def _panel_avoid(self) -> list[Rect]:
        """The HUD's panels the end panel makes room for (laid out in this frame already): those
        reaching into the window's upper half — the scoreboard, the last throw's summary, the
        turn line — not the messages at the bottom, which come and go."""
        return [r for r in self.hud.panels if r.y1 > self.height / 2]

    def stance(self) -> tuple[str, float] | None:
        """Where the thrower stands now (wall, m along it); ``None`` before a table is shown."""
        return None if self.aim is None else (self.aim.wall, float(self.aim.along))

    def stand(self, wall: str, along: float) -> None:
        """Put the thrower at ``wall``, ``along`` m from its middle (their seat, or where they stood
        last). Before the first table is shown (``--load`` of a game whose next throw is a
        person's) the stance waits for it: it was dropped, and the hand stood at S (eighteenth
        playtest: Bo, saved at W, came back at S)."""
        if self.aim is None:
            self._pending_stance = (wall, along)
            return
        self.aim.stand(wall, along)
        self.aim.aim_angle = 0.0  # a keyboard aim is the last thrower's: each throw starts straight in
        if self.follow:
            self.camera.face_wall(wall)

    def render(self) -> None:
        super().render()
        width, height = self.width, self.height
        if self.panel is not None and self._panel_shown():
            self.panel.draw(width, height, self._panel_avoid())
        if self.dialog is not None:
            self.dialog.draw(width, height)

    def _hud_state(self):
        state = super()._hud_state()
        if self.dialog is not None:  # the form covers the table and takes the keys: nothing of the
            # table's HUD round it (seventh playtest: its labels and "Enter: go on" showed there)
            state = dataclasses.replace(state, table_covered=True)
        if self.panel is not None:  # the end panel's title says who won: no banner under it
            state = dataclasses.replace(state, banner=False, menu_result=self.panel.result_line())
            if self._panel_shown():  # its standings stand for the scoreboard (fifth playtest: at
                state = dataclasses.replace(state, scoreboard=False)  # 800×500 it hid the box's corner)
        return state

    # --- input while the form is open ------------------------------------------------------
    def on_mouse_press(self, x, y, button, modifiers):
        if self.dialog is not None:
            if button == mouse.LEFT:
                self.dialog.click(x, y, self.width, self.height)
            return
        super().on_mouse_press(x, y, button, modifiers)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        if self.dialog is None:
            super().on_mouse_drag(x, y, dx, dy, buttons, modifiers)

    def on_mouse_release(self, x, y, button, modifiers):
        if self.dialog is None:
            super().on_mouse_release(x, y, button, modifiers)

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        if self.dialog is None:
            super().on_mouse_scroll(x, y, scroll_x, scroll_y)

    def on_key_press(self, symbol, modifiers):
        if self.dialog is not None:
            self.dialog.key(symbol, modifiers)
            return pyglet.event.EVENT_HANDLED
        return super().on_key_press(symbol, modifiers)

    def on_text(self, text):
        if self.dialog is not None:
            self.dialog.text(text)

    def _walk(self, dt: float) -> None:
        if self.dialog is None:
            super()._walk(dt)
