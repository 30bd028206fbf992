"""Symmetry-folded results: one byte per class of legal positions instead of one byte per index.

All positions of a symmetry class have one value (see :mod:`solver.neutreeko.model.symmetry`), so a
folded table keeps the result of each class's canonical position only, legal classes only, in
increasing canonical index. Class numbers are not stored: they follow from the board and the rule.
:meth:`Classes.of` gives a game's numbering, :meth:`Classes.numbers` the class number of each index
(-1 if it is not legal) and :meth:`Classes.canonical_of` the canonical index of each class number. The
classes come in blocks, one per canonical triple of the mover that does not win; a block's size is
known at once (by Burnside's lemma) and its list made only when a probe needs it
(:meth:`Classes.block_indices`).

The numbering and why it is counted without listing: docs/design/tables.md.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Iterator

import numpy as np
import numpy.typing as npt

from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import canonical_indices, canonical_triples, images_of_triples, symmetries

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
    #: Number of legal classes.
    count: int

    @classmethod
    def of(cls, game: Game) -> Classes:
        """``game``'s numbering, computed from the board and rule, cached."""
        return _classes(game)

    @cached_property
    def symmetric_indices(self) -> np.ndarray:
        """Sorted canonical indices of the classes in the blocks of symmetric triples (the kernels'
        form; costly on the largest boards, where a probe lists only the blocks it meets)."""
        lists = [listed_block(self.game, int(mover)) for mover in np.flatnonzero(self.symmetric)]
        return np.concatenate(lists) if lists else np.empty(0, dtype=np.int64)

    def block_indices(self, mover: int) -> np.ndarray:
        """Sorted canonical indices of the classes of the symmetric triple of rank ``mover``'s block (the
        last few asked kept)."""
        return _block_indices(self.game, mover)

    def numbers(self, indices: index.Integers) -> npt.NDArray[np.int64]:
        """Class number of each index (any shape), or -1 for an index that is not a legal position."""
        other_count = index.other_count(self.game.board.size)
        shape = np.shape(indices)
        canonical = canonical_indices(indices, self.game.board).reshape(-1)
        mover, within = np.divmod(canonical, other_count)
        start = self.block_start[mover]
        rows = mover[self.symmetric[mover]]
        for row in np.unique(rows) if len(rows) else ():  # a probe meets mostly none: unique costs more
            chosen = mover == row
            within[chosen] = np.searchsorted(self.block_indices(int(row)), canonical[chosen])
        numbers: npt.NDArray[np.int64] = start + within
        numbers[start < 0] = -1  # cheaper than np.where for the few indices of a probe
        return numbers.reshape(shape)

    def canonical_of(self, numbers: index.Integers) -> npt.NDArray[np.int64]:
        """The canonical index of each class number (the inverse of :meth:`numbers`; for a few numbers,
        :meth:`canonical` gives them all)."""
        numbers = np.asarray(numbers, dtype=np.int64).reshape(-1)
        other_count = index.other_count(self.game.board.size)
        rows = np.flatnonzero(self.block_start >= 0)
        mover = rows[np.searchsorted(self.block_start[rows], numbers, side="right") - 1]
        within = numbers - self.block_start[mover]
        canonical: npt.NDArray[np.int64] = mover * np.int64(other_count) + within
        for row in np.unique(mover[self.symmetric[mover]]):
            chosen = mover == row
            canonical[chosen] = self.block_indices(int(row))[within[chosen]]
        return canonical

    def canonical(self) -> np.ndarray:
        """The canonical index of every legal class, in class-number order (int64)."""
        other_count = index.other_count(self.game.board.size)
        parts = []
        for mover in np.flatnonzero(self.block_start >= 0):
            if self.symmetric[mover]:
                parts.append(listed_block(self.game, int(mover)))
            else:
                parts.append(mover * np.int64(other_count) + np.arange(other_count, dtype=np.int64))
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)


@lru_cache(maxsize=8)
def _classes(game: Game) -> Classes:
    other_count = index.other_count(game.board.size)
    triples = canonical_triples(game.board)
    blocks = triples.canonical & ~game.wins
    symmetric = triples.symmetric & blocks
    # Few arrays of a number per triple, the sizes in 4 bytes (a block's fits): on the largest boards a
    # new array costs more (its memory first touched) than the arithmetic.
    sizes = blocks * np.int32(other_count)
    movers = np.flatnonzero(symmetric)
    sizes[movers] = _orbits(game, movers)
    starts = np.cumsum(sizes, dtype=np.int64)
    count = int(starts[-1]) if len(starts) else 0
    starts -= sizes
    starts[~blocks] = -1
    return Classes(game=game, block_start=starts, symmetric=symmetric, count=count)


def _orbits(game: Game, movers: np.ndarray) -> np.ndarray:
    """The number of classes in the block of each canonical triple of rank in ``movers``: the orbits of
    its stabiliser on the other side's triples, by Burnside's lemma (see the module docstring)."""
    permutations = symmetries(game.board)
    squares = np.arange(game.board.size)
    fixed = permutations == squares
    paired = ~fixed & (np.take_along_axis(permutations, permutations, axis=1) == squares)  # in a 2-cycle
    # A stabiliser maps the mover's squares among themselves: a 2-cycle is free or taken whole. The
    # symmetries have no 3-cycles, so a triple it fixes is three fixed squares or a fixed one and a 2-cycle.
    taken = index.triples(game.board.size)[movers]
    free_fixed = fixed.sum(axis=1)[:, None] - fixed[:, taken].sum(axis=2)
    free_cycles = (paired.sum(axis=1)[:, None] - paired[:, taken].sum(axis=2)) // 2
    fixed_triples = free_fixed * (free_fixed - 1) * (free_fixed - 2) // 6 + free_fixed * free_cycles
    stabilises = images_of_triples(movers, game.board) == movers
    orbits: np.ndarray = (fixed_triples * stabilises).sum(axis=0) // stabilises.sum(axis=0)
    return orbits


def listed_block(game: Game, mover: int) -> np.ndarray:
    """The sorted canonical indices of the block of the symmetric triple of rank ``mover``."""
    other_count = index.other_count(game.board.size)
    block = mover * np.int64(other_count) + np.arange(other_count, dtype=np.int64)
    listed: np.ndarray = block[canonical_indices(block, game.board) == block]
    listed.flags.writeable = False
    return listed


# A probe meets few blocks (10 x 10's lists are up to 1.2 MB each): the last ones met are kept.
_block_indices = lru_cache(maxsize=32)(listed_block)


def fold(game: Game, result: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """One result byte per legal class (class-number order) from one byte per index."""
    folded: npt.NDArray[np.uint8] = result[Classes.of(game).canonical()]
    return folded


def unfold(game: Game, folded: np.ndarray) -> np.ndarray:
    """One result byte per index (:data:`~solver.neutreeko.model.values.ILLEGAL` where not legal) from one per class."""
    result = np.empty(game.positions, dtype=np.uint8)
    for first, part in unfolded_stretches(game, folded):
        result[first:first + len(part)] = part
    return result


def unfolded_digest(game: Game, folded: np.ndarray) -> str:
    """``"sha256:<hex>"`` of the unfolding of ``folded`` (one byte per legal class), digested a stretch at
    a time (:func:`unfolded_stretches`), never held whole."""
    hasher = hashlib.sha256()
    for _, part in unfolded_stretches(game, folded):
        hasher.update(part.data)
    return "sha256:" + hasher.hexdigest()


def unfolded_stretches(game: Game, folded: np.ndarray) -> Iterator[tuple[int, npt.NDArray[np.uint8]]]:
    """The unfolding of ``folded`` (one byte per legal class) as (first index, bytes) stretches of whole
    rows (mover triples), about :data:`_CHUNK` indices each, in index order: for a digest or a count that
    never holds the whole. Compiled and parallel (:mod:`solver.neutreeko.tables._unfold`)."""
    from solver.neutreeko.tables import _unfold  # numba is imported only when a table is unfolded

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
