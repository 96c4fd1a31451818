"""Input → intents and view changes: the mouse and keyboard handlers of the window.

A mixin of :class:`render.window.TableWindow`: a left drag in a throw becomes a
:class:`~render.intents.ThrowIntent` (through :meth:`render.aim.ThrowAim.flick`), and so
does Space held and let go (:meth:`render.aim.ThrowAim.charged`: the longer held, the
harder; comma and period turn its direction); while betting, a card's letter key pressed
twice bets on it as a click on the card does (the first press asks; a click, any other key
or the end of the betting takes the question back, off the screen too; N or Backspace
answers "no bet", never Enter, which ends the hold on a throw's result; A and D walk only
when they are no card in play) — a drag wherever
it begins: over the box, on its rim, or on the table (a drag that begins on the table first
puts the thrower at the nearest wall, as a click there does) — timed by the input events'
own timestamps (:meth:`render.window.TableWindow.input_time`); a click
on a bet card a :class:`~render.intents.BetIntent`, keys become
:class:`~render.intents.CommandIntent` s; the rest moves the camera, walks the thrower
round the box or toggles the referee view, help and sound. Nothing here decides whether
an intent is allowed: the window only sends what the snapshot's ``input`` asks for.
"""

# ruff: noqa: I001  (imports are ordered on purpose: pyglet is configured (render.backend) before its modules load)

from __future__ import annotations

import datetime
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from render.aim import charge_power
from render.backend import pyglet
from render.intents import BetIntent, Command, CommandIntent
from render.card_places import card_near
from render.snapshot import InputMode
from rules.common.errors import DoppelXError

import pyglet.window  # (after render.backend set the options)
from pyglet.window import key, mouse

if TYPE_CHECKING:
    from collections.abc import Callable

    from render.aim import ThrowAim
    from render.audio import Clatter
    from render.camera import Camera
    from render.hud import Hud
    from render.intents import Intent
    from render.snapshot import Snapshot

#: Walking speed along the box (m/s) while an arrow key is held; Shift: 3×.
WALK_SPEED = 0.12
#: A press and release closer than this (px, |dx| + |dy|) is a click, not a flick.
CLICK_PX = 6
#: How far , and . turn a keyboard throw's direction per press (rad).
AIM_STEP = math.radians(5)
#: For this long (s) after a bet question appears, its answers (a card's letter, Enter, a click
#: on a card) are not taken: they were meant for the question before (one that passed by itself
#: as the key went down, a throw's result that Enter was to end) — a reader needs longer than
#: this to see that the question changed. The key is dropped with a word, never carried over.
PROMPT_GRACE = 0.5
#: What the window says when it drops such an answer.
PROMPT_CHANGED = (
    "a new bet question just appeared: that key answered nothing, press it again to answer this one"
)
#: ... and to a click (the eighth playtest's click read "that key answered nothing").
PROMPT_CHANGED_CLICK = (
    "a new bet question just appeared: that click answered nothing, click again to answer this one"
)
#: The keys that answer a bet question with "no bet" (N for *no*; not Enter, which ends the hold
#: on a throw's result: an Enter meant for the result must never pass the question after it).
PASS_KEYS = (key.N, key.BACKSPACE)
#: A click this far (m, seen from above) beside a bet card a click bets on now is taken for it.
CARD_CLICK_REACH = 0.012
#: What the window says to Enter while a bet question is open.
ENTER_ON_BET = "Enter goes on from a result; to bet on nothing this time press N (or let it pass)"


def bet_question(letter: str) -> str:
    """What the window asks when a card's letter is pressed once while betting."""
    return f"bet on card {letter}? Press {letter} again (any other key: no)"


class Controls:
    """Event handlers mixed into the window (which provides camera, aim, hud, keys, emit, say)."""

    if TYPE_CHECKING:
        # What the handlers use of :class:`render.window.TableWindow` (and its pyglet window).
        # Declared for the type checker only: at run time the window's own members are used.
        width: int
        camera: Camera
        hud: Hud
        aim: ThrowAim | None
        keys: key.KeyStateHandler
        clatter: Clatter
        sound_device: bool
        follow: bool
        referee: bool
        help: bool
        show_log: bool
        menu: str
        screenshot_dir: Path
        _current: Snapshot | None
        _drag: str | None
        _flick: list[tuple[float, float, float]]
        _press: tuple[float, float] | None
        _stance: tuple[str, float] | None
        _button_click: tuple[str, float, float] | None
        _charge_start: float | None
        _bet_armed: str | None
        _pointer: tuple[float, float] | None
        _prompt_since: float
        hint: str

        def get_framebuffer_size(self) -> tuple[int, int]: ...

        clock: Callable[[], float]

        def input_time(self) -> float: ...
        def emit(self, intent: Intent) -> None: ...
        def say(self, hint: str, seconds: float = 3.0) -> None: ...
        def save_screenshot(self, path: str | Path) -> Path: ...
        def on_close(self) -> object: ...

    # --- input: mouse ---------------------------------------------------------------------
    def _plane_point(self, x: float, y: float, z: float) -> np.ndarray | None:
        width, height = self.get_framebuffer_size()
        s = width / max(self.width, 1)
        return self.camera.on_plane(x * s, y * s, width, height, z)

    def on_mouse_press(self, x, y, button, modifiers):
        self._pointer = (x, y)
        self.disarm_bet()  # a click answers "bet on card A?" with no: a card clicked bets on its own
        button_name = self.hud.button_at(x, y)
        if self.menu and button_name is not None and not button_name.startswith("menu:"):
            button_name = None  # behind the menu: only its own buttons answer
        self._button_click = None
        if button_name is not None and button == mouse.LEFT:
            throwing = self._current is not None and self._current.input is InputMode.THROW
            if not throwing or self.menu or self.help or self.show_log:
                self._toggle(button_name)
                return
            # while a throw is awaited a button answers on its release, if the mouse stayed put:
            # a flick begun low down over "Referee view [Tab]" switched the view and threw nothing
            # (seventeenth playtest, twice at 1280 × 800); dragged on, it is the flick it looks like
            self._button_click = (button_name, x, y)
        if self.menu:  # the menu is modal: a click beside its buttons resumes the game
            if button == mouse.LEFT:
                self.menu = ""
            return
        if self.help or self.show_log:  # an overlay is modal: a click closes it, and does nothing else
            if button == mouse.LEFT:
                self.help = self.show_log = False
            return
        current = self._current
        mode = current.input if current is not None else InputMode.NONE
        # "pass unless I click a card": while watching, or while another person throws (hot seat:
        # the click on an outlined card began the thrower's flick instead — sixth playtest)
        watching_bet = (
            mode in (InputMode.NONE, InputMode.THROW) and current is not None and bool(current.bettable)
        )
        card = self._card_at(x, y) if button == mouse.LEFT else None
        self._card_click = None
        if (
            mode is not InputMode.BET
            and card is not None
            and current is not None
            and card not in current.bettable
            and current.card_note
        ):
            # a click on a card that bets nothing now says why, on its release (seventh playtest: in
            # a throw it read "too slow for a throw", watching it said nothing); a drag from it is
            # still a flick, or turns the camera
            self._card_click = (x, y)
        if button == mouse.LEFT and watching_bet and current is not None:
            # a hair beside an outlined card is meant for it (sixth playtest: such a click stood
            # the thrower at another wall of the box)
            if card is not None and card in current.bettable:
                self.emit(BetIntent(card))
                return
        if button == mouse.LEFT and mode is InputMode.BET and current is not None:
            if self._prompt_fresh():  # aimed at the question before this one
                self.say(PROMPT_CHANGED_CLICK)
                return
            if card is not None:
                self.emit(BetIntent(card))
            else:
                self.say(
                    "click one of the four bet cards on the corners, or press its letter twice (N: no bet)"
                )
            return
        if button == mouse.LEFT and mode is InputMode.THROW and self.aim is not None and current is not None:
            table_z = current.table.box.floor_z - 0.002
            hit = self._plane_point(x, y, table_z)
            hx = current.table.box.inner_size[0] / 2 + current.table.box.wall_thickness
            hy = current.table.box.inner_size[1] / 2 + current.table.box.wall_thickness
            self._press = self._stance = None
            if (
                hit is not None
                and (abs(hit[0]) > hx + 0.01 or abs(hit[1]) > hy + 0.01)
                and not self._over_box(x, y)
            ):
                self._press = (x, y)
                self._stance = (self.aim.wall, self.aim.along)  # where the hand goes back to if refused
                # on the table: stand at the nearest wall; if the mouse moves on, it is a flick from there
                self.aim.stand_at(float(hit[0]), float(hit[1]))
                if self.follow:
                    self.camera.face_wall(self.aim.wall)
            self._drag = "flick"
            self._flick = []
            self._charge_start = None  # one throw a gesture: a flick cancels a Space held
            self._flick_sample(x, y)
            return
        if button == mouse.MIDDLE or (button == mouse.RIGHT and modifiers & key.MOD_SHIFT):
            self._drag = "pan"
        elif button in (mouse.RIGHT, mouse.LEFT):
            self._drag = "orbit"

    def _card_at(self, x: float, y: float, reach: float = CARD_CLICK_REACH) -> str | None:
        """The letter of the bet card at (or ``reach`` m beside: a click a hair beside a card is
        meant for it, :data:`CARD_CLICK_REACH`) a window point."""
        current = self._current
        if current is None:
            return None
        box = current.table.box
        p = self._plane_point(x, y, box.rim_z + box.bet_card_thickness)
        return card_near(current.table, float(p[0]), float(p[1]), reach) if p is not None else None

    def _over_box(self, x: float, y: float) -> bool:
        """Whether the window point shows the box (its rim plane is hit inside the outer walls)."""
        assert self._current is not None  # asked only while a throw is shown
        box = self._current.table.box
        p = self._plane_point(x, y, box.rim_z)
        if p is None:
            return False
        return (
            abs(p[0]) <= box.inner_size[0] / 2 + box.wall_thickness
            and abs(p[1]) <= box.inner_size[1] / 2 + box.wall_thickness
        )

    def _flick_sample(self, x: float, y: float) -> None:
        assert self.aim is not None  # a flick starts only with an aim
        p = self._plane_point(x, y, float(self.aim.release_point()[2]))
        if p is None:  # the pointer looks above the horizon: no point on the plane, skip it
            return
        self._flick.append((self.input_time(), float(p[0]), float(p[1])))

    def on_mouse_motion(self, x, y, dx, dy):
        self._pointer = (x, y)

    def on_mouse_leave(self, x, y):
        self._pointer = None

    @property
    def pointer_card(self) -> str | None:
        """The letter of the bet card the mouse pointer rests on (``None``: off the cards, out of
        the window, or an overlay over the table). While it is one a person may bet on, the bet
        question's countdown stands still (:meth:`doppelx.games.doppelx.play.controller.PlayController.step`)."""
        if self._pointer is None or self.menu or self.help or self.show_log:
            return None
        # on the card itself: a flick that ended a hair beside card B held a bot's throw (tenth playtest)
        return self._card_at(*self._pointer, reach=0.0)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        self._pointer = (x, y)
        if self._drag == "flick":
            self._flick_sample(x, y)
        elif self._drag == "orbit" and not self.referee:
            self.camera.orbit(-dx * 0.008, -dy * 0.006)
        elif self._drag == "pan" or (self._drag == "orbit" and self.referee):
            width, height = self.get_framebuffer_size()
            s = width / max(self.width, 1)
            self.camera.pan(dx * s, dy * s, height)

    def on_mouse_release(self, x, y, button, modifiers):
        pressed, self._button_click = self._button_click, None
        if pressed is not None and abs(x - pressed[1]) + abs(y - pressed[2]) < CLICK_PX:
            if self._drag == "flick" and self._stance is not None and self.aim is not None:
                self.aim.wall, self.aim.along = self._stance  # the press stood nobody anywhere
            self._drag, self._flick, self._press, self._stance = None, [], None, None
            self._toggle(pressed[0])
            return
        if self._drag == "flick" and self.aim is not None:
            self._flick_sample(x, y)
            samples, self._flick = self._flick, []
            self._drag = None
            press, self._press = self._press, None
            stance, self._stance = self._stance, None
            if press is not None and abs(x - press[0]) + abs(y - press[1]) < CLICK_PX:
                self._card_click = None
                return  # a click, not a drag: it only placed the thrower
            if self._said_why_no_bet(x, y):  # a click on a card, not a flick
                return
            try:
                intent = self.aim.flick(samples)
            except ValueError as exc:
                self.say(str(exc))
                if stance is not None:  # a refused drag leaves the hand where it stood before the press
                    self.aim.wall, self.aim.along = stance
                    if self.follow:
                        self.camera.face_wall(self.aim.wall)
                return
            self.emit(intent)
            return
        self._drag = None
        self._said_why_no_bet(x, y)

    def _said_why_no_bet(self, x: float, y: float) -> bool:
        """On a release: whether it ends a click on a card that bets nothing now (pressed there,
        let go within :data:`CLICK_PX`), and then say why (the snapshot's ``card_note``)."""
        card, self._card_click = self._card_click, None
        if card is None or abs(x - card[0]) + abs(y - card[1]) >= CLICK_PX or self._current is None:
            return False
        self.say(self._current.card_note, 5.0)
        return True

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        mods = self.keys[key.LCTRL] or self.keys[key.RCTRL], self.keys[key.LSHIFT] or self.keys[key.RSHIFT]
        if mods[0] and self.aim is not None:
            self.aim.adjust_height(0.005 * scroll_y)
        elif mods[1] and self.aim is not None:
            self.aim.adjust_spin(2.0 * scroll_y)
        else:
            self.camera.zoom(0.9**scroll_y)

    # --- input: keys ----------------------------------------------------------------------
    def on_key_press(self, symbol, modifiers):
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if self.menu:  # the Esc menu is modal: its keys only
            self._menu_key(symbol, ctrl)
            return pyglet.event.EVENT_HANDLED
        if (self.help or self.show_log) and not self._overlay_key(symbol, ctrl):
            overlay = "the help" if self.help else "the throw log"
            self.say(f"Esc closes {overlay}")  # modal: nothing behind it hears the key
            return pyglet.event.EVENT_HANDLED
        letter = self._bet_letter(symbol, modifiers)
        betting = self._betting()
        passing = betting and not ctrl and symbol in PASS_KEYS
        armed = self._bet_armed
        self.disarm_bet()  # any other key takes a letter's question back
        if (letter is not None or passing or symbol in (key.RETURN, key.ENTER)) and self._prompt_fresh():
            self.say(PROMPT_CHANGED)  # meant for the question (or the result) before this one
        elif letter is not None:  # a card's letter while betting (before A, D, E, H): twice bets
            if armed == letter:
                self.emit(BetIntent(letter))
            else:
                self._bet_armed = letter
                self.say(bet_question(letter))
        elif passing:
            self.emit(CommandIntent(Command.PASS))
        elif betting and symbol in (key.RETURN, key.ENTER):
            self.say(ENTER_ON_BET)  # never "no bet": it ends a result's hold (PASS_KEYS)
        elif ctrl and symbol == key.S:
            self.emit(CommandIntent(Command.SAVE))
        elif ctrl and symbol in (key.O, key.L):
            self.emit(CommandIntent(Command.LOAD))
        elif ctrl and symbol == key.N:
            self.emit(CommandIntent(Command.NEW_GAME))
        elif ctrl and symbol == key.Q:
            self.on_close()  # as the close button: the match hears QUIT (and autosaves)
        elif symbol == key.ESCAPE:
            if self.help or self.show_log:
                self.help = self.show_log = False
            else:
                self.menu = "menu"  # Esc never quits at once: the menu asks
            return pyglet.event.EVENT_HANDLED
        elif symbol in (key.H, key.F1):
            self._toggle("help")
        elif symbol == key.TAB:
            self._toggle("referee")
        elif symbol == key.M:
            self._toggle("sound")
        elif symbol == key.L:
            self.show_log = not self.show_log
            self.help = False
        elif symbol == key.R:
            self.emit(CommandIntent(Command.REPLAY))
        elif symbol in (key.RETURN, key.ENTER):
            self.emit(CommandIntent(Command.GO_ON))
        elif symbol == key.HOME:
            extent = self.camera.extent
            self.camera.reset()
            self.camera.extent = extent
        elif symbol == key.F12:
            self._screenshot_key()
        elif self.aim is not None:
            self._aim_key(symbol)
        return None

    def _screenshot_key(self) -> None:
        """F12: the window as a PNG in the screenshot folder, or why not."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            path = self.save_screenshot(self.screenshot_dir / f"doppelx-{stamp}.png")
        except DoppelXError as exc:  # a folder that cannot be written: say so, play on
            self.say(f"no screenshot — {exc}", 6.0)
        else:
            self.say(f"screenshot saved: {Path(path).resolve()}")

    def _aim_key(self, symbol) -> None:
        """The hand's keys: walk round (Q/E), height, spin, aim, and Space to charge a throw."""
        assert self.aim is not None
        if symbol in (key.Q, key.E):
            self.aim.turn(-1 if symbol == key.Q else 1)
            if self.follow:
                self.camera.face_wall(self.aim.wall)
        elif symbol in (key.PAGEUP, key.PAGEDOWN):
            self.aim.adjust_height(0.005 if symbol == key.PAGEUP else -0.005)
        elif symbol in (key.BRACKETRIGHT, key.BRACKETLEFT):
            self.aim.adjust_spin(2.0 if symbol == key.BRACKETRIGHT else -2.0)
        elif symbol in (key.COMMA, key.PERIOD):
            self.aim.adjust_aim_angle(AIM_STEP if symbol == key.PERIOD else -AIM_STEP)
        elif symbol == key.SPACE and self._throwing() and self._drag != "flick":
            self._charge_start = self.input_time()  # let go to throw (on_key_release)

    def on_key_release(self, symbol, modifiers):
        if symbol != key.SPACE or self._charge_start is None:
            return None
        start, self._charge_start = self._charge_start, None
        if self.aim is None or not self._throwing() or self.help or self.show_log or self.menu:
            return None
        try:
            intent = self.aim.charged(charge_power(self.input_time() - start))
        except ValueError as exc:
            self.say(str(exc))
            return None
        self.emit(intent)
        return None

    def charging(self) -> float | None:
        """The power a keyboard throw would have if Space were let go now (``None``: not held,
        or not a throw now)."""
        if self._charge_start is None or not self._throwing():
            return None
        return charge_power(self.clock() - self._charge_start)

    def on_deactivate(self):
        """The window lost the keyboard: a Space let go elsewhere must not leave a charge, nor a
        button let go elsewhere a drag."""
        self._charge_start = None
        self._drag = None
        self.disarm_bet()

    def disarm_bet(self) -> None:
        """Take back a pending "bet on card A? Press A again" (a key, a click, the betting over):
        the letter no longer bets, and its question leaves the screen."""
        if self._bet_armed is not None and self.hint == bet_question(self._bet_armed):
            self.hint = ""
        self._bet_armed = None

    def _prompt_fresh(self) -> bool:
        """A bet question is on screen and appeared less than :data:`PROMPT_GRACE` ago: an
        answer now was meant for what was there before it."""
        return self._betting() and self.clock() - self._prompt_since < PROMPT_GRACE

    def _throwing(self) -> bool:
        return self._current is not None and self._current.input is InputMode.THROW

    def _betting(self) -> bool:
        return self._current is not None and self._current.input is InputMode.BET

    def _bet_cards(self) -> set[str]:
        """The letters of the bet cards in play while a bet question is open, else none."""
        current = self._current
        if current is None or current.input is not InputMode.BET:
            return set()
        return {c.letter for c in current.table.cards}

    def _bet_letter(self, symbol: int, modifiers: int) -> str | None:
        """The letter of a bet card in play when its key is pressed (alone) while the player may bet."""
        if modifiers & (key.MOD_CTRL | key.MOD_ALT | key.MOD_COMMAND | key.MOD_SHIFT):
            return None
        name = key.symbol_string(symbol)
        return name if len(name) == 1 and name in self._bet_cards() else None

    @staticmethod
    def _overlay_key(symbol: int, ctrl: int) -> bool:
        """Keys that work while the help or the throw log covers the table: closing and
        switching the overlays, the view and sound toggles, saving, quitting, a screenshot."""
        if ctrl:
            return symbol in (key.S, key.Q)
        return symbol in (key.ESCAPE, key.H, key.F1, key.L, key.TAB, key.M, key.HOME, key.F12)

    def _menu_choice(self, name: str) -> None:
        """A button of the Esc menu (see :attr:`render.hud.Hud.MENU`)."""
        self.menu = ""
        if name == "menu:save":
            self.emit(CommandIntent(Command.SAVE))
        elif name == "menu:new":
            self.emit(CommandIntent(Command.NEW_GAME))
        elif name == "menu:quit":
            self.menu = "quit"  # asked once
        elif name == "menu:quit-no":  # Stay: back to the game (eighth playtest: it went back to the
            self.menu = ""  # menu, and one more Esc was needed)
        elif name == "menu:quit-yes":
            self.on_close()  # as the close button: the match hears QUIT (and autosaves)

    def _walk(self, dt: float) -> None:
        if self.aim is None or dt <= 0 or self.help or self.show_log or self.menu:
            return
        # while a bet question is open a card's letter bets: A and D walk only when they are no card
        cards = self._bet_cards()
        right = self.keys[key.RIGHT] or (self.keys[key.D] and "D" not in cards)
        left = self.keys[key.LEFT] or (self.keys[key.A] and "A" not in cards)
        direction = right - left
        if not direction:
            return
        fast = 3.0 if (self.keys[key.LSHIFT] or self.keys[key.RSHIFT]) else 1.0
        wall = self.aim.wall
        self.aim.walk(direction * WALK_SPEED * fast * dt)
        if self.aim.wall != wall and self.follow:
            self.camera.face_wall(self.aim.wall)

    def _menu_key(self, symbol: int, ctrl: int) -> None:
        """A key while the Esc menu is open (or asks whether to quit)."""
        if self.menu == "quit":
            if symbol in (key.Q, key.RETURN, key.ENTER):
                self._toggle("menu:quit-yes")
            elif symbol == key.ESCAPE:
                self._toggle("menu:quit-no")
            return
        if symbol == key.ESCAPE:
            self._toggle("menu:resume")
        elif symbol == key.S and "menu:save" in self.hud.buttons:  # only a game in progress saves
            self._toggle("menu:save")
        elif symbol == key.N:
            self._toggle("menu:new")
        elif symbol == key.Q and not ctrl:
            self._toggle("menu:quit")
        elif ctrl and symbol == key.Q:
            self.on_close()

    def _toggle(self, name: str) -> None:
        if name.startswith("menu:"):
            self._menu_choice(name)
        elif name == "referee":
            self.referee = not self.referee
            if self.referee and self.hint.startswith("Tab:"):
                self.hint = ""  # a hint to open the referee view, taken: it would say "Tab" over the view
        elif name == "sound":
            if not self.sound_device:
                self.say("no sound device found: the game stays silent")
            else:
                self.clatter.toggle()
        elif name == "help":
            self.help = not self.help
            self.show_log = False
            self.emit(CommandIntent(Command.HELP))
