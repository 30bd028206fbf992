"""Benchmark of the query path, end to end, as a user runs it.

(a) ``neutreeko query start --board B`` for each ``--board``: wall time of the whole process (interpreter
    start, imports, opening the table, the answer), the median of ``--runs`` runs. What follows is of
    the first board.
(b) ``neutreeko query - --board B``: positions per second for ``--positions`` random legal positions
    (uniform over the index and the side to move) piped through standard input, the median of
    ``--bulk-runs`` runs; with ``--with-moves`` too (every move ranked), on ``--moves-positions`` of them;
    with ``--batch-lines N`` (repeatable), also with ``query - --batch-lines N``, taking turns.
(c) one probe in a warm process (the library, the table open and the chunk cached): the median over
    ``--probes`` random positions (300: their chunks fit the default cache; 0: none), each probed once
    to fill the cache and then ``--rounds`` times, timed.
(d) with ``--necnon BOARD:PROTOCOL`` (repeatable), ``necnon query empty --board BOARD --protocol P``,
    cold, as (a).
(e) with ``--stats-runs N``, ``neutreeko stats --board B``: the whole table read and counted, as (a),
    ``N`` runs.
(f) with ``--setup BOARD`` (repeatable; a table is not needed), the set-up a probe of a folded table
    needs (the class numbering, and the class numbers of the start's moves), timed inside a new
    process of each version, ``--runs`` runs taken in turns.

Each line also gives the peak resident memory of the process (the largest of the runs). Output goes to
/dev/null, so writing it costs the formatting but no terminal. With ``--baseline DIR`` (a checkout of
another version) and ``--baseline-tables DIR`` (tables that version reads), every command of (a) and
(b) runs alternately with that version too, and the line gives both and their ratio, so that the
machine's noise falls on both alike.

Usage: ``python scripts/bench_query.py [--board 5x5 ...] [--runs 9] [--positions 200000] [--bulk-runs 3]
[--tables DIR]``. The tables are read from ``--tables``, else from where ``neutreeko`` reads them
(``$NEUTREEKO_TABLES`` or the default place), and the baseline's from ``--baseline-tables``, else from
``--tables`` too; a missing table is built first (up to 7 x 7), so that no run includes a build. The
big boards' start-up, (a) and (f) only: ``--board 8x8 --board 9x9 --board 10x10 --tables DIR --positions
0 --probes 0 --setup 11x11``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchjson
from benchprocess import Version, alternating, baseline_version, describe, this_version, timed

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import random_positions
from solver.neutreeko.querying.probe import Tablebase


def warm_probe(game: Game, probes: int, rounds: int, seed: int, tables: Path | None) -> str:
    """The median time of one probe in this process, the table open and the probe's chunk cached:
    ``probes`` random positions (few enough that the cache holds all their chunks), probed once to
    fill the cache, then ``rounds`` times each, timed."""
    positions = random_positions(game, probes, seed)
    times = []
    with Tablebase(tables) as tablebase:
        for position in positions:
            tablebase.probe(position)
        for _ in range(rounds):
            for position in positions:
                began = time.perf_counter()
                tablebase.probe(position)
                times.append(time.perf_counter() - began)
    benchjson.record(f"warm probe {game.board}", [t * 1e6 for t in times], "us")
    return (f"warm probe: median {statistics.median(times) * 1e6:.1f} us, 90th percentile "
            f"{statistics.quantiles(times, n=10)[-1] * 1e6:.1f} us ({probes:,} positions, their chunks cached, "
            f"{rounds} rounds)")


#: (f), run by each version: the set-up's seconds on standard output.
_SETUP = """import time
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.tables.folding import Classes
game = Game.of({board!r})
indices = [child.index() for _, child in Position.start(game).children()]
began = time.perf_counter()
Classes.of(game).numbers(indices)
print(time.perf_counter() - began)"""
#: The checkout holding this script, where this version's ``python -c`` runs.
ROOT = Path(__file__).resolve().parent.parent


def class_setup(versions: list[Version], board: str, runs: int) -> str:
    """(f) on ``board``, each version in turn, ``runs`` times: the medians, recorded, as a line."""
    seconds: dict[str, list[float]] = {version.name: [] for version in versions}
    for _ in range(runs):
        for version in versions:
            done = subprocess.run([sys.executable, "-c", _SETUP.format(board=board)], cwd=version.directory or ROOT,
                                  env=version.environment, capture_output=True, text=True, check=True, timeout=600)
            seconds[version.name].append(float(done.stdout))
    compared = "alternating with the baseline" if len(versions) > 1 else None
    for name, samples in seconds.items():
        benchjson.record(f"class set-up {board} ({name})", samples, "s", compared)
    medians = {name: statistics.median(samples) for name, samples in seconds.items()}
    ratio = f"; baseline / this {medians['baseline'] / medians['this']:.2f}" if "baseline" in medians else ""
    return "; ".join(f"{name}: median {median * 1000:.1f} ms" for name, median in medians.items()) + ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", action="append", default=[], help="a board (repeatable; default 5x5)")
    parser.add_argument("--tables", type=Path, help="the tables' directory (default: where neutreeko reads them)")
    parser.add_argument("--runs", type=int, default=9, help="runs of `query start` (default 9)")
    parser.add_argument("--positions", type=int, default=200_000, help="positions for `query -`")
    parser.add_argument("--bulk-runs", type=int, default=3, help="runs of `query -` (default 3)")
    parser.add_argument("--moves-positions", type=int, default=200_000, help="positions for `query - --with-moves`")
    parser.add_argument("--probes", type=int, default=300, help="positions for the warm probe (default 300; 0: none)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of the warm probe (default 10)")
    parser.add_argument("--necnon", action="append", default=[], metavar="BOARD:PROTOCOL")
    parser.add_argument("--baseline", type=Path, help="a checkout of another version to compare with")
    parser.add_argument("--baseline-tables", type=Path, help="the tables directory of --baseline (default: --tables, "
                        "else its tables/)")
    parser.add_argument("--batch-lines", type=int, action="append", default=[], metavar="N",
                        help="also run `query -` with --batch-lines N, taking turns with the default (repeatable)")
    parser.add_argument("--stats-runs", type=int, default=0, help="runs of `stats` (default 0: none)")
    parser.add_argument("--setup", action="append", default=[], metavar="BOARD",
                        help="also time the class set-up of a probe on BOARD (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.runs < 1 or options.stats_runs < 0 or options.probes < 0:
        parser.error("--runs must be at least 1, --stats-runs and --probes at least 0")
    neutreeko = this_version("neutreeko")
    if options.tables:
        neutreeko = neutreeko._replace(environment={**neutreeko.environment, "NEUTREEKO_TABLES": str(options.tables)})
    versions = [neutreeko]
    if options.baseline:
        versions.append(baseline_version(options.baseline, options.baseline_tables or options.tables or Path("tables")))
    boards = options.board or ["5x5"]
    for name in boards:
        for version in versions:
            timed(version, ["query", "start", "--board", name, *(["--build"] if version is neutreeko else [])])
        what = f"query start {name}"
        print(f"{what}: {describe(what, alternating(versions, ['query', 'start', '--board', name], options.runs))}")
    game = Game.of(boards[0])
    board = ["--board", boards[0]]
    if options.stats_runs:
        what = f"stats {boards[0]}"
        print(f"{what}: {describe(what, alternating(versions, ['stats', *board], options.stats_runs))}")

    fens = [position.fen() for position in random_positions(game, options.positions, options.seed)]
    for flags, count in (([], len(fens)), (["--with-moves"], min(options.moves_positions, len(fens)))):
        if not count:
            continue
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "positions.txt"
            path.write_text("\n".join(fens[:count]) + "\n")
            settings = [neutreeko._replace(name=f"batch {lines:,}", options=("--batch-lines", str(lines)))
                        for lines in options.batch_lines]
            measured = alternating(versions + settings, ["query", "-", *board, *flags], options.bulk_runs, path)
        what = " ".join(["query -", *flags, boards[0]])
        print(f"{what}, {count:,} random positions (process start included): {describe(what, measured, count)}")

    if options.probes:
        print(f"{boards[0]} {warm_probe(game, options.probes, options.rounds, options.seed, options.tables)}")

    for name in options.setup:
        print(f"class set-up {name}: {class_setup(versions, name, options.runs)}")

    necnon = this_version("necnon")
    for text in options.necnon:
        necnon_board, protocol = text.split(":")
        arguments = ["query", "empty", "--board", necnon_board, "--protocol", protocol]
        timed(necnon, arguments)
        print(f"necnon query empty {text}: {describe(f'necnon query empty {text}', alternating([necnon], arguments, options.runs))}")
    benchjson.write("bench_query", options)


if __name__ == "__main__":
    main()
