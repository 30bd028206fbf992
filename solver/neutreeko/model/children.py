"""Every move of many positions at once, with numpy: the vectorised twin of
:meth:`Position.children <solver.neutreeko.model.position.Position.children>`, for bulk queries and for
searches over many positions (plain numpy, no numba: queries use it and must start fast).

Positions are given from the side to move, as :mod:`solver.neutreeko.model.index` sees them: the mover's
sorted squares and the other side's, ``(n, 3)`` arrays. Each position has :data:`SLOTS` = 24 move slots,
piece ``p`` (0..2, in square order) sliding in direction ``d`` (0..7, :data:`solver.neutreeko.model.board.DIRECTIONS`)
in slot ``8 p + d``, so the legal moves come in the order of :meth:`~solver.neutreeko.model.position.Position.moves`. A slot whose piece
cannot move that way, and every slot of a position whose other side has already won, is empty.
Occupied squares are a row of booleans per position (a board of 64 squares or more, with the wall,
no longer fits the bits of one integer).

A slide is computed for all slots together, one step at a time: a piece moves on while the next square
is on the board and empty. The board's edge is a *wall* square, number ``N``, always occupied.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game

#: Move slots of a position, one per piece and direction (three pieces, eight directions).
SLOTS = 24


class Children(NamedTuple):
    """The moves of ``n`` positions, ``(n, 24)`` arrays by slot: ``legal`` (bool), ``origin`` and
    ``target`` squares, and ``after``, the index of the position after the move (seen, as always, from
    its side to move: the other side of the position before); all three -1 in empty slots."""

    legal: npt.NDArray[np.bool_]
    origin: npt.NDArray[np.int64]
    target: npt.NDArray[np.int64]
    after: npt.NDArray[np.int64]


@lru_cache(maxsize=None)
def _steps(game: Game) -> npt.NDArray[np.int64]:
    """``steps[8 * square + d]``: the next square in direction ``d``, the wall ``N`` off the board (and
    from the wall)."""
    size = game.board.size
    steps = np.array(game.board.steps + ((-1,) * 8,), dtype=np.int64)
    steps[steps < 0] = size
    return steps.reshape(-1)


_DIRECTIONS = np.tile(np.arange(8), 3)
# For the piece that moves (0, 1, 2), the two that stay, in square order.
_STAYING = ((1, 2), (0, 2), (0, 1))


def children(game: Game, mover: npt.ArrayLike, other: npt.ArrayLike) -> Children:
    """The :class:`Children` of the positions whose side to move stands on ``mover`` and the other side
    on ``other`` (``(n, 3)`` arrays of sorted squares)."""
    mover = np.asarray(mover, dtype=np.int64).reshape(-1, 3)
    other = np.asarray(other, dtype=np.int64).reshape(-1, 3)
    size = game.board.size
    # occupied[row * (N + 1) + square]: the rows of the positions one after the other, flat.
    rows = np.arange(len(mover))[:, None] * (size + 1)
    occupied = np.zeros(len(mover) * (size + 1), dtype=np.bool_)
    occupied[rows + mover] = occupied[rows + other] = occupied[rows + size] = True
    steps = _steps(game)
    origin = np.repeat(mover, 8, axis=1)
    target = origin
    for _ in range(max(game.board.width, game.board.height) - 1):
        ahead = steps[target * 8 + _DIRECTIONS]
        target = np.where(occupied[rows + ahead], target, ahead)
    over = game.wins[index.triple_rank(other[:, 0], other[:, 1], other[:, 2])]
    legal = (target != origin) & ~over[:, None]
    # The moving side's squares after the move, sorted (the two that stay, sorted, and the target),
    # squeezed around the other side's, which moves next: the index of the position after the move.
    low = np.repeat(mover[:, [pair[0] for pair in _STAYING]], 8, axis=1)
    high = np.repeat(mover[:, [pair[1] for pair in _STAYING]], 8, axis=1)
    first, last = np.minimum(low, target), np.maximum(high, target)
    middle = low + high + target - first - last
    o0, o1, o2 = other[:, 0, None], other[:, 1, None], other[:, 2, None]
    squeezed = [index.squeeze(square, o0, o1, o2) for square in (first, middle, last)]
    after = index.triple_rank(o0, o1, o2) * index.other_count(size) + index.triple_rank(*squeezed)
    empty = np.int64(-1)
    return Children(legal, np.where(legal, origin, empty), np.where(legal, target, empty),
                    np.where(legal, after, empty).astype(np.int64))
