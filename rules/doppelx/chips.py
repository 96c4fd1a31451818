"""The chips (D5): 90 chips worth 665 in all, exchanged freely, so only values matter.

Players may change chips for other denominations of equal value at any time, so the game
tracks each player's chips as a value; :func:`breakdown` shows the fewest chips that
make one value up, :func:`breakdowns` every player's chips from the one box.

The supply holds what players do not, and it must never run dry: the rulebook does not say
what a table does then. It cannot with a target up to :func:`max_target` (the rulebook's
50 and 70 included): before the last scoring every player holds less than the target, and
one throw pays at most :func:`most_one_throw_pays` in all.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.common.errors import RulesError

#: Chips in the box by denomination (D5).
CHIP_SET: dict[int, int] = {30: 10, 10: 25, 5: 15, 1: 40}
TOTAL_VALUE = sum(v * n for v, n in CHIP_SET.items())  # 665


def most_one_throw_pays(players: int) -> int:
    """The most chips one throw can pay out to ``players`` players together: 9 a die (a 3 on a
    3x field), the active player's two dice 18, every other player 9 with a die on the board
    or at most 8 for a bet (D on both dice); a Doppel X pays 10 a player, which is less for
    up to 8 players."""
    return 9 * (players + 1)


def max_target(players: int) -> int:
    """The largest target (chips that end the game) with which the box can always pay.

    Before the game's last scoring every player holds at most ``target - 1``; the last throw
    adds at most :func:`most_one_throw_pays`. 210 chips for 3 players, 123 for 5, 101 for 6,
    74 for 8.
    """
    return (TOTAL_VALUE - most_one_throw_pays(players)) // players + 1


def target_problem(target: int, players: int) -> str | None:
    """Why ``target`` cannot end a game of ``players`` (one line for the user), ``None`` if
    it can: at least 1 chip and at most :func:`max_target`."""
    if target < 1:
        return f"the target must be at least 1 chip, got {target}"
    if target <= max_target(players):
        return None
    return (
        f"a target of {target} chips could empty the box with {players} players (its chips are worth "
        f"{TOTAL_VALUE}, D5): at most {max_target(players)}"
    )


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


def breakdowns(holdings: Mapping[str, int]) -> dict[str, dict[int, int]]:
    """Every player's chips by denomination, all from the one box (D5: 10 × 30, 25 × 10, 15 × 5, 40 × 1).

    Each player alone would hold :func:`breakdown`'s fewest chips, but the box may not have
    that many of a kind for everybody (eight players at 69 would want 16 thirties). So the
    denominations are handed out from the largest down, players holding the most first
    (seat order among equals), each taking as many as fit their value and are left in the
    box; the rest is made of smaller chips. Raises :class:`RulesError` if the box cannot make
    up the holdings.
    """
    stock = dict(CHIP_SET)
    left = {c: int(v) for c, v in holdings.items()}
    if any(v < 0 for v in left.values()):
        raise ValueError(f"chip values must be >= 0, got {holdings}")
    order = sorted(left, key=lambda c: -left[c])  # stable: seat order among equals
    out: dict[str, dict[int, int]] = {c: {} for c in left}
    for denom in sorted(CHIP_SET, reverse=True):
        for c in order:
            n = min(left[c] // denom, stock[denom])
            if n:
                out[c][denom] = n
                stock[denom] -= n
                left[c] -= n * denom
    short = [c for c in order if left[c]]
    if short:
        raise RulesError(
            f"the box's chips cannot make up {short[0]}'s {holdings[short[0]]} beside the others'"
        )
    return out


def supply_after(holdings: Mapping[str, int]) -> int:
    """Value left in the supply when players hold ``holdings``; error if the box cannot cover it."""
    held = sum(holdings.values())
    if held > TOTAL_VALUE:
        raise RulesError(f"players would hold {held} in chips but the box has only {TOTAL_VALUE}")
    return TOTAL_VALUE - held
