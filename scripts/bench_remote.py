"""Benchmark of tables read over HTTP: a cold ``neutreeko query start --board B --table URL``, the table
served on the loopback interface by ``solver.web.static_host``, against the same query on the local
file: wall time of whole processes (interpreter start, imports, opening the table, the answer), medians
of ``--runs`` runs taken in turns, and the bytes the server sent for each run (what one position costs
a cold reader: the header, the chunk map and the chunks the answer needs). Every answer over HTTP
must be the local file's, or the script exits 1.

Usage: ``python scripts/bench_remote.py [--tables DIR] [--board 5x5 ...] [--runs 7] [--json FILE]``.
The boards are those given, or else every Neutreeko table in DIR (default: the tables directory).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import benchjson

from solver.core.storage.container import local, tables_dir
from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.table import table_path
from solver.web.static_host import RangeServer


def run(command: list[str], answers: set[str]) -> float:
    """The wall time of ``command`` (seconds); it must succeed, and its output joins ``answers``."""
    began = time.perf_counter()
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True, timeout=600)
    answers.add(done.stdout)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=Path, default=None, help="Directory of the tables (default: the tables "
                        "directory).")
    parser.add_argument("--board", action="append", default=[], help="A board (repeatable; default: every table).")
    parser.add_argument("--runs", type=int, default=7)
    benchjson.add_option(parser)
    options = parser.parse_args()
    directory = options.tables or local(tables_dir())
    boards = options.board or sorted({match[1] for path in directory.glob("neutreeko-*.h5")
                                      if (match := re.fullmatch(r"neutreeko-([0-9]+x[0-9]+)\.h5", path.name))},
                                     key=lambda board: [int(side) for side in board.split("x")])
    if not boards:
        sys.exit(f"no Neutreeko tables in {directory}")
    server = RangeServer(directory).start()
    program = [sys.executable, "-m", "solver", "query", "start"]
    try:
        for board in boards:
            name = table_path(Game.of(board)).name
            size = (directory / name).stat().st_size
            local_times, remote_times, sent, answers = [], [], [], set()
            for _ in range(options.runs):
                local_times.append(run([*program, "--board", board, "--table", str(directory / name)], answers))
                before = server.sent
                remote_times.append(run([*program, "--board", board, "--table", server.url + name], answers))
                sent.append(server.sent - before)
            if len(answers) != 1:
                sys.exit(f"bench_remote: {board} is answered otherwise over HTTP than from the local file")
            here, there = statistics.median(local_times), statistics.median(remote_times)
            read = statistics.median(sent)
            print(f"{board} ({name}, {size / 2**20:.1f} MB): local {here * 1000:.0f} ms, over HTTP "
                  f"{there * 1000:.0f} ms ({there / here:.2f} x), {read / 2**20:.3f} MB read "
                  f"({read / size:.1%} of the file)", flush=True)
            benchjson.record(f"cold query start {board}, local file, wall", local_times, "s")
            benchjson.record(f"cold query start {board}, over HTTP, wall", remote_times, "s", "local file")
            benchjson.record(f"cold query start {board}, over HTTP, bytes read", [float(value) for value in sent],
                             "bytes")
    finally:
        server.stop()
    benchjson.write("bench_remote", options)


if __name__ == "__main__":
    main()
