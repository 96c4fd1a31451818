"""The scene's still parts, drawn once per view and copied under every frame.

While dice roll the camera stands still, and most of a frame's pixels — the wood table,
the playfield print, the walls, the cavity, the box's and cards' planar shadows — are the
same from one frame to the next. On a software renderer they cost most of the scene's
time (measured in docs/window.md, "Frame rate"). A :class:`Backdrop` holds them in a
framebuffer of its own — colour, depth and stencil — recorded again only when what they
look like changes (the camera, the framebuffer's size, the referee view, which wall is
faded, whether the cards are drawn see-through: :class:`~render.scene.Scene` makes the
key), and copied whole into the scene's framebuffer at the start of each frame; the moving
and see-through parts are then drawn over it, depth-tested against the copied depth,
exactly as if the still parts had been drawn in the same frame.
"""

from __future__ import annotations

import ctypes

from render.backend import pyglet
from render.msaa import MsaaTarget

gl = pyglet.gl


class Backdrop:
    """A framebuffer of the scene's still parts, keyed by what they look like.

    Single-sampled (a software renderer's scene is); :attr:`records` counts how often it
    was drawn anew, :attr:`copies` how often it was copied into a frame.
    """

    def __init__(self) -> None:
        self.target = MsaaTarget(0)
        self.key: object = None
        self.records = 0
        self.copies = 0
        #: A copy failed once (e.g. a depth/stencil format the driver will not blit into):
        #: the scene draws its still parts every frame from then on.
        self.broken = False

    def fresh(self, key: object) -> bool:
        """The framebuffer holds the still parts as ``key`` describes them."""
        return not self.broken and key == self.key

    def begin_record(self, width: int, height: int) -> bool:
        """Bind the framebuffer (``width`` × ``height`` px) cleared, to draw the still parts
        into; ``False`` (nothing bound) if it cannot be made."""
        if self.broken or not self.target.resize_to(width, height):
            self.broken = True
            return False
        self.key = None  # until end_record: a record broken off is never copied
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.target.fbo)
        gl.glViewport(0, 0, width, height)
        return True

    def end_record(self, key: object) -> None:
        """The still parts of ``key`` are drawn."""
        self.key = key
        self.records += 1

    def copy_into(self, framebuffer: int, width: int, height: int) -> bool:
        """Copy colour, depth and stencil into ``framebuffer`` (bound afterwards, as it is to
        draw on); ``False`` if the driver refused (the backdrop is then given up)."""
        while gl.glGetError() != gl.GL_NO_ERROR:  # errors of others are not this copy's
            pass
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.target.fbo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, framebuffer)
        bits = gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT | gl.GL_STENCIL_BUFFER_BIT
        gl.glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, bits, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, framebuffer)
        if gl.glGetError() != gl.GL_NO_ERROR:
            self.broken = True
            self.key = None
            return False
        self.copies += 1
        return True

    def delete(self) -> None:
        self.target.delete()
        self.key = None


def bound_framebuffer() -> int:
    """The framebuffer bound for drawing now (0: the window's own)."""
    value = gl.GLint()
    gl.glGetIntegerv(gl.GL_DRAW_FRAMEBUFFER_BINDING, ctypes.byref(value))
    return int(value.value)
