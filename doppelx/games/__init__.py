"""The four sibling games, one package each with the same roles in the same file names.

``command`` registers the sub-command, ``match`` drives a game for people and bots at the
terminal (save/resume), ``view`` draws it as text, ``bots`` holds the policies and
``tournament`` plays bots-only games and sums them up. :mod:`doppelx.games.options` holds
the command-line checks the four ``command`` modules share (set-up flags refused with
``--resume``). The game logic itself lives in ``rules/<game>/``; nothing here decides a rule.
"""
