"""Numba kernels of the retrograde analysis. Private: :mod:`solver.solve` is the public wrapper.

The kernels see integers and arrays only, never a board: ``steps[square, direction]`` (the neighbour, or
-1 off the board; direction ``d`` and ``d ^ 4`` are opposite), ``triples[rank]`` (sorted squares of a
rank), ``wins[rank]`` (does that triple win) and the index layout of :mod:`solver.index`, whose scalar
functions are compiled here as they are.

``result`` holds one byte per index, the encoding of :mod:`solver.values`: 0 undecided (a draw
once the analysis ends), 255 not a legal position, otherwise distance + 1 (odd distance: the mover
wins; even: the mover loses).
"""

import numba as nb
import numpy as np

from solver import index
from solver.values import ILLEGAL, UNDECIDED

_jit = nb.njit(cache=True, nogil=True, error_model="numpy")
_triple_rank = _jit(index.triple_rank)
_squeeze = _jit(index.squeeze)
_unsqueeze = _jit(index.unsqueeze)


@_jit
def _sorted3(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@_jit
def _decode(position, triples, other_count):
    """Mover's and other side's sorted squares of an index."""
    mover = position // other_count
    squeezed = position % other_count
    m0, m1, m2 = triples[mover, 0], triples[mover, 1], triples[mover, 2]
    o0 = _unsqueeze(triples[squeezed, 0], m0, m1, m2)
    o1 = _unsqueeze(triples[squeezed, 1], m0, m1, m2)
    o2 = _unsqueeze(triples[squeezed, 2], m0, m1, m2)
    return m0, m1, m2, o0, o1, o2


@_jit
def _encode(m0, m1, m2, o0, o1, o2, other_count):
    rank = _triple_rank(_squeeze(o0, m0, m1, m2), _squeeze(o1, m0, m1, m2), _squeeze(o2, m0, m1, m2))
    return np.int64(_triple_rank(m0, m1, m2)) * other_count + rank


@_jit
def _occupancy(a, b, c, d, e, f):
    one = np.int64(1)
    return (one << a) | (one << b) | (one << c) | (one << d) | (one << e) | (one << f)


@_jit
def _blocked(square, occupied):
    """Is ``square`` off the board (-1) or occupied? A slide stops just before such a square."""
    return square < 0 or (occupied >> square) & 1 == 1


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _classify(steps, triples, wins, other_count, result, moves_left):
    """Fill ``result`` with ILLEGAL (mover has already won) and lost-in-0 (the other side has won, or
    the mover cannot move); ``moves_left`` with every other position's number of moves."""
    for mover in nb.prange(triples.shape[0]):
        base = mover * other_count
        if wins[mover]:
            result[base:base + other_count] = ILLEGAL
            continue
        m0, m1, m2 = triples[mover, 0], triples[mover, 1], triples[mover, 2]
        for squeezed in range(other_count):
            o0 = _unsqueeze(triples[squeezed, 0], m0, m1, m2)
            o1 = _unsqueeze(triples[squeezed, 1], m0, m1, m2)
            o2 = _unsqueeze(triples[squeezed, 2], m0, m1, m2)
            position = base + squeezed
            if wins[_triple_rank(o0, o1, o2)]:
                result[position] = 1
                continue
            occupied = _occupancy(m0, m1, m2, o0, o1, o2)
            moves = 0
            for piece in (m0, m1, m2):
                for direction in range(8):
                    if not _blocked(steps[piece, direction], occupied):
                        moves += 1
            if moves == 0:
                result[position] = 1
            else:
                moves_left[position] = moves


@_jit
def _is_decided(decided, position):
    return (decided[position >> 3] >> (position & 7)) & 1 == 1


@_jit
def _unmoves(position, steps, triples, other_count, decided, out, start):
    """Write to ``out[start:]`` the undecided predecessors of ``position``: the positions from which
    the side that just moved reaches it in one move. Return how many were written."""
    m0, m1, m2, o0, o1, o2 = _decode(position, triples, other_count)
    occupied = _occupancy(m0, m1, m2, o0, o1, o2)
    count = 0
    for moved in range(3):
        # The piece on `square` moves back; `low` < `high` stay. The parent's mover is the side that
        # just moved, its other side the present mover, squeezed around the parent's mover.
        square, low, high = (o0, o1, o2) if moved == 0 else ((o1, o0, o2) if moved == 1 else (o2, o0, o1))
        s0 = m0 - (low < m0) - (high < m0)
        s1 = m1 - (low < m1) - (high < m1)
        s2 = m2 - (low < m2) - (high < m2)
        for direction in range(8):
            # The piece slid in `direction` and stopped on `square`: only possible if blocked next.
            if not _blocked(steps[square, direction], occupied):
                continue
            back = direction ^ 4
            origin = steps[square, back]
            while not _blocked(origin, occupied):
                if origin < low:
                    mover = _triple_rank(origin, low, high)
                elif origin < high:
                    mover = _triple_rank(low, origin, high)
                else:
                    mover = _triple_rank(low, high, origin)
                other = _triple_rank(s0 - (origin < m0), s1 - (origin < m1), s2 - (origin < m2))
                parent = np.int64(mover) * other_count + other
                if not _is_decided(decided, parent):
                    out[start + count] = parent
                    count += 1
                origin = steps[origin, back]
    return count


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _gather(queue, first, last, steps, triples, other_count, decided, out, counts, stride):
    """Undecided predecessors of ``queue[first:last]``, ``stride`` slots per position."""
    for slot in nb.prange(last - first):
        counts[slot] = _unmoves(queue[first + slot], steps, triples, other_count, decided, out, slot * stride)


@_jit
def _settle(out, counts, stride, slots, losing, code, result, decided, moves_left, queue, tail):
    """Decide the gathered predecessors of a level's positions; append the decided ones to ``queue``.

    Predecessors of a lost position are won (``losing``); a predecessor of a won position is lost when
    its last undecided move is gone. ``code`` is the result byte of the next level. Returns the new tail.
    """
    for slot in range(slots):
        for k in range(counts[slot]):
            parent = out[slot * stride + k]
            if _is_decided(decided, parent):
                continue
            if not losing:
                moves_left[parent] -= 1
                if moves_left[parent] != 0:
                    continue
            result[parent] = code
            decided[parent >> 3] |= np.uint8(1 << (parent & 7))
            queue[tail] = parent
            tail += 1
    return tail
