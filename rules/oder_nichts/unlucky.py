"""Deciding "who is unlucky": hands palm up or down, then rock-paper-scissors for the last two.

All remaining players show a hand at once; the majority of equal gestures drops out and
the minority repeats until one player is left. A tie (as many up as down) or everybody
showing the same gesture has no minority: the same group repeats (reading). When two are
left they play rock-paper-scissors; equal signs repeat; the loser is the new target.
"""

from __future__ import annotations

from collections.abc import Mapping

GESTURES = ("up", "down")
RPS = ("rock", "paper", "scissors")
_BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


def minority(gestures: Mapping[int, str]) -> list[int] | None:
    """Players in the minority of ``gestures`` (player → up/down), or ``None`` if there is none."""
    for g in gestures.values():
        if g not in GESTURES:
            raise ValueError(f"a gesture is 'up' or 'down', not {g!r}")
    ups = [p for p, g in gestures.items() if g == "up"]
    downs = [p for p, g in gestures.items() if g == "down"]
    if not ups or not downs or len(ups) == len(downs):
        return None
    return ups if len(ups) < len(downs) else downs


def rps_loser(a: tuple[int, str], b: tuple[int, str]) -> int | None:
    """The loser of rock-paper-scissors between ``(player, sign)`` pairs; ``None`` on a draw."""
    (pa, sa), (pb, sb) = a, b
    for s in (sa, sb):
        if s not in RPS:
            raise ValueError(f"rock-paper-scissors signs are {RPS}, not {s!r}")
    if sa == sb:
        return None
    return pb if _BEATS[sa] == sb else pa
