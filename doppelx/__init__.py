"""The application: the ``doppelx`` command, matches that wire rules, physics and players,
bots, batch runs and reports. Imports ``physics`` and ``render`` lazily so that the pure
rules commands run without a physics or GL stack loaded.
"""

__version__ = "0.1.0"
