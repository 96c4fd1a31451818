"""Würfelblitz (Steffen Benndorf, 2–7 players): a speed game of summing dice, as pure logic.

Six coloured dice (orange, blue, black, yellow, green, red) each have one number replaced
by a colour dot; white dice show only colour dots. After the throw every player calls the
sum of the pips of the coloured dice whose colour is *not* visible as a dot. The first
correct caller gets a white disc; three white discs become a safe black disc; the first
with three black discs wins.

Readings the project takes where the rulebook (seed 004) is silent or unclear:

* **Dice faces** are not published. Default, kept as data in
  ``assets/games/wuerfelblitz.toml``: die k (in the order orange, blue, black, yellow,
  green, red) replaces the value k by a dot of the colour of die k+1; red's dot is orange.
  No die shows its own colour, every colour is a dot on exactly one coloured die.
* **White dice** have six faces, one dot of each colour. 2 white dice (the rulebook's
  easier start, the default) or 3.
* **Visible dots** are all dots in the throw: white dice and coloured dice lying on their
  dot face. A coloured die on its dot face shows no pips and adds 0 in every case.
* **Hirnverdreher variant**: when any dot colour (counting both kinds of dots) is visible
  at least twice, the sum is exactly that of the dice whose colour is visible as a dot
  (the normally excluded ones); otherwise the normal rule applies.
* **Calls** are ``(number, time after uncovering)``; each player calls at most once per
  round. The round ends at the first correct call; correct calls at most
  ``tie_window_s`` (0.1 s, data) later count as "at the same time" and each gets a white
  disc. Every wrong call made up to the end of the round costs that caller one white disc
  if they have one (black discs are safe). Calls after the end are late and have no effect.
  If nobody calls correctly the round has no winner and nobody gains a disc.
* A call is a number 0..(sum of every die's highest number); anything else is illegal.
* **Exchange**: as soon as a player holds ``whites_per_black`` white discs (3; the handicap
  lowers it per player, down to 1 = a black disc for every correct call) they become one
  black disc, in the same round.
* **Thrower**: drawn by lot for the first round; afterwards the (fastest) winner of the
  previous round throws; after a round without winner the same player throws again. The
  thrower calls like everyone else.
* **End**: after the round in which someone reaches 3 black discs. Several players who
  reach it in the same round (simultaneous correct calls) share the win.
* The 14 + 14 discs in the box are not a limit in play (the rulebook says nothing about
  running out).

Modules: :mod:`.spec` (dice data), :mod:`.throw` (a throw), :mod:`.scoring` (the sum rule),
:mod:`.game` (state, discs, log, replay), :mod:`.analysis` (exact and Monte Carlo
distribution of the correct sum).
"""

from rules.wuerfelblitz.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    BlitzState,
    Call,
    GameConfig,
    RoundResult,
    new_game,
    replay,
)
from rules.wuerfelblitz.scoring import SumBreakdown, breakdown, correct_sum, excluded_colours, variant_applies
from rules.wuerfelblitz.spec import BlitzSpec, ColouredDie, Face, load_spec, parse_spec
from rules.wuerfelblitz.throw import BlitzThrow, check_throw, sample_throw

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "BlitzSpec",
    "BlitzState",
    "Call",
    "ColouredDie",
    "Face",
    "GameConfig",
    "RoundResult",
    "SumBreakdown",
    "BlitzThrow",
    "breakdown",
    "check_throw",
    "correct_sum",
    "excluded_colours",
    "load_spec",
    "new_game",
    "parse_spec",
    "replay",
    "sample_throw",
    "variant_applies",
]
