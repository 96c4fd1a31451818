"""Anti-aliasing: the 3-D scene drawn into a multisampled framebuffer, then resolved.

The window itself is single-sampled (so a software renderer pays nothing); on a GPU the
scene goes through a :class:`MsaaTarget` and is blitted to the window before the HUD.
"""

from __future__ import annotations

import ctypes

from render.backend import pyglet

gl = pyglet.gl


class MsaaTarget:
    """A multisampled colour + depth/stencil framebuffer of the window's size.

    Args:
        samples: samples per pixel (clamped to what the driver allows).
    """

    def __init__(self, samples: int):
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
        self.ok = self.samples > 1

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

    def begin(self, width: int, height: int) -> bool:
        """Bind the multisampled framebuffer (resized if needed); ``False`` if it is unusable."""
        if not self.ok and self.size != (0, 0):
            return False
        if (width, height) != self.size:
            self._resize(width, height)
        if not self.ok:
            return False
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo)
        return True

    def end(self) -> None:
        """Resolve into the window's back buffer and bind it again."""
        width, height = self.size
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.fbo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        gl.glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        gl.glDeleteFramebuffers(1, ctypes.byref(self.fbo))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.colour))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.depth))
