"""GLSL 3.30 sources of the scene shader, one variant per material.

Attribute locations are fixed (0 position, 1 normal, 2 uv, 3 face) to match
:class:`render.gpu.GpuMesh`. :func:`lit_source` specialises the shader with a ``#define``
(no run-time branching, which software renderers pay for per pixel):

- ``MODE_COLOUR``: plain colour; ``MODE_TEXTURE``: texture × colour — both lit per vertex
  (flat cardboard and wood need no per-pixel lighting); with ``u_baked = 1`` the texture's
  alpha is the baked direct light (the playfield print, :func:`render.lighting.baked_light`);
- ``MODE_DIE``: the face atlas tile per face with body and pip colours, lit per pixel with
  highlights;
- ``MODE_FLAT``: unlit colour with alpha (markers, referee outlines);
- ``MODE_SHADOW``: translucent black — a soft disc (``u_radial = 1``, contact shadows) or a
  flattened shape (planar shadows); with ``u_board_half`` set it stays on the playfield
  and out of its holes (the print's alpha is 0 there).

Light: the key light (:data:`render.lighting.LIGHT_DIR`), sky/ground ambient, both dimmed
inside the cavity under the insert, and fog into the background with distance. The
referee view (``u_referee = 1``) lights straight from above so the print shows its colours.
"""

from __future__ import annotations

MODES = ("MODE_COLOUR", "MODE_TEXTURE", "MODE_DIE", "MODE_FLAT", "MODE_SHADOW")

_COMMON = """
uniform vec3 u_light_dir;    // unit vector towards the key light
uniform vec3 u_eye;
uniform float u_cavity_z;    // below this the insert roofs the space over
uniform vec3 u_fog;
uniform int u_referee;
uniform vec2 u_inner_half;   // half the box's inner size: the cavity lies within it
uniform float u_floor_z;     // ... and above the box floor (the table is below it)
const vec3 LIGHT = vec3(1.0, 0.97, 0.92);

float cavity(vec3 w) {
    vec2 inside = step(abs(w.xy), u_inner_half + 0.0001);
    return inside.x * inside.y * step(u_floor_z - 0.001, w.z)
        * smoothstep(u_cavity_z + 0.0005, u_cavity_z - 0.002, w.z);
}
vec3 ambient(vec3 n, vec3 w) {
    vec3 sky = vec3(0.56, 0.58, 0.62);
    vec3 ground = vec3(0.30, 0.26, 0.22);
    return mix(ground, sky, n.z * 0.5 + 0.5) * mix(1.0, 0.32, cavity(w));
}
float direct(vec3 n, vec3 w) { return 0.85 * max(dot(n, u_light_dir), 0.0) * (1.0 - cavity(w)); }
float fog_amount(vec3 world) {
    return u_referee == 1 ? 0.0 : clamp((length(u_eye - world) - 1.3) / 2.2, 0.0, 1.0);
}
"""

_VERTEX = """
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 3) in float face;
uniform mat4 u_model;
uniform mat4 u_view_proj;
uniform float u_ao;
out vec2 v_uv;
#if defined(MODE_DIE) || defined(MODE_SHADOW)
out vec3 v_world;
#endif
#if defined(MODE_DIE)
out vec3 v_normal;
flat out int v_face;
#endif
#if defined(MODE_COLOUR) || defined(MODE_TEXTURE)
out vec4 v_amb_fog;          // ambient light (rgb) and fog amount (a)
out float v_diff;
#endif
void main() {
    vec4 w = u_model * vec4(position, 1.0);
    v_uv = uv;
#if defined(MODE_DIE) || defined(MODE_SHADOW)
    v_world = w.xyz;
#endif
#if defined(MODE_DIE) || defined(MODE_COLOUR) || defined(MODE_TEXTURE)
    vec3 n = normalize(mat3(u_model) * normal);
    if (dot(n, u_eye - w.xyz) < 0.0) n = -n;      // thin parts are lit from both sides
#endif
#if defined(MODE_DIE)
    v_normal = n;
    v_face = int(face + 0.5);
#endif
#if defined(MODE_COLOUR) || defined(MODE_TEXTURE)
    if (u_referee == 1) {
        float dim = 1.0 - 0.6 * cavity(w.xyz);
        v_amb_fog = vec4(vec3(0.3 * dim), 0.0);
        v_diff = 0.7 * max(n.z, 0.0) * dim;
    } else {
        // u_ao: darker towards the foot of a wall standing on the playfield
        float ao = 1.0 - u_ao * (1.0 - clamp(w.z / 0.045, 0.0, 1.0));
        v_amb_fog = vec4(ambient(n, w.xyz) * ao, fog_amount(w.xyz));
        v_diff = direct(n, w.xyz);
    }
#endif
    gl_Position = u_view_proj * w;
}
"""

_FRAGMENT = """
in vec2 v_uv;
#if defined(MODE_DIE) || defined(MODE_SHADOW)
in vec3 v_world;
#endif
#if defined(MODE_DIE)
in vec3 v_normal;
flat in int v_face;
#endif
#if defined(MODE_COLOUR) || defined(MODE_TEXTURE)
in vec4 v_amb_fog;
in float v_diff;
#endif
out vec4 frag;

uniform vec4 u_colour;
uniform vec3 u_pip;
uniform sampler2D u_tex;
uniform vec3 u_tiles_a;      // atlas tile of faces +x, -x, +y
uniform vec3 u_tiles_b;      // atlas tile of faces -y, +z, -z
uniform float u_spec;
uniform float u_shininess;
uniform int u_baked;
uniform int u_radial;
uniform vec2 u_board_half;   // half the inner box size (shadow mask), 0 = no mask

void main() {
#if defined(MODE_FLAT)
    frag = u_colour;
#elif defined(MODE_SHADOW)
    float a = u_colour.a;
    if (u_radial == 1) a *= pow(clamp(1.0 - length(v_uv * 2.0 - 1.0), 0.0, 1.0), 1.6);
    if (u_board_half.x > 0.0) {
        vec2 q = (v_world.xy + u_board_half) / (2.0 * u_board_half);
        if (q.x < 0.0 || q.x > 1.0 || q.y < 0.0 || q.y > 1.0) discard;
        a *= step(0.004, texture(u_tex, q).a);
    }
    frag = vec4(0.0, 0.0, 0.0, a);
#elif defined(MODE_DIE)
    float tile = v_face < 3 ? u_tiles_a[v_face] : u_tiles_b[v_face - 3];
    vec4 t = texture(u_tex, vec2((tile + v_uv.x) * 0.25, v_uv.y));
    vec3 albedo = mix(u_colour.rgb, u_pip, t.r) * (1.0 - 0.45 * t.g * (1.0 - t.r));
    vec3 n = normalize(v_normal);
    vec3 colour;
    if (u_referee == 1) {
        colour = albedo * (0.3 + 0.7 * max(n.z, 0.0)) * (1.0 - 0.6 * cavity(v_world));
    } else {
        vec3 to_eye = normalize(u_eye - v_world);
        vec3 h = normalize(u_light_dir + to_eye);
        float lit = 1.0 - cavity(v_world);
        float spec = u_spec * pow(max(dot(n, h), 0.0), u_shininess) * lit;
        colour = albedo * (ambient(n, v_world) + LIGHT * direct(n, v_world)) + vec3(spec);
        colour = mix(colour, u_fog, fog_amount(v_world));
    }
    frag = vec4(colour, u_colour.a);
#else
    vec3 albedo = u_colour.rgb;
    float sh = 1.0;
#if defined(MODE_TEXTURE)
    vec4 t = texture(u_tex, v_uv);
    albedo *= t.rgb;
    if (u_baked == 1 && u_referee == 0) sh = t.a;
#endif
    vec3 colour = albedo * (v_amb_fog.rgb + LIGHT * v_diff * sh);
    frag = vec4(mix(colour, u_fog, v_amb_fog.a), u_colour.a);
#endif
}
"""


def lit_source(mode: str) -> tuple[str, str]:
    """Vertex and fragment source of the scene shader for material ``mode`` (one of :data:`MODES`)."""
    if mode not in MODES:
        raise ValueError(f"unknown shader mode {mode!r}")
    head = f"#version 330 core\n#define {mode} 1\n"
    return head + _COMMON + _VERTEX, head + _COMMON + _FRAGMENT
