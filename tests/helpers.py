"""Positions and helpers shared by the tests that read the 5 x 5 table (the fixtures are in conftest.py)."""

from __future__ import annotations

from pathlib import Path

import h5py
import numpy as np

import solver.position
from solver.game import Game
from solver.position import Position

GAME = Game.of("5x5")
START = "1w1w1/2b2/5/2w2/1b1b1 b"
LONGEST = "w4/5/1b3/2w2/bw1b1 b"


def random_positions(count: int, seed: int = 0) -> list[Position]:
    """``count`` random legal 5 x 5 positions, reproducibly."""
    return solver.position.random_positions(GAME, count, seed)


def colour_twin(position: Position) -> Position:
    """The position with colours swapped and the board turned 180 degrees (square s -> N-1-s)."""
    last = position.game.board.size - 1
    black = tuple(sorted(last - square for square in position.white))
    white = tuple(sorted(last - square for square in position.black))
    return Position(position.game, black, white, not position.black_to_move)


# -- ways to damage a copy of a table file ----------------------------------------------------------

def overwrite_with_text(path: Path) -> None:
    path.write_text("hello\n")


def replace_with_foreign_hdf5(path: Path) -> None:
    """An HDF5 file, but not one of ours."""
    path.unlink()
    with h5py.File(path, "w") as file:
        file["x"] = np.arange(3)


def truncate(path: Path) -> None:
    with open(path, "r+b") as raw:
        raw.truncate(20_000)


def edit_data(path: Path) -> None:
    """Change one result byte through HDF5, so that the file reads but the digest no longer matches."""
    with h5py.File(path, "r+") as file:
        file["result"][1_000_000] ^= 3
