"""Time in the real window from a throw's rest to the next bot's release, per throw policy.

    DISPLAY=:N python benchmarks/window_bot_latency.py [--go-on] [doppelx play arguments]

Runs ``doppelx play`` (default: ``--autoplay --players 4 --skills expert,medium,expert,medium
--seed 3 --quit-after-throws 16 --mute``) with the controller's landing and release
instrumented, and prints per policy (``ThinkingThrow`` is the expert, ``AimAtBestField``
the medium bot) the median and largest time from the previous throw's rest to the turn's
release — the result hold and the pause before a bot's throw, plus whatever thinking adds
(issue 33, goal 1). ``--go-on`` presses Enter as each throw comes to rest, as a reader who
has read the result does (the controller's ``go_on``): what is left is the pause before a
bot's throw and whatever thinking adds. Needs a display (Xvfb). Figures are printed, never
asserted; name the load with them.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.cli import main as doppelx_main
from doppelx.games.doppelx.play.controller import PlayController

DEFAULT = "--autoplay --players 4 --skills expert,medium,expert,medium --seed 3 --quit-after-throws 16 --mute"


def main(argv: list[str]) -> int:
    go_on = "--go-on" in argv
    argv = [a for a in argv if a != "--go-on"]
    landed_at: list[float] = []
    waits: dict[str, list[float]] = {}
    landed, throw_now = PlayController._landed, PlayController._throw_now

    def on_landed(self) -> None:
        if not self.replaying:
            landed_at.append(time.monotonic())
        landed(self)
        if go_on:
            self.go_on()  # Enter at rest: the result's hold ends now

    def on_throw(self, throw=None) -> None:
        req = self.live.request()
        if landed_at and req.kind == "turn":
            policy = type(self.live.bots[req.thrower].throw).__name__
            waits.setdefault(policy, []).append(time.monotonic() - landed_at[-1])
        throw_now(self, throw)

    PlayController._landed, PlayController._throw_now = on_landed, on_throw  # type: ignore[method-assign]
    rc = doppelx_main(["play", *(argv or DEFAULT.split())])
    load = os.getloadavg()[0]
    for policy, xs in sorted(waits.items()):
        print(
            f"{policy}: {len(xs)} throws, rest → release median {statistics.median(xs):.2f} s, "
            f"max {max(xs):.2f} s{' with Enter at rest' if go_on else ''} (load average {load:.2f})"
        )
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
