"""Benchmark of ``neutreeko puzzles`` on 5 x 5: 20 and 1,000 puzzles.

(a) the library call ``find_puzzles(tablebase, game, count, seed=...)`` with the table open (sampling the
    games, checking and grading every puzzle, its solution line), the median of ``--runs``, each with
    another seed;
(b) ``neutreeko puzzles --count N`` end to end (process start, opening the table, the text), the median
    of ``--runs``.

The tables are read from the tables directory (``NEUTREEKO_TABLES``); a missing 5 x 5 table is built first.

Usage: ``python scripts/bench_puzzles.py [--runs 5] [--counts 20 1000]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import benchjson

from solver.neutreeko.model.game import Game
from solver.neutreeko.playing.puzzles import find_puzzles
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.tables.build import ensure_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--counts", type=int, nargs="+", default=[20, 1000])
    benchjson.add_option(parser)
    args = parser.parse_args()
    game = Game.of("5x5")
    ensure_table(game)
    print(f"{'puzzles':>8} {'library (median s)':>19} {'command (median s)':>19}  runs {args.runs}")
    with Tablebase() as tablebase:
        find_puzzles(tablebase, game, 1)  # the table opened and its first chunks read
        for count in args.counts:
            library = []
            for seed in range(args.runs):
                began = time.perf_counter()
                found = find_puzzles(tablebase, game, count, seed=seed)
                library.append(time.perf_counter() - began)
                assert len(found.puzzles) == count, (count, len(found.puzzles))
            command = []
            for seed in range(args.runs):
                began = time.perf_counter()
                subprocess.run([sys.executable, "-m", "solver", "puzzles", "--count", str(count), "--seed", str(seed)],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                command.append(time.perf_counter() - began)
            benchjson.record(f"{count} puzzles on 5x5, in the library", library, "s")
            benchjson.record(f"neutreeko puzzles --count {count}, end to end", command, "s")
            print(f"{count:>8} {statistics.median(library):>19.2f} {statistics.median(command):>19.2f}")
    benchjson.write("bench_puzzles", args)


if __name__ == "__main__":
    main()
