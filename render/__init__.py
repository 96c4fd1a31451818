"""The pyglet desktop window: scene, camera, input and HUD. Draws snapshots it is handed
and turns input into intents; never decides a rule and never imports ``doppelx``.
"""
