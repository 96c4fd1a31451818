"""``doppelx sweep``: one batch per combination of varied parameters, then a comparison.

Each variant runs into ``OUT/variant-NN/`` (resumable like any run, same seed for every
variant so they see the same random throws); ``OUT/comparison.md`` and ``comparison.png``
compare the variants' key figures with 95 % intervals.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pyarrow.parquet as pq

from doppelx.argtypes import check_no_spinner, number, point_mm, shown
from doppelx.batch.params import hole_delta_mm
from doppelx.batch.stats import Estimate, counted, mean, proportion
from doppelx.batch.store import REPORT_FILES
from doppelx.games.doppelx.bot_factory import has_expert
from rules.common.atomic import save_figure, write_text
from rules.common.errors import DoppelXError
from rules.common.schema import plain_digits
from rules.doppelx.board_file import board_reference

#: Most values one --vary may list, and most variants a sweep may run.
MAX_VALUES = 20
MAX_VARIANTS = 100

#: The files a sweep writes into its folder (beside a ``variant-NN/`` run folder per variant).
COMPARISON_FILES = ("comparison.md", "comparison.png")


def _policy(text: str) -> str:
    """A ``--vary policy`` value in one spelling: ``point:-60.0,+75`` is ``point:-60,75``, so one
    point written two ways is one variant (a value that does not parse is left as written, for
    :func:`doppelx.batch.params.check_params` to refuse with its own message)."""
    if not text.startswith("point:"):
        return text
    try:
        x, y = point_mm(text[6:])
    except argparse.ArgumentTypeError:
        return text
    return f"point:{x * 1e3 + 0.0:.12g},{y * 1e3 + 0.0:.12g}"  # + 0.0: -0 is 0


#: What each --vary name takes: the type of its single option where there is one (a value of
#: ``hole_delta_mm`` is bounded like ``--hole-delta-mm``); every variant's parameters are then
#: checked as a run's are (:func:`doppelx.batch.params.check_params`).
VARY: dict[str, Callable[[str], object]] = {
    "board": board_reference,  # iii is III, my.toml is ./my.toml: one variant
    "hole_delta_mm": hole_delta_mm,
    "white_faces": str,
    "cocked_deg": number(0.0, 90.0, "an angle in degrees"),
    "skill": str,
    "policy": _policy,
}


def split_values(name: str, text: str) -> list[str]:
    """The values of ``--vary NAME=text``, split on commas; a policy ``point:X,Y`` is one value.

    ``policy=greedy,point:-60,75,random`` → ``["greedy", "point:-60,75", "random"]``: a value
    starting with ``point:`` takes the next one as its Y.
    """
    parts = text.split(",")
    if name != "policy":
        return parts
    values = []
    while parts:
        value = parts.pop(0)
        if value.startswith("point:"):
            if not parts:
                raise argparse.ArgumentTypeError(
                    f"policy {shown(value)}: write point:X,Y in mm, e.g. policy=greedy,point:-60,75"
                )
            value = f"{value},{parts.pop(0)}"
        values.append(value)
    return values


def parse_vary(items: list[str]) -> list[tuple[str, list]]:
    """``["hole_delta_mm=0,2"]`` → ``[("hole_delta_mm", [0.0, 2.0])]`` (faces use ``-``: 1-2-3-X-X-2;
    a policy ``point:X,Y`` keeps its comma, :func:`split_values`)."""
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
            parsed = [VARY[name](v) for v in split_values(name, values)]
        except argparse.ArgumentTypeError as exc:
            raise DoppelXError(f"--vary {shown(item)}: {exc}") from None
        if len(parsed) > MAX_VALUES:
            raise DoppelXError(f"--vary {shown(item)}: at most {MAX_VALUES} values per name")
        twice = next((v for i, v in enumerate(parsed) if v in parsed[:i]), None)
        if twice is not None:  # the same variant run twice would compare it with itself
            raise DoppelXError(f"--vary {shown(item)}: lists {twice!r} twice (the same variant)")
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


@dataclass(frozen=True)
class Metric:
    """One figure of a variant: its per-item values (``share``: 0/1 per item, shown in %)."""

    values: np.ndarray
    share: bool

    @property
    def estimate(self) -> Estimate:
        if self.share:
            return proportion(int(self.values.sum()), len(self.values))
        return mean(self.values)


def summarise(kind: str, table: Path) -> dict[str, Metric]:
    """The key figures of one variant's table, item by item (item ``i`` of every variant drew
    from the same random stream, so the variants can be compared item by item)."""
    t = pq.read_table(table).to_pydict()
    order = np.argsort(t["item"])

    def per_item(values, share: bool) -> Metric:
        return Metric(np.asarray(values, dtype=float)[order], share)

    if kind == "throws":
        return {
            "3x rate (coloured die)": per_item([f == "3x" for f in t["c_field"]], True),
            "hole or off (either die)": per_item(
                [a != "board" or b != "board" for a, b in zip(t["c_status"], t["w_status"])], True
            ),
            "chips per throw": per_item(t["chips"], False),
            "Doppel X rate": per_item(t["doppel_x"], True),
        }
    figures = {
        "throws per game": per_item(t["throws"], False),
        "seat 0 win rate": per_item([s == 0 for s in t["winner_seat"]], True),
        "Doppel X per game": per_item(t["doppel_x"], False),
    }
    if "own_changes" in t:  # what a skill or policy is worth: the chips a seat makes with its own throws
        figures["chips per own throw"] = per_item(
            [
                np.mean([c for seat in game for c in seat]) if any(game) else np.nan
                for game in t["own_changes"]
            ],
            False,
        )
    return figures


def paired_difference(a: Metric, b: Metric) -> Estimate:
    """``b − a`` over the same items (a Student-t interval on the item-by-item differences):
    the variants saw the same random throws, so the pairing removes most of their shared luck."""
    return mean(b.values - a.values)


@dataclass(frozen=True)
class SweepOptions:
    """How a sweep runs.

    Attributes:
        kind: ``"throws"`` or ``"games"``.
        count: items per variant.
        seed: the seed of every variant (all see the same random throws).
        vary: ``NAME=V1,V2`` items (see :func:`parse_vary`).
        out: the output folder (``OUT/variant-NN/`` per variant).
        workers, backend, address: where the batches run (:func:`doppelx.batch.backends.run_plan`;
            the CLI has checked them).
        chunk: items per chunk (default: :func:`doppelx.batch.plan.default_chunk_size`).
        overwrite: replace a different run in a variant's folder.
        quiet: no progress lines and bars.
        json: print the result as JSON.
    """

    kind: str
    count: int
    seed: int
    vary: tuple[str, ...]
    out: Path | str
    workers: int | None = 1
    backend: str = "pool"
    address: str | None = None
    chunk: int | None = None
    overwrite: bool = False
    quiet: bool = False
    json: bool = False


def plan_variants(vary: tuple[str, ...], params: dict, kind: str) -> list[tuple[dict, dict]]:
    """``(variant, parameters)`` of every combination of ``vary``, each checked before any runs."""
    from doppelx.batch.params import check_params, pin_files
    from rules.doppelx.board_file import load_board

    grid = parse_vary(list(vary))
    names = [n for n, _ in grid]
    variants = [dict(zip(names, combo)) for combo in itertools.product(*(v for _, v in grid))]
    if len(variants) > MAX_VARIANTS:
        raise DoppelXError(f"--vary: {len(variants)} variants; a sweep runs at most {MAX_VARIANTS}")
    per_variant = [apply_variant(params, variant) for variant in variants]
    for variant, p in zip(variants, per_variant):
        try:
            check_params(p, kind)
        except DoppelXError as exc:
            raise DoppelXError(f"--vary variant {variant}: {exc}") from None
    if params.get("think") is not None and not any(
        has_expert(p.get("skill"), p.get("skills")) for p in per_variant
    ):
        raise DoppelXError(
            "--think sets an expert's rollouts, but no variant seats an expert "
            "(--skill expert, or expert among --vary skill=…)"
        )
    sides = [load_board(p["board"]) for p in per_variant]
    if not params.get("spinner", True) and not any(b.spinner for b in sides):
        side_names = list(dict.fromkeys(b.name for b in sides))
        if len(side_names) == 1:
            check_no_spinner(sides[0], False)  # the message of a single run
        raise DoppelXError(
            f"--no-spinner: none of the sides varied ({', '.join(side_names)}) has a spinner to leave off"
        )
    return list(zip(variants, [pin_files(p) for p in per_variant]))


def run_sweep(options: SweepOptions, params: dict) -> int:
    """Run a batch of ``params`` for every combination of ``options.vary``, then compare them."""
    from doppelx.batch.backends import run_plan
    from doppelx.batch.plan import RunSpec, default_chunk_size

    o = options
    planned = plan_variants(o.vary, params, o.kind)
    out = Path(o.out)
    check_sweep_folder(out, o.overwrite)
    check_extra_variants(out, len(planned), o.overwrite)
    count = o.count
    rows = []
    for k, (variant, p) in enumerate(planned):
        chunk = o.chunk or default_chunk_size(o.kind, count)
        spec = RunSpec(o.kind, count, o.seed, chunk, p)
        if not o.quiet:
            print(f"variant {k + 1}/{len(planned)}: {variant}", file=sys.stderr, flush=True)
        table = run_plan(
            spec,
            out / f"variant-{k:02d}",
            workers=o.workers,
            backend=o.backend,
            address=o.address,
            progress=not o.quiet,
            overwrite=o.overwrite,
            stale=tuple(n for files in REPORT_FILES.values() for n in files),  # a simulate run's report
        )
        rows.append((variant, summarise(o.kind, table)))
    players = params.get("players") if o.kind == "games" else None
    md, png = write_comparison(rows, out, o.kind, count, players)
    result = {  # a figure without a value is null, never NaN (invalid JSON)
        "variants": [
            {
                "variant": v,
                **{m: _finite(e.estimate.value) for m, e in s.items()},
                "intervals": {m: [_finite(e.estimate.low), _finite(e.estimate.high)] for m, e in s.items()},
                "n": count,
                **({f"fair share (1/{players})": 1 / players} if players else {}),
                "difference_from_first": {
                    m: [_finite(d.value), _finite(d.low), _finite(d.high)]
                    for m, d in ((m, paired_difference(rows[0][1][m], e)) for m, e in s.items())
                },
            }
            for v, s in rows
        ],
        "comparison": str(md),
        "plot": str(png),
    }
    print(json.dumps(result, indent=2) if o.json else f"wrote {md}\nwrote {png}")
    return 0


def check_extra_variants(out: Path, planned: int, overwrite: bool = False) -> None:
    """A sweep folder must not keep variants beyond this sweep's (an earlier, larger sweep):
    its comparison would leave them out without a word. Refused, or with ``overwrite`` their
    run files are removed (:func:`doppelx.batch.store.remove_run`)."""
    from doppelx.batch.store import remove_run

    extra = sorted(
        d for d in out.glob("variant-*") if (d / "run.json").is_file() and _variant_number(d.name) >= planned
    )
    if not extra:
        return
    if not overwrite:
        raise DoppelXError(
            f"{extra[0]}: a variant of an earlier sweep (this one has {counted(planned, 'variant')}); "
            "use another --out, remove it, or pass --overwrite"
        )
    for folder in extra:
        remove_run(folder)


def _variant_number(name: str) -> int:
    number = name.removeprefix("variant-")
    return int(number) if plain_digits(number) else -1


def check_sweep_folder(out: Path, overwrite: bool = False) -> None:
    """Refuse a folder that is no sweep's but holds a file named like one a sweep writes.

    A sweep's folder is one with a run folder ``variant-NN/run.json`` in it (each variant
    folder is checked by its own run); there a sweep resumes and writes its comparison again.
    Elsewhere a ``comparison.md`` is a user's own: refused unless ``overwrite``.
    """
    from doppelx.batch.store import refuse_outputs

    if not overwrite and not any(out.glob("variant-*/run.json")):
        refuse_outputs(out, COMPARISON_FILES, "variant-NN/run.json", "a sweep folder")


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _cell(e: Estimate, share: bool) -> str:
    return e.fmt(percent=share, digits=1 if share else 2)


def write_comparison(rows, out: Path, kind: str, count: int, players: int | None = None) -> tuple[Path, Path]:
    """``comparison.md``: each variant's figures with 95 % intervals, then each variant's
    difference from the first, paired item by item; ``comparison.png``: the same two tables as
    panels (:func:`_plot_comparison`)."""
    metrics = list(rows[0][1])
    labels = [", ".join(f"{k}={v}" for k, v in variant.items()) for variant, _ in rows]
    lines = [f"# Sweep of {counted(len(rows), 'variant')}, {counted(count, kind[:-1])} each", ""]
    if players:
        lines += [f"An equal seat wins 1/{players} = {100 / players:.1f} % of the games.", ""]
    lines += [
        "Shares in %, means per throw or game; 95 % intervals (Wilson for shares).",
        "",
        "| variant | " + " | ".join(metrics) + " |",
        "|---|" + "---|" * len(metrics),
    ]
    for label, (_, s) in zip(labels, rows):
        lines.append(f"| {label} | " + " | ".join(_cell(s[m].estimate, s[m].share) for m in metrics) + " |")
    if len(rows) > 1:
        lines += [
            "",
            f"## Difference from {labels[0]}",
            "",
            "Each variant minus the first, item by item (every variant drew item i from the same "
            "random stream, so the pairing cancels the luck they share: much of it for throws, less "
            "for games, which drift apart once a throw differs), with a 95 % interval on the "
            "paired differences; shares in percentage points. An interval that excludes 0 is a "
            "difference this many items can show.",
            "",
            "| variant | " + " | ".join(metrics) + " |",
            "|---|" + "---|" * len(metrics),
        ]
        first = rows[0][1]
        for label, (_, s) in zip(labels[1:], rows[1:]):
            cells = []
            for m in metrics:
                d = paired_difference(first[m], s[m])
                cell = _cell(d, first[m].share).replace(" %", " pp")
                cells.append(cell if cell.startswith("-") or cell == "–" else "+" + cell)
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    md = out / COMPARISON_FILES[0]
    write_text(md, "\n".join(lines) + "\n", what="comparison")
    _plot_comparison(rows, metrics, labels, kind, players)
    png = out / COMPARISON_FILES[1]
    save_figure(plt.gcf(), png, dpi=90)
    plt.close("all")
    return md, png


def _plot_comparison(rows, metrics: list[str], labels: list[str], kind: str, players: int | None) -> None:
    """One column per figure: above, each variant's value with its 95 % interval (the axis
    from 0, so a small difference looks small); below, each variant's paired difference from
    the first with its interval and the zero line — the comparison the sweep is for. Variants
    are numbered on the axes and named in full under the panels."""
    paired = len(rows) > 1
    legend_in = 0.16 * (len(rows) + 1)  # the variants' names under the panels, a line each
    panels_in = 6.4 if paired else 3.6
    fig, axes = plt.subplots(
        2 if paired else 1, len(metrics), figsize=(3.4 * len(metrics), panels_in + legend_in), squeeze=False
    )
    numbers = range(len(rows))

    def bars(est: list[Estimate], k: float) -> tuple[np.ndarray, np.ndarray]:
        y = np.array([e.value for e in est]) * k
        err = (
            np.nan_to_num(np.clip(np.array([[e.value - e.low, e.high - e.value] for e in est]).T, 0, None))
            * k
        )
        return y, err  # no bar where there is no interval ([n/a])

    for col, m in enumerate(metrics):
        share = rows[0][1][m].share
        k = 100.0 if share else 1.0
        unit = "% of " + ("throws" if kind == "throws" else "games") if share else m
        ax = axes[0][col]
        y, err = bars([s[m].estimate for _, s in rows], k)
        ax.errorbar(numbers, y, yerr=err, fmt="o", capsize=4)
        if players and m.startswith("seat 0"):
            ax.axhline(100 / players, color="grey", linestyle=":", label=f"equal seat (1/{players})")
            ax.legend(fontsize=8)
        ax.set_ylim(*_span_from_zero(y - err, y + err))
        ax.set_title(m, fontsize=10)
        ax.set_ylabel(unit)
        if paired:
            dx = axes[1][col]
            first = rows[0][1][m]
            diff = [paired_difference(first, s[m]) for _, s in rows[1:]]
            dy, derr = bars(diff, k)
            dx.errorbar(list(numbers)[1:], dy, yerr=derr, fmt="o", capsize=4, color="#b5462b")
            dx.axhline(0.0, color="grey", linewidth=1)
            dx.set_ylabel("difference, " + ("percentage points" if share else "per " + kind[:-1]))
            dx.set_title("minus variant 0, item by item", fontsize=9)
        for a in axes[:, col]:
            a.set_xticks(numbers, [str(i) for i in numbers])
            a.set_xlim(-0.5, len(rows) - 0.5)
            a.set_xlabel("variant")
            a.grid(alpha=0.3)
    legend = "\n".join(f"variant {i}: {label}" for i, label in enumerate(labels))
    fig.text(0.01, 0.005, legend, fontsize=8, va="bottom", ha="left", family="monospace")
    fig.tight_layout(rect=(0, legend_in / (panels_in + legend_in), 1, 1))


def _span_from_zero(low: np.ndarray, high: np.ndarray) -> tuple[float, float]:
    """Axis limits that take in 0 and every finite bound, with a margin; ``(0, 1)`` when no
    variant has a value (a figure a run could not measure, e.g. chips per own throw in games
    that end before anybody's own throw)."""
    finite = np.concatenate([low[np.isfinite(low)], high[np.isfinite(high)]])
    if not len(finite):
        return 0.0, 1.0
    lo, hi = min(0.0, float(finite.min())), max(0.0, float(finite.max()))
    pad = 0.12 * (hi - lo) or 1.0
    return lo - (pad if lo < 0 else 0.0), hi + (pad if hi > 0 or lo == 0 else 0.0)
