"""The exact NECNON solver: the value (Black's points minus Green's under perfect play) and the turns to
the end of every position reachable from the empty board, one entry per symmetry class.

:func:`solve` takes a game and gives a :class:`Solution`, one :data:`RECORD` per reachable class sorted
by key; it raises :class:`~solver.core.errors.BoardError` for a board too large. It is a memoised
depth-first search from the empty board over canonical positions (:mod:`solver.necnon.solving._kernel`):
the game graph has no cycles (stones are only added; a pass adds a pass mark, and two end the game), so
each class and each of its turns is visited once. Values and turns follow
:mod:`solver.necnon.model.values`: the winner takes the fewest turns, the loser the most, and when the
margin is 0 both the fewest. The kernel runs in slices of steps and ``progress`` is told as it starts,
after each slice and at the end how many classes are solved.

Why a search rather than a retrograde analysis, and the hash table: docs/design/kernels.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from solver.core import interrupts
from solver.necnon.model.keys import byte_images, check_solvable
from solver.necnon.model.rules import Game

#: A solved class: its canonical key (:mod:`solver.necnon.model.keys`), its value (Black's points minus
#: Green's under perfect play), the turns to the end under perfect play, and how many positions it
#: stands for (its images under the board's symmetries).
RECORD = np.dtype([("key", "<u8"), ("margin", "i1"), ("turns", "u1"), ("images", "u1")])

#: The largest boards whose keys (2 * cells + 3 bits) fit a packed table's 48 bits.
PACKED_CELLS = 22
# The value word of a class (see solver.necnon.solving._kernel).
_VALUE_BITS, _MARGIN_OFFSET = 16, 32

_SLICE = 1 << 22
_UNPACK_SLICE = 1 << 22
_FIRST_CAPACITY = 1 << 12
_LOAD = 0.7


@dataclass(frozen=True)
class SolveStep:
    """How far a solve is: ``classes`` solved, standing for ``positions`` positions, after ``seconds``."""

    classes: int
    positions: int
    seconds: float


#: What a solve tells how far it is, now and then.
Progress = Callable[[SolveStep], None]


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
    """The arrays the kernels read (see :mod:`solver.necnon.solving._kernel`)."""

    neighbours: npt.NDArray[np.int8]
    images: npt.NDArray[np.uint64]
    byte_images: npt.NDArray[np.uint64]
    nec: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, game: Game) -> KernelInputs:
        """The inputs for ``game``; :class:`~solver.core.errors.BoardError` if its board is too large."""
        grid = game.grid
        check_solvable(grid)
        images = np.left_shift(np.uint64(1), grid.symmetries.astype(np.uint64))
        return cls(grid.neighbour_table, images, byte_images(grid), game.nec)


def solve(game: Game, progress: Progress | None = None, packed: bool | None = None) -> Solution:
    """Solve ``game`` from the empty board. ``progress`` is called as the search starts (before its
    kernel is compiled, if it must be), now and then while it runs, and with the whole count at its end.
    ``packed`` chooses the hash table's layout (see :mod:`solver.necnon.solving._kernel`): by default packed
    (8 bytes a slot) on boards of at most :data:`PACKED_CELLS` cells, wide (16 bytes) on larger ones;
    the result is the same.

    Raises :class:`~solver.core.errors.BoardError` for a board of more than
    :data:`~solver.necnon.model.keys.MAX_CELLS` cells, :class:`ValueError` for a packed table on one of
    more than :data:`PACKED_CELLS`."""
    from solver.necnon.solving import _kernel  # numba is imported only when something is solved

    began = time.perf_counter()
    inputs = KernelInputs.of(game)
    cells, symmetries = game.grid.cells, len(inputs.images)
    packed = cells <= PACKED_CELLS if packed is None else packed
    if packed and cells > PACKED_CELLS:
        raise ValueError(f"a packed table holds the keys of boards of at most {PACKED_CELLS} cells, not {cells}")
    columns = 1 if packed else 2
    depth = 2 * cells + 4  # each turn adds a stone or a pass, and a pass follows a stone or ends the game
    masks = np.zeros((depth, _kernel.mask_columns(symmetries)), dtype=np.uint64)
    walk = np.zeros((depth, _kernel.WALK_COLUMNS), dtype=np.int64)
    allowed = np.zeros((depth, cells), dtype=np.int64)
    table = _table(_FIRST_CAPACITY, columns)
    state = np.array([0, 0, int(_FIRST_CAPACITY * _LOAD), 0], dtype=np.int64)
    if progress:
        progress(SolveStep(0, 0, time.perf_counter() - began))
    _kernel._start(masks, walk, allowed, inputs.byte_images, inputs.nec, inputs.neighbours, state)
    while (status := _kernel._search(inputs.neighbours, inputs.images, inputs.byte_images, inputs.nec, table,
                                     masks, walk, allowed, state, _SLICE)) != _kernel.DONE:
        if status == _kernel.GROW:
            table = _grown(table, _kernel._rehash)
            state[2] = int(len(table) * _LOAD)
        interrupts.check()  # a signal whose exception was swallowed stops the search here
        if progress:
            progress(SolveStep(int(state[1]), int(state[3]), time.perf_counter() - began))
    if progress:
        progress(SolveStep(int(state[1]), int(state[3]), time.perf_counter() - began))
    count = _kernel._compact(table)
    used = table[:count].copy()  # the table's slots are free now: keep only the classes
    del table
    return Solution(game, _records(used), time.perf_counter() - began)


def _grown(table: npt.NDArray[np.uint64], rehash: Callable[..., None]) -> npt.NDArray[np.uint64]:
    """A table twice as large holding ``table``'s entries (the caller's reference to the old one
    being the last, it is freed when the caller lets it go)."""
    larger = _table(2 * len(table), table.shape[1])
    rehash(table, larger)
    return larger


def _table(capacity: int, columns: int) -> npt.NDArray[np.uint64]:
    """An empty hash table of ``capacity`` slots of ``columns`` words (see :mod:`solver.necnon.solving._kernel`)."""
    return np.full((capacity, columns), np.iinfo(np.uint64).max, dtype=np.uint64)


def _records(used: npt.NDArray[np.uint64]) -> npt.NDArray[np.void]:
    """The classes of a hash table's occupied slots as records sorted by key, unpacked a slice at a
    time. A packed table's words sort by key as they are, so they are sorted in place."""
    if used.shape[1] == 1:
        used[:, 0].sort()
    else:
        used = used[np.argsort(used[:, 0])]
    records = np.empty(len(used), dtype=RECORD)
    for start in range(0, len(used), _UNPACK_SLICE):
        part = used[start:start + _UNPACK_SLICE]
        if used.shape[1] == 1:
            keys, values = part[:, 0] >> np.uint64(_VALUE_BITS), part[:, 0] & np.uint64((1 << _VALUE_BITS) - 1)
        else:
            keys, values = part[:, 0], part[:, 1]
        chunk = records[start:start + _UNPACK_SLICE]
        chunk["key"] = keys
        chunk["margin"] = (values & np.uint64(63)).astype(np.int16) - _MARGIN_OFFSET
        chunk["turns"] = (values >> np.uint64(6)) & np.uint64(63)
        chunk["images"] = values >> np.uint64(12)
    return records
