"""Pure game logic: one package per game, the contract they meet, and shared infrastructure.

DoppelX's rules are :mod:`rules.doppelx`; the four sibling games are :mod:`rules.clever`,
:mod:`rules.doppelspiel`, :mod:`rules.oder_nichts` and :mod:`rules.wuerfelblitz`. Every game
meets :mod:`rules.contract`, checked by :mod:`rules.conformance`. :mod:`rules.common` holds
what the games and layers share (errors, seeded randomness, data tables, assets, atomic
writes, optional dependencies) and no rule. This package imports neither pybullet nor
pyglet; everything here is testable with hand-written poses.
"""
