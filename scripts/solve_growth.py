"""Measure how a solve grows with the board: ``neutreeko solve --progress`` run as a user runs it, one
process per board, with its time, its peak memory and its levels.

    python scripts/solve_growth.py 5x5 6x6 7x7            # tables to a temporary directory
    python scripts/solve_growth.py 8x8 --out-dir tables   # keep the tables (tables/neutreeko-8x8.h5)

For each board it prints the indices, the solve time (the analysis alone, as the table stores it) and
the whole command's, nanoseconds per index, the peak resident memory of the process and per index, the
number of levels (distances) and the busiest level. Big boards take memory (about 1.2 bytes per index,
plus the interpreter): on a shared machine, run them one at a time. Each board's
line is printed as soon as it is measured, and its progress goes to ``--log`` as it is made, if given.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.neutreeko.game import Game
from solver.neutreeko.table import open_table

_LEVEL = re.compile(r"ply\s+(\d+):\s+([\d,]+) new")


def measure(game: Game, out: Path, log: Path | None) -> str:
    """Solve ``game`` into ``out`` in a fresh process; one line of figures."""
    command = shutil.which("neutreeko", path=os.path.dirname(sys.executable)) or shutil.which("neutreeko")
    if command is None:
        sys.exit("solve_growth: the neutreeko command is not installed")
    line = [command, "solve", "--board", str(game.board), "--rule", game.rule.name, "--force", "--progress",
            "--out", str(out)]
    with tempfile.NamedTemporaryFile("w+", prefix="solve-growth-", suffix=".log") as scratch:
        progress = Path(scratch.name) if log is None else log
        with open(progress, "a") as file:
            file.write(f"{' '.join(line)}\n")
            file.flush()
            began = time.perf_counter()
            process = subprocess.Popen(line, stdout=subprocess.DEVNULL, stderr=file, text=True)
            _, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - began
        # This solve's lines: those after its command line.
        text = progress.read_text().rsplit(f"{' '.join(line)}\n", 1)[-1]
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"solve_growth: {' '.join(line)} failed:\n{text.strip()}")
    levels = [(int(plies), int(count.replace(",", ""))) for plies, count in _LEVEL.findall(text)]
    busiest_plies, busiest = max(levels, key=lambda level: level[1])
    solve_seconds = float(open_table(game, out).attributes["solve_seconds"])
    peak = usage.ru_maxrss * 1024
    positions = game.positions
    return (f"{str(game):<16} {positions:>15,} indices  solve {solve_seconds:9.1f} s "
            f"({1e9 * solve_seconds / positions:6.1f} ns/index), command {seconds:9.1f} s  "
            f"peak {peak / 2**20:9,.0f} MB ({peak / positions:5.2f} B/index)  "
            f"{len(levels)} levels, busiest ply {busiest_plies}: {busiest:,} ({100 * busiest / positions:.1f} %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", help="boards, WIDTHxHEIGHT")
    parser.add_argument("--rule", default="connected", help="winning condition (default connected)")
    parser.add_argument("--out-dir", type=Path, help="where the tables go (default: a temporary directory)")
    parser.add_argument("--log", type=Path, help="append each solve's progress lines here")
    args = parser.parse_args()
    try:
        games = [Game.of(board, args.rule) for board in args.boards]
    except ValueError as error:  # a board or rule that does not exist
        parser.error(str(error))
    with tempfile.TemporaryDirectory(prefix="solve-growth-") as scratch:
        directory = args.out_dir or Path(scratch)
        for game in games:
            suffix = "" if game.rule.name == "connected" else f"-{game.rule.name}"
            print(measure(game, directory / f"neutreeko-{game.board}{suffix}.h5", args.log), flush=True)


if __name__ == "__main__":
    main()
