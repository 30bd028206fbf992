"""Benchmark of annotating a game: a ``--plies``-ply game (default 100) judged against the 5 x 5 table.

The game is made reproducibly (``--seed``): from the start, each side plays one of the best moves four
times in five and any other move otherwise, never one that ends the game (three in a row or a third
occurrence), so it has all kinds of marks and lasts the plies asked. Then:

(a) the library call ``annotate(tablebase, start, moves)`` with the table open, the median of ``--runs``;
(b) ``neutreeko annotate GAME`` end to end (process start, opening the table, the text), and with
    ``--json`` and with ``--svg``, each the median of ``--runs`` runs, with the peak memory of the process.

Usage: ``python scripts/bench_annotate.py [--plies 100] [--runs 9] [--seed 0]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import benchjson

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import ending
from solver.neutreeko.model.position import Position
from solver.neutreeko.playing.annotate import annotate
from solver.neutreeko.playing.record import GameRecord, write_record
from solver.neutreeko.querying.probe import Tablebase, best_moves


def make_game(tablebase: Tablebase, plies: int, seed: int) -> GameRecord:
    """A game of ``plies`` plies from the start (see the module docstring)."""
    rng = random.Random(seed)
    position = Position.start(Game.of("5x5"))
    seen = Counter([position])
    moves = []
    while len(moves) < plies:
        ranked = tablebase.moves(position)
        going_on = [move for move in ranked if ending(move.position, seen[move.position] + 1) is None]
        if not going_on:
            raise SystemExit(f"seed {seed}: the game cannot go on after {len(moves)} plies; try another seed")
        best = [move for move in best_moves(ranked) if move in going_on]
        chosen = rng.choice(best if best and rng.random() < 0.8 else going_on)
        moves.append(chosen.move)
        position = chosen.position
        seen[position] += 1
    return GameRecord(Position.start(Game.of("5x5")), tuple(moves))


def command() -> list[str]:
    script = Path(sys.executable).with_name("neutreeko")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "solver"]


def run(arguments: list[str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak resident bytes) of one run; raises if it fails."""
    began = time.perf_counter()
    with subprocess.Popen(arguments, stdout=subprocess.DEVNULL) as process:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, arguments)
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    benchjson.add_option(parser)
    options = parser.parse_args()
    tablebase = Tablebase()
    record = make_game(tablebase, options.plies, options.seed)
    annotation = annotate(tablebase, record.start, record.moves)  # opens the table
    marks = Counter(ply.mark.value for ply in annotation.plies)
    print(f"game: {len(record.moves)} plies, seed {options.seed}; marks: "
          + ", ".join(f"{count} {mark}" for mark, count in sorted(marks.items())))
    times = []
    for _ in range(options.runs):
        began = time.perf_counter()
        annotate(tablebase, record.start, record.moves)
        times.append(time.perf_counter() - began)
    benchjson.record(f"annotate() of a {len(record.moves)}-ply game, table open", [t * 1000 for t in times], "ms")
    print(f"annotate(): median {statistics.median(times) * 1000:.1f} ms (min {min(times) * 1000:.1f}, "
          f"max {max(times) * 1000:.1f}; {options.runs} runs, table open)")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "game.txt"
        write_record(path, record)
        for extra in ([], ["--json"], ["--svg", str(Path(directory) / "chart.svg")]):
            runs = [run([*command(), "annotate", str(path), *extra]) for _ in range(options.runs)]
            what = " ".join(["neutreeko annotate GAME", *extra[:1]])
            benchjson.record(f"{what}, wall", [wall for wall, _, _ in runs], "s")
            benchjson.record(f"{what}, peak resident memory", max(peak for _, _, peak in runs) / 2**20, "MB")
            print(f"neutreeko annotate GAME {' '.join(extra[:1])}: median "
                  f"{statistics.median(wall for wall, _, _ in runs):.3f} s wall, "
                  f"{statistics.median(cpu for _, cpu, _ in runs):.3f} s CPU, end to end ({options.runs} runs); "
                  f"peak memory {max(peak for _, _, peak in runs) / 2**20:.0f} MB")
    benchjson.write("bench_annotate", options)


if __name__ == "__main__":
    main()
