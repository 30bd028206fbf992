"""The search engine's tree (:class:`~solver.necnon.searching.tree.SearchTree`): its arrays, grown as the search needs, the reuse of
a subtree by the next search, and the turns it ranks. The iterations themselves are numba kernels
(:mod:`solver.necnon.searching._tree`, whose docstring describes the arrays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.searching.endgame import board_bytes, fixing_symmetries

#: The nodes the arrays first have room for (they double when an iteration may need more).
FIRST_NODES = 1 << 12
#: The most decisions a tree holds (32 bytes each: 128 MB); once they are taken, iterations add no
#: more nodes (a long search on a large board reaches it).
MAX_DECISIONS = 1 << 22


@dataclass(frozen=True)
class RankedTurn:
    """A turn of the root as the tree saw it: its playouts, and the sums of their margins (Black minus
    Green) and of the games its player won."""

    turn: Turn
    visits: int
    margins: float
    won: float


class SearchTree:
    """The tree of a search from a position of ``game`` (see :mod:`solver.necnon.searching._tree`): begun by
    :meth:`start`, grown by :meth:`run`."""

    def __init__(self, game: Game, exploration: float, bias: float) -> None:
        from solver.necnon.searching import _tree  # numba is imported only when the engine is used

        self._kernel = _tree
        self.game = game
        self.exploration, self.bias = exploration, bias
        self._neighbours, self._nec = game.grid.neighbour_table, game.nec
        self._arrays = self._empty(FIRST_NODES, FIRST_NODES * game.grid.cells, FIRST_NODES * game.grid.cells)
        self._used = np.zeros(3, dtype=np.int64)
        self._root = -1  # no tree yet
        self._board = np.zeros(game.grid.cells, dtype=np.int8)  # the root's stones

    def _empty(self, nodes: int, decisions: int, allowed: int) -> list[npt.NDArray[Any]]:
        """Arrays with room for ``nodes`` nodes, ``decisions`` decisions and ``allowed`` allowed cells:
        nodes, cells, children, stats, allowed (stats as float32: exact counts up to 2**24)."""
        return [np.zeros((nodes, self._kernel.FIELDS), dtype=np.int64), np.zeros(decisions, dtype=np.int32),
                np.zeros(decisions, dtype=np.int32), np.zeros((self._kernel.ROWS, decisions), dtype=np.float32),
                np.zeros(allowed, dtype=np.int32)]

    @property
    def nodes(self) -> int:
        """The nodes the tree holds."""
        return int(self._used[0])

    @property
    def visits(self) -> int:
        """The playouts through the root."""
        return int(self._arrays[0][self._root, self._kernel.VISITS])

    def start(self, position: Position, reuse: bool = True) -> None:
        """Make ``position`` the root: with ``reuse``, its node in the tree, if it is there within two
        turns of the root (the engine's turn and the reply to it); else a new tree. Either way its first
        stones only on the cells :meth:`_unmapped_lower` gives."""
        board = board_bytes(position)
        node = self._reused(position, board) if reuse else None
        self._board = board
        if node is None:
            self._used[:] = 0
            self._root = self._kernel.add_position(self._arrays[0], self._used, board, position.black_to_move,
                                                   position.passes)
        else:
            # Room for the subtree kept and as much again (the decisions within MAX_DECISIONS).
            kept = [int(count) for count in self._kernel.subtree_sizes(self._arrays[0], self._arrays[2], node)]
            cells = self.game.grid.cells
            room = [max(2 * count, first) for count, first in zip(kept, (FIRST_NODES, FIRST_NODES * cells,
                                                                           FIRST_NODES * cells))]
            room[1] = max(kept[1], min(room[1], MAX_DECISIONS))
            fresh = self._empty(*room)
            used = np.zeros(3, dtype=np.int64)
            self._kernel.copy_subtree(*self._arrays, node, *fresh, used)
            self._arrays, self._used, self._root = fresh, used, 0
        firsts = self._unmapped_lower(board)
        if not firsts.all():
            self._kernel.narrow_root(*self._arrays, self._used, self._root, board, self._nec, self._neighbours,
                                     firsts)

    def _unmapped_lower(self, board: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
        """The cells that no symmetry of the board keeping the stones ``board`` maps to a lower cell: the
        root's first stones are laid there only (see :func:`solver.necnon.searching._tree.narrow_root`)."""
        cells = np.arange(len(board))
        kept = np.ones(len(board), dtype=np.bool_)
        for image in fixing_symmetries(self.game.grid, board):
            kept &= image >= cells
        return kept

    def run(self, iterations: int) -> None:
        """``iterations`` more iterations from the root."""
        cells = self.game.grid.cells
        nodes = self._kernel.NODES_AN_ITERATION * iterations
        needed = (self._used[0] + nodes, self._used[1] + nodes * cells, self._used[2] + iterations * cells)
        capacities = self._capacities()
        if any(need > capacity for need, capacity in zip(needed, capacities)) and capacities[1] < MAX_DECISIONS:
            self._grow(needed)
        self._kernel.iterate(*self._arrays, self._used, self._root, self._board, iterations, self._nec,
                             self._neighbours, self.exploration, self.bias)

    def _capacities(self) -> tuple[int, int, int]:
        """The room of the arrays: nodes, decisions, allowed cells."""
        nodes, cells, _, _, allowed = self._arrays
        return len(nodes), len(cells), len(allowed)

    def _grow(self, needed: tuple[int, int, int]) -> None:
        """Room for at least ``needed`` nodes, decisions and allowed cells (each doubled until there is;
        decisions at most :data:`MAX_DECISIONS`), the tree kept."""
        room = []
        for need, capacity in zip(needed, self._capacities()):
            while capacity < need:
                capacity *= 2
            room.append(capacity)
        room[1] = min(room[1], MAX_DECISIONS)
        grown = self._empty(*room)
        used_nodes, used_decisions, used_allowed = (int(count) for count in self._used)
        nodes, cells, children, stats, allowed = self._arrays
        grown[0][:used_nodes] = nodes[:used_nodes]
        grown[1][:used_decisions] = cells[:used_decisions]
        grown[2][:used_decisions] = children[:used_decisions]
        grown[3][:, :used_decisions] = stats[:, :used_decisions]
        grown[4][:used_allowed] = allowed[:used_allowed]
        self._arrays = grown

    # -- reading the tree ---------------------------------------------------------------------------------

    def _decisions(self, node: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[Any]]:
        """The cells, children and figures of ``node``'s decisions."""
        nodes, cells, children, stats, _ = self._arrays
        start, size = nodes[node, self._kernel.START], nodes[node, self._kernel.SIZE]
        return cells[start:start + size], children[start:start + size], stats[:, start:start + size]

    def _reused(self, position: Position, board: npt.NDArray[np.int8]) -> int | None:
        """The node of ``position`` (its stones ``board``) within two turns of the root, if the tree
        holds it."""
        kernel = self._kernel
        node, stones = self._root, self._board
        for _ in range(3):  # the root, after one turn, after two
            if node < 0:
                return None
            nodes = self._arrays[0]
            black = nodes[node, kernel.MOVER] == 1
            if black == position.black_to_move and nodes[node, kernel.PASSES] == position.passes and \
                    np.array_equal(stones, board):
                return node
            laid = np.flatnonzero((board == (1 if black else 2)) & (stones == 0))
            kind = nodes[node, kernel.KIND]
            if {kernel.PASS: 0, kernel.SINGLE: 1, kernel.FIRST: 2}.get(kind) != len(laid):
                return None
            if kind == kernel.PASS:
                node = int(self._decisions(node)[1][0])
            else:
                node = self._child_at(node, int(laid[0]))
                if node >= 0 and kind == kernel.FIRST:
                    node = self._child_at(node, int(laid[1]))
            stones = stones.copy()
            stones[laid] = 1 if black else 2
        return None

    def _child_at(self, node: int, cell: int) -> int:
        """The child of the decision on ``cell`` at ``node``, -1 if not in the tree."""
        cells, children, _ = self._decisions(node)
        index = np.flatnonzero(cells == cell)
        return int(children[index[0]]) if len(index) else -1

    def root_decisions(self) -> Iterator[tuple[int, float, float, float, dict[int, float]]]:
        """The root's decisions in the tree: each one's cell (-1 for a pass), its playouts and the sums of
        their margins and of the games its player won, and for a first stone the playouts through each
        second stone after it (else empty)."""
        kernel = self._kernel
        first = self._arrays[0][self._root, kernel.KIND] == kernel.FIRST
        cells, children, stats = self._decisions(self._root)
        for k in np.flatnonzero(children >= 0):
            after: dict[int, float] = {}
            if first:
                seconds, _, figures = self._decisions(int(children[k]))
                after = dict(zip(seconds.tolist(), figures[kernel.COUNT].tolist()))
            yield (int(cells[k]), float(stats[kernel.COUNT, k]), float(stats[kernel.MARGIN, k]),
                   float(stats[kernel.WON, k]), after)


def ranked(trees: Sequence[SearchTree]) -> list[RankedTurn]:
    """Every turn of the root the ``trees`` hold (one root, searched apart by each), their figures added,
    most visited first (then in the order of turns); a two-stone turn is a first stone with its most
    visited second (the lowest cell among equals), counted with the first stone's playouts (every second
    stone's included)."""
    figures: dict[int, list[float]] = {}
    seconds: dict[int, dict[int, float]] = {}
    for tree in trees:
        for cell, visits, margins, won, after in tree.root_decisions():
            total = figures.setdefault(cell, [0.0, 0.0, 0.0])
            total[0] += visits
            total[1] += margins
            total[2] += won
            counts = seconds.setdefault(cell, {})
            for other, count in after.items():
                counts[other] = counts.get(other, 0.0) + count
    entries = []
    for cell, (visits, margins, won) in figures.items():
        if seconds[cell]:
            second = -max((count, -other) for other, count in seconds[cell].items())[1]
            turn = Turn(tuple(sorted((cell, second))))
        else:
            turn = Turn(() if cell == -1 else (cell,))
        entries.append(RankedTurn(turn, int(visits), margins, won))
    return sorted(entries, key=lambda entry: (-entry.visits, entry.turn))
