"""A GLSL program with plain uniform setters (raw OpenGL through :mod:`pyglet.gl`).

pyglet's own ShaderProgram does not know shadow samplers and raises on uniforms the
driver optimised out; this small wrapper compiles, links, caches uniform locations and
sets values by their Python shape, ignoring names the driver dropped.
"""

from __future__ import annotations

import ctypes

import numpy as np

from render.backend import pyglet

gl = pyglet.gl
_FLOATS = ctypes.POINTER(gl.GLfloat)


class ShaderError(RuntimeError):
    """A shader failed to compile or link (the driver's log is in the message)."""


def _compile(kind: int, source: str) -> int:
    shader = gl.glCreateShader(kind)
    src = source.encode()
    buf = ctypes.create_string_buffer(src)
    ptr = ctypes.cast(ctypes.pointer(ctypes.pointer(buf)), ctypes.POINTER(ctypes.POINTER(gl.GLchar)))
    length = gl.GLint(len(src))
    gl.glShaderSource(shader, 1, ptr, ctypes.byref(length))
    gl.glCompileShader(shader)
    ok = gl.GLint()
    gl.glGetShaderiv(shader, gl.GL_COMPILE_STATUS, ctypes.byref(ok))
    if not ok.value:
        raise ShaderError(f"shader compile failed: {_log(shader, gl.glGetShaderInfoLog)}")
    return shader


def _log(obj: int, getter) -> str:
    buf = ctypes.create_string_buffer(8192)
    n = gl.GLsizei()
    getter(obj, 8192, ctypes.byref(n), buf)
    return buf.value.decode(errors="replace")


class Program:
    """A linked vertex + fragment program.

    Args:
        vertex: GLSL source of the vertex shader.
        fragment: GLSL source of the fragment shader.
    """

    def __init__(self, vertex: str, fragment: str):
        vs = _compile(gl.GL_VERTEX_SHADER, vertex)
        fs = _compile(gl.GL_FRAGMENT_SHADER, fragment)
        self.id = gl.glCreateProgram()
        gl.glAttachShader(self.id, vs)
        gl.glAttachShader(self.id, fs)
        gl.glLinkProgram(self.id)
        ok = gl.GLint()
        gl.glGetProgramiv(self.id, gl.GL_LINK_STATUS, ctypes.byref(ok))
        gl.glDeleteShader(vs)
        gl.glDeleteShader(fs)
        if not ok.value:
            raise ShaderError(f"program link failed: {_log(self.id, gl.glGetProgramInfoLog)}")
        self._locations: dict[str, int] = {}

    def use(self) -> None:
        gl.glUseProgram(self.id)

    def location(self, name: str) -> int:
        loc = self._locations.get(name)
        if loc is None:
            loc = gl.glGetUniformLocation(self.id, name.encode())
            self._locations[name] = loc
        return loc

    def set(self, name: str, value) -> None:
        """Set uniform ``name`` of the program in use.

        ``int``/``bool`` → int (samplers, flags); ``float`` → float; 2–4 numbers → vecN;
        16 numbers or a 4×4 array → mat4 (4×4 arrays are taken row-major, as numpy holds
        them). Unknown or optimised-out names are ignored.
        """
        loc = self.location(name)
        if loc < 0:
            return
        if isinstance(value, (bool, int, np.integer)):
            gl.glUniform1i(loc, int(value))
        elif isinstance(value, (float, np.floating)):
            gl.glUniform1f(loc, float(value))
        else:
            arr = np.asarray(value, dtype=np.float32)
            if arr.shape == (4, 4):  # column-major for GL: the transpose's bytes, passed as they lie
                data = np.ascontiguousarray(arr.T)
                gl.glUniformMatrix4fv(loc, 1, gl.GL_FALSE, data.ctypes.data_as(_FLOATS))
            elif arr.size == 16:
                data = np.ascontiguousarray(arr.reshape(-1))
                gl.glUniformMatrix4fv(loc, 1, gl.GL_FALSE, data.ctypes.data_as(_FLOATS))
            elif arr.size == 2:
                gl.glUniform2f(loc, *map(float, arr))
            elif arr.size == 3:
                gl.glUniform3f(loc, *map(float, arr))
            elif arr.size == 4:
                gl.glUniform4f(loc, *map(float, arr))
            else:
                raise ValueError(f"uniform {name}: cannot set a value of shape {arr.shape}")

    def delete(self) -> None:
        if self.id:
            gl.glDeleteProgram(self.id)
            self.id = 0
