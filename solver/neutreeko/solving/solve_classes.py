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
from typing import Iterator

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
_ROW_BITS = 12
_ROW = 1 << _ROW_BITS
# The predecessors' class numbers are bucketed as int32 up to this number (9 x 9 has 0.8 billion
# classes), as int64 beyond (10 x 10, about 3 billion).
_INT32_CLASSES = np.iinfo(np.int32).max
# A level larger than a slab is counted by within rank in this many buckets, over this many stripes of
# the blocks (the tasks of the parallel count and collection), to cut it into slabs of within ranks.
_BUCKETS = 1 << 10
_STRIPES = 64


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
        _class_kernel._classify(rays, triples, inputs.wins, other_count, arrays, _ROW, 0, state.result(rows * _ROW),
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
    from solver.neutreeko.solving import _kernel

    words, decided, result = state.words, state.decided, state.result(rows * _ROW)
    predecessors = Predecessors(game, inputs, classes, (np.arange(rows) % inputs.parts).astype(np.int32),
                                inputs.parts, rows * _ROW, positions._SLAB)
    out, counts = predecessors.out, predecessors.counts

    def step(found: np.ndarray, fresh: np.ndarray, plies: int) -> None:
        for weight, used in predecessors.of_level(result, words, decided, found, plies):
            _kernel._settle(out, counts, used, plies % 2 == 0, encode_result(plies + 1), weight, result, decided,
                            fresh, _ROW)

    run_levels(state, "classes", classes.count, step, progress, checkpoints)


class Predecessors:
    """The classes of the predecessors of a level's classes, a slab of rows at a time, bucketed by the
    part that owns them (``part_of[row]``, one of ``parts``): the buffers of the passes (some 130 MB on
    9 x 9 with a slab of 2^22 classes) and the passes. ``count`` classes in all (padding included)."""

    def __init__(self, game: Game, inputs: KernelInputs, classes: ClassInputs, part_of: np.ndarray, parts: int,
                 count: int, slab: int) -> None:
        self.inputs, self.classes, self.part_of = inputs, classes, part_of
        #: ``out[part, b * capacity:]``, ``counts[b, part]`` of them: what pass block ``b`` found for ``part``.
        self.out = np.empty((parts, -(-positions._CHUNK // positions._BLOCK) * positions._BLOCK * inputs.max_unmoves),
                            dtype=np.int32 if count <= _INT32_CLASSES else np.int64)
        self.counts = np.empty((-(-positions._CHUNK // positions._BLOCK), parts), dtype=np.int64)
        # The level's class numbers, then their canonical indices, as in the solve over positions; grouped
        # by class size (the weight of their parents' decrements, one per settle), then by their other
        # side's squares where the solve over positions groups them.
        self.level = np.empty(slab + _ROW, dtype=inputs.index_type)
        self.grouped = np.empty_like(self.level)
        self.sizes = np.empty(len(self.level), dtype=np.uint8)
        self.grouping = game.positions >= positions._GROUP_FROM
        self.ranks = np.zeros(len(self.level), dtype=np.min_scalar_type(len(inputs.triples)))
        self.keys = len(inputs.triples) if self.grouping else 1
        self.group = symmetry_count(game.board)
        self.key = np.empty(len(self.level), dtype=np.min_scalar_type((self.group + 1) * self.keys))

    def of_level(self, result: np.ndarray, words: np.ndarray, decided: np.ndarray, found: np.ndarray,
                 plies: int) -> Iterator[tuple[int, int]]:
        """Gather the predecessors of all the classes at distance ``plies`` of ``result`` (``found``, its
        counts per row), a slab at a time, as :meth:`of_slab` does. A level larger than a slab is taken
        in slabs of *within ranks* (:func:`solver.neutreeko.solving._class_kernel._within_bounds`)
        rather than of rows: a slab's classes then share their other side's triples with every class
        of the level that has them, and those classes' predecessors lie in the same few blocks, in
        stretches that the caches hold while they are met. (A slab of rows holds a few dozen classes
        of each triple, and its predecessors lie everywhere.)"""
        from solver.neutreeko.solving import _class_kernel

        slab = len(self.level) - _ROW
        if int(found.sum()) <= slab:
            yield from self.of_slab(result, words, decided, 0, found, 0, len(found), plies)
            return
        arrays, code = self.classes.arrays, encode_result(plies)
        width = -(-self.inputs.other_count // _BUCKETS)
        counts = np.zeros((_STRIPES, _BUCKETS), dtype=np.int64)
        _class_kernel._count_within(result, words, decided, code, arrays, width, counts)
        totals = counts.sum(axis=0)
        if totals.max() > slab:  # one bucket is more than a slab: the rows' slabs, then
            for first, last in positions._slabs(found, slab):
                yield from self.of_slab(result, words, decided, 0, found, first, last, plies)
            return
        for low, high in _runs(totals.tolist(), slab):
            per_stripe = counts[:, low:high].sum(axis=1)
            size = int(per_stripe.sum())
            if size:
                _class_kernel._collect_within(result, words, decided, code, arrays, low * width, high * width,
                                              np.cumsum(per_stripe) - per_stripe, self.level)
                yield from self._passes(size)

    def of_slab(self, result: np.ndarray, words: np.ndarray, decided: np.ndarray, held: int, found: np.ndarray,
                first: int, last: int, plies: int) -> Iterator[tuple[int, int]]:
        """Gather the predecessors of the classes at distance ``plies`` of rows ``first`` to ``last`` of
        ``result`` (``words``, ``decided`` and ``found``, its counts per row, alike), which hold the
        classes from ``held`` on: after each pass, yield the class size of the classes passed (the weight
        of their parents' decrements) and the number of blocks of :attr:`out` filled."""
        from solver.neutreeko.solving import _kernel

        offsets = np.cumsum(found) - found
        _kernel._collect(result, words, decided, encode_result(plies), found, offsets - offsets[first], first, last,
                         _ROW, self.level)
        size = int(found[first:last].sum())
        if held:
            self.level[:size] += held
        yield from self._passes(size)

    def _passes(self, size: int) -> Iterator[tuple[int, int]]:
        """The passes of :meth:`of_slab` over the first ``size`` classes of :attr:`level` (class numbers)."""
        from solver.neutreeko.solving import _class_kernel, _kernel

        inputs, arrays, level, key, keys = self.inputs, self.classes.arrays, self.level, self.key, self.keys
        triples, other_count = inputs.triples, inputs.other_count
        _class_kernel._canonical_positions(level, size, triples, other_count, arrays, self.sizes)
        if self.grouping:
            _kernel._other_ranks(level, size, triples, other_count, self.ranks)
        # In place: the slab's keys and its temporaries would be another 64 MB on 9 x 9.
        np.multiply(self.sizes[:size], keys, out=key[:size], dtype=key.dtype)
        key[:size] += self.ranks[:size]
        firsts = np.cumsum(np.bincount(key[:size], minlength=(self.group + 1) * keys))
        firsts = np.concatenate([[0], firsts[:-1]])
        bounds = firsts[::keys].tolist() + [size]  # where the classes of each size begin
        _kernel._group(level, size, key, firsts, self.grouped)
        chunk = positions._CHUNK
        for weight in range(1, self.group + 1):
            for start in range(bounds[weight], bounds[weight + 1], chunk):
                yield weight, _class_kernel._gather(self.grouped, start, min(start + chunk, bounds[weight + 1]),
                                                    positions._BLOCK, inputs.rays, triples, inputs.weights,
                                                    other_count, arrays, self.part_of, _ROW_BITS,
                                                    self.out, self.counts)


def _runs(counts: list[int], most: int) -> list[tuple[int, int]]:
    """Bounds ``(first, last)`` of runs of consecutive buckets, of ``counts[first:last]`` items, none over
    ``most`` items (no bucket is), each as long as it can be."""
    runs, first, held = [], 0, 0
    for bucket, count in enumerate(counts):
        if held + count > most:
            runs.append((first, bucket))
            first, held = bucket, 0
        held += count
    return runs + [(first, len(counts))]
