"""The dense position index: every (mover's squares, other side's squares) pair gets one integer.

A position is seen from the side to move (the *mover*); colours do not appear, so one table serves both.
Each side's three squares are ranked among all three-square sets in colexicographic order::

    rank(a < b < c) = C(a, 1) + C(b, 2) + C(c, 3)          e.g. {0,1,2} -> 0, {0,1,3} -> 1, {0,2,3} -> 2

The other side's squares are first *squeezed*: the mover's three squares are taken out and the rest
renumbered 0 .. N-4, so that every index stands for a real position::

    squares      0  1  2  3  4  5  6  7  8 ...        mover on 2, 5, 6 (M)
    occupant     .  .  M  .  .  M  M  .  . ...
    squeezed     0  1  -  2  3  -  -  4  5 ...        other on 3, 8 -> squeezed 2, 5

    index = rank(mover) * C(N-3, 3) + rank(squeezed other)

    0                C(N-3,3)           2*C(N-3,3)                 C(N,3)*C(N-3,3)
    |-- mover {0,1,2} --|-- mover {0,1,3} --|-- ... --|-- mover {N-3,N-2,N-1} --|

On 5 x 5 that is 2,300 x 1,540 = 3,542,000 indices; 73,920 of them have the mover already three in a
row (not legal), leaving 3,468,080 legal positions. On 7 x 7: 18,424 x 15,180 = 279,676,320 indices.

The scalar functions below use plain arithmetic only, so that the retrograde kernel compiles the very
same functions with numba and the query path runs them in plain Python or on numpy arrays.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

#: Version of this layout, stored in every table; change it whenever the mapping changes.
INDEX_SCHEME = 1

#: An int, a numpy integer or an array of them: the scalar functions below take any of them alike (and
#: numba compiles them for the kernels), so their types are not narrowed further.
Integers = Any


def triple_rank(a: Integers, b: Integers, c: Integers) -> Integers:
    """Colexicographic rank of the sorted squares ``a < b < c``."""
    return a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6


def squeeze(square: Integers, m0: Integers, m1: Integers, m2: Integers) -> Integers:
    """Renumber ``square`` (not one of the mover's ``m0, m1, m2``) among the squares the mover leaves free."""
    return square - (m0 < square) - (m1 < square) - (m2 < square)


def unsqueeze(free: Integers, m0: Integers, m1: Integers, m2: Integers) -> Integers:
    """Inverse of :func:`squeeze` for the mover's sorted squares ``m0 < m1 < m2``."""
    free = free + (m0 <= free)
    free = free + (m1 <= free)
    return free + (m2 <= free)


def encode(m0: Integers, m1: Integers, m2: Integers, o0: Integers, o1: Integers, o2: Integers,
           other_count: int) -> Integers:
    """Index of the position with the mover on sorted ``m0 < m1 < m2`` and the other side on sorted
    ``o0 < o1 < o2``; ``other_count`` is :func:`other_count` of the board."""
    other = triple_rank(squeeze(o0, m0, m1, m2), squeeze(o1, m0, m1, m2), squeeze(o2, m0, m1, m2))
    # In int64 whatever the squares' type: on 9 x 9 and 10 x 10 an index passes 2^31.
    return np.multiply(triple_rank(m0, m1, m2), other_count, dtype=np.int64) + other


def other_count(squares: int) -> int:
    """How many squeezed triples the other side has: C(N-3, 3)."""
    return comb(squares - 3, 3)


def position_count(squares: int) -> int:
    """Number of indices on a board of ``squares`` squares: C(N, 3) * C(N-3, 3)."""
    return comb(squares, 3) * other_count(squares)


@lru_cache(maxsize=None)
def pairs(squares: int) -> npt.NDArray[np.int32]:
    """``pairs(N)[k]`` is the sorted pair ``a < b`` of rank ``k = a + C(b, 2)`` among the squares below
    ``N - 1`` (the lower two squares of a triple; shape ``(C(N-1, 2), 2)``, int32, read-only)."""
    tops = np.arange(squares - 1, dtype=np.int32)
    second = np.repeat(tops, tops)
    table = np.stack([np.arange(len(second), dtype=np.int32) - np.repeat(tops * (tops - 1) // 2, tops), second], axis=1)
    table.flags.writeable = False
    return table


def by_pair(values: np.ndarray, squares: int, out: np.ndarray | None = None) -> np.ndarray:
    """``values[k]`` (one per pair of :func:`pairs`) for the lower pair of each triple, in triple rank
    order (into ``out`` if given)."""
    # In rank order, the triples with top square c are the pairs a < b < c in their own rank order: the
    # first C(c, 2) pairs.
    return np.concatenate([values[:top * (top - 1) // 2] for top in range(squares)], out=out)


def by_top(values: np.ndarray, squares: int) -> np.ndarray:
    """``values[c]`` (one per square) for the top square ``c`` of each triple, in triple rank order."""
    tops = np.arange(squares)
    return np.repeat(values, tops * (tops - 1) // 2)


@lru_cache(maxsize=None)
def triples(squares: int) -> npt.NDArray[np.int32]:
    """``triples(N)[r]`` is the sorted triple of rank ``r`` (shape ``(C(N,3), 3)``, int32, read-only)."""
    lower = pairs(squares)
    table = np.empty((comb(squares, 3), 3), dtype=np.int32)
    by_pair(lower[:, 0], squares, out=table[:, 0])
    by_pair(lower[:, 1], squares, out=table[:, 1])
    table[:, 2] = by_top(np.arange(squares, dtype=np.int32), squares)
    table.flags.writeable = False
    return table


def rank_weights(squares: int) -> npt.NDArray[np.int32]:
    """``weights[k, s]``: what square ``s`` adds to :func:`triple_rank` as a triple's k-th smallest square,
    of ``squares`` (the rank is a sum of one term per square, and a square 0 adds nothing): the kernels
    look the terms up rather than multiply and divide."""
    s, zero = np.arange(squares), np.zeros(squares, dtype=np.int64)
    return np.array([triple_rank(s, zero, zero), triple_rank(zero, s, zero), triple_rank(zero, zero, s)],
                    dtype=np.int32)


def decode(indices: Integers, squares: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """(mover squares, other squares), each sorted, of an index or an array of indices."""
    table = triples(squares)
    mover = table[np.asarray(indices) // other_count(squares)]
    squeezed = table[np.asarray(indices) % other_count(squares)]
    m0, m1, m2 = mover[..., 0], mover[..., 1], mover[..., 2]
    other = unsqueeze(squeezed, m0[..., None], m1[..., None], m2[..., None])
    return mover, other
