"""The desktop window: draws the snapshots it is handed and turns input into intents.

:class:`TableWindow` is a resizable pyglet window with an OpenGL 3.3 core context. The
match calls :meth:`TableWindow.show` with the latest snapshot (and the one before plus an
interpolation factor, for a fixed-step simulation) and receives
:class:`~render.intents.ThrowIntent`, :class:`~render.intents.BetIntent` and
:class:`~render.intents.CommandIntent` through ``on_intent``. Camera, referee view, help,
sound and screenshots are handled here; no rule is decided here.

Raises :class:`render.errors.NoDisplayError` when no window can be opened.
"""

# ruff: noqa: I001  (imports are ordered on purpose: a backend is configured before it loads)

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from render.aim import ThrowAim
from render.audio import Clatter
from render.backend import check_display, pyglet
from render.camera import Camera
from render.controls import Controls
from render.errors import NoDisplayError
from render.hud import Anchor, Hud, HudState
from render.intents import Command, CommandIntent, Intent, IntentHandler
from render.msaa import MsaaTarget
from render.scene import Marker, Scene
from render.snapshot import InputMode, Snapshot, interpolate

import pyglet.window  # noqa: E402  (after render.backend set the options)
from pyglet.window import key  # noqa: E402

gl = pyglet.gl

#: Renderer names of software rasterisers (cheaper settings, no multisampling).
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swiftshader", "software rasterizer")


def _configs():
    yield pyglet.gl.Config(
        double_buffer=True,
        depth_size=24,
        stencil_size=8,
        major_version=3,
        minor_version=3,
        forward_compatible=True,
    )
    yield pyglet.gl.Config(
        double_buffer=True, depth_size=24, stencil_size=8, major_version=3, minor_version=3
    )
    yield pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)


class TableWindow(Controls, pyglet.window.Window):
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
        self.renderer = info.get_renderer()
        self.software = any(s in self.renderer.lower() for s in SOFTWARE_RENDERERS)
        samples = (0 if self.software else 4) if msaa is None else msaa
        self.msaa = MsaaTarget(samples) if samples > 1 else None
        self.on_intent: IntentHandler | None = on_intent
        self.clock = clock
        self.screenshot_dir = Path(screenshot_dir)
        self.camera = Camera()
        self.hud = Hud()
        self.clatter = Clatter(enabled=sound, clock=clock)
        self.keys = key.KeyStateHandler()
        self.push_handlers(self.keys)
        self.scene: Scene | None = None
        self.aim: ThrowAim | None = None
        self.help = False
        self.follow = True
        self.hint = ""
        self._hint_until = 0.0
        self._current: Snapshot | None = None
        self._shown: Snapshot | None = None
        self._seen_impacts: int | None = None
        self._drag: str | None = None
        self._flick: list[tuple[float, float, float]] = []
        self._last_draw = clock()

    @property
    def referee(self) -> bool:
        """Whether the straight-down referee view is on."""
        return self.camera.referee

    @referee.setter
    def referee(self, on: bool) -> None:
        self.camera.referee = bool(on)

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
        self._current = current
        self._shown = interpolate(previous, current, alpha) if previous is not None else current
        if current.input is InputMode.THROW and old_mode is not InputMode.THROW and self.follow and self.aim:
            self.camera.face_side(self.aim.side)

    def _set_table(self, snap: Snapshot) -> None:
        self.switch_to()
        if self.scene is not None:
            self.scene.delete()
        self.scene = Scene(snap.table, anisotropy=1.0 if self.software else 8.0)
        die = next(iter(snap.table.dice.dice.values()))
        self.aim = ThrowAim(snap.table.box, die.size)
        self.camera.extent = max(snap.table.box.inner_size) / 2 + 0.045

    def emit(self, intent: Intent) -> None:
        """Hand ``intent`` to the match."""
        if self.on_intent is not None:
            self.on_intent(intent)

    def say(self, hint: str, seconds: float = 3.0) -> None:
        """Show a short hint above the message line."""
        self.hint = hint
        self._hint_until = self.clock() + seconds

    # --- drawing ---------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the current frame into the back buffer (no flip)."""
        now = self.clock()
        dt = min(0.1, max(0.0, now - self._last_draw))
        self._last_draw = now
        self._walk(dt)
        self.camera.update(dt)
        if self.hint and now > self._hint_until:
            self.hint = ""
        width, height = self.get_framebuffer_size()
        snap = self._shown
        if snap is None or self.scene is None:
            gl.glViewport(0, 0, width, height)
            gl.glClearColor(0.085, 0.08, 0.075, 1.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        else:
            multisampled = self.msaa is not None and self.msaa.begin(width, height)
            self.scene.draw(snap, self.camera, width, height, referee=self.referee, marker=self._marker(snap))
            if multisampled:
                self.msaa.end()
        gl.glViewport(0, 0, width, height)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        self.hud.update(snap, self._hud_state(), self._anchors(snap, width, height))
        self.hud.draw()

    def on_draw(self) -> None:
        self.render()

    def _hud_state(self) -> HudState:
        aim = ""
        if self._current is not None and self._current.input is InputMode.THROW and self.aim is not None:
            a = self.aim
            aim = (
                f"Throwing from side {a.side}, {a.along * 100:+.0f} cm along · release "
                f"{a.height * 1000:.0f} mm over the rim · spin {a.spin:+.0f} rad/s"
            )
        return HudState(
            self.width, self.height, aim, self.hint, self.referee, self.clatter.enabled, self.help
        )

    def _anchors(self, snap: Snapshot | None, width: int, height: int) -> list[Anchor]:
        if snap is None:
            return []
        sx, sy = self.width / max(width, 1), self.height / max(height, 1)  # framebuffer → window px
        out = []
        for f in snap.floating:
            x, y, depth = self.camera.project(f.position, width, height)
            if 0.0 < depth < 1.0:
                out.append(Anchor(f.text, x * sx, y * sy + 36, f.colour, 18.0))
        if self.referee and self.scene is not None:
            for lab in self.scene.referee_labels:
                x, y, depth = self.camera.project(lab.position, width, height)
                out.append(Anchor(lab.text, x * sx, y * sy - 10, lab.colour, 10.0, boxed=True))
        return out

    def _marker(self, snap: Snapshot) -> Marker | None:
        if snap.input is not InputMode.THROW or self.aim is None:
            return None
        colour = "#ffffff"
        if snap.thrower and snap.thrower in snap.table.dice.dice:
            colour = snap.table.dice[snap.thrower].colour
        pos = tuple(float(v) for v in self.aim.release_point())
        if len(self._flick) >= 2:
            d = np.array(self._flick[-1][1:]) - np.array(self._flick[0][1:])
            n = float(np.linalg.norm(d))
            if n > 1e-6:
                return Marker(pos, colour, (d[0] / n, d[1] / n), min(0.12, 0.02 + n * 0.5))
        inward = self.aim.inward
        return Marker(pos, colour, (float(inward[0]), float(inward[1])), 0.025)

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
        return np.frombuffer(buf, dtype=np.uint8).reshape(height, width, 3)[::-1].copy()

    def save_screenshot(self, path: str | Path) -> Path:
        """Render a frame and save it as a PNG at ``path``; returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(self.capture()).save(path)
        return path

    def on_close(self):
        self.emit(CommandIntent(Command.QUIT))
        self.switch_to()
        if self.scene is not None:
            self.scene.delete()
            self.scene = None
        if self.msaa is not None:
            self.msaa.delete()
            self.msaa = None
        super().on_close()


def open_window(**kwargs) -> TableWindow:
    """Open a :class:`TableWindow` (same arguments); raises :class:`NoDisplayError` if none can open."""
    return TableWindow(**kwargs)


__all__ = ["NoDisplayError", "TableWindow", "open_window"]
