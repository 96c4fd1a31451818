"""Pure game logic: specs and loaders, reading resting dice, DoppelX scoring and game flow.

This package imports neither pybullet nor pyglet; everything here is testable with
hand-written poses. The four sibling games live in subpackages (``rules.clever`` …).
"""
