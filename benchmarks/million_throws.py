"""A stretch of ``doppelx simulate throws --throws 1000000 --workers 2``: rate, memory, resume.

    python benchmarks/million_throws.py [--seconds 180] [--resume-seconds 30] [--lying K]
                                        [--workers 2] [--throws 1000000] [--json]

Runs the real command (a fresh process, its progress bar on stderr) for ``--seconds``,
sampling every second the resident memory (VmRSS) of each pool worker and of the main
process and the chunk files written. Then it kills the whole run (SIGKILL to the process
group it started, as a crash would), starts the same command again for
``--resume-seconds`` and checks that it resumes: the chunks written before are untouched
and new ones follow. Reported:

* ``throws_per_s`` — steady rate: rows of the chunks finished after the first one, over
  the time between the first and the last chunk (start-up excluded), and
  ``throws_per_s_incl_start`` from the command's start;
* ``hours_for_a_million`` at the steady rate (the goal: ≤ 1 h, i.e. ≥ 278 throws/s);
* ``throws_per_worker_cpu_s`` — throws per CPU second the workers used, and what the
  workers would do if each had a core to itself (on a busy shared machine the wall-clock
  rate says more about the other users than about the program);
* per worker: RSS at its first sample (still importing), after a quarter of the stretch,
  at its last and its largest (MiB) — flat memory means last ≈ a quarter in, and every
  worker under 1 GiB;
* the last progress line the command printed (rate and ETA), the load average.

``--lying 0`` is the command as the issue writes it (the active player's two dice alone);
``--lying 6`` the standard turn of ``benchmarks/throughput.py``. Figures are printed, never
asserted; one not measured (too few chunks in the stretch) is null in ``--json``.
Every argument is checked with the bounds of ``doppelx simulate throws`` before anything
runs (one line, exit 2); if the command itself fails, its error line is shown (exit 2).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from doppelx import argtypes  # noqa: E402
from doppelx.cli import OneLineParser  # noqa: E402
from doppelx.commands.simulate import MAX_THROWS, MAX_WORKERS, lying_count  # noqa: E402

#: Longest stretch (either one): a day.
MAX_SECONDS = 86_400.0


def children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (by /proc's parent links)."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c, pp in parent.items():
            if pp == p:
                out.append(c)
                todo.append(c)
    return out


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def is_worker(pid: int) -> bool:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False
    return "spawn_main" in cmd


def run_for(cmd: list[str], seconds: float, out: Path, log: Path) -> dict:
    """Run ``cmd`` for ``seconds``, sampling memory and chunks; then kill its process group."""
    chunk_dir = out / "chunks"
    t0 = time.perf_counter()
    with open(log, "w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True, cwd=ROOT)
    workers: dict[int, list[float]] = {}
    cpu: dict[int, float] = {}
    main_rss: list[float] = []
    seen: dict[str, float] = {}
    ended = None  # the command's exit code if it ended on its own (finished, or failed)
    try:
        while time.perf_counter() - t0 < seconds and proc.poll() is None:
            time.sleep(1.0)
            now = time.perf_counter() - t0
            r = rss_mib(proc.pid)
            if r is not None:
                main_rss.append(r)
            for c in children(proc.pid):
                if is_worker(c):
                    r = rss_mib(c)
                    if r is not None:
                        workers.setdefault(c, []).append(r)
                    t = cpu_seconds(c)
                    if t is not None:
                        cpu[c] = t
            if chunk_dir.exists():
                for f in chunk_dir.glob("*.parquet"):
                    seen.setdefault(f.name, now)
        ended = proc.poll()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the run's own session: the command and its workers
        except ProcessLookupError:
            pass
        proc.wait()
    return {
        "workers": workers,
        "cpu": cpu,
        "main_rss": main_rss,
        "chunks": seen,
        "elapsed": time.perf_counter() - t0,
        "returncode": ended,
    }


def failed(log: Path, code: int, which: str = "") -> int:
    """Say why the command failed (its own error line) and return exit code 2."""
    print(f"million_throws.py: error: the {which}command failed: {child_error(log, code)}", file=sys.stderr)
    return 2


def last_progress(log: Path) -> str:
    text = log.read_text(errors="replace").replace("\r", "\n")
    lines = [s.strip() for s in text.splitlines() if "it/s" in s or "throws/s" in s or "/s]" in s]
    return lines[-1] if lines else ""


def command(args: argparse.Namespace, out: Path) -> list[str]:
    """The ``doppelx simulate throws`` command line the benchmark runs (and kills, and resumes)."""
    return [
        sys.executable, "-m", "doppelx", "simulate", "throws", "--throws", str(args.throws),
        "--workers", str(args.workers), "--lying", str(args.lying), "--seed", str(args.seed),
        "--out", str(out),
    ]  # fmt: skip


def child_error(log: Path, code: int) -> str:
    """The line in which the command said why it failed (its last line naming an error)."""
    try:
        text = log.read_text(errors="replace").replace("\r", "\n")
    except OSError:
        text = ""
    lines = [s.strip() for s in text.splitlines() if s.strip()]
    said = [s for s in lines if "error" in s.lower()] or lines
    return said[-1] if said else f"it ended with exit code {code} and printed nothing"


def finite(x: float, digits: int) -> float | None:
    """``x`` rounded, or None for a figure not measured (NaN is not JSON)."""
    return round(x, digits) if math.isfinite(x) else None


def parser() -> argparse.ArgumentParser:
    """The arguments, each checked as ``doppelx simulate throws`` checks it (one line, exit 2)."""
    seconds = argtypes.number(1.0, MAX_SECONDS, "a number of seconds")
    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--seconds", type=seconds, default=180.0, help="length of the measured stretch (s, at least 1)"
    )
    ap.add_argument(
        "--resume-seconds", type=seconds, default=30.0, help="length of the resumed stretch (s, at least 1)"
    )
    ap.add_argument(
        "--throws",
        type=argtypes.whole(1, MAX_THROWS, "a number of throws"),
        default=1_000_000,
        help=f"the command's --throws, 1–{MAX_THROWS:,} (default 1000000)",
    )
    ap.add_argument(
        "--workers",
        type=argtypes.whole(1, MAX_WORKERS, "a number of workers"),
        default=2,
        help="the command's --workers (default 2; it uses at most one per core)",
    )
    ap.add_argument(
        "--lying",
        type=lying_count,
        default=0,
        help="dice lying on the board, 0–7 (0: as the command; 6: a standard turn)",
    )
    ap.add_argument("--seed", type=argtypes.seed, default=1, help="the command's --seed (default 1)")
    ap.add_argument("--json", action="store_true")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="doppelx-million-") as tmp:
        out = Path(tmp) / "run"
        cmd = command(args, out)
        first = run_for(cmd, args.seconds, out, Path(tmp) / "first.log")
        if first["returncode"]:
            return failed(Path(tmp) / "first.log", first["returncode"])
        progress = last_progress(Path(tmp) / "first.log")
        if not (out / "run.json").exists():
            print(
                f"million_throws.py: error: --seconds {args.seconds:g}: the command had not started its run "
                "by the end of the stretch; give a longer one",
                file=sys.stderr,
            )
            return 2
        chunk_size = json.loads((out / "run.json").read_text())["chunk_size"]
        before = {f.name: f.stat().st_mtime_ns for f in (out / "chunks").glob("*.parquet")}
        second = run_for(cmd, args.resume_seconds, out, Path(tmp) / "second.log")
        if second["returncode"]:
            return failed(Path(tmp) / "second.log", second["returncode"], "resumed ")
        after = {f.name: f.stat().st_mtime_ns for f in (out / "chunks").glob("*.parquet")}
        resumed_progress = last_progress(Path(tmp) / "second.log")
    times = sorted(first["chunks"].values())
    span = times[-1] - times[0] if times else 0.0  # chunks are seen once a second: all in one sample → 0
    steady = (len(times) - 1) * chunk_size / span if span > 0 else float("nan")
    workers = [
        {
            "first_mib": round(v[0], 1),
            "after_a_quarter_mib": round(v[len(v) // 4], 1),
            "last_mib": round(v[-1], 1),
            "max_mib": round(max(v), 1),
            "samples": len(v),
        }
        for v in first["workers"].values()
    ]
    worker_cpu = sum(first["cpu"].values())
    per_cpu_s = len(times) * chunk_size / worker_cpu if worker_cpu and times else float("nan")
    used = min(args.workers, os.cpu_count() or 1)  # the command runs at most one worker per core
    result = {
        "command": " ".join(cmd[2:]).replace(str(out), "OUT"),
        "seconds": round(first["elapsed"], 1),
        "chunk_size": chunk_size,
        "chunks_done": len(times),
        "throws_done": len(times) * chunk_size,
        "throws_per_s": finite(steady, 1),
        "throws_per_s_incl_start": round(len(times) * chunk_size / first["elapsed"], 1),
        "hours_for_a_million": finite(1e6 / steady / 3600, 2),
        "throws_per_worker_cpu_s": finite(per_cpu_s, 1),
        "throws_per_s_if_each_worker_had_a_core": finite(used * per_cpu_s, 1),
        "workers": workers,
        "main_max_mib": round(max(first["main_rss"]), 1) if first["main_rss"] else None,
        "progress_line": progress,
        "resume": {
            "chunks_before": len(before),
            "chunks_after": len(after),
            "earlier_chunks_untouched": all(after.get(k) == v for k, v in before.items()),
            "workers_max_mib": [round(max(v), 1) for v in second["workers"].values()],
            "progress_line": resumed_progress,
        },
        "machine": {
            "cores": os.cpu_count(),
            "load_avg_before": [round(x, 2) for x in load_before],
            "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['command']}  ({result['seconds']} s stretch, chunks of {chunk_size})")
    if result["throws_per_s"] is None:
        print(
            f"  steady rate not measured ({len(times)} chunk(s) seen in the stretch, none a sampling second "
            f"after the first; {result['throws_per_s_incl_start']} throws/s from the start)"
        )
    else:
        print(
            f"  steady rate {result['throws_per_s']} throws/s ({result['throws_per_s_incl_start']} from the start) "
            f"→ a million in {result['hours_for_a_million']} h (goal ≤ 1 h: ≥ 278 throws/s)"
        )
    if result["throws_per_worker_cpu_s"] is None:
        print("  throws per worker CPU second not measured (no chunk finished, or no worker seen)")
    else:
        print(
            f"  {result['throws_per_worker_cpu_s']} throws per worker CPU second → "
            f"{result['throws_per_s_if_each_worker_had_a_core']} throws/s if each of the {used} workers had a core"
        )
    # flat memory: the end ≈ a quarter in (the first sample is taken while the worker still imports)
    for k, w in enumerate(workers):
        print(
            f"  worker {k}: RSS after a quarter of the run {w['after_a_quarter_mib']} MiB → at the end "
            f"{w['last_mib']} MiB, largest {w['max_mib']} ({w['samples']} samples; the first, "
            f"{w['first_mib']} MiB, while still importing)"
        )
    print(f"  main process: max RSS {result['main_max_mib']} MiB")
    print(f"  progress: {progress}")
    r = result["resume"]
    print(
        f"  resumed: {r['chunks_before']} → {r['chunks_after']} chunks, earlier ones untouched: "
        f"{r['earlier_chunks_untouched']}  ({r['progress_line']})"
    )
    m = result["machine"]
    print(
        f"  load average {m['load_avg_before'][0]} before, {m['load_avg_after'][0]} after ({m['cores']} cores)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
