"""The 2-D overlay: scoreboard, whose turn, messages, banner, die labels, buttons, help, throw log.

Drawn with pyglet text and shapes in window pixels after the 3-D scene. Static parts are
rebuilt only when their content changes; anchored texts (chips over the dice, referee
labels) are laid out every frame where the camera projects their board points.

Layout from the window size (800×500 up to 2560×1440 and beyond, 3–8 players): every size
scales with ``min(width/1280, height/800)``; the scoreboard sits top left (its rows shrink
to fit 8 players), the turn line and the busy/activity line top centre between the
scoreboard and the result panel (top right), and the bottom of the window is stacked in
bands — buttons with the aim or power line, the message, the hint — so no text is ever
drawn over another: a text too wide for its place gets a smaller font. Every text's box is
kept in :attr:`Hud.text_boxes` (tests check them pairwise). Die labels are white on dark
plates with a swatch of the die's colour, placed by :func:`render.labels.place` clear of
each other, the dice, the printed field labels, the HUD's own panels and whatever the
application draws over the HUD (:meth:`Hud.place_labels` takes those boxes after
:meth:`Hud.layout`), with a leader line when moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import shapely
from shapely.geometry import LineString, Polygon
from shapely.ops import unary_union

from render.backend import pyglet
from render.labels import Rect, place
from render.snapshot import Snapshot

FONT = "DejaVu Sans"
PANEL = (18, 18, 22, 200)
TEXT = (236, 236, 236, 255)
DIM = (170, 170, 176, 255)
ACCENT = (244, 194, 27, 255)
#: The outline of a bet card a click bets on now: a green no card prints (card A's printed
#: border is the accent's yellow and read as "you may bet here": seventh playtest), over a dark
#: stroke that sets it off from any card and from the table.
BET_OUTLINE = (64, 235, 120, 255)
BET_OUTLINE_UNDER = (8, 40, 16, 230)
#: ... and a veil of it over the card: a thin outline read weaker than card A's bold printed
#: border (eighth playtest).
BET_VEIL = (64, 235, 120, 70)
#: The scoreboard's income column (chips a lying die brings every throw).
INCOME = (140, 214, 150, 255)
#: The power bar's width: this share of the window's, at least :data:`POWER_BAR_MIN` × the
#: HUD's scale (px) — 260 px at 1920 × 1080 read as small (fifth playtest).
POWER_BAR_SHARE, POWER_BAR_MIN = 0.3, 260

#: The keyboard help: (keys, what they do).
HELP_LINES: tuple[tuple[str, str], ...] = (
    ("Left drag", "flick the dice when it is your throw: drag towards the box, let go while moving"),
    ("Space (hold, let go)", "or throw with the keys: held longer, harder; comma / period turn the aim"),
    ("Left / Right, A / D", "walk along the box (hold; Shift: faster); round the corners to the next side"),
    ("Q / E", "go round to the previous / next side of the box"),
    ("Click the table", "stand at the nearest side of the box, level with where you clicked"),
    ("Ctrl + wheel, PgUp / PgDn", "release height above the rim"),
    ("Shift + wheel, [ / ]", "spin (forward roll +, back spin -)"),
    (
        "Click a bet card, or its letter twice",
        "bet on it (when you may bet); N (or Backspace): no bet this time",
    ),
    (
        "Point at a bet card",
        "the countdown waits; the form's Bets: asks me, or click card (never asked: click to bet)",
    ),
    ("Right drag", "orbit the camera; Middle drag or Shift + right drag: pan"),
    ("Wheel", "zoom"),
    ("Tab", "referee view: straight down, footprints and counted fields outlined"),
    ("Home", "reset the camera"),
    ("R", "replay the last throw in slow motion (1/3 speed)"),
    ("L", "the throw log: the last throws, who got what"),
    ("Ctrl+S / Ctrl+O / Ctrl+N", "save / load / new game"),
    ("M", "sound on / off"),
    ("F12", "save a screenshot (PNG)"),
    ("H or F1", "this help and the rules card; Esc closes it"),
    ("Esc", "the menu: resume, save, new game, quit (it asks once)"),
)

#: The rules card's line on the end, as the rulebook has it (D36).
RULEBOOK_END = "First to 50 chips wins (70 with 6–8 players)."


#: The rules card shown beside the controls (H): how DoppelX scores, in short.
RULES_CARD: tuple[str, ...] = (
    "Each throw, the active player throws their own die and the white die from outside the box.",
    "Every die lying on the playfield scores for its owner after every throw — dice left lying "
    "score again and again, even for players who did not throw.",
    "The white die scores for the player who threw it.",
    "A die counts for the best field its footprint touches (yellow 3x > red 2x > blue 1x > X > -1): "
    "1, 2 or 3 pips times the field; an X face brings nothing; a -1 field costs one chip.",
    "Doppel X: two or more dice show X — each owner of an X gets 10 chips, nothing else is paid, "
    "and the X dice come back.",
    "Dice in a hole or off the box go back to their owners.",
    "Before another player's throw, put your die (if it is in your hand) on a bet card; the card "
    "pays when it comes true (it says how much).",
    RULEBOOK_END,
    "Tab shows the referee's view: which field each die counts for.",
)


def rules_line(line: str, target: int) -> str:
    """A line of :data:`RULES_CARD` for a game that ends at ``target`` chips (0: not known)."""
    if line == RULEBOOK_END and target and target not in (50, 70):
        return f"First to {target} chips wins (this game's mark; the rulebook's is 50, 70 with 6–8 players)."
    if line == RULEBOOK_END and target:
        return f"First to {target} chips wins (the rulebook: 50 with 3–5 players, 70 with 6–8)."
    return line


@dataclass(frozen=True)
class HudState:
    """What the HUD shows besides the snapshot: window size, aim/power line, hint, toggles, busy text.

    Attributes:
        sound_device: a sound device exists (else the sound button says so).
        busy: a generic busy/thinking indicator text (e.g. ``"Starting the game…"`` or a bot's
            ``"thinking…"``); empty for none.
        log: show the throw log panel.
        power: the throw's power 0…1 while a flick is dragged or Space is held (``None``: neither).
        power_mark: the power from which the throw is a hard one, marked on the bar (0: none).
        power_note: said after the power's per cent, e.g. ``"aim +15°"`` (the aim line the bar
            stands in for while Space is held).
        buttons: show the toggle buttons bottom right (hidden while a form covers the table,
            where they could not work).
        highlights: outlines (window px, closed polygons) of the bet cards a click bets on now.
        highlight_cutouts: where dice are seen under those cards (window px, closed polygons):
            the outlines' veil and strokes leave them out (fourteenth playtest: the green outline
            ran across the face of the die under card B while the bet was being chosen).
        menu: the Esc menu: ``""`` closed, ``"menu"`` open, ``"quit"`` asking whether to quit.
        saved_to: where quitting saves the game (``""``: nothing to save), named in the menu.
        menu_result: a finished game's result, the menu's first line (the end standings it
            covers: third playtest, Esc at game over hid who won).
        scoreboard: draw the scoreboard (off while the end standings, which list the same
            players and chips, are shown: at 800 × 500 it covered the box moved aside for them).
        keep_clear: a window box (px) the banner keeps clear of when a margin beside it has room
            for it (the box in the referee view, whose far fields the banner hid: seventh
            playtest); ``None``: the banner hangs under the turn lines.
        table_covered: an application's form covers the table and takes the keys: none of the
            HUD's table panels, messages, card outlines or die labels are drawn (the seventh
            playtest saw the table's labels and "Enter: go on" round the new-game form, the
            eighth the scoreboard's edges at 800 × 500).
    """

    width: int
    height: int
    aim_text: str = ""
    hint: str = ""
    referee: bool = False
    sound: bool = True
    help: bool = False
    sound_device: bool = True
    busy: str = ""
    log: bool = False
    power: float | None = None
    power_mark: float = 0.0
    power_note: str = ""
    buttons: bool = True
    banner: bool = True
    highlights: tuple[tuple[tuple[float, float], ...], ...] = ()
    highlight_cutouts: tuple[tuple[tuple[float, float], ...], ...] = ()
    menu: str = ""
    saved_to: str = ""
    menu_result: str = ""
    scoreboard: bool = True
    keep_clear: Rect | None = None
    table_covered: bool = False


@dataclass(frozen=True)
class Anchor:
    """A label pinned to a window point (px): chips over a die or a referee label.

    ``swatch`` is the die's colour, shown as a square on the label's plate.
    """

    text: str
    x: float
    y: float
    colour: str = "#ffffff"
    size: float = 16.0
    boxed: bool = False


def _rgba(colour: str, alpha: int = 255) -> tuple[int, int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), alpha


def scale_for(width: int, height: int) -> float:
    """The HUD's size factor for a window of ``width`` × ``height`` px (1 at 1280×800)."""
    return max(0.6, min(2.0, min(width / 1280, height / 800)))


class Hud:
    """The overlay's pyglet objects (create with the window's context current)."""

    BUTTONS = (("referee", "Referee view", "Tab"), ("sound", "Sound", "M"), ("help", "Help", "H"))

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.back = pyglet.graphics.Group(order=0)
        self.front = pyglet.graphics.Group(order=1)
        self.modal_back = pyglet.graphics.Group(order=2)
        self.modal_front = pyglet.graphics.Group(order=3)
        self.anchor_batch = pyglet.graphics.Batch()
        self.plate_group = pyglet.graphics.Group(order=0)
        self.plate_text = pyglet.graphics.Group(order=1)
        self._key: object = None
        self._items: list = []
        self._anchor_key: object = None
        self._anchors: list = []
        self.buttons: dict[str, tuple[float, float, float, float]] = {}
        #: Boxes (x0, y0, x1, y1, text) of the texts drawn beside the 3-D view (not the modal panels).
        self.text_boxes: list[tuple[float, float, float, float, str]] = []
        #: Plates of the die labels placed in the last frame (window px).
        self.plates: list[Rect] = []
        #: The HUD's panels (window px): die labels keep off them.
        self.panels: list[Rect] = []
        #: The outer box of each panel of the table view by name (scoreboard, summary, turn,
        #: activity, bottom bands, buttons, throw log): none overlaps another (tests check them).
        self.blocks: dict[str, Rect] = {}
        #: Texts of the modal panel shown (help and rules card, or the throw log).
        self.modal_texts: list[str] = []
        self.obstacles: list[Rect] = []
        self._modal = False

    # --- building -------------------------------------------------------------------------
    def update(
        self, snap: Snapshot | None, state: HudState, anchors: list[Anchor], obstacles: Sequence[Rect] = ()
    ) -> None:
        """Bring the overlay up to date with ``snap``, ``state`` and the anchored labels:
        :meth:`layout`, then :meth:`place_labels`.

        ``obstacles``: window boxes the die labels must keep clear of (dice, printed labels).
        """
        self.layout(snap, state)
        self.place_labels(anchors, obstacles, state)

    def layout(self, snap: Snapshot | None, state: HudState) -> None:
        """Lay out the static parts (scoreboard, turn line, summary, bottom bands, modal panels)
        for ``snap`` and ``state``: :attr:`panels` and :attr:`text_boxes` are then up to date."""
        key = (
            None
            if snap is None
            else (
                snap.scoreboard,
                snap.turn,
                snap.message,
                snap.banner,
                snap.input,
                id(snap.table),
                snap.summary,
                snap.log,
                snap.activity,
                snap.target,
            ),
            state,
        )
        if key != self._key:
            self._key = key
            self._rebuild(snap, state)

    def place_labels(self, anchors: list[Anchor], obstacles: Sequence[Rect], state: HudState) -> None:
        """Place the die labels (:attr:`plates`) clear of each other, ``obstacles`` and :attr:`panels`."""
        self._place_anchors(anchors, list(obstacles), state)

    def _label(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        colour=TEXT,
        bold: bool = False,
        anchor_x: Literal["left", "center", "right"] = "left",
        anchor_y: Literal["top", "bottom", "center", "baseline"] = "baseline",
        max_width: float | None = None,
        **kw,
    ) -> pyglet.text.Label:
        label = pyglet.text.Label(
            text,
            x=round(x),  # whole pixels: at 800 x 500 a glyph at a fractional y lost its top or
            y=round(y),  # bottom row ("=" read as "–"; fourth playtest)
            font_name=FONT,
            font_size=size,
            color=colour,
            weight="bold" if bold else "normal",
            anchor_x=anchor_x,
            anchor_y=anchor_y,
            batch=self.batch,
            group=self.modal_front if self._modal else self.front,
            **kw,
        )
        if max_width is not None and not kw.get("multiline"):
            _fit(label, max_width, max(7.0, size * 0.7))
        self._items.append(label)
        if self._modal:
            self.modal_texts.append(label.text)
        else:
            self.text_boxes.append((*label_box(label), label.text))
        return label

    def _banner_place(
        self, text: str, st: HudState, usual: tuple[float, float, float], bottom: float, s: float
    ) -> tuple[float, float, float]:
        """Where the banner goes: ``usual`` (centre x, top y, font size) unless it would cover
        ``st.keep_clear`` there; then in the margin beside that box (left or right, under the
        scoreboard or the last throw's panel, above the bottom bands from ``bottom`` up) where it
        is largest, at no less than 16 pt × the HUD's scale. Where neither margin has room the
        usual place stays (a banner half over the box beats none)."""
        x, top, size = usual
        clear = st.keep_clear
        if clear is None:
            return usual
        probe = pyglet.text.Label(text, font_name=FONT, font_size=size, weight="bold")
        width, height = probe.content_width, probe.content_height
        probe.delete()
        if Rect(x - width / 2, top - height, x + width / 2, top).overlap(clear) <= 0:
            return usual
        m = 10 * s
        best: tuple[float, float, float] | None = None
        for side, under in (("left", "scoreboard"), ("right", "summary")):
            x0, x1 = (m, clear.x0 - m) if side == "left" else (clear.x1 + m, st.width - m)
            ceiling = self.blocks[under].y0 - m if under in self.blocks else st.height - m
            fit = size * min(1.0, (x1 - x0) / max(width, 1.0))
            if fit < 16 * s or ceiling - bottom < height * fit / size:
                continue
            if best is None or fit > best[2]:
                best = ((x0 + x1) / 2, ceiling, fit)
        return best if best is not None else usual

    def _rect(self, x: float, y: float, w: float, h: float, colour=PANEL):
        if not self._modal:
            self.panels.append(Rect(x, y, x + w, y + h))
        group = self.modal_back if self._modal else self.back
        r = pyglet.shapes.Rectangle(x, y, w, h, color=colour, batch=self.batch, group=group)
        self._items.append(r)
        return r

    def _rebuild(self, snap: Snapshot | None, st: HudState) -> None:
        for item in self._items:
            item.delete()
        self._items = []
        self.text_boxes = []
        self.panels = []
        self.blocks = {}
        self.modal_texts = []
        self._modal = False
        w, h = st.width, st.height
        s = scale_for(w, h)
        m = 10 * s
        if st.table_covered:  # nothing of the table's round a form over it (eighth playtest: at
            self.buttons = {}  # 800 × 500 the scoreboard's and the summary's edges peeked out)
            return  # (also before any table is shown: the toggle buttons were drawn beside the form)
        if snap is None:
            self._label(st.busy or "Loading…", w / 2, h / 2, 18 * s, anchor_x="center", max_width=w - 2 * m)
            self._buttons(st, s)
            return
        left = (self._scoreboard(snap, w, h, s) if st.scoreboard else 0.0) + m
        right = w - m
        log_top = h - m  # the throw log's column begins under the last throw's panel
        if snap.summary:
            right = self._summary(snap.summary, w, h, s, left, snap.summary_title) - m
            log_top = self.blocks["summary"].y0 - m
        show_log = st.log and not (st.menu or st.help)
        if show_log:  # the turn line keeps clear of the log's column too
            right = min(right, w - m - self.log_width(w, s) - m)
        centre, room = (left + right) / 2, max(40.0, right - left)
        y = h - m - 20 * s
        if snap.turn:
            lab = self._label(
                snap.turn, centre, y, 15 * s, bold=True, anchor_x="center", max_width=room - 24 * s
            )
            self._rect(centre - lab.content_width / 2 - 12 * s, y - 9 * s, lab.content_width + 24 * s, 30 * s)
            self.blocks["turn"] = self.panels[-1]
            y -= 30 * s
        if snap.activity:
            lab = self._label(
                snap.activity, centre, y - 4 * s, 12 * s, ACCENT, True, "center", max_width=room - 20 * s
            )
            self._rect(
                centre - lab.content_width / 2 - 10 * s, y - 11 * s, lab.content_width + 20 * s, 24 * s
            )
            self.blocks["activity"] = self.panels[-1]
        top_lines = [self.blocks[k].y0 for k in ("turn", "activity") if k in self.blocks]
        banner_top = min(top_lines, default=h - m) - 6 * s  # the banner hangs under the top lines
        if st.busy:  # the busy indicator: a plate in the middle of the window
            lab = self._label(
                st.busy, w / 2, h / 2, 18 * s, ACCENT, True, "center", "center", max_width=w * 0.8
            )
            pw, ph = lab.content_width + 48 * s, lab.content_height + 28 * s
            self._rect(w / 2 - pw / 2, h / 2 - ph / 2, pw, ph, (12, 12, 16, 235))
        # the bottom: bands from the bottom edge up
        band = 28 * s
        x_buttons = self._buttons(st, s)
        if st.power is not None:
            bar_w = min(max(POWER_BAR_MIN * s, POWER_BAR_SHARE * w), x_buttons - 2 * m)
            self._power(st.power, st.power_mark, m, m, bar_w, band - 2 * s, s, st.power_note)
            self.blocks["power"] = Rect(m, m, m + bar_w, m + band - 2 * s)
        elif st.aim_text:
            lab = self._label(st.aim_text, m + 8 * s, m + 9 * s, 11 * s, DIM, max_width=x_buttons - 3 * m)
            self._rect(m, m, lab.content_width + 16 * s, band - 2 * s)
            self.blocks["aim"] = self.panels[-1]
        # the game's message names its keys ("Enter: go on"); under the Esc menu, whose keys are
        # others ("Quit [Q / Enter]"), it would contradict them (fourth playtest)
        lines = [("" if st.menu else snap.message, TEXT), (st.hint, ACCENT)]
        yb = m + band + 4 * s
        for text, colour in lines:
            if not text:
                continue
            lab = self._label(
                text, w / 2, yb + 8 * s, 12 * s, colour, anchor_x="center", max_width=w - 2 * m - 24 * s
            )
            self._rect(w / 2 - lab.content_width / 2 - 12 * s, yb, lab.content_width + 24 * s, band - 2 * s)
            self.blocks["message" if colour is TEXT else "hint"] = self.panels[-1]
            yb += band
        for outline in st.highlights:  # the cards a click bets on now
            # (its own names: ``yb`` is the bottom bands' top, which the throw log stops at)
            self._highlight(outline, st.highlight_cutouts, s)
        if snap.banner and st.banner and not (st.help or st.log):  # no banner through a modal panel
            # under the turn lines, between the scoreboard and the summary: above the box's far
            # rim, not over the playfield (the third playtest: at 62 % of the height and up to 64
            # px it hid the far half of the table); beside the box where it would cover it
            size = max(16 * s, min(36 * s, room / 7))
            bx, by, size = self._banner_place(snap.banner, st, (centre, banner_top, size), yb + m, s)
            banner = self._label(snap.banner, bx, by, size, ACCENT, True, "center", "top", max_width=room)
            self.panels.append(Rect(*label_box(banner)))  # die labels keep clear of the banner
            self.blocks["banner"] = self.panels[-1]
            shadow = pyglet.text.Label(
                snap.banner,
                x=round(bx + 2),
                y=round(by - 2),
                font_name=FONT,
                font_size=self._items[-1].font_size,
                color=(0, 0, 0, 170),
                weight="bold",
                anchor_x="center",
                anchor_y="top",
                batch=self.batch,
                group=self.back,
            )
            self._items.append(shadow)
        self._modal = True
        if st.menu:
            self._menu(st, w, h, s)
        elif st.help:
            self._help(w, h, s, snap.target if snap is not None else 0)
        elif st.log:
            # between the last throw's panel and the bottom bands (buttons, message, hint)
            self._log(snap.log, w, h, s, log_top, max(yb, m + 26 * s + m))
        self._modal = False

    #: The Esc menu's buttons: (name, caption).
    MENU: tuple[tuple[str, str], ...] = (
        ("menu:resume", "Resume  [Esc]"),
        ("menu:save", "Save  [S]"),
        ("menu:new", "New game  [N]"),
        ("menu:quit", "Quit  [Q]"),
    )
    #: The question before quitting: (name, caption).
    ASK_QUIT: tuple[tuple[str, str], ...] = (
        ("menu:quit-yes", "Quit  [Q / Enter]"),
        ("menu:quit-no", "Stay  [Esc]"),
    )

    def _menu(self, st: HudState, w: int, h: int, s: float) -> None:
        """The Esc menu (or, ``st.menu == "quit"``, the one question before quitting) in the middle."""
        font = 12 * s
        bw, bh, gap = 260 * s, 34 * s, 10 * s
        if st.menu == "quit":
            title, items = "Quit DoppelX?", self.ASK_QUIT
            lead = "The game is saved to" if st.saved_to else "There is no game in progress to save."
        else:  # no Save without a game in progress (sixth playtest: offered at game over)
            title = "Menu"
            items = tuple(i for i in self.MENU if st.saved_to or i[0] != "menu:save")
            lead = (
                "Quitting saves the game to"
                if st.saved_to
                else "Quitting saves nothing: no game in progress."
            )
        note = (lead, st.saved_to) if st.saved_to else (lead,)  # the autosave's path on a line of its own
        box_w = min(w - 20 * s, max(bw + 40 * s, 720 * s))
        # the result on as many lines as it needs, broken between places (it was cut at 800 x 500)
        results = wrap_at_dots(st.menu_result, (box_w - 20 * s) * 0.92, font) if st.menu_result else []
        result = 20 * s * len(results) + 4 * s * bool(results)
        box_h = 70 * s + result + len(items) * (bh + gap) + 20 * s + len(note) * 18 * s
        x0, y0 = (w - box_w) / 2, (h - box_h) / 2
        self._rect(x0, y0, box_w, box_h, (12, 12, 16, 245))
        top = y0 + box_h
        self._label(title, w / 2, top - 34 * s, font * 1.4, ACCENT, True, "center")
        for k, line in enumerate(results):
            self._label(
                line, w / 2, top - 58 * s - 20 * s * k, font, TEXT, True, "center", max_width=box_w - 20 * s
            )
        y = top - 60 * s - result - bh
        for name, caption in items:
            self._rect((w - bw) / 2, y, bw, bh, (60, 60, 70, 240))
            self._label(caption, w / 2, y + bh / 2 - font * 0.45, font, TEXT, anchor_x="center")
            self.buttons[name] = ((w - bw) / 2, y, bw, bh)
            y -= bh + gap
        for k, line in enumerate(note):
            y_line = y0 + 14 * s + (len(note) - 1 - k) * 18 * s
            self._label(line, w / 2, y_line, 10 * s, DIM, anchor_x="center", max_width=box_w - 20 * s)

    def _scoreboard(self, snap: Snapshot, w: int, h: int, s: float) -> float:
        """Draw the scoreboard top left; returns its right edge (px)."""
        if not snap.scoreboard:
            return 0.0
        n = len(snap.scoreboard)
        m = 10 * s
        width = min(290 * s, w * 0.34)
        head = 30 * s
        row = min(26 * s, (h * 0.62 - head) / n)
        font = max(7.0, min(12 * s, row * 0.46))
        top = h - m
        self._rect(m, top - head - row * n - 6 * s, width, head + row * n + 6 * s)
        self.blocks["scoreboard"] = self.panels[-1]
        self._label(
            f"Chips  (to {snap.target})" if snap.target else "Chips",
            m + 12 * s,
            top - 20 * s,
            12 * s,
            DIM,
            True,
        )
        for i, line in enumerate(snap.scoreboard):
            y = top - head - row * (i + 1) + row * 0.3
            colour = line.colour
            if not colour.startswith("#") and colour in snap.table.dice.dice:
                colour = snap.table.dice[colour].colour
            hexcol = colour if colour.startswith("#") else "#888888"
            if line.active:
                self._rect(m + 2, y - row * 0.3, width - 4, row, (255, 255, 255, 38))
            sw = font * 1.1
            self._rect(m + 12 * s - 1, y - 2, sw + 2, sw + 2, (200, 200, 206, 255))  # (a black die shows too)
            self._rect(m + 12 * s, y - 1, sw, sw, _rgba(hexcol))
            chips = self._label(str(line.chips), m + width - 8 * s, y, font, ACCENT, True, anchor_x="right")
            x_name = m + 12 * s + sw + 8 * s
            right = chips.x - chips.content_width - 6 * s
            if line.income is not None:  # what the die lying on the board brings every throw
                pay = self._label(f"{line.income:+d}/throw", right, y, font * 0.78, INCOME, anchor_x="right")
                right -= pay.content_width + 6 * s
            if line.betting or line.note:
                text, tint = ("may bet", ACCENT) if line.betting else (line.note, DIM)
                note = self._label(text, right, y, font * 0.78, tint, anchor_x="right")
                right -= note.content_width + 6 * s
            name = ("▶ " if line.active else "◆ " if line.betting else "") + line.name
            self._label(
                name, x_name, y, font, TEXT, line.active or line.betting, max_width=right - 2 * s - x_name
            )
        return m + width

    def _highlight(
        self,
        outline: tuple[tuple[float, float], ...],
        cutouts: tuple[tuple[tuple[float, float], ...], ...],
        s: float,
    ) -> None:
        """A bet card a click bets on now: a veil over it and its outline, dark under green, both
        leaving out the ``cutouts`` (dice seen under the card)."""
        veil, strokes = highlight_parts(outline, cutouts)
        for tri in veil:
            self._items.append(pyglet.shapes.Polygon(*tri, color=BET_VEIL, batch=self.batch, group=self.back))
        for colour, thickness in ((BET_OUTLINE_UNDER, max(6.0, 9 * s)), (BET_OUTLINE, max(3.0, 5 * s))):
            for (xa, ya), (xc, yc) in strokes:
                line = pyglet.shapes.Line(
                    xa, ya, xc, yc, thickness=thickness, color=colour, batch=self.batch, group=self.back
                )
                self._items.append(line)

    def _summary(
        self, lines: tuple[str, ...], w: int, h: int, s: float, left: float, title: str = ""
    ) -> float:
        """The last throw's result top right under ``title`` (whose throw it is; "Last throw" if
        none is given); returns its left edge (px)."""
        m = 10 * s
        font = max(7.0, 11 * s)  # (the smallest size the HUD's texts shrink to)
        width = min(340 * s, max(120.0, (w - left) * 0.45))
        room = width - 20 * s
        # a line too wide for the panel is broken at its " · " (at 800 × 500 they were cut with "…")
        rows = [(part, text) for text in lines for part in wrap_at_dots(text, room - 2, font)]
        row = font * 1.75
        top = h - m
        x0 = w - m - width
        self._rect(x0, top - row * (len(rows) + 1) - 6 * s, width, row * (len(rows) + 1) + 6 * s)
        self.blocks["summary"] = self.panels[-1]
        self._label(title or "Last throw", x0 + 10 * s, top - row + 4 * s, font, DIM, True, max_width=room)
        for i, (part, text) in enumerate(rows):
            colour = ACCENT if text == "Doppel X!" else TEXT
            self._label(part, x0 + 10 * s, top - row * (i + 2) + 4 * s, font, colour, max_width=room)
        return x0

    def _power(
        self, power: float, mark: float, x: float, y: float, w: float, h: float, s: float, note: str = ""
    ) -> None:
        """The throw's power bar while a flick is dragged or Space held: the power in per cent
        (and ``note``, e.g. the aim's turn), and with a ``mark`` the hard throws' part of the bar
        tinted, its label "hard" once the power reaches it."""
        self._rect(x, y, w, h)
        p = max(0.0, min(1.0, power))
        hard = 0.0 < mark <= p
        words = "Hard" if hard else "Power"
        width = max(text_width(t, 10 * s) for t in ("Power", "Hard", "100 %")) + 2 * s  # bold "Hard"
        tail = max(width, text_width(f"100 % · {note}", 10 * s)) if note else width
        self._label(
            words, x + 8 * s, y + h / 2, 10 * s, ACCENT if hard else DIM, bold=hard, anchor_y="center"
        )
        bx = x + 16 * s + width
        bw = max(10.0, w - (bx - x) - 16 * s - tail)
        self._rect(bx, y + h * 0.3, bw, h * 0.4, (60, 60, 70, 255))
        if 0.0 < mark < 1.0:  # the hard throws' part, tinted, and its edge
            self._rect(bx + bw * mark, y + h * 0.3, bw * (1.0 - mark), h * 0.4, (96, 70, 40, 255))
        colour = (90, 200, 90, 255) if p < 0.85 else (244, 194, 27, 255) if p < 1.0 else (230, 80, 60, 255)
        self._rect(bx, y + h * 0.3, bw * p, h * 0.4, colour)
        if 0.0 < mark < 1.0:
            self._rect(bx + bw * mark - 1 * s, y + h * 0.15, 2 * s, h * 0.7, (240, 240, 240, 255))
        words = f"{round(100 * p)} %" + (f" · {note}" if note else "")
        self._label(words, bx + bw + 8 * s, y + h / 2, 10 * s, TEXT, anchor_y="center")

    def _buttons(self, st: HudState, s: float) -> float:
        """The toggle buttons bottom right; returns their left edge (px)."""
        self.buttons = {}
        m = 10 * s
        x = st.width - m
        if not st.buttons:
            return x
        states = {"referee": st.referee, "sound": st.sound and st.sound_device, "help": st.help}
        for name, text, key in reversed(self.BUTTONS):
            if name == "sound":
                state = "no device" if not st.sound_device else "on" if st.sound else "off"
                caption = f"{text} {state} [{key}]"
            else:
                caption = f"{text} [{key}]"
            lab = self._label(caption, 0, m + 9 * s, 10 * s, TEXT if states[name] else DIM)
            bw = lab.content_width + 18 * s
            x -= bw
            lab.x = round(x + 9 * s)
            self.text_boxes[-1] = (*label_box(lab), caption)
            self._rect(x, m, bw, 26 * s, (60, 60, 70, 220) if states[name] else PANEL)
            self.buttons[name] = (x, m, bw, 26 * s)
            x -= 6 * s
        self.blocks["buttons"] = Rect(x + 6 * s, m, st.width - m, m + 26 * s)
        return x

    def _help(self, w: int, h: int, s: float, target: int = 0) -> None:
        """The controls and the rules card, side by side (one above the other in a narrow window);
        the card names this game's ``target`` where it differs from the rulebook's."""
        m = 16 * s
        box_w, box_h = w - 2 * m, h - 2 * m
        x0, y0 = m, m
        self._rect(x0, y0, box_w, box_h, (12, 12, 16, 240))
        keys = [(f"{k}  ", what) for k, what in HELP_LINES]
        rules = [("• ", rules_line(line, target)) for line in RULES_CARD]
        wide = w >= 1000
        col_w = (box_w - 3 * m) / 2 if wide else box_w - 2 * m
        for size in (12 * s, 11 * s, 10 * s, 9 * s, 8 * s, 7 * s, 6.5):
            docs = [self._doc("Controls", keys, size), self._doc("How DoppelX scores", rules, size)]
            # pyglet annotates the width as int, but lays text out in floats: a fractional width is fine
            layouts = [
                pyglet.text.layout.TextLayout(d, width=col_w, multiline=True)  # type: ignore[arg-type]
                for d in docs
            ]
            heights = [lay.content_height for lay in layouts]
            for lay in layouts:
                lay.delete()
            need = max(heights) if wide else sum(heights) + m
            if need <= box_h - 2 * m:
                break
        top = y0 + box_h - m
        for i, doc in enumerate(docs):
            x = x0 + m + (i * (col_w + m) if wide else 0)
            y = top if wide or i == 0 else top - heights[0] - m
            lay = pyglet.text.layout.TextLayout(
                doc,
                x=x,
                y=y,
                width=col_w,  # type: ignore[arg-type]  # (a fractional width: see above)
                multiline=True,
                anchor_y="top",
                batch=self.batch,
                group=self.modal_front,
            )
            self._items.append(lay)
            self.modal_texts.append(doc.text)

    def _doc(self, title: str, lines: list[tuple[str, str]], size: float):
        """A document: the title, then one line per ``(lead, text)``, the lead bright and bold."""
        doc = pyglet.text.document.FormattedDocument()
        base = {"font_name": FONT, "font_size": size, "line_spacing": size * 1.7}
        doc.insert_text(
            0, title + "\u2028", {**base, "color": ACCENT, "font_size": size * 1.25, "weight": "bold"}
        )
        for lead, text in lines:
            doc.insert_text(len(doc.text), lead, {**base, "color": TEXT, "weight": "bold"})
            doc.insert_text(len(doc.text), text + "\u2028", {**base, "color": DIM, "weight": "normal"})
        return doc

    @staticmethod
    def log_width(w: int, s: float) -> float:
        """The throw log column's width (px)."""
        return min(w * 0.3, 440 * s)

    def _log(self, lines: tuple[str, ...], w: int, h: int, s: float, top: float, bottom: float) -> None:
        """The throw log: the last throws, newest first, each with its dice, bets and changes,
        in a column at the right edge (the box in the middle of the window stays in view),
        from ``top`` (under the last throw's panel) down to ``bottom`` (above the bottom bands);
        an entry is broken at its " · " to fit, and the oldest that do not fit are left out."""
        m = 10 * s
        font = 10 * s
        row = font * 1.75
        box_w = self.log_width(w, s)
        x0 = w - m - box_w
        room = box_w - 2 * m
        self._label("Throw log  (L closes)", x0 + m, top - row, font * 1.2, ACCENT, True)
        y = top - row * 2.3
        entries = list(reversed(lines)) or ["No throws yet"]
        indent = 12 * s  # an entry's later lines: measured with their indent (they ran past it)
        for entry in entries:  # the newest first
            wrapped = wrap_at_dots(entry, room - indent, font)
            if y - row * (len(wrapped) - 1) < bottom + row:
                break
            for k, text in enumerate(wrapped):
                self._label(
                    text,
                    x0 + m + (indent if k else 0),
                    y,
                    font,
                    TEXT if not k else DIM,
                    max_width=room - indent if k else room,
                )
                y -= row
            y -= row * 0.35
        y = max(y, bottom)
        self._rect(x0, y, box_w, top - y, (12, 12, 16, 235))
        self.blocks["log"] = Rect(x0, y, x0 + box_w, top)

    # --- die labels -------------------------------------------------------------------------
    def _place_anchors(self, anchors: list[Anchor], obstacles: list[Rect], st: HudState) -> None:
        s = scale_for(st.width, st.height)
        key = (tuple((a.text, a.colour, a.size, a.boxed) for a in anchors), s)
        if key != self._anchor_key:
            for item in self._anchors:
                for part in item[:4]:
                    part.delete()
            self._anchors = []
            for a in anchors:
                size = a.size * s
                label = pyglet.text.Label(
                    a.text,
                    font_name=FONT,
                    font_size=size,
                    weight="bold",
                    color=TEXT,
                    anchor_x="left",
                    anchor_y="center",
                    batch=self.anchor_batch,
                    group=self.plate_text,
                )
                sw = size * 0.9
                pad = size * 0.35
                pw = label.content_width + sw + 3 * pad
                ph = max(label.content_height, sw) + pad
                plate = pyglet.shapes.Rectangle(
                    0, 0, pw, ph, color=(14, 14, 18, 225), batch=self.anchor_batch, group=self.plate_group
                )
                swatch = pyglet.shapes.BorderedRectangle(
                    0,
                    0,
                    sw,
                    sw,
                    border=max(1.0, sw * 0.12),
                    color=_rgba(a.colour)[:3],
                    border_color=(200, 200, 206),
                    batch=self.anchor_batch,
                    group=self.plate_text,
                )
                leader = pyglet.shapes.Line(
                    0,
                    0,
                    0,
                    0,
                    thickness=max(1.0, 1.5 * s),
                    color=(14, 14, 18, 220),
                    batch=self.anchor_batch,
                    group=self.plate_group,
                )
                self._anchors.append((plate, swatch, label, leader, pw, ph, sw, pad))
            self._anchor_key = key
        if not anchors:
            self.plates = []
            return
        gap = 18 * s
        placed = place(
            [(a.x, a.y) for a in anchors],
            [(p[4], p[5]) for p in self._anchors],
            obstacles + self.panels,
            Rect(0, 0, st.width, st.height),
            gap,
        )
        self.plates = [p.rect for p in placed]
        self.obstacles = obstacles
        for a, parts, spot in zip(anchors, self._anchors, placed):
            plate, swatch, label, leader, pw, ph, sw, pad = parts
            r = spot.rect
            plate.position = (r.x0, r.y0)
            swatch.position = (r.x0 + pad, r.y0 + (ph - sw) / 2)
            label.position = (round(r.x0 + 2 * pad + sw), round((r.y0 + r.y1) / 2), 0)
            if spot.leader is None:
                leader.visible = False
            else:
                leader.visible = True
                leader.x, leader.y = spot.leader[0], spot.leader[1]
                leader.x2, leader.y2 = spot.leader[2], spot.leader[3]

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


def wrap_at_dots(
    text: str, room: float, size: float, seps: tuple[str, ...] = (" · ", ", ", " ")
) -> list[str]:
    """``text`` in lines no wider than ``room`` px at ``size`` pt, broken at its " · ", a piece
    still too wide at its ", " (the log's "→ Ann +3, Bo +2, …", the comma kept), and then
    between words; a single word too wide stays whole (the label then shrinks or cuts it)."""
    sep, rest = seps[0], seps[1:]
    parts = text.split(sep)
    lines = [parts[0]]
    for part in parts[1:]:
        joined = f"{lines[-1]}{sep}{part}"
        if text_width(joined, size) <= room:
            lines[-1] = joined
        else:
            lines.append(part)
    if sep == ", ":  # (the comma stays at the end of a line broken there)
        lines = [line + "," for line in lines[:-1]] + lines[-1:]
    if not rest:
        return lines
    return [
        piece
        for line in lines
        for piece in (wrap_at_dots(line, room, size, rest) if text_width(line, size) > room else [line])
    ]


def text_width(text: str, size: float) -> float:
    """The width (px) of ``text`` in one line at ``size`` pt."""
    probe = pyglet.text.Label(text, font_name=FONT, font_size=size)
    width = probe.content_width
    probe.delete()
    return width


def _fit(label, max_width: float, floor: float) -> None:
    """Make a one-line label at most ``max_width`` px wide: a smaller font down to ``floor`` pt,
    then the text cut with "…" (only a text that could never fit, e.g. a very long name)."""
    while label.content_width > max_width and label.font_size > floor:
        label.font_size = max(floor, label.font_size * 0.92)
    text = label.text
    while label.content_width > max_width and len(text) > 1:
        text = text[:-1]
        label.text = text.rstrip() + "…"


def label_box(label) -> tuple[float, float, float, float]:
    """The window box (x0, y0, x1, y1) of a one-line label."""
    w, h = label.content_width, label.content_height
    x = label.x - {"left": 0.0, "center": w / 2, "right": w}[label.anchor_x]
    descent = h * 0.22
    y0 = {"baseline": label.y - descent, "bottom": label.y, "center": label.y - h / 2, "top": label.y - h}[
        label.anchor_y
    ]
    return x, y0, x + w, y0 + h


def highlight_parts(
    outline: tuple[tuple[float, float], ...], cutouts: tuple[tuple[tuple[float, float], ...], ...]
) -> tuple[list[tuple[tuple[float, float], ...]], list[tuple[tuple[float, float], tuple[float, float]]]]:
    """A card's highlight as drawn: the veil's triangles and the outline's segments (window px),
    the parts inside ``cutouts`` left out. Without cutouts over it: the outline itself and its
    edges."""
    edges = list(zip(outline, outline[1:] + outline[:1]))
    card = Polygon(outline)
    holes = unary_union([Polygon(c) for c in cutouts if len(c) >= 3]) if cutouts else None
    if holes is None or holes.is_empty or not card.intersects(holes):
        return [outline], edges
    veil = card.difference(holes)
    triangles = [
        tuple((float(x), float(y)) for x, y in tri.exterior.coords[:-1])
        for tri in shapely.constrained_delaunay_triangles(veil).geoms
        if tri.area > 0.5
    ]
    strokes: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for a, b in edges:
        kept = LineString([a, b]).difference(holes)
        for piece in getattr(kept, "geoms", [kept]):
            if not piece.is_empty and piece.length > 0.5:
                (x0, y0), (x1, y1) = piece.coords[0], piece.coords[-1]
                strokes.append(((float(x0), float(y0)), (float(x1), float(y1))))
    return triangles, strokes
