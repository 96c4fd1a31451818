"""The 3-D scene's own framebuffer: multisampled on a GPU, or smaller than the window in software.

The window itself is single-sampled (so a software renderer pays nothing); on a GPU the
scene goes through a :class:`MsaaTarget` and is resolved into the window before the HUD.
On a software renderer, whose cost grows with the pixels drawn, a large window's scene is
drawn at a lower resolution (``scale`` < 1, see :func:`software_scale`) and stretched onto
the window with linear filtering; the HUD is then drawn at the window's full resolution.
"""

from __future__ import annotations

import ctypes

from render.backend import pyglet

gl = pyglet.gl


#: A software renderer draws the 3-D scene whole in windows up to this many pixels (1280 × 800) ...
SOFTWARE_FULL = 1280 * 800
#: ... and in larger windows at this many pixels (about 1056 × 594 at 16:9), stretched: on
#: llvmpipe with 2 cores a frame's CPU time at 1920 × 1080 falls from ~56 ms to ~38 ms.
SOFTWARE_PIXELS = 1056 * 594


def software_scale(width: int, height: int) -> float:
    """The scene's resolution factor on a software renderer (1 up to :data:`SOFTWARE_FULL` pixels)."""
    pixels = max(1, width * height)
    return 1.0 if pixels <= SOFTWARE_FULL else (SOFTWARE_PIXELS / pixels) ** 0.5


class MsaaTarget:
    """A colour + depth/stencil framebuffer for the scene: multisampled, or scaled down.

    Args:
        samples: samples per pixel (clamped to what the driver allows); 0 or 1: single-sampled.
        scale: the framebuffer's size relative to the window (single-sampled only).
    """

    def __init__(self, samples: int, scale: float = 1.0):
        self.scale = float(scale)
        limit = gl.GLint()
        gl.glGetIntegerv(gl.GL_MAX_SAMPLES, ctypes.byref(limit))
        self.samples = max(0, min(samples, limit.value))
        self.size = (0, 0)
        self.fbo = gl.GLuint()
        self.colour = gl.GLuint()
        self.depth = gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(self.fbo))
        gl.glGenRenderbuffers(1, ctypes.byref(self.colour))
        gl.glGenRenderbuffers(1, ctypes.byref(self.depth))
        if self.samples <= 1:
            self.samples = 0
        self.ok = self.samples > 1 or self.scale < 1.0
        self.window_size = (0, 0)

    def _resize(self, width: int, height: int) -> None:
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, self.colour)
        gl.glRenderbufferStorageMultisample(gl.GL_RENDERBUFFER, self.samples, gl.GL_RGBA8, width, height)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, self.depth)
        gl.glRenderbufferStorageMultisample(
            gl.GL_RENDERBUFFER, self.samples, gl.GL_DEPTH24_STENCIL8, width, height
        )
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo)
        gl.glFramebufferRenderbuffer(
            gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, self.colour
        )
        gl.glFramebufferRenderbuffer(
            gl.GL_FRAMEBUFFER, gl.GL_DEPTH_STENCIL_ATTACHMENT, gl.GL_RENDERBUFFER, self.depth
        )
        self.ok = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER) == gl.GL_FRAMEBUFFER_COMPLETE
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        self.size = (width, height)

    def resize_to(self, width: int, height: int) -> bool:
        """Give the framebuffer exactly ``width`` × ``height`` px (kept if it has them);
        ``False`` if the driver cannot make it."""
        if (width, height) != self.size:
            self._resize(width, height)
        return self.ok

    def scene_size(self, width: int, height: int) -> tuple[int, int]:
        """The framebuffer's size for a window of ``width`` × ``height`` px."""
        if self.samples > 1 or self.scale >= 1.0:
            return width, height
        return max(1, round(width * self.scale)), max(1, round(height * self.scale))

    def begin(self, width: int, height: int) -> bool:
        """Bind the framebuffer (resized if needed) for a window of ``width`` × ``height``;
        ``False`` if it is unusable (draw into the window then)."""
        if not self.ok and self.size != (0, 0):
            return False
        size = self.scene_size(width, height)
        if size != self.size:
            self._resize(*size)
        if not self.ok:
            return False
        self.window_size = (width, height)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo)
        return True

    def end(self) -> None:
        """Resolve (or stretch) into the window's back buffer and bind it again."""
        width, height = self.size
        ww, wh = self.window_size
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.fbo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        filt = gl.GL_NEAREST if (ww, wh) == (width, height) else gl.GL_LINEAR
        gl.glBlitFramebuffer(0, 0, width, height, 0, 0, ww, wh, gl.GL_COLOR_BUFFER_BIT, filt)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        gl.glDeleteFramebuffers(1, ctypes.byref(self.fbo))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.colour))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.depth))
