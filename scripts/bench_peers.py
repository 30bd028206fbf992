"""Benchmark of the 5 x 5 solve against its peers, side by side in one run: ``neutreeko solve --force``
(5 x 5, into a temporary tables directory), perovskite514/neotreeko's retrograde solver
(``retrograde.analysis.c``, built with ``gcc -O2``, writing its ``data.txt`` into a temporary directory)
and hlaspoor/Neutreeko's engine (``js/engine.js``, ``new Engine().init()`` in node). Whole processes,
taking turns, ``--runs`` each (after one untimed run each); medians of wall and CPU time, peak memory,
and each peer's median over ours (wall and CPU).

Then where our time goes, medians of ``--runs`` runs: ``neutreeko --version`` (the interpreter and the
command line), and in a process of its own the imports of the solve (numba's included) and the table
writer, the first solve (the cached kernels loaded, then the solve), a second solve (the solve alone)
and the writing of the table (its counts, compression and digest).

The peers' sources stay outside this repository: ``--peers DIR`` (default ``/work/peers``) holds
``DIR/neotreeko`` (https://github.com/perovskite514/neotreeko) and ``DIR/Neutreeko``
(https://github.com/hlaspoor/Neutreeko), e.g. ``git clone URL DIR/NAME``; a peer missing there (or
its compiler, or node) is skipped with a line saying so.

Usage: ``python scripts/bench_peers.py [--peers DIR] [--runs 5] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import benchjson
from benchprocess import Run, Version, medians, this_version, timed

#: Run by node: engine.js defines ``Engine`` at its top level (a script for a page, not a module).
_NODE = ("const fs = require('fs'), vm = require('vm');"
         "vm.runInThisContext(fs.readFileSync(process.argv[1], 'utf8').replace(/^\\uFEFF/, ''));"
         "new Engine().init();")
#: Our solve's stages, timed in one process; prints one JSON object of seconds.
_STAGES = """
import json, sys, time
from pathlib import Path
began = time.perf_counter()
import numba  # imported by the first solve: counted with the imports here
from solver.neutreeko.model.game import Game
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.table import write_table
imported = time.perf_counter()
game = Game.of("5x5")
solve(game)
first = time.perf_counter()
solution = solve(game)
second = time.perf_counter()
write_table(game, solution.result, Path(sys.argv[1]), solution.seconds)
written = time.perf_counter()
print(json.dumps({"imports": imported - began, "first solve (kernels loaded, then the solve)": first - imported,
                  "second solve (the solve alone)": second - first, "writing the table": written - second}))
"""


def peers(directory: Path, build: Path) -> list[tuple[Version, list[str]]]:
    """The peers found under ``directory``, each with its arguments, built into ``build``; a line for
    each one missing."""
    found: list[tuple[Version, list[str]]] = []
    source = directory / "neotreeko" / "retrograde.analysis.c"
    if not source.is_file():
        print(f"skipped neotreeko: no {source} (git clone https://github.com/perovskite514/neotreeko "
              f"{directory / 'neotreeko'})")
    elif shutil.which("gcc") is None:
        print("skipped neotreeko: no gcc")
    else:
        binary = build / "retrograde"
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)], check=True, timeout=300,
                       capture_output=True)
        work = build / "neotreeko-work"  # it writes data.txt where it runs
        work.mkdir()
        found.append((Version("neotreeko (C, gcc -O2)", [str(binary)], dict(os.environ), str(work)), []))
    engine = directory / "Neutreeko" / "js" / "engine.js"
    if not engine.is_file():
        print(f"skipped Neutreeko: no {engine} (git clone https://github.com/hlaspoor/Neutreeko "
              f"{directory / 'Neutreeko'})")
    elif (node := shutil.which("node")) is None:
        print("skipped Neutreeko: no node")
    else:
        found.append((Version("Neutreeko (JavaScript, node)", [node, "-e", _NODE, str(engine)], dict(os.environ), None),
                      []))
    return found


def stages(runs: int, tables: Path) -> dict[str, list[float]]:
    """Where our solve's time goes: seconds of each stage, ``runs`` runs."""
    measured: dict[str, list[float]] = {}
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _STAGES, str(tables / "stages.h5")], capture_output=True,
                              text=True, check=True, timeout=300)
        for name, seconds in json.loads(done.stdout).items():
            measured.setdefault(name, []).append(seconds)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", type=Path, default=Path("/work/peers"), help="where the peers' sources are")
    parser.add_argument("--runs", type=int, default=5, help="runs of each solver (default 5)")
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    with tempfile.TemporaryDirectory() as build, tempfile.TemporaryDirectory() as tables:
        ours = this_version("neutreeko")
        ours = ours._replace(name="neutreeko-solver", environment={**ours.environment, "NEUTREEKO_TABLES": tables})
        solvers = [(ours, ["solve", "--force"]), *peers(options.peers, Path(build))]
        measured: dict[str, list[Run]] = {version.name: [] for version, _ in solvers}
        for version, arguments in solvers:
            timed(version, arguments)
        for _ in range(options.runs):
            for version, arguments in solvers:
                measured[version.name].append(timed(version, arguments))
        report(measured, ours.name)
        startup = [timed(ours, ["--version"]).wall for _ in range(options.runs)]
        print(f"  neutreeko --version: median {statistics.median(startup):.3f} s")
        benchjson.record("our solve's stages: neutreeko --version", startup, "s")
        for name, seconds in stages(options.runs, Path(tables)).items():
            print(f"  {name}: median {statistics.median(seconds):.3f} s")
            benchjson.record(f"our solve's stages: {name}", seconds, "s")
    benchjson.write("bench_peers", options)


def report(measured: dict[str, list[Run]], ours: str) -> None:
    """Each solver's medians and peak memory, and each peer's over ours, printed and recorded."""
    compared = "alternating with " + ", ".join(measured)
    for name, runs in measured.items():
        wall, cpu, peak = medians(runs)
        benchjson.record(f"5x5 solve, {name}, wall", [run.wall for run in runs], "s", compared)
        benchjson.record(f"5x5 solve, {name}, CPU", [run.cpu for run in runs], "s", compared)
        benchjson.record(f"5x5 solve, {name}, peak resident memory", peak / 2**20, "MB")
        line = f"{name}: median {wall:.3f} s wall, {cpu:.3f} s CPU ({len(runs)} runs), peak {peak / 2**20:.0f} MB"
        if name != ours:
            ours_wall, ours_cpu, _ = medians(measured[ours])
            benchjson.record(f"5x5 solve, {name} / ours, wall", wall / ours_wall, "x")
            benchjson.record(f"5x5 solve, {name} / ours, CPU", cpu / ours_cpu, "x")
            line += f"; {wall / ours_wall:.2f} x ours wall, {cpu / ours_cpu:.2f} x ours CPU"
        print(line, flush=True)


if __name__ == "__main__":
    main()
