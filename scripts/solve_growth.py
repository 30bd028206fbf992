"""Measure how a solve grows with the board: ``neutreeko solve --progress`` run as a user runs it, one
process per board, with its time, its peak memory and its levels.

    python scripts/solve_growth.py 5x5 6x6 7x7            # tables to a temporary directory
    python scripts/solve_growth.py 8x8 --out-dir tables   # keep the tables (tables/neutreeko-8x8.h5)
    python scripts/solve_growth.py 6x6 --fold --runs 3    # over symmetry classes, medians of 3 solves
    python scripts/solve_growth.py 5x5 6x6 --json docs/benchmarks/growth-5x5-6x6.json   # for the docs

For each board it prints the indices, the solve time (the analysis alone, as the table stores it) and
the whole command's, nanoseconds per index, the peak resident memory of the process and per index, the
number of levels (distances) and the busiest level (in classes with ``--fold``). Big boards take memory (about 1.2 bytes per index,
plus the interpreter): on a shared machine, run them one at a time. Each board's
line is printed as soon as it is measured, and its progress goes to ``--log`` as it is made, if given.
With ``--json FILE`` the times and memory are written to FILE too (``scripts/benchjson.py``), which the
documentation's benchmark page shows.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchjson

from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.folding import Classes
from solver.neutreeko.tables.table import open_table

_LEVEL = re.compile(r"ply\s+(\d+):\s+([\d,]+) new")


def solve_once(game: Game, out: Path, log: Path | None, fold: bool) -> tuple[float, float, int, list[tuple[int, int]]]:
    """Solve ``game`` into ``out`` in a fresh process: (solve seconds, command seconds, peak resident
    bytes, levels as (plies, count))."""
    command = shutil.which("neutreeko", path=os.path.dirname(sys.executable)) or shutil.which("neutreeko")
    if command is None:
        sys.exit("solve_growth: the neutreeko command is not installed")
    line = [command, "solve", "--board", str(game.board), "--rule", game.rule.name, "--force", "--progress",
            "--out", str(out), *(["--fold"] if fold else [])]
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
    return float(open_table(game, out).attributes["solve_seconds"]), seconds, usage.ru_maxrss * 1024, levels


def measure(game: Game, out: Path, log: Path | None, fold: bool = False, runs: int = 1) -> str:
    """Solve ``game`` into ``out`` ``runs`` times, each in a fresh process; one line of figures, the
    medians of the runs (over classes if ``fold``: then the levels count classes)."""
    figures = [solve_once(game, out, log, fold) for _ in range(runs)]
    solve_seconds = statistics.median(figure[0] for figure in figures)
    seconds = statistics.median(figure[1] for figure in figures)
    peak = statistics.median(figure[2] for figure in figures)
    levels = figures[0][3]
    busiest_plies, busiest = max(levels, key=lambda level: level[1])
    positions = game.positions
    items = Classes.of(game).count if fold else positions
    over = "classes" if fold else "positions"
    benchjson.record(f"{game} over {over}: the solve (analysis)", [figure[0] for figure in figures], "s")
    benchjson.record(f"{game} over {over}: neutreeko solve, end to end", [figure[1] for figure in figures], "s")
    benchjson.record(f"{game} over {over}: peak resident memory", [figure[2] / 2**20 for figure in figures], "MB")
    return (f"{str(game):<16} {'classes' if fold else 'positions':<9} {positions:>15,} indices  "
            f"solve {solve_seconds:9.1f} s ({1e9 * solve_seconds / positions:6.1f} ns/index), "
            f"command {seconds:9.1f} s  peak {peak / 2**20:9,.0f} MB ({peak / positions:5.2f} B/index)  "
            f"{len(levels)} levels, busiest ply {busiest_plies}: {busiest:,} ({100 * busiest / items:.1f} %)"
            + (f"  [median of {runs}]" if runs > 1 else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", help="boards, WIDTHxHEIGHT")
    parser.add_argument("--rule", default="connected", help="winning condition (default connected)")
    parser.add_argument("--out-dir", type=Path, help="where the tables go (default: a temporary directory)")
    parser.add_argument("--log", type=Path, help="append each solve's progress lines here")
    parser.add_argument("--fold", action="store_true", help="solve over symmetry classes (neutreeko solve --fold)")
    parser.add_argument("--runs", type=int, default=1, help="solves per board, in fresh processes; medians")
    benchjson.add_option(parser)
    args = parser.parse_args()
    try:
        games = [Game.of(board, args.rule) for board in args.boards]
    except ValueError as error:  # a board or rule that does not exist
        parser.error(str(error))
    with tempfile.TemporaryDirectory(prefix="solve-growth-") as scratch:
        directory = args.out_dir or Path(scratch)
        for game in games:
            suffix = "" if game.rule.name == "connected" else f"-{game.rule.name}"
            print(measure(game, directory / f"neutreeko-{game.board}{suffix}.h5", args.log, args.fold, args.runs),
                  flush=True)
    benchjson.write("solve_growth", args)


if __name__ == "__main__":
    main()
