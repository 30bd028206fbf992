"""Retrograde analysis over symmetry classes: the folded table of a game, solved in a state of 1.125
bytes per class instead of per index (about an eighth on a square board, a quarter on another).

The analysis is that of :mod:`solver.neutreeko.solving.solve`, level by level from the positions lost at distance
0, on the canonical position of each class (:mod:`solver.neutreeko.tables.folding`): a class is decided when its
canonical position is, and every position of a class has its value. How a class's count of moves
counts every move, two moves to twins of one class included, and is lowered exactly once per move is
told in :mod:`solver.neutreeko.solving._class_kernel`. The bytes at the end are, class for class, those that
:func:`solver.neutreeko.tables.folding.fold` takes from the full solve: the folded table itself, which unfolds
to the full one (``tests/neutreeko/solving/test_solve_classes.py`` checks both on every board up to 6 x 6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.neutreeko.model.children import SLOTS
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import symmetry_count
from solver.neutreeko.model.values import encode_result
from solver.neutreeko.solving import solve as positions
from solver.neutreeko.solving.checkpoint import Checkpoints
from solver.neutreeko.solving.class_inputs import ClassInputs
from solver.neutreeko.solving.kernel_inputs import KernelInputs
from solver.neutreeko.solving.levels import Layout, Progress, State, run_levels
from solver.neutreeko.tables.stats import Summary, summarize_folded

# Classes per row of the state (a count of the level's classes each, and one part's to settle): a
# multiple of 8, so that rows share no byte of the decided bits, and small enough that the parts share
# every region of the classes.
_ROW = 1 << 12
# The predecessors' class numbers are bucketed as int32 up to this number (9 x 9 has 0.8 billion
# classes), as int64 beyond (10 x 10, about 3 billion).
_INT32_CLASSES = np.iinfo(np.int32).max


@dataclass(frozen=True)
class FoldedSolution:
    """The outcome of :func:`solve_classes`: one result byte per legal class, in the order of
    :mod:`solver.neutreeko.tables.folding` (a folded table's data), and the counts of the positions."""

    game: Game
    folded: np.ndarray
    summary: Summary
    seconds: float


def solve_classes(game: Game, progress: Progress | None = None,
                  checkpoints: Checkpoints | None = None) -> FoldedSolution:
    """Solve ``game`` completely over its symmetry classes, as :func:`solver.neutreeko.solving.solve.solve` does
    over positions (``progress`` counts classes; ``checkpoints`` alike).

    Raises :class:`OverflowError` if a distance does not fit the result byte, and
    :class:`~solver.neutreeko.solving.checkpoint.StateError` for a saved state that cannot be taken up."""
    import numba  # numba is imported only when something is solved

    from solver.neutreeko.solving import _class_kernel, _kernel

    inputs = KernelInputs.of(game, numba.get_num_threads())
    classes = ClassInputs.of(game)
    arrays, triples, other_count, rays = classes.arrays, inputs.triples, inputs.other_count, inputs.rays
    rows = -(-classes.count // _ROW)
    new = State(np.empty(rows * _ROW // 8, dtype=np.uint64), np.zeros(rows * _ROW // 8, dtype=np.uint8),
                np.zeros(rows, dtype=np.int64))
    # Every class counts the moves of each of its positions (see _class_kernel): up to SLOTS of each.
    layout = Layout(_ROW, np.zeros(rows, dtype=bool), classes.count, SLOTS * symmetry_count(game.board))
    state = checkpoints.load(new, layout) if checkpoints is not None else None
    if state is None:
        state = new
        _class_kernel._classify(rays, triples, inputs.wins, other_count, arrays, _ROW, state.result(rows * _ROW),
                                state.decided, state.fresh)
    _solve_levels(game, inputs, classes, state, rows, progress, checkpoints)
    result = state.result(rows * _ROW)
    _kernel._undecided_are_drawn(result, state.decided)
    folded = result[:classes.count]
    return FoldedSolution(game, folded, summarize_folded(game, folded), state.seconds)


def _solve_levels(game: Game, inputs: KernelInputs, classes: ClassInputs, state: State, rows: int,
                  progress: Progress | None, checkpoints: Checkpoints | None) -> None:
    """Decide the classes of ``state`` (``rows`` rows of classes) level by level, as far as they go; the
    levels' buffers (some 130 MB on 9 x 9) live only while the levels run."""
    from solver.neutreeko.solving import _class_kernel, _kernel

    arrays, triples, other_count, rays = classes.arrays, inputs.triples, inputs.other_count, inputs.rays
    words, decided, result = state.words, state.decided, state.result(rows * _ROW)
    part_of = (np.arange(rows) % inputs.parts).astype(np.int32)
    class_type = np.int32 if rows * _ROW <= _INT32_CLASSES else np.int64

    # The level's class numbers, then their canonical indices, as in the solve over positions; grouped
    # by class size (the weight of their parents' decrements, one per settle), then by their other
    # side's squares where the solve over positions groups them.
    slab = positions._SLAB
    level = np.empty(slab + _ROW, dtype=inputs.index_type)
    grouped = np.empty_like(level)
    sizes = np.empty(len(level), dtype=np.uint8)
    grouping = game.positions >= positions._GROUP_FROM
    ranks = np.zeros(len(level), dtype=np.min_scalar_type(len(triples)))
    keys = len(triples) if grouping else 1
    group = symmetry_count(game.board)
    key = np.empty(len(level), dtype=np.min_scalar_type((group + 1) * keys))
    block, chunk = positions._BLOCK, positions._CHUNK
    blocks = -(-chunk // block)
    out = np.empty((inputs.parts, blocks * block * inputs.max_unmoves), dtype=class_type)
    counts = np.empty((blocks, inputs.parts), dtype=np.int64)

    def step(found: np.ndarray, fresh: np.ndarray, plies: int) -> None:
        offsets = np.cumsum(found) - found
        for first, last in positions._slabs(found):
            _kernel._collect(result, words, decided, encode_result(plies), found, offsets - offsets[first], first, last,
                             _ROW, level)
            size = int(found[first:last].sum())
            _class_kernel._canonical_positions(level, size, triples, other_count, arrays, sizes)
            if grouping:
                _kernel._other_ranks(level, size, triples, other_count, ranks)
            # In place: the slab's keys and its temporaries would be another 64 MB on 9 x 9.
            np.multiply(sizes[:size], keys, out=key[:size], dtype=key.dtype)
            key[:size] += ranks[:size]
            firsts = np.cumsum(np.bincount(key[:size], minlength=(group + 1) * keys))
            firsts = np.concatenate([[0], firsts[:-1]])
            bounds = firsts[::keys].tolist() + [size]  # where the classes of each size begin
            _kernel._group(level, size, key, firsts, grouped)
            for weight in range(1, group + 1):
                for start in range(bounds[weight], bounds[weight + 1], chunk):
                    used = _class_kernel._gather(grouped, start, min(start + chunk, bounds[weight + 1]), block, rays,
                                                 triples, inputs.weights, other_count, arrays, decided, part_of, _ROW,
                                                 out, counts)
                    _kernel._settle(out, counts, used, plies % 2 == 0, encode_result(plies + 1), weight, result,
                                    decided, fresh, _ROW)

    run_levels(state, "classes", classes.count, step, progress, checkpoints)
