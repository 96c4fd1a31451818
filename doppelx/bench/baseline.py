"""The committed baseline of the benchmark suite: read, compare, rewrite.

``assets/bench_baseline.json`` (format ``doppelx-bench-baseline/1``) ships with the package,
so ``doppelx bench`` works from an installed copy. It holds one section per profile
(``quick``, ``full``): the values of every metric by ``scene/metric`` key, and where they
were measured (PyBullet and Python versions, machine, date). ``doppelx bench
--update-baseline`` rewrites the section of the profile it ran, for the metrics it ran.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

from doppelx.bench.metrics import Metric, Row, judge
from rules.errors import SpecError

FORMAT = "doppelx-bench-baseline/1"
#: Metrics whose value is text (the tray's hash of every resting pose); every other one is a number.
TEXT_METRICS = frozenset({"tray/pose_hash"})


def default_path() -> Path:
    """The shipped baseline file."""
    from rules.assets import asset_path

    return asset_path("bench_baseline.json")


def load(path: str | Path) -> dict:
    """The baseline file as a dict (an empty one if the file does not exist yet).

    Raises:
        SpecError: the file is not a baseline of this format.
    """
    path = Path(path)
    if not path.exists():
        return {"format": FORMAT, "profiles": {}}
    from rules.assets import read_json

    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SpecError(str(path), "format", f"expected {FORMAT!r}")
    profiles = data.get("profiles")
    if not isinstance(profiles, dict):
        raise SpecError(str(path), "profiles", "expected an object of profiles")
    for name, section in profiles.items():
        if not isinstance(section, dict) or not isinstance(section.get("metrics"), dict):
            raise SpecError(str(path), f"profiles.{name}.metrics", "expected an object of metric values")
        for key, value in section["metrics"].items():
            _check_value(path, f"profiles.{name}.metrics.{key}", key, value)
    return data


def _check_value(path: Path, where: str, key: str, value) -> None:
    """A metric's baseline value is text for :data:`TEXT_METRICS`, else a number; else :class:`SpecError`."""
    if key in TEXT_METRICS:
        if not isinstance(value, str):
            raise SpecError(str(path), where, f"expected a string (a hash), got {value!r}")
    elif not isinstance(value, (int, float)) or isinstance(value, bool):
        raise SpecError(str(path), where, f"expected a number, got {value!r}")


def compare(metrics: list[Metric], data: dict, profile: str) -> list[Row]:
    """Every metric judged against the ``profile`` section of the baseline ``data``."""
    values = data.get("profiles", {}).get(profile, {}).get("metrics", {})
    return [judge(m, values.get(m.key)) for m in metrics]


def updated(data: dict, metrics: list[Metric], profile: str) -> dict:
    """``data`` with the ``profile`` section's values replaced by ``metrics`` (others kept)."""
    profiles: dict[str, dict] = dict(data.get("profiles", {}))
    section = dict(profiles.get(profile, {}))
    values = dict(section.get("metrics", {}))
    values.update({m.key: m.value for m in metrics})
    section["metrics"] = dict(sorted(values.items()))
    section["measured"] = environment("mujoco" if profile.endswith("@mujoco") else "pybullet")
    profiles[profile] = section
    return {"format": FORMAT, "profiles": profiles}


def environment(engine: str = "pybullet") -> dict:
    """Where the figures come from: PyBullet's version (and MuJoCo's for ``engine``
    "mujoco"), Python, machine, date."""
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
        **engines,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
    }


def dumps(data: dict) -> str:
    """The baseline as text (one metric a line, keys sorted within a profile)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
