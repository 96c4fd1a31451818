"""``doppelx sweep``: one batch per combination of varied parameters, then a comparison.

Each variant runs into ``OUT/variant-NN/`` (resumable like any run, same seed for every
variant so they see the same random throws); ``OUT/comparison.md`` and ``comparison.png``
compare the variants' key figures with 95 % intervals.
"""

# ruff: noqa: I001  (imports are ordered on purpose: a backend is configured before it loads)

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from doppelx.batch.stats import Estimate, mean, proportion  # noqa: E402
from rules.atomic import save_figure, write_text  # noqa: E402
from doppelx.argtypes import shown  # noqa: E402
from rules.errors import DoppelXError  # noqa: E402

#: Most values one --vary may list, and most variants a sweep may run.
MAX_VALUES = 20
MAX_VARIANTS = 100

VARY = {
    "board": str,
    "hole_delta_mm": float,
    "white_faces": str,
    "cocked_deg": float,
    "skill": str,
    "policy": str,
}


def parse_vary(items: list[str]) -> list[tuple[str, list]]:
    """``["hole_delta_mm=0,2"]`` → ``[("hole_delta_mm", [0.0, 2.0])]`` (faces use ``-``: 1-2-3-X-X-2)."""
    if not items:
        raise DoppelXError(f"--vary: give at least one NAME=V1,V2 (names: {', '.join(VARY)})")
    out = []
    seen: set[str] = set()
    for item in items:
        name, sep, values = item.partition("=")
        if not sep or name not in VARY or not values:
            raise DoppelXError(f"--vary {shown(item)}: write NAME=V1,V2 with NAME one of {', '.join(VARY)}")
        if name in seen:
            raise DoppelXError(f"--vary {name} is given twice; list all its values in one --vary")
        seen.add(name)
        try:
            parsed = [VARY[name](v) for v in values.split(",")]
        except ValueError:
            raise DoppelXError(f"--vary {shown(item)}: {name} takes numbers") from None
        if any(isinstance(v, float) and not math.isfinite(v) for v in parsed):
            raise DoppelXError(f"--vary {shown(item)}: {name} takes finite numbers")
        if len(parsed) > MAX_VALUES:
            raise DoppelXError(f"--vary {shown(item)}: at most {MAX_VALUES} values per name")
        out.append((name, parsed))
    return out


def apply_variant(params: dict, variant: dict) -> dict:
    p = json.loads(json.dumps(params))
    for name, value in variant.items():
        if name == "white_faces":
            if value != "default":
                p["faces"] = {**p.get("faces", {}), "white": value}
        else:
            p[name] = value
    return p


def summarise(kind: str, table: Path) -> dict[str, Estimate]:
    t = pq.read_table(table).to_pydict()
    n = len(t["item"])
    if kind == "throws":
        return {
            "3x rate (coloured die)": proportion(sum(f == "3x" for f in t["c_field"]), n),
            "hole or off (either die)": proportion(
                sum(a != "board" or b != "board" for a, b in zip(t["c_status"], t["w_status"])), n
            ),
            "chips per throw": mean(t["chips"]),
            "Doppel X rate": proportion(sum(t["doppel_x"]), n),
        }
    players = t["players"][0]
    return {
        "throws per game": mean(t["throws"]),
        "seat 0 win rate": proportion(sum(s == 0 for s in t["winner_seat"]), n),
        f"fair share (1/{players})": Estimate(1 / players, 1 / players, 1 / players, n),
        "Doppel X per game": mean(t["doppel_x"]),
    }


def run_sweep(args: argparse.Namespace, params: dict) -> int:
    from doppelx.batch.backends import run_plan
    from doppelx.batch.plan import RunSpec, default_chunk_size
    from doppelx.commands.simulate import check_params, check_run_args

    grid = parse_vary(args.vary)
    names = [n for n, _ in grid]
    variants = [dict(zip(names, combo)) for combo in itertools.product(*(v for _, v in grid))]
    if len(variants) > MAX_VARIANTS:
        raise DoppelXError(f"--vary: {len(variants)} variants; a sweep runs at most {MAX_VARIANTS}")
    out = Path(args.out)
    count = args.throws if args.kind == "throws" else args.games
    per_variant = [apply_variant(params, variant) for variant in variants]
    for variant, p in zip(variants, per_variant):  # every variant is checked before any runs
        try:
            check_params(p, args.kind)
        except DoppelXError as exc:
            raise DoppelXError(f"--vary variant {variant}: {exc}") from None
    workers = check_run_args(args)
    rows = []
    for k, (variant, p) in enumerate(zip(variants, per_variant)):
        chunk = args.chunk or default_chunk_size(args.kind, count)
        spec = RunSpec(args.kind, count, args.seed, chunk, p)
        if not args.quiet:
            print(f"variant {k + 1}/{len(variants)}: {variant}", file=sys.stderr, flush=True)
        table = run_plan(
            spec,
            out / f"variant-{k:02d}",
            workers=workers,
            backend=args.backend,
            address=args.address,
            progress=not args.quiet,
            overwrite=args.overwrite,
        )
        rows.append((variant, summarise(args.kind, table)))
    md, png = write_comparison(rows, out, args.kind, count)
    result = {
        "variants": [{"variant": v, **{m: e.value for m, e in s.items()}} for v, s in rows],
        "comparison": str(md),
        "plot": str(png),
    }
    print(json.dumps(result, indent=2) if args.json else f"wrote {md}\nwrote {png}")
    return 0


def write_comparison(rows, out: Path, kind: str, count: int) -> tuple[Path, Path]:
    metrics = list(rows[0][1])
    labels = [", ".join(f"{k}={v}" for k, v in variant.items()) for variant, _ in rows]
    lines = [
        f"# Sweep of {len(rows)} variants, {count} {kind} each",
        "",
        "| variant | " + " | ".join(metrics) + " |",
        "|---|" + "---|" * len(metrics),
    ]
    for label, (_, s) in zip(labels, rows):
        cells = [s[m].fmt(percent="rate" in m, digits=1 if "rate" in m else 2) for m in metrics]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    md = out / "comparison.md"
    write_text(md, "\n".join(lines) + "\n", what="comparison")
    shown = [m for m in metrics if not m.startswith("fair")]
    fig, axes = plt.subplots(1, len(shown), figsize=(3.6 * len(shown), 3.8), squeeze=False)
    for ax, m in zip(axes[0], shown):
        est = [s[m] for _, s in rows]
        y = np.array([e.value for e in est])
        err = np.clip(np.array([[e.value - e.low, e.high - e.value] for e in est]).T, 0, None)
        ax.errorbar(range(len(rows)), y, yerr=err, fmt="o", capsize=4)
        ax.set_xticks(range(len(rows)), labels, rotation=30, ha="right", fontsize=8)
        ax.set_title(m, fontsize=10)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    png = out / "comparison.png"
    save_figure(fig, png, dpi=90)
    plt.close(fig)
    return md, png
