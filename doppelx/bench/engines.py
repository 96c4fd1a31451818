"""``doppelx bench engines``: the same seeded throws through PyBullet and MuJoCo, side by side.

The scenes are the tray scene's standard turns (:func:`doppelx.bench.tray.scenes`: six dice
lying, blue and white thrown by the medium bot at its best spot, a quarter of the throws on
each side I–IV), run in one world per side and engine, alternating engine by engine throw
by throw so that both see the same machine load. Per engine, over the thrown dice:

* throws per second (CPU time of :func:`physics.run.run_throw`, this process);
* the resting field kinds (3x, 2x, 1x, X, -1, none, hole, off) and the hole and off rates;
* the faces up (die axes +x −x +y −y +z −z) of the dice on the board;
* settle times (s simulated) and travel distances (release to rest, seen from above, mm);

and between the engines a chi-square test of homogeneity (kinds, faces, hole, off) or a
two-sample Kolmogorov–Smirnov test (settle times, travel), each with its p-value
(:mod:`doppelx.bench.twosample`). Where an engine differs beyond chance, the validation
scenes judge which is right; they run in both engines here too: a die dropped flat onto
the playfield (rebound ratio against the die–cardboard restitution), two dice meeting face
to face in the air (against the die–die restitution) and a die sliding on
the tilted playfield (acceleration against ``g (sin θ − μ cos θ)``, creep below atan μ).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from doppelx.bench.restitution import head_on_mean
from doppelx.bench.twosample import chi2_homogeneity, ks_2samp
from physics.engine import ENGINES

KINDS = ("3x", "2x", "1x", "X", "-1", "none", "hole", "off")
AXES = ("+x", "-x", "+y", "-y", "+z", "-z")
THROWN = ("blue", "white")
#: Impact speeds of the flat drops (m/s) and tilts of the slides relative to atan μ (degrees).
DROP_SPEEDS = (0.5, 1.0, 2.0, 3.0, 4.0)
INCLINE_OFFSETS = (-2.0, 2.0, 4.0, 8.0)
#: p-values below this flag a difference beyond chance.
ALPHA = 0.01
FORMAT = "doppelx-bench-engines/1"


def rebound(world, speed: float) -> float:
    """Rebound ratio of a die falling flat onto side I's playfield at ``speed`` m/s.

    The measure of ``doppelx bench restitution`` (:func:`doppelx.bench.restitution.drop_mean`):
    the rise to the first bounce's apex, as a drop filmed from the side would see it,
    averaged over where in a step the contact begins. (The fastest upward speed after the
    impact from one release, this function's earlier measure, counts the push of a contact
    still pressing while gravity already pulls: 0.02–0.07 higher at 0.5 m/s in both engines.)
    """
    from doppelx.bench.restitution import drop_mean

    return drop_mean(world, "die-cardboard", speed).e_measured


def validation(world) -> dict:
    """The drop and incline figures of one engine's world of side I."""
    from doppelx.bench.common import Tally
    from doppelx.bench.incline import fit_acceleration, slide

    pair = world.materials.pair("cardboard")
    g = world.settings.gravity
    drops = [
        {"speed": v, "e_measured": round(rebound(world, v), 4), "e_material": pair.restitution}
        for v in DROP_SPEEDS
    ]
    e_dd = world.materials.pair("die").restitution
    dice = [
        {"speed": v, "e_measured": round(head_on_mean(world, v), 4), "e_material": e_dd} for v in DROP_SPEEDS
    ]
    mu = pair.friction
    slides = []
    for d in INCLINE_OFFSETS:
        theta = math.atan(mu) + math.radians(d)
        t, x = slide(world, theta, Tally())
        row = {"offset_deg": d}
        if d < 0:
            row.update({"creep_mm": round(abs(float(x[-1])) * 1e3, 4), "expected_mm": 0.0})
        else:
            row.update(
                {
                    "accel": round(fit_acceleration(t, x), 4),
                    "expected": round(g * (math.sin(theta) - mu * math.cos(theta)), 4),
                }
            )
        slides.append(row)
    return {"drop": drops, "die_die": dice, "incline": slides}


def run_engines(throws: int, progress: Callable[[str], None] | None = None) -> dict:
    """Run ``throws`` standard turns (a quarter per side) through both engines; the JSON-ready result."""
    from doppelx.bench.tray import scenes
    from physics.engine import make_world
    from physics.run import run_throw
    from rules.doppelx.dice import load_dice

    dice = load_dice()
    per_side = max(1, math.ceil(throws / 4))
    acc = {e: _Acc() for e in ENGINES}
    done = 0
    for side, board, items in scenes(per_side):
        worlds = {e: make_world(board, dice=dice, engine=e) for e in ENGINES}
        for lying, throw in items[: max(0, throws - done)]:
            done += 1
            for e in ENGINES:
                t0 = time.process_time()
                r = run_throw(worlds[e], throw, lying)
                acc[e].add(r, throw, board, dice, time.process_time() - t0)
        for w in worlds.values():
            w.close()
        if progress is not None:
            progress(f"side {side}: {done} throws in both engines")
    checks = _validations(dice)
    if progress is not None:
        progress("validation scenes done")
    out = {e: acc[e].summary() for e in ENGINES}
    for e in ENGINES:
        out[e]["validation"] = checks[e]
    return {
        "format": FORMAT,
        "throws": done,
        "seed": _seed(),
        "machine": _machine(),
        "speed_ratio": round(out["mujoco"]["throws_per_s"] / out["pybullet"]["throws_per_s"], 4),
        "engines": out,
        "tests": _tests(acc),
    }


def _validations(dice) -> dict:
    """The drop and incline validation scenes (:func:`validation`) in each engine."""
    from physics.engine import make_world
    from rules.doppelx.board_file import load_board

    checks = {}
    for e in ENGINES:
        w = make_world(load_board("I"), dice=dice, engine=e)
        checks[e] = validation(w)
        w.close()
    return checks


class _Acc:
    def __init__(self):
        self.throws = self.unsettled = self.tunnelled = 0
        self.cpu = 0.0
        self.kinds = dict.fromkeys(KINDS, 0)
        self.faces = [0] * 6
        self.settle: list[float] = []
        self.travel: list[float] = []

    def add(self, r, throw, board, dice, cpu: float) -> None:
        """Count one throw's result ``r`` (``cpu`` seconds): settling, travel, field kinds, faces."""
        from doppelx.bench.throws import up_axis
        from rules.doppelx.reading import read_die

        self.cpu += cpu
        self.throws += 1
        self.settle.append(r.sim_time)
        self.unsettled += not r.settled
        self.tunnelled += bool(r.tunnel_events)
        start = {rel.owner: rel.position for rel in throw.releases}
        for owner in THROWN:
            d = r.outcome.get(owner)
            assert d is not None and d.pose is not None  # every thrown die has its resting pose
            self.travel.append(1e3 * math.dist(start[owner][:2], d.pose.position[:2]))
            if d.status.value != "board":
                self.kinds[d.status.value] += 1
                continue
            reading = read_die(d, dice[owner], board, dice.cocked_angle)
            self.kinds[reading.field.value if reading.field is not None else "none"] += 1
            self.faces[up_axis(d.pose)[0]] += 1

    def summary(self) -> dict:
        n = max(1, 2 * self.throws)
        return {
            "throws": self.throws,
            "cpu_s": round(self.cpu, 3),
            "throws_per_s": round(self.throws / self.cpu, 3) if self.cpu > 0 else None,
            "kinds": dict(self.kinds),
            "hole_rate": round(self.kinds["hole"] / n, 4),
            "off_rate": round(self.kinds["off"] / n, 4),
            "faces": dict(zip(AXES, self.faces)),
            "settle_s": _describe(self.settle),
            "travel_mm": _describe(self.travel),
            "unsettled": self.unsettled,
            "tunnelled": self.tunnelled,
        }


def _describe(values) -> dict:
    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return {"mean": None, "median": None, "p90": None, "values": []}
    return {
        "mean": round(float(v.mean()), 4),
        "median": round(float(np.median(v)), 4),
        "p90": round(float(np.percentile(v, 90)), 4),
        "values": [round(float(x), 4) for x in v],
    }


def _tests(acc: dict) -> list[dict]:
    a, b = acc["pybullet"], acc["mujoco"]
    out = []
    n_a, n_b = 2 * a.throws, 2 * b.throws
    for name, ca, cb in (
        ("kinds", [a.kinds[k] for k in KINDS], [b.kinds[k] for k in KINDS]),
        ("faces", a.faces, b.faces),
        ("hole", [a.kinds["hole"], n_a - a.kinds["hole"]], [b.kinds["hole"], n_b - b.kinds["hole"]]),
        ("off", [a.kinds["off"], n_a - a.kinds["off"]], [b.kinds["off"], n_b - b.kinds["off"]]),
    ):
        stat, dof, p = chi2_homogeneity(ca, cb)
        out.append(_test(name, "chi2", stat, p, dof))
    for name, xa, xb in (("settle_s", a.settle, b.settle), ("travel_mm", a.travel, b.travel)):
        d, p = ks_2samp(xa, xb)
        out.append(_test(name, "ks", d, p))
    return out


def _test(metric: str, test: str, stat: float, p: float, dof: int | None = None) -> dict:
    row = {"metric": metric, "test": test, "statistic": round(stat, 4), "p": float(f"{p:.4g}")}
    if dof is not None:
        row["dof"] = dof
    row["differ"] = p < ALPHA
    return row


def _seed() -> int:
    from doppelx.bench.tray import SEED

    return SEED


def _machine() -> dict:
    import os
    import platform

    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {"machine": platform.machine(), "cores": os.cpu_count(), "load_avg": load}


def format_result(res: dict) -> str:
    """The comparison as a text table (one column per engine), then the tests and the validation."""
    e = res["engines"]
    pb, mj = e["pybullet"], e["mujoco"]
    rows = [("throws per s (CPU)", pb["throws_per_s"], mj["throws_per_s"])]
    n = {k: 2 * e[k]["throws"] for k in ENGINES}
    for k in KINDS:
        rows.append(
            (f"kind {k}", f"{pb['kinds'][k] / n['pybullet']:.3f}", f"{mj['kinds'][k] / n['mujoco']:.3f}")
        )
    for ax in AXES:
        rows.append((f"face {ax}", pb["faces"][ax], mj["faces"][ax]))
    for key, label in (("settle_s", "settle s"), ("travel_mm", "travel mm")):
        for stat in ("mean", "median", "p90"):
            rows.append((f"{label} {stat}", pb[key][stat], mj[key][stat]))
    rows += [
        ("unsettled throws", pb["unsettled"], mj["unsettled"]),
        ("tunnelled", pb["tunnelled"], mj["tunnelled"]),
    ]
    w = max(len(r[0]) for r in rows)
    lines = [f"{res['throws']} standard turns through both engines (machine {res['machine']})", ""]
    lines.append(f"{'':<{w}}  {'pybullet':>10}  {'mujoco':>10}")
    lines += [f"{a:<{w}}  {_s(b):>10}  {_s(c):>10}" for a, b, c in rows]
    lines += [
        "",
        f"speed ratio mujoco/pybullet: {res['speed_ratio']:.3f}",
        "",
        "tests (p < 0.01: differ beyond chance)",
    ]
    for t in res["tests"]:
        mark = "DIFFER" if t["differ"] else "same"
        lines.append(
            f"  {t['metric']:<10} {t['test']:<5} statistic {t['statistic']:<9} p {t['p']:<10.4g} {mark}"
        )
    lines.append("")
    for key, title in (
        ("drop", "validation (side I): flat drop rebound ratio / die-cardboard restitution"),
        (
            "die_die",
            "validation: two dice head-on, face to face, gravity off: restitution / die-die coefficient",
        ),
    ):
        lines.append(title)
        for a, b in zip(pb["validation"][key], mj["validation"][key]):
            lines.append(
                f"  {a['speed']:.1f} m/s: pybullet {a['e_measured']:.3f}  mujoco {b['e_measured']:.3f}  "
                f"material {a['e_material']:.3f}"
            )
    lines.append("validation (side I): incline, acceleration m/s² (creep mm below atan μ)")
    for i in range(len(INCLINE_OFFSETS)):
        a, b = pb["validation"]["incline"][i], mj["validation"]["incline"][i]
        if "creep_mm" in a:
            lines.append(
                f"  {a['offset_deg']:+g}°: creep pybullet {a['creep_mm']:.3f}  mujoco {b['creep_mm']:.3f}  expected 0"
            )
        else:
            lines.append(
                f"  {a['offset_deg']:+g}°: pybullet {a['accel']:.4f}  mujoco {b['accel']:.4f}  expected {a['expected']:.4f}"
            )
    return "\n".join(lines)


def _s(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def plot(res: dict, path: str) -> None:
    """Side-by-side panels: kinds, faces, settle times, travel, validation drop and incline (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    e = res["engines"]
    colours = {"pybullet": "tab:blue", "mujoco": "tab:orange"}
    fig, ax = plt.subplots(2, 3, figsize=(15, 8.5))
    p = {t["metric"]: t["p"] for t in res["tests"]}
    x = np.arange(len(KINDS))
    for k, name in enumerate(ENGINES):
        n = 2 * e[name]["throws"]
        ax[0, 0].bar(
            x + (k - 0.5) * 0.4,
            [e[name]["kinds"][c] / n for c in KINDS],
            0.4,
            label=name,
            color=colours[name],
        )
    ax[0, 0].set_xticks(x, KINDS)
    ax[0, 0].set_title(f"resting field kinds (χ² p = {p['kinds']:.3g})")
    ax[0, 0].set_ylabel("share of thrown dice")
    ax[0, 0].legend()
    x = np.arange(6)
    for k, name in enumerate(ENGINES):
        f = np.array([e[name]["faces"][a] for a in AXES], dtype=float)
        ax[0, 1].bar(x + (k - 0.5) * 0.4, f / max(f.sum(), 1), 0.4, label=name, color=colours[name])
    ax[0, 1].axhline(1 / 6, color="grey", lw=0.8, ls="--")
    ax[0, 1].set_xticks(x, AXES)
    ax[0, 1].set_title(f"faces up on the board (χ² p = {p['faces']:.3g})")
    ax[0, 1].set_ylabel("share of dice on the board (fair: 1/6)")
    for key, a, title in (("settle_s", ax[0, 2], "settle time (s)"), ("travel_mm", ax[1, 0], "travel (mm)")):
        for name in ENGINES:
            v = np.sort(e[name][key]["values"])
            a.step(
                v, np.arange(1, len(v) + 1) / max(len(v), 1), where="post", label=name, color=colours[name]
            )
        a.set_title(f"{title}: empirical CDF (KS p = {p[key]:.3g})")
        a.set_xlabel(title)
        a.set_ylabel("share of throws at or below")
        a.legend()
    _plot_rebound(ax[1, 1], e, colours)
    _plot_incline(ax[1, 2], e, colours)
    fig.suptitle(
        f"PyBullet vs MuJoCo: {res['throws']} standard turns, MuJoCo/PyBullet throughput "
        f"{res['speed_ratio']:.2f}× (same run)"
    )
    fig.tight_layout()
    from rules.common.atomic import save_figure

    save_figure(fig, path, dpi=90, what="engines plot")
    plt.close(fig)


def _plot_rebound(a, e: dict, colours: dict) -> None:
    """The validation panel of rebound ratios: flat drop and head-on, per engine."""
    for name in ENGINES:
        d = e[name]["validation"]["drop"]
        a.plot(
            [r["speed"] for r in d],
            [r["e_measured"] for r in d],
            "o-",
            label=f"{name}, die–playfield",
            color=colours[name],
        )
        d = e[name]["validation"]["die_die"]
        a.plot(
            [r["speed"] for r in d],
            [r["e_measured"] for r in d],
            "s:",
            label=f"{name}, die–die",
            color=colours[name],
        )
    for key, label in (("drop", "die–cardboard"), ("die_die", "die–die")):
        mat = e["pybullet"]["validation"][key][0]["e_material"]
        a.axhline(mat, color="k", ls="--", lw=1)
        a.annotate(
            f"{label} e = {mat:g}", (DROP_SPEEDS[-1], mat), textcoords="offset points", xytext=(-90, 4)
        )
    a.set_xlabel("impact speed (m/s)")
    a.set_ylabel("rebound ratio e")
    a.set_title("validation: rebound ratio, flat drop and head-on")
    a.legend()


def _plot_incline(a, e: dict, colours: dict) -> None:
    """The validation panel of slide accelerations against g (sin θ − μ cos θ)."""
    for name in ENGINES:
        rows = [r for r in e[name]["validation"]["incline"] if "accel" in r]
        a.plot(
            [r["offset_deg"] for r in rows], [r["accel"] for r in rows], "o-", label=name, color=colours[name]
        )
    rows = [r for r in e["pybullet"]["validation"]["incline"] if "accel" in r]
    a.plot(
        [r["offset_deg"] for r in rows],
        [r["expected"] for r in rows],
        "k--",
        lw=1,
        label="g (sin θ − μ cos θ)",
    )
    a.set_xlabel("tilt above atan μ (degrees)")
    a.set_ylabel("m/s²")
    a.set_title("validation: slide acceleration")
    a.legend()
