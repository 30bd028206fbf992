"""The solve over symmetry classes (issue 21): its bytes are the folded table of the full solve, which
unfolds to the committed digests of ``solver/neutreeko/tables/table-digests.csv`` (independent evidence: those digests
were written from full solves, and the forward check confirmed every one of those tables); its counts are
those of the full table; its class arithmetic agrees with the numpy numbering of
:mod:`solver.neutreeko.tables.folding` position by position."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from solver.core.storage.container import digest
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import class_sizes, triple_images
from solver.neutreeko.solving import _class_kernel
from solver.neutreeko.solving import solve as solve_module
from solver.neutreeko.solving import solve_classes as classes_module
from solver.neutreeko.solving.class_inputs import ClassInputs
from solver.neutreeko.solving.kernel_inputs import KernelInputs
from solver.neutreeko.solving.solve_classes import solve_classes
from solver.neutreeko.tables.digests import committed
from solver.neutreeko.tables.folding import Classes, fold, unfold
from solver.neutreeko.tables.stats import summarize
from solver.neutreeko.tables.table import open_table, write_table
from tests.helpers import invoke

pytestmark = pytest.mark.kernel

#: Every board and rule of the committed digests up to this many indices (6 x 5, 7 x 4 and smaller) is
#: solved here over classes, those beyond :data:`QUICK` (5 x 5 and up) marked slow; 6 x 6 too, slow.
SOLVED_HERE = 10_000_000
QUICK = 2_000_000


def _committed() -> dict[tuple[str, str], str]:
    return {key: digest for key, (indices, digest) in committed().items() if indices <= SOLVED_HERE}


def _cases() -> list:
    return [pytest.param(*key, marks=[pytest.mark.slow] if committed()[key][0] > QUICK else [])
            for key in _committed()]


def _unfolds_to_the_committed_digest(board: str, rule: str, expected: str) -> None:
    game = Game.of(board, rule)
    solution = solve_classes(game)
    assert len(solution.folded) == Classes.of(game).count
    full = unfold(game, solution.folded)
    assert digest(full) == expected
    assert solution.summary == summarize(game, full)


@pytest.mark.parametrize("board, rule", _cases())
def test_the_class_solve_unfolds_to_the_committed_digest(board, rule):
    _unfolds_to_the_committed_digest(board, rule, _committed()[(board, rule)])


@pytest.mark.slow
def test_6x6_over_classes_unfolds_to_the_committed_digest():
    _unfolds_to_the_committed_digest("6x6", "connected", committed()[("6x6", "connected")][1])


def test_the_class_solve_is_the_fold_of_the_full_solve(solved_5x5):
    game = solved_5x5.game
    assert np.array_equal(solve_classes(game).folded, fold(game, solved_5x5.result))


@pytest.mark.parametrize("board, rule, buckets", [("5x4", "diagonal", 1 << 10), ("4x4", "connected", 1 << 10),
                                                  ("3x7", "equidistant", 1 << 10), ("4x4", "connected", 1)])
def test_the_paths_of_large_boards_give_the_same_classes(board, rule, buckets, monkeypatch):
    """What only large boards do, forced on small ones: grouping, many slabs, chunks and rows, indices
    and class numbers as int64, levels in slabs of within ranks (or, with one bucket, which then holds
    more than a slab, in slabs of rows). The bytes must not change."""
    game = Game.of(board, rule)
    expected = solve_classes(game).folded.copy()
    collected = []
    collect = _class_kernel._collect_within
    monkeypatch.setattr(_class_kernel, "_collect_within", lambda *arguments: collected.append(collect(*arguments)))
    monkeypatch.setattr(classes_module, "_BUCKETS", buckets)
    monkeypatch.setattr(solve_module, "_GROUP_FROM", 0)
    monkeypatch.setattr(solve_module, "_SLAB", 1000)
    monkeypatch.setattr(solve_module, "_CHUNK", 1 << 10)
    monkeypatch.setattr(classes_module, "_ROW", 8)
    monkeypatch.setattr(classes_module, "_INT32_CLASSES", 0)
    narrow = KernelInputs.of

    def wide(game: Game, parts: int = 1) -> KernelInputs:
        return dataclasses.replace(narrow(game, parts), index_type=np.int64)

    monkeypatch.setattr(KernelInputs, "of", wide)
    assert np.array_equal(solve_classes(game).folded, expected)
    assert (len(collected) > 10) == (buckets > 1)


@pytest.mark.parametrize("counts, most", [([3, 1, 4, 1, 5, 9, 2, 6], 9), ([0, 0, 7], 7), ([5], 5), ([2, 2, 2, 2], 4)])
def test_runs_of_buckets_hold_at_most_a_slab_and_are_as_long_as_they_can_be(counts, most):
    runs = classes_module._runs(counts, most)
    assert runs[0][0] == 0 and runs[-1][1] == len(counts)
    assert all(a[1] == b[0] for a, b in zip(runs, runs[1:]))
    assert all(sum(counts[first:last]) <= most for first, last in runs)
    assert all(sum(counts[first:last + 1]) > most for first, last in runs[:-1])


@pytest.mark.parametrize("board", ["4x4", "5x5", "4x3", "3x5"])
def test_class_of_a_position_is_the_folding_number(board):
    """The kernel's class of a position (its mover's triple rank and the other side's squares), and the
    size of each class, against the numpy numbering of folding and symmetry: on every index of the
    small boards, on every index of the rows of symmetric mover triples and 20,000 others on 5 x 5."""
    game = Game.of(board)
    inputs, classes = KernelInputs.of(game), ClassInputs.of(game)
    every = np.arange(game.positions, dtype=np.int64)
    if game.positions > 200_000:
        rows = every // index.other_count(game.board.size)
        symmetric = np.isin(rows, np.flatnonzero(np.count_nonzero(triple_images(game.board) == np.arange(len(game.wins)),
                                                                  axis=0) > 1))
        every = np.union1d(every[symmetric], np.random.default_rng(21).choice(every, 20_000, replace=False))
    expected = Classes.of(game).numbers(every)
    mover, other = index.decode(every, game.board.size)
    images = np.empty((len(classes.arrays.symmetries), 3), dtype=np.int64)

    def class_of(mover: int, a: int, b: int, c: int) -> int:
        _class_kernel._sorted_images(a, b, c, classes.arrays.symmetries, images)
        return int(_class_kernel._class_of(mover, images, classes.arrays))

    found = np.array([class_of(int(r), a, b, c)
                      for r, (a, b, c) in zip(every // index.other_count(game.board.size), other.tolist())])
    assert np.array_equal(found, expected)
    canonical = Classes.of(game).canonical()
    sizes = np.empty(len(canonical), dtype=np.int64)
    _class_kernel._canonical_positions(np.arange(len(canonical), dtype=np.int64), len(canonical), inputs.triples,
                                       inputs.other_count, classes.arrays, sizes)
    assert np.array_equal(sizes, class_sizes(canonical, game.board))
    assert (sizes < 8).any() if game.board.width == game.board.height else (sizes < 4).any()


def test_solve_fold_writes_the_table_that_folding_the_full_one_writes(tmp_path, solved_5x5):
    game = solved_5x5.game
    write_table(game, solved_5x5.result, tmp_path / "from-full.h5", 1.0, fold=True)
    result = invoke("solve", "--board", "5x5", "--fold", "--out", str(tmp_path / "over-classes.h5"))
    assert result.exit_code == 0, result.output
    full, classes = open_table(game, tmp_path / "from-full.h5"), open_table(game, tmp_path / "over-classes.h5")
    assert classes.folded
    skipped = {"solve_seconds", "written", "writer"}
    assert ({key: value for key, value in classes.attributes.items() if key not in skipped}
            == {key: value for key, value in full.attributes.items() if key not in skipped})
    assert np.array_equal(classes.result, solved_5x5.result)
