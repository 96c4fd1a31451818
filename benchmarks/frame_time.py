"""Frame time of the desktop window: the standard scene (side I, 8 dice) at 1280 × 720.

Run: ``python benchmarks/frame_time.py [--frames N] [--json]``. Starts a private Xvfb
(Mesa's llvmpipe software renderer) unless ``--use-display`` is given, opens the window,
moves the dice a little every frame (so nothing is cached) and prints frames per second;
nothing is asserted (a figure, not a test). The target on llvmpipe is above 20 fps.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


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


def standard_scene(frame: int):
    """Side I with 8 dice (7 players + white): 6 lying still, 2 tumbling through the air."""
    from render.snapshot import FloatingText, ScoreLine, Snapshot, TableSpec
    from rules.outcome import Pose

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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    args = parser.parse_args()
    proc = None
    if not args.use_display:
        proc, display = start_xvfb(args.width, args.height)
        os.environ["DISPLAY"] = display
    try:
        from render.window import TableWindow

        win = TableWindow(args.width, args.height, vsync=False, sound=False, msaa=args.msaa)
        snaps = [standard_scene(i) for i in range(args.frames + args.warmup)]
        t_build = time.perf_counter()
        win.show(snaps[0])
        win.render()
        build = time.perf_counter() - t_build
        times = []
        for i, snap in enumerate(snaps):
            t0 = time.perf_counter()
            win.show(snap)
            win.dispatch_events()
            win.render()
            win.flip()
            if i >= args.warmup:
                times.append(time.perf_counter() - t0)
        from render.backend import pyglet

        pyglet.gl.glFinish()
        width, height = win.get_framebuffer_size()
        renderer = win.renderer
        win.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
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
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"frame time, {result['scene']}, {width}x{height}, {renderer}: {result['frames']} frames, "
            f"{result['fps']} fps (mean {result['ms_mean']} ms, p95 {result['ms_p95']} ms; "
            f"first frame {result['first_frame_s']} s; {result['cpus']} CPUs)"
        )


if __name__ == "__main__":
    main()
