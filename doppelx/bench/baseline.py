"""The committed baseline of the benchmark suite: read, compare, rewrite.

``assets/bench_baseline.json`` (format ``doppelx-bench-baseline/1``) ships with the package,
so ``doppelx bench`` works from an installed copy. It holds one section per profile
(``quick``, ``full``, ``quick@mujoco``, ``full@mujoco``): the values of every metric by
``scene/metric`` key, and where they were measured (``measured``: the engine and its
version, Python, machine, date). ``doppelx bench --update-baseline`` rewrites the section
of the profile it ran, for the scenes it ran (a metric of those scenes that the run no
longer measures is dropped), and stamps the section's ``measured`` block with this run's
environment. A section recorded on another engine than the run's is not compared
(:func:`check_engine`). Beside the values, a section keeps the analytic expectation of each
row that has one (``expected``, by the same keys): a row whose expectation moved since the
baseline was recorded was computed from other inputs (a material, the die, a setting), so
it is ``CHANGED`` whatever its value does (:func:`doppelx.bench.metrics.judge`).
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Iterable
from pathlib import Path

from doppelx.bench.metrics import Check, Metric, Row, judge
from physics.engine import ENGINES  # (it imports nothing of the engines)
from rules.common.errors import SpecError

FORMAT = "doppelx-bench-baseline/1"
#: Metrics whose value is text (the tray's hash of every resting pose); every other one is a number.
TEXT_METRICS = frozenset({"tray/pose_hash"})


def default_path() -> Path:
    """The shipped baseline file."""
    from rules.common.assets import asset_path

    return asset_path("bench_baseline.json")


def load(path: str | Path) -> dict:
    """The baseline file as a dict (an empty one if the file does not exist yet).

    Raises:
        SpecError: the file is not a baseline of this format.
    """
    path = Path(path)
    if not path.exists():
        return {"format": FORMAT, "profiles": {}}
    from rules.common.assets import read_json

    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SpecError(str(path), "format", f"expected {FORMAT!r}")
    profiles = data.get("profiles")
    if not isinstance(profiles, dict):
        raise SpecError(str(path), "profiles", "expected an object of profiles")
    for name, section in profiles.items():
        _check_section(path, name, section)
    return data


def _check_section(path: Path, name: str, section) -> None:
    """One profile's section: metric values, expectations, the ``measured`` block; else :class:`SpecError`."""
    if not isinstance(section, dict) or not isinstance(section.get("metrics"), dict):
        raise SpecError(str(path), f"profiles.{name}.metrics", "expected an object of metric values")
    for key, value in section["metrics"].items():
        _check_value(path, f"profiles.{name}.metrics.{key}", key, value)
    expected = section.get("expected", {})
    if not isinstance(expected, dict):
        raise SpecError(str(path), f"profiles.{name}.expected", "expected an object of expectations")
    for key, value in expected.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise SpecError(str(path), f"profiles.{name}.expected.{key}", f"expected a number, got {value!r}")
    measured = section.get("measured")
    if measured is not None and not isinstance(measured, dict):
        raise SpecError(
            str(path),
            f"profiles.{name}.measured",
            f"expected an object (engine, versions), got {measured!r:.40}",
        )
    engine = (measured or {}).get("engine")
    if engine is not None and engine not in ENGINES:
        raise SpecError(
            str(path),
            f"profiles.{name}.measured.engine",
            f"expected one of {', '.join(ENGINES)}, got {engine!r:.40}",
        )


def _check_value(path: Path, where: str, key: str, value) -> None:
    """A metric's baseline value is text for :data:`TEXT_METRICS`, else a number; else :class:`SpecError`."""
    if key in TEXT_METRICS:
        if not isinstance(value, str):
            raise SpecError(str(path), where, f"expected a string (a hash), got {value!r}")
    elif not isinstance(value, (int, float)) or isinstance(value, bool):
        raise SpecError(str(path), where, f"expected a number, got {value!r}")


def engine_of(profile: str) -> str:
    """The engine a section name stands for: ``quick@mujoco`` → ``mujoco``, ``quick`` → ``pybullet``."""
    return profile.partition("@")[2] or "pybullet"


def recorded_engine(data: dict, profile: str) -> str | None:
    """The engine the ``profile`` section was measured on, from its ``measured`` block
    (``engine``; in the older blocks without it, ``mujoco`` when MuJoCo's version is named,
    else ``pybullet``); ``None`` if the section or its block is absent."""
    measured = data.get("profiles", {}).get(profile, {}).get("measured")
    if not isinstance(measured, dict) or not measured:
        return None
    if measured.get("engine") is not None:
        return str(measured["engine"])
    return "mujoco" if "mujoco" in measured else "pybullet" if "pybullet" in measured else None


def check_engine(path: str | Path, data: dict, profile: str, engine: str) -> str | None:
    """Refuse to compare a section recorded on another engine than ``engine`` (:class:`SpecError`);
    a note (one line) when it was recorded with another version of the same engine, else ``None``."""
    recorded = recorded_engine(data, profile)
    if recorded is None:
        return None
    if recorded != engine:
        raise SpecError(
            str(path),
            f"profiles.{profile}.measured",
            f"this section was recorded with {recorded}, the run uses {engine}: its figures are not "
            f"comparable (record {engine}'s with --update-baseline, which replaces the section)",
        )
    then = data["profiles"][profile]["measured"].get(engine)
    now = environment(engine).get(engine)
    if then and now and then != now:
        return (
            f"{path}: '{profile}' was recorded with {engine} {then}, this run uses {now}: "
            "the last bits may differ (the pose hash first)"
        )
    return None


def compare(
    metrics: list[Metric], data: dict, profile: str, scenes: Iterable[str] | None = None
) -> list[Row]:
    """Every metric judged against the ``profile`` section of the baseline ``data``; with
    ``scenes`` (the scenes that ran), each baseline metric of those scenes that ``metrics``
    lacks follows its scene's rows as a ``MISSING`` row (:func:`missing`)."""
    section = data.get("profiles", {}).get(profile, {})
    values, expected = section.get("metrics", {}), section.get("expected", {})
    rows = [judge(m, values.get(m.key), expected.get(m.key)) for m in metrics]
    if scenes is None:
        return rows
    for row in missing(metrics, data, profile, scenes):
        at = max((i for i, r in enumerate(rows) if r.metric.scene == row.metric.scene), default=len(rows) - 1)
        rows.insert(at + 1, row)
    return rows


def missing(metrics: list[Metric], data: dict, profile: str, scenes: Iterable[str]) -> list[Row]:
    """A ``MISSING`` row for each metric of the ``profile`` section whose scene is among
    ``scenes`` (the scenes that ran) but which ``metrics`` does not hold: a metric renamed or
    no longer measured, which would otherwise pass unseen."""
    values = data.get("profiles", {}).get(profile, {}).get("metrics", {})
    ran, have = set(scenes), {m.key for m in metrics}
    out = []
    for key, value in values.items():
        scene, _, name = key.partition("/")
        if scene in ran and key not in have:
            metric = Metric(
                scene, name, None, check=Check(), note="in the baseline, not measured by this run"
            )
            out.append(Row(metric, value, None, "MISSING"))
    return out


def updated(
    data: dict, metrics: list[Metric], profile: str, scenes: Iterable[str] = (), fresh: bool = False
) -> dict:
    """``data`` with the ``profile`` section's values replaced by ``metrics`` (other profiles kept).

    Metrics of scenes not in ``scenes`` (the scenes that ran) stay; those of ``scenes`` are
    exactly ``metrics`` (one the run no longer measures is dropped). ``fresh``: start the
    section empty (it was recorded on another engine). The section's ``measured`` block is
    stamped with this run's :func:`environment`, also after a ``--scene`` update.
    """
    profiles: dict[str, dict] = dict(data.get("profiles", {}))
    section = {} if fresh else dict(profiles.get(profile, {}))
    ran = set(scenes) | {m.scene for m in metrics}
    values = {k: v for k, v in section.get("metrics", {}).items() if k.partition("/")[0] not in ran}
    values.update({m.key: m.value for m in metrics})
    section["metrics"] = dict(sorted(values.items()))
    expected = {k: v for k, v in section.get("expected", {}).items() if k.partition("/")[0] not in ran}
    expected.update({m.key: m.expected for m in metrics if isinstance(m.expected, (int, float))})
    section["expected"] = dict(sorted(expected.items()))
    section["measured"] = environment(engine_of(profile))
    profiles[profile] = section
    return {"format": FORMAT, "profiles": profiles}


def environment(engine: str = "pybullet") -> dict:
    """Where the figures come from: the engine, PyBullet's version (and MuJoCo's for
    ``engine`` "mujoco"), Python, machine, date."""
    import importlib.metadata
    import os

    def version(package: str) -> str:
        try:
            return importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            return "unknown"

    engines = {"pybullet": version("pybullet")}
    if engine == "mujoco":
        engines["mujoco"] = version("mujoco")
    return {
        "engine": engine,
        **engines,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
    }


def dumps(data: dict) -> str:
    """The baseline as text (one metric a line, keys sorted within a profile)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
