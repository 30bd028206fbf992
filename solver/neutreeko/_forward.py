"""Numba kernels of the forward consistency check. Private: :mod:`solver.neutreeko.check` is the public
wrapper.

Independent of the retrograde kernels on purpose: moves are generated forwards, square by square along
``steps[square, direction]`` (the neighbour, or -1 off the board) as the rules describe a slide, and
each child is encoded with the plain functions of :mod:`solver.neutreeko.index`; nothing of the solver's
unmoves, ray words or bookkeeping is used. The definitions checked are those of
:mod:`solver.neutreeko.values`, as the expected byte of a position given its children's bytes.

The pass runs over the *other* side's triple (a row of the parallel loop), then every mover triple
that leaves it free: all the children of those positions have that triple as their mover, so they lie
in one stretch of the index, ``C(N - 3, 3)`` bytes, which stays in the caches while the row is checked.
"""

import numba as nb
import numpy as np

from solver.neutreeko import index
from solver.neutreeko.values import ILLEGAL, UNDECIDED

_jit = nb.njit(cache=True, nogil=True, error_model="numpy")
_triple_rank = _jit(index.triple_rank)
_squeeze = _jit(index.squeeze)


@_jit
def _expected(m0, m1, m2, other_rank, steps, wins, weights, squeezed, row_base, result, occupied):
    """The byte that the position (mover on ``m0 < m1 < m2``, other side on the triple of rank
    ``other_rank``) must hold given its children's bytes: ILLEGAL if the mover has won; lost in 0 if
    the other side has won or the mover has no move; else won in 1 + the shortest loss among the
    children if there is one; else a draw if a child is drawn; else lost in 1 + the longest win.

    ``occupied`` marks the six pieces' squares; ``squeezed[square]`` numbers the squares the other side
    leaves free, and its children lie from ``row_base`` on (their mover is the other side)."""
    if wins[_triple_rank(m0, m1, m2)]:
        return ILLEGAL
    if wins[other_rank]:
        return 1
    shortest_loss, longest_win, drawn, moves = 1 << 30, -1, False, 0
    for moved in range(3):
        origin, low, high = (m0, m1, m2) if moved == 0 else ((m1, m0, m2) if moved == 1 else (m2, m0, m1))
        for direction in range(steps.shape[1]):
            target = origin
            while steps[target, direction] >= 0 and not occupied[steps[target, direction]]:
                target = steps[target, direction]
            if target == origin:
                continue
            moves += 1
            # The child: the other side to move, the mover's pieces on low, high and target.
            if target < low:
                a, b, c = target, low, high
            elif target < high:
                a, b, c = low, target, high
            else:
                a, b, c = low, high, target
            byte = np.int64(result[row_base + weights[0, squeezed[a]] + weights[1, squeezed[b]]
                                   + weights[2, squeezed[c]]])
            if byte == UNDECIDED:
                drawn = True
            elif byte == ILLEGAL:
                longest_win = 1 << 30  # no legal position has an illegal child: never consistent
            elif (byte - 1) % 2 == 0:
                shortest_loss = min(shortest_loss, byte - 1)
            else:
                longest_win = max(longest_win, byte - 1)
    if moves == 0:
        return 1
    if shortest_loss < (1 << 30):
        return shortest_loss + 2
    if drawn:
        return UNDECIDED
    return longest_win + 2


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _check_rows(result, steps, triples, wins, weights, other_count, legal, wrong, listing, found, found_offsets,
                expected):
    """Check every index, a row per triple of the other side: ``legal[row]`` counts the legal positions
    and ``wrong[row]`` those whose byte is not the expected one. If ``found_offsets[row] >= 0``, the
    row's wrong indices also go to ``found[found_offsets[row]:]`` and their expected bytes to
    ``expected`` (the same places), as many as there is room for; if ``listing``, only those rows are
    checked."""
    squares = steps.shape[0]
    for row in nb.prange(triples.shape[0]):
        if listing and found_offsets[row] < 0:
            continue
        o0, o1, o2 = triples[row, 0], triples[row, 1], triples[row, 2]
        occupied = np.zeros(squares, dtype=np.bool_)
        occupied[o0] = occupied[o1] = occupied[o2] = True
        squeezed = np.empty(squares, dtype=np.int64)
        for square in range(squares):
            squeezed[square] = _squeeze(square, o0, o1, o2)
        row_base = row * np.int64(other_count)
        slot = found_offsets[row]
        legal_here, wrong_here = 0, 0
        for mover in range(triples.shape[0]):
            m0, m1, m2 = triples[mover, 0], triples[mover, 1], triples[mover, 2]
            if occupied[m0] or occupied[m1] or occupied[m2]:
                continue
            position = mover * np.int64(other_count) + _triple_rank(
                _squeeze(o0, m0, m1, m2), _squeeze(o1, m0, m1, m2), _squeeze(o2, m0, m1, m2))
            occupied[m0] = occupied[m1] = occupied[m2] = True
            byte = _expected(m0, m1, m2, row, steps, wins, weights, squeezed, row_base, result, occupied)
            occupied[m0] = occupied[m1] = occupied[m2] = False
            legal_here += byte != ILLEGAL
            if result[position] != byte:
                wrong_here += 1
                if slot >= 0 and slot < found.shape[0]:
                    found[slot] = position
                    expected[slot] = byte
                    slot += 1
        legal[row] = legal_here
        wrong[row] = wrong_here
