"""Speed figures recorded on this machine: the only thing speed is judged against.

A speed ratio measured on one machine says nothing about another (a different CPU changes
the project's physics and the frozen reference workload by different factors), so the
committed baseline holds no speed figures. ``doppelx bench --record-speed`` writes this
run's speed metrics into a local file (default ``$XDG_CACHE_HOME/doppelx/bench-speed.json``,
else ``~/.cache/doppelx/bench-speed.json``), under this machine's :func:`fingerprint` and
the profile. A later run on the same machine judges its speed ratios against that record
(only slowdowns beyond the profile's tolerance fail); on a machine without a record every
speed row is shown as ``info`` and never fails the run. Like asv's ``continuous`` mode,
the comparison is always between two runs on one machine.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from pathlib import Path

from doppelx.bench.metrics import INFO, Metric, Row, judge
from rules.errors import SpecError

FORMAT = "doppelx-bench-speed/1"


def default_path() -> Path:
    """The local record file."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "doppelx" / "bench-speed.json"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict:
    """What identifies this machine and its software for speed: host, CPU, cores, Python, PyBullet."""
    import importlib.metadata

    try:
        pyb = importlib.metadata.version("pybullet")
    except importlib.metadata.PackageNotFoundError:
        pyb = "unknown"
    return {
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "arch": platform.machine(),
        "python": platform.python_version(),
        "pybullet": pyb,
    }


def fingerprint(info: dict | None = None) -> str:
    """A short hash of :func:`machine` (16 hex digits)."""
    text = json.dumps(info or machine(), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load(path: str | Path) -> dict:
    """The record file as a dict (an empty one if it does not exist).

    Raises:
        SpecError: the file exists but is not a speed record.
    """
    path = Path(path)
    if not path.exists():
        return {"format": FORMAT, "machines": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SpecError(str(path), "", f"not a readable speed record ({exc})") from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("machines"), dict)
    ):
        raise SpecError(str(path), "format", f"expected a {FORMAT!r} object with 'machines'")
    return data


def section(data: dict, profile: str, key: str | None = None) -> dict | None:
    """The recorded speed metrics of this machine (or ``key``) and ``profile``, if any."""
    entry = data.get("machines", {}).get(key or fingerprint(), {})
    values = entry.get("profiles", {}).get(profile)
    return values if isinstance(values, dict) else None


def compare(metrics: list[Metric], data: dict, profile: str) -> list[Row]:
    """Speed metrics judged against this machine's record; all ``info`` without one."""
    values = section(data, profile)
    if values is None:
        return [Row(m, None, None, "info") for m in metrics]
    rows = []
    for m in metrics:
        base = values.get(m.key)
        if m.check.info or base is None:
            rows.append(judge(Metric(m.scene, m.name, m.value, m.unit, m.expected, INFO, m.note), base))
        else:
            rows.append(judge(m, base))
    return [r if r.verdict != "new" else Row(r.metric, None, None, "info") for r in rows]


def recorded(data: dict, metrics: list[Metric], profile: str) -> dict:
    """``data`` with this machine's ``profile`` speed figures replaced by ``metrics``."""
    info = machine()
    key = fingerprint(info)
    machines: dict[str, dict] = dict(data.get("machines", {}))
    entry = dict(machines.get(key, {}))
    entry["machine"] = info
    profiles = dict(entry.get("profiles", {}))
    profiles[profile] = {m.key: m.value for m in metrics}
    entry["profiles"] = profiles
    machines[key] = entry
    return {"format": FORMAT, "machines": machines}


def save(path: str | Path, data: dict) -> None:
    """Write the record (creating its directory)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
