"""Numba kernels of the forward consistency check. Private: :mod:`solver.neutreeko.checking.check` is the public
wrapper.

Independent of the retrograde kernels on purpose: moves are generated forwards, and each child is
encoded with the plain functions of :mod:`solver.neutreeko.model.index`; nothing of the solver's unmoves,
ray words or bookkeeping is used. A slide is walked square by square along ``steps[square, direction]``
(the neighbour, or -1 off the board) as the rules describe it, once per row past the other side's
pieces (:func:`_free_runs`), then cut short where the mover's own pieces stand on its line
(:func:`_slide_length`). The definitions checked are those of :mod:`solver.neutreeko.model.values`, as
the expected byte of a position given its children's bytes.

The pass runs over the *other* side's triple (a row of the parallel loop), then every mover triple
that leaves it free: all the children of those positions have that triple as their mover, so they lie
in one stretch of the index, ``C(N - 3, 3)`` bytes, which stays in the caches while the row is checked.
"""

import numba as nb
import numpy as np

from solver.core.jit import njit
from solver.neutreeko.model import index
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED

_jit = njit(cache=True, nogil=True, error_model="numpy")
_triple_rank = _jit(index.triple_rank)
_squeeze = _jit(index.squeeze)
_unsqueeze = _jit(index.unsqueeze)


@_jit
def _free_runs(steps, occupied, free):
    """``free[square, direction]``: how many squares a piece on ``square`` slides in ``direction``
    when the only other pieces are on the squares ``occupied`` marks, walked square by square."""
    for square in range(steps.shape[0]):
        for direction in range(steps.shape[1]):
            at, length = square, 0
            while steps[at, direction] >= 0 and not occupied[steps[at, direction]]:
                at, length = steps[at, direction], length + 1
            free[square, direction] = length


@_jit
def _lines(steps):
    """The board's straight lines, walked along ``steps``: ``along[square, direction, k]``, the square
    ``k`` steps away (-1 off the board), and ``toward[square, other]``, ``direction * 16 + k`` if
    ``other`` is ``k`` steps away in ``direction`` (-1 if it lies on no line through ``square``)."""
    squares, directions = steps.shape
    free = np.empty(steps.shape, dtype=np.int64)
    _free_runs(steps, np.zeros(squares, dtype=np.bool_), free)
    along = np.full((squares, directions, free.max() + 1), -1, dtype=np.int32)
    toward = np.full((squares, squares), -1, dtype=np.int32)
    for square in range(squares):
        for direction in range(directions):
            at, k = square, 0
            while at >= 0:
                along[square, direction, k] = at
                if k:  # k < 16: a board's side is at most 11 squares
                    toward[square, at] = direction * 16 + k
                at, k = steps[at, direction], k + 1
    return along, toward


@_jit
def _slide_length(direction, free, low_toward, high_toward):
    """How far a piece slides in ``direction``: its run ``free`` past the other side's pieces, cut
    short by the mover's two other pieces where they stand on that line (``low_toward``,
    ``high_toward``: their :func:`_lines` ``toward`` from the piece)."""
    length = free
    if low_toward >> 4 == direction:
        length = min(length, (low_toward & 15) - 1)
    if high_toward >> 4 == direction:
        length = min(length, (high_toward & 15) - 1)
    return length


@_jit
def _moves(m0, m1, m2, free, along, toward, children):
    """The moves of the mover on ``m0 < m1 < m2``: ``children[k]`` is ``(low, high, target)``, the
    pieces that stay and the square the moved one slides to (by :func:`_slide_length`, from ``free``,
    ``along`` and ``toward``: :func:`_free_runs`, :func:`_lines`); returns their number."""
    moves = 0
    for moved in range(3):
        origin, low, high = (m0, m1, m2) if moved == 0 else ((m1, m0, m2) if moved == 1 else (m2, m0, m1))
        low_toward, high_toward = toward[origin, low], toward[origin, high]
        for direction in range(free.shape[1]):
            length = _slide_length(direction, free[origin, direction], low_toward, high_toward)
            if length:
                children[moves, 0], children[moves, 1] = low, high
                children[moves, 2] = along[origin, direction, length]
                moves += 1
    return moves


@_jit
def _sorted_after(low, high, target):
    """The sorted squares ``low < high`` and ``target``."""
    if target < low:
        return target, low, high
    if target < high:
        return low, target, high
    return low, high, target


@_jit
def _verdict(moves, bytes_):
    """The byte a position with the ``moves`` children's bytes ``bytes_[:moves]`` must hold: lost in 0
    without a move; else won in 1 + the shortest loss among the children if there is one; else a draw
    if a child is drawn; else lost in 1 + the longest win. An illegal child is never consistent."""
    if moves == 0:
        return 1
    # Selections rather than branches: the children's values follow no pattern a branch could learn.
    shortest_loss, longest_win, drawn = 1 << 30, -1, False
    for k in range(moves):
        byte = np.int64(bytes_[k])
        lost = (byte - 1) % 2 == 0 and byte != ILLEGAL  # a child lost in byte - 1
        shortest_loss = min(shortest_loss, byte - 1 if lost else 1 << 30)
        # An illegal child makes the win "longest" beyond any byte: no legal position has one.
        longest_win = max(longest_win, 1 << 30 if byte == ILLEGAL else (-1 if lost else byte - 1))
        drawn |= byte == UNDECIDED
    if shortest_loss < (1 << 30):
        return shortest_loss + 2
    if drawn:
        return UNDECIDED
    return longest_win + 2


@_jit
def _expected(m0, m1, m2, other_rank, free, along, toward, wins, weights, squeezed, row_base, result, children,
              bytes_):
    """The byte that the position (mover on ``m0 < m1 < m2``, other side on the triple of rank
    ``other_rank``) must hold given its children's bytes: ILLEGAL if the mover has won; lost in 0 if
    the other side has won; else what :func:`_verdict` says.

    Its moves are :func:`_moves`' (``free``, ``along``, ``toward``; ``children`` is room for them);
    ``squeezed[square]`` numbers the squares the other side leaves free, and its children lie from
    ``row_base`` on (their mover is the other side); ``bytes_`` is room for the children's bytes."""
    if wins[_triple_rank(m0, m1, m2)]:
        return ILLEGAL
    if wins[other_rank]:
        return 1
    moves = _moves(m0, m1, m2, free, along, toward, children)
    for k in range(moves):
        # The child: the other side to move, the mover's pieces on low, high and target.
        a, b, c = _sorted_after(children[k, 0], children[k, 1], children[k, 2])
        bytes_[k] = result[row_base + weights[0, squeezed[a]] + weights[1, squeezed[b]] + weights[2, squeezed[c]]]
    return _verdict(moves, bytes_)


@njit(cache=True, parallel=True, error_model="numpy")
def _check_rows(result, steps, triples, wins, weights, other_count, legal, wrong, listing, found, found_offsets,
                expected, first_row, last_row):
    """Check every index of the rows ``first_row`` to ``last_row`` (excluded), a row per triple of the
    other side: ``legal[row]`` counts the legal positions and ``wrong[row]`` those whose byte is not the
    expected one. If ``found_offsets[row] >= 0``, the row's wrong indices also go to
    ``found[found_offsets[row]:]`` and their expected bytes to ``expected`` (the same places), as many as
    there is room for; if ``listing``, only those rows are checked."""
    squares = steps.shape[0]
    along, toward = _lines(steps)
    for row in nb.prange(first_row, last_row):
        if listing and found_offsets[row] < 0:
            continue
        o0, o1, o2 = triples[row, 0], triples[row, 1], triples[row, 2]
        occupied = np.zeros(squares, dtype=np.bool_)
        occupied[o0] = occupied[o1] = occupied[o2] = True
        free = np.empty(steps.shape, dtype=np.int64)
        _free_runs(steps, occupied, free)
        squeezed = np.empty(squares, dtype=np.int64)
        for square in range(squares):
            squeezed[square] = _squeeze(square, o0, o1, o2)
        row_base = row * np.int64(other_count)
        children, bytes_ = np.empty((3 * steps.shape[1], 3), dtype=np.int64), np.empty(3 * steps.shape[1], dtype=np.uint8)
        slot = found_offsets[row]
        legal_here, wrong_here = 0, 0
        for mover in range(triples.shape[0]):
            m0, m1, m2 = triples[mover, 0], triples[mover, 1], triples[mover, 2]
            if occupied[m0] or occupied[m1] or occupied[m2]:
                continue
            position = mover * np.int64(other_count) + _triple_rank(
                _squeeze(o0, m0, m1, m2), _squeeze(o1, m0, m1, m2), _squeeze(o2, m0, m1, m2))
            byte = _expected(m0, m1, m2, row, free, along, toward, wins, weights, squeezed, row_base, result, children,
                             bytes_)
            legal_here += byte != ILLEGAL
            if result[position] != byte:
                wrong_here += 1
                if slot >= 0 and slot < found.shape[0]:
                    found[slot] = position
                    expected[slot] = byte
                    slot += 1
        legal[row] = legal_here
        wrong[row] = wrong_here



@_jit
def _sorted3(a, b, c):
    """The squares ``a, b, c`` sorted."""
    return _sorted_after(min(a, b), max(a, b), c)


@_jit
def _canonical(x0, x1, x2, y0, y1, y2, symmetries, other_count):
    """The canonical index of the position with the mover on ``x0, x1, x2`` and the other side on
    ``y0, y1, y2``: the smallest index among its images (:mod:`solver.neutreeko.model.symmetry`), each image
    encoded with the plain functions of :mod:`solver.neutreeko.model.index`."""
    best = np.int64(1) << 62
    for g in range(symmetries.shape[0]):
        a, b, c = _sorted3(symmetries[g, x0], symmetries[g, x1], symmetries[g, x2])
        d, e, f = _sorted3(symmetries[g, y0], symmetries[g, y1], symmetries[g, y2])
        image = _triple_rank(a, b, c) * np.int64(other_count) + _triple_rank(
            _squeeze(d, a, b, c), _squeeze(e, a, b, c), _squeeze(f, a, b, c))
        best = min(best, image)
    return best


@_jit
def _class_number(mover, within, block_start, symmetric, symmetric_indices, other_count):
    """The class of the canonical index ``mover * other_count + within`` in the numbering of
    :class:`solver.neutreeko.tables.folding.Classes` (whose arrays these are): its block's start, plus
    ``within`` in a full block or its place among the listed canonical indices of a symmetric one."""
    if not symmetric[mover]:
        return block_start[mover] + within
    return block_start[mover] + np.searchsorted(_listed(symmetric_indices, mover, other_count),
                                                mover * np.int64(other_count) + within)


@_jit
def _listed(symmetric_indices, mover, other_count):
    """The sorted canonical indices of the symmetric block of the triple of rank ``mover``: its stretch
    of ``symmetric_indices`` (those of every symmetric block, sorted)."""
    return symmetric_indices[np.searchsorted(symmetric_indices, mover * np.int64(other_count)):
                             np.searchsorted(symmetric_indices, (mover + 1) * np.int64(other_count))]


@_jit
def _lowest_images(x0, x1, x2, symmetries, chosen):
    """The smallest rank among the images of the triple ``x0 < x1 < x2``; the symmetries giving it go to
    ``chosen``, their number is returned too. (An image's index is its mover's rank times ``C(N - 3,
    3)`` plus a squeezed rank below ``C(N - 3, 3)``: only these symmetries can give a position whose
    mover is that triple its smallest index.)"""
    lowest = np.int64(1) << 62
    for g in range(symmetries.shape[0]):
        a, b, c = _sorted3(symmetries[g, x0], symmetries[g, x1], symmetries[g, x2])
        lowest = min(lowest, _triple_rank(a, b, c))
    count = 0
    for g in range(symmetries.shape[0]):
        a, b, c = _sorted3(symmetries[g, x0], symmetries[g, x1], symmetries[g, x2])
        if _triple_rank(a, b, c) == lowest:
            chosen[count] = g
            count += 1
    return lowest, count


@_jit
def _squeezed_images(b0, b1, b2, symmetries, chosen, count):
    """``images[j, square]``: the image of ``square`` under the symmetry ``chosen[j]`` (of the ``count``
    that :func:`_lowest_images` gives for a triple whose smallest image is ``b0 < b1 < b2``), squeezed
    around that image; what :func:`_smallest_other` reads, once for all the triples met beside it."""
    images = np.empty((count, symmetries.shape[1]), dtype=np.int64)
    for j in range(count):
        for square in range(symmetries.shape[1]):
            images[j, square] = _squeeze(symmetries[chosen[j], square], b0, b1, b2)
    return images


@_jit
def _smallest_other(x0, x1, x2, images, other_count):
    """The smallest squeezed rank of the images of the triple ``x0, x1, x2`` (in any order) beside the
    other triple whose :func:`_squeezed_images` are ``images``: the smallest index among the images of
    the position is that triple's smallest image's rank times ``other_count``, plus this."""
    other = np.int64(other_count)
    for j in range(images.shape[0]):
        d, e, f = _sorted3(images[j, x0], images[j, x1], images[j, x2])
        other = min(other, _triple_rank(d, e, f))
    return other


@_jit
def _expected_of_class(m0, m1, m2, o0, o1, o2, free, along, toward, wins, other_count, row_start, listed, folded,
                       children, bytes_, lowest, images):
    """What :func:`_expected` says of the position (mover on ``m0 < m1 < m2``, other side on ``o0 < o1 <
    o2``; its moves as :func:`_moves` makes them), each child's byte read from ``folded`` at its class:
    the smallest index among the child's images, over the symmetries that take the child's mover (the
    other side's triple) to its smallest image, of rank ``lowest`` (:func:`_lowest_images`), whose
    :func:`_squeezed_images` are ``images``. Those classes are in the block of that triple, which begins
    at class ``row_start``; ``listed`` holds the sorted canonical indices of a symmetric block, and is
    empty for a full one (whose classes are its squeezed ranks in order)."""
    if wins[_triple_rank(m0, m1, m2)]:
        return ILLEGAL
    if wins[_triple_rank(o0, o1, o2)]:
        return 1
    moves = _moves(m0, m1, m2, free, along, toward, children)
    for k in range(moves):
        # In any order: _smallest_other sorts the images.
        other = _smallest_other(children[k, 0], children[k, 1], children[k, 2], images, other_count)
        if listed.shape[0]:
            other = np.searchsorted(listed, lowest * np.int64(other_count) + other)
        bytes_[k] = folded[row_start + other]
    return _verdict(moves, bytes_)


@njit(cache=True, parallel=True, error_model="numpy")
def _check_classes(folded, steps, triples, wins, symmetries, other_count, block_start, symmetric, symmetric_indices,
                   checked, wrong, listing, found, found_offsets, expected, first_row, last_row):
    """Check every class of a folded table, a row per triple of the *other* side, from ``first_row`` to
    ``last_row`` (excluded), as :func:`_check_rows` does: the classes whose canonical position has that
    triple as its other side (its mover canonical, the position the smallest of its images). Their
    children all have that triple as their mover, so they lie in one block of ``folded``, which stays in
    the caches while the row is checked. ``checked[row]`` counts the row's classes (all of them make
    every class once), ``wrong[row]`` those whose byte is not the expected one; ``found_offsets``,
    ``found`` (class numbers) and ``expected`` as in :func:`_check_rows`."""
    squares = steps.shape[0]
    along, toward = _lines(steps)
    canonical_movers = np.flatnonzero(block_start >= 0)
    for row in nb.prange(first_row, last_row):
        if listing and found_offsets[row] < 0:
            continue
        o0, o1, o2 = triples[row, 0], triples[row, 1], triples[row, 2]
        occupied = np.zeros(squares, dtype=np.bool_)
        occupied[o0] = occupied[o1] = occupied[o2] = True
        free = np.empty(steps.shape, dtype=np.int64)
        _free_runs(steps, occupied, free)
        chosen = np.empty(symmetries.shape[0], dtype=np.int64)
        lowest, count = _lowest_images(o0, o1, o2, symmetries, chosen)
        images = _squeezed_images(triples[lowest, 0], triples[lowest, 1], triples[lowest, 2], symmetries, chosen, count)
        # The children's block, and its listed canonical indices if it is a symmetric one: found once for
        # the row rather than once for each child (each child's class is then no division away).
        listed = _listed(symmetric_indices, lowest, other_count) if symmetric[lowest] else symmetric_indices[:0]
        children, bytes_ = np.empty((3 * steps.shape[1], 3), dtype=np.int64), np.empty(3 * steps.shape[1], dtype=np.uint8)
        slot = found_offsets[row]
        checked_here, wrong_here = 0, 0
        for mover in canonical_movers:
            m0, m1, m2 = triples[mover, 0], triples[mover, 1], triples[mover, 2]
            if occupied[m0] or occupied[m1] or occupied[m2]:
                continue
            within = _triple_rank(_squeeze(o0, m0, m1, m2), _squeeze(o1, m0, m1, m2), _squeeze(o2, m0, m1, m2))
            if symmetric[mover] and (_canonical(m0, m1, m2, o0, o1, o2, symmetries, other_count)
                                     != mover * np.int64(other_count) + within):
                continue
            byte = _expected_of_class(m0, m1, m2, o0, o1, o2, free, along, toward, wins, other_count,
                                      block_start[lowest], listed, folded, children, bytes_, lowest, images)
            number = _class_number(mover, within, block_start, symmetric, symmetric_indices, other_count)
            checked_here += 1
            if folded[number] != byte:
                wrong_here += 1
                if slot >= 0 and slot < found.shape[0]:
                    found[slot] = number
                    expected[slot] = byte
                    slot += 1
        checked[row] = checked_here
        wrong[row] = wrong_here
