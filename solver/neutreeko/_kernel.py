"""Numba kernels of the retrograde analysis. Private: :mod:`solver.neutreeko.solve` is the public wrapper.

The kernels see integers and arrays only, never a board. Geometry comes as tables over the board's
``N`` squares plus one extra square, the *wall* (square ``N``), which stands for everything off the
board and counts as occupied, so "off the board or occupied" is one bit test:

* ``steps[square, direction]``: the neighbour, or the wall (whose own steps lead back to it);
* ``rays[square, k]``: bitmask of the squares met going out from ``square`` along its k-th direction,
  without the wall; for ``k < 4`` the square numbers rise along the ray, for ``k >= 4`` they fall;
  ``stops[square, k]``: the neighbour of ``square`` on the other side, i.e. where a piece that slid
  in along ray ``k`` would have gone next.

Positions are indices of :mod:`solver.neutreeko.index` (``triples[rank]``: sorted squares of a rank; ``wins[rank]``:
does that triple win); ``weights[k, square]`` is what ``square`` adds to a triple's rank as the triple's
k-th smallest square, so that ``rank(a < b < c) = weights[0, a] + weights[1, b] + weights[2, c]``.

``result`` holds one byte per index, the encoding of :mod:`solver.neutreeko.values`: 0 undecided (a draw
once the analysis ends), 255 not a legal position, otherwise distance + 1 (odd distance: the mover
wins; even: the mover loses). ``decided`` is one bit per index, set once ``result`` is final.

A level (the positions decided at one distance) is processed in three steps:

* on large boards, :func:`_other_ranks` and :func:`_group` order its positions by the squares of their
  other side, so that the parents met together lie in few stretches of the index (see
  :func:`solver.neutreeko.solve._level_positions`);
* :func:`_gather`, in parallel over chunks of the level, writes each position's undecided
  predecessors (*parents*) into the bucket of the *part* that the parent lies in
  (``part_of[parent's mover rank]``);
* :func:`_settle` runs one thread per part over that part's buckets and decides parents.

Parts own disjoint sets of indices made of runs whose bounds are multiples of 8, so no two threads
write the same byte of ``result``, ``moves_left`` or ``decided``, and each part appends what it decides
to its own segment of the queue. The order of settling changes nothing that is decided: a parent of a
lost position is won whichever child comes first, and a counter reaches zero within the level whatever
the order of its decrements. So the result is the same for any number of threads.
"""

import os

import numba as nb
import numpy as np

# LLVM's count-leading/trailing-zeros instructions, which numba does not otherwise expose.
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from solver.neutreeko import index
from solver.neutreeko.values import ILLEGAL

# Threads wait for work asleep rather than spinning. Between the many short parallel passes, spinning
# threads steal whole time slices from each other once the machine is busy with anything else, and a
# pass then costs milliseconds instead of microseconds. The OpenMP runtime reads this when numba starts
# it, at the first parallel call; a value the user has set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_jit = nb.njit(cache=True, nogil=True, error_model="numpy")
_triple_rank = _jit(index.triple_rank)
_unsqueeze = _jit(index.unsqueeze)
_unsigned = np.uintp  # an array index known not to be negative (for indexing only, not arithmetic)


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
def _occupancy(a, b, c, d, e, f, wall):
    """Bitmask of six squares and the wall."""
    one = np.int64(1)
    return (one << a) | (one << b) | (one << c) | (one << d) | (one << e) | (one << f) | (one << wall)


@_jit
def _blocked(square, occupied):
    """1 if ``square`` is the wall or occupied (a slide stops just before it), else 0."""
    return (occupied >> square) & 1


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _classify(steps, triples, wins, other_count, result, moves_left):
    """Fill ``result`` with ILLEGAL (mover has already won) and lost-in-0 (the other side has won, or
    the mover cannot move); ``moves_left`` with every other position's number of moves."""
    wall = steps.shape[0] - 1
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
            occupied = _occupancy(m0, m1, m2, o0, o1, o2, wall)
            moves = 0
            for piece in (m0, m1, m2):
                for direction in range(8):
                    moves += 1 - _blocked(steps[piece, direction], occupied)
            if moves == 0:
                result[position] = 1
            else:
                moves_left[position] = moves


@_jit
def _is_decided(decided, position):
    """1 if the bit of ``position`` is set, else 0."""
    return (decided[_unsigned(position >> 3)] >> (position & 7)) & 1


@_jit
def _origins(square, occupied, rays, stops):
    """Bitmask of the squares from which a piece slides to ``square`` (occupied by it) and stops there.

    Along each ray those are the free squares before the first blocker, provided the square beyond
    ``square`` on the other side is blocked. Bit arithmetic rather than a walk square by square: a
    walk's length is data, and its mispredicted exit, once per ray, costs more than all of this."""
    origins = np.int64(0)
    for k in range(4):
        # Rising ray: the first blocker is its lowest occupied bit; keep the ray's bits below it.
        ray = rays[square, k]
        blockers = occupied & ray
        free = ray & ((blockers & -blockers) - 1)
        origins |= free & -_blocked(stops[square, k], occupied)
        # Falling ray: the first blocker is its highest occupied bit; keep the ray's bits above it.
        ray = rays[square, k + 4]
        free = ray & (np.int64(-1) << (64 - leading_zeros(occupied & ray)))
        origins |= free & -_blocked(stops[square, k + 4], occupied)
    return origins


@_jit
def _unmoves(position, rays, stops, triples, weights, other_count, decided, part_of, out, base, counts):
    """Append the undecided predecessors of ``position`` (the positions from which the side that just
    moved reaches it in one move) to the buckets: part ``p``'s to ``out[p, base + counts[p]]``."""
    m0, m1, m2, o0, o1, o2 = _decode(position, triples, other_count)
    occupied = _occupancy(m0, m1, m2, o0, o1, o2, rays.shape[0])
    for moved in range(3):
        # The piece on `square` moves back; `low` < `high` stay. The parent's mover is the side that
        # just moved, its other side the present mover, squeezed around the parent's mover.
        square, low, high = (o0, o1, o2) if moved == 0 else ((o1, o0, o2) if moved == 1 else (o2, o0, o1))
        # What `low` and `high` add to the parent's mover rank with the origin below, between, above.
        below = weights[1, low] + weights[2, high]
        between = weights[0, low] + weights[2, high]
        above = weights[0, low] + weights[1, high]
        # The other side's rank with the origin above all three, and what it loses (the squeezed
        # square one lower) for each of its squares above the origin.
        s0 = m0 - (low < m0) - (high < m0)
        s1 = m1 - (low < m1) - (high < m1)
        s2 = m2 - (low < m2) - (high < m2)
        other_above = s0 + weights[1, s1] + weights[2, s2]
        drop1 = weights[1, s1] - weights[1, s1 - 1]  # s1 >= 1 and s2 >= 2: squares of a sorted triple
        drop2 = weights[2, s2] - weights[2, s2 - 1]
        origins = _origins(square, occupied, rays, stops)
        while origins:
            # The hottest loop. Indices are cast to unsigned, which spares the negative-index wraparound
            # that numba adds to every signed one; where `origin` falls among the other squares is
            # computed by comparisons, not branches, as it follows no pattern.
            origin = trailing_zeros(origins)
            origins &= origins - 1
            place = (origin > low) + (origin > high)
            mover = (weights[_unsigned(place), _unsigned(origin)]
                     + (below if origin < low else (between if origin < high else above)))
            other = (other_above - (origin < m0) - (drop1 if origin < m1 else 0)
                     - (drop2 if origin < m2 else 0))
            parent = mover * other_count + other
            part = _unsigned(part_of[_unsigned(mover)])
            # Written always, kept only if undecided: cheaper than a branch taken half the time.
            out[part, _unsigned(base + counts[part])] = parent
            counts[part] += 1 - _is_decided(decided, parent)


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _gather(queue, first, last, block, rays, stops, triples, weights, other_count, decided, part_of,
            out, counts):
    """Undecided predecessors of ``queue[first:last]``, by blocks of ``block`` positions: block ``b``
    writes the parents that lie in part ``p`` to ``out[p, b * capacity:]`` and their number to
    ``counts[b, p]``, ``capacity = out.shape[1] // counts.shape[0]`` being room for the predecessors
    of ``block`` positions. Returns the number of blocks."""
    blocks = (last - first + block - 1) // block
    capacity = out.shape[1] // counts.shape[0]
    for b in nb.prange(blocks):
        counts[b, :] = 0
        for slot in range(first + b * block, min(first + (b + 1) * block, last)):
            _unmoves(queue[slot], rays, stops, triples, weights, other_count, decided, part_of, out,
                     b * capacity, counts[b])
    return blocks


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _settle(out, counts, blocks, losing, code, result, decided, moves_left, queue, tails):
    """Decide the parents gathered by :func:`_gather` in its first ``blocks`` blocks; part ``p``
    appends what it decides to ``queue[tails[p]:]`` and advances ``tails[p]``.

    Predecessors of a lost position are won (``losing``); a predecessor of a won position is lost when
    its last undecided move is gone. ``code`` is the result byte of the next level.
    """
    capacity = out.shape[1] // counts.shape[0]
    for part in nb.prange(out.shape[0]):
        tail = tails[part]
        for b in range(blocks):
            for k in range(b * capacity, b * capacity + counts[b, part]):
                parent = out[part, k]
                if _is_decided(decided, parent):  # earlier in this level
                    continue
                if not losing:
                    moves_left[parent] -= 1
                    if moves_left[parent] != 0:
                        continue
                result[parent] = code
                decided[parent >> 3] |= np.uint8(1 << (parent & 7))
                queue[tail] = parent
                tail += 1
        tails[part] = tail


@_jit
def _queue_slot(starts, ends, slot):
    """Where the ``slot``-th position of the queue segments ``queue[starts[p]:ends[p]]``, taken one
    segment after the other, is in the queue."""
    segment, slot = 0, np.int64(slot)
    while slot >= ends[segment] - starts[segment]:
        slot -= ends[segment] - starts[segment]
        segment += 1
    return starts[segment] + slot


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _other_ranks(queue, starts, ends, triples, other_count, ranks):
    """``ranks[i]``: the triple rank of the other side's squares of the ``i``-th position of the queue
    segments ``queue[starts[p]:ends[p]]``, taken one segment after the other."""
    for slot in nb.prange(ranks.shape[0]):
        _, _, _, o0, o1, o2 = _decode(queue[_queue_slot(starts, ends, slot)], triples, other_count)
        ranks[slot] = _triple_rank(o0, o1, o2)


@_jit
def _group(queue, starts, ends, ranks, firsts, grouped):
    """Copy the positions of the queue segments to ``grouped`` in the order of their ``ranks`` (see
    :func:`_other_ranks`), a counting sort: those of rank ``r`` go to ``grouped[firsts[r]:]`` in queue
    order, and ``firsts[r]`` is advanced."""
    slot = 0
    for segment in range(starts.shape[0]):
        for position in queue[starts[segment]:ends[segment]]:
            grouped[firsts[ranks[slot]]] = position
            firsts[ranks[slot]] += 1
            slot += 1
