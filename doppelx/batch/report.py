"""The designer's report of a batch run: Markdown with PNG figures beside it, and the same as
one self-contained ``report.html`` (:mod:`doppelx.batch.html_report`).

From a throws table: a heatmap of resting positions over the playfield, hit rates per
field with 95 % intervals, chips per throw, each bet card's hit rate and expected pay-out,
Doppel X frequency. From a games table: game length, win rate by seat, and by skill the
win rate, chips per own throw and how often an own throw sent a rival's die into a hole
or off the box.
Column names are those written by :mod:`doppelx.batch.throw_items` and
:mod:`doppelx.batch.game_items` (documented in ``docs/batch.md``); the seats, game length,
bets per card and dice lost come from the tidy tables (:mod:`doppelx.batch.designer`).
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pyarrow.parquet as pq

from doppelx.batch import designer
from doppelx.batch.html_report import write_html
from doppelx.batch.stats import Estimate, clustered_ratio, counted, mean, proportion
from doppelx.batch.store import PINS, REPORT_FILES, read_run_metadata  # noqa: F401 (REPORT_FILES re-exported)
from doppelx.batch.tidy import PART, SCHEMAS
from doppelx.board_picture import geometry_patch, label_field, save_board_png
from rules.common.atomic import save_figure, write_text
from rules.doppelx.bets import load_bet_cards
from rules.doppelx.board import BoardSide
from rules.doppelx.board_file import load_board

FIELD_ORDER = ("3x", "2x", "1x", "X", "-1", "hole", "off")
#: The column prefixes of a throws row's two dice (the files a report writes: REPORT_FILES).
DICE_PREFIXES = {"c": "coloured die", "w": "white die"}


def heatmap_overlay(
    xs_m: np.ndarray, ys_m: np.ndarray, board: BoardSide, cell_mm: float = 5.0, smooth_mm: float = 8.0
):
    """An overlay drawing where dice came to rest (positions in m) over a board picture.

    A 2-D histogram of ``cell_mm`` cells smoothed with a Gaussian of ``smooth_mm`` (normalised
    at the box's walls), shown as the share of resting dice per cm². The heat covers the
    board nearly opaquely, so its colours read against the colour bar and not mixed with the
    fields' own red, yellow and blue; the fields, holes and labels are drawn over it as
    outlines.
    """

    def draw(ax):
        if len(xs_m) == 0:
            return
        density, xe, ye = resting_density(xs_m, ys_m, board.bounds, cell_mm, smooth_mm)
        norm = matplotlib.colors.Normalize(0.0, float(density.max()) or 1.0)
        cmap = matplotlib.colormaps["inferno"]
        rgba = cmap(norm(density))
        rgba[..., 3] = 0.93
        ax.imshow(
            rgba, extent=(xe[0], xe[-1], ye[0], ye[-1]), origin="lower", zorder=9, interpolation="bilinear"
        )
        for f in board.fields:
            ax.add_patch(
                geometry_patch(f.shape, facecolor="none", edgecolor="#d8d8d8", linewidth=0.9, zorder=10)
            )
            label_field(ax, f, board, "#e8e8e8", zorder=11)
        for hole in board.holes:
            ax.add_patch(
                geometry_patch(hole.shape, facecolor="#101010", edgecolor="#d8d8d8", linewidth=0.9, zorder=10)
            )
        cb = ax.figure.colorbar(matplotlib.cm.ScalarMappable(norm, cmap), ax=ax, fraction=0.04, pad=0.02)
        cb.set_label("% of resting dice per cm²")

    return draw


def resting_density(xs_m, ys_m, bounds, cell_mm: float = 5.0, smooth_mm: float = 8.0):
    """``(density, x_edges, y_edges)``: % of the dice per cm² on a grid of ``cell_mm`` cells
    over ``bounds`` (m), smoothed with a Gaussian of ``smooth_mm``; ``density[j, i]`` is row
    ``j`` (y), column ``i`` (x). The smoothing is a normalised convolution: a cell by the wall
    averages over the cells that exist, so the blur does not leak density out of the box
    (zero padding halved it in the edge cells)."""
    minx, miny, maxx, maxy = (v * 1e3 for v in bounds)
    nx, ny = int(round((maxx - minx) / cell_mm)), int(round((maxy - miny) / cell_mm))
    h, xe, ye = np.histogram2d(
        np.asarray(xs_m) * 1e3, np.asarray(ys_m) * 1e3, bins=(nx, ny), range=[[minx, maxx], [miny, maxy]]
    )
    sigma = smooth_mm / cell_mm
    h = _gauss_smooth(h, sigma) / _gauss_smooth(np.ones_like(h), sigma)
    return h.T / len(xs_m) / (cell_mm / 10) ** 2 * 100, xe, ye


def _gauss_smooth(h: np.ndarray, sigma_cells: float) -> np.ndarray:
    """Separable Gaussian blur of a 2-D array (edges padded with zeros)."""
    r = max(1, int(3 * sigma_cells))
    k = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma_cells) ** 2)
    k /= k.sum()
    h = np.apply_along_axis(lambda v: np.convolve(v, k, mode="same"), 0, h)
    return np.apply_along_axis(lambda v: np.convolve(v, k, mode="same"), 1, h)


def _run_spec(table_path: Path | str) -> tuple[dict, dict] | None:
    """The table's run metadata and its spec (``None`` for a table made outside a run)."""
    try:
        meta: object = read_run_metadata(table_path)
    except (KeyError, ValueError):  # a table written by hand, without the run's metadata
        return None
    spec = meta.get("spec") if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or not isinstance(spec, dict):
        return None
    return meta, spec


def _params(found: tuple[dict, dict] | None) -> dict:
    """The run's parameters from :func:`_run_spec`'s answer (empty if the table has none)."""
    params = found[1].get("params") if found else None
    return params if isinstance(params, dict) else {}


def _provenance(found: tuple[dict, dict] | None, board: BoardSide) -> list[str]:
    """The lines that say which run made the table (``found``: :func:`_run_spec` of it): its
    seed, fingerprint and code version, and the parameters that shape its rows (engine,
    skill, policy, dice, ...)."""
    if found is None:
        return ["Made outside `doppelx simulate` (no run metadata in the table)."]
    meta, spec = found
    params = _params(found)
    code = params.get("code_sha256")
    line = f"Run: seed {spec.get('seed')}, run fingerprint `{meta.get('fingerprint')}`"
    pool = meta.get("pool")
    if isinstance(pool, list):  # doppelx pool: the runs' items as one sample
        runs = ", ".join(f"seed {r.get('seed')} ({r.get('count')})" for r in pool if isinstance(r, dict))
        line = (
            f"Pool of {counted(len(pool), 'run')} of the same parameters and code, independent samples "
            f"(items by run: {runs}); every figure is over all {spec.get('count')} items. "
            f"Pool fingerprint `{meta.get('fingerprint')}`"
        )
    if not code:
        line += "; its code version was not recorded (made before runs pinned it)."
    else:
        line += (
            f", code `{str(code)[:12]}` (every parameter in `run.json`; the same run gives the same rows)."
        )
    return [line, "", "Parameters: " + _described(params, board) + "."]


def _described(params: dict, board: BoardSide) -> str:
    """``"engine pybullet, skill medium, policy greedy, lying 0, ..."``: a run's parameters in words."""
    shown = {"engine": params.get("engine") or "pybullet"}
    for key, value in params.items():
        if key in PINS or key in ("board", "engine") or (key == "skill" and params.get("skills")):
            continue  # (a run with a skill per seat names them as skills)
        if key == "dice":
            shown[key] = "shipped" if value is None else str(value)
        elif key == "faces":
            shown[key] = ", ".join(f"{o}={f}" for o, f in value.items()) if value else "default"
        elif key == "spinner":
            shown[key] = (
                ("on" if value else "off") if board.spinner is not None else f"none on side {board.name}"
            )
        elif isinstance(value, list):
            shown[key] = ",".join(str(v) for v in value)
        elif value is not None:
            shown[key] = f"{value:g}" if isinstance(value, float) else str(value)
    return ", ".join(f"{k} {v}" for k, v in shown.items())


def table_paths(root: Path | str, partition: str = "") -> dict[str, Path]:
    """Where a run's tidy tables are: ``root/<table>/[partition/]part-0.parquet``."""
    base = Path(root)
    return {name: (base / name / partition if partition else base / name) / PART for name in SCHEMAS}


def write_report(
    kind: str,
    table: Path | str,
    out_dir: Path | str,
    tables_root: Path | str | None = None,
    partition: str = "",
) -> Path:
    """The report of a run of ``kind`` (``report.md``, ``report.html`` and PNGs in ``out_dir``);
    its tidy tables are under ``tables_root`` (default ``out_dir``) and ``partition``."""
    tables = table_paths(tables_root if tables_root is not None else out_dir, partition)
    return (throws_report if kind == "throws" else games_report)(table, out_dir, tables)


def throws_report(table_path: Path | str, out_dir: Path | str, tables: dict[str, Path] | None = None) -> Path:
    """Write ``report.md``, ``report.html`` and its PNGs for a throws table; returns the Markdown path."""
    out = Path(out_dir)
    tables = tables if tables is not None else table_paths(out)
    t = pq.read_table(table_path).to_pydict()
    n = len(t["item"])
    board = load_board(t["board"][0])
    run = _run_spec(table_path)
    lines = [f"# Throws on side {board.name}: {counted(n, 'throw')}", "", *_provenance(run, board), ""]
    lying = sum(t["lying"])
    in_reach = sum(t.get("lying_in_reach") or [0])
    lines += [
        f"Dice lying on the board before a throw: {lying / n:g} a throw"
        + (f", {in_reach / n:g} of them within the spinner's reach." if lying else ".")
        + (
            " Lying dice change the bets: a thrown die that lands on one can stand on it (cocked or "
            "on X), so the Doppel X cards (A, H) pay far more often than on an empty board."
            if lying
            else ""
        ),
        "",
    ]

    xs, ys = [], []
    for p in DICE_PREFIXES:
        on = [s == "board" for s in t[f"{p}_status"]]
        xs += [x for x, o in zip(t[f"{p}_x"], on) if o]
        ys += [y for y, o in zip(t[f"{p}_y"], on) if o]
    heat = save_board_png(
        board,
        out / "heatmap.png",
        dpi=90,
        overlays=[heatmap_overlay(np.array(xs), np.array(ys), board)],
        # the thrown dice only: a lying die's place was drawn, not thrown (the analyst's audit read
        # "700 dice" as every die of the run)
        title=f"Resting positions, side {board.name} ({counted(len(xs), 'thrown die', 'thrown dice')} "
        "on the playfield)",
    )
    lines += [f"![heatmap]({heat.path.name})", ""]

    lines += [
        "## Where dice end (share of dice, 95 % Wilson interval)",
        "",
        "| field | " + " | ".join(DICE_PREFIXES.values()) + " |",
        "|---|" + "---|" * len(DICE_PREFIXES),
    ]
    for kind in FIELD_ORDER:
        cells = []
        for p in DICE_PREFIXES:
            where = [(s if s != "board" else f) for s, f in zip(t[f"{p}_status"], t[f"{p}_field"])]
            cells.append(proportion(sum(w == kind for w in where), n).fmt(percent=True, digits=1))
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    _bar_fields(t, n, out / "fields.png")
    lines += ["", "![fields](fields.png)", ""]

    lines += ["## Chips per throw (mean, 95 % interval)", "", "| what | chips |", "|---|---|"]
    for p, name in DICE_PREFIXES.items():
        lines.append(f"| {name} | {mean(t[f'{p}_chips']).fmt()} |")
    lines.append(
        f"| active player, total (a Doppel X pays 10 instead of the dice) | {mean(t['chips']).fmt()} |"
    )
    lines.append(
        f"| Doppel X (share of throws) | {proportion(sum(t['doppel_x']), n).fmt(percent=True, digits=1)} |"
    )

    lines.append("")
    no_fling = why_no_fling(_params(run), board, t)
    bets = designer.read(tables, "bets")
    if bets is not None:
        lines += designer.bet_lines_throws(bets, n, load_bet_cards(), no_fling)
    dice = designer.read(tables, "dice")
    if dice is not None:
        lines += designer.dice_lines(dice, "white")
    return _write(out, lines)


def _write(out: Path, lines: list[str]) -> Path:
    """``report.md`` and its self-contained ``report.html``; returns the Markdown path."""
    path = out / "report.md"
    write_text(path, "\n".join(lines) + "\n", what="report")
    write_html(path, out / "report.html")
    return path


def why_no_fling(params: dict, board: BoardSide, t: dict) -> str:
    """Why card G cannot pay in these throws ("" if it can): it needs the spinner and a die
    lying within its reach before the throw (``t``: the wide throws table's columns)."""
    if board.spinner is None:
        return f"side {board.name} has no spinner"
    if params.get("spinner") is False:
        return "the spinner was left off"
    if not any(t["lying"]):
        return "no die lay on the board (--lying)"
    if "lying_in_reach" not in t or not any(t["lying_in_reach"]):
        return "no lying die within the spinner's reach (--lying-in-reach)"
    return ""


def _bar_fields(t: dict, n: int, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.38
    for k, (p, name) in enumerate(DICE_PREFIXES.items()):
        where = [(s if s != "board" else f) for s, f in zip(t[f"{p}_status"], t[f"{p}_field"])]
        est = [proportion(sum(w == kind for w in where), n) for kind in FIELD_ORDER]
        vals = np.array([e.value for e in est]) * 100
        err = np.clip(np.array([[e.value - e.low, e.high - e.value] for e in est]).T, 0, None) * 100
        ax.bar(np.arange(len(FIELD_ORDER)) + (k - 0.5) * width, vals, width, yerr=err, capsize=3, label=name)
    ax.set_xticks(range(len(FIELD_ORDER)), FIELD_ORDER)
    ax.set_ylabel("% of dice")
    ax.set_title("Where the active player's dice end")
    ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=90)
    plt.close(fig)


def games_report(table_path: Path | str, out_dir: Path | str, tables: dict[str, Path] | None = None) -> Path:
    """Write ``report.md``, ``report.html`` and its PNGs for a games table; returns the Markdown path."""
    out = Path(out_dir)
    tables = tables if tables is not None else table_paths(out)
    t = pq.read_table(table_path).to_pydict()
    n = len(t["item"])
    players = t["players"][0]
    board = load_board(t["board"][0])
    lines = [
        f"# {counted(n, 'game')}, {players} players, side {board.name}",
        "",
        *_provenance(_run_spec(table_path), board),
        "",
    ]
    games, seat_rows, turns = (designer.read(tables, k) for k in ("games", "seats", "turns"))
    lines += [f"Games settled by a decider: {sum(r > 0 for r in t['decider_rounds'])}.", ""]
    if games is not None and seat_rows is not None:
        lines += designer.seat_lines(games, seat_rows, players)
        lines += designer.length_lines(games)
    seats = range(players)
    rates = [proportion(sum(w == s for w in t["winner_seat"]), n) for s in seats]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    axes[0].bar(
        list(seats),
        [e.value * 100 for e in rates],
        yerr=np.clip(np.array([[e.value - e.low, e.high - e.value] for e in rates]).T, 0, None) * 100,
        capsize=3,
    )
    axes[0].axhline(100 / players, color="grey", linestyle=":", label="fair share")
    axes[0].set_xticks(list(seats))
    axes[0].set_xlabel("seat (0 starts)")
    axes[0].set_ylabel("% of games won")
    axes[0].legend()
    lo, hi = min(t["throws"]), max(t["throws"])
    step = max(1, math.ceil((hi - lo + 1) / 20))  # whole throws per bin, at most 20 bins
    axes[1].hist(t["throws"], bins=np.arange(lo - 0.5, hi + step + 0.5, step), color="#1f5fae")
    axes[0].set_title("Win rate by seat", fontsize=10)
    axes[1].set_title("Game length", fontsize=10)
    axes[1].set_xlabel("throws per game")
    axes[1].set_ylabel("games")
    fig.tight_layout()
    save_figure(fig, out / "games.png", dpi=90)
    plt.close(fig)
    lines += ["![games](games.png)", ""]
    if games is not None and turns is not None:
        lines += designer.doppel_lines_games(games, turns)
    bets = designer.read(tables, "bets")
    if bets is not None and turns is not None:
        in_play = _params(_run_spec(table_path)).get("cards") or ["A", "B", "C", "D"]
        lines += designer.bet_lines_games(bets, turns, list(in_play), load_bet_cards())
    if "seat_skills" in t:
        lines += skill_table(t)
    dice = designer.read(tables, "dice")
    if dice is not None:
        lines += designer.dice_lines(dice, "white")
    return _write(out, lines)


def skill_figures(t: dict) -> dict[str, dict]:
    """By skill, over every seat of every game: seat-games, wins, own-throw chips and knock-outs.

    Returns ``{skill: {"seats", "wins", "win_rate", "chips", "knock_share", "knocked",
    "every_seat"}}``. The intervals (95 %) take the *games* as the sample: a skill with one
    seat in each game has its win rate as a Wilson interval over the games; with several seats
    in a game, those seats share one winner and the interval is clustered by game
    (:func:`~doppelx.batch.stats.clustered_ratio`), as are the per-throw figures (the throws of
    one game share its table). A skill in every seat of every game wins 1/players by
    construction: ``every_seat`` says so and its win rate has no interval.
    """
    acc: dict[str, list[dict]] = {}
    for g in range(len(t["item"])):
        per_game: dict[str, dict] = {}
        for seat, skill in enumerate(t["seat_skills"][g]):
            a = per_game.setdefault(skill, {"seats": 0, "wins": 0, "chips": [], "knocked": []})
            a["seats"] += 1
            a["wins"] += int(t["winner_seat"][g] == seat)
            a["chips"] += list(t["own_changes"][g][seat])
            a["knocked"] += list(t["own_knocked"][g][seat])
        for skill, a in per_game.items():
            acc.setdefault(skill, []).append(a)
    figures = {}
    for skill, games in acc.items():
        seats, wins = sum(a["seats"] for a in games), sum(a["wins"] for a in games)
        every_seat = len(games) == len(t["item"]) and all(
            a["seats"] == len(t["seat_skills"][g]) for g, a in enumerate(games)
        )
        if every_seat:
            win_rate = Estimate(wins / seats, math.nan, math.nan, len(games))
        elif all(a["seats"] == 1 for a in games):
            win_rate = proportion(wins, seats)
        else:
            win_rate = clustered_ratio([(a["wins"], a["seats"]) for a in games], (0.0, 1.0))
        figures[skill] = {
            "seats": seats,
            "wins": wins,
            "every_seat": every_seat,
            "win_rate": win_rate,
            "chips": clustered_ratio([(sum(a["chips"]), len(a["chips"])) for a in games]),
            "knock_share": clustered_ratio(
                [(sum(k > 0 for k in a["knocked"]), len(a["knocked"])) for a in games], (0.0, 1.0)
            ),
            "knocked": clustered_ratio(
                [(sum(a["knocked"]), len(a["knocked"])) for a in games], (0.0, math.inf)
            ),
        }
    return figures


def skill_table(t: dict) -> list[str]:
    """The report's section "By skill" (Markdown lines)."""
    lines = [
        "## By skill (95 % intervals)",
        "",
        "Over every seat of every game; the intervals take the games as the sample (a skill in "
        "several seats of a game is clustered by game: those seats share one winner). Chips per "
        "own throw: the thrower's change of chips on its own turns. Knock-out throws: the share of "
        "its own throws that sent a rival's die into a hole or off the box. A skill in every seat "
        "wins 1/players by construction (no interval).",
        "",
        "| skill | seat-games | wins | win rate | chips per own throw | knock-out throws | "
        "rival dice out per throw |",
        "|---|---|---|---|---|---|---|",
    ]
    for skill, f in skill_figures(t).items():
        lines.append(
            f"| {skill} | {f['seats']} | {f['wins']} | {f['win_rate'].fmt(percent=True, digits=1)} | "
            f"{f['chips'].fmt()} | {f['knock_share'].fmt(percent=True, digits=1)} | {f['knocked'].fmt(digits=3)} |"
        )
    return [*lines, ""]
