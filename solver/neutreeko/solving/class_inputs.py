"""Every array the class kernels (:mod:`solver.neutreeko.solving._class_kernel`) read to number symmetry classes,
built once from a game's :class:`~solver.neutreeko.tables.folding.Classes`. Plain numpy: nothing here imports numba.

The numbering is that of the folded tables (:mod:`solver.neutreeko.tables.folding`): blocks, one per canonical
mover triple that does not win, in increasing rank; a block is a *full* one (every squeezed rank of the
other side is a class) unless some symmetry besides the identity leaves its triple unchanged. In the
kernels' words::

    block b              0            1                 2            ...   B-1
    rows[b]              rank of its canonical mover triple
    row_start[b]         first class number of the block; row_start[B] = number of classes
    stab[b, :stab_count[b]]
                         the symmetries that leave rows[b] unchanged (the identity first)
    sym_first[b]         -1 for a full block; else where its classes' squeezed ranks start in sym_within

    class k of block b   canonical index = rows[b] * C(N-3, 3) + w, where
                         w = k - row_start[b]                         (full block)
                         w = sym_within[sym_first[b] + k - row_start[b]]   (symmetric block, sorted)

And from any position to its class: ``block_of[rank]`` is the block of the canonical twin of a mover
triple (-1 if it wins: the position is not legal); ``lookup[rank]`` (:data:`LOOKUP`) holds, in one
record, what finding the class takes: the block's first class, the block if it is a symmetric one, one
symmetry ``g`` that takes the triple to ``rows[block]``, and that triple's squares. The others that do
are ``compose[s, g]`` for ``s`` in the block's ``stab``, ``compose[s, g]`` being "``g``, then ``s``".
A squeezed rank is summed from ``weights`` (:func:`solver.neutreeko.model.index.rank_weights`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import smallest_triple_images, symmetries, triple_images
from solver.neutreeko.tables.folding import Classes, listed_block

#: The record of a mover triple in ``lookup``: everything the class of a position with that mover needs,
#: in 16 bytes, so that the class solve's hottest step reads one place rather than five arrays in turn.
LOOKUP = np.dtype([("first", np.int64), ("symmetric_block", np.int32), ("symmetry", np.uint8), ("c0", np.uint8),
                   ("c1", np.uint8), ("c2", np.uint8)])


class ClassArrays(NamedTuple):
    """The arrays of :class:`ClassInputs` as the kernels take them, by the names of the module docstring."""

    rows: np.ndarray
    row_start: np.ndarray
    sym_first: np.ndarray
    sym_within: np.ndarray
    stab: np.ndarray
    stab_count: np.ndarray
    block_of: np.ndarray
    lookup: np.ndarray
    symmetries: np.ndarray
    compose: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True, eq=False)
class ClassInputs:
    """The class kernels' view of ``game``'s symmetry classes (arrays as the module docstring says)."""

    game: Game
    rows: npt.NDArray[np.int32]
    row_start: npt.NDArray[np.int64]
    sym_first: npt.NDArray[np.int64]
    sym_within: npt.NDArray[np.int32]
    stab: npt.NDArray[np.int32]
    stab_count: npt.NDArray[np.int32]
    block_of: npt.NDArray[np.int32]
    #: ``lookup[rank]``: a mover triple's :data:`LOOKUP` record.
    lookup: np.ndarray
    #: ``symmetries[g, square]`` (:func:`solver.neutreeko.model.symmetry.symmetries`).
    symmetries: npt.NDArray[np.int32]
    compose: npt.NDArray[np.int32]
    #: ``weights[k, square]``: what ``square`` adds to a triple's rank as its k-th smallest square.
    weights: npt.NDArray[np.int32]
    #: Number of legal classes.
    count: int

    @property
    def arrays(self) -> ClassArrays:
        """The arrays as the kernels take them."""
        return ClassArrays(self.rows, self.row_start, self.sym_first, self.sym_within, self.stab, self.stab_count,
                           self.block_of, self.lookup, self.symmetries, self.compose, self.weights)

    @classmethod
    def of(cls, game: Game) -> ClassInputs:
        """The inputs for solving ``game`` on its symmetry classes; the last game's are kept, so that a
        solve and the summary of its table share them (64 MB on 9 x 9)."""
        return _class_inputs(game)


@lru_cache(maxsize=1)
def _class_inputs(game: Game) -> ClassInputs:
    classes = Classes.of(game)
    other_count = index.other_count(game.board.size)
    table = triple_images(game.board)
    group = len(table)
    rows = np.flatnonzero(classes.block_start >= 0).astype(np.int32)
    row_start = np.append(classes.block_start[rows], classes.count).astype(np.int64)
    stab = np.full((len(rows), group), -1, dtype=np.int32)
    stab_count = np.zeros(len(rows), dtype=np.int32)
    for block, row in enumerate(rows):
        fixing = np.flatnonzero(table[:, row] == row)  # the identity, g = 0, first
        stab[block, :len(fixing)] = fixing
        stab_count[block] = len(fixing)
    sizes = np.where(stab_count > 1, np.diff(row_start), 0)
    sym_first = np.where(stab_count > 1, np.cumsum(sizes) - sizes, -1).astype(np.int64)
    # Filled a block at a time, rather than from the int64 list of them all that Classes caches: that
    # one would stay for the solve's life (110 MB on 9 x 9), and its pieces would spread the heap.
    sym_within = np.empty(int(sizes.sum()), dtype=np.int32)
    for symmetric in np.flatnonzero(stab_count > 1).tolist():
        start, size = int(sym_first[symmetric]), int(sizes[symmetric])
        sym_within[start:start + size] = listed_block(game, int(rows[symmetric])) % other_count
    block_number = np.full(table.shape[1], -1, dtype=np.int32)
    block_number[rows] = np.arange(len(rows), dtype=np.int32)
    canonical = smallest_triple_images(game.board)
    permutations = symmetries(game.board)
    # compose[s, g]: the symmetry h with h(square) = s(g(square)).
    where = {tuple(permutation): h for h, permutation in enumerate(permutations.tolist())}
    compose = np.array([[where[tuple(permutations[s][permutations[g]].tolist())] for g in range(group)]
                        for s in range(group)], dtype=np.int32)
    block_of = block_number[canonical]
    legal = block_of >= 0
    lookup = np.zeros(len(block_of), dtype=LOOKUP)
    lookup["first"] = np.where(legal, row_start[block_of], -1)
    lookup["symmetric_block"] = np.where(legal & (stab_count[block_of] > 1), block_of, -1)
    lookup["symmetry"] = np.argmax(table == canonical, axis=0)
    for k, square in enumerate(("c0", "c1", "c2")):
        lookup[square] = np.where(legal, index.triples(game.board.size)[rows[block_of], k], 0)
    return ClassInputs(
        game=game, rows=rows, row_start=row_start, sym_first=sym_first, sym_within=sym_within, stab=stab,
        stab_count=stab_count, block_of=block_of, lookup=lookup, symmetries=np.ascontiguousarray(permutations),
        compose=compose, weights=index.rank_weights(game.board.size), count=classes.count,
    )
