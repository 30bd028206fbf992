"""The forward check's slides (:mod:`solver.neutreeko.checking._forward`): a row's runs past the other
side's pieces, cut short by the mover's own, land where a slide walked square by square along the
board's rays stops, on square and oblong boards up to 11 x 11."""

from __future__ import annotations

import numpy as np
import pytest

from solver.neutreeko.checking import _forward
from solver.neutreeko.model.board import DIRECTIONS, Board

pytestmark = pytest.mark.kernel


def _walked(board: Board, origin: int, direction: int, occupied: set[int]) -> int:
    """Where a piece on ``origin`` stops, the rules' way: the last free square of its ray before a piece."""
    target = origin
    for square in board.ray(origin, direction):
        if square in occupied:
            break
        target = square
    return target


@pytest.mark.parametrize("files, ranks", [(3, 3), (4, 4), (5, 5), (4, 7), (11, 3), (8, 8), (11, 11)])
def test_slides_stop_where_a_walk_along_the_ray_stops(files, ranks):
    board = Board(files, ranks)
    steps = np.array(board.steps, dtype=np.int32)
    along, toward = _forward._lines(steps)
    generator = np.random.default_rng(files * 100 + ranks)
    for _ in range(200):
        squares = generator.choice(board.size, 6, replace=False).tolist()
        mover, other = sorted(squares[:3]), sorted(squares[3:])
        occupied = np.zeros(board.size, dtype=np.bool_)
        occupied[other] = True
        free = np.empty(steps.shape, dtype=np.int64)
        _forward._free_runs(steps, occupied, free)
        for origin in mover:
            low, high = [square for square in mover if square != origin]
            for direction in range(len(DIRECTIONS)):
                length = _forward._slide_length(direction, free[origin, direction], toward[origin, low],
                                                toward[origin, high])
                target = int(along[origin, direction, length])
                assert target == _walked(board, origin, direction, set(squares) - {origin}), (mover, other, origin)
