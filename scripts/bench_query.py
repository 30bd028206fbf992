"""Benchmark of the query path, end to end, as a user runs it.

(a) ``neutreeko query start``: wall time of the whole process (interpreter start, imports, opening the
    table, the answer), the median of ``--runs`` runs.
(b) ``neutreeko query -``: positions per second for ``--positions`` random legal positions (uniform over
    the index and the side to move) piped through standard input, the median of ``--bulk-runs`` runs.
(c) ``neutreeko query - --with-moves`` (every move ranked too) on the first ``--moves-positions`` of them.

Each line also gives the peak resident memory of the process (the largest of the runs). Output goes to
/dev/null, so writing it costs the formatting but no terminal.

Usage: ``python scripts/bench_query.py [--board 5x5] [--runs 9] [--positions 200000] [--bulk-runs 3]``.
The table is read from where ``neutreeko`` reads it (``$NEUTREEKO_TABLES`` or the default place) and
built first if it is missing, so that no run includes a build.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from solver.neutreeko.game import Game
from solver.neutreeko.position import random_positions


def command() -> list[str]:
    """The ``neutreeko`` console script beside this interpreter, or ``python -m solver``."""
    script = Path(sys.executable).with_name("neutreeko")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "solver"]


class Run(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds: depends less on what else the machine is doing
    peak: int  # peak resident memory, bytes


def timed(arguments: list[str], stdin=None) -> Run:
    """One run of ``arguments``, measured; raises if it fails."""
    began = time.perf_counter()
    with subprocess.Popen(arguments, stdin=stdin, stdout=subprocess.DEVNULL) as process:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - began
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, arguments)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


def medians(runs: list[Run]) -> tuple[float, float, int]:
    """Median wall and median CPU seconds of several runs, and their largest peak memory."""
    return (statistics.median(run.wall for run in runs), statistics.median(run.cpu for run in runs),
            max(run.peak for run in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="5x5")
    parser.add_argument("--runs", type=int, default=9, help="runs of `query start` (default 9)")
    parser.add_argument("--positions", type=int, default=200_000, help="positions for `query -`")
    parser.add_argument("--bulk-runs", type=int, default=3, help="runs of `query -` (default 3)")
    parser.add_argument("--moves-positions", type=int, default=200_000, help="positions for `query - --with-moves`")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    neutreeko = command()
    game = Game.of(options.board)

    subprocess.run([*neutreeko, "query", "start", "--board", options.board], stdout=subprocess.DEVNULL, check=True)
    starts = [timed([*neutreeko, "query", "start", "--board", options.board]) for _ in range(options.runs)]
    wall, cpu, peak = medians(starts)
    print(f"query start: median {wall:.3f} s wall, {cpu:.3f} s CPU (wall min {min(run.wall for run in starts):.3f}, "
          f"max {max(run.wall for run in starts):.3f}; {options.runs} runs); peak memory {peak / 2**20:.0f} MB")

    fens = [position.fen() for position in random_positions(game, options.positions, options.seed)]
    for flags, count in (([], len(fens)), (["--with-moves"], min(options.moves_positions, len(fens)))):
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "positions.txt"
            path.write_text("\n".join(fens[:count]) + "\n")
            runs = []
            for _ in range(options.bulk_runs):
                with path.open("rb") as stdin:
                    runs.append(timed([*neutreeko, "query", "-", "--board", options.board, *flags], stdin))
        wall, cpu, peak = medians(runs)
        print(f"query - {' '.join(flags)}: {count:,} positions in a median {wall:.2f} s wall = "
              f"{count / wall:,.0f} positions/s ({cpu:.2f} s CPU = {count / cpu:,.0f}/s; process start "
              f"included; {options.bulk_runs} runs); peak memory {peak / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
