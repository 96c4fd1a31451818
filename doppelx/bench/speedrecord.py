"""Speed figures recorded on this machine: the only thing speed is judged against.

A speed ratio measured on one machine says nothing about another (a different CPU changes
the project's physics and the frozen reference workload by different factors), so the
committed baseline holds no speed figures. ``doppelx bench --record-speed`` writes this
run's speed metrics into a local file (default ``$XDG_CACHE_HOME/doppelx/bench-speed.json``,
else ``~/.cache/doppelx/bench-speed.json``), under this machine's :func:`fingerprint` and
the profile. A later run on the same machine judges its speed ratios against that record
(only slowdowns beyond the profile's tolerance fail); on a machine without a record every
speed row is shown as ``info`` and never fails the run. Like asv's ``continuous`` mode,
the comparison is always between two runs on one machine. The figures of a MuJoCo run
(``quick@mujoco``, ``full@mujoco``) are kept under a fingerprint that also holds MuJoCo's
version; the PyBullet fingerprint is what it always was, so older records stay valid.

A record can also be kept for a *kind* of machine — the CPU model, cores, architecture,
Python and the engines' versions, not the host name (:func:`kind`) — so that CI, which
runs on fresh hosts of one kind, judges speed too: ``assets/bench_speed_record.json``
ships with the package and is written by ``doppelx bench --record-speed --record-kind``
on a quiet machine of CI's kind. A run uses this machine's own record if it has one, else
(the full profile only) the shipped record of its kind (:func:`compare`'s ``fallback``), else shows speed as
information. The noise of a ratio measured so (same-run ratios to the reference, fastest
of repeats) was −4.9 … +2.6 % between unchanged runs, one under load (issue 34); the full
profile allows 20 % (``Profile.speed_tolerance``), and a 0.73× slowdown fails.

The record is written atomically (:mod:`rules.common.atomic`): a full disk or a size limit leaves
the old record whole. :func:`load` checks it value by value; a damaged record
(:class:`DamagedRecord`) names the file and what is wrong, and ``doppelx bench
--record-speed`` replaces it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
from pathlib import Path

from doppelx.bench.baseline import engine_of
from doppelx.bench.metrics import INFO, Metric, Row, judge
from rules.common.errors import SpecError

FORMAT = "doppelx-bench-speed/1"
#: How a damaged record is recovered, said in its error.
RECOVER = "delete it, or run `doppelx bench --record-speed` to write a new one"


class DamagedRecord(SpecError):
    """The file is a speed record of this program, but damaged (cut short, or a value of the
    wrong kind): ``doppelx bench --record-speed`` may replace it. Any other file given as
    the record raises a plain :class:`SpecError` and is never replaced."""


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


def _version(package: str) -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def machine(engine: str = "pybullet") -> dict:
    """What identifies this machine and its software for speed: host, CPU, cores, Python,
    PyBullet, and the engine's version when it is not PyBullet (``mujoco``)."""
    info = {
        "host": platform.node(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "arch": platform.machine(),
        "python": platform.python_version(),
        "pybullet": _version("pybullet"),
    }
    if engine != "pybullet":
        info[engine] = _version(engine)
    return info


def kind(engine: str = "pybullet") -> dict:
    """What identifies this *kind* of machine: :func:`machine` without the host name."""
    info = machine(engine)
    del info["host"]
    return info


def kind_fingerprint(engine: str = "pybullet") -> str:
    """A short hash of :func:`kind` (16 hex digits)."""
    return fingerprint(kind(engine))


def shipped_path() -> Path:
    """The shipped record of CI's kind of machine."""
    from rules.common.assets import asset_path

    return asset_path("bench_speed_record.json")


def fingerprint(info: dict | None = None, engine: str = "pybullet") -> str:
    """A short hash of :func:`machine` (16 hex digits)."""
    text = json.dumps(info or machine(engine), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def empty() -> dict:
    """A record without any figures."""
    return {"format": FORMAT, "machines": {}}


def load(path: str | Path) -> dict:
    """The record file as a dict (an empty one if it does not exist), checked value by value.

    Raises:
        DamagedRecord: the file is this program's speed record (it names the format, is
            empty, or lies at :func:`default_path`) but cannot be read as one.
        SpecError: the file cannot be read, or is some other file.
    """
    from rules.common.assets import parse_json

    path = Path(path)
    if not path.exists():
        return empty()
    raw = _read_bytes(path)
    ours = not raw.strip() or FORMAT.encode() in raw or _is_default(path)

    def bad(where: str, problem: str) -> SpecError:
        problem = problem if len(problem) <= 160 else problem[:150] + "…"  # the advice must fit
        if ours:
            return DamagedRecord(str(path), where, f"{problem}: a damaged speed record ({RECOVER})")
        return SpecError(
            str(path),
            where,
            f"{problem}: not a {FORMAT!r} speed record (give --speed-record a file of its own)",
        )

    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise bad(f"byte {exc.start}", "not UTF-8 text") from None
    if not text.strip():
        raise bad("", "an empty file")
    try:
        data = parse_json(text, str(path))
    except SpecError as exc:
        raise bad(exc.element, exc.problem) from None
    problem = _data_problem(data)
    if problem is not None:
        raise bad(*problem)
    return data


def _data_problem(data) -> tuple[str, str] | None:
    """``(where, problem)`` of the first wrong value of a parsed record, else ``None``."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "format", f"expected {FORMAT!r}"
    machines = data.get("machines")
    if not isinstance(machines, dict):
        return "machines", f"expected an object of machines, got {_shown(machines)}"
    for key, entry in machines.items():
        problem = _entry_problem(f"machines.{key}", entry)
        if problem is not None:
            return problem
    return None


def _read_bytes(path: Path) -> bytes:
    """The file's bytes; a folder, an oversized or unreadable file is a :class:`SpecError`."""
    from rules.common.assets import MAX_FILE_BYTES

    if path.is_dir():
        raise SpecError(str(path), "", "is a folder, not a speed record file")
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise SpecError(str(path), "", f"more than {MAX_FILE_BYTES} bytes; not a speed record")
        return path.read_bytes()
    except OSError as exc:
        raise SpecError(str(path), "", f"cannot read the speed record ({exc.strerror or exc})") from None


def _entry_problem(where: str, entry) -> tuple[str, str] | None:
    """``(where, problem)`` of the first wrong value of one machine's entry, else ``None``."""
    if not isinstance(entry, dict):
        return where, f"expected an object (machine, profiles), got {_shown(entry)}"
    if not isinstance(entry.get("machine", {}), dict):
        return f"{where}.machine", f"expected an object, got {_shown(entry['machine'])}"
    profiles = entry.get("profiles")
    if not isinstance(profiles, dict):
        return f"{where}.profiles", f"expected an object of profiles, got {_shown(profiles)}"
    for name, values in profiles.items():
        if not isinstance(values, dict):
            return f"{where}.profiles.{name}", f"expected an object of speed figures, got {_shown(values)}"
        for metric, value in values.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                return f"{where}.profiles.{name}.{metric}", f"expected a number, got {_shown(value)}"
    return None


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + "…"


def _is_default(path: Path) -> bool:
    try:
        return path.resolve() == default_path().resolve()
    except OSError:
        return False


def section(data: dict, profile: str, key: str | None = None) -> dict | None:
    """The recorded speed metrics of this machine (or ``key``) and ``profile``, if any."""
    entry = data.get("machines", {}).get(key or fingerprint(engine=engine_of(profile)), {})
    values = entry.get("profiles", {}).get(profile)
    return values if isinstance(values, dict) else None


def compare(
    metrics: list[Metric], data: dict, profile: str, fallback: dict | None = None, load: float = 0.0
) -> list[Row]:
    """Speed metrics judged against this machine's record in ``data``, else against the record
    of this kind of machine in ``fallback`` (the shipped one); all ``info`` without either, or
    when other jobs' ``load`` (:func:`others_load`) makes the machine :func:`busy`."""
    values = judged_against(data, profile, fallback)[0]
    if values is None or busy(load):
        return [Row(m, None, None, "info") for m in metrics]
    rows = []
    for m in metrics:
        base = values.get(m.key)
        if m.check.info or base is None:
            rows.append(judge(Metric(m.scene, m.name, m.value, m.unit, m.expected, INFO, m.note), base))
        else:
            rows.append(judge(m, base))
    return [r if r.verdict != "new" else Row(r.metric, None, None, "info") for r in rows]


#: Other jobs' load, in cores per core, above which speed is not judged (:func:`busy`).
BUSY_LIMIT = 0.5


def others_load() -> float:
    """What other jobs load this machine with now, per core: the 1-minute load average less
    this run's own core, over the cores (0 where the platform has no load average)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0
    return max(0.0, load - 1.0) / (os.cpu_count() or 1)


def busy(load: float) -> bool:
    """Other jobs load the machine too much for speed to be judged. Under load the project's
    physics and the frozen reference slow by different factors: an unchanged tree read −14.8 %
    at a load average of 11–13 and −21.9 % beside two busy loops on 2 cores (28 Nov 2026),
    as much as a real regression costs; its deterministic cost rows judge it instead."""
    return load > BUSY_LIMIT


def judged_against(data: dict, profile: str, fallback: dict | None = None) -> tuple[dict | None, str]:
    """The speed figures a run is judged against and whose they are: ``(this machine's,
    "machine")``, else ``(this kind of machine's in fallback, "kind")``, else ``(None, "")``."""
    own = section(data, profile)
    if own is not None:
        return own, "machine"
    if fallback is not None:
        shipped = section(fallback, profile, kind_fingerprint(engine_of(profile)))
        if shipped is not None:
            return shipped, "kind"
    return None, ""


def recorded(data: dict, metrics: list[Metric], profile: str, by_kind: bool = False) -> dict:
    """``data`` with this machine's (``by_kind``: this kind of machine's) ``profile`` speed
    figures replaced by ``metrics``."""
    info = kind(engine_of(profile)) if by_kind else machine(engine_of(profile))
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
    """Write the record atomically (:func:`rules.common.atomic.write_text`): the old record stays
    whole if the write fails. Its folder must exist (``doppelx bench`` creates the default
    one before the run); an unwritable location raises :class:`rules.common.atomic.OutputError`."""
    from rules.common.atomic import write_text

    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", what="speed record")
