"""``benchmarks/frame_time.py --split``, ``--backdrop`` and ``--play``: measured in a real window (its own Xvfb)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _frame_time(*args: str) -> dict:
    """Run the benchmark at 1600 × 1000 (more than a software renderer draws whole, so the
    scene has a framebuffer of its own) with ``args``; its JSON."""
    out = subprocess.run(
        [sys.executable, "benchmarks/frame_time.py", *args, "--width", "1600", "--height", "1000", "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert (result["width"], result["height"]) == (1600, 1000)
    return result


def test_the_split_names_every_stage_of_a_large_windows_frame():
    """The scene is drawn smaller and stretched: the split times the scene, the stretch, the
    HUD and the flip, and they fit in the frame they belong to."""
    ms = _frame_time("--split", "--frames", "4", "--warmup", "1")["ms"]
    assert set(ms) == {"scene", "stretch", "hud", "flip", "frame"}
    assert all(v > 0 for v in ms.values()), ms
    assert ms["scene"] + ms["stretch"] + ms["hud"] + ms["flip"] <= ms["frame"] * 1.25, (
        ms
    )  # medians: a little slack


def test_the_backdrop_comparison_draws_both_ways_side_by_side():
    """``--backdrop``: the same frames with the still parts copied and drawn every frame."""
    result = _frame_time("--backdrop", "--frames", "20")
    assert set(result["fps"]) == set(result["cpu_ms"]) == {"backdrop", "every_frame"}
    assert all(v > 0 for v in result["fps"].values()) and result["ratio"] > 0


def test_the_play_loop_counts_the_frames_drawn_while_dice_roll():
    """``--play N``: the game's own loop on a bot game; frames drawn while dice roll, and a
    frame's draw, flip and steps, each a part of the rolling time."""
    result = _frame_time("--play", "1")
    assert result["throws"] == 1 and result["frames"] > 0 and result["rolling_s"] > 0
    assert result["fps"] == pytest.approx(result["frames"] / result["rolling_s"], rel=0.02)  # (rounded)
    per_frame = (result["draw_ms"] + result["flip_ms"] + result["steps_ms"]) / 1e3
    assert 0 < per_frame <= result["rolling_s"] / result["frames"] * 1.05, result
