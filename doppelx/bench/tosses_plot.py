"""The picture of ``doppelx bench tosses --plot``: a few tosses real against simulated, and the error over time.

Top row: height of the centre (mm) and tilt from lying flat (degrees) over time for up to
three tosses, the tracking beside each engine's run with the fitted materials. Bottom: the
median position error over the tosses (cube widths) against time for each engine (fitted
and game material) with the chaos bound (the median spread of the perturbed runs).
"""

from __future__ import annotations

import numpy as np

from doppelx.bench.tosses_data import quat_matrix

COLOURS = {"pybullet": "tab:blue", "mujoco": "tab:orange"}


def tilt_deg(quat: np.ndarray) -> np.ndarray:
    """Angle (n,) degrees between the nearest face normal and the vertical: 0 when lying flat."""
    rz = np.abs(quat_matrix(quat)[:, 2, :])
    return np.degrees(np.arccos(np.clip(rz.max(axis=1), 0.0, 1.0)))


def _name(engine: str, r: dict) -> str:
    """``engine``, and "rounded edges" when its cube had them (``--edge rounded``)."""
    return f"{engine} (rounded edges)" if r.get("edge") == "rounded" else engine


def plot(result: dict, real: dict, half: float, out: str) -> None:
    """Draw ``result`` (engines → evaluation with ``runs`` and ``curve``) and the ``real`` tosses (id → Toss)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ids = sorted(real)[:3]
    fig, axes = plt.subplots(3, max(len(ids), 1), figsize=(13, 9.5), constrained_layout=True, squeeze=False)
    for col, tid in enumerate(ids):
        toss = real[tid]
        ax_h, ax_t = axes[0, col], axes[1, col]
        ax_h.plot(toss.t, toss.pos[:, 2] * 1000, "k.", ms=3, label="tracked")
        ax_t.plot(toss.t, tilt_deg(toss.quat), "k.", ms=3, label="tracked")
        for engine, r in result["engines"].items():
            run = r["runs"].get(tid)
            if run is None:
                continue
            name = _name(engine, r)
            ax_h.plot(run.t, run.pos[:, 2] * 1000, color=COLOURS.get(engine), lw=1.2, label=f"{name} fitted")
            ax_t.plot(run.t, tilt_deg(run.quat), color=COLOURS.get(engine), lw=1.2, label=f"{name} fitted")
        end = toss.t[-1] + 0.3
        ax_h.set_xlim(0, end)
        ax_t.set_xlim(0, end)
        ax_h.axhline(half * 1000, color="silver", ls=":", lw=1)
        ax_h.set_title(f"toss {tid}: height of the centre", fontsize=9)
        ax_t.set_title(f"toss {tid}: tilt from lying flat", fontsize=9)
        ax_h.set_ylabel("mm")
        ax_t.set_ylabel("degrees")
        ax_t.set_xlabel("s after release")
        ax_h.legend(fontsize=7)
    gs = axes[2, 0].get_gridspec()
    for ax in axes[2, :]:
        ax.remove()
    ax = fig.add_subplot(gs[2, :])
    for engine, r in result["engines"].items():
        c = COLOURS.get(engine)
        curve = r["curve"]
        ax.plot(curve["t"], curve["model"], color=c, lw=2, label=f"{_name(engine, r)}, fitted materials")
        g = r["game_material"]["curve"]
        ax.plot(g["t"], g["model"], color=c, lw=1.2, ls="--", label=f"{engine}, game's die–board material")
        if "chaos" in curve:
            ax.plot(
                curve["t"],
                curve["chaos"],
                color=c,
                lw=1.2,
                ls=":",
                label=f"{engine}, chaos bound (perturbed runs' spread)",
            )
    for t_aim, aim in ((0.2, 0.05), (0.4, 0.2)):
        ax.plot([t_aim], [aim], "kv", ms=7)
    ax.set_xlabel("s after release")
    ax.set_ylabel("median position error (cube widths)")
    ax.set_title("error over time, evaluation tosses (▼ the issue's aims at 200 and 400 ms)", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    from rules.common.atomic import save_figure

    save_figure(fig, out, dpi=100, what="tosses plot")
    plt.close(fig)
