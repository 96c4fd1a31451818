"""Games of DoppelX played forward by hand: random outcomes and bets, no physics."""

from __future__ import annotations

import math

from rules.common.errors import SpecError
from rules.doppelx.game import DoppelXGame
from rules.doppelx.outcome import DieOutcome, Pose, Status, ThrowOutcome
from rules.doppelx.placement import check_resting


def play(game: DoppelXGame, dice, rng, throws: int, bet: bool = True) -> None:
    for _ in range(throws):
        if game.is_terminal():
            return
        if bet:
            for c in game.eligible_bettors():
                if rng.random() < 0.7:
                    game.place_bet(c, str(rng.choice(list(game.cards))))
        game.apply_throw(random_outcome(game, dice, rng))


def random_outcome(game: DoppelXGame, dice, rng) -> ThrowOutcome:
    """The requested throw with random results: thrown dice flat somewhere or gone; lying dice stay."""
    req = game.request()
    out = []
    for owner in req.dice:
        u = rng.random()
        if u < 0.15:
            out.append(DieOutcome(owner, Status.HOLE if u < 0.08 else Status.OFF))
            continue
        die = dice[owner]
        x, y = rng.uniform(-0.12, 0.12, size=2)
        pose = Pose.resting(
            die, float(x), float(y), float(rng.uniform(0, 2 * math.pi)), str(rng.choice(die.faces))
        )
        if rng.random() < 0.2:  # a little tilted: a cocked or leaning die
            q = pose.quaternion
            pose = Pose(
                (pose.position[0], pose.position[1], pose.position[2] + 0.002),
                _normalise((q[0] + 0.2, q[1], q[2], q[3])),
            )
        placed = {d.owner: d.pose for d in out if d.pose is not None} | dict(req.lying)
        try:  # a die cannot rest inside another or over the middle of a hole
            check_resting({**placed, owner: pose}, game.board, dice, "test", {})
        except SpecError:
            out.append(DieOutcome(owner, Status.HOLE))
            continue
        out.append(DieOutcome(owner, Status.BOARD, pose, bool(rng.random() < 0.1)))
    out.extend(DieOutcome(o, Status.BOARD, p, bool(rng.random() < 0.1)) for o, p in req.lying.items())
    return ThrowOutcome(tuple(out))


def _normalise(q):
    n = math.sqrt(sum(v * v for v in q))
    return tuple(v / n for v in q)
