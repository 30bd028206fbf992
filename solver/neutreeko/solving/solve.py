"""Retrograde analysis: the value and exact distance of every position of a game.

The analysis starts from the positions lost at distance 0 (the side that just moved has won, or the
side to move cannot move) and walks backwards level by level with unmoves: a predecessor of a position
lost in d is won in d + 1; a predecessor of a position won in d loses in d + 1 once all its moves are
known to lead to won positions. Levels are processed in order of distance, so each position is decided
once, at its exact distance (the fastest win; the longest resistance). What is never decided is a draw.
How a level is split between threads is told in :mod:`solver.neutreeko.solving._kernel`, the loop over levels
(progress, saved states) in :mod:`solver.neutreeko.solving.levels`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.neutreeko.model.children import SLOTS
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.values import encode_result
from solver.neutreeko.solving.checkpoint import Checkpoints
from solver.neutreeko.solving.kernel_inputs import KernelInputs, run_length
from solver.neutreeko.solving.levels import Layout, Progress, State, run_levels
from solver.neutreeko.solving.spread import spread

# Positions whose predecessors are gathered in one parallel pass; bounds the scratch buffers, one per
# part (on 5 x 5, 2 parts x 2^15 positions x 48 predecessors x 4 bytes: 12 MB, mostly untouched).
_CHUNK = 1 << 15
# Positions per work item of that pass: large enough that a part's predecessors lie in long runs.
_BLOCK = 1 << 9
# Positions of a level collected at a time (a slab of rows, a row whole): 2^22 of them, 32 MB as int64.
_SLAB = 1 << 22
# Boards with at least this many indices (6 x 5 and up, not 5 x 5) have the positions of each slab
# grouped by their other side's squares before the passes over them (see solve()).
_GROUP_FROM = 1 << 23


@dataclass(frozen=True)
class Solution:
    """The outcome of :func:`solve`: one result byte per index (see :mod:`solver.neutreeko.model.values`)."""

    game: Game
    result: np.ndarray
    seconds: float


def _slabs(fresh: np.ndarray, slab: int | None = None) -> list[tuple[int, int]]:
    """Bounds ``(first, last)`` of runs of rows (mover ranks) holding about ``slab`` (:data:`_SLAB`
    unless given) positions of the level each (a row whole, so at most ``slab`` plus a row), skipping
    rows with none."""
    slab = _SLAB if slab is None else slab  # read when called: the tests make it small
    rows = np.flatnonzero(fresh)
    if len(rows) == 0:
        return []
    ends = np.cumsum(fresh[rows])
    cuts = np.searchsorted(ends, np.arange(slab, int(ends[-1]), slab), side="left") + 1
    bounds = np.unique(np.concatenate([[0], cuts, [len(rows)]]))
    return [(int(rows[a]), int(rows[b - 1]) + 1) for a, b in zip(bounds[:-1], bounds[1:])]


def solve(game: Game, progress: Progress | None = None, checkpoints: Checkpoints | None = None) -> Solution:
    """Solve ``game`` completely. ``progress`` is called once per distance, in increasing order; the
    state is saved to ``checkpoints``, and taken up from them, as :mod:`solver.neutreeko.solving.checkpoint` says.

    Raises :class:`OverflowError` if a distance does not fit the result byte, and
    :class:`~solver.neutreeko.solving.checkpoint.StateError` for a saved state that cannot be taken up."""
    import numba  # numba is imported only when something is solved

    from solver.neutreeko.solving import _kernel

    threads = numba.get_num_threads()
    inputs = KernelInputs.of(game, threads)
    triples, other_count, rays = inputs.triples, inputs.other_count, inputs.rays
    # Whole 8-byte words, so that levels are looked for 8 bytes at a time.
    new = State(np.empty(-(-game.positions // 8), dtype=np.uint64), np.zeros(-(-game.positions // 8), dtype=np.uint8),
                np.zeros(len(triples), dtype=np.int64))  # fresh[rank]: the latest level's in that row
    layout = Layout(other_count, inputs.wins, game.positions, SLOTS)
    state = checkpoints.load(new, layout) if checkpoints is not None else None
    if state is None:
        state = new
        run, classified = run_length(game.board.size), state.result(game.positions)
        spread(lambda a, b: _kernel._classify(a, b, rays, triples, inputs.wins, other_count, run, classified,
                                              state.decided, state.fresh), 0, -(-len(triples) // run), threads)
    words, decided, result = state.words, state.decided, state.result(game.positions)

    level = np.empty(_SLAB + other_count, dtype=inputs.index_type)
    # The parents of positions that share their other side's squares lie in a few rows (those of the
    # triples it reaches by one unmove), and those of one slab in a narrow band of each row, so once
    # grouped they are met together, where the caches (and the address translations) still hold them.
    # That pays once the arrays outgrow the caches, while on 5 x 5 grouping costs more than it saves.
    grouping = game.positions >= _GROUP_FROM
    grouped = np.empty_like(level) if grouping else level
    ranks = np.empty(len(level) if grouping else 0, dtype=np.min_scalar_type(len(triples)))
    blocks = -(-_CHUNK // _BLOCK)
    out = np.empty((inputs.parts, blocks * _BLOCK * inputs.max_unmoves), dtype=inputs.index_type)
    counts = np.empty((blocks, inputs.parts), dtype=np.int64)

    def step(found: np.ndarray, fresh: np.ndarray, plies: int) -> None:
        offsets = np.cumsum(found) - found
        for first, last in _slabs(found):
            code, starts = encode_result(plies), offsets - offsets[first]
            spread(lambda a, b: _kernel._collect_rows(result, words, decided, code, found, starts, a, b, other_count,
                                                      level), first, last, threads)
            size = int(found[first:last].sum())
            if grouping:
                spread(lambda a, b: _kernel._other_ranks_of(a, b, level, triples, other_count, ranks), 0, size, threads)
                sizes = np.bincount(ranks[:size], minlength=len(triples))
                _kernel._group(level, size, ranks, np.cumsum(sizes) - sizes, grouped)
            for chunk in range(0, size, _CHUNK):
                end = min(chunk + _CHUNK, size)
                used = -(-(end - chunk) // _BLOCK)
                spread(lambda a, b: _kernel._gather(a, b, grouped, chunk, end, _BLOCK, rays, triples, inputs.weights,
                                                    other_count, decided, inputs.part_of, out, counts), 0, used, threads)
                spread(lambda a, b: _kernel._settle_parts(a, b, out, counts, used, plies % 2 == 0,
                                                          encode_result(plies + 1), 1, result, decided, fresh,
                                                          other_count), 0, inputs.parts, threads)

    legal = int(np.count_nonzero(~inputs.wins)) * other_count
    run_levels(state, "positions", legal, step, progress, checkpoints)
    spread(lambda a, b: _kernel._drawn(a, b, result, decided), 0, len(decided), threads)
    return Solution(game, result, state.seconds)
