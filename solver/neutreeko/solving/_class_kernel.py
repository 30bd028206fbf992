"""Numba kernels of the retrograde analysis over symmetry classes. Private:
:mod:`solver.neutreeko.solving.solve_classes` is the public wrapper.

The state is that of :mod:`solver.neutreeko.solving._kernel`, one byte and one bit per *class* instead of per
index, in the class numbering of the folded tables (:mod:`solver.neutreeko.tables.folding`), so that the bytes
at the end are the folded table itself. The classes are described to the kernels by the tuple
``classes`` of :class:`solver.neutreeko.solving.class_inputs.ClassInputs`; a class is met as its canonical
position (an index of :mod:`solver.neutreeko.model.index`), a predecessor found by unmoves is taken to its class
by :func:`_class_of`. A class's byte counts, until it is decided, the moves of every position of the
class (``moves x size``), and each unmove of a won class's canonical position lowers its parent's class
by that class's size: every move is counted exactly once. The byte array is padded with decided
ILLEGAL bytes to whole *chunks*, the rows of :func:`solver.neutreeko.solving._kernel._collect` and
:func:`solver.neutreeko.solving._kernel._settle`, which serve the class solve unchanged.

The proof of the count and the layout of the chunks: docs/design/kernels.md.
"""

import numba as nb
import numpy as np

# LLVM's count-trailing-zeros instruction, which numba does not otherwise expose.
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.core.jit import njit
from solver.neutreeko.model import index
from solver.neutreeko.model.values import ILLEGAL
from solver.neutreeko.solving._kernel import (
    _collect_range,
    _decode,
    _jit,
    _mark_decided,
    _move_count,
    _origins,
    _parent_mover,
    _ray_occupancy,
    _staying_weights,
    _triple_rank,
    _unsigned,
)

_squeeze = _jit(index.squeeze)


@_jit
def _sorted3(a, b, c):
    low, high = min(a, b), max(a, b)
    return min(low, c), max(low, min(high, c)), max(high, c)


@_jit
def _squeezed_rank(x, y, z, m0, m1, m2, weights):
    """The squeezed rank, around the mover's sorted ``m0 < m1 < m2``, of the other side's sorted
    squares ``x < y < z``, summed from the rank's ``weights``: two lookups cost the hottest step of the
    class solve less than :func:`_triple_rank`'s products and divisions."""
    return (_squeeze(x, m0, m1, m2) + weights[1, _unsigned(_squeeze(y, m0, m1, m2))]
            + weights[2, _unsigned(_squeeze(z, m0, m1, m2))])


@_jit
def _image_rank(g, a, b, c, symmetries, weights, m0, m1, m2):
    """The squeezed rank, around the mover's sorted ``m0 < m1 < m2``, of the image under symmetry ``g``
    of the other side's squares ``a, b, c``."""
    x, y, z = _sorted3(symmetries[g, a], symmetries[g, b], symmetries[g, c])
    return _squeezed_rank(x, y, z, m0, m1, m2, weights)


@_jit
def _sorted_images(a, b, c, symmetries, images):
    """``images[g]``: the sorted image of the squares ``a, b, c`` under each symmetry ``g``. Made once
    for a position's unmoves, whose parents all have those squares as their other side."""
    for g in range(symmetries.shape[0]):
        images[g, 0], images[g, 1], images[g, 2] = _sorted3(symmetries[g, a], symmetries[g, b], symmetries[g, c])


# The hottest step of the class solve, once per unmove; written so that it costs no more than its
# arithmetic and lookups. Inlined where it is called: a call of its own would pass the arrays of
# ``classes`` as some ninety arguments. And each array is indexed where it is used (``classes.rows[block]``)
# rather than unpacked into a variable: numba counts the references of such variables, atomically, on
# every call, and leaves uncounted only a reference that lives within one basic block. (Unpacked, as
# the other kernels here do once per class, the gathering of the class solve took 2 to 3 times as long.)
@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _class_of(mover, images, classes):
    """The class of the position with the mover on the triple of rank ``mover`` and the other side on
    the squares whose :func:`_sorted_images` are ``images``, or -1 if the mover has won (the position
    is not legal). Its canonical twin has the block's triple as mover and, among the symmetries that
    take the mover there, the smallest squeezed rank of the other side
    (:mod:`solver.neutreeko.model.symmetry`); a symmetric block's classes are found among its sorted
    ``sym_within`` by bisection. What the mover's triple tells comes from its one ``lookup`` record."""
    entry = classes.lookup[_unsigned(mover)]
    first = entry.first
    if first < 0:
        return np.int64(-1)
    c0, c1, c2 = entry.c0, entry.c1, entry.c2
    block = entry.symmetric_block
    if block < 0:
        g = entry.symmetry
        return first + _squeezed_rank(images[g, 0], images[g, 1], images[g, 2], c0, c1, c2, classes.weights)
    best = np.int64(1) << 62
    for j in range(classes.stab_count[block]):
        g = classes.compose[classes.stab[block, j], entry.symmetry]
        best = min(best, _squeezed_rank(images[g, 0], images[g, 1], images[g, 2], c0, c1, c2, classes.weights))
    low, high = classes.sym_first[block], classes.sym_first[block] + classes.row_start[block + 1] - first
    base = low
    while low < high:
        middle = (low + high) >> 1
        if classes.sym_within[middle] < best:
            low = middle + 1
        else:
            high = middle
    return first + low - base


@_jit
def _block_of_class(number, row_start):
    """The block that holds class ``number``."""
    return np.searchsorted(row_start, number, side="right") - 1


@_jit
def _within_rank(number, block, classes):
    """The within rank of class ``number`` of ``block``: the squeezed rank of its canonical position's
    other side."""
    row_start, sym_first, sym_within = classes[1], classes[2], classes[3]
    within = number - row_start[block]
    if sym_first[block] >= 0:
        within = np.int64(sym_within[sym_first[block] + within])
    return within


@_jit
def _canonical_index(number, block, classes, other_count):
    """The canonical index of class ``number`` of ``block``."""
    return classes[0][block] * np.int64(other_count) + _within_rank(number, block, classes)


@_jit
def _class_size(position, triples, other_count, classes):
    """How many distinct positions the class of the canonical ``position`` has: the symmetry count
    divided by the number of symmetries that leave the position unchanged."""
    stab, stab_count, block_of, symmetries, weights = classes[4], classes[5], classes[6], classes[8], classes[10]
    mover = position // other_count
    block = block_of[mover]
    if stab_count[block] == 1:
        return symmetries.shape[0]
    m0, m1, m2, o0, o1, o2 = _decode(position, triples, other_count)
    within = position % other_count
    fixed = 0
    for j in range(stab_count[block]):
        fixed += _image_rank(stab[block, j], o0, o1, o2, symmetries, weights, m0, m1, m2) == within
    return symmetries.shape[0] // fixed


@njit(cache=True, parallel=True, error_model="numpy")
def _classify(rays, triples, wins, other_count, classes, chunk, offset, result, decided, fresh):
    """Decide what is decided before any move, class by class as the full kernel's ``_classify`` does
    position by position (lost in 0 counted in ``fresh``), and give every other class its count of
    ``moves x size``; the padding after the last class becomes decided ILLEGAL. ``result``, ``decided``
    and ``fresh`` hold the classes from ``offset`` (a multiple of ``chunk``) on. In parallel over chunks."""
    ray_bit, ray_guards = rays[0], rays[1]
    row_start = classes[1]
    count = row_start[row_start.shape[0] - 1]
    for c in nb.prange(result.shape[0] // chunk):
        first = offset + c * np.int64(chunk)
        block = _block_of_class(min(first, count - 1), row_start)
        for number in range(first, first + chunk):
            if number >= count:
                result[number - offset] = ILLEGAL
                _mark_decided(decided, number - offset)
                continue
            while row_start[block + 1] <= number:
                block += 1
            position = _canonical_index(number, block, classes, other_count)
            m0, m1, m2, o0, o1, o2 = _decode(position, triples, other_count)
            moves = 0 if wins[_triple_rank(o0, o1, o2)] else _move_count(m0, m1, m2, o0, o1, o2, ray_bit,
                                                                         ray_guards)
            if moves == 0:
                result[number - offset] = 1
                _mark_decided(decided, number - offset)
                fresh[c] += 1
            else:
                result[number - offset] = moves * _class_size(position, triples, other_count, classes)


@_jit
def _within_bounds(block, low, high, classes):
    """The class numbers ``(first, last)`` of the classes of ``block`` whose *within rank* (the squeezed
    rank of the other side of their canonical position) lies from ``low`` to ``high`` (excluded)."""
    start, size = classes.row_start[block], classes.row_start[block + 1] - classes.row_start[block]
    if classes.sym_first[block] < 0:
        return start + min(low, size), start + min(high, size)
    listed = classes.sym_within[classes.sym_first[block]:classes.sym_first[block] + size]
    return start + np.searchsorted(listed, low), start + np.searchsorted(listed, high)


@njit(cache=True, parallel=True, error_model="numpy")
def _count_within(result, words, decided, code, classes, width, counts):
    """Count the classes decided with byte ``code`` by within rank (:func:`_within_rank`), in
    buckets of ``width`` ranks: those of stripe ``s`` of the blocks (``counts.shape[0]`` stripes, in
    order) whose within rank is ``w`` in ``counts[s, w // width]``; ``width * counts.shape[1]`` is at
    least ``C(N - 3, 3)``, the largest block. In parallel over stripes."""
    blocks = classes.row_start.shape[0] - 1
    stripes = counts.shape[0]
    for stripe in nb.prange(stripes):
        found = np.empty(np.int64(width) * counts.shape[1], dtype=np.int64)
        for block in range(blocks * stripe // stripes, blocks * (stripe + 1) // stripes):
            size = _collect_range(result, words, decided, code, classes.row_start[block], classes.row_start[block + 1],
                                  found, 0, found.shape[0])
            for k in range(size):
                counts[stripe, _within_rank(found[k], block, classes) // width] += 1


@njit(cache=True, parallel=True, error_model="numpy")
def _collect_within(result, words, decided, code, classes, low, high, offsets, level):
    """The classes decided with byte ``code`` whose within rank lies from ``low`` to ``high``
    (excluded), block by block, in class order: stripe ``s`` of the blocks (``offsets.shape[0]``
    stripes, as :func:`_count_within` takes them) writes its own to ``level[offsets[s]:]``. In parallel
    over stripes."""
    blocks = classes.row_start.shape[0] - 1
    stripes = offsets.shape[0]
    for stripe in nb.prange(stripes):
        slot = offsets[stripe]
        for block in range(blocks * stripe // stripes, blocks * (stripe + 1) // stripes):
            first, last = _within_bounds(block, low, high, classes)
            slot = _collect_range(result, words, decided, code, first, last, level, slot, level.shape[0])


@njit(cache=True, parallel=True, error_model="numpy")
def _canonical_positions(level, size, triples, other_count, classes, sizes):
    """Replace the class numbers ``level[:size]`` by their canonical indices, and give each its class
    size in ``sizes``."""
    for slot in nb.prange(size):
        number = level[slot]
        position = _canonical_index(number, _block_of_class(number, classes[1]), classes, other_count)
        level[slot] = position
        sizes[slot] = _class_size(position, triples, other_count, classes)


@_jit
def _unmoves(position, rays, triples, weights, other_count, classes, part_of, chunk_bits, out, base, counts,
             images):
    """Append the classes of the predecessors of ``position`` (a canonical index) to the buckets, as
    :func:`solver.neutreeko.solving._kernel._unmoves` does with indices: one entry per unmove, so a class
    reached by two unmoves is met twice, into the bucket of ``part_of[parent >> chunk_bits]`` (the
    part that settles its chunk, of ``2 ** chunk_bits`` classes: a shift, where a division by a chunk
    length known only at run time would cost an unmove dozens of cycles). Decided ones too: the
    settling passes them over, reading their decided bits many at a time, where reading each here,
    among the unmoves' arithmetic, would leave the processor waiting on one cache miss after another.
    ``images`` is room for the position's :func:`_sorted_images`."""
    ray_bit, ray_guards, ray_firsts, ray_live, ray_square = rays
    m0, m1, m2, o0, o1, o2 = _decode(position, triples, other_count)
    _sorted_images(m0, m1, m2, classes.symmetries, images)
    for moved in range(3):
        # The piece on `square` moves back; `low` < `high` stay. The parent's mover is the side that
        # just moved; its other side is the present mover, on m0, m1, m2.
        square, low, high = (o0, o1, o2) if moved == 0 else ((o1, o0, o2) if moved == 1 else (o2, o0, o1))
        below, between, above = _staying_weights(low, high, weights)
        occupied = _ray_occupancy(square, m0, m1, m2, o0, o1, o2, ray_bit, ray_guards)
        origins = _origins(square, occupied, ray_firsts, ray_live)
        while origins:
            origin = ray_square[_unsigned(square), _unsigned(trailing_zeros(origins))]
            origins &= origins - 1
            parent = _class_of(_parent_mover(origin, low, high, weights, below, between, above), images, classes)
            if parent < 0:
                continue
            part = _unsigned(part_of[_unsigned(parent >> chunk_bits)])
            out[part, _unsigned(base + counts[part])] = parent
            counts[part] += 1


@njit(cache=True, parallel=True, error_model="numpy")
def _gather(level, first, last, block, rays, triples, weights, other_count, classes, part_of, chunk_bits, out,
            counts):
    """What :func:`solver.neutreeko.solving._kernel._gather` does, with the classes of the predecessors,
    decided or not (see :func:`_unmoves`)."""
    blocks = (last - first + block - 1) // block
    capacity = out.shape[1] // counts.shape[0]
    for b in nb.prange(blocks):
        counts[b, :] = 0
        images = np.empty((classes.symmetries.shape[0], 3), dtype=np.int64)
        for slot in range(first + b * block, min(first + (b + 1) * block, last)):
            _unmoves(level[slot], rays, triples, weights, other_count, classes, part_of, chunk_bits, out,
                     b * capacity, counts[b], images)
    return blocks


@njit(cache=True, parallel=True, error_model="numpy")
def _histogram(result, offset, triples, wins, other_count, classes, histogram, no_move):
    """Count the positions of the classes ``offset`` to ``offset + len(result) - 1``, whose result bytes
    ``result`` holds (each class as many times as its size), by result byte: stretch ``s`` of them
    (``histogram.shape[0]`` stretches) into ``histogram[s]``, and those lost in 0 with the other side
    not three in a row (the mover has no move) into ``no_move[s]``."""
    row_start = classes[1]
    count = len(result)
    stretches = histogram.shape[0]
    for s in nb.prange(stretches):
        first, last = offset + count * s // stretches, offset + count * (s + 1) // stretches
        if first == last:
            continue
        block = _block_of_class(first, row_start)
        for number in range(first, last):
            while row_start[block + 1] <= number:
                block += 1
            position = _canonical_index(number, block, classes, other_count)
            size = _class_size(position, triples, other_count, classes)
            histogram[s, result[number - offset]] += size
            if result[number - offset] == 1:
                _, _, _, o0, o1, o2 = _decode(position, triples, other_count)
                if not wins[_triple_rank(o0, o1, o2)]:
                    no_move[s] += size
