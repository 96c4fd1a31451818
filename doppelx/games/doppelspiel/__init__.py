"""Das Doppel Spiel at the terminal: command, match, view, bots, tournament."""
