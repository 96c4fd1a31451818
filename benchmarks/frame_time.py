"""Frame time of the desktop window: the standard scene (side I, 8 dice), 1280 × 720 by default.

Run: ``python benchmarks/frame_time.py [--width 1920 --height 1080] [--frames N] [--json]``.
Starts a private Xvfb (Mesa's llvmpipe software renderer) unless ``--use-display`` is
given, opens the window, moves two dice every frame (so every frame is drawn; the still parts come from the backdrop, see ``--backdrop``) and
prints frames per second with the machine's load (``os.getloadavg``) beside it; nothing is
asserted (a figure, not a test). The target on llvmpipe is 25 fps at 1920 × 1080.

``--compare`` draws the same frames with the scene at the window's full resolution and at
the window's default resolution (on a software renderer at most 1280 × 720 pixels,
stretched), interleaved in blocks of 10 frames so both see the same load, and prints both
and their ratio. ``--idle S`` instead runs ``doppelx play`` 's loop for S seconds while it
waits for a person's throw and prints the CPU it used (% of one core). ``--startup`` launches
``doppelx play --autoplay`` as a new process and prints the seconds from the launch to its
first frame (the splash) and to the first frame showing the table. ``--inset`` draws the
standard scene and the same scene with one die (red) lying on the table off the box — the
window then draws the off-the-box inset (:mod:`render.inset`) — interleaved in blocks of 10
frames, and prints both and their ratio. ``--split`` prints where a frame goes: the 3-D
scene into its framebuffer, its stretch onto the window, the HUD and the flip, each waited
for with ``glFinish`` (medians, ms). ``--backdrop`` draws the same frames with the scene's
still parts copied from the backdrop (:mod:`render.backdrop`, the window's default on a
software renderer) and drawn every frame, interleaved in blocks of 10 frames, and prints both
and their ratio. ``--play N`` runs ``doppelx play``'s own loop (:func:`doppelx.games.doppelx.play.app.run`)
on a game of four bots (seed 11) until N throws have come to rest and prints the frames drawn
per second *while dice roll* — what a player sees, with the controller's steps, the HUD's
labels and the loop's pacing — and where such a frame's time goes: drawing (CPU), the flip
(which on llvmpipe also waits for the rasteriser threads) and the match's steps.

The script measures the code of the tree it lies in (its folder's parent goes first on
``sys.path``): run from another commit's checkout it measures that commit, whatever package
the environment has installed.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's code, not the installed one


def start_xvfb(width: int, height: int) -> tuple[subprocess.Popen, str]:
    """Start Xvfb on a free display number; returns the process and the display name."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        sys.exit("frame_time: Xvfb is not installed (or pass --use-display to use $DISPLAY)")
    n = next(
        n
        for n in range(140, 200)
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists()
    )
    proc = subprocess.Popen(
        [xvfb, f":{n}", "-screen", "0", f"{width + 64}x{height + 64}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        time.sleep(0.05)
    return proc, f":{n}"


@contextlib.contextmanager
def own_display(args):
    """A virtual display of the window's size for the ``with`` block (``$DISPLAY`` with
    ``--use-display``), stopped afterwards."""
    if args.use_display:
        yield
        return
    proc, display = start_xvfb(args.width, args.height)
    os.environ["DISPLAY"] = display
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def draw_timed(win, snap) -> float:
    """Show ``snap`` and draw one frame of ``win`` as the window's loop does; its wall seconds."""
    t0 = time.perf_counter()
    win.show(snap)
    win.dispatch_events()
    win.render()
    win.flip()
    return time.perf_counter() - t0


def standard_scene(frame: int):
    """Side I with 8 dice (7 players + white): 6 lying still, 2 tumbling through the air."""
    from render.snapshot import FloatingText, ScoreLine, Snapshot, TableSpec
    from rules.doppelx.outcome import Pose

    table = standard_scene.table = getattr(standard_scene, "table", None) or TableSpec.standard("I")
    owners = ["blue", "red", "yellow", "green", "purple", "orange", "pink", "white"]
    rng = np.random.default_rng(1)
    spots = rng.uniform(-0.11, 0.11, size=(len(owners), 2))
    dice = {}
    for k, (owner, (x, y)) in enumerate(zip(owners, spots)):
        die = table.dice[owner]
        if k < 6:
            dice[owner] = Pose.resting(die, float(x), float(y), k * 0.7, die.faces[k % 6])
        else:  # tumbling: a new pose every frame
            a = frame * 0.21 + k
            q = np.array([math.sin(a), math.cos(1.3 * a), 0.3, math.cos(a)])
            q /= np.linalg.norm(q)
            dice[owner] = Pose(
                (float(x) + 0.03 * math.sin(a), float(y), 0.03 + 0.02 * abs(math.sin(a))),
                tuple(float(v) for v in q),
            )
    board = tuple(ScoreLine(o.title(), o, 3 * k, k == 0) for k, o in enumerate(owners[:7]))
    return Snapshot(
        table,
        dice,
        scoreboard=board,
        turn="Blue throws",
        floating=(FloatingText("+6", dice["blue"].position, "#f4c21b"),),
        time=frame / 60,
    )


def main() -> None:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument(
        "--msaa", type=int, default=None, help="multisamples (default: 4 on a GPU, 0 in software)"
    )
    parser.add_argument(
        "--use-display", action="store_true", help="draw on $DISPLAY instead of a private Xvfb"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--scale", type=float, default=None, help="the scene's resolution factor (default: the window's own)"
    )
    parser.add_argument(
        "--compare", action="store_true", help="full resolution against the default, side by side"
    )
    parser.add_argument(
        "--inset",
        action="store_true",
        help="with a die off the box (the inset) against without, side by side",
    )
    parser.add_argument(
        "--idle", type=float, metavar="S", help="measure the idle CPU of doppelx play for S s"
    )
    parser.add_argument(
        "--startup", action="store_true", help="seconds from launching doppelx play to its first frames"
    )
    parser.add_argument(
        "--split", action="store_true", help="where a frame goes: scene, stretch, HUD, flip (ms)"
    )
    parser.add_argument(
        "--backdrop",
        action="store_true",
        help="the still parts copied from the backdrop against drawn every frame, side by side",
    )
    parser.add_argument(
        "--play",
        type=int,
        metavar="N",
        help="frames per second of doppelx play's own loop while dice roll, over N bot throws",
    )
    args = parser.parse_args()
    if args.play:
        play(args)
        return
    if args.backdrop:
        backdrop(args)
        return
    if args.startup:
        startup(args)
        return
    if args.split:
        split(args)
        return
    if args.idle:
        idle(args)
        return
    if args.compare:
        compare(args)
        return
    if args.inset:
        inset(args)
        return
    with own_display(args):
        from render.window import TableWindow

        win = TableWindow(
            args.width, args.height, vsync=False, sound=False, msaa=args.msaa, render_scale=args.scale
        )
        snaps = [standard_scene(i) for i in range(args.frames + args.warmup)]
        t_build = time.perf_counter()
        win.show(snaps[0])
        win.render()
        build = time.perf_counter() - t_build
        times = []
        cpu0 = None
        for i, snap in enumerate(snaps):
            if i == args.warmup:
                cpu0 = _cpu()
            seconds = draw_timed(win, snap)
            if i >= args.warmup:
                times.append(seconds)
        from render.backend import pyglet

        pyglet.gl.glFinish()
        cpu = _cpu() - cpu0
        width, height = win.get_framebuffer_size()
        renderer = win.renderer
        win.close()
    t = np.array(times)
    result = {
        "scene": "side I, 8 dice",
        "width": width,
        "height": height,
        "renderer": renderer,
        "msaa": args.msaa,
        "frames": len(t),
        "fps": round(float(len(t) / t.sum()), 1),
        "ms_mean": round(float(t.mean() * 1e3), 2),
        "ms_p95": round(float(np.percentile(t, 95) * 1e3), 2),
        "first_frame_s": round(build, 2),
        "cpu_ms_per_frame": round(cpu / len(t) * 1e3, 1),
        "cpus": os.cpu_count(),
        "load": [round(v, 2) for v in os.getloadavg()],
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"frame time, {result['scene']}, {width}x{height}, {renderer}: {result['frames']} frames, "
            f"{result['fps']} fps (mean {result['ms_mean']} ms, p95 {result['ms_p95']} ms; "
            f"CPU {result['cpu_ms_per_frame']} ms per frame, this process's threads together; "
            f"first frame {result['first_frame_s']} s; {result['cpus']} CPUs, load {result['load']})"
        )


def off_box_scene(frame: int):
    """:func:`standard_scene` with the red die lying on the table right of the box."""
    from dataclasses import replace

    from render import box_mesh
    from rules.doppelx.outcome import Pose

    snap = standard_scene(frame)
    die = snap.table.dice["red"]
    ox, _ = box_mesh.outer_half(snap.table.box)
    rest = Pose.resting(die, ox + 0.25, 0.05, 0.4, "2")
    pose = Pose(
        (rest.position[0], rest.position[1], box_mesh.table_z(snap.table.box) + die.half), rest.quaternion
    )
    return replace(snap, dice={**snap.dice, "red": pose})


def inset(args) -> None:
    """The standard scene without and with a die off the box (the inset), interleaved."""
    with own_display(args):
        from render.backend import pyglet
        from render.window import TableWindow

        win = TableWindow(args.width, args.height, vsync=False, sound=False, msaa=args.msaa)
        scenes = {"main": standard_scene, "inset": off_box_scene}
        times: dict[str, list[float]] = {m: [] for m in scenes}
        load0 = os.getloadavg()
        for block in range(0, args.frames, 10):
            for mode, make in scenes.items():
                win.show(make(block))
                win.render()
                win.flip()
                assert bool(win.insets) == (mode == "inset")
                for k in range(block, block + 10):
                    times[mode].append(draw_timed(win, make(k)))
                pyglet.gl.glFinish()
        width, height = win.get_framebuffer_size()
        renderer = win.renderer
        win.close()
    fps = {m: len(t) / sum(t) for m, t in times.items()}
    load = [round(v, 2) for v in os.getloadavg()]
    print(
        f"frame time, side I, 8 dice, {width}x{height}, {renderer}, {len(times['main'])} frames each, "
        f"interleaved: without a die off the box {fps['main']:.1f} fps, with one (the inset) "
        f"{fps['inset']:.1f} fps, ratio {fps['inset'] / fps['main']:.3f} "
        f"({os.cpu_count()} CPUs, load {[round(v, 2) for v in load0]} → {load})"
    )


def split(args) -> None:
    """Where a frame of the standard scene goes: each stage followed by ``glFinish`` (so the
    stages, which a software renderer runs one after the other anyway, add up) — the 3-D scene
    into its framebuffer, the stretch onto the window, the HUD, the flip; medians over the frames."""
    with own_display(args):
        from render.backend import pyglet
        from render.msaa import MsaaTarget
        from render.window import TableWindow

        gl = pyglet.gl
        win = TableWindow(args.width, args.height, vsync=False, sound=False, msaa=args.msaa)
        win.show(standard_scene(0))
        win.render()
        stages: dict[str, list[float]] = {"scene": [], "stretch": [], "hud": [], "flip": [], "frame": []}

        def timed(name, fn):
            def run(*a, **k):
                t = time.perf_counter()
                out = fn(*a, **k)
                gl.glFinish()
                stages[name].append(time.perf_counter() - t)
                return out

            return run

        assert win.scene is not None and win.hud is not None
        win.scene.draw = timed("scene", win.scene.draw)  # type: ignore[method-assign]
        win.hud.draw = timed("hud", win.hud.draw)  # type: ignore[method-assign]
        end = MsaaTarget.end
        MsaaTarget.end = timed("stretch", end)  # type: ignore[method-assign]
        try:
            for i in range(args.warmup + args.frames):
                t = time.perf_counter()
                win.show(standard_scene(i))
                win.dispatch_events()
                win.render()
                timed("flip", win.flip)()
                stages["frame"].append(time.perf_counter() - t)
        finally:
            MsaaTarget.end = end  # type: ignore[method-assign]
        width, height = win.get_framebuffer_size()
        renderer = win.renderer
        win.close()
    ms = {k: round(float(np.median(v[args.warmup :])) * 1e3, 2) for k, v in stages.items() if v}
    result = {"width": width, "height": height, "renderer": renderer, "frames": args.frames, "ms": ms}
    result["load"] = [round(v, 2) for v in os.getloadavg()]
    if args.json:
        print(json.dumps(result))
        return
    parts = " · ".join(f"{k} {v} ms" for k, v in ms.items() if k != "frame")
    print(
        f"where a frame goes, side I, 8 dice, {width}x{height}, {renderer}: {parts}; "
        f"the whole frame {ms['frame']} ms (each stage waited for: slower than a plain frame; "
        f"{os.cpu_count()} CPUs, load {result['load']})"
    )


def _cpu() -> float:
    """CPU seconds used by this process so far (all threads: Python and llvmpipe's rasteriser)."""
    t = os.times()
    return t.user + t.system


def interleaved(args, setting: str, modes: dict[str, object]) -> dict:
    """Draw the standard scene's frames with the window's ``setting`` at each of ``modes``,
    interleaved in blocks of 10 frames (both see the same load); fps and CPU per frame each."""
    with own_display(args):
        from render.backend import pyglet
        from render.window import TableWindow

        win = TableWindow(args.width, args.height, vsync=False, sound=False, msaa=args.msaa)
        snaps = [standard_scene(i) for i in range(args.frames)]
        times: dict[str, list[float]] = {m: [] for m in modes}
        cpu: dict[str, float] = {m: 0.0 for m in modes}
        load0 = os.getloadavg()
        for block in range(0, args.frames, 10):
            for mode, value in modes.items():
                setattr(win, setting, value)
                win.show(snaps[block])
                win.render()
                win.flip()
                c0 = _cpu()
                for snap in snaps[block : block + 10]:
                    times[mode].append(draw_timed(win, snap))
                pyglet.gl.glFinish()
                cpu[mode] += _cpu() - c0
        load1 = os.getloadavg()
        renderer = win.renderer
        width, height = win.get_framebuffer_size()
        win.close()
    return {
        "width": width,
        "height": height,
        "renderer": renderer,
        "fps": {m: round(len(t) / sum(t), 1) for m, t in times.items()},
        "cpu_ms": {m: round(cpu[m] / len(times[m]) * 1e3, 1) for m in modes},
        "cpus": os.cpu_count(),
        "load_before": [round(v, 2) for v in load0],
        "load_after": [round(v, 2) for v in load1],
    }


def compare(args) -> None:
    """Full-resolution scene against the window's default, interleaved (see the module docstring)."""
    r = interleaved(args, "render_scale", {"full": 1.0, "default": None})
    fps, cpu = r.pop("fps"), r.pop("cpu_ms")
    result = {
        **{k: r[k] for k in ("width", "height", "renderer")},
        "fps_full": fps["full"],
        "fps_default": fps["default"],
        "ratio": round(fps["default"] / fps["full"], 2),
        "cpu_ms_full": cpu["full"],
        "cpu_ms_default": cpu["default"],
        **{k: r[k] for k in ("cpus", "load_before", "load_after")},
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"frame time, side I, 8 dice, {r['width']}x{r['height']}, {r['renderer']}, interleaved blocks: "
            f"full resolution {result['fps_full']} fps, window default {result['fps_default']} fps "
            f"(x{result['ratio']}); CPU per frame {result['cpu_ms_full']} ms / {result['cpu_ms_default']} ms; "
            f"{result['cpus']} CPUs, load {result['load_before']} -> {result['load_after']}"
        )


def backdrop(args) -> None:
    """The still parts copied from the backdrop against drawn every frame, interleaved."""
    r = interleaved(args, "keep_still", {"backdrop": True, "every_frame": False})
    fps, cpu = r["fps"], r["cpu_ms"]
    r["ratio"] = round(fps["backdrop"] / fps["every_frame"], 2)
    if args.json:
        print(json.dumps(r))
    else:
        print(
            f"frame time, side I, 8 dice, {r['width']}x{r['height']}, {r['renderer']}, interleaved blocks: "
            f"still parts from the backdrop {fps['backdrop']} fps, drawn every frame {fps['every_frame']} fps "
            f"(x{r['ratio']}); CPU per frame {cpu['backdrop']} ms / {cpu['every_frame']} ms; "
            f"{r['cpus']} CPUs, load {r['load_before']} -> {r['load_after']}"
        )


STARTUP_PROBE = """
import os, sys, time
t0 = float(os.environ["FRAME_TIME_T0"])
from doppelx.games.doppelx.play.window import PlayWindow
flip = PlayWindow.flip
def timed(self):
    flip(self)
    if not hasattr(PlayWindow, "first"):
        PlayWindow.first = time.time() - t0
    if self.scene is not None and not hasattr(PlayWindow, "table"):
        PlayWindow.table = time.time() - t0
        print(f"STARTUP {PlayWindow.first:.2f} {PlayWindow.table:.2f}", flush=True)
PlayWindow.flip = timed
from doppelx.cli import main
sys.exit(main(["play", "--autoplay", "--players", "4", "--seed", "1", "--quit-after-throws", "1",
               "--speed", "20", "--size", sys.argv[1]]))
"""


def startup(args) -> None:
    """Seconds from launching ``doppelx play`` to its first frame and to its first frame of the table."""
    import tempfile

    runs = []
    with own_display(args):
        root = Path(__file__).resolve().parents[1]
        for _ in range(3):
            with tempfile.TemporaryDirectory() as tmp:
                env = dict(
                    os.environ, FRAME_TIME_T0=repr(time.time()), PYTHONPATH=str(root), XDG_STATE_HOME=tmp
                )
                out = subprocess.run(
                    [sys.executable, "-c", STARTUP_PROBE, f"{args.width}x{args.height}"],
                    capture_output=True,
                    text=True,
                    env=env,
                    cwd=tmp,
                    timeout=300,
                )
            line = next((x for x in out.stdout.splitlines() if x.startswith("STARTUP")), None)
            if line is None:
                sys.exit(f"frame_time: doppelx play failed: {out.stderr.strip()[-400:]}")
            runs.append(tuple(float(v) for v in line.split()[1:]))
    first = sorted(r[0] for r in runs)
    table = sorted(r[1] for r in runs)
    print(
        f"startup of doppelx play, {args.width}x{args.height}, 3 launches: first frame (splash) after "
        f"{first[1]:.2f} s (median; {first[0]:.2f}–{first[-1]:.2f}), the table after {table[1]:.2f} s "
        f"({table[0]:.2f}–{table[-1]:.2f}); {os.cpu_count()} CPUs, load {[round(v, 2) for v in os.getloadavg()]}"
    )


def play(args) -> None:
    """Frames per second of ``doppelx play``'s loop while a bot game's dice roll (``--play N``)."""
    with own_display(args):
        from doppelx.games.doppelx.play import app
        from doppelx.games.doppelx.play.controller import PlayController, Stage
        from doppelx.games.doppelx.play.newgame import GameSetup
        from doppelx.games.doppelx.play.window import PlayWindow

        ctrl = PlayController()
        win = PlayWindow(args.width, args.height, vsync=False, sound=False, on_intent=ctrl.handle)
        ctrl.ui = win
        ctrl.new_game(GameSetup.standard(4, 0, seed=11))
        spent = {"draw": 0.0, "flip": 0.0, "steps": 0.0}
        frames, rolling, since = 0, 0.0, None

        def timed(name, fn):
            def run(*a, **k):
                t = time.perf_counter()
                out = fn(*a, **k)
                if ctrl.stage is Stage.FLIGHT:
                    spent[name] += time.perf_counter() - t
                return out

            return run

        draw = win.render
        win.flip, ctrl.step = timed("flip", win.flip), timed("steps", ctrl.step)

        def counted():
            nonlocal frames, rolling, since
            now = time.perf_counter()
            if ctrl.stage is Stage.FLIGHT:
                frames += 1
                since = now if since is None else since
            elif since is not None:
                rolling, since = rolling + now - since, None
            draw()

        win.render = timed("draw", counted)
        app.run(win, ctrl, quit_after=args.play)
        if since is not None:  # the loop quit as the last throw came to rest
            rolling += time.perf_counter() - since
    n = max(frames, 1)
    result = {
        "width": args.width,
        "height": args.height,
        "throws": args.play,
        "rolling_s": round(rolling, 2),
        "frames": frames,
        "fps": round(frames / rolling, 1) if rolling else None,
        "draw_ms": round(spent["draw"] / n * 1e3, 1),
        "flip_ms": round(spent["flip"] / n * 1e3, 1),
        "steps_ms": round(spent["steps"] / n * 1e3, 1),
        "cpus": os.cpu_count(),
        "load": [round(v, 2) for v in os.getloadavg()],
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"doppelx play's loop, {args.width}x{args.height}, four bots, {args.play} throws: {frames} frames "
        f"in {result['rolling_s']} s of rolling dice, {result['fps']} fps; a frame: draw "
        f"{result['draw_ms']} ms, flip {result['flip_ms']} ms, the match's steps {result['steps_ms']} ms; "
        f"{result['cpus']} CPUs, load {result['load']}"
    )


def idle(args) -> None:
    """CPU used by ``doppelx play``'s loop while it waits for a person's throw: as it runs (redrawing
    only on a change) and, side by side, forced to redraw every loop (as before)."""
    with own_display(args):
        from doppelx.games.doppelx.play import app
        from doppelx.games.doppelx.play.controller import PlayController, Stage
        from doppelx.games.doppelx.play.newgame import GameSetup
        from doppelx.games.doppelx.play.window import PlayWindow

        figures = {}
        for mode in ("on change", "every loop", "on change "):
            ctrl = PlayController()
            win = PlayWindow(args.width, args.height, vsync=False, sound=False, on_intent=ctrl.handle)
            ctrl.ui = win
            ctrl.new_game(GameSetup.standard(3, 1, seed=1))
            assert ctrl.stage is Stage.THROW
            for _ in range(5):  # the table drawn once: what follows is waiting
                win.show(ctrl.step())
                win.render()
                win.flip()
            if mode == "every loop":
                win.wants_redraw = lambda: True
            c0, w0 = _cpu(), time.perf_counter()
            app.run(
                win,
                ctrl,
                max_frames=int(args.idle * app.IDLE_FPS)
                if mode != "every loop"
                else int(args.idle * app.FPS),
            )
            figures[mode.strip()] = figures.get(mode.strip(), []) + [
                (_cpu() - c0) / (time.perf_counter() - w0) * 100
            ]
    on = sum(figures["on change"]) / len(figures["on change"])
    print(
        f"idle doppelx play (waiting for a throw), {args.width}x{args.height}, {args.idle:.0f} s each: "
        f"{on:.1f} % of one core redrawing on change, {figures['every loop'][0]:.1f} % redrawing every loop; "
        f"{os.cpu_count()} CPUs, load {[round(v, 2) for v in os.getloadavg()]}"
    )


if __name__ == "__main__":
    main()
