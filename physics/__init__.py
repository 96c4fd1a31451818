"""The physics world of the DoppelX tray, in PyBullet (the default) or MuJoCo
(:mod:`physics.engine`): built from the specs in ``rules``, it throws dice, runs them to
rest and returns poses, statuses and contacts. It knows nothing of chips
or bets. Imports ``rules`` only; never ``render`` or ``doppelx``.
"""
