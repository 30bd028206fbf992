"""Serial kernels spread over threads (:mod:`solver.neutreeko.solving.spread`), and what the solve over
positions compiles: serial kernels, each once, and no parallel kernel (their compiling made a new
user's first solve several times slower)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from solver.neutreeko.solving.spread import spread


@pytest.mark.parametrize("first, last, threads", [(0, 10, 3), (5, 6, 4), (0, 2, 8), (3, 3, 2), (0, 100, 1)])
def test_spread_covers_the_range_once_in_contiguous_pieces(first, last, threads):
    pieces: list[tuple[int, int]] = []
    lock = threading.Lock()

    def run(a: int, b: int) -> None:
        with lock:
            pieces.append((a, b))

    spread(run, first, last, threads)
    covered = sorted(pieces)
    assert len(covered) <= threads and all(a < b for a, b in covered)
    assert [i for a, b in covered for i in range(a, b)] == list(range(first, last))


def test_spread_raises_a_failed_piece_after_every_piece_ended():
    ended = []

    def run(a: int, b: int) -> None:
        ended.append(a)
        if a == 0:
            raise ValueError("piece 0")

    with pytest.raises(ValueError, match="piece 0"):
        spread(run, 0, 4, 2)
    assert sorted(ended) == [0, 2]


def test_solving_compiles_each_serial_kernel_once_and_no_parallel_kernel():
    code = ("from numba.core.registry import CPUDispatcher\n"
            "from solver.neutreeko.model.game import Game\n"
            "from solver.neutreeko.solving import _kernel\n"
            "from solver.neutreeko.solving.solve import solve\n"
            "for board in ('3x3', '4x3'):\n"
            "    solve(Game.of(board))\n"
            "for name, value in sorted(vars(_kernel).items()):\n"
            "    if isinstance(value, CPUDispatcher) and value.signatures:\n"
            "        print(name, len(value.signatures), bool(value.targetoptions.get('parallel')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    compiled = [line.split() for line in done.stdout.splitlines()]
    assert {name for name, _, _ in compiled} >= {"_classify", "_collect_rows", "_gather", "_settle_parts", "_drawn"}
    assert all(count == "1" and parallel == "False" for _, count, parallel in compiled), compiled
