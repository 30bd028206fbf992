"""The search engine's exact endgame: the rest of a game solved by alpha-beta, within a budget of nodes.

When few cells are left empty the rest of the game is small enough to solve: :class:`EndgameSolver`
searches it exactly (the kernel is :mod:`solver.necnon._endgame`) and returns the perfect value and a
turn that keeps it, or None when its budget of nodes runs out first. A later call on the same position
resumes the work the first stored, so that a budget can be spent in pieces (the engine does so when it
thinks for a time rather than a number of playouts), and what the search of one position of a game
stored serves the search of the positions that follow it in the game. The value is the margin, Black's
points minus Green's, under perfect play: the same as the table's, on any board, tabled or not.

>>> from solver.necnon.rules import Game
>>> position = Position.empty(Game.of("3x3", "non")).play_line("b2 a1,c3 a3,c1")
>>> solved = EndgameSolver(position.game).solve(position, 10_000)
>>> solved is not None and solved.margin  # as the table says: Black by 3
3
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.necnon.position import PASS, Position, Turn
from solver.necnon.rules import Game

#: The most empty cells a position may have: the kernel's keys give each two bits, and fit 64.
MAX_EMPTY = 31
#: The table holds ``2 ** TABLE_BITS`` positions (16 bytes each).
TABLE_BITS = 22
#: The first guess of the mover's margin when no position of the game has been solved yet. A guess
#: below the value costs tests that each need one good turn; one above it, tests that must refute
#: every turn, which cost more: the empty board and the positions after Black's first stone on 5 x 4
#: and 7 x 3 under ``nec-non`` (values -3 to +3) took 92.0 M nodes in all from -2, 119.5 M from 0.
FIRST_GUESS = -2


def board_bytes(position: Position) -> npt.NDArray[np.int8]:
    """The stones of ``position`` as the kernels read them: one byte a cell, 0 empty, 1 Black, 2 Green."""
    return np.array([(position.black >> cell & 1) + 2 * (position.green >> cell & 1)
                     for cell in range(position.game.grid.cells)], dtype=np.int8)


def _cache_lines(shape: tuple[int, int]) -> npt.NDArray[np.uint64]:
    """An array of 64-bit words of ``shape`` that begins on a cache line (64 bytes), so that each bucket
    of the kernel's table is one line."""
    words = shape[0] * shape[1]
    memory = np.empty(words + 8, dtype=np.uint64)
    start = -memory.ctypes.data % 64 // 8
    return memory[start:start + words].reshape(shape)


def _symmetries(position: Position, free: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``symmetries[g, k]``: the image of cell ``free[k]``, as an index of ``free``, under each symmetry of
    the board but the identity that maps ``position`` to itself and ``free`` onto itself."""
    grid = position.game.grid
    index = np.full(grid.cells, -1, dtype=np.int64)
    index[free] = np.arange(len(free))
    board = board_bytes(position)
    images = [index[image[free]] for image in grid.symmetries[1:] if (board[image] == board).all()]
    kept = [image for image in images if (image >= 0).all()]
    return np.array(kept, dtype=np.int64).reshape(len(kept), len(free))


def _turn_code(turn: Turn, free: npt.NDArray[np.int64], passed: int) -> int:
    """The kernel's code of ``turn`` (see :mod:`solver.necnon._endgame`): ``32 * a + b`` for stones on
    ``free[a]`` and ``free[b]`` (a = b for one stone), ``passed`` (the kernel's code) for a pass."""
    if not turn.cells:
        return passed
    stones = [int(np.flatnonzero(free == cell)[0]) for cell in turn.cells]
    return 32 * stones[0] + stones[-1]


@dataclass(frozen=True)
class Solved:
    """A position solved: a turn that keeps its value, the value (the margin, Black minus Green, under
    perfect play) and the nodes the search visited."""

    turn: Turn
    margin: int
    nodes: int


class EndgameSolver:
    """The exact solver of the rest of a game of ``game``, for positions with at most :data:`MAX_EMPTY`
    empty cells."""

    def __init__(self, game: Game, table_bits: int = TABLE_BITS) -> None:
        from solver.necnon import _endgame  # numba is imported only when the engine is used

        self._kernel = _endgame
        self.game = game
        self._neighbours, self._nec = game.grid.neighbour_table, game.nec
        self._table = _cache_lines((1 << table_bits, 2))
        self._history = np.zeros((2, MAX_EMPTY), dtype=np.int64)
        # The kernel's stack, and its state: a search stopped by its budget leaves them (and the board
        # with the stones of the line it was on) for the next call to go on from.
        rows, columns = _endgame.stack_shape(MAX_EMPTY)
        self._frames = np.empty((rows, columns), dtype=np.int64)
        self._masks = np.empty((rows, 3), dtype=np.uint64)
        self._allowed = np.empty((rows, MAX_EMPTY), dtype=np.int64)
        self._state = np.zeros(7, dtype=np.int64)
        self._root: Position | None = None
        self._board = np.empty(0, dtype=np.int8)
        # The cells the table's keys are made of (the empty cells of the first position it served) and
        # the stones of that position: the table serves the positions that keep those stones.
        self._free = np.empty(0, dtype=np.int64)
        self._basis: npt.NDArray[np.int8] | None = None
        # What the searches of the root proved: lower <= value <= upper (the mover's margin), the turn
        # that reached the lower bound (-1 before one did), the first test's guess of the value. The
        # guess is the value of the last position of the game solved (Black minus Green; None before
        # one is): perfect play keeps it from turn to turn.
        self._lower = self._upper = self._turn = self._guess = 0
        self._value: int | None = None
        self._symmetries = np.zeros((0, 0), dtype=np.int64)

    def solve(self, position: Position, nodes: int, first: Turn | None = None) -> Solved | None:
        """``position`` solved, or None if ``nodes`` more nodes of search do not suffice (a later call on
        the same position goes on from there). ``first``: a turn of ``position`` to search first (a good
        guess makes the search shorter), unless an earlier call found a better one. Raises ValueError
        if the game is over, more than :data:`MAX_EMPTY` cells are empty or ``first`` is not a turn of
        ``position``."""
        if position.over:
            raise ValueError("the game is over: there is nothing to solve")
        board = board_bytes(position)
        empty = int((board == 0).sum())
        if empty > MAX_EMPTY:
            raise ValueError(f"{empty} empty cells: the endgame solver takes at most {MAX_EMPTY}")
        if first is not None and first not in position.turns():
            raise ValueError(f"{first.name(position.game.grid)} is not a turn of {position.notation()}")
        if position != self._root:
            self._board, self._state[6] = board.copy(), -1  # the kernel lays its lines on the copy
            if not self._serves(board):
                self._kernel.clear(self._table)
                self._history[:] = 0
                self._free, self._basis = np.flatnonzero(board == 0).astype(np.int64), board
                self._value = None
            self._symmetries = _symmetries(position, self._free)
            self._root, self._state[0] = position, 0
            cells = position.game.grid.cells
            self._lower, self._upper, self._turn = -cells - 1, cells + 1, -1
            if self._value is None:
                self._guess = FIRST_GUESS
            else:
                self._guess = self._value if position.black_to_move else -self._value
        budget = self._state[0] + nodes
        free = self._free
        first_code = -1 if first is None else _turn_code(first, free, self._kernel.PASS)
        # MTD(f): null-window tests "is the value at least beta?" from the guess, each moving a bound to
        # the value the test returned, until the bounds meet (each test costs far fewer nodes than a
        # search of the whole window).
        while self._lower < self._upper:
            beta = max(self._guess, self._lower + 1)
            self._state[1], self._state[3], self._state[4], self._state[5] = budget, first_code, beta - 1, beta
            value = int(self._kernel.solve(self._board, free, position.black_to_move, position.passes == 1,
                                           self._nec, self._neighbours, self._table, self._history, self._symmetries, self._frames, self._masks,
                                           self._allowed, self._state))
            if self._state[2]:
                return None
            if value >= beta:
                self._lower, self._turn = value, int(self._state[3])
            else:
                self._upper = value
            self._guess = value
        code = self._turn
        if code == self._kernel.PASS:
            turn = PASS
        else:
            one, other = divmod(code, 32)
            turn = Turn(tuple(sorted({int(free[one]), int(free[other])})))
        self._value = margin = self._lower if position.black_to_move else -self._lower
        return Solved(turn, margin, int(self._state[0]))

    def _serves(self, board: npt.NDArray[np.int8]) -> bool:
        """Do the table's keys describe the position of stones ``board``: does it keep every stone of
        the position the table was begun for?"""
        if self._basis is None:
            return False
        taken = self._basis != 0
        return bool((board[taken] == self._basis[taken]).all())
