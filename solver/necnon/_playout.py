"""The numba kernel of the search engine's playouts: random play from a position to the end of the
game, on a board of one byte per cell (see :mod:`solver.necnon._rules`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.necnon import _rules


@njit(cache=True)
def seed(value):
    """Seed the generator of :func:`playouts` (numba keeps its own, apart from numpy's)."""
    np.random.seed(value)


@njit(cache=True, nogil=True)
def playouts(board, black_to_move, passes, nec, neighbours, count, margins, final):
    """Play ``count`` random games from the position (``board``, the side to move, the passes just
    made) to the end and write each final margin (Black minus Green) to ``margins``, the last game's
    final board to ``final``. Each turn lays
    stones on allowed cells drawn uniformly (two distinct ones, one if only one is allowed or the
    board is empty) or passes when none is allowed."""
    cells = len(board)
    play = np.empty(cells, dtype=np.int8)
    allowed = np.empty(cells, dtype=np.int64)
    seen = np.empty(cells, dtype=np.bool_)
    stack = np.empty(cells, dtype=np.int64)
    for game in range(count):
        play[:] = board
        black, run = black_to_move, passes
        stones = cells - _rules.empty_cells(play)
        while run < 2 and stones < cells:
            found = _rules.allowed_cells(play, black, nec, neighbours, allowed)
            stone = _rules.BLACK if black else _rules.GREEN
            if found == 0:
                run += 1
            elif found == 1 or stones == 0:
                play[allowed[np.random.randint(found)]] = stone
                stones += 1
                run = 0
            else:
                first = np.random.randint(found)
                second = np.random.randint(found - 1)
                if second >= first:
                    second += 1
                play[allowed[first]] = stone
                play[allowed[second]] = stone
                stones += 2
                run = 0
            black = not black
        margins[game] = _rules.margin(play, neighbours, seen, stack)
    final[:] = play
