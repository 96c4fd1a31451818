"""The 2-D overlay: scoreboard, whose turn, messages, banner, floating texts, buttons, help.

Drawn with pyglet text and shapes in window pixels after the 3-D scene. Static parts are
rebuilt only when their content changes; anchored texts (floating chips, referee labels)
are moved every frame to where the camera projects their board points.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.backend import pyglet
from render.snapshot import Snapshot

FONT = "DejaVu Sans"
PANEL = (18, 18, 22, 200)
TEXT = (236, 236, 236, 255)
DIM = (170, 170, 176, 255)
ACCENT = (244, 194, 27, 255)

#: The keyboard help: (keys, what they do).
HELP_LINES: tuple[tuple[str, str], ...] = (
    ("Left drag", "flick the dice when it is your throw: drag towards the box, let go while moving"),
    ("Left / Right, A / D", "walk along the box (hold; Shift: faster); round the corners to the next side"),
    ("Q / E", "go round to the previous / next side of the box"),
    ("Click the table", "stand at the nearest side of the box, level with where you clicked"),
    ("Ctrl + wheel, PgUp / PgDn", "release height above the rim"),
    ("Shift + wheel, [ / ]", "spin (forward roll +, back spin -)"),
    ("Click a bet card", "bet on it (when you may bet); Enter: no bet this time"),
    ("Right drag", "orbit the camera; Middle drag or Shift + right drag: pan"),
    ("Wheel", "zoom"),
    ("Tab", "referee view: straight down, footprints and counted fields outlined"),
    ("Home", "reset the camera"),
    ("R", "replay the last throw"),
    ("Ctrl+S / Ctrl+O / Ctrl+N", "save / load / new game"),
    ("M", "sound on / off"),
    ("F12", "save a screenshot (PNG)"),
    ("H or F1", "this help; Esc closes it"),
)


@dataclass(frozen=True)
class HudState:
    """What the HUD shows besides the snapshot: window size, aim line, hint, toggles."""

    width: int
    height: int
    aim_text: str = ""
    hint: str = ""
    referee: bool = False
    sound: bool = True
    help: bool = False


@dataclass(frozen=True)
class Anchor:
    """A text pinned to a window point (px): floating chips or a referee label."""

    text: str
    x: float
    y: float
    colour: str = "#ffffff"
    size: float = 16.0
    boxed: bool = False


def _rgba(colour: str, alpha: int = 255) -> tuple[int, int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), alpha


class Hud:
    """The overlay's pyglet objects (create with the window's context current)."""

    BUTTONS = (("referee", "Referee view", "Tab"), ("sound", "Sound", "M"), ("help", "Help", "H"))

    def __init__(self):
        self.batch = pyglet.graphics.Batch()
        self.back = pyglet.graphics.Group(order=0)
        self.front = pyglet.graphics.Group(order=1)
        self.anchor_batch = pyglet.graphics.Batch()
        self._key: object = None
        self._items: list = []
        self._anchor_key: object = None
        self._anchors: list = []
        self.buttons: dict[str, tuple[float, float, float, float]] = {}

    # --- building -------------------------------------------------------------------------
    def update(self, snap: Snapshot | None, state: HudState, anchors: list[Anchor]) -> None:
        """Bring the overlay up to date with ``snap``, ``state`` and the anchored texts."""
        key = (
            None
            if snap is None
            else (snap.scoreboard, snap.turn, snap.message, snap.banner, snap.input, id(snap.table)),
            state,
        )
        if key != self._key:
            self._key = key
            self._rebuild(snap, state)
        self._place_anchors(anchors)

    def _label(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        colour=TEXT,
        bold: bool = False,
        anchor_x: str = "left",
        anchor_y: str = "baseline",
        **kw,
    ) -> pyglet.text.Label:
        label = pyglet.text.Label(
            text,
            x=x,
            y=y,
            font_name=FONT,
            font_size=size,
            color=colour,
            weight="bold" if bold else "normal",
            anchor_x=anchor_x,
            anchor_y=anchor_y,
            batch=self.batch,
            group=self.front,
            **kw,
        )
        self._items.append(label)
        return label

    def _rect(self, x: float, y: float, w: float, h: float, colour=PANEL):
        r = pyglet.shapes.Rectangle(x, y, w, h, color=colour, batch=self.batch, group=self.back)
        self._items.append(r)
        return r

    def _rebuild(self, snap: Snapshot | None, st: HudState) -> None:
        for item in self._items:
            item.delete()
        self._items = []
        w, h = st.width, st.height
        if snap is None:
            self._label("Waiting for the game…", w / 2, h / 2, 18, anchor_x="center")
        else:
            self._scoreboard(snap, h)
            if snap.turn:
                lab = self._label(snap.turn, w / 2, h - 30, 16, bold=True, anchor_x="center")
                self._rect(w / 2 - lab.content_width / 2 - 14, h - 40, lab.content_width + 28, 32)
            lines = [t for t in (snap.message, st.hint) if t]
            for i, text in enumerate(reversed(lines)):
                lab = self._label(
                    text, w / 2, 22 + 30 * i, 13, TEXT if text == snap.message else ACCENT, anchor_x="center"
                )
                self._rect(w / 2 - lab.content_width / 2 - 12, 14 + 30 * i, lab.content_width + 24, 26)
            if snap.banner:
                size = max(28, min(64, w / 18))
                self._label(snap.banner, w / 2 + 3, h * 0.62 - 3, size, (0, 0, 0, 170), True, "center")
                self._label(snap.banner, w / 2, h * 0.62, size, ACCENT, True, "center")
        if st.aim_text:
            lab = self._label(st.aim_text, 16, 54, 12, DIM)
            self._rect(8, 46, lab.content_width + 16, 24)
        self._buttons(st)
        if st.help:
            self._help(w, h)

    def _scoreboard(self, snap: Snapshot, h: int) -> None:
        if not snap.scoreboard:
            return
        row = 26
        top = h - 16
        width = 250
        self._rect(10, top - 34 - row * len(snap.scoreboard), width, 34 + row * len(snap.scoreboard) + 6)
        self._label("Chips", 22, top - 22, 13, DIM, True)
        for i, line in enumerate(snap.scoreboard):
            y = top - 34 - row * (i + 1) + 8
            colour = line.colour
            if not colour.startswith("#") and colour in snap.table.dice.dice:
                colour = snap.table.dice[colour].colour
            hexcol = colour if colour.startswith("#") else "#888888"
            if line.active:
                self._rect(12, y - 6, width - 4, row, (255, 255, 255, 38))
            self._rect(22, y - 1, 14, 14, _rgba(hexcol))
            name = ("▶ " if line.active else "") + line.name
            self._label(name, 44, y, 12, TEXT, line.active)
            self._label(str(line.chips), width - 6, y, 12, ACCENT, True, anchor_x="right")
            if line.note:
                self._label(line.note, 150, y, 9, DIM)

    def _buttons(self, st: HudState) -> None:
        self.buttons = {}
        x = st.width - 12
        states = {"referee": st.referee, "sound": st.sound, "help": st.help}
        for name, text, key in reversed(self.BUTTONS):
            caption = f"{text}{' on' if name == 'sound' and st.sound else ' off' if name == 'sound' else ''} [{key}]"
            lab = self._label(caption, 0, 22, 11, TEXT if states[name] else DIM)
            bw = lab.content_width + 20
            x -= bw
            lab.x = x + 10
            self._rect(x, 14, bw, 26, (60, 60, 70, 220) if states[name] else PANEL)
            self.buttons[name] = (x, 14, bw, 26)
            x -= 8

    def _help(self, w: int, h: int) -> None:
        line_h = 22
        box_h = line_h * len(HELP_LINES) + 70
        box_w = min(w - 40, 900)
        x0, y0 = (w - box_w) / 2, (h - box_h) / 2
        self._rect(x0, y0, box_w, box_h, (12, 12, 16, 235))
        self._label("Controls", x0 + 20, y0 + box_h - 34, 16, ACCENT, True)
        for i, (keys, what) in enumerate(HELP_LINES):
            y = y0 + box_h - 64 - i * line_h
            self._label(keys, x0 + 20, y, 11, TEXT, True)
            self._label(what, x0 + 250, y, 11, DIM)

    def _place_anchors(self, anchors: list[Anchor]) -> None:
        key = tuple((a.text, a.colour, a.size, a.boxed) for a in anchors)
        if key != self._anchor_key:
            for item in self._anchors:
                for part in item:
                    part.delete()
            self._anchors = []
            for a in anchors:
                shadow = pyglet.text.Label(
                    a.text,
                    font_name=FONT,
                    font_size=a.size,
                    weight="bold",
                    color=(0, 0, 0, 200),
                    anchor_x="center",
                    anchor_y="center",
                    batch=self.anchor_batch,
                    group=self.back,
                )
                label = pyglet.text.Label(
                    a.text,
                    font_name=FONT,
                    font_size=a.size,
                    weight="bold",
                    color=_rgba(a.colour),
                    anchor_x="center",
                    anchor_y="center",
                    batch=self.anchor_batch,
                    group=self.front,
                )
                parts = [shadow, label]
                if a.boxed:
                    parts.insert(
                        0,
                        pyglet.shapes.Rectangle(
                            0,
                            0,
                            label.content_width + 10,
                            label.content_height + 4,
                            color=(15, 15, 18, 190),
                            batch=self.anchor_batch,
                            group=pyglet.graphics.Group(order=-1),
                        ),
                    )
                self._anchors.append(parts)
            self._anchor_key = key
        for a, parts in zip(anchors, self._anchors):
            *box, shadow, label = parts
            label.position = (a.x, a.y, 0)
            shadow.position = (a.x + 1.5, a.y - 1.5, 0)
            if box:
                box[0].position = (a.x - box[0].width / 2, a.y - box[0].height / 2)

    # --- use -----------------------------------------------------------------------------
    def draw(self) -> None:
        self.anchor_batch.draw()
        self.batch.draw()

    def button_at(self, x: float, y: float) -> str | None:
        """Name of the HUD button under window point ``(x, y)``, or ``None``."""
        for name, (bx, by, bw, bh) in self.buttons.items():
            if bx <= x <= bx + bw and by <= y <= by + bh:
                return name
        return None
