"""Keys of positions, as the solver and the tables know them, and their canonical form under the board's
symmetries. Plain numpy (no numba): queries use it and must start fast.

A position of a board of N cells (at most :data:`MAX_CELLS`) has the key::

    bits 2N+1, 2N+2   2N     N .. 2N-1      0 .. N-1
    +---------------+------+--------------+--------------+
    | passes 0..2   | G    | green stones | black stones |      G: 1 when Green is to move
    +---------------+------+--------------+--------------+

(cell ``c`` is bit ``c`` of a colour's mask, cells numbered as in :mod:`solver.necnon.model.grid`). The
**canonical key** of a position is the smallest key among those of its images under the board's
symmetries (:attr:`~solver.necnon.model.grid.Grid.symmetries`); positions with one canonical key form a
*class*, and all of them have the same value. A table holds one entry per reachable class.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from solver.core.errors import BoardError
from solver.necnon.model.grid import Grid
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game

#: The most cells a board solved exactly may have: two masks and 3 bits fit 63 bits.
MAX_CELLS = 30
#: The key layout, stored in every table; change it whenever the layout or the canonical form changes.
KEY_LAYOUT = "black mask | green mask << N | green to move << 2N | passes << 2N+1; canonical: smallest image"

Keys = npt.NDArray[np.uint64]


def check_solvable(grid: Grid) -> None:
    """Raise :class:`~solver.core.errors.BoardError` unless ``grid`` is small enough for keys."""
    if grid.cells > MAX_CELLS:
        raise BoardError(f"board {grid} has {grid.cells} cells: the exact solver takes boards of at most "
                         f"{MAX_CELLS} (play on it uses the search engine)")


@lru_cache(maxsize=None)
def byte_images(grid: Grid) -> npt.NDArray[np.uint64]:
    """``byte_images(grid)[g, c, byte]``: the mask of the images under symmetry ``g`` of the cells that
    ``byte`` sets in bits ``8c .. 8c+7`` of a mask (read-only; one look-up per byte maps a mask)."""
    images = np.left_shift(np.uint64(1), grid.symmetries.astype(np.uint64))
    chunks = -(-grid.cells // 8)
    table = np.zeros((len(images), chunks, 256), dtype=np.uint64)
    for chunk in range(chunks):
        for bit in range(min(8, grid.cells - 8 * chunk)):
            has_bit = (np.arange(256) >> bit & 1).astype(bool)
            table[:, chunk, has_bit] |= images[:, 8 * chunk + bit, None]
    table.flags.writeable = False
    return table


def key(position: Position) -> int:
    """The key of ``position`` (not canonical)."""
    cells = position.game.grid.cells
    return position.black | position.green << cells | (not position.black_to_move) << 2 * cells | \
        position.passes << 2 * cells + 1


def position_of(game: Game, key: int) -> Position:
    """The position of ``key`` (checked by :class:`~solver.necnon.model.position.Position` like any other)."""
    cells = game.grid.cells
    full = (1 << cells) - 1
    return Position(game, key & full, key >> cells & full, not key >> 2 * cells & 1, key >> 2 * cells + 1)


def canonical_keys(grid: Grid, keys: Keys | list[int]) -> Keys:
    """The canonical key of each key (see the module docstring).

    >>> from solver.necnon.model.position import Position
    >>> game = Game.of("4x4")
    >>> corners = [key(Position.empty(game).play_line(cell)) for cell in ("a1", "d1", "a4", "d4")]
    >>> len(set(corners)), len(set(canonical_keys(game.grid, corners).tolist()))
    (4, 1)
    """
    check_solvable(grid)
    keys = np.asarray(keys, dtype=np.uint64)
    cells = np.uint64(grid.cells)
    full = (np.uint64(1) << cells) - np.uint64(1)
    black, green, flags = keys & full, keys >> cells & full, keys >> (cells + cells)
    table = byte_images(grid)
    best = np.full(keys.shape, np.iinfo(np.uint64).max, dtype=np.uint64)
    for g in range(len(table)):
        image = flags << (cells + cells)
        for chunk in range(table.shape[1]):
            shift = np.uint64(8 * chunk)
            image |= table[g, chunk][(black >> shift) & np.uint64(255)]
            image |= table[g, chunk][(green >> shift) & np.uint64(255)] << cells
        np.minimum(best, image, out=best)
    return best


def canonical_key(position: Position) -> int:
    """The canonical key of ``position``."""
    return int(canonical_keys(position.game.grid, [key(position)])[0])


def find(records: npt.NDArray[np.void], keys: Keys | list[int]) -> npt.NDArray[np.int64]:
    """The row of each canonical key in ``records`` (a table's records, sorted by ``key``), or -1 where
    it is absent."""
    keys = np.asarray(keys, dtype=np.uint64)
    rows = np.minimum(np.searchsorted(records["key"], keys), len(records) - 1)
    return np.where(records["key"][rows] == keys, rows, -1)
