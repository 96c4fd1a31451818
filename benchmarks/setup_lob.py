"""The setup throw's lob: how high the dice fly and how many leave the box (issue 32).

Plays the setup throw (D22) of bot games — every seat throws its die from its place, as
:func:`physics.throw_model.setup_throw` plans it — for a range of seeds on each playfield
side, and prints per side the dice thrown, the dice off the box, and the highest apex above
the rim of any planned arc (from the release velocity, no drag). Run before and after a
change to :mod:`physics.throw_model`; docs/window.md keeps the figures.

    PYTHONPATH=. python benchmarks/setup_lob.py [--seeds 10] [--players 8]
"""

from __future__ import annotations

import argparse
import math
import sys

from doppelx.games.doppelx.play.newgame import GameSetup, start_match
from physics.settings import GRAVITY
from rules.doppelx.outcome import Status


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=10, help="seeds per side (default 10)")
    p.add_argument("--players", type=int, default=8, help="players, 3–8 (default 8: every seat)")
    a = p.parse_args(argv)
    if not 3 <= a.players <= 8 or a.seeds < 1:
        print("setup_lob: --players must be 3–8 and --seeds at least 1", file=sys.stderr)
        return 2
    print(
        f"{'side':>4} {'dice':>5} {'off':>4} {'hole':>4} {'max apex over rim (m)':>22} {'max planned flight (s)':>23}"
    )
    for side in ("I", "II", "III", "IV"):
        dice = off = hole = 0
        apex = flight = 0.0
        for seed in range(a.seeds):
            match = start_match(GameSetup.standard(a.players, 0, board=side, seed=seed))
            try:
                throw = match.setup_throw()
                rim = match.service.box.rim_z
                half = next(iter(match.game.dice.dice.values())).half
                for r in throw.releases:
                    vz = r.velocity[2]
                    top = r.position[2] + max(0.0, vz) ** 2 / (2 * GRAVITY)
                    apex = max(apex, top - rim)
                    # the planned flight: from the hand down to a die resting on the playfield
                    drop = r.position[2] - half
                    flight = max(flight, (vz + math.sqrt(max(0.0, vz * vz + 2 * GRAVITY * drop))) / GRAVITY)
                rec = match.play_throw(throw)
                for die in rec.result.outcome.dice:
                    dice += 1
                    off += die.status is Status.OFF
                    hole += die.status is Status.HOLE
            finally:
                match.close()
        print(f"{side:>4} {dice:>5} {off:>4} {hole:>4} {apex:>22.3f} {flight:>23.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
