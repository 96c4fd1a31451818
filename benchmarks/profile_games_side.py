"""Why a side's games cost what they do: games of bots played in this process under cProfile.

    python benchmarks/profile_games_side.py --sides I,III --games 8 [--no-spinner] [--top 12] [--no-profile]
        [--engine pybullet|mujoco]
    python benchmarks/profile_games_side.py --interleave ROUNDS [--sides I,III,IV] [--games 6]

For each side it plays the games of ``doppelx simulate games`` (4 medium bots, seed 0, the
same start as the batch: :func:`doppelx.batch.game_items.start_game`) and prints the wall
time per game, throws per game, physics steps per throw, simulated seconds per throw and
wall time per step (and the process's CPU time per game and step: steadier than the wall
clock on a loaded machine), then cProfile's functions by own time. Side by side these say where a
side's extra cost comes from: more throws a game, longer throws (more steps until every
die and the spinner rest) or dearer steps (more bodies in contact). ``--no-profile`` plays
the same games without cProfile (its overhead falls mostly on the Python side) and prints
only the table, with each side's time per game over the first side's. docs/batch.md
("Why side III is slower") quotes its figures.

``--interleave ROUNDS`` plays, in one process, the games of the first side and of each
spinner side with and without its spinner, game by game in turn (the order reversed every
other game), ``ROUNDS`` times, and prints CPU time per game, per throw and per step and
each row over the first side: a loaded machine's drift falls on every row alike.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time


def play(side: str, games: int, spinner: bool, engine: str = "pybullet") -> dict:
    from doppelx.batch.game_items import DEFAULTS, start_game
    from doppelx.batch.world_cache import service_for, table_specs

    p = {**DEFAULTS, "board": side, "spinner": spinner, "engine": engine}
    board, dice = table_specs(p)
    world = service_for(p).world
    throws = steps = 0
    sim = 0.0
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        match, _, _ = start_game(0, i, p, board, dice, world)
        match.play()
        throws += len(match.log)
        steps += sum(rec.result.steps for rec in match.log)
        sim += sum(rec.result.sim_time for rec in match.log)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"wall": wall, "cpu": cpu, "throws": throws, "steps": steps, "sim": sim, "games": games}


def interleave(sides: list[str], games: int, rounds: int) -> None:
    """The ``--interleave`` table (see the module's docstring)."""
    from doppelx.batch.game_items import DEFAULTS, start_game
    from doppelx.batch.world_cache import table_specs
    from physics.engine import make_world

    rows: dict[str, tuple] = {}
    for k, side in enumerate(sides):
        p = {**DEFAULTS, "board": side, "spinner": True, "engine": "pybullet"}
        board, dice = table_specs(p)
        if k == 0 or board.spinner is None:
            rows[side] = (p, board, dice, make_world(board, dice=dice))
            continue
        rows[f"{side} spinner"] = (p, board, dice, make_world(board, dice=dice))
        rows[f"{side} no spinner"] = (
            {**p, "spinner": False},
            board,
            dice,
            make_world(board, dice=dice, spinner=False),
        )
    names = list(rows)
    acc = {n: [0.0, 0, 0, 0] for n in names}  # CPU s, games, throws, steps
    for r in range(rounds):
        for i in range(games):
            for n in names if (i + r) % 2 == 0 else names[::-1]:
                p, board, dice, world = rows[n]
                match, _, _ = start_game(0, i, p, board, dice, world)
                c0 = time.process_time()
                match.play()
                a = acc[n]
                a[0] += time.process_time() - c0
                a[1] += 1
                a[2] += len(match.log)
                a[3] += sum(rec.result.steps for rec in match.log)
    first = acc[names[0]][0] / acc[names[0]][1]
    print(
        f"{'row':<18} {'CPU s/game':>10} {'× first':>8} {'throws/game':>12} {'steps/throw':>12}"
        f" {'CPU ms/throw':>13} {'CPU µs/step':>12}"
    )
    for n in names:
        cpu, g, throws, steps = acc[n]
        print(
            f"{n:<18} {cpu / g:10.3f} {cpu / g / first:8.2f} {throws / g:12.1f} {steps / throws:12.0f}"
            f" {1e3 * cpu / throws:13.1f} {1e6 * cpu / steps:12.1f}"
        )


def main() -> None:
    from doppelx.cli import OneLineParser

    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sides", default="I,III")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--no-spinner", action="store_true", help="leave the spinner off (sides III/IV)")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--no-profile", action="store_true", help="time the games only (no cProfile)")
    ap.add_argument("--engine", choices=("pybullet", "mujoco"), default="pybullet")
    ap.add_argument(
        "--interleave",
        type=int,
        metavar="ROUNDS",
        help="PyBullet: each spinner side with and without its spinner, game by game in one process",
    )
    a = ap.parse_args()
    if a.interleave is not None:
        if a.interleave < 1 or a.games < 1:
            ap.error("--interleave and --games must be at least 1")
        interleave(a.sides.split(","), a.games, a.interleave)
        return
    play(a.sides.split(",")[0], 1, not a.no_spinner, a.engine)  # not counted: the imports, the first world
    rows = []
    for side in a.sides.split(","):
        if a.no_profile:
            rows.append((side, play(side, a.games, not a.no_spinner, a.engine)))
            continue
        prof = cProfile.Profile()
        prof.enable()
        r = play(side, a.games, not a.no_spinner, a.engine)
        prof.disable()
        rows.append((side, r))
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(a.top)
        print(f"== side {side}: cProfile, by own time ==")
        print("\n".join(ln for ln in text.getvalue().splitlines() if ln.strip())[:4000])
    print(
        f"{'side':<5} {'s/game':>7} {'throws/game':>12} {'steps/throw':>12} {'sim s/throw':>12} {'µs/step':>8}"
        f" {'× first':>8} {'CPU s/game':>11} {'CPU µs/step':>12} {'CPU × first':>12}"
    )
    first = rows[0][1]["wall"] / rows[0][1]["games"]
    first_cpu = rows[0][1]["cpu"] / rows[0][1]["games"]
    for side, r in rows:
        print(
            f"{side:<5} {r['wall'] / r['games']:7.3f} {r['throws'] / r['games']:12.1f} "
            f"{r['steps'] / r['throws']:12.0f} {r['sim'] / r['throws']:12.3f} {1e6 * r['wall'] / r['steps']:8.1f}"
            f" {r['wall'] / r['games'] / first:8.2f} {r['cpu'] / r['games']:11.3f}"
            f" {1e6 * r['cpu'] / r['steps']:12.1f} {r['cpu'] / r['games'] / first_cpu:12.2f}"
        )


if __name__ == "__main__":
    main()
