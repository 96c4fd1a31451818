"""The pyglet desktop window: scene, camera, input and HUD. Draws snapshots it is handed
and turns input into intents; never decides a rule and never imports ``doppelx``.

What the match uses: :mod:`render.snapshot` (``TableSpec``, ``Snapshot``, interpolation),
:mod:`render.intents` (``ThrowIntent``, ``BetIntent``, ``CommandIntent``),
:mod:`render.window` (``TableWindow``; raises :class:`render.errors.NoDisplayError`) and
:mod:`render.driver` (``FixedStep``). Importing this package loads no pyglet; the window
modules do. The controls are described in ``docs/window.md``.
"""
