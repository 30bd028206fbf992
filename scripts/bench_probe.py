"""Benchmark of one probe in a warm process, of a full table and of the folded table of the same board.

A process opens both tables, probes ``--probes`` random positions of each once (their chunks then
cached), then ``--rounds`` times over, the two tables taking turns position by position; each line
gives the median time of a probe of each and their ratio (folded / full). With ``--baseline DIR`` (a
checkout of another version) the same measurement runs in a process of that version too, the two
versions taking turns ``--processes`` times, and the lines give both.

Usage: ``python scripts/bench_probe.py [--board 5x5] [--probes 300] [--rounds 10] [--processes 3]
[--baseline DIR] [--json FILE]``. The full table is read from the tables directory (built first if
missing); the folded one is solved into a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchjson

SCRIPT = Path(__file__).resolve()


def measure(board: str, full: Path, folded: Path, probes: int, rounds: int) -> dict[str, list[float]]:
    """Probe times in seconds, by table kind, measured in this process (see the module docstring)."""
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.model.position import random_positions
    from solver.neutreeko.querying.probe import Tablebase
    from solver.neutreeko.tables.table import open_table

    game = Game.of(board)
    tablebases = {kind: Tablebase(opener=lambda _, table=open_table(game, path): table)
                  for kind, path in (("full", full), ("folded", folded))}
    positions = random_positions(game, probes, 0)
    times: dict[str, list[float]] = {kind: [] for kind in tablebases}
    for round_number in range(rounds + 1):
        for position in positions:
            for kind, tablebase in tablebases.items():
                started = time.perf_counter()
                tablebase.probe(position)
                if round_number:  # the first round fills the cache
                    times[kind].append(time.perf_counter() - started)
    return times


def in_process_of(checkout: Path | None, options: argparse.Namespace, full: Path, folded: Path) -> dict[str, float]:
    """The medians of :func:`measure` in a new process of the version in ``checkout`` (this one if None)."""
    environment = {**os.environ, **({"PYTHONPATH": str(checkout)} if checkout else {})}
    done = subprocess.run([sys.executable, str(SCRIPT), "--measure", str(full), str(folded), "--board", options.board,
                           "--probes", str(options.probes), "--rounds", str(options.rounds)],
                          env=environment, cwd=checkout, capture_output=True, text=True, check=True, timeout=3600)
    return {kind: float(value) for kind, value in json.loads(done.stdout).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="5x5")
    parser.add_argument("--probes", type=int, default=300, help="positions probed (default 300: their chunks fit the cache)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds over them (default 10)")
    parser.add_argument("--processes", type=int, default=3, help="processes of each version (default 3)")
    parser.add_argument("--baseline", type=Path, help="a checkout of another version to compare with")
    parser.add_argument("--measure", nargs=2, type=Path, metavar=("FULL", "FOLDED"), help=argparse.SUPPRESS)
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.measure:
        times = measure(options.board, *options.measure, options.probes, options.rounds)
        print(json.dumps({kind: statistics.median(values) for kind, values in times.items()}))
        return

    from solver.neutreeko.model.game import Game
    from solver.neutreeko.tables.build import build_table, ensure_table

    game = Game.of(options.board)
    full = ensure_table(game, build_large=True).path
    with tempfile.TemporaryDirectory() as directory:
        folded = Path(directory) / full.name
        build_table(game, folded, fold=True)
        versions = {"this": None, **({"baseline": options.baseline} if options.baseline else {})}
        medians: dict[str, list[dict[str, float]]] = {name: [] for name in versions}
        for _ in range(options.processes):
            for name, checkout in versions.items():
                medians[name].append(in_process_of(checkout, options, full, folded))
    compared = "alternating with the baseline" if options.baseline else None
    for name, measured in medians.items():
        full_us = [m["full"] * 1e6 for m in measured]
        folded_us = [m["folded"] * 1e6 for m in measured]
        ratios = [f / g for f, g in zip(folded_us, full_us)]
        benchjson.record(f"warm probe {options.board}, full table ({name})", full_us, "us", compared)
        benchjson.record(f"warm probe {options.board}, folded table ({name})", folded_us, "us", compared)
        benchjson.record(f"warm probe {options.board}, folded / full ({name})", ratios, "x", compared)
        print(f"{name}: warm probe of {options.board}: full {statistics.median(full_us):.1f} us, folded "
              f"{statistics.median(folded_us):.1f} us, folded / full {statistics.median(ratios):.2f} "
              f"(medians of {len(measured)} processes, {options.probes} positions x {options.rounds} rounds each)")
    benchjson.write("bench_probe", options)


if __name__ == "__main__":
    main()
