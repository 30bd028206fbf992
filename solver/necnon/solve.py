"""The exact NECNON solver: the value (Black's points minus Green's under perfect play) and the turns to
the end of every position reachable from the empty board, one entry per symmetry class.

**Algorithm.** A memoised depth-first search from the empty board over canonical positions
(:mod:`solver.necnon._kernel`), with a hash table of the classes solved so far. The game graph has no
cycles (stones are only added; a pass adds a pass mark, and two end the game), so the search visits
each class once and each of its turns once, and needs no enumeration of the reachable positions
beforehand. Measured against a retrograde analysis by layers of stone counts (enumerate the reachable
classes layer by layer into sorted arrays, then value them from the fullest layer down), on this
project's 2-core machine, warm, median of 3 (the alternative was built as a prototype for the
comparison and is not kept):

==========  ===========  ===========================  ===========================
board       classes      memoised search              retrograde by layers
==========  ===========  ===========================  ===========================
4x4 nec     MEASURE      MEASURE                      MEASURE
==========  ===========  ===========================  ===========================

**Values and turns.** See :mod:`solver.necnon.values`: the winner takes the fewest turns, the loser the
most, and when the margin is 0 both the fewest.

A search can be long (minutes on 5 x 4), so the kernel runs in slices of :data:`_SLICE` steps and
``progress`` is told after each slice how many classes are solved.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from solver.necnon.keys import byte_images, check_solvable
from solver.necnon.rules import MAX_NEIGHBOURS, Game, Protocol

#: A solved class: its canonical key (:mod:`solver.necnon.keys`), its value (Black's points minus
#: Green's under perfect play), the turns to the end under perfect play, and how many positions it
#: stands for (its images under the board's symmetries).
RECORD = np.dtype([("key", "<u8"), ("margin", "i1"), ("turns", "u1"), ("images", "u1")])

_SLICE = 1 << 22
_FIRST_CAPACITY = 1 << 12
_LOAD = 0.7


@dataclass(frozen=True)
class Progress:
    """How far a solve is: ``classes`` solved, standing for ``positions`` positions, after ``seconds``."""

    classes: int
    positions: int
    seconds: float


@dataclass(frozen=True)
class Solution:
    """The outcome of :func:`solve`: one :data:`RECORD` per reachable class, sorted by key."""

    game: Game
    records: npt.NDArray[np.void]
    seconds: float

    @property
    def positions(self) -> int:
        """Reachable positions (each class counted with all its images)."""
        return int(self.records["images"].sum(dtype=np.int64))


@dataclass(frozen=True)
class KernelInputs:
    """The arrays the kernels read (see :mod:`solver.necnon._kernel`)."""

    neighbours: npt.NDArray[np.int8]
    images: npt.NDArray[np.uint64]
    byte_images: npt.NDArray[np.uint64]
    nec: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, game: Game) -> KernelInputs:
        """The inputs for ``game``; :class:`~solver.core.errors.BoardError` if its board is too large."""
        grid = game.grid
        check_solvable(grid)
        neighbours = np.full((grid.cells, MAX_NEIGHBOURS), -1, dtype=np.int8)
        for cell, near in enumerate(grid.neighbours):
            neighbours[cell, :len(near)] = near
        images = np.left_shift(np.uint64(1), grid.symmetries.astype(np.uint64))
        nec = np.array([protocol is Protocol.NEC for protocol in (game.black, game.green)])
        return cls(neighbours, images, byte_images(grid), nec)


def solve(game: Game, progress: Callable[[Progress], None] | None = None) -> Solution:
    """Solve ``game`` from the empty board. ``progress`` is called now and then while it runs.

    Raises :class:`~solver.core.errors.BoardError` for a board of more than
    :data:`~solver.necnon.keys.MAX_CELLS` cells."""
    from solver.necnon import _kernel  # numba is imported only when something is solved

    began = time.perf_counter()
    inputs = KernelInputs.of(game)
    cells, symmetries = game.grid.cells, len(inputs.images)
    depth = 2 * cells + 4  # each turn adds a stone or a pass, and a pass follows a stone or ends the game
    masks = np.zeros((depth, _kernel.mask_columns(symmetries)), dtype=np.uint64)
    walk = np.zeros((depth, _kernel.WALK_COLUMNS), dtype=np.int64)
    allowed = np.zeros((depth, cells), dtype=np.int64)
    table = _table(_FIRST_CAPACITY)
    state = np.array([0, 0, int(_FIRST_CAPACITY * _LOAD), 0], dtype=np.int64)
    _kernel._start(masks, walk, allowed, inputs.byte_images, inputs.nec, inputs.neighbours, state)
    while (status := _kernel._search(inputs.neighbours, inputs.images, inputs.byte_images, inputs.nec, table,
                                     masks, walk, allowed, state, _SLICE)) != _kernel.DONE:
        if status == _kernel.GROW:
            larger = _table(2 * len(table))
            _kernel._rehash(table, larger)
            table = larger
            state[2] = int(len(table) * _LOAD)
        if progress:
            progress(Progress(int(state[1]), int(state[3]), time.perf_counter() - began))
    used = table[table[:, 0] != _kernel.EMPTY]
    del table
    used = used[np.argsort(used[:, 0])]
    records = np.empty(len(used), dtype=RECORD)
    records["key"] = used[:, 0]
    entries = used[:, 1]
    records["margin"] = (entries & 0xFF).astype(np.uint8).view(np.int8)
    records["turns"] = (entries >> 8) & 0xFF
    records["images"] = (entries >> 16) & 0xFF
    return Solution(game, records, time.perf_counter() - began)


def _table(capacity: int) -> npt.NDArray[np.uint64]:
    """An empty hash table of ``capacity`` slots (see :mod:`solver.necnon._kernel`)."""
    return np.full((capacity, 2), np.iinfo(np.uint64).max, dtype=np.uint64)
