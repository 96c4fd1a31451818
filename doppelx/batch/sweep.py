"""``doppelx sweep``: one batch per combination of varied parameters, then a comparison.

Each variant runs into ``OUT/variant-NN/`` (resumable like any run, same seed for every
variant so they see the same random throws, with its own ``report.md``/``report.html``);
its tidy tables go to ``OUT/<table>/<name>=<value>/…`` (one dataset across the variants,
hive-partitioned by the varied parameters); ``OUT/comparison.md``, ``comparison.html`` and
``comparison.png`` compare the variants' figures with 95 % intervals, paired differences,
p-values and the pairing correlation.
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
from doppelx.batch.stats import Estimate, counted, fmt_p, mean, paired, proportion
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
COMPARISON_FILES = ("comparison.md", "comparison.png", "comparison.html")


def _on_off(text: str) -> bool:
    """A ``--vary spinner`` value: ``on`` or ``off``."""
    if text not in ("on", "off"):
        raise argparse.ArgumentTypeError(f"spinner {shown(text)}: write on or off")
    return text == "on"


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
    "spinner": _on_off,
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
class VariantMetric:
    """One figure of a variant: its per-item values (``share``: a share per item — 0/1, or the
    share of an item's dice — shown in %), its
    label for display (its key is snake_case) and, for a figure these items cannot give, why
    (``reason``: "no die lay within the spinner's reach")."""

    values: np.ndarray
    share: bool
    label: str = ""
    reason: str = ""

    @property
    def estimate(self) -> Estimate:
        if self.share and np.isin(self.values, (0.0, 1.0)).all():
            return proportion(int(self.values.sum()), len(self.values))
        return mean(self.values)  # a share of several dice an item (0, ½, 1): their mean


#: The figures drawn in ``comparison.png`` (all of them are in the tables).
PLOTTED = {
    "throws": ("coloured_3x_rate", "hole_or_off", "chips_per_throw", "doppel_x_rate"),
    "games": ("throws_per_game", "seat_0_win_rate", "doppel_x_per_game", "chips_per_own_throw"),
}


def summarise(kind: str, table: Path, params: dict | None = None) -> dict[str, VariantMetric]:
    """The figures of one variant's table, item by item, by snake_case key (item ``i`` of
    every variant drew from the same random stream, so the variants can be compared item by
    item). ``params``: the variant's parameters (bet G needs the spinner and a lying die)."""
    from doppelx.batch.report import why_no_fling
    from rules.doppelx.bets import load_bet_cards
    from rules.doppelx.board_file import load_board

    t = pq.read_table(table).to_pydict()
    order = np.argsort(t["item"])

    def per_item(values, share: bool, label: str, reason: str = "") -> VariantMetric:
        return VariantMetric(np.asarray(values, dtype=float)[order], share, label, reason)

    if kind == "throws":
        figures = {
            "coloured_3x_rate": per_item([f == "3x" for f in t["c_field"]], True, "3x rate (coloured die)"),
            "coloured_hole_or_off": per_item(
                [a != "board" for a in t["c_status"]], True, "coloured die in a hole or off"
            ),
            "white_hole_or_off": per_item(
                [a != "board" for a in t["w_status"]], True, "white die in a hole or off"
            ),
            "hole_or_off": per_item(
                [a != "board" or b != "board" for a, b in zip(t["c_status"], t["w_status"])],
                True,
                "throws losing a die (at least one of the two in a hole or off)",
            ),
            "dice_lost_per_die": per_item(
                [((a != "board") + (b != "board")) / 2 for a, b in zip(t["c_status"], t["w_status"])],
                True,
                "thrown dice lost, per die (in a hole or off)",
            ),
            "chips_per_throw": per_item(t["chips"], False, "chips per throw"),
            "doppel_x_rate": per_item(t["doppel_x"], True, "Doppel X rate"),
        }
        board = load_board(t["board"][0])
        no_fling = why_no_fling(params or {}, board, t)
        for letter, card in load_bet_cards().items():
            reason = no_fling if card.condition == "spinner_fling" else ""
            figures[f"bet_{letter}_per_throw"] = per_item(
                t[f"bet_{letter}"], False, f"bet {letter}: chips per throw", reason
            )
        return figures
    figures = {
        "throws_per_game": per_item(t["throws"], False, "throws per game"),
        "seat_0_win_rate": per_item([s == 0 for s in t["winner_seat"]], True, "seat 0 win rate"),
        "doppel_x_per_game": per_item(t["doppel_x"], False, "Doppel X per game"),
        "bets_won_per_game": per_item(t["bets_won"], False, "bet chips won per game"),
    }
    if "own_changes" in t:  # what a skill or policy is worth: the chips a seat makes with its own throws
        figures["chips_per_own_throw"] = per_item(
            [
                np.mean([c for seat in game for c in seat]) if any(game) else np.nan
                for game in t["own_changes"]
            ],
            False,
            "chips per own throw",
        )
    return figures


def variant_label(variant: dict) -> str:
    """``hole_delta_mm=2, spinner=off``: a variant as ``--vary`` writes it (the progress line
    showed the Python dict, ``{'spinner': True}`` — the analyst's audit)."""
    from doppelx.batch.tidy import partition_value

    return ", ".join(f"{k}={partition_value(v)}" for k, v in variant.items())


def paired_difference(a: VariantMetric, b: VariantMetric) -> Estimate:
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
    for variant, side in zip(variants, sides):
        if "spinner" in variant and side.spinner is None:
            raise DoppelXError(
                f"--vary spinner: side {side.name} has no spinner (its on and off would be the same run); "
                "vary it over sides with one (III, IV)"
            )
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
    from doppelx.batch.report import write_report
    from doppelx.batch.tidy import partition_path

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
            print(f"variant {k + 1}/{len(planned)}: {variant_label(variant)}", file=sys.stderr, flush=True)
        folder = out / f"variant-{k:02d}"
        partition = partition_path(variant)
        table = run_plan(
            spec,
            folder,
            workers=o.workers,
            backend=o.backend,
            address=o.address,
            progress=not o.quiet,
            overwrite=o.overwrite,
            stale=tuple(n for files in REPORT_FILES.values() for n in files),  # a simulate run's report
            tables_root=out,
            partition=partition,
            extendable=False,
        )
        write_report(o.kind, table, folder, tables_root=out, partition=partition)
        rows.append((variant, summarise(o.kind, table, p)))
    remove_stale_partitions(out, {partition_path(v) for v, _ in planned})
    players = params.get("players") if o.kind == "games" else None
    md, png = write_comparison(rows, out, o.kind, count, players)
    result = sweep_json(rows, count, players)
    result.update({"comparison": str(md), "plot": str(png)})
    print(json.dumps(result, indent=2) if o.json else f"wrote {md}\nwrote {png}")
    return 0


def sweep_json(rows, count: int, players: int | None) -> dict:
    """The sweep's figures as JSON: snake_case keys (their display labels under ``labels``),
    per variant the values, intervals and the paired comparison with the first variant; a
    figure without a value is null, never NaN (invalid JSON), and one the variant's items
    cannot give is named under ``not_measurable`` with the reason."""
    first = rows[0][1]
    out: dict = {
        "labels": figure_labels(first),
        "fair_share": 1 / players if players else None,
        "variants": [],
    }
    for v, s in rows:
        comparisons = {}
        for m, e in s.items():
            c = paired(first[m].values, e.values)
            comparisons[m] = {
                "value": _finite(c.difference.value),
                "low": _finite(c.difference.low),
                "high": _finite(c.difference.high),
                "p_value": _finite(c.p_value),
                "correlation": _finite(c.correlation),
            }
        out["variants"].append(
            {
                "variant": v,
                "n": count,
                **figures_json(s),
                "difference_from_first": {m: c for m, c in comparisons.items() if not s[m].reason},
            }
        )
    return out


def figure_labels(figures: dict[str, VariantMetric]) -> dict[str, str]:
    """Each figure's snake_case key → the label the tables show (the key where it has none)."""
    return {m: e.label or m for m, e in figures.items()}


def figures_json(figures: dict[str, VariantMetric]) -> dict:
    """One run's figures (:func:`summarise`) as JSON: ``values``, ``intervals`` (``[low, high]``)
    and ``not_measurable`` (key → why); a figure without a value is null. A sweep gives them per
    variant, ``simulate --json`` for its run."""
    return {
        "values": {m: None if e.reason else _finite(e.estimate.value) for m, e in figures.items()},
        "intervals": {
            m: None if e.reason else [_finite(e.estimate.low), _finite(e.estimate.high)]
            for m, e in figures.items()
        },
        "not_measurable": {m: e.reason for m, e in figures.items() if e.reason},
    }


def remove_stale_partitions(out: Path, keep: set[str]) -> None:
    """Remove the tidy tables' files of variants that are no longer the sweep's (an earlier
    sweep in this folder, replaced with ``--overwrite``): ``<table>/<name>=<value>/…/part-0.parquet``
    outside ``keep``, and their folders once empty, so the folder's dataset holds this sweep's
    variants only. Only files of that name in hive folders are touched; anything else stays."""
    from doppelx.batch.tidy import PART, SCHEMAS

    for table in SCHEMAS:
        root = out / table
        if not root.is_dir():
            continue
        for f in sorted(root.rglob(PART)):
            rel = f.parent.relative_to(root).as_posix()
            if rel in keep or not all("=" in part for part in rel.split("/")):
                continue
            f.unlink()
            for d in [f.parent, *f.parent.parents]:
                if d == root:
                    break
                try:
                    d.rmdir()
                except OSError:
                    break


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
    Elsewhere a ``comparison.md`` is a user's own: refused unless ``overwrite``. A pool's folder
    or a run's (``run.json`` of ``doppelx simulate``) is refused even with ``overwrite``: the
    sweep's tables would be written into theirs.
    """
    from doppelx.batch.store import is_pool, is_sweep, refuse_outputs

    if is_pool(out):
        raise DoppelXError(f"{out}: holds a pool of runs (doppelx pool), not a sweep; use another --out")
    if (out / "run.json").is_file():  # a simulate run's folder: the sweep's tables would mix into its own
        raise DoppelXError(f"{out}: holds a run (doppelx simulate), not a sweep; use another --out")
    if not overwrite and not is_sweep(out):
        refuse_outputs(out, COMPARISON_FILES, "variant-NN/run.json", "a sweep folder")


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _cell(e: Estimate, share: bool) -> str:
    return e.fmt(percent=share, digits=1 if share else 2)


def write_comparison(rows, out: Path, kind: str, count: int, players: int | None = None) -> tuple[Path, Path]:
    """``comparison.md`` (and ``comparison.html``): each variant's figures with 95 % intervals,
    a row per figure, then each variant's difference from the first, paired item by item, with
    its interval, p-value and the pairing correlation; ``comparison.png``: the main figures as
    panels (:func:`_plot_comparison`)."""
    from doppelx.batch.html_report import write_html

    metrics = list(rows[0][1])
    labels = [variant_label(variant) for variant, _ in rows]
    lines = [f"# Sweep of {counted(len(rows), 'variant')}, {counted(count, kind[:-1])} each", ""]
    if players:
        lines += [f"An equal seat wins 1/{players} = {100 / players:.1f} % of the games.", ""]
    lines += [
        "Shares in %, means per throw or game; 95 % intervals (Wilson for shares). Each variant's "
        "own report (seats, bets per card, dice) is `variant-NN/report.html`.",
        "",
        "![comparison](comparison.png)",
        "",
        "| figure (key) | " + " | ".join(f"{k}: {label}" for k, label in enumerate(labels)) + " |",
        "|---|" + "---|" * len(rows),
    ]
    for m in metrics:
        m0 = rows[0][1][m]
        cells = [_measured(s[m]) for _, s in rows]
        lines.append(f"| {m0.label or m} (`{m}`) | " + " | ".join(cells) + " |")
    if len(rows) > 1:
        lines += [
            "",
            f"## Difference from variant 0 ({labels[0]})",
            "",
            "Each variant minus the first, item by item (every variant drew item i from the same "
            "random stream, so the pairing cancels the luck they share: much of it for throws, less "
            "for games, which drift apart once a throw differs), with a 95 % interval on the "
            "paired differences (shares in percentage points), the p-value of a paired t test "
            "(no difference) and r, the correlation of the two variants' items: near 1 the "
            "pairing removed most of the noise, near 0 it removed none.",
            "",
            "| figure | " + " | ".join(f"{k} − 0 | p | r" for k in range(1, len(rows))) + " |",
            "|---|" + "---|---|---|" * (len(rows) - 1),
        ]
        first = rows[0][1]
        for m in metrics:
            cells = []
            for _, s in rows[1:]:
                if s[m].reason or first[m].reason:
                    cells += ["not measurable", "", ""]
                    continue
                c = paired(first[m].values, s[m].values)
                cell = _cell(c.difference, first[m].share).replace(" %", " pp")
                cells += [
                    cell if cell.startswith("-") or cell == "–" else "+" + cell,
                    fmt_p(c.p_value),
                    "–" if not math.isfinite(c.correlation) else f"{c.correlation:.2f}",
                ]
            lines.append(f"| {first[m].label or m} | " + " | ".join(cells) + " |")
    lines += ["", "Variants: " + "; ".join(f"{k}: {label}" for k, label in enumerate(labels)), ""]
    md = out / COMPARISON_FILES[0]
    write_text(md, "\n".join(lines) + "\n", what="comparison")
    plotted = [m for m in PLOTTED.get(kind, ()) if m in rows[0][1]] or metrics[:4]
    _plot_comparison(rows, plotted, labels, kind, players)
    png = out / COMPARISON_FILES[1]
    save_figure(plt.gcf(), png, dpi=90)
    plt.close("all")
    write_html(md, out / COMPARISON_FILES[2])
    return md, png


def _measured(m: VariantMetric) -> str:
    """A variant's cell: the figure with its interval, or why these items cannot give it."""
    return f"not measurable: {m.reason}" if m.reason else _cell(m.estimate, m.share)


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
        unit = "% of " + ("throws" if kind == "throws" else "games") if share else (rows[0][1][m].label or m)
        ax = axes[0][col]
        y, err = bars([s[m].estimate for _, s in rows], k)
        ax.errorbar(numbers, y, yerr=err, fmt="o", capsize=4)
        if players and m.startswith("seat_0"):
            ax.axhline(100 / players, color="grey", linestyle=":", label=f"equal seat (1/{players})")
            ax.legend(fontsize=8)
        ax.set_ylim(*_span_from_zero(y - err, y + err))
        ax.set_title(rows[0][1][m].label or m, fontsize=10)
        ax.set_ylabel(unit)
        if paired:
            dx = axes[1][col]
            first = rows[0][1][m]
            diff = [paired_difference(first, s[m]) for _, s in rows[1:]]
            dy, derr = bars(diff, k)
            dx.errorbar(list(numbers)[1:], dy, yerr=derr, fmt="o", capsize=4, color="#b5462b")
            dx.axhline(0.0, color="grey", linewidth=1)
            # in the figure's own unit (it read "per game" under chips per own throw: the analyst's audit)
            dx.set_ylabel("difference, " + ("percentage points" if share else unit))
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
