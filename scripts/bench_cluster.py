"""Benchmark the class solve on a Dask cluster against the plain one: ``neutreeko solve --fold`` and
``neutreeko solve --fold --cluster local:N`` on the same board, one after the other, each as a user runs
it (a fresh process, the table written).

    python scripts/bench_cluster.py --board 8x8 --json docs/benchmarks/cluster-8x8.json
    python scripts/bench_cluster.py --board 6x6 --workers 2 --partitions 8

For each: the solve's own time (the analysis, as the command reports it), the whole command's, the peak
resident memory of the command (the client) and of each worker process (the high-water mark of every
process below the command, read from ``/proc`` once a second), and, on the cluster, the bytes passed
between workers level by level (the command's progress). Both tables must hold the same bytes (the
digests of their data): the script says so, or fails.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import benchjson

from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.table import open_table

_LEVEL = re.compile(r"ply\s+(\d+):\s+([\d,]+) new .*?([\d,.]+) MB exchanged")
_SOLVED = re.compile(r" in ([\d.]+) s -> ")


def _children(pid: int) -> list[int]:
    """Every process below ``pid``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(parent, []).append(int(entry.name))
    found, queue = [], [pid]
    while queue:
        for child in parents.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def _high_water(pid: int) -> tuple[int, str]:
    """(peak resident kB, command line) of ``pid``, or (0, "") once it has gone."""
    try:
        status = (Path("/proc") / str(pid) / "status").read_text()
        command = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return 0, ""
    peak = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
    return peak, command


def _run(command: list[str]) -> tuple[float, str, int, list[tuple[int, str]]]:
    """Run ``command``: its wall time, its output (standard error, then standard output), its peak
    memory (kB) and that of each process below it (kB and command line)."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peaks: dict[int, tuple[int, str]] = {}
    lines: list[str] = []
    assert process.stderr is not None
    reader = threading.Thread(target=lambda: lines.extend(process.stderr or []), daemon=True)
    reader.start()
    while process.poll() is None:
        for pid in [process.pid, *_children(process.pid)]:
            peak, line = _high_water(pid)
            if peak:
                peaks[pid] = (max(peak, peaks.get(pid, (0, ""))[0]), line)
        time.sleep(1)
    reader.join(timeout=60)
    seconds = time.perf_counter() - began
    errors = "".join(lines) + (process.stdout.read() if process.stdout else "")
    if process.returncode:
        sys.exit(f"{' '.join(command)} failed ({process.returncode}):\n{errors[-2000:]}")
    client = peaks.pop(process.pid, (0, ""))[0]
    return seconds, errors, client, list(peaks.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="6x6", help="board (default 6x6)")
    parser.add_argument("--rule", default="connected", help="rule (default connected)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of local:N (default 2)")
    parser.add_argument("--partitions", type=int, help="partitions of the state (default: one per worker)")
    benchjson.add_option(parser)
    args = parser.parse_args()
    game = Game.of(args.board, args.rule)
    print(f"{game}: plain --fold, then --cluster local:{args.workers}; {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as scratch:
        base = [sys.executable, "-m", "solver", "solve", "--board", args.board, "--rule", args.rule, "--fold",
                "--progress"]
        tables = {}
        for name, extra in (("plain", []), ("cluster", ["--cluster", f"local:{args.workers}",
                                                        *(["--partitions", str(args.partitions)] if args.partitions
                                                          else [])])):
            tables[name] = Path(scratch) / f"{name}.h5"
            seconds, errors, client, below = _run([*base, *extra, "--out", str(tables[name])])
            solve = float(_SOLVED.findall(errors)[-1]) if _SOLVED.search(errors) else float("nan")
            workers = [peak for peak, line in below if "spawn_main" in line]
            print(f"{name}: solve {solve:.1f} s, command {seconds:.1f} s, peak RSS of the command {client / 1024:,.0f} MB"
                  + (f", of each worker {', '.join(f'{peak / 1024:,.0f}' for peak in workers)} MB" if workers else ""),
                  flush=True)
            benchjson.record(f"{name}: the solve's analysis", solve, "s")
            benchjson.record(f"{name}: the whole command", seconds, "s")
            benchjson.record(f"{name}: peak RSS of the command", client / 1024, "MB")
            for number, peak in enumerate(workers):
                benchjson.record(f"{name}: peak RSS of worker {number + 1}", peak / 1024, "MB")
            if name == "cluster":
                levels = [(int(ply), int(count.replace(",", "")), float(mb.replace(",", "")))
                          for ply, count, mb in _LEVEL.findall(errors)]
                print("ply  classes decided  MB exchanged to decide them")
                for ply, count, mb in levels:
                    print(f"{ply:3d} {count:16,} {mb:12,.1f}")
                total = sum(mb for _, _, mb in levels)
                print(f"all  {sum(count for _, count, _ in levels):15,} {total:12,.1f}")
                benchjson.record("cluster: bytes exchanged, all levels", total, "MB")
                for ply, _, mb in sorted(levels, key=lambda level: -level[2])[:3]:
                    benchjson.record(f"cluster: bytes exchanged to decide ply {ply}", mb, "MB")
        digests = {name: open_table(game, path).attributes["digest"] for name, path in tables.items()}
        if digests["plain"] != digests["cluster"]:
            sys.exit(f"the tables differ: {digests}")
        print(f"the same folded bytes: {digests['plain']}")
    benchjson.write("bench_cluster", args)


if __name__ == "__main__":
    main()
