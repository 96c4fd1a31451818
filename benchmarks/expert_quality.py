"""The expert's choices judged on fresh rollouts, and the CPU time of its whole turns.

    python benchmarks/expert_quality.py [--positions 24] [--fresh 40] [--think 100] [--json]
    python benchmarks/expert_quality.py --time-turns 3 [--think 100] [--json]
    python benchmarks/expert_quality.py --worlds 16 [--positions 24] [--json]

Quality: ``--positions`` positions (four-player games of medium bots on side I, seed
13 + k, after 5 + k mod 7 throws, target 50 or 100 by turns; a game over by then is
skipped) are decided by the expert, and
each choice that is not the field aim is scored against the field aim on ``--fresh``
rollouts of streams the search never saw, run in the game's own world (``exact``: the
planner's rollouts step a lighter one) and paired (the same streams for both): the gain per
decision in percentage points of the chance of winning (0 where it kept the field aim),
its standard error, the switches and the switches that were worse. A search that picks
lucky throws shows a negative gain. CPU seconds and rollouts per decision are printed too;
``--json`` lists each position's gain (``gains``), so two trees' runs pair position by position.

``--time-turns G``: G games (seeds 100, 101, …) of the expert (seat blue) against three
medium bots; the CPU seconds of this process over each of the expert's turns — the bets
before it, its decision and its throw run to rest, what lies between the previous throw's
rest and the release in the window, less the drawing — for the first 12 throws of each game.

``--worlds R``: what the planner's lighter world (``planner.rollout.PLANNING``: 6 mm sub-steps,
the game 3 mm) changes. In each of ``--positions`` positions the search's spread round of
candidates (16 aims) is rolled out R times in the planner's world and R times in the game's,
on the same streams (the same releases): the mean difference of the values (planner − game,
points of the chance of winning) with its standard error over the candidates, the spread of
one rollout's value for scale, how often the two worlds pick the same best candidate (beside
how often two sets of game rollouts on other streams do: the noise's own agreement) and the
rank correlation of the candidates' means (Spearman's, median over the positions; beside it
the same for the two sets of game rollouts), the
thrown dice that ended in a hole or off the box, the tunnelled throws (the watch on), the
sub-steps and the CPU milliseconds per rollout in each world.

To compare with another commit, run the same command in a tree exported with ``git archive``
(benchmarks/README.md). Figures are printed, never asserted; the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from doppelx import argtypes
from doppelx.cli import OneLineParser


def positions(n: int, first: int = 0) -> list:
    """The tables of ``n`` positions from k = ``first`` on (see the module docstring)."""
    from doppelx.games.doppelx.match import DoppelXMatch
    from doppelx.games.doppelx.planner.snapshot import table_of
    from rules.doppelx.board_file import load_board
    from rules.doppelx.game import GameOptions

    out: list = []
    k = first
    while len(out) < n:
        m = DoppelXMatch.with_bots(
            4, load_board("I"), 13 + k, options=GameOptions(target=100 if k % 2 else 50)
        )
        try:
            for _ in range(4 + k % 7):
                if m.finished:  # a game of target 50 that ended early gives no position
                    break
                m.play_throw()
            if not m.finished:
                out.append(table_of(m, m.request()))
        finally:
            m.close()
        k += 1
    return out


def quality(n: int, fresh: int, think: int) -> dict:
    """Decide ``n`` positions and score each switch on ``fresh`` unseen paired rollouts."""
    from doppelx.games.doppelx.bot_factory import make_bot
    from doppelx.games.doppelx.planner.rollout import rollout
    from doppelx.games.doppelx.planner.value import hand_value_of, win_value
    from physics.throw_model import SKILLS

    skill = SKILLS["hard"]
    gains, cpu, used, worse = [], [], [], 0
    for t in positions(n):
        expert = make_bot("expert", think).throw
        c0 = time.process_time()
        expert.think(t)
        cpu.append(time.process_time() - c0)
        decision = expert.last
        used.append(decision.rollouts)
        field_aim = decision.candidates[0].aim
        if decision.aim == field_aim:
            gains.append(0.0)
            continue
        hand = hand_value_of(t.board, t.cards, t.dice[t.thrower], len(t.lying) + 1)

        def score(aim, t=t, hand=hand):
            return np.array(
                [
                    win_value(t, rollout(t, aim, skill, t.rng(9, j), exact=True).outcome, hand)
                    for j in range(fresh)
                ]
            )

        gain = float((score(decision.aim) - score(field_aim)).mean())
        gains.append(gain)
        worse += gain < 0
    g = np.array(gains)
    return {
        "positions": n,
        "fresh_rollouts": fresh,
        "think": think,
        "switched": int(sum(x != 0.0 for x in gains)),
        "worse_switches": int(worse),
        "gain_per_decision": float(g.mean()),
        "gain_se": float(g.std(ddof=1) / np.sqrt(n)) if n > 1 else None,
        "median_cpu_s": statistics.median(cpu),
        "median_rollouts": statistics.median(used),
        "gains": gains,
    }


def worlds(n: int, reps: int) -> dict:
    """The planner's world against the game's on the same rollouts (see the module docstring)."""
    from doppelx.games.doppelx.bots import AimAtBestField
    from doppelx.games.doppelx.planner.rollout import rollout
    from doppelx.games.doppelx.planner.search import explicit, first_candidates
    from doppelx.games.doppelx.planner.value import hand_value_of, win_value
    from physics.throw_model import SKILLS
    from rules.doppelx.outcome import Status

    skill = SKILLS["hard"]
    diffs, spread, same_best, noise_best = [], [], 0, 0
    lost = {"planner": 0, "game": 0}
    tunnelled, dice = 0, 0
    steps = {"planner": 0, "game": 0}
    cpu = {"planner": 0.0, "game": 0.0}
    rho: dict[str, list[float]] = {"planner": [], "other": []}
    for t in positions(n):
        hand = hand_value_of(t.board, t.cards, t.dice[t.thrower], len(t.lying) + 1)
        start = AimAtBestField(skill).aim(t.board, t.dice[t.thrower], t.box)
        aims = first_candidates(t, skill, explicit(t, start, skill), t.rng(0), 16)
        means = {"planner": [], "game": [], "other": []}
        for a in aims:
            vals = {"planner": [], "game": [], "other": []}
            for j in range(reps):
                runs = (("planner", False, (11, j)), ("game", True, (11, j)), ("other", True, (12, j)))
                for world, exact, key in runs:
                    c0 = time.process_time()
                    res = rollout(t, a, skill, t.rng(*key), exact=exact)
                    if world != "other":
                        cpu[world] += time.process_time() - c0
                        steps[world] += res.steps
                        thrown = [d for d in res.outcome.dice if d.owner in t.thrown]
                        lost[world] += sum(d.status in (Status.HOLE, Status.OFF) for d in thrown)
                    if world == "planner":  # again with the tunnel watch (it costs CPU)
                        tunnelled += bool(rollout(t, a, skill, t.rng(*key), watch=True).tunnelled)
                        dice += len(t.thrown)
                    vals[world].append(win_value(t, res.outcome, hand))
            for world in means:
                means[world].append(float(np.mean(vals[world])))
            d = np.array(vals["planner"]) - np.array(vals["game"])
            diffs.append(float(d.mean()))
            spread.append(float(np.std(vals["game"], ddof=1)))
        ranks = {w: np.argsort(np.argsort(m)) for w, m in means.items()}
        rho["planner"].append(float(np.corrcoef(ranks["planner"], ranks["game"])[0, 1]))
        rho["other"].append(float(np.corrcoef(ranks["other"], ranks["game"])[0, 1]))
        best = {w: int(np.argmax(m)) for w, m in means.items()}
        same_best += best["planner"] == best["game"]
        noise_best += best["other"] == best["game"]
    rollouts = n * len(aims) * reps
    d = np.array(diffs)
    return {
        "positions": n,
        "candidates": len(aims),
        "rollouts_per_world": rollouts,
        "value_diff_planner_minus_game": float(d.mean()),
        "value_diff_se": float(d.std(ddof=1) / np.sqrt(len(d))),
        "one_rollout_value_sd": float(np.median(spread)),
        "rank_correlation": float(np.median(rho["planner"])),
        "rank_correlation_other_streams": float(np.median(rho["other"])),
        "same_best_candidate": same_best,
        "same_best_candidate_other_streams": noise_best,
        "thrown_dice": dice,
        "lost_dice": lost,
        "tunnelled_throws_planner": tunnelled,
        "substeps_per_rollout": {w: steps[w] / rollouts for w in steps},
        "cpu_ms_per_rollout": {w: 1000 * cpu[w] / rollouts for w in cpu},
    }


def turn_times(games: int, think: int) -> dict:
    """CPU seconds of the expert's whole turns (see the module docstring)."""
    from doppelx.games.doppelx.match import DoppelXMatch
    from rules.doppelx.board_file import load_board
    from rules.doppelx.game import GameOptions

    cpu: list[float] = []
    for g in range(games):
        skills = ["expert", "medium", "medium", "medium"]
        m = DoppelXMatch.with_bots(
            4, load_board("I"), 100 + g, skill=skills, think=think, options=GameOptions()
        )
        try:
            m.play_throw()  # the setup throw: everybody at once, no thinking
            for _ in range(12):
                if m.finished:
                    break
                req = m.request()
                c0 = time.process_time()
                m.play_throw()
                if req.thrower == "blue":
                    cpu.append(time.process_time() - c0)
        finally:
            m.close()
    return {
        "games": games,
        "think": think,
        "turns": len(cpu),
        "median_cpu_s": statistics.median(cpu),
        "max_cpu_s": max(cpu),
    }


def parser() -> argparse.ArgumentParser:
    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=argtypes.whole(2, 1000, "a number of positions"), default=24)
    ap.add_argument("--fresh", type=argtypes.whole(2, 10_000, "a number of rollouts"), default=40)
    ap.add_argument(
        "--time-turns", type=argtypes.whole(1, 1000, "a number of games"), default=None, metavar="G"
    )
    argtypes.add_think(ap)
    ap.set_defaults(think=100)
    ap.add_argument(
        "--worlds", type=argtypes.whole(2, 1000, "a number of rollouts"), default=None, metavar="R"
    )
    ap.add_argument("--json", action="store_true")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    load0 = os.getloadavg()[0]
    if args.time_turns is not None:
        r = turn_times(args.time_turns, args.think)
    elif args.worlds is not None:
        r = worlds(args.positions, args.worlds)
    else:
        r = quality(args.positions, args.fresh, args.think)
    r["load_avg_1min"] = [load0, os.getloadavg()[0]]
    if args.json:
        print(json.dumps(r, indent=2))
    elif args.worlds is not None:
        print(
            f"{r['positions']} positions x {r['candidates']} candidates x {args.worlds} rollouts a world: "
            f"value planner - game {r['value_diff_planner_minus_game']:+.2f} ± {r['value_diff_se']:.2f} points "
            f"(one rollout's sd {r['one_rollout_value_sd']:.1f}); rank correlation with the game's "
            f"{r['rank_correlation']:.2f} (two sets of game rollouts: {r['rank_correlation_other_streams']:.2f}); "
            f"same best candidate in "
            f"{r['same_best_candidate']} of {r['positions']} (two sets of game rollouts: "
            f"{r['same_best_candidate_other_streams']}); thrown dice lost planner {r['lost_dice']['planner']} / game "
            f"{r['lost_dice']['game']} of {r['thrown_dice']}; tunnelled {r['tunnelled_throws_planner']}; sub-steps "
            f"{r['substeps_per_rollout']['planner']:.0f} / {r['substeps_per_rollout']['game']:.0f}, CPU ms "
            f"{r['cpu_ms_per_rollout']['planner']:.2f} / {r['cpu_ms_per_rollout']['game']:.2f} per rollout; "
            f"load average {load0:.2f} → {r['load_avg_1min'][1]:.2f}"
        )
    elif args.time_turns is not None:
        print(
            f"{r['turns']} expert turns of {r['games']} games (at most {r['think']} rollouts a decision): "
            f"median {r['median_cpu_s']:.3f} CPU s, longest {r['max_cpu_s']:.3f}; "
            f"load average {load0:.2f} → {r['load_avg_1min'][1]:.2f}"
        )
    else:
        print(
            f"{r['positions']} positions, {r['fresh_rollouts']} fresh rollouts a choice: switched {r['switched']}, "
            f"{r['worse_switches']} worse; gain per decision {r['gain_per_decision']:+.2f} ± {r['gain_se']:.2f} "
            f"points of the chance of winning; median {r['median_cpu_s']:.3f} CPU s, "
            f"{r['median_rollouts']} rollouts a decision; load average {load0:.2f} → {r['load_avg_1min'][1]:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
