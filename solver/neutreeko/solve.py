"""Retrograde analysis: the value and exact distance of every position of a game.

The analysis starts from the positions lost at distance 0 (the side that just moved has won, or the
side to move cannot move) and walks backwards level by level with unmoves: a predecessor of a position
lost in d is won in d + 1; a predecessor of a position won in d loses in d + 1 once all its moves are
known to lead to won positions. Levels are processed in order of distance, so each position is decided
once, at its exact distance (the fastest win; the longest resistance). What is never decided is a draw.
How a level is split between threads is told in :mod:`solver.neutreeko._kernel`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from solver.neutreeko.game import Game
from solver.neutreeko.kernel_inputs import KernelInputs
from solver.neutreeko.values import MAX_DISTANCE, UNDECIDED, encode_result

# Positions whose predecessors are gathered in one parallel pass; bounds the scratch buffers, one per
# thread (on 5 x 5, 2 threads x 2^15 positions x 48 predecessors x 4 bytes: 12 MB, mostly untouched).
_CHUNK = 1 << 15
# Positions per work item of that pass: large enough that a part's predecessors lie in long runs.
_BLOCK = 1 << 9
# Boards with at least this many indices (6 x 5 and up, not 5 x 5) have the positions of each level
# grouped before the passes over them (see _level_positions).
_GROUP_FROM = 1 << 23


@dataclass(frozen=True)
class Level:
    """One step of the analysis: ``count`` positions decided at distance ``plies``."""

    plies: int
    count: int

    @property
    def won(self) -> bool:
        """Odd distances are wins for the side to move, even ones losses."""
        return self.plies % 2 == 1


@dataclass(frozen=True)
class Solution:
    """The outcome of :func:`solve`: one result byte per index (see :mod:`solver.neutreeko.values`)."""

    game: Game
    result: np.ndarray
    seconds: float


def _queue_lost_at_once(result: np.ndarray, inputs: KernelInputs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The queue of the positions decided at the latest distance, holding those lost at distance 0:
    each part has its own segment, as long as the part has indices (so it never overflows). Returns
    (queue, where each part's segment starts, where it ends)."""
    part_of, parts, other_count = inputs.part_of, inputs.parts, inputs.other_count
    sizes = np.bincount(part_of, minlength=parts) * other_count
    heads = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    tails = heads.copy()
    queue = np.empty(len(result), dtype=np.int32)
    lost = np.flatnonzero(result == encode_result(0))
    lost_part = part_of[lost // other_count]
    for part in range(parts):
        mine = lost[lost_part == part]
        queue[tails[part]:tails[part] + len(mine)] = mine
        tails[part] += len(mine)
    return queue, heads, tails


def _level_positions(queue: np.ndarray, first: np.ndarray, last: np.ndarray, inputs: KernelInputs,
                     grouped: bool) -> np.ndarray:
    """The positions of the queue segments ``queue[first[p]:last[p]]`` in one array; if ``grouped``,
    ordered by the squares of their other side.

    The predecessors of such a group share two squares of their mover, so they lie in a few stretches
    of the index, and the passes over the level find their bytes and bits still in the caches. That
    pays once the arrays outgrow the caches: a solve takes 8% less time on 6 x 5, 20% less on 6 x 6
    and 37% less on 7 x 7 (45 s instead of 71 s on two cores), while on 5 x 5 grouping costs 5% more
    than it saves."""
    if not grouped:
        return np.concatenate([queue[start:end] for start, end in zip(first, last)])
    from solver.neutreeko import _kernel
    triples = inputs.triples
    ranks = np.empty(int((last - first).sum()), dtype=np.min_scalar_type(len(triples)))
    _kernel._other_ranks(queue, first, last, triples, inputs.other_count, ranks)
    firsts = np.concatenate([[0], np.cumsum(np.bincount(ranks, minlength=len(triples)))[:-1]])
    level = np.empty(len(ranks), dtype=np.int32)
    _kernel._group(queue, first, last, ranks, firsts, level)
    return level


def solve(game: Game, progress: Callable[[Level], None] | None = None) -> Solution:
    """Solve ``game`` completely. ``progress`` is called once per distance, in increasing order.

    Raises :class:`OverflowError` if a distance does not fit the result byte."""
    import numba  # numba is imported only when something is solved

    from solver.neutreeko import _kernel

    began = time.perf_counter()
    inputs = KernelInputs.of(game, numba.get_num_threads())
    triples, other_count = inputs.triples, inputs.other_count
    result = np.zeros(game.positions, dtype=np.uint8)
    moves_left = np.zeros(game.positions, dtype=np.uint8)
    _kernel._classify(inputs.steps, triples, inputs.wins, other_count, result, moves_left)
    # One bit per index, set once decided (or illegal): an eighth of `result`, so probes of it hit the
    # caches far more often.
    decided = np.packbits(result != UNDECIDED, bitorder="little")

    queue, heads, tails = _queue_lost_at_once(result, inputs)
    blocks = -(-_CHUNK // _BLOCK)
    out = np.empty((inputs.parts, blocks * _BLOCK * inputs.max_unmoves), dtype=np.int32)
    counts = np.empty((blocks, inputs.parts), dtype=np.int64)
    plies = 0
    while (count := int((tails - heads).sum())) > 0:
        if progress:
            progress(Level(plies, count))
        if plies + 1 > MAX_DISTANCE:
            raise OverflowError(f"distance {plies + 1} does not fit the table encoding")
        level = _level_positions(queue, heads, tails, inputs, game.positions >= _GROUP_FROM)
        tails = heads.copy()  # the next level refills the segments: memory touched for one level only
        code = encode_result(plies + 1)
        for chunk in range(0, count, _CHUNK):
            used = _kernel._gather(level, chunk, min(chunk + _CHUNK, count), _BLOCK, inputs.rays, inputs.stops,
                                   triples, inputs.weights, other_count, decided, inputs.part_of, out, counts)
            _kernel._settle(out, counts, used, plies % 2 == 0, code, result, decided, moves_left, queue,
                            tails)
        plies += 1
    return Solution(game, result, time.perf_counter() - began)
