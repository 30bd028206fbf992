"""The search engine's exact endgame: the rest of a game solved by alpha-beta, within a budget of nodes.

When few cells are left empty the rest of the game is small enough to solve: :class:`EndgameSolver`
searches it exactly (the kernel is :mod:`solver.necnon.searching._endgame`) and returns the perfect value and a
turn that keeps it, or None when its budget of nodes runs out first. A later call on the same position
resumes the work the first stored, so that a budget can be spent in pieces (the engine does so when it
thinks for a time rather than a number of playouts), and what the search of one position of a game
stored serves the search of the positions that follow it in the game. The value is the margin, Black's
points minus Green's, under perfect play: the same as the table's, on any board, tabled or not.

>>> from solver.necnon.model.rules import Game
>>> position = Position.empty(Game.of("3x3", "non")).play_line("b2 a1,c3 a3,c1")
>>> solved = EndgameSolver(position.game).solve(position, 10_000)
>>> solved is not None and solved.margin  # as the table says: Black by 3
3
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from types import ModuleType

import numpy as np
import numpy.typing as npt

from solver.necnon.model.grid import Grid
from solver.necnon.model.position import PASS, Position, Turn
from solver.necnon.model.rules import Game

#: The most empty cells a position may have: the kernel's keys give each two bits, and fit 64.
MAX_EMPTY = 31
#: The table holds ``2 ** TABLE_BITS`` positions (16 bytes each).
TABLE_BITS = 22
#: The budget of nodes that stands for none.
_NO_LIMIT = 2**62
#: The first guess of the mover's margin when no position of the game has been solved yet. A guess
#: below the value costs tests that each need one good turn, and each proves a floor with a turn that
#: reaches it; one above it, tests that must refute every turn, which cost more and prove no floor.
#: The engine gives the tree search's choice to try first: after Black's first stone on 7 x 3, the
#: floor reached the value in fewer nodes from -4 than from -2, and the solutions took fewer nodes in
#: all. With no turn given, -2 takes fewer (on the empty 5 x 4 board and those positions).
FIRST_GUESS = -4


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


def fixing_symmetries(grid: Grid, board: npt.NDArray[np.int8]) -> list[npt.NDArray[np.int8]]:
    """The symmetries of ``grid`` but the identity (each the image of every cell) that map the stones
    ``board`` (:func:`board_bytes`) to themselves."""
    return [image for image in grid.symmetries[1:] if (board[image] == board).all()]


def _symmetries(position: Position, free: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``symmetries[g, k]``: the image of cell ``free[k]``, as an index of ``free``, under each symmetry of
    the board but the identity that maps ``position`` to itself and ``free`` onto itself."""
    grid = position.game.grid
    index = np.full(grid.cells, -1, dtype=np.int64)
    index[free] = np.arange(len(free))
    images = [index[image[free]] for image in fixing_symmetries(grid, board_bytes(position))]
    kept = [image for image in images if (image >= 0).all()]
    return np.array(kept, dtype=np.int64).reshape(len(kept), len(free))


def _turn_code(turn: Turn, free: npt.NDArray[np.int64], passed: int) -> int:
    """The kernel's code of ``turn`` (see :mod:`solver.necnon.searching._endgame`): ``32 * a + b`` for stones on
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


@dataclass(frozen=True)
class Proven:
    """What the searches of a position not yet solved have proven: a turn whose value for its player is
    at least ``floor`` (the player's margin: its points minus the other's)."""

    turn: Turn
    floor: int


class _Search:
    """One search of the solver's root, run on a thread of its own when there are several: the kernel's
    stack, state and history (the cuts by cell that order its turns), and its board, which holds the
    stones of the line it was on while it is stopped."""

    def __init__(self, kernel: ModuleType) -> None:
        rows, columns = kernel.stack_shape(MAX_EMPTY)
        self.frames = np.empty((rows, columns), dtype=np.int64)
        self.masks = np.empty((rows, 3), dtype=np.uint64)
        self.allowed = np.empty((rows, MAX_EMPTY), dtype=np.int64)
        self.history = np.zeros((2, MAX_EMPTY), dtype=np.int64)
        self.state = np.zeros(kernel.STATE, dtype=np.int64)
        self.board = np.empty(0, dtype=np.int8)
        self.beta: int | None = None  # the test it is on: "is the value at least beta?"

    def begin(self, board: npt.NDArray[np.int8], beta: int) -> None:
        """Set it on the test of ``beta`` of the root of stones ``board``, from the root."""
        self.board, self.beta = board.copy(), beta  # the kernel lays its lines on the copy
        self.state[4], self.state[5], self.state[6] = beta - 1, beta, -1


class EndgameSolver:
    """The exact solver of the rest of a game of ``game``, for positions with at most :data:`MAX_EMPTY`
    empty cells. It holds ``threads`` searches: a call of :meth:`solve` runs each test with as many of
    them as it is given, at once, each on a thread of its own, sharing the table; the first
    to finish the test answers, and the others stop. They search alike, but each finds what the others
    stored, and so they part ways (with two, 7 x 3's hardest positions after one stone are solved
    sooner). With one, a search is reproducible; with more, the value is the same but
    which of the turns that keep it is named, and the nodes, may change from run to run."""

    def __init__(self, game: Game, table_bits: int = TABLE_BITS, threads: int = 1) -> None:
        from solver.necnon.searching import _endgame  # numba is imported only when the engine is used

        self._kernel = _endgame
        self.game = game
        self._neighbours, self._nec = game.grid.neighbour_table, game.nec
        self._table = _cache_lines((1 << table_bits, 2))
        self._searches = [_Search(_endgame) for _ in range(threads)]
        self._stopping = False  # set when one search has finished the test: the others stop
        self._root: Position | None = None
        self._board = np.empty(0, dtype=np.int8)
        # The cells the table's keys are made of (the empty cells of the first position it served) and
        # the stones of that position: the table serves the positions that keep those stones.
        self._free = np.empty(0, dtype=np.int64)
        self._basis: npt.NDArray[np.int8] | None = None
        # What the tests of the root proved: lower <= value <= upper (the mover's margin), the turn
        # that reached the lower bound (-1 before one did), the next test's guess of the value. The
        # first guess is the value of the last position of the game solved (Black minus Green; None
        # before one is): perfect play keeps it from turn to turn.
        self._lower = self._upper = self._guess = 0
        self._turn = -1
        self._value: int | None = None
        self._symmetries = np.zeros((0, 0), dtype=np.int64)

    def solve(self, position: Position, nodes: int | None, first: Turn | None = None, threads: int = 1,
              deadline: float | None = None) -> Solved | None:
        """``position`` solved, or None if ``nodes`` more nodes of search (each search's; None: no limit)
        do not suffice or the clock (:func:`~time.perf_counter`) reaches ``deadline`` first (a later call
        on the same position goes on from there). ``first``: a turn of ``position`` to search first in
        each test (a good guess makes the search shorter; a bad one is refuted first, which
        :meth:`ceiling` can tell), before the best turn the last test found. ``threads``:
        the searches run at once (at most as many as the solver holds). Raises ValueError if the game
        is over, more than :data:`MAX_EMPTY` cells are empty or ``first`` is not a turn of
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
            self._begin(position, board)
        searches = self._searches[:max(1, threads)]
        budgets = [int(search.state[0]) + (_NO_LIMIT if nodes is None else nodes) for search in searches]
        first_code = -1 if first is None else _turn_code(first, self._free, self._kernel.PASS)
        # MTD(f): null-window tests "is the value at least beta?" from the guess, each moving a bound to
        # the value the test returned, until the bounds meet (each test costs far fewer nodes than a
        # search of the whole window).
        while self._lower < self._upper:
            beta = max(self._guess, self._lower + 1)
            answer = self._test(position, searches, beta, budgets, first_code, deadline)
            if answer is None:
                return None
            value, code = answer
            if value >= beta:
                self._lower, self._turn = value, code
            else:
                self._upper = value
            self._guess = value
        self._value = margin = self._lower if position.black_to_move else -self._lower
        return Solved(self._decoded(self._turn), margin, self.nodes)

    @property
    def nodes(self) -> int:
        """The nodes the searches of the position last given to :meth:`solve` have visited."""
        return sum(int(search.state[0]) for search in self._searches)

    def proven(self) -> Proven | None:
        """For the position last given to :meth:`solve`: the turn that reached the highest lower bound
        proven so far and that bound (the mover's margin), or None before a test has found one."""
        if self._turn < 0:
            return None
        return Proven(self._decoded(self._turn), self._lower)

    def ceiling(self, turn: Turn) -> int | None:
        """For the position last given to :meth:`solve`: the most the table proves ``turn`` can be worth
        to its player (the mover's margin), or None if it proves no such bound."""
        assert self._root is not None, "no position has been searched"
        after = self._root.play(turn)
        if after.over:
            return None
        lower, _ = self._kernel.bounds_of(self._table, board_bytes(after), self._free, after.black_to_move,
                                          after.passes == 1)
        return None if lower == -127 else -lower

    def _begin(self, position: Position, board: npt.NDArray[np.int8]) -> None:
        """Make ``position`` (of stones ``board``) the root: keep the table if it serves it."""
        if not self._serves(board):
            self._kernel.clear(self._table)
            for search in self._searches:
                search.history[:] = 0
            self._free, self._basis = np.flatnonzero(board == 0).astype(np.int64), board
            self._value = None
        self._symmetries = _symmetries(position, self._free)
        self._root, self._board = position, board
        for search in self._searches:
            search.state[0], search.beta = 0, None
        cells = position.game.grid.cells
        self._lower, self._upper, self._turn = -cells - 1, cells + 1, -1
        if self._value is None:
            self._guess = FIRST_GUESS
        else:
            self._guess = self._value if position.black_to_move else -self._value

    def _test(self, position: Position, searches: list[_Search], beta: int, budgets: list[int], first: int,
              deadline: float | None) -> tuple[int, int] | None:
        """Run the test of ``beta`` with ``searches`` at once (each on a thread of its own, within its
        budget) until one finishes it: its value (fail-soft) and the root's best turn it found, or None
        if every search ran out of budget, or the clock reached ``deadline``, first. Raises what a
        search raised."""
        for search in searches:
            if search.beta != beta:
                search.begin(self._board, beta)
        answers: list[tuple[int, int] | None] = [None] * len(searches)
        failures: list[BaseException] = []

        def run(number: int) -> None:
            try:
                search_on(number)
            except BaseException as failure:  # raised again in the calling thread
                failures.append(failure)
                self._stop(searches)

        def search_on(number: int) -> None:
            search = searches[number]
            search.state[1], search.state[3] = budgets[number], first
            if self._stopping:  # looked at after the budget is set: a stop cannot be overwritten
                return
            value = int(self._kernel.solve(search.board, self._free, position.black_to_move, position.passes == 1,
                                           self._nec, self._neighbours, self._table, search.history,
                                           self._symmetries, search.frames, search.masks, search.allowed,
                                           search.state))
            if not search.state[2]:
                answers[number] = value, int(search.state[3])
                search.beta = None
                self._stop(searches)

        runs = [threading.Thread(target=run, args=(number,), name=f"necnon-endgame-{number}", daemon=True)
                for number in range(len(searches))]
        for thread in runs:
            thread.start()
        if deadline is not None:
            for thread in runs:
                thread.join(max(0.0, deadline - time.perf_counter()))
            self._stop(searches)  # the kernels stop at their next node, resumable
        for thread in runs:
            thread.join()
        self._stopping = False
        if failures:
            raise failures[0]
        return next((answer for answer in answers if answer is not None), None)

    def _stop(self, searches: list[_Search]) -> None:
        """Stop ``searches``: running, they stop at their next node; about to run, they do not begin."""
        self._stopping = True
        for search in searches:
            search.state[1] = 0

    def _decoded(self, code: int) -> Turn:
        """The turn of the kernel's code ``code`` at the root."""
        if code == self._kernel.PASS:
            return PASS
        one, other = divmod(code, 32)
        return Turn(tuple(sorted({int(self._free[one]), int(self._free[other])})))

    def _serves(self, board: npt.NDArray[np.int8]) -> bool:
        """Do the table's keys describe the position of stones ``board``: does it keep every stone of
        the position the table was begun for?"""
        if self._basis is None:
            return False
        taken = self._basis != 0
        return bool((board[taken] == self._basis[taken]).all())
