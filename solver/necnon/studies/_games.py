"""The numba kernel that samples whole games for the survey: each side plays perfectly (the table's best
turn) or at random, from the empty board to the end.

It reads a solved table as arrays (``keys`` sorted, ``margins``, ``turns``: the columns of
:data:`solver.necnon.solving.solve.RECORD`) and the arrays of :class:`solver.necnon.solving.solve.KernelInputs`; a
position is found by binary search on its canonical key (:mod:`solver.necnon.model.keys`).
"""

from __future__ import annotations

import numpy as np

from solver.core.jit import njit
from solver.necnon.model import _rules
from solver.necnon.solving._kernel import _better, _image


@njit(cache=True)
def _canonical(black, green, flags, byte_images, cells):
    n = np.uint64(cells)
    best = np.uint64(0xFFFFFFFFFFFFFFFF)
    for g in range(byte_images.shape[0]):
        key = _image(byte_images, g, black) | _image(byte_images, g, green) << n | flags << (n + n)
        if key < best:
            best = key
    return best


@njit(cache=True)
def _child_value(black, green, black_to_move, laid, byte_images, cells, keys, margins, turns):
    """(gain for the mover, turns from the parent) of the child that lays the stones of ``laid``."""
    child_black, child_green = (black | laid, green) if black_to_move else (black, green | laid)
    flags = np.uint64(1) if black_to_move else np.uint64(0)  # the other side to move, no pass
    row = np.searchsorted(keys, _canonical(child_black, child_green, flags, byte_images, cells))
    margin = np.int64(margins[row])
    return (margin if black_to_move else -margin), np.int64(turns[row]) + 1


@njit(cache=True)
def _perfect(black, green, black_to_move, allowed, count, byte_images, cells, keys, margins, turns):
    """The mover's best turn as :meth:`solver.necnon.querying.probe.Tablebase.turns` ranks it first (ties: the
    first in cell order): its cells (i, j), j = -1 for one stone."""
    one = np.uint64(1)
    best_i, best_j, best_gain, best_turns = -1, -1, 0, -1
    if count == 1 or (black | green) == 0:  # one stone
        for a in range(count):
            gain, after = _child_value(black, green, black_to_move, one << np.uint64(allowed[a]), byte_images,
                                       cells, keys, margins, turns)
            if best_turns < 0 or _better(gain, after, best_gain, best_turns):
                best_i, best_gain, best_turns = allowed[a], gain, after
        return best_i, best_j
    for a in range(count):
        for b in range(a + 1, count):
            laid = one << np.uint64(allowed[a]) | one << np.uint64(allowed[b])
            gain, after = _child_value(black, green, black_to_move, laid, byte_images, cells, keys, margins, turns)
            if best_turns < 0 or _better(gain, after, best_gain, best_turns):
                best_i, best_j, best_gain, best_turns = allowed[a], allowed[b], gain, after
    return best_i, best_j


@njit(cache=True)
def sample(neighbours, byte_images, nec, keys, margins, turns, perfect, count, seed, out):
    """Play ``count`` games from the empty board and write each final margin (Black minus Green) to
    ``out``. ``perfect[0]``, ``perfect[1]``: whether Black, Green plays the table's best turn; a side
    that does not plays uniformly random turns (two distinct allowed cells, one if only one is
    allowed or on the first turn, a pass if none is). ``seed`` seeds the random turns."""
    np.random.seed(seed)
    cells = neighbours.shape[0]
    one = np.uint64(1)
    board = np.empty(cells, dtype=np.int8)
    allowed = np.empty(cells, dtype=np.int64)
    seen = np.empty(cells, dtype=np.bool_)
    stack = np.empty(cells, dtype=np.int64)
    for game in range(count):
        board[:] = _rules.EMPTY
        black, green = np.uint64(0), np.uint64(0)
        black_to_move, passes, stones = True, 0, 0
        while passes < 2 and stones < cells:
            found = _rules.allowed_cells(board, black_to_move, nec, neighbours, allowed)
            if found == 0:
                passes += 1
                black_to_move = not black_to_move
                continue
            if perfect[0 if black_to_move else 1]:
                first, second = _perfect(black, green, black_to_move, allowed, found, byte_images, cells, keys,
                                         margins, turns)
            elif found == 1 or stones == 0:
                first, second = allowed[np.random.randint(found)], -1
            else:
                a = np.random.randint(found)
                b = np.random.randint(found - 1)
                first, second = allowed[a], allowed[b + 1 if b >= a else b]
            stone = _rules.BLACK if black_to_move else _rules.GREEN
            laid = one << np.uint64(first)
            board[first] = stone
            stones += 1
            if second >= 0:
                laid |= one << np.uint64(second)
                board[second] = stone
                stones += 1
            if black_to_move:
                black |= laid
            else:
                green |= laid
            passes = 0
            black_to_move = not black_to_move
        out[game] = _rules.margin(board, neighbours, seen, stack)
