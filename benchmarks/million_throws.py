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
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
    }


def last_progress(log: Path) -> str:
    text = log.read_text(errors="replace").replace("\r", "\n")
    lines = [s.strip() for s in text.splitlines() if "it/s" in s or "throws/s" in s or "/s]" in s]
    return lines[-1] if lines else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=180.0, help="length of the measured stretch (s)")
    ap.add_argument("--resume-seconds", type=float, default=30.0, help="length of the resumed stretch (s)")
    ap.add_argument("--throws", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--lying", type=int, default=0, help="dice lying on the board (0: as the command; 6: a standard turn)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="doppelx-million-") as tmp:
        out = Path(tmp) / "run"
        cmd = [
            sys.executable,
            "-m",
            "doppelx",
            "simulate",
            "throws",
            "--throws",
            str(args.throws),
            "--workers",
            str(args.workers),
            "--lying",
            str(args.lying),
            "--seed",
            str(args.seed),
            "--out",
            str(out),
        ]
        first = run_for(cmd, args.seconds, out, Path(tmp) / "first.log")
        progress = last_progress(Path(tmp) / "first.log")
        chunk_size = json.loads((out / "run.json").read_text())["chunk_size"]
        before = {f.name: f.stat().st_mtime_ns for f in (out / "chunks").glob("*.parquet")}
        second = run_for(cmd, args.resume_seconds, out, Path(tmp) / "second.log")
        after = {f.name: f.stat().st_mtime_ns for f in (out / "chunks").glob("*.parquet")}
        resumed_progress = last_progress(Path(tmp) / "second.log")
    times = sorted(first["chunks"].values())
    steady = (len(times) - 1) * chunk_size / (times[-1] - times[0]) if len(times) > 1 else float("nan")
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
    per_cpu_s = len(times) * chunk_size / worker_cpu if worker_cpu else float("nan")
    result = {
        "command": " ".join(cmd[2:]).replace(str(out), "OUT"),
        "seconds": round(first["elapsed"], 1),
        "chunk_size": chunk_size,
        "chunks_done": len(times),
        "throws_done": len(times) * chunk_size,
        "throws_per_s": round(steady, 1),
        "throws_per_s_incl_start": round(len(times) * chunk_size / first["elapsed"], 1),
        "hours_for_a_million": round(1e6 / steady / 3600, 2) if steady == steady else None,
        "throws_per_worker_cpu_s": round(per_cpu_s, 1),
        "throws_per_s_if_each_worker_had_a_core": round(args.workers * per_cpu_s, 1),
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
    print(
        f"  steady rate {result['throws_per_s']} throws/s ({result['throws_per_s_incl_start']} from the start) "
        f"→ a million in {result['hours_for_a_million']} h (goal ≤ 1 h: ≥ 278 throws/s)"
    )
    for k, w in enumerate(workers):
        print(
            f"  worker {k}: RSS {w['first_mib']} → {w['last_mib']} MiB (max {w['max_mib']}, {w['samples']} samples)"
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
