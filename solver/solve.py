"""Retrograde analysis: the value and exact distance of every position of a game.

The analysis starts from the positions lost at distance 0 (the side that just moved has won, or the
side to move cannot move) and walks backwards level by level with unmoves: a predecessor of a position
lost in d is won in d + 1; a predecessor of a position won in d loses in d + 1 once all its moves are
known to lead to won positions. Levels are processed in order of distance, so each position is decided
once, at its exact distance (the fastest win; the longest resistance). What is never decided is a draw.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from solver import index
from solver.game import Game
from solver.values import MAX_DISTANCE, UNDECIDED, encode_result

# Positions whose predecessors are gathered in one parallel pass; bounds the scratch buffer.
_CHUNK = 1 << 16


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
    """The outcome of :func:`solve`: one result byte per index (see :mod:`solver.values`)."""

    game: Game
    result: np.ndarray
    seconds: float


def _max_unmoves(game: Game) -> int:
    """An upper bound on one position's predecessors: three pieces, each back along every ray."""
    rays = []
    for square in range(game.board.size):
        total = 0
        for direction in range(8):
            step = square
            while game.board.steps[step][direction] >= 0:
                step = game.board.steps[step][direction]
                total += 1
        rays.append(total)
    return 3 * max(rays)


def solve(game: Game, progress: Callable[[Level], None] | None = None) -> Solution:
    """Solve ``game`` completely. ``progress`` is called once per distance, in increasing order."""
    from solver import _kernel  # numba is imported only when something is solved

    began = time.perf_counter()
    result = np.zeros(game.positions, dtype=np.uint8)
    moves_left = np.zeros(game.positions, dtype=np.uint8)
    triples = index.triples(game.board.size)
    other_count = index.other_count(game.board.size)
    _kernel._classify(game.steps, triples, game.wins, other_count, result, moves_left)

    # One bit per index, set once decided (or illegal): small enough to stay in cache when probed.
    decided = np.packbits(result != UNDECIDED, bitorder="little")
    lost_at_once = np.flatnonzero(result == encode_result(0))
    queue = np.empty(game.positions, dtype=np.int32)  # every position is decided at most once
    queue[:len(lost_at_once)] = lost_at_once
    first, last = 0, len(lost_at_once)
    stride = _max_unmoves(game)
    out = np.empty(_CHUNK * stride, dtype=np.int32)
    counts = np.empty(_CHUNK, dtype=np.int32)

    plies = 0
    while last > first:
        if progress:
            progress(Level(plies, last - first))
        if plies + 1 > MAX_DISTANCE:
            raise OverflowError(f"distance {plies + 1} does not fit the table encoding")
        tail = last
        code = encode_result(plies + 1)
        for chunk in range(first, last, _CHUNK):
            end = min(chunk + _CHUNK, last)
            _kernel._gather(queue, chunk, end, game.steps, triples, other_count, decided, out, counts, stride)
            tail = _kernel._settle(out, counts, stride, end - chunk, plies % 2 == 0, code,
                                   result, decided, moves_left, queue, tail)
        first, last = last, tail
        plies += 1
    return Solution(game, result, time.perf_counter() - began)
