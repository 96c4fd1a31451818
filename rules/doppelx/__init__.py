"""DoppelX's rules (D1–D40): board and dice specs, reading a resting die, scoring, the game.

The playfield sides and the box (:mod:`~rules.doppelx.board`, :mod:`~rules.doppelx.box`,
their loader :mod:`~rules.doppelx.board_file`), the dice (:mod:`~rules.doppelx.dice`), the
outcome of a throw the physics hands over (:mod:`~rules.doppelx.outcome`), reading a die from
above (:mod:`~rules.doppelx.reading`), the chips, bets and score of a throw
(:mod:`~rules.doppelx.scoring`) and the game (:mod:`~rules.doppelx.game`). Nothing here
imports pybullet or pyglet.
"""
