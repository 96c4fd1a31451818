"""The games' applications, one package each, the rules of each in ``rules/<game>/``.

:mod:`doppelx.games.doppelx` is DoppelX itself over the physics tray: its match, bots, seats,
the throw service and report, the expert bot's planner and the desktop game (``play``); its
commands are in :mod:`doppelx.commands`. The four sibling games have the same roles in the
same file names: ``command`` registers the sub-command, ``match`` drives a game for people
and bots at the terminal (save/resume), ``view`` draws it as text, ``bots`` holds the
policies and ``tournament`` plays bots-only games and sums them up.
:mod:`doppelx.games.options` holds the command-line checks the four ``command`` modules
share (set-up flags refused with ``--resume``). Nothing here decides a rule.
"""
