"""The expert bot against the field-aiming bots: win rate, chips per own throw, rivals knocked out.

    python benchmarks/bots.py [--games 400] [--think 100] [--workers 2] [--out runs/bots] [--json]
    python benchmarks/bots.py --time-decisions 20 [--think 100]     # CPU seconds per decision, one core

Four-player games on side I. In game ``i`` one expert sits at seat ``i mod 4`` (it goes
round the table) against three medium bots, and — a second run — against three hard
bots. For each, the same games (same seeds) are also played with all four seats of the
opponents' skill: the rotating seat's figures there are those of the bot the expert
replaced. Printed per opponent skill: the rotating seat's win rate with its 95 % Wilson
interval, its chips per own throw and the rival dice its throws sent into a hole or off
the box per throw (means with 95 % intervals), for the expert and for the replaced bot.
Runs go through the batch machinery (chunks under ``--out``, resumable: a killed run
continues when the same command is given again) with ``--workers`` processes. A full run
takes long on a small machine (docs/bots.md); ``--against medium`` and ``--against hard``
may run side by side, and ``--finished`` reports the games finished so far (the baselines
are cheap and always complete). The expert run's wall-clock seconds are those measured
when it was made (kept in ``bots_timing.json`` in its folder, with the games that call
played: a resumed run's last part only), null if not recorded. ``--out`` is relative to the
working folder. Every argument is checked, with the bounds of ``doppelx simulate games``,
before anything is written or run; a bad one is one line and exit 2. The aim
(issue 13): expert win rate ≥ 0.5 against medium bots, ≥ 0.4 against hard bots (an equal
seat wins 0.25).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyarrow as pa
import pyarrow.parquet as pq

from doppelx import argtypes
from doppelx.batch.backends import run_plan
from doppelx.batch.plan import RunSpec
from doppelx.batch.stats import mean, proportion
from doppelx.cli import OneLineParser
from doppelx.commands.simulate import MAX_CHUNK, MAX_GAMES, MAX_WORKERS
from rules.common.atomic import write_text
from rules.common.errors import DoppelXError

PLAYERS = 4
#: The opponents' skills (the field-aiming bots; the expert is the one measured).
OPPONENTS = ("easy", "medium", "hard")
#: The expert run's measured wall clock, in its run folder (written when a call finishes it).
TIMING_FILE = "bots_timing.json"


def finished_rows(out: Path) -> dict:
    """The rows of the finished chunks of a (possibly unfinished) run folder, as columns."""
    files = sorted((out / "chunks").glob("*.parquet"))
    if not files:
        return {"item": []}
    return pa.concat_tables([pq.read_table(f) for f in files]).to_pydict()


def seat_figures(t: dict, players: int = PLAYERS, items: set[int] | None = None) -> dict:
    """Figures of the rotating seat (seat ``item mod players``) of the games of ``t`` (only ``items``)."""
    wins, chips, knocked, n = 0, [], [], 0
    for g in range(len(t["item"])):
        if items is not None and t["item"][g] not in items:
            continue
        n += 1
        seat = t["item"][g] % players
        wins += int(t["winner_seat"][g] == seat)
        chips += list(t["own_changes"][g][seat])
        knocked += list(t["own_knocked"][g][seat])
    return {
        "games": n,
        "wins": wins,
        "win_rate": proportion(wins, n),
        "chips_per_throw": mean(chips),
        "knocked_per_throw": mean(knocked),
        "throws": len(chips),
    }


def _fingerprint(folder: Path) -> str | None:
    """The fingerprint of the run in ``folder`` (None without a readable ``run.json``)."""
    try:
        return RunSpec.read(folder / "run.json").fingerprint()
    except (OSError, DoppelXError):
        return None


def record_timing(folder: Path, seconds: float, games: int) -> None:
    """Keep the wall clock of the call that finished the run in ``folder`` (``games`` played in it)."""
    timing = {"run": _fingerprint(folder), "seconds": seconds, "games": games}
    write_text(folder / TIMING_FILE, json.dumps(timing) + "\n", what="timing file")


def recorded_timing(folder: Path) -> dict | None:
    """``{"seconds", "games"}`` measured when the run in ``folder`` was made, or None (not
    recorded, unreadable, or recorded for another run than the one now in the folder)."""
    try:
        timing = json.loads((folder / TIMING_FILE).read_text())
        if timing["run"] is None or timing["run"] != _fingerprint(folder):
            return None
        seconds, games = timing["seconds"], timing["games"]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    ok = isinstance(seconds, (int, float)) and math.isfinite(seconds) and isinstance(games, int)
    return {"seconds": float(seconds), "games": games} if ok else None


def run(
    kind_skills: list[str], games: int, seed: int, think: int, out: Path, workers: int, chunk: int
) -> Path:
    params = {
        "board": "I",
        "players": PLAYERS,
        "skill": "medium",
        "skills": kind_skills,
        "rotate": True,
        "think": think,
        "spinner": True,
    }
    spec = RunSpec("games", games, seed, chunk, params)
    return run_plan(spec, out, workers=workers, progress=sys.stderr.isatty())


def decision_times(decisions: int, think: int, seed: int) -> dict:
    """Seconds of ``decisions`` expert throw decisions (``think`` rollouts at most each) on one core.

    ``median_s``/``max_s`` are the CPU seconds of this (single-threaded) process over each
    decision — one core's work, whatever else the machine runs; ``median_wall_s`` is the wall
    clock, which a loaded machine stretches. Decision ``k`` is that of the fifth to ninth
    throw of a four-player game of medium bots of seed ``seed + k`` (target 100).
    """
    from doppelx.games.doppelx.bot_factory import make_bot
    from doppelx.games.doppelx.match import DoppelXMatch
    from doppelx.games.doppelx.planner.snapshot import table_of
    from rules.doppelx.board_file import load_board
    from rules.doppelx.game import GameOptions

    times: list[float] = []
    walls: list[float] = []
    counts: list[int] = []
    k = 0
    while len(times) < decisions:
        m = DoppelXMatch.with_bots(4, load_board("I"), seed + k, options=GameOptions(target=100))
        k += 1
        expert = make_bot("expert", think).throw
        try:
            for _ in range(4 + k % 5):
                m.play_throw()
            t = table_of(m, m.request())
            w0, c0 = time.perf_counter(), time.process_time()
            expert.think(t)
            times.append(time.process_time() - c0)
            walls.append(time.perf_counter() - w0)
            counts.append(expert.last.rollouts)
        finally:
            m.close()
    order = sorted(range(decisions), key=lambda i: times[i])
    mid = order[decisions // 2]
    return {
        "decisions": decisions,
        "think": think,
        "median_s": times[mid],
        "max_s": max(times),
        "median_wall_s": sorted(walls)[decisions // 2],
        "median_rollouts": sorted(counts)[decisions // 2],
        "max_rollouts": max(counts),
        "rollouts_per_s": sum(counts) / sum(times),
    }


def _json(e) -> dict:
    """An estimate as JSON: a figure without a value or interval is null, never NaN (invalid JSON)."""

    def finite(x: float) -> float | None:
        return x if math.isfinite(x) else None

    return {"value": finite(e.value), "low": finite(e.low), "high": finite(e.high), "n": e.n}


def _opponents(text: str) -> list[str]:
    """``--against``: a comma-separated list of easy, medium, hard (each once, in the given order)."""
    return list(dict.fromkeys(argtypes.names(OPPONENTS)(text)))


def parser() -> argparse.ArgumentParser:
    """The arguments, each checked as ``doppelx simulate games`` checks it (one line, exit 2)."""
    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--games",
        type=argtypes.whole(1, MAX_GAMES, "a number of games"),
        default=400,
        help=f"games per opponent skill, 1–{MAX_GAMES:,} (default 400)",
    )
    argtypes.add_think(ap)
    ap.set_defaults(think=100)
    ap.add_argument(
        "--against",
        type=_opponents,
        default=["medium", "hard"],
        help=f"opponent skills, some of {','.join(OPPONENTS)} (default medium,hard)",
    )
    ap.add_argument(
        "--workers",
        type=argtypes.whole(1, MAX_WORKERS, "a number of workers"),
        default=2,
        help="worker processes (default 2; at most one per core is used)",
    )
    ap.add_argument(
        "--chunk",
        type=argtypes.whole(1, MAX_CHUNK, "a chunk size"),
        default=5,
        help="games per chunk (the unit of resume; default 5)",
    )
    ap.add_argument("--seed", type=argtypes.seed, default=13, help="the runs' seed (default 13)")
    ap.add_argument(
        "--out",
        default="runs/bots",
        help="folder of the resumable runs (default runs/bots, relative to the working folder)",
    )
    ap.add_argument(
        "--finished",
        action="store_true",
        help="run only the (cheap) baselines; report the expert games finished so far in --out",
    )
    ap.add_argument(
        "--time-decisions",
        type=argtypes.whole(1, argtypes.MAX_COUNT, "a number of decisions"),
        default=None,
        metavar="K",
        help="only time K expert decisions of --think rollouts on one core (the window's budget)",
    )
    ap.add_argument("--json", action="store_true")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return _main(args)
    except DoppelXError as exc:  # a folder that cannot be written, a different run in --out
        print(f"bots.py: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2


def _main(args: argparse.Namespace) -> int:
    if args.time_decisions is not None:
        load1 = os.getloadavg()[0]
        r = decision_times(args.time_decisions, args.think, args.seed)
        r["load_at_start"], r["load_at_end"] = load1, os.getloadavg()[0]
        if args.json:
            print(json.dumps(r, indent=2))
        else:
            print(
                f"{r['decisions']} expert decisions of at most {r['think']} rollouts on one core "
                f"({os.cpu_count()} cores, load average {load1:.2f} → {r['load_at_end']:.2f}): "
                f"median {r['median_s']:.3f} CPU s ({r['median_wall_s']:.3f} s wall clock), "
                f"longest {r['max_s']:.3f} CPU s, median {r['median_rollouts']} rollouts "
                f"(most {r['max_rollouts']}), {r['rollouts_per_s']:.0f} rollouts per CPU second"
            )
        return 0
    cores = os.cpu_count() or 1
    if args.workers > cores:  # as doppelx simulate: more would only compete for the cores
        print(
            f"bots.py: --workers {args.workers} is more than the {cores} cores; using {cores}",
            file=sys.stderr,
        )
        args.workers = cores
    out = Path(args.out)
    load = os.getloadavg()
    cpu = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
    result = {
        "games": args.games,
        "think": args.think,
        "seed": args.seed,
        "machine": f"{os.cpu_count()} cores {cpu}",
        "load_at_start": load,
    }
    for skill in args.against:
        folder = out / f"expert-vs-{skill}"
        if not args.finished:
            before = len(finished_rows(folder)["item"])  # a resumed run: only the rest is timed
            t0 = time.perf_counter()
            run(
                ["expert"] + [skill] * (PLAYERS - 1), args.games, args.seed, args.think,
                folder, args.workers, args.chunk,
            )  # fmt: skip
            if before < args.games:  # a run finished before keeps the time measured then
                record_timing(folder, time.perf_counter() - t0, args.games - before)
        timing = recorded_timing(folder)
        expert = finished_rows(folder)
        base_run = run(
            [skill] * PLAYERS,
            args.games,
            args.seed,
            args.think,
            out / f"all-{skill}",
            args.workers,
            args.chunk,
        )
        base = pq.read_table(base_run).to_pydict()
        done = set(expert["item"])  # the replaced seat over the same games (same seeds)
        result[skill] = {
            "expert": seat_figures(expert),
            "replaced": seat_figures(base, items=done),
            # measured when the expert run was made (None: not recorded); over the games
            # that call played (all of them unless it resumed an interrupted run)
            "seconds_expert_run": timing["seconds"] if timing else None,
            "expert_games_timed": timing["games"] if timing else None,
        }
    result["load_at_end"] = os.getloadavg()
    if args.json:
        print(
            json.dumps(
                result,
                indent=2,
                default=lambda o: _json(o) if hasattr(o, "low") else str(o),
            )
        )
        return 0
    print(
        f"expert bot vs field-aiming bots: {args.games} four-player games per opponent skill on side I, "
        f"expert seat rotating, {args.think} rollouts per decision, seed {args.seed}"
    )
    print(
        f"machine: {result['machine']}, load average at start {load[0]:.2f}, at end {result['load_at_end'][0]:.2f}"
    )
    for skill in args.against:
        r = result[skill]
        if r["seconds_expert_run"] is None:  # a run not finished, or finished before times were kept
            when = "finished so far" if args.finished else "expert run time not recorded"
        else:
            when = f"expert run {r['seconds_expert_run']:.0f} s wall clock"
            if r["expert_games_timed"] != r["expert"]["games"]:
                when += f" for the last {r['expert_games_timed']} games (resumed)"
            if args.finished:
                when = f"finished so far; {when}"
        print(f"\nagainst three {skill} bots ({r['expert']['games']} games, {when}):")
        print(
            f"  {'seat':<22} {'win rate (95 % Wilson)':<28} {'chips per own throw':<24} rival dice out per throw"
        )
        for name, f in (("expert", r["expert"]), (f"{skill} (replaced)", r["replaced"])):
            print(
                f"  {name:<22} {f['wins']}/{f['games']} = {f['win_rate'].fmt(digits=3):<18} "
                f"{f['chips_per_throw'].fmt():<24} {f['knocked_per_throw'].fmt(digits=3)}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
