"""The new-game form drawn inside the window: seats, side, spinner, bet cards, seed, target.

:class:`NewGameDialog` edits a copy of a :class:`doppelx.games.doppelx.play.newgame.GameSetup` with the
mouse (every control is a button: the colour swatch cycles colours, the name box takes
typed text, "Person"/"Bot" and the skill toggle, a person's aim (assisted / direct) and
bets (asks me / pass) toggles, − / + change the number of players and
the target — the chips that end the game, the rulebook's 50 or 70 unless set —, the
side, spinner and card buttons select) or the keyboard alone: Tab / Shift+Tab and the arrow
keys move a focus ring from control to control, Space presses the focused one, typing on
a focused name or seed box types into it (Tab while typing a name goes to the next name,
Enter ends the typing, Esc undoes it), and otherwise Enter starts the game and Esc
cancels. It draws itself with pyglet shapes and labels in window pixels over the 3-D
scene; :meth:`NewGameDialog.targets` lists the clickable areas with their actions, so
tests can click them. The bet cards' lines under the seats say what each card pays for,
the field cards (C–F) as D33 has it: a die counts for its single best field.
"""

# ruff: noqa: I001  (imports are ordered on purpose: pyglet is configured (render.backend) before its modules load)

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from doppelx.games.doppelx.play.newgame import CARD_LETTERS, MAX_NAME, SIDES, GameSetup
from doppelx.games.doppelx.play.view import counted
from render.backend import pyglet
from render.hud import label_box, scale_for
from rules.doppelx.bets import load_bet_cards
from rules.doppelx.dice import DiceSet, load_dice
from rules.common.errors import DoppelXError
from rules.doppelx.game import rulebook_target
from rules.common.rng import fresh_seed
from render.hud import wrap_at_dots

from pyglet.window import key  # (after render.backend set pyglet's options)

FONT = "DejaVu Sans"
BACK = (16, 16, 20, 255)
BUTTON = (52, 54, 64, 255)
SELECTED = (92, 96, 118, 255)
TEXT = (236, 236, 236, 255)
DIM = (150, 150, 158, 255)
ACCENT = (244, 194, 27, 255)
ERROR = (255, 110, 100, 255)
#: ``editing`` while the seed is being typed (seats are 0, 1, …).
SEED = -1
#: Longest seed typed into the form (digits).
MAX_SEED_DIGITS = 9
#: The form's size at scale 1 (px).
WIDTH, HEIGHT = 880, 560
#: Under a game in progress: what starting does to it (the controller autosaves it first).
ENDS_NOTE = "Starting ends the game in progress; it is autosaved first (--load it to go on)"
#: The focus ring's colour and width (px at scale 1).
FOCUS, FOCUS_WIDTH = (255, 255, 255, 255), 2.0
#: Arrow keys and the way each moves the focus (x, y; window y grows upwards).
ARROWS = {key.LEFT: (-1, 0), key.RIGHT: (1, 0), key.UP: (0, 1), key.DOWN: (0, -1)}
#: The controls of a player's row besides the name: typing there types the row's name.
ROW_CONTROLS = ("colour", "human", "aim", "bets", "skill")
#: The keyboard hint at the bottom of the form (wrapped at its " · " to fit beside the buttons).
KEYS_HINT = "Keys: Tab or arrows move · Space presses · type on a name · Enter ends typing, then starts"


@dataclass(frozen=True)
class Target:
    """A clickable area (window px, origin bottom left) and what a click does."""

    x: float
    y: float
    w: float
    h: float
    action: tuple

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px <= self.x + self.w and self.y <= py <= self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def _nearest(here: Target, targets: list[Target], direction: tuple[int, int]) -> Target | None:
    """The control nearest to ``here`` in ``direction`` (``None`` if there is none that way):
    the smallest distance along it plus twice the distance across it, so that a control
    straight ahead wins over a nearer one off to the side. Left and right stay in the row:
    only a control beside ``here`` (their heights overlap) is that way — → from the
    target's "+" does not climb to "new seed" in the row above. Up and down go to the
    nearest row with a control over or under ``here`` (their widths overlap) when there is
    one — ↑ from "Start game" goes to the target's "+" just above it, not to the wider
    "new seed" a row further up."""
    hx, hy = here.centre
    dx, dy = direction
    ahead: list[tuple[float, float, Target]] = []
    for t in targets:
        tx, ty = t.centre
        along = (tx - hx) * dx + (ty - hy) * dy
        if t is here or along <= 1.0:
            continue
        if dx and (t.y >= here.y + here.h or t.y + t.h <= here.y):
            continue
        across = abs((tx - hx) * dy) + abs((ty - hy) * dx)
        ahead.append((along, along + 2.0 * across, t))
    if dy:
        above = [a for a in ahead if a[2].x < here.x + here.w and a[2].x + a[2].w > here.x]
        if above:
            row = min(a[0] for a in above)
            ahead = [a for a in above if a[0] <= row + a[2].h / 2]
    return min(ahead, key=lambda a: a[1])[2] if ahead else None


def _scale(width: int, height: int) -> float:
    """The form's size factor in a ``width`` × ``height`` window: the HUD's (1 at 1280 × 800,
    1.35 at 1920 × 1080; :func:`render.hud.scale_for`), never less than 1 where the form fits
    at 1, and never more than fits the window (ninth playtest: at 1920 × 1080 the form stayed
    880 × 560 px, its 9-point text small beside the HUD's)."""
    return min(max(1.0, scale_for(width, height)), (width - 24) / WIDTH, (height - 24) / HEIGHT)


def _rgba(colour: str, alpha: int = 255) -> tuple[int, int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), alpha


class NewGameDialog:
    """The form (create it with the window's GL context current).

    Args:
        setup: the settings to start from (copied; the original is not changed).
        on_start: called with the finished setup when the player starts the game.
        on_cancel: called when the form is closed without starting; ``None``: it cannot
            be cancelled (there is no game behind it) and Esc quits instead.
        on_quit: called when Esc is pressed on a form that cannot be cancelled.
        dice: the dice specs (colours).
        ends_game: a game in progress is behind the form, which starting ends (the form says it
            is autosaved first; over a finished game it says nothing — tenth playtest).
    """

    def __init__(
        self,
        setup: GameSetup,
        on_start: Callable[[GameSetup], None],
        on_cancel: Callable[[], None] | None = None,
        on_quit: Callable[[], None] | None = None,
        dice: DiceSet | None = None,
        *,
        ends_game: bool = False,
    ):
        self.setup = setup.copy()
        #: A game in progress is behind the form: starting ends it (said under the title).
        self.ends_game = ends_game
        self.on_start = on_start
        self.on_cancel = on_cancel
        self.on_quit = on_quit
        self.dice = dice or load_dice()
        self.cards = load_bet_cards()
        self.editing: int | None = None
        #: The control the keyboard is on (its action; ``None``: none yet).
        self.focus: tuple | None = None
        self._fresh = False
        self._eat_space = False  # the Space that pressed a name or seed box is no character
        self._before: str | int = ""  # the name or seed before the typing (Esc brings it back)
        #: The last arrow move: (the control it left, its direction, where it landed); the
        #: opposite arrow from there goes back.
        self._came: tuple[tuple, tuple[int, int], tuple] | None = None
        self.error = ""
        self.batch = pyglet.graphics.Batch()
        self.back = pyglet.graphics.Group(order=10)
        self.mid = pyglet.graphics.Group(order=11)
        self.front = pyglet.graphics.Group(order=12)
        self._items: list = []
        self._targets: list[Target] = []
        self._key: object = None
        self._size = (WIDTH, HEIGHT)  # the window size of the last layout

    # --- input --------------------------------------------------------------------------------
    def targets(self, width: int, height: int) -> list[Target]:
        """The clickable areas for a window of ``width`` × ``height`` px."""
        self._layout(width, height)
        return list(self._targets)

    def text_boxes(self, width: int, height: int) -> list[tuple[float, float, float, float, str]]:
        """Boxes ``(x0, y0, x1, y1, text)`` (window px) of the form's texts for a window of
        ``width`` × ``height`` px (tests check that no text runs over another or a button)."""
        self._layout(width, height)
        return [(*label_box(item), item.text) for item in self._items if isinstance(item, pyglet.text.Label)]

    def frame(self, width: int, height: int) -> tuple[float, float, float, float]:
        """The form's panel ``(x0, y0, x1, y1)`` (window px) in a ``width`` × ``height`` window."""
        s = _scale(width, height)
        x0, y0 = (width - WIDTH * s) / 2, (height - HEIGHT * s) / 2
        return x0, y0, x0 + WIDTH * s, y0 + HEIGHT * s

    def target(self, action: tuple, width: int, height: int) -> Target:
        """The area of ``action`` (``KeyError`` if the form has none now)."""
        for t in self.targets(width, height):
            if t.action == action:
                return t
        raise KeyError(action)

    def click(self, x: float, y: float, width: int, height: int) -> None:
        """A left click at window point ``(x, y)``."""
        self._came = None
        for t in self.targets(width, height):
            if t.contains(x, y):
                self.focus = t.action
                self.act(t.action)
                return
        self.editing = None
        self._key = None

    def move_focus(self, step: int = 1, direction: tuple[int, int] | None = None) -> None:
        """Move the focus to the next control (``step`` 1, Tab), the previous one (−1,
        Shift+Tab) or, with ``direction``, the nearest one that way (an arrow key) — or back
        where the last arrow came from when ``direction`` is its opposite."""
        targets = self.targets(*self._size)  # the form as it stands now (a press may have changed it)
        actions = [t.action for t in targets]
        came, self._came = self._came, None
        if self.focus not in actions:
            self.focus = actions[0 if step > 0 or direction is not None else -1]
        elif direction is None:
            self.focus = actions[(actions.index(self.focus) + step) % len(actions)]
        elif (
            came is not None
            and came[1] == (-direction[0], -direction[1])
            and came[2] == self.focus
            and came[0] in actions
        ):
            # the opposite arrow retraces the last move: ↑ from the target's "+" to the seed box
            # and ↓ back lands on "+", not on the nearer-centred "−" (sixteenth playtest)
            self._came, self.focus = (self.focus, direction, came[0]), came[0]
        else:
            here = targets[actions.index(self.focus)]
            nearest = _nearest(here, targets, direction)
            if nearest is not None:
                self._came, self.focus = (self.focus, direction, nearest.action), nearest.action
        self._key = None

    def act(self, action: tuple) -> None:
        """Do what a control does (see :meth:`targets` for the actions)."""
        s, what = self.setup, action[0]
        self.error = ""
        if what not in ("name", "seedtext"):
            self.editing = None
        if what == "players":
            s.resize(len(s.seats) + action[1], self.dice)
        elif what == "target":
            s.step_target(action[1])
        elif what == "colour":
            s.next_colour(action[1], self.dice)
        elif what == "name":
            self._edit(action[1])
        elif what == "human":
            s.toggle_human(action[1])
        elif what == "skill":
            s.next_skill(action[1])
        elif what == "aim":
            s.next_aim(action[1])
        elif what == "bets":
            s.next_bets(action[1])
        elif what == "board":
            s.board = action[1]
        elif what == "spinner":
            s.spinner = not s.spinner
        elif what == "card":
            if action[1] not in s.cards and len(s.cards) >= 4:
                self.error = "4 cards are in play: click one of them first to take it out"
            s.toggle_card(action[1])
        elif what == "seed":
            s.seed = fresh_seed()
        elif what == "seedtext":
            self._edit(SEED)
        elif what == "start":
            self.start()
        elif what == "cancel" and self.on_cancel is not None:
            self.on_cancel()
        self._key = None

    def start(self) -> None:
        """Start the game if the settings make one; otherwise show why not."""
        self.editing = None
        try:
            self.setup.check(self.dice)
        except DoppelXError as exc:
            self.error = str(exc)
            self._key = None
            return
        self.on_start(self.setup.copy())

    def _edit(self, i: int) -> None:
        """Start typing the name of seat ``i`` (or the seed, :data:`SEED`); the first key replaces it."""
        self.editing = i
        self._fresh = True
        self._before = self.setup.seed if i == SEED else self.setup.seats[i].name  # Esc brings it back
        self._key = None

    def _undo_edit(self) -> None:
        """Esc while typing: the name (or seed) goes back to what it was before the typing."""
        if self.editing == SEED:
            self.setup.seed = int(self._before)
        elif self.editing is not None:
            self.setup.rename(self.editing, str(self._before))
        self.editing = None

    def text(self, text: str) -> None:
        """Typed characters go into the name being edited (or the focused name or seed box, or the
        name of the player whose row has the focus); elsewhere they are refused with a word."""
        if self._eat_space:  # the Space that pressed the box, and its repeats while held
            if not text.strip():
                return
            self._eat_space = False
        if self.editing is None and self.focus is not None and text.strip():
            # typing on a player's row types their name (the thirteenth playtest's "Zed", typed on
            # the colour swatch, went nowhere); typing on a focused box types into it
            if self.focus[0] in ROW_CONTROLS:
                self.focus = ("name", self.focus[1])
            if self.focus[0] in ("name", "seedtext"):
                self.act(self.focus)
            else:
                self.error = (
                    "to type a name or the seed, click it or Tab to it (Space presses the ringed button)"
                )
                return
        if self.editing is None:
            return
        if self.editing == SEED:  # plain digits only; a seed of the form is at most 9 digits
            digits = "".join(ch for ch in text if "0" <= ch <= "9")
            if len(digits) != len(text):
                self.error = "the seed is a whole number: type digits"
            if digits:
                old = "" if self._fresh else str(self.setup.seed)
                self.setup.seed = int((old + digits)[:MAX_SEED_DIGITS])
                self._fresh = False
            self._key = None
            return
        clean = "".join(ch for ch in text if ch.isprintable())
        if clean:
            i = self.editing
            old = "" if self._fresh else self.setup.seats[i].name
            self.setup.rename(i, old + clean)
            if len(old + clean) > MAX_NAME:  # cut: say so, not in silence
                self.error = f"names have at most {MAX_NAME} characters"
            self._fresh = False
            self._key = None

    def key(self, symbol: int, modifiers: int) -> None:
        """A key press while the form is open."""
        self._eat_space = False
        if self.editing == SEED:
            if symbol == key.BACKSPACE:
                rest = "" if self._fresh else str(self.setup.seed)[:-1]
                self.setup.seed = int(rest or "0")
                self._fresh = False
            elif symbol in (key.RETURN, key.ENTER, key.TAB):
                self.editing = None
            elif symbol == key.SPACE:  # no digit: it ends the typing as it began it, without a word
                # (seventeenth playtest: Space on the seed box being typed, then Enter, left
                # "the seed is a whole number: type digits" under the form)
                self.editing, self._eat_space = None, True
            elif symbol == key.ESCAPE:
                self._undo_edit()
            self._key = None
            return
        if self.editing is not None:
            i = self.editing
            if symbol == key.BACKSPACE:
                self.setup.rename(i, "" if self._fresh else self.setup.seats[i].name[:-1])
                self._fresh = False
            elif symbol == key.TAB:
                self._edit((i + (-1 if modifiers & key.MOD_SHIFT else 1)) % len(self.setup.seats))
                self.focus = ("name", self.editing)
            elif symbol in (key.RETURN, key.ENTER):
                self.editing = None
            elif symbol == key.ESCAPE:
                self._undo_edit()
            self._key = None
            return
        if symbol in (key.RETURN, key.ENTER):
            self.start()
        elif symbol == key.ESCAPE:
            if self.on_cancel is not None:
                self.on_cancel()
            elif self.on_quit is not None:
                self.on_quit()
        elif symbol == key.TAB:
            self.move_focus(-1 if modifiers & key.MOD_SHIFT else 1)
        elif symbol in ARROWS:
            self.move_focus(direction=ARROWS[symbol])
        elif symbol == key.SPACE and self.focus is not None:
            self._eat_space = self.focus[0] in ("name", "seedtext")  # its on_text(" ") follows
            self.act(self.focus)

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, width: int, height: int) -> None:
        self._layout(width, height)
        self.batch.draw()

    def _layout(self, width: int, height: int) -> None:
        self._size = (width, height)
        k = (width, height, repr(self.setup), self.editing, self.error, self.focus)
        if k == self._key:
            return
        self._key = k
        for item in self._items:
            item.delete()
        self._items, self._targets = [], []
        s = _scale(width, height)
        w, h = WIDTH * s, HEIGHT * s
        x0, y0 = (width - w) / 2, (height - h) / 2
        top = y0 + h
        self._rect(0, 0, width, height, (0, 0, 0, 110), pyglet.graphics.Group(order=8))
        self._rect(x0, y0, w, h, BACK, pyglet.graphics.Group(order=9))
        self._label("New game", x0 + 24 * s, top - 40 * s, 20 * s, ACCENT, bold=True)
        if self.ends_game:  # a game in progress behind the form (ninth playtest: nothing said it ends)
            self._label(ENDS_NOTE, x0 + 190 * s, top - 36 * s, 10 * s, DIM)
        self._seats(x0, top, s)
        self._table_settings(x0, top, s)
        self._cards_text(x0, y0, s)
        if self.error:
            self._label(self.error, x0 + 24 * s, y0 + 62 * s, 11 * s, ERROR)
        bw, bh = 180 * s, 34 * s
        self._button(
            ("start",),
            "Start game  [Enter]",
            x0 + w - 24 * s - bw,
            y0 + 16 * s,
            bw,
            bh,
            12 * s,
            colour=(196, 150, 20, 255),
            text_colour=(20, 20, 20, 255),
        )
        buttons_x = x0 + w - 24 * s - bw
        if self.on_cancel is not None:
            buttons_x = x0 + w - 36 * s - 2 * bw
            self._button(("cancel",), "Cancel  [Esc]", buttons_x, y0 + 16 * s, bw, bh, 12 * s)
        self._wrapped(KEYS_HINT, x0 + 24 * s, y0 + 16 * s + bh / 2, buttons_x - 12 * s - (x0 + 24 * s), 9 * s)
        self._focus_ring(s)

    def _wrapped(self, text: str, x: float, middle: float, room: float, size: float) -> None:
        """``text`` in as few lines as fit ``room`` px (broken at its " · "), centred on ``middle``."""
        lines = wrap_at_dots(text, room, max(6.0, size))
        step = size * 1.9  # (a point is 4/3 px: a line of text is about 1.6 × its size tall)
        y = middle + (len(lines) - 1) * step / 2 - size * 0.45
        for line in lines:
            self._label(line, x, y, size, DIM)
            y -= step

    def _focus_ring(self, s: float) -> None:
        """Outline the focused control (if it is on the form now; else the focus is dropped)."""
        found = [t for t in self._targets if t.action == self.focus]
        if not found:
            self.focus = None
            return
        t, d = found[0], max(1.0, FOCUS_WIDTH * s)
        for x, y, w, h in (
            (t.x - 2 * d, t.y - 2 * d, t.w + 4 * d, d),
            (t.x - 2 * d, t.y + t.h + d, t.w + 4 * d, d),
            (t.x - 2 * d, t.y - d, d, t.h + 2 * d),
            (t.x + t.w + d, t.y - d, d, t.h + 2 * d),
        ):
            self._rect(x, y, w, h, FOCUS, self.front)

    def _seats(self, x0: float, top: float, s: float) -> None:
        setup = self.setup
        y = top - 84 * s
        self._label("Players", x0 + 24 * s, y + 8 * s, 13 * s, TEXT, bold=True)
        self._button(("players", -1), "−", x0 + 120 * s, y, 30 * s, 28 * s, 14 * s)
        self._label(
            str(len(setup.seats)), x0 + 170 * s, y + 8 * s, 14 * s, ACCENT, bold=True, anchor_x="center"
        )
        self._button(("players", 1), "+", x0 + 190 * s, y, 30 * s, 28 * s, 14 * s)
        y -= 30 * s
        for text, dx in (
            ("Die", 24),
            ("Name (click or type)", 62),
            ("Played by", 242),
            ("Skill / aim", 334),
            ("Bets", 430),
        ):
            self._label(text, x0 + dx * s, y + 8 * s, 9 * s, DIM)
        row = 33 * s
        for i, seat in enumerate(setup.seats):
            y -= row
            die = self.dice[seat.colour]
            self._rect(
                x0 + 22 * s, y + 1 * s, 32 * s, 28 * s, (130, 130, 138, 255)
            )  # a frame: dark dice show
            self._button(
                ("colour", i), "", x0 + 24 * s, y + 3 * s, 28 * s, 24 * s, 10 * s, colour=_rgba(die.colour)
            )
            self._text_box(("name", i), seat.name, self.editing == i, x0 + 62 * s, y, 172 * s, s)
            self._button(
                ("human", i),
                "Person" if seat.human else "Bot",
                x0 + 242 * s,
                y,
                84 * s,
                30 * s,
                11 * s,
                colour=(40, 92, 60, 255) if seat.human else BUTTON,
            )
            if seat.human:  # how the person's flick is aimed, and whether they are asked to bet
                self._button(("aim", i), f"{seat.aim} aim", x0 + 334 * s, y, 88 * s, 30 * s, 10 * s)
                # "pass" read as "never bets" (ninth playtest): the person bets by clicking a card
                bets = "asks me" if seat.bets == "ask" else "click card"
                self._button(("bets", i), bets, x0 + 430 * s, y, 88 * s, 30 * s, 10 * s)
            else:
                self._button(("skill", i), seat.skill, x0 + 334 * s, y, 88 * s, 30 * s, 11 * s)
                self._label("—", x0 + 474 * s, y + 9 * s, 11 * s, DIM, anchor_x="center")

    def _table_settings(self, x0: float, top: float, s: float) -> None:
        setup = self.setup
        x = x0 + 530 * s
        y = top - 84 * s
        self._label("Playfield side", x, y + 8 * s, 13 * s, TEXT, bold=True)
        y -= 38 * s
        for j, side in enumerate(SIDES):
            self._button(
                ("board", side),
                side,
                x + j * 78 * s,
                y,
                70 * s,
                30 * s,
                12 * s,
                colour=SELECTED if setup.board == side else BUTTON,
                text_colour=ACCENT if setup.board == side else TEXT,
            )
        y -= 46 * s
        self._label("Spinner", x, y + 8 * s, 13 * s, TEXT, bold=True)
        if self._has_spinner():
            self._button(
                ("spinner",),
                "on" if setup.spinner else "off",
                x + 110 * s,
                y,
                70 * s,
                30 * s,
                12 * s,
                colour=SELECTED if setup.spinner else BUTTON,
            )
        else:
            self._label("none on this side", x + 110 * s, y + 8 * s, 11 * s, DIM)
        y -= 46 * s
        self._label(f"Bet cards ({len(setup.cards)} of 4)", x, y + 8 * s, 13 * s, TEXT, bold=True)
        for j, letter in enumerate(CARD_LETTERS):
            card = self.cards[letter]
            on = letter in setup.cards
            bx = x + (j % 4) * 78 * s
            by = y - 40 * s - (j // 4) * 38 * s
            if on:
                self._rect(bx - 3 * s, by - 3 * s, 76 * s, 36 * s, ACCENT)
            self._button(
                ("card", letter),
                f"{letter}  {card.payout}",
                bx,
                by,
                70 * s,
                30 * s,
                12 * s,
                colour=_rgba(card.colour) if on else (30, 30, 34, 255),
                text_colour=(255, 255, 255, 255) if on else DIM,
            )
        y -= 140 * s
        self._label("Seed", x, y + 8 * s, 13 * s, TEXT, bold=True)
        self._text_box(("seedtext",), str(setup.seed), self.editing == SEED, x + 100 * s, y, 92 * s, s)
        self._button(("seed",), "new seed", x + 200 * s, y, 100 * s, 30 * s, 11 * s)
        y -= 42 * s
        self._label("Target", x, y + 8 * s, 13 * s, TEXT, bold=True)
        self._button(("target", -1), "−", x + 100 * s, y, 30 * s, 28 * s, 14 * s)
        self._label(
            str(setup.game_target), x + 152 * s, y + 8 * s, 14 * s, ACCENT, bold=True, anchor_x="center"
        )
        self._button(("target", 1), "+", x + 174 * s, y, 30 * s, 28 * s, 14 * s)
        rulebook = rulebook_target(len(setup.seats))
        note = "the rulebook's" if setup.target is None else f"rulebook: {rulebook}"
        self._label(note, x + 214 * s, y + 9 * s, 10 * s, DIM)

    def _cards_text(self, x0: float, y0: float, s: float) -> None:
        y = y0 + 150 * s
        for letter in self.setup.cards:
            card = self.cards[letter]
            self._label(
                f"{letter} ({counted(card.payout, 'chip')}): {card.text}",
                x0 + 24 * s,
                y,
                10 * s,
                DIM,
            )
            y -= 18 * s

    def _has_spinner(self) -> bool:
        from rules.doppelx.board_file import load_board

        try:
            return load_board(self.setup.board).spinner is not None
        except DoppelXError:
            return False

    # --- pieces ---------------------------------------------------------------------------------
    def _rect(self, x, y, w, h, colour, group=None):
        r = pyglet.shapes.Rectangle(x, y, w, h, color=colour, batch=self.batch, group=group or self.back)
        self._items.append(r)
        return r

    def _label(self, text, x, y, size, colour=TEXT, bold=False, anchor_x="left"):
        lab = pyglet.text.Label(
            text,
            x=round(x),  # whole pixels: a glyph placed on a half pixel lost its lower part
            y=round(y),
            font_name=FONT,
            font_size=max(6.0, size),
            color=colour,
            weight="bold" if bold else "normal",
            anchor_x=anchor_x,
            anchor_y="baseline",
            batch=self.batch,
            group=self.front,
        )
        self._items.append(lab)
        return lab

    def _text_box(self, action: tuple, text: str, typing: bool, x, y, w, s: float) -> None:
        """A box that takes typed text (a name, the seed): lighter and with a caret while typed into."""
        caret = "|" if typing and not self._fresh else ""
        colour = (70, 74, 96, 255) if typing else (36, 38, 46, 255)
        self._button(action, text + caret, x, y, w, 30 * s, 12 * s, colour=colour, align="left")

    def _button(
        self,
        action: tuple,
        text: str,
        x,
        y,
        w,
        h,
        size,
        colour=BUTTON,
        text_colour=TEXT,
        align: str = "center",
    ):
        self._rect(x, y, w, h, colour, self.mid)
        if text:
            tx = x + w / 2 if align == "center" else x + 8
            self._label(text, tx, y + h / 2 - size * 0.45, size, text_colour, anchor_x=align)
        self._targets.append(Target(x, y, w, h, action))
