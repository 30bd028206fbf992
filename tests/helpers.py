"""Positions and helpers shared by the tests that read the 5 x 5 table (the fixtures are in conftest.py)."""

from __future__ import annotations

import numpy as np

from solver.errors import NeutreekoError
from solver.game import Game
from solver.position import Position

GAME = Game.of("5x5")
START = "1w1w1/2b2/5/2w2/1b1b1 b"
LONGEST = "w4/5/1b3/2w2/bw1b1 b"


def random_positions(count: int, seed: int = 0) -> list[Position]:
    """``count`` legal 5 x 5 positions drawn uniformly (index and side to move), reproducibly."""
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    while len(positions) < count:
        for position_index, black in zip(rng.integers(0, GAME.positions, count).tolist(),
                                         rng.integers(0, 2, count).tolist()):
            try:
                positions.append(Position.from_index(GAME, position_index, bool(black)))
            except NeutreekoError:  # the side to move already has three in a row
                continue
    return positions[:count]


def colour_twin(position: Position) -> Position:
    """The position with colours swapped and the board turned 180 degrees (square s -> N-1-s)."""
    last = position.game.board.size - 1
    black = tuple(sorted(last - square for square in position.white))
    white = tuple(sorted(last - square for square in position.black))
    return Position(position.game, black, white, not position.black_to_move)
