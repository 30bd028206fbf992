"""Symmetry-folded results: one byte per class of legal positions instead of one byte per index.

All positions of a symmetry class have one value (see :mod:`solver.neutreeko.symmetry`), so a folded table keeps
the result of each class's canonical position only, legal classes only, in increasing canonical index.
On 5 x 5 that is 434,500 bytes for 3,542,000 indices.

Class numbers are not stored: they follow from the board and the rule. A canonical index has the
mover's triple canonical (the smallest rank among its images), so the classes come in *blocks*, one per
canonical triple that does not win, in increasing rank::

    class number  0                 C(N-3,3)                      +(classes of the block)
                  |-- block of m1 ---|-- block of m2 (symmetric) --|-- block of m3 --| ...

A triple with no symmetry but the identity (nearly all) owns a full block: every squeezed rank of the
other side, 0 .. C(N-3,3) - 1, is a class of its own, so the number is the block's start plus that rank.
A triple left unchanged by some symmetries (e.g. B1 C1 D1 by the mirror) has fewer classes; their
canonical indices are listed, sorted, in :attr:`Classes.symmetric_indices` and found by binary search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import numpy as np
import numpy.typing as npt

from solver.neutreeko import index
from solver.neutreeko.game import Game
from solver.neutreeko.symmetry import canonical_indices, symmetries, triple_images

# Indices are unfolded this many at a time, to bound the temporary arrays.
_CHUNK = 1 << 22


@dataclass(frozen=True, eq=False)
class Classes:
    """The numbering of ``game``'s legal symmetry classes. Build it with :meth:`of` (cached)."""

    game: Game
    #: ``block_start[rank]``: number of the first class of that mover triple's block, -1 if the triple
    #: is not canonical or wins (its positions are then not canonical, or not legal).
    block_start: np.ndarray
    #: ``symmetric[rank]``: the triple is canonical, does not win and some symmetry besides the
    #: identity leaves it unchanged.
    symmetric: np.ndarray
    #: Sorted canonical indices of the classes in the blocks of symmetric triples.
    symmetric_indices: np.ndarray
    #: Number of legal classes.
    count: int

    @classmethod
    def of(cls, game: Game) -> Classes:
        """``game``'s numbering, computed from the board and rule (0.05 s on 5 x 5, 2 s on 7 x 7), cached."""
        return _classes(game)

    def numbers(self, indices: index.Integers) -> npt.NDArray[np.int64]:
        """Class number of each index (any shape), or -1 for an index that is not a legal position."""
        other_count = index.other_count(self.game.board.size)
        shape = np.shape(indices)
        canonical = canonical_indices(indices, self.game.board).reshape(-1)
        mover = canonical // other_count
        start = self.block_start[mover]
        within = canonical % other_count
        symmetric = self.symmetric[mover]
        if symmetric.any():
            found = canonical[symmetric]
            first = np.searchsorted(self.symmetric_indices, (found // other_count) * other_count)
            within[symmetric] = np.searchsorted(self.symmetric_indices, found) - first
        return np.where(start >= 0, start + within, -1).reshape(shape)

    def canonical_of(self, numbers: index.Integers) -> npt.NDArray[np.int64]:
        """The canonical index of each class number (the inverse of :meth:`numbers`; for a few numbers,
        :meth:`canonical` gives them all)."""
        numbers = np.asarray(numbers, dtype=np.int64).reshape(-1)
        other_count = index.other_count(self.game.board.size)
        rows = np.flatnonzero(self.block_start >= 0)
        mover = rows[np.searchsorted(self.block_start[rows], numbers, side="right") - 1]
        within = numbers - self.block_start[mover]
        canonical: npt.NDArray[np.int64] = mover * np.int64(other_count) + within
        symmetric = self.symmetric[mover]
        first = np.searchsorted(self.symmetric_indices, mover[symmetric] * np.int64(other_count))
        canonical[symmetric] = self.symmetric_indices[first + within[symmetric]]
        return canonical

    def canonical(self) -> np.ndarray:
        """The canonical index of every legal class, in class-number order (int64)."""
        other_count = index.other_count(self.game.board.size)
        parts = []
        for mover in np.flatnonzero(self.block_start >= 0):
            if self.symmetric[mover]:
                low, high = np.searchsorted(self.symmetric_indices, [mover * other_count, (mover + 1) * other_count])
                parts.append(self.symmetric_indices[low:high])
            else:
                parts.append(mover * np.int64(other_count) + np.arange(other_count, dtype=np.int64))
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)


@lru_cache(maxsize=8)
def _classes(game: Game) -> Classes:
    table = triple_images(game.board)
    ranks = np.arange(table.shape[1])
    other_count = index.other_count(game.board.size)
    blocks = (table.min(axis=0) == ranks) & ~game.wins
    symmetric = blocks & (np.count_nonzero(table == ranks, axis=0) > 1)
    sizes = np.where(blocks, other_count, 0)
    listed = []
    for mover in np.flatnonzero(symmetric):
        block = mover * np.int64(other_count) + np.arange(other_count, dtype=np.int64)
        listed.append(block[canonical_indices(block, game.board) == block])
        sizes[mover] = len(listed[-1])
    starts = np.cumsum(sizes) - sizes
    return Classes(
        game=game,
        block_start=np.where(blocks, starts, -1),
        symmetric=symmetric,
        symmetric_indices=np.concatenate(listed) if listed else np.empty(0, dtype=np.int64),
        count=int(sizes.sum()),
    )


def fold(game: Game, result: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """One result byte per legal class (class-number order) from one byte per index."""
    folded: npt.NDArray[np.uint8] = result[Classes.of(game).canonical()]
    return folded


def unfold(game: Game, folded: np.ndarray) -> np.ndarray:
    """One result byte per index (:data:`~solver.neutreeko.values.ILLEGAL` where not legal) from one per class."""
    result = np.empty(game.positions, dtype=np.uint8)
    for first, part in unfolded_stretches(game, folded):
        result[first:first + len(part)] = part
    return result


def unfolded_stretches(game: Game, folded: np.ndarray) -> Iterator[tuple[int, npt.NDArray[np.uint8]]]:
    """The unfolding of ``folded`` (one byte per legal class) as (first index, bytes) stretches of whole
    rows (mover triples), about :data:`_CHUNK` indices each, in index order: for a digest or a count that
    never holds the whole. Compiled and parallel (:mod:`solver.neutreeko._unfold`)."""
    from solver.neutreeko import _unfold  # numba is imported only when a table is unfolded

    classes = Classes.of(game)
    other_count = index.other_count(game.board.size)
    triples = index.triples(game.board.size)
    permutations = np.ascontiguousarray(symmetries(game.board))
    rows = max(1, _CHUNK // other_count)
    for first_row in range(0, len(triples), rows):
        part = np.empty(min(rows, len(triples) - first_row) * other_count, dtype=np.uint8)
        _unfold._unfold_rows(folded, first_row, triples, game.wins, permutations, other_count, classes.block_start,
                             classes.symmetric, classes.symmetric_indices, part)
        yield first_row * other_count, part
