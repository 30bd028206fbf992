"""Benchmark of the forward check of a folded table, on a sample of its rows.

The check of a folded table runs over the rows of the other side's triple, each of about the same work
(:func:`solver.neutreeko.checking.check.folded_rows`). A process reads the table, checks one row in
``--every`` (runs of 8 rows, spread over the table) once to load the kernels, then ``--rounds`` times;
each line gives the median nanoseconds per class checked, and the count of inconsistent classes found
(0 for a good table). With ``--baseline DIR`` (a checkout of another version) the same measurement runs
in processes of that version too, the two versions taking turns ``--processes`` times.

Usage: ``python scripts/bench_check.py --board 9x9 --table PATH [--every 1000] [--rounds 2] [--processes 3]
[--baseline DIR] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import benchjson
import numpy as np

SCRIPT = Path(__file__).resolve()
_RUN = 8


def measure(board: str, table: Path, every: int, rounds: int) -> dict[str, float]:
    """Median nanoseconds per class of checking one row in ``every`` of ``table``, in this process."""
    from solver.neutreeko.checking.check import folded_rows
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.tables.table import open_table

    game = Game.of(board)
    run, checked = folded_rows(game, open_table(game, table).data)
    rows = len(checked)
    wrong, offsets, nothing = np.zeros(rows, dtype=np.int64), np.full(rows, -1, dtype=np.int64), np.empty(0, np.int64)
    starts = range(0, rows, every * _RUN)
    timed = []
    for round_number in range(rounds + 1):
        checked[:] = 0
        started = time.perf_counter()
        for first in starts:
            run(wrong, False, nothing, offsets, nothing, first, min(first + _RUN, rows))
        if round_number:
            timed.append((time.perf_counter() - started) / int(checked.sum()) * 1e9)
    return {"classes": int(checked.sum()), "wrong": int(wrong.sum()), "check": statistics.median(timed)}


def in_process_of(checkout: Path | None, options: argparse.Namespace) -> dict[str, float]:
    """:func:`measure` in a new process of the version in ``checkout`` (this one if None)."""
    environment = {**os.environ, **({"PYTHONPATH": str(checkout)} if checkout else {})}
    done = subprocess.run([sys.executable, str(SCRIPT), "--measure", "--board", options.board, "--table",
                           str(options.table), "--every", str(options.every), "--rounds", str(options.rounds)],
                          env=environment, cwd=checkout, capture_output=True, text=True, check=True, timeout=3600)
    measured: dict[str, float] = json.loads(done.stdout)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="8x8")
    parser.add_argument("--table", type=Path, required=True, help="the board's folded table")
    parser.add_argument("--every", type=int, default=1000, help="check one run of rows in this many (default 1000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over the sample in a process (default 2)")
    parser.add_argument("--processes", type=int, default=3, help="processes of each version (default 3)")
    parser.add_argument("--baseline", type=Path, help="a checkout of another version to compare with")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.every < 1 or options.rounds < 1 or options.processes < 1:
        parser.error("--every, --rounds and --processes must be at least 1")
    if options.measure:
        print(json.dumps(measure(options.board, options.table, options.every, options.rounds)))
        return
    if not options.table.is_file():
        parser.error(f"no table at {options.table}")
    versions = {"this": None, **({"baseline": options.baseline} if options.baseline else {})}
    measured: dict[str, list[dict[str, float]]] = {version: [] for version in versions}
    for _ in range(options.processes):
        for version, checkout in versions.items():
            measured[version].append(in_process_of(checkout, options))
    compared = "alternating with the baseline" if options.baseline else None
    what = f"{options.board} forward check of the folded table"
    for version, runs in measured.items():
        times = [run["check"] for run in runs]
        benchjson.record(f"{what} ({version})", times, "ns/class", compared)
        print(f"{version}: {what}: {statistics.median(times):.0f} ns a class ({int(runs[0]['classes']):,} classes "
              f"of one row in {options.every}, {int(runs[0]['wrong'])} inconsistent; medians of {len(runs)} processes)")
    if options.baseline:
        ratios = [base["check"] / run["check"] for base, run in zip(measured["baseline"], measured["this"])]
        benchjson.record(f"{what}, baseline / this", ratios, "x", compared)
        print(f"baseline / this: {statistics.median(ratios):.2f} x (process by process)")
    benchjson.write("bench_check", options)


if __name__ == "__main__":
    main()
