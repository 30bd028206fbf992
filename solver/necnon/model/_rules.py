"""The rules NECNON's numba kernels share (the solver's search and the engine's playouts), on a board
given as one byte per cell: 0 empty, 1 Black, 2 Green. ``neighbours[cell, k]`` lists each cell's
neighbours, ``-1`` after the last; ``nec[0]``, ``nec[1]`` say whether Black, Green plays NEC (else NON).
Their plain-Python counterparts, which define the rules, are in :mod:`solver.necnon.model.position`.
"""

from __future__ import annotations

from solver.core.jit import njit

EMPTY, BLACK, GREEN = 0, 1, 2


@njit(cache=True, inline="always")
def is_allowed(board, cell, enemy, mover_nec, neighbours):
    """May the mover (whose enemy's stones are ``enemy``) lay a stone on the empty ``cell``? Yes with
    no enemy neighbour, or under NEC an odd number of them, or under NON an even one."""
    enemies = 0
    for k in range(neighbours.shape[1]):
        near = neighbours[cell, k]
        if near < 0:
            break
        if board[near] == enemy:
            enemies += 1
    return allows(enemies, mover_nec)


@njit(cache=True, inline="always")
def allows(enemies, mover_nec):
    """Does the protocol (NEC if ``mover_nec``, else NON) allow a stone beside ``enemies`` enemy stones?
    Yes with none, or under NEC an odd number, or under NON an even one."""
    return (enemies == 0 or enemies % 2 == 1) if mover_nec else enemies % 2 == 0


@njit(cache=True)
def empty_cells(board):
    """How many cells of ``board`` are empty."""
    count = 0
    for cell in range(len(board)):
        if board[cell] == EMPTY:
            count += 1
    return count


@njit(cache=True)
def allowed_cells(board, black_to_move, nec, neighbours, out):
    """The empty cells the mover may lay a stone on (:func:`is_allowed`), in increasing order, written
    to ``out``; returns how many."""
    mover_nec = nec[0] if black_to_move else nec[1]
    enemy = GREEN if black_to_move else BLACK
    count = 0
    for cell in range(len(board)):
        if board[cell] == EMPTY and is_allowed(board, cell, enemy, mover_nec, neighbours):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def margin(board, neighbours, seen, stack):
    """Black's points minus Green's when the game ends on ``board``: each group (same colour, connected
    through neighbours) with no empty neighbour gives its stones to the other colour. ``seen`` and
    ``stack``: scratch arrays, one slot per cell."""
    seen[:] = False
    total = 0
    for start in range(len(board)):
        if board[start] == EMPTY or seen[start]:
            continue
        own = board[start]
        seen[start] = True
        stack[0] = start
        top, size, breathes = 1, 0, False
        while top > 0:
            top -= 1
            cell = stack[top]
            size += 1
            for k in range(neighbours.shape[1]):
                near = neighbours[cell, k]
                if near < 0:
                    break
                if board[near] == EMPTY:
                    breathes = True
                elif board[near] == own and not seen[near]:
                    seen[near] = True
                    stack[top] = near
                    top += 1
        if not breathes:
            total += size if own == GREEN else -size
    return total
