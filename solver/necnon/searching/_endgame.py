"""The numba kernel of the engine's exact endgame solver: alpha-beta with a transposition table on the
rest of a game, on a board of one byte per cell (see :mod:`solver.necnon.model._rules`). Private:
:class:`solver.necnon.searching.endgame.EndgameSolver` is the public wrapper.

The search is given the cells ``free`` (at most :data:`solver.necnon.searching.endgame.MAX_EMPTY`) that
hold every cell empty at the root; a position is keyed by what lies on them. Values are margins from the
mover's side (its points minus the other's), exact integers; a value returned from a window
(alpha, beta) is exact inside it, an upper bound at or below alpha and a lower bound at or above beta
(fail-soft). Turns are coded ``32 * a + b`` for stones on ``free[a]`` and ``free[b]`` (a <= b) and
:data:`PASS` for a pass. A table slot is two words (a free one holds (:data:`EMPTY`, 0)); ``state``
holds :data:`STATE` numbers: the nodes searched, the budget, whether it stopped, the root's best turn,
the root's window and the ply at which a stopped search stopped. A search stopped by its budget goes on
from there at the next call with the budget raised.

The key layout, the order of turns, the table and the budget: docs/design/engine.md.
"""

from __future__ import annotations

import numpy as np

from solver.core.jit import njit
from solver.necnon.model import _rules

EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
PASS = 1023
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_PROBES = 4
_NODES, _BUDGET, _STOPPED, _BEST, _ROOT_ALPHA, _ROOT_BETA, _STOPPED_AT = range(7)
#: The length of ``state``.
STATE = 7


@njit(cache=True)
def clear(table):
    """Empty the table."""
    table[:, 0] = EMPTY
    table[:, 1] = 0


@njit(cache=True, inline="always")
def _mixed(data):
    """``data`` spread over the 64 bits, so that a torn slot's words match no key."""
    return data * _MULTIPLIER


@njit(cache=True, inline="always")
def _packed(lower, upper, turn):
    """A slot's data: the bounds (lower, upper) in bits 0-7 and 8-15, the turn in bits 16-31."""
    return (np.uint64(lower & 0xFF) | np.uint64(upper & 0xFF) << np.uint64(8)
            | np.uint64(turn & 0xFFFF) << np.uint64(16))


@njit(cache=True, inline="always")
def _signed(data, shift, bits):
    """The signed field of ``bits`` bits at ``shift`` of a slot's data."""
    value = np.int64(data >> np.uint64(shift) & np.uint64((1 << bits) - 1))
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


@njit(cache=True, inline="always")
def _stones_of(key):
    """The bits set in ``key``: its stones, and a flag or two (the population count)."""
    key = key - ((key >> np.uint64(1)) & np.uint64(0x5555555555555555))
    key = (key & np.uint64(0x3333333333333333)) + ((key >> np.uint64(2)) & np.uint64(0x3333333333333333))
    key = (key + (key >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (key * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, inline="always")
def _find(table, key):
    """(slot, found): the slot holding ``key`` (found True), else a free slot of its bucket, else the
    slot it may take: the one of the position with the most stones, whose search is the cheapest to
    redo."""
    mixed = key * _MULTIPLIER
    home = (mixed ^ mixed >> np.uint64(32)) & np.uint64(len(table) - _PROBES)  # a multiple of _PROBES
    victim, most = home, np.uint64(0)
    for probe in range(_PROBES):
        slot = home + np.uint64(probe)
        stored = table[slot, 0] ^ _mixed(table[slot, 1])
        if stored == key:
            return slot, True
        if stored == EMPTY:
            return slot, False
        stones = _stones_of(stored)
        if stones > most:
            victim, most = slot, stones
    return victim, False


@njit(cache=True, inline="always")
def _key(black, green, size, black_to_move, passed):
    """The key of the position of stones ``black`` and ``green`` on the ``size`` free cells (see the
    module docstring)."""
    e = np.uint64(size)
    return (black | green << e | np.uint64(1 if black_to_move else 0) << (e + e)
            | np.uint64(1 if passed else 0) << (e + e + np.uint64(1)))


@njit(cache=True, inline="always")
def _stones_on(board, free):
    """The stones of ``board`` on the free cells: (Black's, Green's), bit k for ``free[k]``."""
    black, green = np.uint64(0), np.uint64(0)
    for k in range(len(free)):
        if board[free[k]] == _rules.BLACK:
            black |= np.uint64(1) << np.uint64(k)
        elif board[free[k]] == _rules.GREEN:
            green |= np.uint64(1) << np.uint64(k)
    return black, green


@njit(cache=True)
def bounds_of(table, board, free, black_to_move, passed):
    """The bounds (lower, upper) of the mover's margin the table holds for the position of ``board``
    (its cells outside ``free`` those of the positions the table holds), or (-127, 127) if it holds
    none."""
    black, green = _stones_on(board, free)
    slot, found = _find(table, _key(black, green, len(free), black_to_move, passed))
    if not found:
        return -127, 127
    data = table[slot, 1]
    return _signed(data, 0, 8), _signed(data, 8, 8)


@njit(cache=True, inline="always")
def _final(board, black_to_move, neighbours, seen, stack):
    """The mover's margin when the game ends on ``board``."""
    margin = _rules.margin(board, neighbours, seen, stack)
    return margin if black_to_move else -margin


@njit(cache=True, inline="always")
def _forced_end(board, free, black, green, black_to_move, passed, empty, nec, near, outside, offset, neighbours,
                seen, stack, scratch):
    """The mover's margin of a position that is not finished and has at most two empty cells (stones
    ``black``, ``green`` on the free cells, as in :func:`_allowed`): from there every turn is forced, a
    player laying each allowed cell (two at most) or passing when none is, so the game is played out
    rather than searched, and the table is neither read nor written. ``offset``: Green's stones
    outside the free cells minus Black's, so that a full board, every group of it smothered, is scored
    by counting. ``board`` holds the stones of the position; the stones laid on it are taken back before
    the return. ``scratch``: room for the allowed cells."""
    one = np.uint64(1)
    taken = black | green
    mover, margin = black_to_move, 0
    while True:
        if empty == 0:
            margin = np.int64(_stones_of(green)) - np.int64(_stones_of(black)) + offset
            break
        count = _allowed(black, green, mover, nec, near, outside, scratch)
        if count == 0:
            if passed:  # the second pass in a row: the game ends with cells empty
                margin = _rules.margin(board, neighbours, seen, stack)
                break
            passed = True
        else:  # the board has at least four cells, so this is never the first turn, of one stone
            passed = False
            for k in range(count):
                board[free[scratch[k]]] = _rules.BLACK if mover else _rules.GREEN
                if mover:
                    black |= one << np.uint64(scratch[k])
                else:
                    green |= one << np.uint64(scratch[k])
            empty -= count
        mover = not mover
    laid = (black | green) ^ taken
    for k in range(len(free)):
        if laid >> np.uint64(k) & one:
            board[free[k]] = _rules.EMPTY
    return margin if black_to_move else -margin


@njit(cache=True, inline="always")
def _allowed(black, green, black_to_move, nec, near, outside, out):
    """The indices k of the free cells the mover may lay a stone on, increasing, written to ``out``;
    returns how many (the rule of :func:`solver.necnon.model._rules.allows`). ``black``, ``green``: the stones
    on the free cells (bit k for ``free[k]``); ``near[k]``: the free cells beside ``free[k]`` (bit j for
    ``free[j]``); ``outside[c, k]``: its neighbours outside the free cells that hold Black's (c = 0) or
    Green's (c = 1) stones."""
    mover_nec = nec[0] if black_to_move else nec[1]
    enemy, side = (green, 1) if black_to_move else (black, 0)
    taken = black | green
    count = 0
    for k in range(len(near)):
        if taken >> np.uint64(k) & np.uint64(1) == 0 and \
                _rules.allows(outside[side, k] + np.int64(_stones_of(enemy & near[k])), mover_nec):
            out[count] = k
            count += 1
    return count


# Columns of a frame (int64): its window (alpha, beta) and the alpha it began with; its best value and
# the number of its best turn; the turns tried; its allowed cells, its turns, stones a turn (2, 1, or
# 0 for a pass); the table's turn (-1 if none), the table's bounds and slot; the stones of the turn
# being tried; the mover (1 Black); whether the last turn was a pass; the empty cells; the symmetries
# that map the position to itself (bit g for symmetries[g]); the caller's turn (the root's; -1 if none).
(_ALPHA, _BETA, _WINDOW, _VALUE, _TURN, _TRIED, _COUNT, _TURNS, _LAID, _FIRST, _LOWER, _UPPER, _SLOT, _A, _B,
 _MOVER, _PASSED, _EMPTY, _FIXED, _FORCED) = range(20)
_COLUMNS = 20


def stack_shape(cells: int) -> tuple[int, int]:
    """The rows and columns of the frames a search of at most ``cells`` empty cells needs: a ply lays a
    stone but for passes, never two in a row."""
    return 2 * cells + 4, _COLUMNS

#: The plies from the root at which the search looks for symmetries of the position: they are broken
#: within a few turns, and looking costs a pass over the stones for each symmetry.
SYMMETRIC_PLIES = 4
#: The fewest empty cells after a turn for which the search looks up every turn's position in the table
#: before searching any (a cut found so saves a search; looking costs a probe a turn). Nearer the end a
#: search is cheaper than the probes: from 6 rather than 3, positions of 5 x 4 and 7 x 3 after one or no
#: stone were solved in about the same nodes and less time.
TRANSPOSED_EMPTY = 6
#: The most empty cells of a position whose every turn is forced (two stones a turn: a player lays each
#: cell it may, or passes; with three, a player may choose two of them): it is played out (:func:`_forced_end`, one node) rather than searched, and
#: kept out of the table. On positions of 5 x 4, 6 x 3, hex3 and 7 x 3 (``scripts/bench_necnon.py
#: --endgame``), that takes less time and fewer nodes than searching them as the others.
FORCED_EMPTY = 2


@njit(cache=True, inline="always")
def _stones(allowed, ply, count, laid, t):
    """The free-cell indices (a, b) of turn ``t`` of frame ``ply``: its pairs (i, j), i < j, of allowed
    cells in order, or its single stones (a = b); (-1, -1) for a pass."""
    if laid == 0:
        return -1, -1
    if laid == 1:
        return allowed[ply, t], allowed[ply, t]
    i = 0
    while t >= count - 1 - i:
        t -= count - 1 - i
        i += 1
    return allowed[ply, i], allowed[ply, i + 1 + t]


@njit(cache=True, inline="always")
def _enter(frames, masks, ply, cells, free, black_to_move, passed, empty, black, green, alpha, beta, nec, near,
           outside, allowed, history, symmetries, table, state):
    """Open frame ``ply`` for a position that is not finished, searched in the window (alpha, beta);
    return True if instead the table's bounds give its value there (then in ``frames[ply, _VALUE]``).
    The root (ply 0) is always opened."""
    state[_NODES] += 1
    key = _key(black, green, len(free), black_to_move, passed)
    slot, found = _find(table, key)
    lower, upper, first = -127, 127, -1
    if found:
        data = table[slot, 1]
        first = _signed(data, 16, 16)
        if ply > 0:
            lower, upper = _signed(data, 0, 8), _signed(data, 8, 8)
            if lower == upper or lower >= beta or upper <= alpha:
                frames[ply, _VALUE] = lower if lower >= beta or lower == upper else upper
                return True
            alpha, beta = max(alpha, lower), min(beta, upper)
    count = _allowed(black, green, black_to_move, nec, near, outside, allowed[ply])
    _by_history(allowed[ply], count, history[0 if black_to_move else 1])
    laid = 0 if count == 0 else 1 if count == 1 or empty == cells else 2
    turns = 1 if laid == 0 else count if laid == 1 else count * (count - 1) // 2
    if ply > 0 and laid > 0 and empty - laid >= TRANSPOSED_EMPTY:
        # Enhanced transposition cutoff: a turn whose position the table already shows bad enough for
        # the other player cuts the search off before any turn is searched.
        one = np.uint64(1)
        for t in range(turns):
            a, b = _stones(allowed, ply, count, laid, t)
            bits = one << np.uint64(a) | one << np.uint64(b)
            if black_to_move:
                child = _key(black | bits, green, len(free), False, False)
            else:
                child = _key(black, green | bits, len(free), True, False)
            known, found = _find(table, child)
            if found and -_signed(table[known, 1], 8, 8) >= beta:
                frames[ply, _VALUE] = -_signed(table[known, 1], 8, 8)
                return True
    frames[ply, _ALPHA], frames[ply, _BETA], frames[ply, _WINDOW] = alpha, beta, alpha
    frames[ply, _VALUE], frames[ply, _TURN], frames[ply, _TRIED] = -127, -1, -2
    frames[ply, _FORCED] = state[_BEST] if ply == 0 else -1
    frames[ply, _COUNT], frames[ply, _LAID] = count, laid
    frames[ply, _TURNS] = turns
    frames[ply, _FIRST], frames[ply, _LOWER], frames[ply, _UPPER], frames[ply, _SLOT] = first, lower, upper, slot
    frames[ply, _MOVER], frames[ply, _PASSED], frames[ply, _EMPTY] = black_to_move, passed, empty
    frames[ply, _FIXED] = _fixed(symmetries, black, green) if ply < SYMMETRIC_PLIES else 0
    masks[ply, 0], masks[ply, 1], masks[ply, 2] = black, green, key
    return False


@njit(cache=True, inline="always")
def _by_history(cells, count, scores):
    """Sort the first ``count`` free-cell indices of ``cells`` by ``scores``, highest first (ties in
    their order): the cells whose turns cut the search off most often come first."""
    for i in range(1, count):
        cell = cells[i]
        j = i
        while j > 0 and scores[cells[j - 1]] < scores[cell]:
            cells[j] = cells[j - 1]
            j -= 1
        cells[j] = cell


@njit(cache=True)
def _fixed(symmetries, black, green):
    """The symmetries (bit g for ``symmetries[g]``) that map the stones ``black`` and ``green`` to
    themselves."""
    fixed = 0
    for g in range(symmetries.shape[0]):
        same = True
        for k in range(symmetries.shape[1]):
            bit = np.uint64(1) << np.uint64(k)
            image = np.uint64(1) << np.uint64(symmetries[g, k])
            if (black & bit != 0) != (black & image != 0) or (green & bit != 0) != (green & image != 0):
                same = False
                break
        if same:
            fixed |= 1 << g
    return fixed


@njit(cache=True, inline="always")
def _mirrored(symmetries, fixed, a, b):
    """Is the turn on free cells a, b the image of a turn of smaller code under a symmetry of ``fixed``
    (so that it is worth the same as that turn)?"""
    code = _code(a, b)
    for g in range(symmetries.shape[0]):
        if fixed >> g & 1 and _code(symmetries[g, a], symmetries[g, b]) < code:
            return True
    return False


@njit(cache=True, inline="always")
def _code(a, b):
    """The code of a turn on the free cells a and b (a = b for one stone)."""
    return min(a, b) * 32 + max(a, b)


@njit(cache=True, nogil=True)
def solve(board, free, black_to_move, passed, nec, neighbours, table, history, symmetries, frames,
          masks, allowed, state):
    """The value (the mover's margin) of a position that is not finished, every empty cell of it among
    ``free``, in the window ``(state[4], state[5])`` (fail-soft: exact inside it, else a bound); its best
    turn goes to ``state[3]``. Stops when the budget of ``state[1]`` nodes runs out (``state[2]`` then 1,
    the value meaningless). ``symmetries[g, k]``: the image of free cell k under each symmetry of the
    board that maps the root to itself and the free cells onto themselves, but the identity: within
    :data:`SYMMETRIC_PLIES` of the root, a turn that one of them maps onto a turn of smaller code while
    mapping the position to itself is worth that turn, and is not searched. ``history[0]``,
    ``history[1]``: Black's and Green's cuts by free cell (at least ``len(free)`` columns). The table's
    entries and the history stay valid for any later root with the same ``free`` and the same stones
    outside them, so that a stopped search resumes the work it stored, and a game's later positions
    find what its earlier searches stored.

    The search is a stack of frames (one a ply, see the columns above) rather than recursion, which
    numba cannot cache: ``frames`` (:func:`stack_shape` for ``len(free)`` cells), ``masks`` (as many rows,
    3 columns) and ``allowed`` (as many rows, ``len(free)`` columns). ``board`` is changed during the
    search and restored at its end. When the budget runs out, the stack, ``board`` and ``state[6]`` (the
    ply reached) are left as they are, and a call with all of them unchanged but the budget resumes the
    search; ``state[6]`` = -1 begins a new one."""
    cells, size = len(board), len(free)
    one = np.uint64(1)
    # The root's stones on the free cells (when resuming, not used: the board holds the line's too).
    black, green = _stones_on(board, free)
    empty = size - np.int64(_stones_of(black | green))
    # Each free cell's neighbours: those among the free cells as bits, and the others' stones counted.
    index = np.full(cells, -1, dtype=np.int64)
    for k in range(size):
        index[free[k]] = k
    near = np.zeros(size, dtype=np.uint64)
    outside = np.zeros((2, size), dtype=np.int64)
    for k in range(size):
        for n in range(neighbours.shape[1]):
            cell = neighbours[free[k], n]
            if cell < 0:
                break
            if index[cell] >= 0:
                near[k] |= one << np.uint64(index[cell])
            elif board[cell] != _rules.EMPTY:
                outside[board[cell] - 1, k] += 1
    seen = np.empty(cells, dtype=np.bool_)
    stack = np.empty(cells, dtype=np.int64)
    offset = 0  # Green's stones outside the free cells minus Black's
    for cell in range(cells):
        if index[cell] < 0 and board[cell] != _rules.EMPTY:
            offset += 1 if board[cell] == _rules.GREEN else -1
    state[_STOPPED] = 0
    ply = state[_STOPPED_AT]
    if ply < 0:
        ply = 0
        _enter(frames, masks, 0, cells, free, black_to_move, passed, empty, black, green, state[_ROOT_ALPHA],
               state[_ROOT_BETA], nec, near, outside, allowed, history, symmetries, table, state)
    state[_STOPPED_AT] = -1
    child = False  # does frames[ply + 1, _VALUE] hold the value of the turn being tried at ply?
    while True:
        laid, a, b = frames[ply, _LAID], frames[ply, _A], frames[ply, _B]
        mover = frames[ply, _MOVER] == 1
        if child:  # the turn tried has its value: take it back, keep the best
            child = False
            value = -frames[ply + 1, _VALUE]
            if laid > 0:
                board[free[a]] = _rules.EMPTY
                board[free[b]] = _rules.EMPTY
            if value > frames[ply, _VALUE]:
                frames[ply, _VALUE], frames[ply, _TURN] = value, PASS if laid == 0 else _code(a, b)
                frames[ply, _ALPHA] = max(frames[ply, _ALPHA], value)
                if laid > 0 and value >= frames[ply, _BETA]:
                    weight = np.int64(1) << frames[ply, _EMPTY]
                    history[0 if mover else 1, a] += weight
                    if b != a:
                        history[0 if mover else 1, b] += weight
        # The next turn: the caller's (turn -2), the table's (turn -1), then the others in order, those
        # two skipped.
        tried, turns = frames[ply, _TRIED], frames[ply, _TURNS]
        forced, first = frames[ply, _FORCED], frames[ply, _FIRST]
        found = False
        while frames[ply, _ALPHA] < frames[ply, _BETA] and tried < turns:
            if tried < 0:
                tried += 1
                code = forced if tried == -1 else first
                if code >= 0 and laid > 0 and (tried == -1 or code != forced):
                    a, b, found = code // 32, code % 32, True  # a single stone's code is a * 33
                    break
                continue
            a, b = _stones(allowed, ply, frames[ply, _COUNT], laid, tried)
            tried += 1
            code = _code(a, b)
            if laid == 0 or (code != first and code != forced and
                             not (frames[ply, _FIXED] and _mirrored(symmetries, frames[ply, _FIXED], a, b))):
                found = True
                break
        if not found:  # frame done: store it, hand its value up
            best, lower, upper = frames[ply, _VALUE], frames[ply, _LOWER], frames[ply, _UPPER]
            if best <= frames[ply, _WINDOW]:
                upper = min(upper, best)
            elif best >= frames[ply, _BETA]:
                lower = max(lower, best)
            else:
                lower = upper = best
            slot = frames[ply, _SLOT]
            data = _packed(lower, upper, frames[ply, _TURN])
            table[slot, 1] = data
            table[slot, 0] = masks[ply, 2] ^ _mixed(data)
            if ply == 0:
                state[_BEST] = frames[0, _TURN]
                return best
            ply -= 1
            child = True
            continue
        if state[_NODES] >= state[_BUDGET]:  # stop before trying the turn: the next call tries it
            state[_STOPPED], state[_STOPPED_AT] = 1, ply
            return 0
        frames[ply, _TRIED], frames[ply, _A], frames[ply, _B] = tried, a, b
        black, green, empty = masks[ply, 0], masks[ply, 1], frames[ply, _EMPTY]
        alpha, beta = frames[ply, _ALPHA], frames[ply, _BETA]
        if laid == 0:  # a pass
            if frames[ply, _PASSED]:  # the second in a row: the game ends
                frames[ply + 1, _VALUE] = -_final(board, mover, neighbours, seen, stack)
                child = True
            elif empty <= FORCED_EMPTY:
                state[_NODES] += 1
                frames[ply + 1, _VALUE] = _forced_end(board, free, black, green, not mover, True, empty, nec, near,
                                                      outside, offset, neighbours, seen, stack, allowed[ply + 1])
                child = True
            elif not _enter(frames, masks, ply + 1, cells, free, not mover, True, empty, black, green, -beta, -alpha,
                            nec, near, outside, allowed, history, symmetries, table, state):
                ply += 1
            else:
                child = True
            continue
        bits = one << np.uint64(a) | one << np.uint64(b)
        board[free[a]] = _rules.BLACK if mover else _rules.GREEN
        board[free[b]] = _rules.BLACK if mover else _rules.GREEN
        if mover:
            black |= bits
        else:
            green |= bits
        if empty - laid <= FORCED_EMPTY:  # the rest is forced (or the board is full)
            state[_NODES] += 1
            frames[ply + 1, _VALUE] = _forced_end(board, free, black, green, not mover, False, empty - laid, nec,
                                                  near, outside, offset, neighbours, seen, stack, allowed[ply + 1])
            child = True
        elif not _enter(frames, masks, ply + 1, cells, free, not mover, False, empty - laid, black, green, -beta,
                        -alpha, nec, near, outside, allowed, history, symmetries, table, state):
            ply += 1
        else:
            child = True
