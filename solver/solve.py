"""Retrograde analysis: the value and exact distance of every position of a game.

The analysis starts from the positions lost at distance 0 (the side that just moved has won, or the
side to move cannot move) and walks backwards level by level with unmoves: a predecessor of a position
lost in d is won in d + 1; a predecessor of a position won in d loses in d + 1 once all its moves are
known to lead to won positions. Levels are processed in order of distance, so each position is decided
once, at its exact distance (the fastest win; the longest resistance). What is never decided is a draw.
How a level is split between threads is told in :mod:`solver._kernel`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import gcd
from typing import Callable

import numpy as np

from solver import index
from solver.game import Game
from solver.values import MAX_DISTANCE, UNDECIDED, encode_result

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
    """The outcome of :func:`solve`: one result byte per index (see :mod:`solver.values`)."""

    game: Game
    result: np.ndarray
    seconds: float


def _walled_steps(game: Game) -> np.ndarray:
    """``game.steps`` with the squares off the board replaced by one extra square, the wall, whose steps
    lead back to itself (the kernels keep it occupied)."""
    wall = game.board.size
    steps = np.where(game.steps < 0, wall, game.steps)
    return np.vstack([steps, np.full((1, 8), wall)]).astype(np.int32)


def _rays(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """(``rays``, ``stops``) as :mod:`solver._kernel` describes them: per square, the bitmask of each
    ray, the four along which square numbers rise first, and the neighbour opposite each ray."""
    steps = _walled_steps(game)
    wall = game.board.size
    # Square numbers change by a fixed amount per step in a direction, so one step on the board tells.
    rising = [any(wall > steps[square, direction] > square for square in range(wall))
              for direction in range(8)]
    order = [d for d in range(8) if rising[d]] + [d for d in range(8) if not rising[d]]
    rays = np.zeros((wall, 8), dtype=np.int64)
    stops = np.empty((wall, 8), dtype=np.int32)
    for square in range(wall):
        for k, direction in enumerate(order):
            step = steps[square, direction]
            while step != wall:
                rays[square, k] |= 1 << int(step)
                step = steps[step, direction]
            stops[square, k] = steps[square, direction ^ 4]
    return rays, stops


def _max_unmoves(game: Game) -> int:
    """An upper bound on one position's predecessors: three pieces, each back along every ray."""
    rays, _ = _rays(game)
    return 3 * max(sum(bin(int(ray)).count("1") for ray in square) for square in rays)


def _rank_weights(squares: int) -> np.ndarray:
    """``weights[k, s]``: what square ``s`` adds to :func:`index.triple_rank` as a triple's k-th smallest
    square (the rank is a sum of one term per square, and a square 0 adds nothing)."""
    s, zero = np.arange(squares), np.zeros(squares, dtype=np.int64)
    return np.array([index.triple_rank(s, zero, zero), index.triple_rank(zero, s, zero),
                     index.triple_rank(zero, zero, s)], dtype=np.int32)


def _partition(squares: int, parts: int) -> np.ndarray:
    """``part_of[mover rank]``: which of ``parts`` parts settles the indices of that mover rank.

    Parts take turns over runs of ranks that span a multiple of 8 indices, so that they share no byte
    of the decided bits, and each part gets its share of every region of the index (the predecessors
    of a level crowd into some regions more than others)."""
    movers, other_count = len(index.triples(squares)), index.other_count(squares)
    run = 8 // gcd(other_count, 8)
    return (np.arange(movers) // run % parts).astype(np.int32)


def _queue_lost_at_once(result: np.ndarray, part_of: np.ndarray, parts: int, other_count: int):
    """The queue of the positions decided at the latest distance, holding those lost at distance 0:
    each part has its own segment, as long as the part has indices (so it never overflows). Returns
    (queue, where each part's segment starts, where it ends)."""
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


def _level_positions(queue: np.ndarray, first: np.ndarray, last: np.ndarray, triples: np.ndarray,
                     other_count: int, grouped: bool) -> np.ndarray:
    """The positions of the queue segments ``queue[first[p]:last[p]]`` in one array; if ``grouped``,
    ordered by the squares of their other side.

    The predecessors of such a group share two squares of their mover, so they lie in a few stretches
    of the index, and the passes over the level find their bytes and bits still in the caches. That
    pays once the arrays outgrow the caches: a solve takes 8% less time on 6 x 5, 20% less on 6 x 6
    and 37% less on 7 x 7 (45 s instead of 71 s on two cores), while on 5 x 5 grouping costs 5% more
    than it saves."""
    if not grouped:
        return np.concatenate([queue[start:end] for start, end in zip(first, last)])
    from solver import _kernel

    ranks = np.empty(int((last - first).sum()), dtype=np.uint16)  # C(49, 3) ranks at most
    _kernel._other_ranks(queue, first, last, triples, other_count, ranks)
    firsts = np.concatenate([[0], np.cumsum(np.bincount(ranks, minlength=len(triples)))[:-1]])
    level = np.empty(len(ranks), dtype=np.int32)
    _kernel._group(queue, first, last, ranks, firsts, level)
    return level


def solve(game: Game, progress: Callable[[Level], None] | None = None) -> Solution:
    """Solve ``game`` completely. ``progress`` is called once per distance, in increasing order.

    Raises :class:`OverflowError` if a distance does not fit the result byte."""
    import numba  # numba is imported only when something is solved

    from solver import _kernel

    began = time.perf_counter()
    squares = game.board.size
    triples = index.triples(squares)
    other_count = index.other_count(squares)
    result = np.zeros(game.positions, dtype=np.uint8)
    moves_left = np.zeros(game.positions, dtype=np.uint8)
    _kernel._classify(_walled_steps(game), triples, game.wins, other_count, result, moves_left)
    # One bit per index, set once decided (or illegal): an eighth of `result`, so probes of it hit the
    # caches far more often.
    decided = np.packbits(result != UNDECIDED, bitorder="little")

    threads = numba.get_num_threads()
    part_of = _partition(squares, threads)
    queue, heads, tails = _queue_lost_at_once(result, part_of, threads, other_count)
    rays, stops = _rays(game)
    weights = _rank_weights(squares)
    blocks = -(-_CHUNK // _BLOCK)
    out = np.empty((threads, blocks * _BLOCK * _max_unmoves(game)), dtype=np.int32)
    counts = np.empty((blocks, threads), dtype=np.int64)
    plies = 0
    while (count := int((tails - heads).sum())) > 0:
        if progress:
            progress(Level(plies, count))
        if plies + 1 > MAX_DISTANCE:
            raise OverflowError(f"distance {plies + 1} does not fit the table encoding")
        level = _level_positions(queue, heads, tails, triples, other_count, game.positions >= _GROUP_FROM)
        tails = heads.copy()  # the next level refills the segments: memory touched for one level only
        code = encode_result(plies + 1)
        for chunk in range(0, count, _CHUNK):
            used = _kernel._gather(level, chunk, min(chunk + _CHUNK, count), _BLOCK, rays, stops, triples,
                                   weights, other_count, decided, part_of, out, counts)
            _kernel._settle(out, counts, used, plies % 2 == 0, code, result, decided, moves_left, queue,
                            tails)
        plies += 1
    return Solution(game, result, time.perf_counter() - began)
