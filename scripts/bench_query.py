"""Benchmark of the query path, end to end, as a user runs it.

(a) ``neutreeko query start``: wall time of the whole process (interpreter start, imports, opening the
    table, the answer), the median of ``--runs`` runs.
(b) ``neutreeko query -``: positions per second for ``--positions`` random legal positions (uniform over
    the index and the side to move) piped through standard input, the median of ``--bulk-runs`` runs.
(c) ``neutreeko query - --with-moves`` (every move ranked too) on the first ``--moves-positions`` of them.

Usage: ``python scripts/bench_query.py [--board 5x5] [--runs 9] [--positions 200000] [--bulk-runs 3]``.
The table is read from where ``neutreeko`` reads it (``$NEUTREEKO_TABLES`` or the default place) and
built first if it is missing, so that no run includes a build.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.neutreeko.game import Game
from solver.neutreeko.position import random_positions


def command() -> list[str]:
    """The ``neutreeko`` console script beside this interpreter, or ``python -m solver``."""
    script = Path(sys.executable).with_name("neutreeko")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "solver"]


def timed(arguments: list[str], stdin=None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``arguments``; raises if it fails. The CPU time
    (user + system) depends less on what else the machine is doing."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(arguments, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """Median wall and median CPU seconds of several runs."""
    return statistics.median(wall for wall, _ in runs), statistics.median(cpu for _, cpu in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="5x5")
    parser.add_argument("--runs", type=int, default=9, help="runs of `query start` (default 9)")
    parser.add_argument("--positions", type=int, default=200_000, help="positions for `query -`")
    parser.add_argument("--bulk-runs", type=int, default=3, help="runs of `query -` (default 3)")
    parser.add_argument("--moves-positions", type=int, default=10_000, help="positions for `query - --with-moves`")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    neutreeko = command()
    game = Game.of(options.board)

    subprocess.run([*neutreeko, "query", "start", "--board", options.board], stdout=subprocess.DEVNULL, check=True)
    starts = [timed([*neutreeko, "query", "start", "--board", options.board]) for _ in range(options.runs)]
    wall, cpu = medians(starts)
    print(f"query start: median {wall:.3f} s wall, {cpu:.3f} s CPU "
          f"(wall min {min(w for w, _ in starts):.3f}, max {max(w for w, _ in starts):.3f}; {options.runs} runs)")

    fens = [position.fen() for position in random_positions(game, options.positions, options.seed)]
    for flags, count in (([], len(fens)), (["--with-moves"], min(options.moves_positions, len(fens)))):
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "positions.txt"
            path.write_text("\n".join(fens[:count]) + "\n")
            runs = []
            for _ in range(options.bulk_runs):
                with path.open("rb") as stdin:
                    runs.append(timed([*neutreeko, "query", "-", "--board", options.board, *flags], stdin))
        wall, cpu = medians(runs)
        print(f"query - {' '.join(flags)}: {count:,} positions in a median {wall:.2f} s wall = "
              f"{count / wall:,.0f} positions/s ({cpu:.2f} s CPU = {count / cpu:,.0f}/s; process start "
              f"included; {options.bulk_runs} runs)")


if __name__ == "__main__":
    main()
