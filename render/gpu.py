"""GPU resources: meshes in vertex arrays and textures from numpy images.

Every :class:`~render.mesh.Mesh` becomes one VAO with an interleaved buffer at fixed
attribute locations (0 position, 1 normal, 2 uv, 3 face), so any program of
:mod:`render.shaders` can draw it.
"""

from __future__ import annotations

import ctypes

import numpy as np

from render.backend import pyglet
from render.mesh import Mesh

gl = pyglet.gl
_STRIDE = 9 * 4  # 3 + 3 + 2 + 1 floats


class GpuMesh:
    """A mesh uploaded to the GPU; :meth:`draw` issues one indexed draw call."""

    def __init__(self, mesh: Mesh, dynamic: bool = False):
        self.vao = gl.GLuint()
        self.vbo = gl.GLuint()
        self.ebo = gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        gl.glGenBuffers(1, ctypes.byref(self.vbo))
        gl.glGenBuffers(1, ctypes.byref(self.ebo))
        gl.glBindVertexArray(self.vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self.ebo)
        self.usage = gl.GL_DYNAMIC_DRAW if dynamic else gl.GL_STATIC_DRAW
        for loc, (size, offset) in enumerate(((3, 0), (3, 3), (2, 6), (1, 8))):
            gl.glEnableVertexAttribArray(loc)
            gl.glVertexAttribPointer(
                loc, size, gl.GL_FLOAT, gl.GL_FALSE, _STRIDE, ctypes.c_void_p(offset * 4)
            )
        self.count = 0
        self.upload(mesh)
        gl.glBindVertexArray(0)

    def upload(self, mesh: Mesh) -> None:
        """Replace the vertex and index data with ``mesh``."""
        data = np.ascontiguousarray(
            np.concatenate([mesh.positions, mesh.normals, mesh.uvs, mesh.faces[:, None]], axis=1),
            dtype=np.float32,
        )
        idx = np.ascontiguousarray(mesh.indices.reshape(-1), dtype=np.uint32)
        gl.glBindVertexArray(self.vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        gl.glBufferData(gl.GL_ARRAY_BUFFER, data.nbytes, data.ctypes.data_as(ctypes.c_void_p), self.usage)
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self.ebo)
        gl.glBufferData(
            gl.GL_ELEMENT_ARRAY_BUFFER,
            max(idx.nbytes, 4),
            idx.ctypes.data_as(ctypes.c_void_p) if idx.size else None,
            self.usage,
        )
        self.count = int(idx.size)

    def draw(self) -> None:
        if not self.count:
            return
        gl.glBindVertexArray(self.vao)
        gl.glDrawElements(gl.GL_TRIANGLES, self.count, gl.GL_UNSIGNED_INT, ctypes.c_void_p(0))

    def delete(self) -> None:
        gl.glDeleteBuffers(1, ctypes.byref(self.vbo))
        gl.glDeleteBuffers(1, ctypes.byref(self.ebo))
        gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))


def texture(
    image: np.ndarray,
    *,
    repeat: bool = False,
    mipmaps: bool = True,
    anisotropy: float = 1.0,
    trilinear: bool = True,
) -> int:
    """Upload an RGBA uint8 image ``(rows, cols, 4)`` (row 0 = v = 0) and return the texture id.

    Args:
        repeat: tile the texture (else clamp to the edge).
        mipmaps: build mipmaps and filter with them.
        anisotropy: maximum anisotropic filtering (1 = off; costly on software renderers).
        trilinear: blend between mipmap levels (else the nearest level, half the fetches).
    """
    img = np.ascontiguousarray(image, dtype=np.uint8)
    rows, cols = img.shape[:2]
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexImage2D(
        gl.GL_TEXTURE_2D,
        0,
        gl.GL_RGBA8,
        cols,
        rows,
        0,
        gl.GL_RGBA,
        gl.GL_UNSIGNED_BYTE,
        img.ctypes.data_as(ctypes.c_void_p),
    )
    wrap = gl.GL_REPEAT if repeat else gl.GL_CLAMP_TO_EDGE
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_S, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_T, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
    if mipmaps:
        gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
        gl.glTexParameteri(
            gl.GL_TEXTURE_2D,
            gl.GL_TEXTURE_MIN_FILTER,
            gl.GL_LINEAR_MIPMAP_LINEAR if trilinear else gl.GL_LINEAR_MIPMAP_NEAREST,
        )
        if anisotropy > 1:
            gl.glTexParameterf(gl.GL_TEXTURE_2D, 0x84FE, float(anisotropy))  # GL_TEXTURE_MAX_ANISOTROPY
            gl.glGetError()  # ignore drivers without anisotropic filtering
    else:
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR)
    gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
    return tex.value


def delete_texture(tex: int) -> None:
    t = gl.GLuint(tex)
    gl.glDeleteTextures(1, ctypes.byref(t))
