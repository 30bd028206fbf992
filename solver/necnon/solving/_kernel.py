"""The numba kernels of the NECNON solver: a memoised depth-first search over the symmetry classes of
positions, with an open-addressing hash table of the classes solved so far. Private:
:func:`solver.necnon.solving.solve.solve` is the public wrapper.

Everything is integers and arrays; the kernels know no cell names. The arrays they read come from
:class:`solver.necnon.solving.solve.KernelInputs` (the neighbours of each cell, the images of each cell
and of each byte of a mask under each symmetry, whether each player plays NEC). A position's key (N
cells, at most 30) holds each colour's stones, the side to move and the passes; its canonical key is the
smallest key among its images. A class's *value word* packs its margin + 32, its turns and its number
of positions; a *packed* table holds ``key << 16 | value`` in one word a slot, a *wide* one the key and
the value side by side; a slot whose first word is :data:`EMPTY` is free. A frame stack lets the search
stop after a budget of steps and resume where it stopped. A position's value is its mover's best child
(Black maximises the margin, Green minimises it), its turns that child's plus one.

The key layout, the table and the search: docs/design/kernels.md.
"""

from __future__ import annotations

import numpy as np

from solver.core.jit import njit
from solver.necnon.model import _rules

EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
# A class's value word: margin + 32 (bits 0-5), turns (6-11), number of positions (12-15).
_VALUE_BITS = 16
_VALUE_MASK = np.uint64((1 << _VALUE_BITS) - 1)
_MARGIN_OFFSET = 32

#: What a call of :func:`_search` returns.
DONE, BUDGET, GROW = 0, 1, 2

# Columns of a frame's walk (int64).
_KIND, _COUNT, _I, _J, _GAIN, _TURNS, _STABILISER = 0, 1, 2, 3, 4, 5, 6
WALK_COLUMNS = 7
# Columns of a frame's masks (uint64); the images of its black stones, then of its green ones, follow.
_FLAGS, _KEY, _IMAGES = 0, 1, 2
# Kinds of turns: two stones, one stone, a pass.
_PAIRS, _SINGLES, _PASS = 0, 1, 2
_NONE = -1  # the best turns of a frame that has seen no child yet


def mask_columns(symmetries: int) -> int:
    """Columns of a frame's masks: flags, key, then the black and the green stones' images."""
    return _IMAGES + 2 * symmetries


# -- the table ----------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _shift(table):
    """Where a slot's key starts in its first word: bit 16 in a packed table, bit 0 in a wide one."""
    return np.uint64(_VALUE_BITS if table.shape[1] == 1 else 0)


@njit(cache=True, inline="always")
def _slot(table, key):
    """The slot of ``key`` in the table, or the free slot where it belongs (linear probing)."""
    mask = np.uint64(len(table) - 1)
    shift = _shift(table)
    slot = (key * _MULTIPLIER >> np.uint64(24)) & mask
    while table[slot, 0] != EMPTY and table[slot, 0] >> shift != key:
        slot = (slot + np.uint64(1)) & mask
    return slot


@njit(cache=True, inline="always")
def _value(table, slot):
    """The value word of an occupied slot (see the module docstring)."""
    return table[slot, 0] & _VALUE_MASK if table.shape[1] == 1 else table[slot, 1]


@njit(cache=True)
def _rehash(table, larger):
    """Move every entry of a table into a larger, empty one of the same layout."""
    shift = _shift(table)
    for slot in range(len(table)):
        if table[slot, 0] != EMPTY:
            target = _slot(larger, table[slot, 0] >> shift)
            for column in range(table.shape[1]):
                larger[target, column] = table[slot, column]


@njit(cache=True)
def _compact(table):
    """Move the occupied slots to the front of the table, in their order; return how many there are."""
    count = 0
    for slot in range(len(table)):
        if table[slot, 0] != EMPTY:
            for column in range(table.shape[1]):
                table[count, column] = table[slot, column]
            count += 1
    return count


@njit(cache=True, inline="always")
def _store(table, state, key, margin, turns, size):
    """Store a class's value; count it in ``state``."""
    slot = _slot(table, key)
    value = np.uint64(margin + _MARGIN_OFFSET) | np.uint64(turns) << np.uint64(6) | np.uint64(size) << np.uint64(12)
    if table.shape[1] == 1:
        table[slot, 0] = key << np.uint64(_VALUE_BITS) | value
    else:
        table[slot, 0] = key
        table[slot, 1] = value
    state[1] += 1
    state[3] += size


# -- positions ----------------------------------------------------------------------------------------

@njit(cache=True)
def _unpack(black, green, board):
    """The stones of two masks as a board of :mod:`solver.necnon.model._rules` (one byte per cell)."""
    one = np.uint64(1)
    for cell in range(len(board)):
        bit = one << np.uint64(cell)
        board[cell] = _rules.BLACK if black & bit else _rules.GREEN if green & bit else _rules.EMPTY


@njit(cache=True, inline="always")
def _image(byte_images, g, bits):
    """The image of a mask under symmetry ``g``."""
    image = np.uint64(0)
    for chunk in range(byte_images.shape[1]):
        image |= byte_images[g, chunk, (bits >> np.uint64(8 * chunk)) & np.uint64(0xFF)]
    return image


# -- the search ---------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _better(gain, turns, best_gain, best_turns):
    """Is a child worth ``gain`` to the mover (the margin, Black's or Green's way round) in ``turns``
    better than the best so far? More gain first; then the fewest turns when not losing, the most
    when losing."""
    if gain != best_gain:
        return gain > best_gain
    return turns < best_turns if gain >= 0 else turns > best_turns


@njit(cache=True, inline="always")
def _hand_up(masks, walk, d, margin, child_turns):
    """Offer a child's margin (Black minus Green) and its turns counted from frame ``d`` to frame ``d``."""
    gain = margin if (masks[d, _FLAGS] & np.uint64(1)) == 0 else -margin
    if walk[d, _TURNS] == _NONE or _better(gain, child_turns, walk[d, _GAIN], walk[d, _TURNS]):
        walk[d, _GAIN], walk[d, _TURNS] = gain, child_turns


@njit(cache=True)
def _open(masks, walk, allowed, d, black, green, flags, key, stabiliser, byte_images, nec, neighbours, board):
    """Set frame ``d`` up for a position that is not finished: its images, its allowed cells and the
    kind of its turns, its walk before the first turn. ``board``: scratch, one byte per cell."""
    symmetries = byte_images.shape[0]
    masks[d, _FLAGS], masks[d, _KEY] = flags, key
    for g in range(symmetries):
        masks[d, _IMAGES + g] = _image(byte_images, g, black)
        masks[d, _IMAGES + symmetries + g] = _image(byte_images, g, green)
    _unpack(black, green, board)
    count = _rules.allowed_cells(board, (flags & np.uint64(1)) == 0, nec, neighbours, allowed[d])
    kind = _PASS if count == 0 else _SINGLES if count == 1 or (black | green) == 0 else _PAIRS
    walk[d, _KIND], walk[d, _COUNT] = kind, count
    walk[d, _I], walk[d, _J] = (0, 0) if kind == _PAIRS else (-1, 0)
    walk[d, _GAIN], walk[d, _TURNS], walk[d, _STABILISER] = 0, _NONE, stabiliser


@njit(cache=True)
def _start(masks, walk, allowed, byte_images, nec, neighbours, state):
    """Put the empty board, Black to move, on the stack as its only frame."""
    zero = np.uint64(0)
    board = np.empty(neighbours.shape[0], dtype=np.int8)
    _open(masks, walk, allowed, 0, zero, zero, zero, zero, byte_images.shape[0], byte_images, nec, neighbours, board)
    state[0] = 0


@njit(cache=True)
def _search(neighbours, images, byte_images, nec, table, masks, walk, allowed, state, budget):
    """Run the search for at most ``budget`` steps; return :data:`DONE`, :data:`BUDGET` (call again) or
    :data:`GROW` (the table is too full: rehash it into a larger one, then call again).

    Frame ``d`` of the stack is ``masks[d]`` (the position's flags, i.e. its key's bits above 2N, its
    canonical key, then the images of its black and its green stones under each symmetry), ``walk[d]``
    (the kind of its turns, its number of allowed cells, the turn being walked as cells i and j of
    ``allowed[d]``, the best gain and turns so far, its stabiliser's size) and ``allowed[d]`` (its
    allowed cells). ``state`` = [depth of the top frame, classes in the table, classes allowed before
    growing, positions: the classes' sizes summed]."""
    cells = neighbours.shape[0]
    symmetries = images.shape[0]
    n = np.uint64(cells)
    one = np.uint64(1)
    full = (one << n) - one
    child_black = np.empty(symmetries, dtype=np.uint64)
    child_green = np.empty(symmetries, dtype=np.uint64)
    board = np.empty(cells, dtype=np.int8)
    seen = np.empty(cells, dtype=np.bool_)
    stack = np.empty(cells, dtype=np.int64)
    depth = state[0]
    for _ in range(budget):
        if depth < 0:
            break
        if state[1] >= state[2]:
            state[0] = depth
            return GROW
        d = depth
        flags = masks[d, _FLAGS]
        black_to_move = (flags & one) == 0
        kind, count, i, j = walk[d, _KIND], walk[d, _COUNT], walk[d, _I], walk[d, _J]
        if kind == _PAIRS:
            j += 1
            if j >= count:
                i += 1
                j = i + 1
            more = j < count
        else:
            i += 1
            more = i < (1 if kind == _PASS else count)
        if not more:  # frame d is solved: store it, hand its value to its parent
            gain, turns = walk[d, _GAIN], walk[d, _TURNS]
            margin = gain if black_to_move else -gain
            _store(table, state, masks[d, _KEY], margin, turns, symmetries // walk[d, _STABILISER])
            depth -= 1
            if depth >= 0:
                _hand_up(masks, walk, depth, margin, turns + 1)
            continue
        walk[d, _I], walk[d, _J] = i, j
        child_flags = (flags & one) ^ one
        if kind == _PASS:
            child_flags |= ((flags >> one) + one) << one
        best_key, best_g, stabiliser = EMPTY, 0, 0
        for g in range(symmetries):
            black, green = masks[d, _IMAGES + g], masks[d, _IMAGES + symmetries + g]
            if kind != _PASS:
                laid = images[g, allowed[d, i]]
                if kind == _PAIRS:
                    laid |= images[g, allowed[d, j]]
                if black_to_move:
                    black |= laid
                else:
                    green |= laid
            child_black[g], child_green[g] = black, green
            key = black | green << n | child_flags << (n + n)
            if key < best_key:
                best_key, best_g, stabiliser = key, g, 1
            elif key == best_key:
                stabiliser += 1
        slot = _slot(table, best_key)
        if table[slot, 0] != EMPTY:
            value = _value(table, slot)
            _hand_up(masks, walk, d, np.int64(value & np.uint64(63)) - _MARGIN_OFFSET,
                     np.int64((value >> np.uint64(6)) & np.uint64(63)) + 1)
            continue
        black, green = child_black[best_g], child_green[best_g]
        if child_flags >> one == 2 or black | green == full:  # finished: score it now
            _unpack(black, green, board)
            margin = _rules.margin(board, neighbours, seen, stack)
            _store(table, state, best_key, margin, 0, symmetries // stabiliser)
            _hand_up(masks, walk, d, margin, 1)
            continue
        depth += 1
        _open(masks, walk, allowed, depth, black, green, child_flags, best_key, stabiliser, byte_images, nec,
              neighbours, board)
    state[0] = depth
    return BUDGET if depth >= 0 else DONE
