"""DoppelX's application: a match of people and bots over the physics tray, the bots and their planner, the window."""
