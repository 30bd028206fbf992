"""Benchmark of the class solve's work on one level: gathering the predecessors of a level's classes and
settling them, on the real state of a big board, taken from its folded table.

The solved table gives every class's distance, so the state the solve holds when it reaches level
``--plies`` is known without solving: the classes decided at that distance or less are decided, the
others undecided (their bytes set to a count of moves that no level lowers to zero). A process takes
the whole level as the solve does (:meth:`solver.neutreeko.solving.solve_classes.Predecessors.of_level`;
in a version without it, the slabs of rows that the solve took before), then settles each pass, and
does so ``--rounds`` times from the same state, the first round left out (it loads the kernels). Each
line gives the median nanoseconds per class of the level, gathering (with collecting and grouping the
level) and settling apart. With ``--baseline DIR`` (a checkout of another version) the same
measurement runs in processes of that version too, the two versions taking turns ``--processes`` times.

Usage: ``python scripts/bench_class_level.py --board 8x8 --table PATH [--plies 3] [--rounds 2]
[--processes 3] [--baseline DIR] [--json FILE]``. The state is written once to a temporary directory
(about 1.1 bytes a class: 0.2 GB on 8 x 8, 0.9 GB on 9 x 9).
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
from typing import Iterator

import benchjson
import numpy as np

SCRIPT = Path(__file__).resolve()
_STATE = ("words", "decided", "found")


def prepare(board: str, table: Path, plies: int, directory: Path) -> int:
    """Write the state of the class solve of ``board`` as it reaches level ``plies`` to ``directory``
    (see the module docstring); returns the number of classes of the level."""
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.model.values import ILLEGAL, encode_result
    from solver.neutreeko.solving import solve_classes
    from solver.neutreeko.tables.table import open_table

    game = Game.of(board)
    opened = open_table(game, table)
    if not opened.folded:
        raise ValueError(f"{table} is a full table: the state of the solve over classes comes from a folded one")
    folded = opened.data
    row = solve_classes._ROW
    rows = -(-len(folded) // row)
    words = np.empty(rows * row // 8, dtype=np.uint64)
    result = words.view(np.uint8)
    result[:] = ILLEGAL
    result[:len(folded)] = folded
    # A decided byte is ILLEGAL or distance + 1; 0, a draw, is never decided.
    decided = (result == ILLEGAL) | ((result != 0) & (result <= encode_result(plies)))
    found = ((result == encode_result(plies)).reshape(rows, row).sum(axis=1)).astype(np.int64)
    result[~decided] = 200  # a count of moves: lowered by at most 8 a time, a few times in a level
    for name, array in zip(_STATE, (words, np.packbits(decided, bitorder="little"), found)):
        np.save(directory / f"{name}.npy", array)
    return int(found.sum())


def measure(board: str, directory: Path, plies: int, rounds: int) -> dict[str, float]:
    """Median nanoseconds per class of gathering and settling the level, measured in this process over
    ``rounds`` rounds after a first one."""
    import numba

    from solver.neutreeko.model.game import Game
    from solver.neutreeko.model.values import encode_result
    from solver.neutreeko.solving import _kernel, solve, solve_classes
    from solver.neutreeko.solving.class_inputs import ClassInputs
    from solver.neutreeko.solving.kernel_inputs import KernelInputs

    game = Game.of(board)
    saved_words, saved_decided, found = (np.load(directory / f"{name}.npy") for name in _STATE)
    words, decided = saved_words.copy(), saved_decided.copy()
    result = words.view(np.uint8)
    inputs = KernelInputs.of(game, numba.get_num_threads())
    rows = len(found)
    predecessors = solve_classes.Predecessors(game, inputs, ClassInputs.of(game),
                                              (np.arange(rows) % inputs.parts).astype(np.int32), inputs.parts,
                                              rows * solve_classes._ROW, solve._SLAB)

    def passes() -> Iterator[tuple[int, int]]:
        if hasattr(predecessors, "of_level"):
            yield from predecessors.of_level(result, words, decided, found, plies)
        else:
            for first, last in solve._slabs(found):
                yield from predecessors.of_slab(result, words, decided, 0, found, first, last, plies)

    classes = int(found.sum())
    fresh = np.zeros(rows, dtype=np.int64)
    timed: dict[str, list[float]] = {"gather": [], "settle": []}
    for round_number in range(rounds + 1):
        words[:], decided[:] = saved_words, saved_decided
        gathering = settling = 0.0
        started = time.perf_counter()
        for weight, used in passes():
            gathered = time.perf_counter()
            gathering += gathered - started
            _kernel._settle(predecessors.out, predecessors.counts, used, plies % 2 == 0, encode_result(plies + 1),
                            weight, result, decided, fresh, solve_classes._ROW)
            started = time.perf_counter()
            settling += started - gathered
        if round_number:
            timed["gather"].append(gathering / classes * 1e9)
            timed["settle"].append(settling / classes * 1e9)
    return {"classes": classes, **{step: statistics.median(values) for step, values in timed.items()}}


def in_process_of(checkout: Path | None, options: argparse.Namespace, directory: Path) -> dict[str, float]:
    """:func:`measure` in a new process of the version in ``checkout`` (this one if None)."""
    environment = {**os.environ, **({"PYTHONPATH": str(checkout)} if checkout else {})}
    done = subprocess.run([sys.executable, str(SCRIPT), "--measure", str(directory), "--board", options.board,
                           "--plies", str(options.plies), "--rounds", str(options.rounds)], env=environment,
                          cwd=checkout, capture_output=True, text=True, check=True, timeout=3600)
    measured: dict[str, float] = json.loads(done.stdout)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="8x8")
    parser.add_argument("--table", type=Path, help="the board's folded table (default: the tables directory's)")
    parser.add_argument("--plies", type=int, default=3, help="the level (default 3, the busiest up to 8 x 8)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over the level in a process (default 2)")
    parser.add_argument("--processes", type=int, default=3, help="processes of each version (default 3)")
    parser.add_argument("--baseline", type=Path, help="a checkout of another version to compare with")
    parser.add_argument("--measure", type=Path, metavar="STATE", help=argparse.SUPPRESS)
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.measure:
        print(json.dumps(measure(options.board, options.measure, options.plies, options.rounds)))
        return

    from solver.core.errors import TableError
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.tables.table import table_path

    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        try:
            level = prepare(options.board, options.table or Path(str(table_path(Game.of(options.board)))),
                            options.plies, directory)
        except (TableError, ValueError) as error:
            parser.error(str(error))
        versions = {"this": None, **({"baseline": options.baseline} if options.baseline else {})}
        measured: dict[str, list[dict[str, float]]] = {version: [] for version in versions}
        for _ in range(options.processes):
            for version, checkout in versions.items():
                measured[version].append(in_process_of(checkout, options, directory))
    compared = "alternating with the baseline" if options.baseline else None
    for version, runs in measured.items():
        gather, settle = [run["gather"] for run in runs], [run["settle"] for run in runs]
        total = [g + s for g, s in zip(gather, settle)]
        what = f"{options.board} class solve, level {options.plies}"
        benchjson.record(f"{what}, gathering ({version})", gather, "ns/class", compared)
        benchjson.record(f"{what}, settling ({version})", settle, "ns/class", compared)
        benchjson.record(f"{what}, both ({version})", total, "ns/class", compared)
        print(f"{version}: {what} ({level:,} classes): gathering "
              f"{statistics.median(gather):.0f} ns a class, settling {statistics.median(settle):.0f}, both "
              f"{statistics.median(total):.0f} (medians of {len(runs)} processes)")
    if options.baseline:
        ratios = [b["gather"] + b["settle"] for b in measured["baseline"]]
        ratios = [base / (run["gather"] + run["settle"]) for base, run in zip(ratios, measured["this"])]
        benchjson.record(f"{options.board} class solve, level {options.plies}, baseline / this", ratios, "x", compared)
        print(f"baseline / this: {statistics.median(ratios):.2f} x (process by process)")
    benchjson.write("bench_class_level", options)


if __name__ == "__main__":
    main()
