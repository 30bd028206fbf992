"""Numba kernels of the retrograde analysis. Private: :mod:`solver.neutreeko.solving.solve` is the public wrapper.

The kernels see integers and arrays only, never a board: positions are indices of
:mod:`solver.neutreeko.model.index`, geometry the *ray words* of
:mod:`solver.neutreeko.solving.kernel_inputs` (the tuple ``rays``). Two arrays hold the whole state of
a solve:

* ``result``, one byte per index: once the index is *decided*, its byte in the encoding of
  :mod:`solver.neutreeko.model.values` (255 not a legal position, otherwise distance + 1: odd distance,
  the mover wins; even, the mover loses); until then, the number of its moves not yet known to lead to
  a won position, counted down. Undecided bytes become 0 (draw) at the end.
* ``decided``, one bit per index, set once ``result`` is final.

A level is found again in ``result`` by :func:`_collect_rows`, a slab of rows at a time; :func:`_gather`
writes each position's undecided parents into the bucket of the part they lie in, and
:func:`_settle_parts` decides them, one thread per part. The result is the same for any number of
threads and any slab size.

Each kernel is serial over a range (rows, blocks, parts, bytes), spread over threads by the solve over
positions (:mod:`solver.neutreeko.solving.spread`): a parallel kernel costs a first run several times
as much compiling. The class solve calls the parallel wrappers (:func:`_collect`, :func:`_settle`...).
Small functions are inlined where called (``inline="always"``): each is compiled within the kernels.

The ray words, the levels, the parts and why the order of settling changes nothing:
docs/design/kernels.md.
"""

import os

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types

# LLVM's count-trailing-zeros instruction, which numba does not otherwise expose.
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from solver.core.jit import njit
from solver.neutreeko.model import index
from solver.neutreeko.model.values import ILLEGAL

# Threads wait for work asleep rather than spinning. Between the many short parallel passes, spinning
# threads steal whole time slices from each other once the machine is busy with anything else, and a
# pass then costs milliseconds instead of microseconds. The OpenMP runtime reads this when numba starts
# it, at the first parallel call; a value the user has set wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_jit = njit(cache=True, nogil=True, error_model="numpy", inline="always")
_triple_rank = _jit(index.triple_rank)
_unsqueeze = _jit(index.unsqueeze)
_unsigned = np.uintp  # an array index known not to be negative (for indexing only, not arithmetic)
# Items of a parallel wrapper's task where an item is small (a slot, a byte).
_STRIDE = 1 << 12


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
def _ray_occupancy(square, a, b, c, d, e, f, ray_bit, ray_guards):
    """``square``'s ray word with the bits of the six pieces' squares and the guard bits set."""
    square = _unsigned(square)
    return (ray_bit[square, _unsigned(a)] | ray_bit[square, _unsigned(b)] | ray_bit[square, _unsigned(c)]
            | ray_bit[square, _unsigned(d)] | ray_bit[square, _unsigned(e)] | ray_bit[square, _unsigned(f)]
            | ray_guards[square])


@_jit
def _blocked_neighbours(occupied):
    """The neighbour bits of a ray word: bit ``k`` for a blocked neighbour in direction ``k``."""
    return (occupied >> 56) & 255


@_jit
def _bit_count(byte):
    count = 0
    while byte:
        byte &= byte - 1
        count += 1
    return count


@_jit
def _mark_decided(decided, position):
    decided[_unsigned(position >> 3)] |= np.uint8(1 << (position & 7))


@_jit
def _is_decided(decided, position):
    """1 if the bit of ``position`` is set, else 0."""
    return (decided[_unsigned(position >> 3)] >> (position & 7)) & 1


@_jit
def _move_count(m0, m1, m2, o0, o1, o2, ray_bit, ray_guards):
    """How many moves the mover (on ``m0, m1, m2``) has, the other side on ``o0, o1, o2``."""
    moves = 0
    for piece in (m0, m1, m2):
        # As an int64, as _unmoves passes its square: one compiled _ray_occupancy serves both.
        occupied = _ray_occupancy(np.int64(piece), m0, m1, m2, o0, o1, o2, ray_bit, ray_guards)
        moves += 8 - _bit_count(_blocked_neighbours(occupied))
    return moves


@_jit
def _classify(first, last, rays, triples, wins, other_count, run, result, decided, fresh):
    """Decide what is decided before any move in the runs ``first`` to ``last`` of ``run`` mover ranks
    (whose indices fill whole bytes of ``decided``, so that runs may go to different threads): ILLEGAL
    where the mover has already won, lost in 0 where the other side has won or the mover cannot move
    (counted in ``fresh``); every other index gets its number of moves."""
    ray_bit, ray_guards, _, _, _ = rays
    movers = triples.shape[0]
    for group in range(first, last):
        for mover in range(group * run, min((group + 1) * run, movers)):
            base = mover * other_count
            if wins[mover]:
                result[base:base + other_count] = ILLEGAL
                for position in range(base, base + other_count):
                    _mark_decided(decided, position)
                continue
            m0, m1, m2 = triples[mover, 0], triples[mover, 1], triples[mover, 2]
            for squeezed in range(other_count):
                o0 = _unsqueeze(triples[squeezed, 0], m0, m1, m2)
                o1 = _unsqueeze(triples[squeezed, 1], m0, m1, m2)
                o2 = _unsqueeze(triples[squeezed, 2], m0, m1, m2)
                moves = 0 if wins[_triple_rank(o0, o1, o2)] else _move_count(m0, m1, m2, o0, o1, o2, ray_bit,
                                                                             ray_guards)
                position = base + squeezed
                if moves == 0:
                    result[position] = 1
                    _mark_decided(decided, position)
                    fresh[mover] += 1
                else:
                    result[position] = moves


@_jit
def _origins(square, occupied, ray_firsts, ray_live):
    """The ray-word bits of the squares from which a piece slides to ``square`` (occupied by it) and
    stops there; ``occupied`` is from :func:`_ray_occupancy`.

    Along each ray those are the free squares before the first blocker, provided the neighbour on the
    other side of ``square`` is blocked. Bit arithmetic rather than a walk square by square: a walk's
    length is data, and its mispredicted exit, once per ray, costs more than all of this. Subtracting
    each ray's first bit borrows up to the ray's first set bit (a blocker or its guard) and no further,
    so the bits it clears are the free squares of every ray at once."""
    free = (occupied - ray_firsts[_unsigned(square)]) & ~occupied
    return free & ray_live[_unsigned(square), _unsigned(_blocked_neighbours(occupied))]


@_jit
def _staying_weights(low, high, weights):
    """What the pieces staying on ``low < high`` add to the rank of their side's triple with the third
    piece below, between and above them."""
    return (weights[1, low] + weights[2, high], weights[0, low] + weights[2, high],
            weights[0, low] + weights[1, high])


@_jit
def _parent_mover(origin, low, high, weights, below, between, above):
    """The rank of the triple ``origin, low, high`` (``low < high``), given :func:`_staying_weights`.
    Where ``origin`` falls among the others is computed by comparisons, not branches, as it follows no
    pattern."""
    place = (origin > low) + (origin > high)
    return (weights[_unsigned(place), _unsigned(origin)]
            + (below if origin < low else (between if origin < high else above)))


@_jit
def _unmoves(position, rays, triples, weights, other_count, decided, part_of, out, base, counts):
    """Append the undecided predecessors of ``position`` (the positions from which the side that just
    moved reaches it in one move) to the buckets: part ``p``'s to ``out[p, base + counts[p]]``."""
    ray_bit, ray_guards, ray_firsts, ray_live, ray_square = rays
    m0, m1, m2, o0, o1, o2 = _decode(position, triples, other_count)
    for moved in range(3):
        # The piece on `square` moves back; `low` < `high` stay. The parent's mover is the side that
        # just moved, its other side the present mover, squeezed around the parent's mover.
        square, low, high = (o0, o1, o2) if moved == 0 else ((o1, o0, o2) if moved == 1 else (o2, o0, o1))
        below, between, above = _staying_weights(low, high, weights)
        # The other side's rank with the origin above all three, and what it loses (the squeezed
        # square one lower) for each of its squares above the origin.
        s0 = m0 - (low < m0) - (high < m0)
        s1 = m1 - (low < m1) - (high < m1)
        s2 = m2 - (low < m2) - (high < m2)
        other_above = s0 + weights[1, s1] + weights[2, s2]
        drop1 = weights[1, s1] - weights[1, s1 - 1]  # s1 >= 1 and s2 >= 2: squares of a sorted triple
        drop2 = weights[2, s2] - weights[2, s2 - 1]
        occupied = _ray_occupancy(square, m0, m1, m2, o0, o1, o2, ray_bit, ray_guards)
        origins = _origins(square, occupied, ray_firsts, ray_live)
        while origins:
            # The hottest loop. Indices are cast to unsigned, which spares the negative-index wraparound
            # that numba adds to every signed one.
            origin = ray_square[_unsigned(square), _unsigned(trailing_zeros(origins))]
            origins &= origins - 1
            mover = _parent_mover(origin, low, high, weights, below, between, above)
            other = (other_above - (origin < m0) - (drop1 if origin < m1 else 0)
                     - (drop2 if origin < m2 else 0))
            parent = mover * np.int64(other_count) + other
            part = _unsigned(part_of[_unsigned(mover)])
            # Written always, kept only if undecided: cheaper than a branch taken half the time.
            out[part, _unsigned(base + counts[part])] = parent
            counts[part] += 1 - _is_decided(decided, parent)


_ONES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)


@_jit
def _collect_bytes(result, decided, code, first, last, level, slot):
    """The positions ``first`` to ``last`` decided with byte ``code`` to ``level[slot:]``; returns the
    next slot."""
    for position in range(first, last):
        if result[position] == code and _is_decided(decided, position):
            level[slot] = position
            slot += 1
    return slot


@_jit
def _next_match(words, pattern, word, last):
    """The first of ``words[word:last]`` with a byte equal to the bytes of ``pattern``, or ``last``."""
    while word < last:
        matched = words[word] ^ pattern
        if (matched - _ONES) & ~matched & _HIGHS:
            return word
        word += 1
    return last


@_jit
def _collect_range(result, words, decided, code, first, last, level, slot, end):
    """The items ``first`` to ``last`` decided with byte ``code``, in order, to ``level[slot:]``, the
    search left once slot ``end`` is reached (the range holds no more than that); returns the next
    slot. ``words`` is ``result`` seen as 8-byte words, which are tested for a byte equal to ``code``
    all at once."""
    pattern = _ONES * np.uint64(code)
    aligned = min((first + 7) // 8 * 8, last)
    slot = _collect_bytes(result, decided, code, first, aligned, level, slot)
    word, words_end = aligned // 8, last // 8
    while slot < end:
        word = _next_match(words, pattern, word, words_end)
        if word == words_end:
            break
        slot = _collect_bytes(result, decided, code, word * 8, word * 8 + 8, level, slot)
        word += 1
    if slot < end:
        slot = _collect_bytes(result, decided, code, max(words_end * 8, aligned), last, level, slot)
    return slot


@_jit
def _collect_rows(result, words, decided, code, counts, offsets, first, last, other_count, level):
    """The positions of rows (mover ranks) ``first`` to ``last`` decided with byte ``code``, in index
    order: row ``r``'s ``counts[r]`` of them go to ``level[offsets[r]:]``, a row left as soon as its
    count is found."""
    for row in range(first, last):
        if counts[row] != 0:
            base = row * np.int64(other_count)
            _collect_range(result, words, decided, code, base, base + other_count, level, offsets[row],
                           offsets[row] + counts[row])


@njit(cache=True, parallel=True, error_model="numpy")
def _collect(result, words, decided, code, counts, offsets, first, last, other_count, level):
    """:func:`_collect_rows`, a row a task, in parallel (the class solve's)."""
    for row in nb.prange(first, last):
        _collect_rows(result, words, decided, code, counts, offsets, row, row + 1, other_count, level)


@_jit
def _other_ranks_of(first, last, level, triples, other_count, ranks):
    """``ranks[i]``: the triple rank of the other side's squares of ``level[i]``, for ``first <= i < last``."""
    for slot in range(first, last):
        _, _, _, o0, o1, o2 = _decode(level[slot], triples, other_count)
        ranks[slot] = _triple_rank(o0, o1, o2)


@njit(cache=True, parallel=True, error_model="numpy")
def _other_ranks(level, size, triples, other_count, ranks):
    """:func:`_other_ranks_of` the first ``size`` slots, in parallel (the class solve's)."""
    for piece in nb.prange((size + _STRIDE - 1) // _STRIDE):
        _other_ranks_of(piece * _STRIDE, min((piece + 1) * _STRIDE, size), level, triples, other_count, ranks)


@_jit
def _group(level, size, ranks, firsts, grouped):
    """Copy ``level[:size]`` to ``grouped`` in the order of their ``ranks`` (see :func:`_other_ranks`),
    a counting sort: those of rank ``r`` go to ``grouped[firsts[r]:]`` in level order, and ``firsts[r]``
    is advanced."""
    for slot in range(size):
        grouped[firsts[ranks[slot]]] = level[slot]
        firsts[ranks[slot]] += 1


@_jit
def _gather(first_block, last_block, level, first, last, block, rays, triples, weights, other_count, decided,
            part_of, out, counts):
    """Undecided predecessors of ``level[first:last]``, by blocks of ``block`` positions, blocks
    ``first_block`` to ``last_block`` of them: block ``b`` writes the parents that lie in part ``p`` to
    ``out[p, b * capacity:]`` and their number to ``counts[b, p]``, ``capacity = out.shape[1] //
    counts.shape[0]`` being room for the predecessors of ``block`` positions."""
    capacity = out.shape[1] // counts.shape[0]
    for b in range(first_block, last_block):
        counts[b, :] = 0
        for slot in range(first + b * block, min(first + (b + 1) * block, last)):
            _unmoves(level[slot], rays, triples, weights, other_count, decided, part_of, out,
                     b * capacity, counts[b])


@intrinsic
def _prefetch(typing_context, array, item):
    """Ask the processor to bring the cache line of ``array[item]`` near, to be written (LLVM's
    prefetch, which numba does not otherwise expose); nothing else happens, whatever ``item`` is."""
    def generate(context, builder, signature, arguments):
        view = context.make_array(signature.args[0])(context, builder, arguments[0])
        pointer = cgutils.get_item_pointer(context, builder, signature.args[0], view, [arguments[1]],
                                           wraparound=False)
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(builder.module, ir.FunctionType(
            ir.VoidType(), [pointer.type, i32, i32, i32]), "llvm.prefetch.p0")
        # Written, kept in every cache level, data.
        builder.call(prefetch, [pointer, i32(1), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(array, item), generate


# How many parents ahead the settling asks for the bytes and bits it will read: enough to cover a
# trip to memory at the loop's pace, few enough that the lines are still there when it comes.
_AHEAD = 80


@_jit
def _settle_parts(first, last, out, counts, blocks, losing, code, weight, result, decided, fresh, row_length):
    """Decide the parents gathered by :func:`_gather` in its first ``blocks`` blocks that lie in parts
    ``first`` to ``last``, counting what part ``p`` decides in the rows it owns: ``fresh[parent //
    row_length]`` (``row_length`` is ``C(N-3, 3)`` here, the length of a chunk of classes in
    :mod:`solver.neutreeko.solving._class_kernel`).

    Predecessors of a lost position are won (``losing``); a predecessor of a won position is lost when
    its count of moves, lowered by ``weight`` each time it is met, comes down to zero: 1 over
    positions; over classes, the size of the class met from (see :mod:`solver.neutreeko.solving._class_kernel`).
    ``code`` is the result byte of the next level.
    """
    capacity = out.shape[1] // counts.shape[0]
    for part in range(first, last):
        for b in range(blocks):
            end = b * capacity + counts[b, part]
            for k in range(b * capacity, end):
                # The parents are in no order: each is a cache miss, which the processor would meet
                # one after another, the loop's branches on what it reads keeping few in flight.
                if k + _AHEAD < end:
                    ahead = np.int64(out[part, k + _AHEAD])
                    _prefetch(result, _unsigned(ahead))
                    _prefetch(decided, _unsigned(ahead >> 3))
                parent = np.int64(out[part, k])  # as _unmoves and _classify pass theirs: one compiled helper
                if _is_decided(decided, parent):  # earlier in this level
                    continue
                if not losing:
                    result[parent] -= weight
                    if result[parent] != 0:
                        continue
                result[parent] = code
                _mark_decided(decided, parent)
                fresh[parent // row_length] += 1


@njit(cache=True, parallel=True, error_model="numpy")
def _settle(out, counts, blocks, losing, code, weight, result, decided, fresh, row_length):
    """:func:`_settle_parts` of every part, a part a task, in parallel (the class solve's)."""
    for part in nb.prange(out.shape[0]):
        _settle_parts(part, part + 1, out, counts, blocks, losing, code, weight, result, decided, fresh, row_length)


@_jit
def _drawn(first, last, result, decided):
    """Set the byte of every undecided index of the bytes ``first`` to ``last`` of ``decided`` to 0, a draw."""
    positions = result.shape[0]
    for byte in range(first, last):
        bits = decided[byte]
        if bits == 0xFF:
            continue
        for bit in range(8):
            position = byte * np.int64(8) + bit
            if position < positions and not (bits >> bit) & 1:
                result[position] = 0


@njit(cache=True, parallel=True, error_model="numpy")
def _undecided_are_drawn(result, decided):
    """:func:`_drawn` over every byte, in parallel (the class solve's)."""
    bytes_ = decided.shape[0]
    for piece in nb.prange((bytes_ + _STRIDE - 1) // _STRIDE):
        _drawn(piece * _STRIDE, min((piece + 1) * _STRIDE, bytes_), result, decided)
