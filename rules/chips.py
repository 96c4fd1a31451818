"""The chips (D5): 90 chips worth 665 in all, exchanged freely, so only values matter.

Players may change chips for other denominations of equal value at any time, so the game
tracks each player's chips as a value and :func:`breakdown` shows the fewest chips that
make it up. The supply holds what players do not; with the rulebook's end marks (50/70)
it can never run dry: before the last scoring every player holds < 70, at most
8 × 69 = 552, and one throw pays at most 7 × 9 + 18 + bets ≈ 90, well under 665.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.errors import RulesError

#: Chips in the box by denomination (D5).
CHIP_SET: dict[int, int] = {30: 10, 10: 25, 5: 15, 1: 40}
TOTAL_VALUE = sum(v * n for v, n in CHIP_SET.items())  # 665


def breakdown(value: int) -> dict[int, int]:
    """Fewest chips worth ``value``, by denomination (greedy is optimal for 1/5/10/30)."""
    if value < 0:
        raise ValueError(f"chip value must be >= 0, got {value}")
    out: dict[int, int] = {}
    for denom in sorted(CHIP_SET, reverse=True):
        n, value = divmod(value, denom)
        if n:
            out[denom] = n
    return out


def supply_after(holdings: Mapping[str, int]) -> int:
    """Value left in the supply when players hold ``holdings``; error if the box cannot cover it."""
    held = sum(holdings.values())
    if held > TOTAL_VALUE:
        raise RulesError(f"players would hold {held} in chips but the box has only {TOTAL_VALUE}")
    return TOTAL_VALUE - held
