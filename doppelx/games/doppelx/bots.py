"""DoppelX bots: where to throw (aim at the best field) and which bet card to choose.

Throw policy (:class:`AimAtBestField`): the bot values every point of the playfield by
what a die resting there would bring — ``multiplier × mean pips`` on 1x/2x/3x (mean pips
of the die's faces, X counting 0), 0 on X fields, in holes, under the spinner's card and off the board,
``-1`` on -1 fields — and smooths that map with a Gaussian of its own aim error plus the scatter of
bouncing dice (:data:`BOUNCE_SD`). It aims at the best point of the smoothed map, a little
short of it along the throw (dice roll on after landing, :data:`LEAD`), with a gentle
strength. The scatter and the lead were measured with this physics (docs/physics.md). Lying dice are ignored: a simple bot.

Bet policy (:class:`BestCardBet`): a passive player with the die in hand always bets —
betting costs nothing (D29/D30) — on the card with the highest expected pay-out by
rough chances: a die of the active player lands on a field of each kind in proportion
to that kind's area, a die is lost to a hole or off the box with :data:`LOSS_CHANCE`,
Doppel X follows from the X faces of the dice that will lie on the board, and the
spinner flings a lying die with :data:`FLING_CHANCE` on boards that have one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely

from physics.throw_model import SKILLS, Aim, Skill, plan
from rules.common.vec import matmul
from rules.doppelx.bets import PER_DIE_FIELD, BetCard
from rules.doppelx.board import BoardSide, FieldKind
from rules.doppelx.box import BoxSpec, load_box
from rules.doppelx.dice import DieSpec

if TYPE_CHECKING:
    from doppelx.games.doppelx.policies import BetPolicy, ThrowPolicy

#: Scatter of a die's resting place around its first impact (m): bouncing and rolling.
#: Measured on side I with exact throws at strength 0.1–0.2: 5–6 cm per axis.
BOUNCE_SD = 0.055
#: How far short of the chosen point the bot aims along the throw (m): dice roll on
#: after the impact, on average 4.6 cm at strength 0.1 (same measurement).
LEAD = 0.045
#: Grid spacing of the value map (m).
GRID = 0.005
#: Rough chance that a thrown die ends in a hole or off the box (bet B).
LOSS_CHANCE = 0.08
#: Rough chance that the spinner flings a lying die into a hole, X or -1 (bet G).
FLING_CHANCE = 0.05


def mean_pips(die: DieSpec) -> float:
    """Mean pips of a die's faces; an X face counts 0."""
    return sum(int(f) for f in die.faces if f != "X") / len(die.faces)


@dataclass(frozen=True)
class AimAtBestField:
    """Aim at the best spot of the playfield for this skill (see the module docstring).

    Attributes:
        skill: the bot's throwing precision (physics' :class:`~physics.throw_model.Skill`).
        strength: how hard it throws (0…1).
    """

    skill: Skill = SKILLS["medium"]
    strength: float = 0.1

    def aim(self, board: BoardSide, die: DieSpec, box: BoxSpec | None = None) -> Aim:
        """Where to throw on ``board`` with dice like ``die``: :data:`LEAD` short of the best spot."""
        return aim_short_of(best_spot(board, die, self.skill.aim_sd), self.skill, self.strength, die, box)


@functools.lru_cache(maxsize=256)
def aim_short_of(
    spot: tuple[float, float], skill: Skill, strength: float, die: DieSpec, box: BoxSpec | None = None
) -> Aim:
    """An aim whose dice should come to rest at ``spot``: first impact :data:`LEAD` short of it.

    Cached (its arguments are frozen values): a fixed policy aims every throw of a batch alike,
    and the release plan behind it cost 90 µs a throw, 1.5 % of a batch throw (issue 33).
    """
    box = box or load_box()
    x, y = spot
    release, _ = plan(box, Aim((x, y), strength), skill.height, die.half)
    dx, dy = x - release[0], y - release[1]
    d = math.hypot(dx, dy) or 1.0
    return Aim((x - LEAD * dx / d, y - LEAD * dy / d), strength)


@dataclass(frozen=True)
class AimAtField:
    """Aim at the spot most likely to end on a field of ``kind`` (e.g. always go for 3x)."""

    kind: FieldKind
    skill: Skill = SKILLS["medium"]
    strength: float = 0.1

    def aim(self, board: BoardSide, die: DieSpec, box: BoxSpec | None = None) -> Aim:
        if not any(f.kind is self.kind for f in board.fields):
            raise ValueError(f"side {board.name} has no {self.kind.value} field to aim at")
        return aim_short_of(
            best_spot(board, die, self.skill.aim_sd, self.kind), self.skill, self.strength, die, box
        )


@dataclass(frozen=True)
class AimAtPoint:
    """Aim for dice to rest at a fixed point ``target`` (x, y) m of the playfield."""

    target: tuple[float, float]
    skill: Skill = SKILLS["medium"]
    strength: float = 0.1

    def aim(self, board: BoardSide, die: DieSpec, box: BoxSpec | None = None) -> Aim:
        return aim_short_of(self.target, self.skill, self.strength, die, box)


@dataclass
class RandomAim:
    """Aim at a uniformly random point of the playfield, drawn from ``rng``."""

    rng: np.random.Generator
    skill: Skill = SKILLS["medium"]
    strength: float = 0.1

    def aim(self, board: BoardSide, die: DieSpec, box: BoxSpec | None = None) -> Aim:
        x0, y0, x1, y1 = board.bounds
        m = die.size
        spot = (float(self.rng.uniform(x0 + m, x1 - m)), float(self.rng.uniform(y0 + m, y1 - m)))
        return aim_short_of(spot, self.skill, self.strength, die, box)


@functools.lru_cache(maxsize=64)
def best_spot(
    board: BoardSide, die: DieSpec, aim_sd: float, only: FieldKind | None = None
) -> tuple[float, float]:
    """The point (x, y) m of the highest smoothed value on ``board`` (cached).

    With ``only``, the value is the chance of resting on a field of that kind instead of chips.
    """
    xs, ys, value = value_map(board, die, only)
    sd = math.hypot(aim_sd, BOUNCE_SD)
    kx = _gauss_matrix(xs, sd)
    ky = _gauss_matrix(ys, sd)
    smooth = matmul(matmul(ky, value), kx.T)
    j, i = np.unravel_index(int(np.argmax(smooth)), smooth.shape)
    return float(xs[i]), float(ys[j])


def value_map(
    board: BoardSide, die: DieSpec, only: FieldKind | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grid x (nx,), y (ny,) and the chips (ny, nx) of a die resting at each grid point.

    With ``only``, 1 where a die would rest on a field of that kind, else 0.
    """
    x0, y0, x1, y1 = board.bounds
    pad = 0.03  # a margin of "off the board" (worth 0) around the outline
    xs = np.arange(x0 - pad, x1 + pad + 1e-9, GRID)
    ys = np.arange(y0 - pad, y1 + pad + 1e-9, GRID)
    gx, gy = np.meshgrid(xs, ys)
    value = np.zeros(gx.shape)
    pips = mean_pips(die)
    for f in board.fields:
        inside = shapely.contains_xy(f.shape, gx, gy)
        if only is not None:
            v = 1.0 if f.kind is only else 0.0
        else:
            v = -1.0 if f.kind is FieldKind.MINUS_ONE else f.kind.multiplier * pips
        value[inside] = v
    for h in board.holes:
        value[shapely.contains_xy(h.shape.buffer(die.half / 2), gx, gy)] = 0.0
    if board.spinner is not None:  # nothing rests under the spinner's card
        m = board.spinner
        inner = m.arm_length / 2 + die.half  # the card's inscribed circle, plus half a die
        value[(gx - m.center[0]) ** 2 + (gy - m.center[1]) ** 2 < inner**2] = 0.0
    return xs, ys, value


def _gauss_matrix(coords: np.ndarray, sd: float) -> np.ndarray:
    d = coords[:, None] - coords[None, :]
    z = -0.5 * (d / sd) ** 2
    # math.exp, not np.exp: NumPy's AVX-512 exp rounds otherwise than its other paths, and the
    # smoothed map has exact ties on symmetric boards, so the last bit chose the aim by the CPU
    k = np.fromiter((math.exp(v) for v in z.ravel()), dtype=float, count=z.size).reshape(z.shape)
    return k / k.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class BestCardBet:
    """Always bet, on the card with the best expected pay-out (see the module docstring)."""

    def choose(
        self, board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, dice_on_board_after: int
    ) -> str:
        """The letter to bet on.

        Args:
            board: the playfield side.
            cards: the 4 cards in play.
            die: a die like the active player's (for the X chance).
            dice_on_board_after: about how many dice will lie on the board after the throw.
        """
        pays = expected_payouts(board, cards, die, dice_on_board_after)
        return max(
            cards.values(), key=lambda card: (pays[card.letter], -list(cards).index(card.letter))
        ).letter


def expected_payouts(
    board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, dice_on_board_after: int
) -> dict[str, float]:
    """Each card's expected pay-out by the rough chances of :class:`BestCardBet` (module docstring)."""
    shares = field_shares(board)
    p_x = die.faces.count("X") / len(die.faces)
    k = max(0, dice_on_board_after)
    p_doppel = 1.0 - (1 - p_x) ** k - k * p_x * (1 - p_x) ** max(k - 1, 0)
    stay = 1.0 - LOSS_CHANCE

    def expected(card: BetCard) -> float:
        c = card.condition
        if c == "doppel_x":
            return card.payout * p_doppel
        if c == "hole_or_off":
            return card.payout * 2 * LOSS_CHANCE * (1 - p_doppel)
        if c == "spinner_fling":
            return card.payout * (FLING_CHANCE if board.spinner is not None else 0.0) * (1 - p_doppel)
        kind = PER_DIE_FIELD[c]
        return card.payout * 2 * stay * shares.get(kind, 0.0) * (1 - p_doppel)

    return {letter: expected(card) for letter, card in cards.items()}


@functools.lru_cache(maxsize=64)
def field_shares(board: BoardSide) -> dict[FieldKind, float]:
    """Share of the playfield's area (holes excluded) taken by each field kind."""
    holes = shapely.union_all([h.shape for h in board.holes]) if board.holes else None
    area: dict[FieldKind, float] = {}
    for f in board.fields:
        shape = f.shape.difference(holes) if holes is not None else f.shape
        area[f.kind] = area.get(f.kind, 0.0) + shape.area
    total = sum(area.values())
    return {k: a / total for k, a in area.items()}


@dataclass
class RandomBet:
    """Always bet, on a card drawn uniformly from ``rng``."""

    rng: np.random.Generator

    def choose(
        self, board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, dice_on_board_after: int
    ) -> str:
        return str(self.rng.choice(list(cards)))


@dataclass(frozen=True)
class NeverBet:
    """Never bet (returns ``None``)."""

    def choose(
        self, board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, dice_on_board_after: int
    ) -> None:
        return None


THROW_POLICIES = ("greedy", "random", "field:3x", "field:2x", "field:1x", "point:X,Y")
BET_POLICIES = ("best", "random", "never")


def throw_policy(name: str, skill: Skill, rng: np.random.Generator):
    """A throw policy by name: ``greedy`` (best expected chips), ``random``, ``field:KIND``
    (most likely to end on that kind), ``point:X,Y`` (rest at X, Y in mm)."""
    if name == "greedy":
        return AimAtBestField(skill)
    if name == "random":
        return RandomAim(rng, skill)
    if name.startswith("field:"):
        try:
            return AimAtField(FieldKind(name[6:]), skill)
        except ValueError:
            raise ValueError(f"unknown field kind in {name!r}; use 3x, 2x, 1x, X or -1") from None
    if name.startswith("point:"):
        try:
            x, y = (float(v) / 1e3 for v in name[6:].split(","))
        except ValueError:
            raise ValueError(f"{name!r}: write point:X,Y in millimetres, e.g. point:-50,75") from None
        return AimAtPoint((x, y), skill)
    raise ValueError(f"unknown throw policy {name!r}; policies are {', '.join(THROW_POLICIES)}")


def bet_policy(name: str, rng: np.random.Generator):
    """A bet policy by name: ``best`` (expected pay-out), ``random`` or ``never``."""
    if name == "best":
        return BestCardBet()
    if name == "random":
        return RandomBet(rng)
    if name == "never":
        return NeverBet()
    raise ValueError(f"unknown bet policy {name!r}; policies are {', '.join(BET_POLICIES)}")


@dataclass(frozen=True)
class DoppelXBot:
    """A computer player: a throw policy and a bet policy (``choose`` may return ``None``: no bet)."""

    throw: ThrowPolicy = AimAtBestField()
    bet: BetPolicy = BestCardBet()
