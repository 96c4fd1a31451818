"""The desktop game behind ``doppelx play``: new-game settings, the interactive match, the window loop."""
