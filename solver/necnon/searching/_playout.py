"""The numba kernel of the search engine's playouts: random play from a position to the end of the
game, on a board of one byte per cell (see :mod:`solver.necnon.model._rules`)."""

from __future__ import annotations

import numpy as np

from solver.core.jit import njit
from solver.necnon.model import _rules


@njit(cache=True)
def seed(value):
    """Seed the generator of :func:`playout` (numba keeps its own, apart from numpy's, one a thread)."""
    np.random.seed(value)


@njit(cache=True, nogil=True)
def playout(board, black_to_move, passes, nec, neighbours, final, laid):
    """Play a random game from the position (``board``, the side to move, the passes just made) to the
    end; return its final margin (Black minus Green), write its final board to ``final`` and the turn
    in which each stone was laid to ``laid`` (1 for the first turn played, 0 for the stones of the
    position, -1 for the cells left empty; a pass is a turn). Each turn
    lays stones on allowed cells drawn uniformly (two distinct ones, one if only one is allowed or the
    board is empty) or passes when none is allowed.

    Rather than count each empty cell's enemy neighbours anew every turn, the game keeps the counts
    (``enemies[0]``: the Green stones beside each cell, Black's enemies; ``enemies[1]``: the Black
    ones) and the list of empty cells, and updates them as stones are laid."""
    cells = len(board)
    enemies = np.zeros((2, cells), dtype=np.int64)
    empties = np.empty(cells, dtype=np.int64)
    allowed = np.empty(cells, dtype=np.int64)  # places in ``empties``
    final[:] = board
    laid[:] = 0
    empty = 0
    for cell in range(cells):
        if board[cell] == _rules.EMPTY:
            empties[empty] = cell
            empty += 1
        else:
            _count_beside(enemies[0 if board[cell] == _rules.GREEN else 1], cell, neighbours)
    black, run, turn = black_to_move, passes, 0
    while run < 2 and empty > 0:
        turn += 1
        side = 0 if black else 1
        mover_nec = nec[side]
        found = 0
        for place in range(empty):
            if _rules.allows(enemies[side, empties[place]], mover_nec):
                allowed[found] = place
                found += 1
        if found == 0:
            run += 1
        else:
            run = 0
            stone, other = (_rules.BLACK, 1) if black else (_rules.GREEN, 0)
            if found == 1 or empty == cells:
                first, second = allowed[np.random.randint(found)], -1
            else:
                one = np.random.randint(found)
                two = np.random.randint(found - 1)
                if two >= one:
                    two += 1
                first, second = max(allowed[one], allowed[two]), min(allowed[one], allowed[two])
            for place in (first, second):  # the later place first, so that the swap keeps the other
                if place < 0:
                    continue
                cell = empties[place]
                final[cell], laid[cell] = stone, turn
                _count_beside(enemies[other], cell, neighbours)
                empty -= 1
                empties[place] = empties[empty]
        black = not black
    for place in range(empty):
        laid[empties[place]] = -1
    return _rules.margin(final, neighbours, np.empty(cells, dtype=np.bool_), np.empty(cells, dtype=np.int64))


@njit(cache=True, inline="always")
def _count_beside(counts, cell, neighbours):
    """Count a stone on ``cell`` in ``counts`` of each of its neighbours."""
    for k in range(neighbours.shape[1]):
        near = neighbours[cell, k]
        if near < 0:
            break
        counts[near] += 1
