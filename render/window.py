"""The desktop window: draws the snapshots it is handed and turns input into intents.

:class:`TableWindow` is a resizable pyglet window with an OpenGL 3.3 core context. The
match calls :meth:`TableWindow.show` with the latest snapshot (and the one before plus an
interpolation factor, for a fixed-step simulation) and receives
:class:`~render.intents.ThrowIntent`, :class:`~render.intents.BetIntent` and
:class:`~render.intents.CommandIntent` through ``on_intent``. Camera, referee view, help,
sound and screenshots are handled here; no rule is decided here.

The window redraws only when something changed (:meth:`TableWindow.wants_redraw`): a new
snapshot that differs from the one drawn, input, a camera turn or walk under way, a
message expiring. :meth:`TableWindow.busy` shows a text at once (a frame is drawn and
flipped before a long step such as building a new game) and, when cleared, drops the
input that arrived meanwhile, so a key pressed during the wait never lands in the new game.

Its input handlers (:mod:`render.controls`), its framing of the box (:mod:`render.window_framing`)
and the off-the-box inset's drawing (:mod:`render.window_inset`) are mixins of their own modules.

Raises :class:`render.errors.NoDisplayError` when no window can be opened.
"""

# ruff: noqa: I001  (imports are ordered on purpose: pyglet is configured (render.backend) before its modules load)

from __future__ import annotations

import io
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from shapely.geometry import MultiPoint

from render.aim import ThrowAim
from render.window_files import write_atomic
from render.audio import Clatter, device_present
from render.backend import check_display, pyglet
from render.camera import Camera
from render.controls import Controls
from render.window_framing import Framing
from render.window_inset import InsetView
from render.errors import NoDisplayError
from render.board_texture import label_spots
from render.hud import Anchor, Hud, HudState
from render import inset as off_box_inset
from render.intents import Command, CommandIntent, Intent, IntentHandler
from render.labels import Rect, centred
from render.card_places import label_free_boxes
from render.parts_mesh import card_polygon
from render.card_places import card_corners
from render.msaa import MsaaTarget, software_scale
from render.referee import RefereeLabel
from render.scene import Marker, Scene
from render.snapshot import InputMode, Snapshot, interpolate

import pyglet.window  # (after render.backend set the options)
from pyglet.window import key

gl = pyglet.gl
#: The smallest window the HUD is laid out for (``doppelx play --size`` takes no less).
MIN_SIZE = (640, 480)

#: Input events: dropped while :meth:`TableWindow.busy` drains the queue; each asks for a redraw.
INPUT_EVENTS = frozenset(
    {
        "on_key_press",
        "on_key_release",
        "on_text",
        "on_text_motion",
        "on_mouse_press",
        "on_mouse_release",
        "on_mouse_drag",
        "on_mouse_scroll",
    }
)
#: X event types carrying a server timestamp: ButtonPress, ButtonRelease, MotionNotify.
_TIMED_X_EVENTS = (4, 5, 6)

#: Font size (pt at 1280 × 800) of the referee view's labels.
REFEREE_LABEL_SIZE = 11.0

#: Renderer names of software rasterisers (cheaper settings, no multisampling).
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swiftshader", "software rasterizer")


def _configs():
    # A Config made by hand is a template for the screen's match (pyglet's documented use);
    # its class is abstract to the type checker only (match() belongs to each platform).
    Config: Any = pyglet.gl.Config
    yield Config(
        double_buffer=True,
        depth_size=24,
        stencil_size=8,
        major_version=3,
        minor_version=3,
        forward_compatible=True,
    )
    yield Config(double_buffer=True, depth_size=24, stencil_size=8, major_version=3, minor_version=3)
    yield Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)


class TableWindow(Controls, Framing, InsetView, pyglet.window.Window):
    """The 3-D tabletop window.

    Args:
        width, height: initial size (px); the window is resizable.
        caption: window title.
        on_intent: called with every intent the player's input makes.
        visible: show the window (tests may keep it hidden; Xvfb draws either way).
        vsync: wait for the display's refresh when flipping.
        msaa: multisample count for the 3-D scene; ``None`` picks 4 on a GPU and none on a
            software renderer (where it would more than double the frame time).
        sound: start with the clatter on.
        screenshot_dir: where F12 saves screenshots.
        clock: seconds for flick timing and animation (tests inject their own).
        render_scale: draw the 3-D scene at this fraction of the window's resolution;
            ``None``: full on a GPU; on a software renderer see :func:`render.msaa.software_scale`.

    Raises:
        NoDisplayError: no display, or no OpenGL 3.3 context on it.
    """

    def __init__(
        self,
        width: int = 1280,
        height: int = 800,
        *,
        caption: str = "DoppelX",
        on_intent: IntentHandler | None = None,
        visible: bool = True,
        vsync: bool = True,
        msaa: int | None = None,
        sound: bool = True,
        screenshot_dir: str | Path = ".",
        clock: Callable[[], float] = time.perf_counter,
        render_scale: float | None = None,
    ):
        check_display()
        last_error: Exception | None = None
        for config in _configs():
            try:
                super().__init__(
                    width,
                    height,
                    caption=caption,
                    resizable=True,
                    visible=visible,
                    vsync=vsync,
                    config=config,
                )
                break
            except pyglet.window.NoSuchConfigException as exc:
                last_error = exc
            except (pyglet.window.WindowException, pyglet.gl.ContextException, OSError) as exc:
                raise NoDisplayError(str(exc) or type(exc).__name__) from exc
            except Exception as exc:  # pyglet.display.xlib.NoSuchDisplayException and kin
                if "display" in type(exc).__name__.lower() or "display" in str(exc).lower():
                    raise NoDisplayError(str(exc)) from exc
                raise
        else:
            raise NoDisplayError(f"no OpenGL 3.3 core configuration ({last_error})")
        info = self.context.get_info()
        if not info.have_version(3, 3):
            version = info.get_version()
            self.close()
            raise NoDisplayError(f"OpenGL {version[0]}.{version[1]} is too old (3.3 core needed)")
        # the HUD needs room: a drag of the window's edge stops here (a smaller size asked for stays)
        self.set_minimum_size(min(width, MIN_SIZE[0]), min(height, MIN_SIZE[1]))
        self.renderer = info.get_renderer()
        self.software = any(s in self.renderer.lower() for s in SOFTWARE_RENDERERS)
        samples = (0 if self.software else 4) if msaa is None else msaa
        #: The scene's resolution relative to the window (``None``: 1 on a GPU, fitted to
        #: :func:`render.msaa.software_scale` on a software renderer).
        self.render_scale = render_scale
        self.msaa = MsaaTarget(samples) if samples > 1 else None
        self._scaled: MsaaTarget | None = None
        #: Copy the scene's still parts from a backdrop drawn once per view
        #: (:mod:`render.backdrop`) — on a software renderer, whose cost grows with the pixels
        #: drawn; the scene then always has a framebuffer of its own (the window's size, or a
        #: scaled-down one in a large window), copied onto the window.
        self.keep_still = self.software and self.msaa is None
        self.on_intent: IntentHandler | None = on_intent
        self.clock = clock
        self.screenshot_dir = Path(screenshot_dir)
        self.camera = Camera()
        self.hud = Hud()
        self.sound_device = device_present()
        self.clatter = Clatter(enabled=sound and self.sound_device, clock=clock)
        self.clatter.available = self.sound_device
        self.keys = key.KeyStateHandler()
        self.push_handlers(self.keys)
        self.scene: Scene | None = None
        self.aim: ThrowAim | None = None
        self.help = False
        self.follow = True
        self._referee_seen = False
        self.hint = ""
        self._hint_until = 0.0
        self._current: Snapshot | None = None
        self._shown: Snapshot | None = None
        self._seen_impacts: int | None = None
        self._drag: str | None = None
        self._flick: list[tuple[float, float, float]] = []
        self._charge_start: float | None = None  # Space held for a keyboard throw since
        self._bet_armed: str | None = None  # a card's letter pressed once while betting
        self._prompt_since = -math.inf  # when the bet question on screen appeared (clock)
        self._press: tuple[float, float] | None = None
        self._stance: tuple[str, float] | None = None  # the hand before a press on the table
        self._card_click: tuple[float, float] | None = None  # a press on a card that bets nothing now
        #: Where the thrower was put before the first table was shown (wall, m along): applied to it.
        self._pending_stance: tuple[str, float] | None = None
        #: A HUD button pressed while a throw is awaited: it answers on the release (name, x, y).
        self._button_click: tuple[str, float, float] | None = None
        self._pointer: tuple[float, float] | None = None  # the mouse pointer in the window (px), if in it
        self._referee_home = (self.camera.extent, 0.0)
        #: The referee view's framing while fitted to a person's throw (``None``: not fitted).
        self._referee_framed: tuple[float, float] | None = None
        #: The span along y (m) of the hands fitted into the referee view since it was opened.
        self._referee_span: tuple[float, float] | None = None
        #: The referee view's corner panels the box keeps clear of, each the largest it has been
        #: at this window size in this game (:meth:`Framing._referee_corners`).
        self._referee_reserve: tuple[tuple[int, int, int], dict[str, Rect]] = ((0, 0, 0), {})
        #: The off-the-box insets of the last frame (window px), none while no die is outside.
        self.insets: list[Rect] = []
        self._inset_cameras: list[Camera] = []
        self._inset_batch: Any = None
        self._inset_items: list[Any] = []
        self._inset_targets: list[MsaaTarget] = []
        self._inset_drawn: list[object] = []  # what each inset's framebuffer shows
        self._last_draw = clock()
        #: The generic busy/thinking indicator (see :meth:`busy`); empty for none.
        self.busy_text = ""
        #: The throw log panel (L) is shown.
        self.show_log = False
        #: The Esc menu: ``""`` closed, ``"menu"`` open, ``"quit"`` asking whether to quit.
        self.menu = ""
        self.needs_redraw = True
        self._drawn_key: object = None
        self._swallow = False
        self._dispatching = 0  # dispatch_events calls under way (an input handler runs inside one)
        self._drop_rest = False  # drop the input the running dispatch has yet to hand out
        self._event_time: float | None = None

    @property
    def referee(self) -> bool:
        """Whether the straight-down referee view is on."""
        return self.camera.referee

    @referee.setter
    def referee(self, on: bool) -> None:
        self.camera.referee = bool(on)
        self._referee_seen = self._referee_seen or bool(on)

    @property
    def referee_seen(self) -> bool:
        """Whether the referee view has been opened in this window (a hint at it is not needed)."""
        return self._referee_seen

    # --- feeding ---------------------------------------------------------------------------
    def show(self, current: Snapshot, previous: Snapshot | None = None, alpha: float = 1.0) -> None:
        """Display ``current`` — or, with ``previous``, the state ``alpha`` of the way between them.

        New impacts in ``current`` (a snapshot object not shown before) make clatter.
        """
        if self._current is None or current.table is not self._current.table:
            self._set_table(current)
        if id(current) != self._seen_impacts and current is not self._current:
            self.clatter.impacts(current.impacts)
        self._seen_impacts = id(current)
        old_mode = self._current.input if self._current is not None else None
        old_bettor = self._current.thrower if self._current is not None else None
        if current.input is not InputMode.BET or current.thrower != old_bettor:
            self.disarm_bet()  # the betting ended (a bet, a pass, another player's turn to bet)
            if current.input is InputMode.BET:  # a new question: keys answer it after a grace
                self._prompt_since = self.clock()
        self._current = current
        self._shown = interpolate(previous, current, alpha) if previous is not None else current
        if current.input is InputMode.THROW and old_mode is not InputMode.THROW and self.follow and self.aim:
            self.camera.face_wall(self.aim.wall)

    def _set_table(self, snap: Snapshot) -> None:
        first = self.scene is None
        if first and not self.busy_text:
            self.busy("Preparing the table…")  # making the print takes a moment: say so first
        self.switch_to()
        if self.scene is not None:
            self.scene.delete()
        self.scene = Scene(
            snap.table, anisotropy=1.0 if self.software else 8.0, print_size=1024 if self.software else 2048
        )
        if first and self.busy_text == "Preparing the table…":
            self.busy_text = ""
        die = next(iter(snap.table.dice.dice.values()))
        before, self.aim = self.aim, ThrowAim(snap.table.box, die.size)
        if before is not None:  # a load, a new game: seventh playtest, Ctrl+O reset both
            self.aim.take_settings(before)
        if self._pending_stance is not None:  # a stance given before there was a table to stand at
            self.aim.stand(*self._pending_stance)
            self._pending_stance = None
            if self.follow:
                self.camera.face_wall(self.aim.wall)
        self.camera.extent = max(snap.table.box.inner_size) / 2 + 0.045
        self._referee_home = (self.camera.extent, 0.0)  # the referee view's own framing (extent, centre y)
        self._referee_span = None

    def emit(self, intent: Intent) -> None:
        """Hand ``intent`` to the match."""
        if self.on_intent is not None:
            self.on_intent(intent)

    def say(self, hint: str, seconds: float = 3.0) -> None:
        """Show a short hint above the message line for ``seconds``."""
        self.hint = hint
        self._hint_until = self.clock() + seconds
        self.needs_redraw = True

    def busy(self, text: str) -> None:
        """The generic busy/thinking indicator: show ``text`` now (a frame is drawn at once), or clear it.

        Clearing it also drops the input that arrived while the program was busy.
        """
        self.busy_text = text
        self.needs_redraw = True
        if text:
            if self.context is not None:
                self.switch_to()
                self.render()
                self.flip()
        else:
            self.drop_input()

    def drop_input(self) -> None:
        """Drop the keys and mouse input queued meanwhile (they were meant for before).

        Called from an input handler (Enter in the new-game form, Ctrl+O: the work ran inside
        :meth:`dispatch_events`), the events still queued are dropped by that same dispatch as
        it goes on; called otherwise, the queued events are dispatched here, dropped. (A
        dispatch nested in a key's handler made pyglet record the key as held after its release:
        the next press of it was taken for auto-repeat and lost — the second playtest's first
        Enter in the form after Ctrl+N.)"""
        if self._dispatching:
            self._drop_rest = True
        else:
            self._swallow = True
            try:
                self.dispatch_events()
            finally:
                self._swallow = False
        self._drag = None
        self._flick = []
        self._charge_start = None
        self._card_click = None
        self.disarm_bet()

    def dispatch_events(self) -> None:
        self._dispatching += 1
        try:
            super().dispatch_events()
        finally:
            self._dispatching -= 1
            if not self._dispatching:
                self._drop_rest = False

    def dispatch_event(self, event_type, *args):
        if event_type in INPUT_EVENTS:
            if self._swallow or self._drop_rest:
                if event_type == "on_key_release":  # a key let go is not held any more
                    self.keys.on_key_release(*args)
                return False
            self.needs_redraw = True
        elif event_type in ("on_resize", "on_expose", "on_show"):
            self.needs_redraw = True
        return super().dispatch_event(event_type, *args)

    # X events carry the server's time of the input (ms): flicks are timed by it, not by
    # when the loop got round to the event
    def dispatch_platform_event(self, e) -> None:
        self._event_time = _x_time(e)
        try:
            super().dispatch_platform_event(e)
        finally:
            self._event_time = None

    def dispatch_platform_event_view(self, e) -> None:
        self._event_time = _x_time(e)
        try:
            super().dispatch_platform_event_view(e)
        finally:
            self._event_time = None

    def input_time(self) -> float:
        """The time (s) of the input event being handled: its X timestamp, else the clock."""
        return self._event_time if self._event_time is not None else self.clock()

    def wants_redraw(self) -> bool:
        """Whether the next frame would differ from the last one drawn (see the module docstring)."""
        if self.needs_redraw or self._drag is not None or self.camera.goal_yaw is not None:
            return True
        if self.charging() is not None:  # the power grows while Space is held in a throw
            return True
        if self.hint and self.clock() > self._hint_until:
            return True
        if self._walking():
            return True
        try:
            return bool(self._frame_key() != self._drawn_key)
        except ValueError:  # a snapshot holding arrays cannot be compared: draw
            return True

    def _frame_key(self) -> object:
        snap = self._shown
        if snap is None:
            return None
        return (id(snap.table), replace(snap, time=0.0, impacts=()), self.width, self.height)

    def _walking(self) -> bool:
        k = self.keys
        return bool(k[key.RIGHT] or k[key.D] or k[key.LEFT] or k[key.A])

    # --- drawing ---------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the current frame into the back buffer (no flip)."""
        self.needs_redraw = False
        self._drawn_key = self._frame_key()
        now = self.clock()
        dt = min(0.1, max(0.0, now - self._last_draw))
        self._last_draw = now
        self._walk(dt)
        self.camera.update(dt)
        if self.hint and now > self._hint_until:
            self.hint = ""
        width, height = self.get_framebuffer_size()
        snap = self._shown
        self._frame_referee_hand(self._current)
        state = self._hud_state()
        self.hud.layout(snap, state)  # the HUD's panels first: the overlays and the picture make room
        shift = self.camera.screen_shift
        self._clear_of_panels(snap)
        if self.camera.screen_shift != shift:  # the picture moved: the cards' outlines move with it
            state = self._hud_state()
            self.hud.layout(snap, state)
        if snap is None or self.scene is None:
            gl.glViewport(0, 0, width, height)
            gl.glClearColor(0.085, 0.08, 0.075, 1.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        else:
            target = self._target(width, height)
            offscreen = target is not None and target.begin(width, height)
            on_target = target if offscreen else None
            sw, sh = on_target.scene_size(width, height) if on_target is not None else (width, height)
            self.scene.draw(
                snap,
                self.camera,
                sw,
                sh,
                referee=self.referee,
                marker=self._marker(snap),
                keep_still=self.keep_still and on_target is not None,
            )
            if on_target is not None:
                on_target.end()
        gl.glViewport(0, 0, width, height)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        self._draw_inset(None if state.table_covered else snap, width, height)
        anchors, obstacles = self._anchors(None if state.table_covered else snap, width, height)
        self.hud.place_labels(anchors, obstacles + self.insets + self.overlay_boxes(), state)
        covered = bool(self.menu or self.help)  # the menu and the help cover the inset too
        if covered and self._inset_batch is not None:
            self._inset_batch.draw()
        self.hud.draw()
        if not covered and self._inset_batch is not None:
            self._inset_batch.draw()

    def on_draw(self) -> None:
        self.render()

    def _target(self, width: int, height: int) -> MsaaTarget | None:
        """The scene's framebuffer: multisampled (GPU), scaled down (software, large window), the
        window's size (software, for the backdrop) or none (drawn straight into the window)."""
        if self.msaa is not None:
            return self.msaa
        scale = self.render_scale
        if scale is None:
            scale = software_scale(width, height) if self.software else 1.0
        if scale >= 1.0:
            if not self.keep_still:
                return None
            scale = 1.0  # a framebuffer of the window's size: the backdrop needs one of its own
        if self._scaled is None or abs(self._scaled.scale - scale) > 1e-3:
            if self._scaled is not None:
                self._scaled.delete()
            self._scaled = MsaaTarget(0, scale)
        return self._scaled

    def _hud_state(self) -> HudState:
        aim = ""
        if self._current is not None and self._current.input is InputMode.THROW and self.aim is not None:
            a = self.aim
            aim = (
                f"Throwing from side {a.wall}, {a.along * 100:+.0f} cm along · release "
                f"{a.height * 1000:.0f} mm over the rim · spin {a.spin:+.0f} rad/s"
            )
            if a.aim_angle:
                aim += f" · aim {math.degrees(a.aim_angle):+.0f}°"
        power = self.charging()
        if self._drag == "flick" and self.aim is not None and len(self._flick) >= 2:
            preview = self.aim.preview(self._flick)
            power = preview[0] if preview is not None else None
        return HudState(
            self.width,
            self.height,
            aim,
            self.hint,
            self.referee,
            self.clatter.enabled,
            self.help,
            sound_device=self.sound_device,
            busy=self.busy_text,
            log=self.show_log,
            power=power,
            power_mark=self._current.power_mark if self._current is not None else 0.0,
            power_note=self._aim_turn_note(),
            highlights=(highlights := self._card_outlines()),
            highlight_cutouts=self._dice_under_cards_px() if highlights else (),
            menu=self.menu,
            saved_to=self._current.saved_to if self._current is not None else "",
            keep_clear=self._box_on_screen(self._current)
            if self.referee and self._current is not None
            else None,
        )

    def _aim_turn_note(self) -> str:
        """``"aim +15°"`` while a throw's aim is turned (comma / period), else ``""``: the power
        bar says it while Space is held (the aim line it stands in for said it; sixth playtest)."""
        if self.aim is None or not self.aim.aim_angle:
            return ""
        return f"aim {math.degrees(self.aim.aim_angle):+.0f}°"

    def _card_outlines(self) -> tuple[tuple[tuple[float, float], ...], ...]:
        """The bet cards a click bets on now, as window-pixel triangles (none in the referee view)."""
        snap = self._current
        if snap is None or not snap.bettable or self.scene is None:
            return ()
        width, height = self.get_framebuffer_size()
        vp = self.camera.view_projection(width, height)
        box = snap.table.box
        z = box.rim_z + box.bet_card_thickness
        out = []
        for letter, corner in card_corners(snap.table).items():
            if letter not in snap.bettable:
                continue
            pts = np.array([(x, y, z, 1.0) for x, y in card_polygon(box, corner).exterior.coords[:-1]])
            clip = pts @ vp.T
            if np.any(clip[:, 3] <= 0):
                continue
            ndc = clip[:, :2] / clip[:, 3:4]
            xy = (ndc + 1) / 2 * np.array([self.width, self.height])
            out.append(tuple((float(x), float(y)) for x, y in xy))
        return tuple(out)

    def _dice_under_cards_px(self) -> tuple[tuple[tuple[float, float], ...], ...]:
        """The outlines (window px) of the dice seen under a bet card: the cards' highlight leaves
        them out (:attr:`render.hud.HudState.highlight_cutouts`)."""
        snap = self._current
        if snap is None or self.scene is None:
            return ()
        out = []
        for owner, pose in self.scene.dice_under_cards(snap):
            ndc = self.scene.die_corners_ndc(owner, pose)
            if not len(ndc):
                continue
            xy = (ndc + 1) / 2 * np.array([self.width, self.height])
            hull = MultiPoint([tuple(map(float, q)) for q in xy]).convex_hull
            if hull.geom_type == "Polygon":
                out.append(tuple((float(x), float(y)) for x, y in hull.exterior.coords[:-1]))
        return tuple(out)

    def overlay_boxes(self) -> list[Rect]:
        """Boxes (window px) of what an application draws over the HUD: die labels keep clear
        of them as of the HUD's own panels. None here; :class:`doppelx.games.doppelx.play.window.PlayWindow`
        names its end-of-game standings."""
        return []

    def log_open(self) -> bool:
        """The throw log's column is drawn (L, and neither the menu nor the help over it)."""
        return self.show_log and not (self.menu or self.help)

    def _anchors(self, snap: Snapshot | None, width: int, height: int) -> tuple[list[Anchor], list[Rect]]:
        """The die labels at their dice (window px) and the boxes they must keep clear of."""
        if snap is None or self.scene is None:
            return [], []
        vp = self.camera.view_projection(width, height)
        scale = np.array([self.width, self.height, 1.0])

        def to_window(points) -> np.ndarray:
            """Window (x, y, depth) of board points (n, 3)."""
            p = np.asarray(points, dtype=float).reshape(-1, 3)
            clip = np.c_[p, np.ones(len(p))] @ vp.T
            ndc = clip[:, :3] / clip[:, 3:4]
            return (ndc + 1) / 2 * scale

        out: list[Anchor] = []
        texts = [(f.text, f.position, f.colour, 14.0, False) for f in snap.floating]
        if self.referee:
            texts = referee_texts(texts, self.scene.referee_labels)
        if not texts:
            return out, []
        for (text, pos, colour, size, boxed), (x, y, depth) in zip(texts, to_window([t[1] for t in texts])):
            if self.insets and off_box_inset.on_table(snap.table, pos):
                continue  # a die off the box: an inset's caption says it
            if 0.0 < depth < 1.0:
                out.append(Anchor(text, float(x), float(y), colour, size, boxed))
        obstacles: list[Rect] = []
        dice = self.scene.dice_poses(snap)
        if dice:
            offsets = np.array([(0, 0, 0), (1.5, 0, 0), (0, 1.5, 0), (0, 0, 1.5)], dtype=float)
            pts = [np.add(pose.position, offsets * snap.table.dice[o].half) for o, pose in dice]
            proj = to_window(np.concatenate(pts)).reshape(len(dice), 4, 3)
            for q in proj:
                if 0.0 < q[0, 2] < 1.0:
                    r = float(np.max(np.hypot(*(q[1:, :2] - q[0, :2]).T)))
                    obstacles.append(centred(float(q[0, 0]), float(q[0, 1]), 2 * r, 2 * r))
        # holes and bet cards: a referee plate over a hole or a card's letter hid it
        flat = label_free_boxes(snap.table)
        if flat:
            corners = [[(x, y, z) for x in (x0, x1) for y in (y0, y1)] for (x0, y0, x1, y1), z in flat]
            for q in to_window(np.array(corners).reshape(-1, 3)).reshape(len(flat), 4, 3):
                if np.all((q[:, 2] > 0.0) & (q[:, 2] < 1.0)):
                    lo, hi = q[:, :2].min(axis=0), q[:, :2].max(axis=0)
                    obstacles.append(Rect(float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])))
        spots = label_spots(snap.table.board)
        if spots:
            ends = [((x, y, 0.0), (x + 0.3 * h * len(t), y + 0.5 * h, 0.0)) for x, y, h, t, _, _ in spots]
            proj = to_window(np.array(ends).reshape(-1, 3)).reshape(len(spots), 2, 3)
            for c, e in proj:
                obstacles.append(
                    centred(float(c[0]), float(c[1]), 2 * abs(e[0] - c[0]) + 4, 2 * abs(e[1] - c[1]) + 4)
                )
        return out, obstacles

    def _marker(self, snap: Snapshot) -> Marker | None:
        if snap.input is not InputMode.THROW or self.aim is None:
            return None
        colour = "#ffffff"
        if snap.thrower and snap.thrower in snap.table.dice.dice:
            colour = snap.table.dice[snap.thrower].colour
        rx, ry, rz = (float(v) for v in self.aim.release_point())
        pos = (rx, ry, rz)
        if self._drag == "flick" and len(self._flick) >= 2:
            preview = self.aim.preview(self._flick)
            if preview is not None and preview[0] > 0.0:
                power, d = preview
                return Marker(pos, colour, (float(d[0]), float(d[1])), 0.03 + 0.09 * power)
        charge = self.charging()
        d = self.aim.keyboard_direction()  # straight in unless , or . turned it
        length = 0.025 if charge is None else 0.03 + 0.09 * charge
        return Marker(pos, colour, (float(d[0]), float(d[1])), length)

    # --- screenshots -----------------------------------------------------------------------
    def capture(self) -> np.ndarray:
        """Render a frame and return its pixels, shape ``(rows, cols, 3)`` uint8, top row first."""
        self.switch_to()
        self.render()
        width, height = self.get_framebuffer_size()
        gl.glFinish()
        gl.glReadBuffer(gl.GL_BACK)
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        buf = (gl.GLubyte * (width * height * 3))()
        gl.glReadPixels(0, 0, width, height, gl.GL_RGB, gl.GL_UNSIGNED_BYTE, buf)
        return np.frombuffer(memoryview(buf), dtype=np.uint8).reshape(height, width, 3)[::-1].copy()

    def save_screenshot(self, path: str | Path) -> Path:
        """Render a frame and save it as a PNG at ``path``; returns the path."""
        buf = io.BytesIO()
        Image.fromarray(self.capture()).save(buf, format="PNG")
        return write_atomic(path, buf.getvalue())

    def keep_open(self) -> None:
        """Refuse the close asked for now (the match could not save its game); the next one closes."""
        self._keep_open = True

    def on_close(self):
        self._keep_open = False
        self.emit(CommandIntent(Command.QUIT))
        if self._keep_open:  # the match said why in the window; Esc or the close button again quits
            return pyglet.event.EVENT_HANDLED
        self.switch_to()
        if self.scene is not None:
            self.scene.delete()
            self.scene = None
        for target in (self.msaa, self._scaled, *self._inset_targets):
            if target is not None:
                target.delete()
        self.msaa = self._scaled = None
        self._inset_targets, self._inset_drawn = [], []
        super().on_close()


def referee_texts(chips: list[tuple], referee: Sequence[RefereeLabel]) -> list[tuple]:
    """The referee view's labels ``(text, position, colour, size, boxed)``: one plate per die —
    its reading and its chips (``"2 on 2x · +4"``) pinned to the die — instead of two plates
    with crossing leaders (with 8 dice, 16 plates did not fit round the spinner); a chip text
    whose die has no reading (off the playfield) and a reading without chips keep their own."""
    by_colour = {lab.colour: lab for lab in referee}
    out, merged = [], set()
    for text, position, colour, _, _ in chips:
        lab = by_colour.get(colour)
        if lab is not None and colour not in merged:
            merged.add(colour)
            out.append((f"{lab.text} · {text}", position, colour, REFEREE_LABEL_SIZE, True))
        else:
            out.append((text, position, colour, 14.0, False))
    out += [
        (lab.text, lab.position, lab.colour, REFEREE_LABEL_SIZE, True)
        for lab in referee
        if lab.colour not in merged
    ]
    return out


def _x_time(e) -> float | None:
    """The server time (s) of an X input event, or ``None`` for other events."""
    try:
        if e.type in _TIMED_X_EVENTS:
            return e.xbutton.time / 1000.0
    except AttributeError:
        pass
    return None


def open_window(**kwargs) -> TableWindow:
    """Open a :class:`TableWindow` (same arguments); raises :class:`NoDisplayError` if none can open."""
    return TableWindow(**kwargs)


__all__ = ["NoDisplayError", "TableWindow", "open_window"]
