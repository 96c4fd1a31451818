"""Contact-solver regression benchmarks: seeded scenes, their analytic expectations, a baseline.

Each scene module (:mod:`~doppelx.bench.drop`, :mod:`~doppelx.bench.incline`,
:mod:`~doppelx.bench.pile`, :mod:`~doppelx.bench.impact`, :mod:`~doppelx.bench.spinner`,
:mod:`~doppelx.bench.tray`) runs the physics world on fixed inputs and returns
:class:`~doppelx.bench.metrics.Metric` rows; :mod:`~doppelx.bench.speed` times them against a
frozen reference workload; :mod:`~doppelx.bench.suite` runs them and
:mod:`~doppelx.bench.baseline` compares them with the committed baseline
(``assets/bench_baseline.json``); speed is judged only against this machine's own record
(:mod:`~doppelx.bench.speedrecord`). :mod:`~doppelx.bench.sweep` runs a grid of solver
settings; :mod:`~doppelx.bench.restitution` and :mod:`~doppelx.bench.cuboid` are the
validation scenes (rebound at every impact speed; cuboid dice against real ones).
``doppelx bench`` is the command; ``benchmarks/README.md`` documents every scene.
"""
