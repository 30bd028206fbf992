"""The numba kernels of the search engine's tree (:mod:`solver.necnon.searching.tree`): its iterations (selection,
expansion, playout, update), and the copy of a subtree that a later search reuses.

The tree lives in a few arrays that :class:`solver.necnon.searching.tree.SearchTree` owns and grows:

* ``nodes[n, field]`` (int64), a row per node: its mover (:data:`MOVER`, 1 for Black), the passes just
  made (:data:`PASSES`), its kind (:data:`KIND`: a pass, a one-stone turn, the first or the second
  stone of a two-stone turn, a finished game, a position whose decisions are not listed yet), its
  playouts (:data:`VISITS`), its decisions (where they begin in the decision arrays, :data:`START`, and
  how many, :data:`SIZE`), and for a first stone the cells allowed at its position (:data:`ALLOWED` in
  ``allowed``, :data:`ALLOWED_SIZE` of them).
* by decision d: its cell ``cells[d]`` (-1 for a pass), its child ``children[d]`` (-1 until added) and
  its figures ``stats[row, d]`` (float32), the rows :data:`COUNT` (playouts through the decision),
  :data:`REWARD` (their reward summed, for the node's mover), :data:`MARGIN` (their final margins
  summed, Black minus Green), :data:`WON` (how many the mover won), :data:`AMAF_COUNT` and
  :data:`AMAF_REWARD` (the same for the playouts through the node in which the mover laid a stone on
  the decision's cell later: "all moves as first").
* ``used``: the nodes, decisions and allowed cells taken so far.

No node holds its board: an iteration lays the stones of its path on a copy of the root's board.
"""

from __future__ import annotations

import math

import numpy as np

from solver.core.jit import njit
from solver.necnon.model import _rules
from solver.necnon.searching import _playout

COUNT, REWARD, MARGIN, WON, AMAF_COUNT, AMAF_REWARD = range(6)
ROWS = 6
#: Kinds of node: a pass, a one-stone turn, the first stone of a two-stone turn, its second stone; a
#: finished game (no decision); a position whose decisions are not listed yet (most nodes are reached
#: by one playout only, and their decisions would hold most of the tree's memory).
PASS, SINGLE, FIRST, SECOND, OVER, LEAF = range(6)
MOVER, PASSES, KIND, VISITS, START, SIZE, ALLOWED, ALLOWED_SIZE = range(8)
FIELDS = 8
#: The most nodes, decisions and allowed cells an iteration adds on a board of ``cells`` cells: two
#: nodes (a first stone enters the tree with its second), each with a decision a cell at most.
NODES_AN_ITERATION = 2


@njit(cache=True)
def select(stats, visits, exploration, bias):
    """The decision of greatest value at a node of ``visits`` playouts (its figures ``stats[row, k]``):
    the mean reward of its n playouts blended with the mean of its m AMAF ones, the AMAF weighing
    ``m / (n + m + 4 bias**2 n m)`` (Gelly and Silver's), plus ``exploration * sqrt(ln(visits + 1) /
    (n + 1))``. The first among equals."""
    logarithm = math.log(visits + 1)
    best, best_value = 0, -math.inf
    for k in range(stats.shape[1]):
        n, m = stats[COUNT, k], stats[AMAF_COUNT, k]
        mean = stats[REWARD, k] / n if n > 0 else 0.0
        value = mean
        if m > 0:
            weight = m / (n + m + 4 * bias * bias * n * m)
            value = (1 - weight) * mean + weight * stats[AMAF_REWARD, k] / m
        value += exploration * math.sqrt(logarithm / (n + 1))
        if value > best_value:
            best, best_value = k, value
    return best


@njit(cache=True)
def update(stats, k, decisions, final, stone, reward, margin, won):
    """Count a playout through decision ``k`` of a node (its figures ``stats``, its cells ``decisions``):
    its ``reward`` for the mover, its ``margin``, whether the mover ``won``; and in the AMAF rows every
    decision whose cell holds the mover's ``stone`` on the playout's ``final`` board (no decision for a
    pass: ``stone`` 0)."""
    stats[COUNT, k] += 1
    stats[REWARD, k] += reward
    stats[MARGIN, k] += margin
    stats[WON, k] += won
    if stone == 0:
        return
    for j in range(len(decisions)):
        if final[decisions[j]] == stone:
            stats[AMAF_COUNT, j] += 1
            stats[AMAF_REWARD, j] += reward


@njit(cache=True)
def _shuffle(cells):
    """Shuffle ``cells`` in place (numba's generator, which :func:`solver.necnon.searching._playout.seed` seeds)."""
    for i in range(len(cells) - 1, 0, -1):
        j = np.random.randint(i + 1)
        cells[i], cells[j] = cells[j], cells[i]


@njit(cache=True)
def _add_node(nodes, used, mover, passes, kind):
    """A new node with no decisions yet: its number."""
    n = used[0]
    used[0] += 1
    nodes[n, MOVER], nodes[n, PASSES], nodes[n, KIND], nodes[n, VISITS] = mover, passes, kind, 0
    nodes[n, START], nodes[n, SIZE], nodes[n, ALLOWED], nodes[n, ALLOWED_SIZE] = used[1], 0, 0, 0
    return n


@njit(cache=True)
def _add_decision(nodes, n, cells, children, stats, used, cell):
    """Give node ``n`` (the last added) one more decision, on ``cell``, with no child and no figures."""
    d = used[1]
    used[1] += 1
    cells[d], children[d] = cell, -1
    stats[:, d] = 0.0
    nodes[n, SIZE] += 1
    return d


@njit(cache=True)
def add_position(nodes, used, board, black_to_move, passes):
    """Add the node of the position (``board``, the mover, the passes just made), its decisions not yet
    listed (:data:`LEAF`; :func:`_expand` lists them when an iteration comes back to it), or
    :data:`OVER` if the game is over. Returns its number."""
    over = passes == 2 or _rules.empty_cells(board) == 0
    return _add_node(nodes, used, black_to_move, passes, OVER if over else LEAF)


@njit(cache=True)
def _expand(nodes, n, cells, children, stats, allowed, used, board, nec, neighbours, scratch):
    """List the decisions of node ``n`` (a :data:`LEAF` whose position is ``board``) in a random order,
    and give it its kind."""
    black_to_move = nodes[n, MOVER] == 1
    count = _rules.allowed_cells(board, black_to_move, nec, neighbours, scratch)
    nodes[n, START] = used[1]
    if count == 0:
        nodes[n, KIND] = PASS
        _add_decision(nodes, n, cells, children, stats, used, -1)
        return
    single = count == 1 or _rules.empty_cells(board) == len(board)
    nodes[n, KIND] = SINGLE if single else FIRST
    order = scratch[:count].copy()
    if not single:  # a first stone leaves a later cell for the second; its node keeps the allowed cells
        nodes[n, ALLOWED], nodes[n, ALLOWED_SIZE] = used[2], count
        allowed[used[2]:used[2] + count] = order
        used[2] += count
        order = order[:-1]
    _shuffle(order)
    for cell in order:
        _add_decision(nodes, n, cells, children, stats, used, cell)


@njit(cache=True)
def narrow_root(nodes, cells, children, stats, allowed, used, root, board, nec, neighbours, kept):
    """Keep the first or single stones of ``root`` (whose position is ``board``) only on the cells
    ``kept`` marks: those that no symmetry of the position maps to a lower cell, each decision kept with
    its child and figures; its decisions listed first, as :func:`_expand` does, if it is a
    :data:`LEAF`. Every turn is then the image of a turn among them (the image of a pair whose lower cell
    is the lowest that any image of the pair holds: no symmetry maps that cell lower, or it would map
    the pair to one with a lower cell), and the playouts are not spread over turns worth the same."""
    if nodes[root, KIND] == LEAF:
        _expand(nodes, root, cells, children, stats, allowed, used, board, nec, neighbours,
                np.empty(len(board), dtype=np.int64))
    if nodes[root, KIND] != SINGLE and nodes[root, KIND] != FIRST:
        return
    start, size = nodes[root, START], nodes[root, SIZE]
    end = start
    for d in range(start, start + size):
        if kept[cells[d]]:
            cells[end], children[end] = cells[d], children[d]
            stats[:, end] = stats[:, d]
            end += 1
    nodes[root, SIZE] = end - start
    if start + size == used[1]:  # the last decisions listed (a new root's): their room is free again
        used[1] = end


@njit(cache=True)
def _add_second(nodes, cells, children, stats, allowed, used, parent, k):
    """Add the node of the second stone after decision ``k`` (a first stone) of node ``parent``: the
    cells allowed after it, in a random order, with the AMAF figures of the first stone's node for the
    same cells (the same player laying a stone there). Returns its number."""
    start, size = nodes[parent, START], nodes[parent, SIZE]
    first = cells[start + k]
    later = allowed[nodes[parent, ALLOWED]:nodes[parent, ALLOWED] + nodes[parent, ALLOWED_SIZE]]
    order = later[later > first].copy()
    _shuffle(order)
    n = _add_node(nodes, used, nodes[parent, MOVER], 0, SECOND)
    for cell in order:
        d = _add_decision(nodes, n, cells, children, stats, used, cell)
        for j in range(start, start + size):  # the last allowed cell is a second stone only: not found
            if cells[j] == cell:
                stats[AMAF_COUNT, d], stats[AMAF_REWARD, d] = stats[AMAF_COUNT, j], stats[AMAF_REWARD, j]
                break
    return n


@njit(cache=True, nogil=True)
def iterate(nodes, cells, children, stats, allowed, used, root, root_board, count, nec, neighbours, exploration,
            bias):
    """Run ``count`` iterations from node ``root`` (its board ``root_board``): each selects decisions down
    the tree (:func:`select`; a :data:`LEAF` reached gets its decisions first) to the first without a
    child, adds that child (a first stone's with its second stone chosen at once, so that every playout
    goes through a whole turn), plays the game out at random from there and counts the playout along
    its path. Its reward for Black is ``0.9 * sign(margin) + 0.1 * margin / cells``; Green's is its
    opposite. An iteration adds to the tree only if the arrays have room for what it may add
    (:data:`NODES_AN_ITERATION` nodes, with a decision and an allowed cell a cell each); else it plays
    out from the first decision without a child (a first stone with a second drawn at random) or from a
    position whose decisions are not listed."""
    size = len(root_board)
    board = np.empty(size, dtype=np.int8)
    final = np.empty(size, dtype=np.int8)
    laid = np.empty(size, dtype=np.int64)
    scratch = np.empty(size, dtype=np.int64)
    path_nodes = np.empty(3 * size + 4, dtype=np.int64)  # a turn is at most two levels, a pass one
    path_decisions = np.empty(3 * size + 4, dtype=np.int64)
    for _ in range(count):
        board[:] = root_board
        node, depth = root, 0
        # Room for what an iteration may add: else it adds nothing, and plays out from where it stops.
        grow = (used[0] + NODES_AN_ITERATION <= len(nodes) and used[1] + NODES_AN_ITERATION * size <= len(cells)
                and used[2] + size <= len(allowed))
        black, passes = nodes[node, MOVER] == 1, nodes[node, PASSES]  # the mover and passes of the playout
        while True:
            kind = nodes[node, KIND]
            if kind == LEAF and grow:
                _expand(nodes, node, cells, children, stats, allowed, used, board, nec, neighbours, scratch)
                kind = nodes[node, KIND]
            if kind == OVER or kind == LEAF:
                break
            start, width = nodes[node, START], nodes[node, SIZE]
            k = select(stats[:, start:start + width], nodes[node, VISITS], exploration, bias)
            path_nodes[depth], path_decisions[depth] = node, k
            depth += 1
            cell = cells[start + k]
            black = nodes[node, MOVER] == 1
            stone = _rules.BLACK if black else _rules.GREEN
            if cell >= 0:
                board[cell] = stone
            child = children[start + k]
            if child < 0 and not grow:
                if kind == FIRST:  # a second stone at random completes the turn
                    later = allowed[nodes[node, ALLOWED]:nodes[node, ALLOWED] + nodes[node, ALLOWED_SIZE]]
                    later = later[later > cell]
                    board[later[np.random.randint(len(later))]] = stone
                black, passes = not black, passes + 1 if kind == PASS else 0
                break
            if child < 0:
                if kind == FIRST:
                    child = _add_second(nodes, cells, children, stats, allowed, used, node, k)
                else:
                    child = add_position(nodes, used, board, not black, passes + 1 if kind == PASS else 0)
                children[start + k] = child
                if kind != FIRST:
                    node = child
                    black, passes = nodes[node, MOVER] == 1, nodes[node, PASSES]
                    break
            node = child
            black, passes = nodes[node, MOVER] == 1, nodes[node, PASSES]
        margin = _playout.playout(board, black, passes, nec, neighbours, final, laid)
        reward = 0.9 * ((margin > 0) - (margin < 0)) + 0.1 * margin / size
        for level in range(depth):
            node, k = path_nodes[level], path_decisions[level]
            black = nodes[node, MOVER] == 1
            nodes[node, VISITS] += 1
            stone = 0 if nodes[node, KIND] == PASS else _rules.BLACK if black else _rules.GREEN
            start, width = nodes[node, START], nodes[node, SIZE]
            update(stats[:, start:start + width], k, cells[start:start + width], final, stone,
                   reward if black else -reward, margin, (margin > 0) if black else (margin < 0))


@njit(cache=True)
def subtree_sizes(nodes, children, root):
    """The nodes, decisions and allowed cells of the subtree of node ``root``."""
    sizes = np.zeros(3, dtype=np.int64)
    stack = np.empty(nodes.shape[0], dtype=np.int64)
    stack[0], top = root, 1
    while top > 0:
        top -= 1
        node = stack[top]
        sizes[0] += 1
        sizes[1] += nodes[node, SIZE]
        if nodes[node, KIND] == FIRST:
            sizes[2] += nodes[node, ALLOWED_SIZE]
        for d in range(nodes[node, START], nodes[node, START] + nodes[node, SIZE]):
            if children[d] >= 0:
                stack[top] = children[d]
                top += 1
    return sizes


@njit(cache=True)
def copy_subtree(nodes, cells, children, stats, allowed, root, new_nodes, new_cells, new_children, new_stats,
                 new_allowed, new_used):
    """Copy the subtree of node ``root`` into the empty arrays ``new_*`` (its root becomes node 0), so
    that a later search keeps it and drops the rest."""
    stack = np.empty(nodes.shape[0], dtype=np.int64)
    number = np.empty(nodes.shape[0], dtype=np.int64)  # the new number of each old node copied
    stack[0], top = root, 1
    number[root] = 0
    new_used[0] = 1
    while top > 0:
        top -= 1
        old = stack[top]
        n = number[old]
        new_nodes[n] = nodes[old]
        start, width = nodes[old, START], nodes[old, SIZE]
        new_start = new_used[1]
        new_used[1] += width
        new_nodes[n, START] = new_start
        new_cells[new_start:new_start + width] = cells[start:start + width]
        new_stats[:, new_start:new_start + width] = stats[:, start:start + width]
        if nodes[old, KIND] == FIRST:
            first, count = nodes[old, ALLOWED], nodes[old, ALLOWED_SIZE]
            new_nodes[n, ALLOWED] = new_used[2]
            new_allowed[new_used[2]:new_used[2] + count] = allowed[first:first + count]
            new_used[2] += count
        for k in range(width):
            child = children[start + k]
            if child < 0:
                new_children[new_start + k] = -1
            else:
                number[child] = new_used[0]
                new_used[0] += 1
                new_children[new_start + k] = number[child]
                stack[top] = child
                top += 1
