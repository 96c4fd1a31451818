"""Bounds for issue 13's expert: the same planner with a steady hand, and a position oracle.

    python benchmarks/bots_bound.py [--games 400] [--evals 100] [--seats expert,steady,oracle]
                                    [--against medium,hard] [--workers 2] [--out runs/bots-bound] [--json]

Issue 13 asks the expert to win ≥ 0.5 against three medium bots and ≥ 0.4 against three
hard bots. Is the planner short of that, or is the aim out of reach of any planner that
throws with the hard hand? The games of ``benchmarks/bots.py`` (seed 13: game ``i`` puts
the rotating seat at ``i mod 4``, the same seeds game by game) are played with each of
these in the rotating seat (``--seats``):

* ``expert``: the expert as shipped (the hard hand, ``--evals`` rollouts a decision);
* ``steady``: the same planner and budget with the hard hand's errors of aim, strength,
  release height and place set to 0 — only the dice's tumbling at release (so the bounce
  and the faces) is left to chance;
* ``oracle``: a *position oracle* (a benchmark only): before each of its turn and decider
  throws it copies the match's random stream — the very draws its throw will be made with
  — so each candidate's rollout is its real throw, bit for bit (every prediction is
  checked against the throw the match then makes). It scores candidates as the expert does
  (:func:`doppelx.games.doppelx.planner.value.win_value`: its chance of winning, the thrown dice's faces
  in expectation, so it does not pick faces) and takes the best of ``--evals`` candidates:
  the expert's spread round, then cross-entropy rounds around the best. It bets and makes
  the setup throw like the expert, with the hard hand.

Printed per opponent skill: each seat's win rate with its Wilson interval, chips per own
throw and rival dice knocked out per throw, beside the seat it replaced (the cheap baseline
runs of ``bots.py``, kept in ``--out``), and the games won only by one or the other
(McNemar's exact test). Progress lines go to stderr. Figures: docs/bots.md, "Bounds".
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing as mp
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyarrow.parquet as pq
from bots import PLAYERS, _json, seat_figures
from bots import run as run_games

from doppelx import argtypes
from doppelx.batch.params import GAME_DEFAULTS
from rules.common.errors import DoppelXError

ORACLE = "oracle"


@dataclass(eq=False)
class PositionOracle:
    """A throw policy that sees its own throw's noise (the match's stream, copied) — a benchmark only."""

    evals: int = 100
    strength: float = 0.1
    match: object = None
    predicted: object = None
    decisions: int = 0
    switched: int = 0
    skill: object = field(default=None)

    def __post_init__(self) -> None:
        from physics.throw_model import SKILLS

        self.skill = self.skill or SKILLS["hard"]

    def aim(self, board, die, box=None):
        """The setup throw's aim (no table): the field aim, as the expert's."""
        from doppelx.games.doppelx.bots import AimAtBestField

        return AimAtBestField(self.skill, self.strength).aim(board, die, box)

    def think(self, table):
        """The candidate whose exact rollout (the real noise) is worth most."""
        from doppelx.games.doppelx.planner.rollout import rollout
        from doppelx.games.doppelx.planner.search import Candidate, cem_children, first_candidates
        from doppelx.games.doppelx.planner.value import hand_value_of, win_value

        rng = table.rng(0)
        hand = hand_value_of(table.board, table.cards, table.dice[table.thrower], len(table.lying) + 1)
        start = self.aim(table.board, table.dice[table.thrower], table.box)
        scored: list[tuple[Candidate, object]] = []

        def judge(aims) -> None:
            for a in aims:
                res = rollout(table, a, self.skill, copy.deepcopy(self.match.rng), exact=True)
                scored.append((Candidate(a, [win_value(table, res.outcome, hand)]), res.outcome))

        judge(first_candidates(table, self.skill, start, rng, min(16, self.evals)))
        while len(scored) < self.evals:
            ranked = sorted((c for c, _ in scored), key=lambda c: -c.mean)
            elites = ranked[: max(2, len(ranked) // 8)]
            judge(cem_children(table, elites, rng, min(16, self.evals - len(scored))))
        # the first of the best: the field aim (candidate 0) keeps a tie
        best = max(range(len(scored)), key=lambda k: (scored[k][0].mean, -k))
        self.decisions += 1
        self.switched += int(best != 0)
        self.predicted = scored[best][1]
        return scored[best][0].aim


#: The hard hand without its errors of aim, strength, release height and place: only the
#: dice's tumbling at release (and everything after) is left to chance.
STEADY_HAND = dict(aim_sd=0.0, strength_sd=0.0, height_sd=0.0, along_sd=0.0)
#: The rotating seat's kinds: the expert as shipped, the expert with a steady hand, the oracle.
SEATS = ("expert", "steady", ORACLE)


def seat_bot(kind: str, evals: int):
    """The rotating seat's bot of ``kind`` (``SEATS``), ``evals`` rollouts a decision."""
    from dataclasses import replace

    from doppelx.games.doppelx.bot_factory import make_bot
    from doppelx.games.doppelx.bots import DoppelXBot
    from doppelx.games.doppelx.planner.expert import RolloutBet, ThinkingThrow
    from doppelx.games.doppelx.planner.search import Budget
    from physics.throw_model import SKILLS

    if kind == "expert":
        return make_bot("expert", evals)
    if kind == "steady":
        steady = replace(SKILLS["hard"], name="steady", **STEADY_HAND)
        return DoppelXBot(ThinkingThrow(skill=steady, budget=Budget(evals)), RolloutBet(max(12, evals // 6)))
    return DoppelXBot(PositionOracle(evals), RolloutBet(max(12, evals // 6)))


def seat_game(job: tuple[int, int, tuple[str, ...], int]) -> dict:
    """Game ``item`` of ``bots.py``'s run with a ``SEATS`` kind in the rotating seat: its row, and the checks."""
    from doppelx.batch.game_items import own_throw_figures, start_game
    from doppelx.batch.world_cache import service_for, table_specs

    item, seed, skills, evals = job
    p = {**GAME_DEFAULTS, "board": "I", "players": PLAYERS, "skills": list(skills), "rotate": True}
    board, dice = table_specs(p)
    bots: dict = {}  # the rotating seat's bot by kind (others: the usual bot of their skill)

    def bot_for(kind: str):
        if kind in SEATS:
            bots[kind] = seat_bot(kind, evals)
            return bots[kind]
        return None

    # exactly doppelx.batch.game_items' game: the same streams, the same other seats
    match, colours, _ = start_game(seed, item, p, board, dice, service_for(p).world, bot_for)
    oracle = bots[ORACLE].throw if ORACLE in bots else None
    if oracle is not None:
        oracle.match = match
    foreseen = 0
    while not match.finished:
        if oracle is not None:
            oracle.predicted = None
        rec = match.play_throw()
        if oracle is not None and oracle.predicted is not None:
            foreseen += int(repr(oracle.predicted.dice) == repr(rec.result.outcome.dice))
    summary = match.game.summary()
    own_changes, own_knocked = own_throw_figures(match, colours)
    return {
        "item": item,
        "winner_seat": colours.index(summary["winner"]),
        "own_changes": own_changes,
        "own_knocked": own_knocked,
        "decisions": oracle.decisions if oracle else 0,
        "foreseen": foreseen,
        "switched": oracle.switched if oracle else 0,
    }


def play_seat(kind: str, skill: str, games: int, seed: int, evals: int, workers: int) -> dict:
    """The games with ``kind`` in the rotating seat against three ``skill`` bots, as columns (progress on stderr)."""
    skills = (kind,) + (skill,) * (PLAYERS - 1)
    jobs = [(i, seed, skills, evals) for i in range(games)]
    rows: list[dict] = []
    t0, last = time.perf_counter(), 0.0
    with mp.get_context("spawn").Pool(workers) as pool:
        for row in pool.imap_unordered(seat_game, jobs):
            rows.append(row)
            now = time.perf_counter() - t0
            if now - last > 10 or len(rows) == games:
                last = now
                rate = len(rows) / now
                print(
                    f"  {kind} vs {skill}: {len(rows)}/{games} games, {rate * 60:.1f}/min, "
                    f"ETA {(games - len(rows)) / rate:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    rows.sort(key=lambda r: r["item"])
    return {k: [r[k] for r in rows] for k in rows[0]}


def mcnemar_p(b: int, c: int) -> float:
    """Two-sided exact McNemar p of ``b`` games won only by one seat against ``c`` only by the other."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def seat_won(t: dict) -> dict[int, bool]:
    """Game by game: did the rotating seat win?"""
    return {i: w == i % PLAYERS for i, w in zip(t["item"], t["winner_seat"])}


def paired(a: dict, b: dict) -> dict:
    """Games won only by seat ``a`` / only by ``b`` on the same seeds, and McNemar's p."""
    wa, wb = seat_won(a), seat_won(b)
    only_a = sum(wa[i] and not wb[i] for i in wa)
    only_b = sum(wb[i] and not wa[i] for i in wa)
    return {"only_first": only_a, "only_second": only_b, "mcnemar_p": mcnemar_p(only_a, only_b)}


def _names(allowed: tuple[str, ...]):
    """A comma-separated list out of ``allowed`` (:func:`doppelx.argtypes.names`), each once."""
    parse = argtypes.names(allowed)
    return lambda text: list(dict.fromkeys(parse(text)))


def _figures(f: dict) -> dict:
    return {k: _json(v) if hasattr(v, "low") else v for k, v in f.items()}


def main() -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--games", type=argtypes.positive, default=400, help="games per seat and opponents (default 400)"
    )
    ap.add_argument(
        "--evals",
        type=argtypes.positive,
        default=100,
        help="rollouts (the oracle: candidates) per decision (default 100)",
    )
    ap.add_argument(
        "--seats",
        type=_names(SEATS),
        default=list(SEATS),
        help="the rotating seat's kinds: expert, steady, oracle (default all three)",
    )
    ap.add_argument(
        "--against", type=_names(("easy", "medium", "hard")), default=["medium", "hard"],
        help="opponent skills (default medium,hard)",
    )  # fmt: skip
    ap.add_argument("--workers", type=argtypes.positive, default=2)
    ap.add_argument("--seed", type=argtypes.seed, default=13)
    ap.add_argument(
        "--out",
        default="runs/bots-bound",
        help="folder of the baseline runs (bots.py's, made if missing; default runs/bots-bound)",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.evals < 16:
        ap.error(f"--evals must be at least 16 (the spread round), got {args.evals}")
    load = os.getloadavg()
    result: dict = {
        "games": args.games,
        "evals": args.evals,
        "seed": args.seed,
        "machine": f"{os.cpu_count()} cores {os.uname().machine}",
        "load_at_start": load,
    }
    for skill in args.against:
        try:
            base_run = run_games(
                [skill] * PLAYERS,
                args.games,
                args.seed,
                100,
                Path(args.out) / f"all-{skill}-{args.games}-games-seed-{args.seed}",
                args.workers,
                5,
            )
        except DoppelXError as e:
            print(f"bots_bound.py: {e}", file=sys.stderr)
            return 2
        base = pq.read_table(base_run).to_pydict()
        out: dict = {"replaced": _figures(seat_figures(base))}
        tables: dict[str, dict] = {}
        for kind in args.seats:
            t0 = time.perf_counter()
            t = tables[kind] = play_seat(kind, skill, args.games, args.seed, args.evals, args.workers)
            out[kind] = {
                **_figures(seat_figures(t)),
                "against_replaced": paired(t, base),
                "seconds": time.perf_counter() - t0,
            }
            if kind != "expert" and "expert" in tables:
                out[kind]["against_expert"] = paired(t, tables["expert"])
            if kind == ORACLE:
                out[kind]["decisions"] = sum(t["decisions"])
                out[kind]["foreseen"] = sum(t["foreseen"])
                out[kind]["left_field_aim"] = sum(t["switched"])
        result[skill] = out
    result["load_at_end"] = os.getloadavg()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"the rotating seat against three bots, {args.games} games per row, {args.evals} rollouts a decision, "
        f"seed {args.seed}; {result['machine']}, load average {load[0]:.1f} → {result['load_at_end'][0]:.1f}"
    )
    print(
        "| opponents | seat | wins | win rate (95 % Wilson) | chips per own throw | rival dice out per throw |"
    )
    print("|---|---|---|---|---|---|")
    for skill in args.against:
        r = result[skill]
        for kind in [*args.seats, "replaced"]:
            f = r[kind]
            w, c, k = f["win_rate"], f["chips_per_throw"], f["knocked_per_throw"]
            name = f"{skill} (replaced)" if kind == "replaced" else kind
            print(f"| 3 × {skill} | {name} | {f['wins']} | {_fmt(w, 3)} | {_fmt(c, 2)} | {_fmt(k, 3)} |")
        for kind in args.seats:
            f = r[kind]
            line = f"  {kind} vs {skill}: {f['seconds'] / 60:.1f} min"
            for other in ("replaced", "expert"):
                d = f.get(f"against_{other}")
                if d:
                    line += (
                        f"; games won only by {kind} / only by {other}: {d['only_first']} / "
                        f"{d['only_second']} (McNemar p = {d['mcnemar_p']:.2g})"
                    )
            if kind == ORACLE:
                line += (
                    f"; {f['decisions']} decisions, {f['foreseen']} foreseen bit for bit, "
                    f"{f['left_field_aim']} left the field aim"
                )
            print(line)
    return 0


def _fmt(e: dict, digits: int) -> str:
    """``value [low, high]``; ``[n/a]`` for a figure without an interval."""
    if e["value"] is None:
        return "n/a"
    if e["low"] is None:
        return f"{e['value']:.{digits}f} [n/a]"
    return f"{e['value']:.{digits}f} [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"


if __name__ == "__main__":
    raise SystemExit(main())
