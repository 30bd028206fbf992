"""Board symmetries and the canonical form of a position.

A symmetry maps the board onto itself and the rules with it, so all positions of one *class* (the
images of one position) have the same value: 8 on a square board, 4 on any other (swapping colours is
not among them: the index already folds it away). :func:`symmetries` gives them as permutations of the
squares, ``symmetries(board)[g, square]``, ``g = 0`` the identity. The canonical index of a position is
the smallest :mod:`solver.neutreeko.model.index` index among the indices of its images
(:func:`canonical_indices`). For example the standard start is its own mirror image, so its moves
B1-A1 and D1-E1 lead to two positions of one class:

>>> from solver.neutreeko.model.game import Game
>>> from solver.neutreeko.model.position import Position
>>> game = Game.of("5x5")
>>> left = Position.start(game).play("B1-A1").index()
>>> right = Position.start(game).play("D1-E1").index()  # the mirror image of B1-A1
>>> left == right, int(canonical_indices(left, game.board)) == int(canonical_indices(right, game.board))
(False, True)

Everything here is plain numpy on arrays of indices (no numba: queries use it and must start fast).
How the symmetries are built and why the canonical twin is found fast: docs/design/solver.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from solver.neutreeko.model import index
from solver.neutreeko.model.board import Board

#: The canonical form, stored in folded tables; change it whenever the symmetries or their use change.
CANONICAL_FORM = "smallest index among the images under rotations and mirrors, index scheme 1"

# Three ways to one result, for speed only: indices that share their mover's triple by the dozen (a table
# being folded or unfolded) go a triple at a time, many scattered ones (a batch of queries) a symmetry at
# a time, and a few (a probe, a position's moves) one by one in plain integers, numpy's scalars and small
# arrays costing several times more than the arithmetic.
_DENSE = 32
_FEW = 32


def _rotate(board: Board) -> np.ndarray:
    """A quarter turn (square board) or a half turn (other boards), as a square permutation."""
    width, height = board.width, board.height
    table = np.empty(board.size, dtype=np.int32)
    for square in range(board.size):
        file, rank = board.file_of(square), board.rank_of(square)
        if width == height:
            table[square] = board.square(width - 1 - rank, file)
        else:
            table[square] = board.square(width - 1 - file, height - 1 - rank)
    return table


def _mirror(board: Board) -> np.ndarray:
    """Files reversed (A <-> the last file), as a square permutation."""
    return np.array([board.square(board.width - 1 - board.file_of(square), board.rank_of(square))
                     for square in range(board.size)], dtype=np.int32)


@lru_cache(maxsize=None)
def symmetries(board: Board) -> np.ndarray:
    """``symmetries(board)[g, square]``: the image of ``square`` under symmetry ``g`` (read-only int32,
    shape ``(8 or 4, N)``, ``g = 0`` the identity; order as in the module docstring).

    >>> symmetries(Board(3, 4)).shape
    (4, 12)
    """
    rotate, mirror = _rotate(board), _mirror(board)
    turns = [np.arange(board.size, dtype=np.int32)]
    for _ in range(3 if board.width == board.height else 1):
        turns.append(rotate[turns[-1]])
    table = np.array(turns + [turn[mirror] for turn in turns], dtype=np.int32)
    table.flags.writeable = False
    return table


def symmetry_count(board: Board) -> int:
    """8 on a square board, 4 on any other."""
    return len(symmetries(board))


def _image_ranks(permutation: Any, first: Any, second: Any, third: Any, minimum: Callable[[Any, Any], Any],
                 maximum: Callable[[Any, Any], Any]) -> Any:
    """The rank of the image under ``permutation`` (of the squares) of the triple on the sorted squares
    ``first < second < third``: plain ints with ``min`` and ``max``, or arrays with ``np.minimum`` and
    ``np.maximum``."""
    x, y, z = permutation[first], permutation[second], permutation[third]
    low, high = minimum(x, y), maximum(x, y)  # sorted by comparisons: np.sort is slow on rows of 3
    return index.triple_rank(minimum(low, z), maximum(low, minimum(high, z)), maximum(high, z))


def images_of_triples(ranks: npt.ArrayLike, board: Board) -> npt.NDArray[np.int32]:
    """``images_of_triples(ranks, board)[g, k]``: the rank of the image under ``g`` of the triple of rank
    ``ranks[k]`` (see :func:`solver.neutreeko.model.index.triple_rank`); int32, shape ``(symmetries, len(ranks))``."""
    return _images(index.triples(board.size)[np.asarray(ranks, dtype=np.int64).reshape(-1)], board)


@lru_cache(maxsize=None)
def triple_images(board: Board) -> npt.NDArray[np.int32]:
    """:func:`images_of_triples` of every triple, in rank order: read-only int32, shape ``(symmetries, C(N, 3))``."""
    table = _images(index.triples(board.size), board)
    table.flags.writeable = False
    return table


def _images(triples: npt.NDArray[np.int32], board: Board) -> npt.NDArray[np.int32]:
    """The ranks of the images of the triples of rows ``triples`` (sorted squares), by symmetry."""
    first, second, third = triples.T
    return np.array([_image_ranks(permutation, first, second, third, np.minimum, np.maximum)
                     for permutation in symmetries(board)], dtype=np.int32).reshape(symmetry_count(board), len(triples))


@lru_cache(maxsize=None)
def smallest_triple_images(board: Board) -> npt.NDArray[np.int32]:
    """``smallest_triple_images(board)[rank]``: the smallest rank among the images of the triple of that
    rank, the canonical form of a mover's triple; read-only int32, shape ``(C(N, 3),)``."""
    smallest: npt.NDArray[np.int32] = triple_images(board).min(axis=0)
    smallest.flags.writeable = False
    return smallest


class CanonicalTriples(NamedTuple):
    """Which triples are canonical (their own smallest image), by rank; read-only bool arrays."""

    canonical: npt.NDArray[np.bool_]
    #: Canonical and left unchanged by some symmetry besides the identity.
    symmetric: npt.NDArray[np.bool_]


@lru_cache(maxsize=None)
def canonical_triples(board: Board) -> CanonicalTriples:
    """``board``'s :class:`CanonicalTriples`: ``canonical`` is ``smallest_triple_images(board) == rank``,
    found without every image (a class numbering needs no more)."""
    # A triple's rank lies between those of the triples whose top square is one less and one more than
    # its own (see index), so an image under g whose top square is below the triple's is smaller, one
    # whose top square is above is larger, and only the few images with the same top square are ranked.
    # The images' top squares come from the images of the lower pairs and of the top squares, a symmetry
    # at a time, in the smallest type that holds a square.
    size = board.size
    triples, lower = index.triples(size), index.pairs(size)
    tops = index.by_top(np.arange(size, dtype=np.min_scalar_type(size)), size)
    beaten, fixed = np.zeros((2, len(triples)), dtype=np.bool_)
    for permutation in symmetries(board)[1:]:
        small = permutation.astype(tops.dtype)
        image_tops = np.maximum(index.by_pair(np.maximum(small[lower[:, 0]], small[lower[:, 1]]), size),
                                index.by_top(small, size))
        beaten |= image_tops < tops
        ties = np.flatnonzero((image_tops == tops) & ~beaten)  # those beaten already need no rank
        first, second, third = triples[ties].T
        image = _image_ranks(permutation, first, second, third, np.minimum, np.maximum)
        beaten[ties[image < ties]] = True
        fixed[ties[image == ties]] = True
    canonical = ~beaten
    symmetric = canonical & fixed
    canonical.flags.writeable = symmetric.flags.writeable = False
    return CanonicalTriples(canonical, symmetric)


class _Tables(NamedTuple):
    """What :func:`_canonical_with_mover` reads of a board, for many indices at a time (numpy arrays
    over every triple) or for one (plain ints, the images of the few triples met worked out on the spot):
    one computation, two forms of its data."""

    #: The first, second and third square of the triple of each rank.
    squares: tuple[Any, Any, Any]
    #: ``mover_images(rank)``: the ranks of the triple's images, by symmetry.
    mover_images: Callable[[int], tuple[int, ...]]
    #: ``image(g, ranks)``: the ranks of the triples' images under symmetry ``g``.
    image: Callable[[int, Any], Any]
    minimum: Callable[[Any, Any], Any]


# Mover triples whose images a probe keeps (a position's moves all have one mover triple).
_MOVERS = 4096


@lru_cache(maxsize=None)
def _tables(board: Board, plain: bool) -> _Tables:
    """``board``'s :class:`_Tables`, in plain ints if ``plain`` (the triples' squares as memoryviews:
    indexed, they give plain ints, as lists would, without a copy into lists first), else as numpy arrays."""
    triples = index.triples(board.size)
    if plain:
        permutations = symmetries(board).tolist()
        squares = tuple(column.data for column in triples.T)

        def image(g: int, rank: int) -> int:
            rank_of_image: int = _image_ranks(permutations[g], squares[0][rank], squares[1][rank], squares[2][rank],
                                              min, max)
            return rank_of_image

        def mover_images(rank: int) -> tuple[int, ...]:
            return tuple(image(g, rank) for g in range(len(permutations)))

        return _Tables(squares, lru_cache(maxsize=_MOVERS)(mover_images), image, min)
    table = triple_images(board)
    first, second, third = (np.ascontiguousarray(column) for column in triples.astype(np.int64).T)
    return _Tables((first, second, third), lambda rank: tuple(table[:, rank].tolist()), lambda g, ranks: table[g][ranks],
                   np.minimum)


def _decode(indices: npt.NDArray[np.int64], board: Board) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(mover's triple rank, other side's triple rank, not squeezed) of each index."""
    _, other = index.decode(indices, board.size)
    return indices // index.other_count(board.size), index.triple_rank(other[:, 0], other[:, 1], other[:, 2])


def _image(mover_rank: npt.NDArray[np.int64], other_rank: npt.NDArray[np.int64], symmetry: int,
           board: Board) -> npt.NDArray[np.int64]:
    """Indices of the images under ``symmetry`` of the positions (mover rank, other side's full rank)."""
    table, triples = triple_images(board), index.triples(board.size)
    mover = triples[table[symmetry, mover_rank]]
    other = triples[table[symmetry, other_rank]]
    m0, m1, m2 = mover[:, 0], mover[:, 1], mover[:, 2]
    image: npt.NDArray[np.int64] = index.encode(m0, m1, m2, other[:, 0], other[:, 1], other[:, 2],
                                                index.other_count(board.size)).astype(np.int64)
    return image


def images(indices: index.Integers, board: Board) -> npt.NDArray[np.int64]:
    """Indices of the images of each position: shape ``(symmetries, len(indices))``, row ``g`` the
    image under symmetry ``g`` (row 0 the indices themselves)."""
    indices = np.asarray(indices, dtype=np.int64).reshape(-1)
    mover_rank, other_rank = _decode(indices, board)
    return np.array([_image(mover_rank, other_rank, g, board) for g in range(symmetry_count(board))],
                    dtype=np.int64).reshape(symmetry_count(board), len(indices))


def canonical_indices(indices: index.Integers, board: Board) -> npt.NDArray[np.int64]:
    """The canonical index (smallest index among the images, see the module docstring) of each index.

    Takes an index or an array of them (any shape); returns int64 of the same shape."""
    array = np.asarray(indices, dtype=np.int64)
    flat = array.reshape(-1)
    other_count = index.other_count(board.size)
    if len(flat) <= _FEW:
        plain = _tables(board, plain=True)
        return np.array([_canonical_with_mover(item // other_count, item % other_count, plain, other_count)
                         for item in flat.tolist()], dtype=np.int64).reshape(array.shape)
    movers = flat // other_count
    order = np.argsort(movers, kind="stable")
    movers = movers[order]
    bounds = np.flatnonzero(np.diff(movers)) + 1
    if len(flat) < _DENSE * (len(bounds) + 1):
        return _canonical_by_symmetry(flat, board).reshape(array.shape)
    canonical = np.empty(len(flat), dtype=np.int64)
    tables = _tables(board, plain=False)
    for first, last in zip(np.r_[0, bounds], np.r_[bounds, len(flat)]):
        chosen = order[first:last]
        canonical[chosen] = _canonical_with_mover(int(movers[first]), flat[chosen] % other_count, tables, other_count)
    return canonical.reshape(array.shape)


def _canonical_by_symmetry(indices: np.ndarray, board: Board) -> np.ndarray:
    """Canonical indices, one symmetry at a time over the indices whose mover it minimises."""
    table = triple_images(board)
    mover_rank, other_rank = _decode(indices, board)
    best = smallest_triple_images(board)[mover_rank]
    canonical = np.full(len(indices), np.iinfo(np.int64).max, dtype=np.int64)
    for g in range(len(table)):
        chosen = np.flatnonzero(table[g, mover_rank] == best)
        if len(chosen):  # a probe's few indices meet one symmetry or two: the others cost nothing
            canonical[chosen] = np.minimum(canonical[chosen], _image(mover_rank[chosen], other_rank[chosen], g, board))
    return canonical


def _canonical_with_mover(mover: int, squeezed: index.Integers, tables: _Tables, other_count: int) -> index.Integers:
    """Canonical indices of the positions with the mover on the triple of rank ``mover``, given the
    other side's squeezed ranks: an array of them with ``tables`` of arrays, one int with plain ones."""
    # The mover's part of the index dominates, so only the symmetries that bring the mover's triple to
    # its smallest image can give the canonical index: just one unless the mover's triple is symmetric.
    first, second, third = tables.squares
    m0, m1, m2 = int(first[mover]), int(second[mover]), int(third[mover])
    other_rank = index.triple_rank(index.unsqueeze(first[squeezed], m0, m1, m2),
                                   index.unsqueeze(second[squeezed], m0, m1, m2),
                                   index.unsqueeze(third[squeezed], m0, m1, m2))
    mover_images = tables.mover_images(mover)
    best = min(mover_images)
    b0, b1, b2 = int(first[best]), int(second[best]), int(third[best])
    canonical: Any = None
    for g, mover_image in enumerate(mover_images):
        if mover_image != best:
            continue
        image = tables.image(g, other_rank)
        rank = index.triple_rank(index.squeeze(first[image], b0, b1, b2), index.squeeze(second[image], b0, b1, b2),
                                 index.squeeze(third[image], b0, b1, b2))
        canonical = rank if canonical is None else tables.minimum(canonical, rank)
    return canonical + best * other_count


def class_sizes(indices: index.Integers, board: Board) -> npt.NDArray[np.int64]:
    """How many distinct positions the class of each index has (a divisor of the symmetry count).

    >>> int(class_sizes(0, Board(5, 5))[()])
    8
    """
    array = np.asarray(indices, dtype=np.int64)
    every = np.sort(images(array, board), axis=0)
    sizes: npt.NDArray[np.int64] = 1 + np.count_nonzero(every[1:] != every[:-1], axis=0)
    return sizes.reshape(array.shape)


def by_class(indices: index.Integers, board: Board) -> list[tuple[int, list[int]]]:
    """``indices`` grouped by class: (canonical index, the indices of that class among them, in order),
    by canonical index.

    >>> from solver.neutreeko.model.game import Game
    >>> from solver.neutreeko.model.position import Position
    >>> start = Position.start(Game.of("5x5"))
    >>> twins = [start.play("B1-A1").index(), start.play("D1-E1").index()]  # mirror images
    >>> [len(members) for _, members in by_class([*twins, start.index(), twins[0]], start.game.board)]
    [2, 1]
    """
    array = np.asarray(indices, dtype=np.int64).reshape(-1)
    groups: dict[int, list[int]] = {}
    for position_index, canonical in zip(array.tolist(), canonical_indices(array, board).tolist()):
        members = groups.setdefault(canonical, [])
        if position_index not in members:
            members.append(position_index)
    return [(canonical, sorted(groups[canonical])) for canonical in sorted(groups)]
