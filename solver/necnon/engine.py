"""The search engine for boards too large to solve: an exact endgame, and before it Monte Carlo tree
search with random playouts and RAVE.

**Endgame.** When at most :data:`~solver.necnon.endgame.MAX_EMPTY` cells are empty, the engine solves
the rest of the game exactly (:class:`~solver.necnon.endgame.EndgameSolver`) on a second thread while
the tree search runs on the first, so that each has a core: within :data:`ENDGAME_NODES` nodes a
playout of the ``iterations``, or the turn's time. Solved, the engine plays a turn that keeps the
perfect value (and the tree search stops); else the tree search's choice. The endgame's table lasts the
game: what the search of one turn stored serves the next.

**Tree.** A turn of two stones is chosen as two decisions of its player: a first stone, then a second
stone on a later allowed cell (in board order), so that a node has at most one child per cell rather
than one per pair. One-stone turns and passes are one decision. Each node keeps, for each of its
decisions, the playouts through it and their reward for its player, and the same "all moves as first"
(AMAF): the playouts through the node in which its player laid a stone on the decision's cell at any
later point, as if it had been first. No stone is ever removed, so a playout's final board tells
which cells each player laid (:mod:`solver.necnon._tree`).

**Selection.** From the root, the decision of greatest value: its mean reward blended with its AMAF
mean (RAVE: the AMAF weighs much while the decision has few playouts of its own, little after, by
:data:`RAVE_BIAS`), plus an exploration bonus (:data:`EXPLORATION`); among equals the first in an order
shuffled by the engine's seed. The first decision without a child adds it to the tree, and if it is a
first stone, a second stone under it is chosen at once (its node starts from the first stone's AMAF
figures for the same cells): every playout goes through a whole turn, so that one playout is enough to
choose one.

**Evaluation.** A playout plays the game out from there with random turns (stones on allowed cells
drawn uniformly; :mod:`solver.necnon._playout`) and scores it by the rules. Its reward for Black is
``0.9 * sign(margin) + 0.1 * margin / cells``, in [-1, 1]: winning counts most, and among wins the
wider margins a little; Green's reward is its opposite. A finished position is scored exactly.

**Reuse.** A search starts from the node of its position in the tree of the engine's last search, if
the position is there within two turns of that search's root (the engine's turn and the reply to it):
the playouts through it count again, and the visits of a verdict's turns may add up to more than its
playouts.

**Choice.** The most visited first decision, then the most visited second stone under it. With the
same seed and a number of iterations (``--iterations``) the engine plays the same turns when asked for
the same positions in the same order; with a time budget (``--time``) the number of iterations, and so
the choice, depends on the machine's speed.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

import numpy as np

from solver.necnon.endgame import MAX_EMPTY, EndgameSolver, Solved, board_bytes
from solver.necnon.position import Position, Turn
from solver.necnon.rules import Game

#: The exploration constant (rewards lie in [-1, 1]).
EXPLORATION = 0.1
#: The bias of the AMAF estimates (Gelly and Silver's b): the smaller, the longer they weigh.
RAVE_BIAS = 0.1
#: The exact endgame's budget, in nodes a playout of the ``iterations`` (a node takes some 1/100 to 1/400
#: of a playout's time on the boards measured, so that the endgame takes about as long as the playouts,
#: at most a few times as long).
ENDGAME_NODES = 200
#: Nodes of the exact endgame between two looks at the clock (some hundredths of a second).
ENDGAME_CHUNK = 100_000
_CHECK_CLOCK = 32


@dataclass(frozen=True)
class EngineTurn:
    """A turn as the engine saw it: how many playouts went through it (this search's, and the last
    search's when its tree was reused), their mean margin (Black minus Green) and the share of them its
    player won."""

    turn: Turn
    name: str
    visits: int
    mean_margin: float
    won: float


@dataclass(frozen=True)
class Verdict:
    """The engine's view of a position: its turns, most visited first (the first is its choice), and
    the playouts it ran. ``solved``: the rest of the game was solved exactly (in ``nodes`` nodes), and
    the one turn given keeps the perfect value, its ``mean_margin`` (no playout went through it)."""

    turns: tuple[EngineTurn, ...]
    iterations: int
    seconds: float
    solved: bool = False
    nodes: int = 0

    def lines(self, limit: int = 8) -> list[str]:
        """Its view as text: the iterations (or the exact solution), then the first ``limit`` turns."""
        if self.solved:
            best = self.turns[0]
            return [f"the engine's view (solved exactly, {self.nodes:,} nodes in {self.seconds:.1f} s; margin "
                    f"is Black minus Green):", f"  {best.name}  keeps the perfect margin {best.mean_margin:+.0f}"]
        lines = [f"the engine's view ({self.iterations:,} playouts in {self.seconds:.1f} s; mean margin is "
                 f"Black minus Green):"]
        width = max((len(entry.name) for entry in self.turns[:limit]), default=0)
        lines += [f"  {entry.name:<{width}}  {entry.visits:>7,} visits  mean margin {entry.mean_margin:+6.2f}  "
                  f"won {100 * entry.won:5.1f} %" for entry in self.turns[:limit]]
        if len(self.turns) > limit:
            lines.append(f"  ... and {len(self.turns) - limit} more")
        return lines


# Kinds of decision: a pass, a one-stone turn, the first stone of a two-stone turn, its second stone;
# and a finished game (no decision).
_PASS, _SINGLE, _FIRST, _SECOND, _OVER = range(5)


class _Endgame:
    """The exact solution of ``position`` by ``solver``, searched on a thread of its own while the tree
    search runs: within ``nodes`` nodes, or (None) in pieces of :data:`ENDGAME_CHUNK` nodes until the
    clock reaches ``deadline``. The kernel holds no lock while it searches, so that the two searches use
    two cores. ``solved``: the solution once found, else None."""

    def __init__(self, solver: EndgameSolver, position: Position, nodes: int | None, deadline: float) -> None:
        self.solved: Solved | None = None
        self._failure: BaseException | None = None
        self._solver, self._position, self._nodes, self._deadline = solver, position, nodes, deadline
        self._thread = threading.Thread(target=self._run, name="necnon-endgame", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            if self._nodes is not None:
                self.solved = self._solver.solve(self._position, self._nodes)
                return
            while self.solved is None and time.perf_counter() < self._deadline:
                self.solved = self._solver.solve(self._position, ENDGAME_CHUNK)
        except BaseException as failure:  # handed to the thread that asks for the result
            self._failure = failure

    def result(self) -> Solved | None:
        """The solution, once the search has ended (by its budget or its deadline), or None. Raises
        what the search raised, if it failed."""
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        return self.solved


class _Node:
    """A decision point: a position, and for a second stone the first one (already on ``board``). Its
    ``decisions`` (cells, or -1 for a pass) in the engine's shuffled order; by decision, its child (None
    until added to the tree) and its figures (:mod:`solver.necnon._tree`)."""

    __slots__ = ("board", "black_to_move", "passes", "kind", "allowed", "decisions", "children", "visits",
                 "stats")

    def __init__(self, board: np.ndarray, black_to_move: bool, passes: int, kind: int, allowed: np.ndarray,
                 decisions: np.ndarray, stats: np.ndarray) -> None:
        self.board, self.black_to_move, self.passes = board, black_to_move, passes
        self.kind, self.allowed, self.decisions = kind, allowed, decisions
        self.children: list[_Node | None] = [None] * len(decisions)
        self.visits = 0
        self.stats = stats


class SearchEngine:
    """The search engine of ``game`` (see the module docstring): ``seconds`` per turn (at least one
    playout however short, unless the endgame is solved first), or exactly ``iterations`` playouts if
    given; ``seed`` makes it reproducible. Raises ValueError unless ``seconds`` and ``iterations`` are
    positive."""

    def __init__(self, game: Game, seed: int | None = None, seconds: float = 2.0,
                 iterations: int | None = None) -> None:
        if seconds <= 0 or (iterations is not None and iterations < 1):
            raise ValueError(f"the engine needs a positive time and number of playouts, not {seconds} s "
                             f"and {iterations}")
        from solver.necnon import _playout, _rules, _tree  # numba is imported only when the engine is used

        self._playout, self._rules, self._tree = _playout, _rules, _tree
        self._solver: EndgameSolver | None = None
        self._last: _Node | None = None  # the root of the last search, whose tree the next may reuse
        self.game = game
        self.seconds, self.iterations = seconds, iterations
        self.rng = random.Random(seed)
        grid = game.grid
        self._neighbours, self._nec = grid.neighbour_table, game.nec
        self._scratch = np.empty(grid.cells, dtype=np.int64)
        self._margin = np.empty(1, dtype=np.int64)
        self._final = np.empty(grid.cells, dtype=np.int8)

    def search(self, position: Position) -> Verdict:
        """Search from ``position`` and return the engine's view: at least one turn, the first its choice.
        Raises ValueError if the game is over."""
        if position.over:
            raise ValueError("the game is over: there is nothing to search")
        began = time.perf_counter()
        # numba's generator (the playouts' and the order of a node's decisions) seeded anew each search:
        # what a search chooses does not depend on how many playouts the last one ran, which the
        # endgame's thread may cut short.
        self._playout.seed(self.rng.randrange(2**31))
        endgame = self._endgame(position, began)
        board = board_bytes(position)
        root = self._reused(position, board) or self._position_node(board, position.black_to_move, position.passes)
        done = 0
        while self.iterations is None or done < self.iterations:
            if done and done % _CHECK_CLOCK == 0 and ((endgame is not None and endgame.solved is not None) or
                                                      (self.iterations is None and
                                                       time.perf_counter() - began >= self.seconds)):
                break
            self._iterate(root)
            done += 1
        solved = endgame.result() if endgame is not None else None
        if solved is None:
            self._last = root
            return Verdict(self._ranked(root), done, time.perf_counter() - began)
        self._last = None
        black = position.black_to_move
        won = float(solved.margin > 0 if black else solved.margin < 0)
        entry = EngineTurn(solved.turn, solved.turn.name(self.game.grid), 0, float(solved.margin), won)
        return Verdict((entry,), done, time.perf_counter() - began, True, solved.nodes)

    def choose(self, position: Position) -> tuple[Turn, Verdict]:
        """The engine's turn in ``position`` and its view."""
        verdict = self.search(position)
        return verdict.turns[0].turn, verdict

    def _endgame(self, position: Position, began: float) -> _Endgame | None:
        """The exact endgame of ``position`` begun on a thread of its own, if few enough cells are empty."""
        if self.game.grid.cells - (position.black | position.green).bit_count() > MAX_EMPTY:
            return None
        if self._solver is None:
            self._solver = EndgameSolver(self.game)
        nodes = None if self.iterations is None else ENDGAME_NODES * self.iterations
        return _Endgame(self._solver, position, nodes, began + self.seconds)

    # -- the tree -----------------------------------------------------------------------------------------

    def _reused(self, position: Position, board: np.ndarray) -> _Node | None:
        """The node of ``position`` (its stones ``board``) in the tree of the engine's last search, if
        it is there within two turns of that search's root (the engine's turn and the reply to it)."""
        node = self._last
        for _ in range(3):  # the root, after one turn, after two
            if node is None:
                return None
            if node.black_to_move == position.black_to_move and node.passes == position.passes and \
                    np.array_equal(node.board, board):
                return node
            node = self._after_turn(node, board)
        return None

    def _after_turn(self, node: _Node, board: np.ndarray) -> _Node | None:
        """The position node after the turn at ``node`` (a position's) that lays the stones of its mover
        that ``board`` has and ``node`` has not, if the tree holds it."""
        laid = np.flatnonzero((board == (1 if node.black_to_move else 2)) & (node.board == 0))
        stones = {_PASS: 0, _SINGLE: 1, _FIRST: 2}.get(node.kind)
        if stones != len(laid):
            return None
        if node.kind == _PASS:
            return node.children[0]
        child = self._child_at(node, int(laid[0]))
        return self._child_at(child, int(laid[1])) if child is not None and node.kind == _FIRST else child

    @staticmethod
    def _child_at(node: _Node, cell: int) -> _Node | None:
        """The child of decision ``cell`` at ``node``, if in the tree."""
        index = np.flatnonzero(node.decisions == cell)
        return node.children[int(index[0])] if len(index) else None

    def _position_node(self, board: np.ndarray, black_to_move: bool, passes: int) -> _Node:
        """The node of a position: what its turn is, and its decisions in a shuffled order."""
        rows = self._tree.ROWS
        empty = self._rules.empty_cells(board)
        if passes == 2 or not empty:
            nothing = np.empty(0, dtype=np.int64)
            return _Node(board, black_to_move, passes, _OVER, nothing, nothing, np.zeros((rows, 0)))
        count = self._rules.allowed_cells(board, black_to_move, self._nec, self._neighbours, self._scratch)
        allowed = self._scratch[:count].copy()
        if not count:
            return _Node(board, black_to_move, passes, _PASS, allowed, np.array([-1]), np.zeros((rows, 1)))
        if count == 1 or empty == len(board):
            kind, decisions = _SINGLE, allowed
        else:
            kind, decisions = _FIRST, allowed[:-1]  # a first stone leaves a later cell for the second
        return _Node(board, black_to_move, passes, kind, allowed, self._tree.shuffled(decisions),
                     np.zeros((rows, len(decisions))))

    def _child(self, node: _Node, index: int) -> _Node:
        """The node decision ``index`` of ``node`` leads to. A second stone's node starts from the AMAF
        figures of its first stone's node for the same cells: the same player laying a stone there."""
        if node.kind == _PASS:
            return self._position_node(node.board, not node.black_to_move, node.passes + 1)
        decision = int(node.decisions[index])
        board = node.board.copy()
        board[decision] = 1 if node.black_to_move else 2
        if node.kind == _FIRST:
            seconds, stats = self._tree.second_stones(node.allowed, decision, node.decisions, node.stats)
            return _Node(board, node.black_to_move, 0, _SECOND, node.allowed, seconds, stats)
        return self._position_node(board, not node.black_to_move, 0)

    def _iterate(self, root: _Node) -> None:
        """One selection, expansion, playout and update."""
        path: list[tuple[_Node, int]] = []
        node = root
        while node.kind != _OVER:
            index = self._tree.select(node.stats, node.visits, EXPLORATION, RAVE_BIAS)
            path.append((node, index))
            child = node.children[index]
            if child is None:
                node.children[index] = child = self._child(node, index)
                if child.kind != _SECOND:  # a first stone enters the tree with a second: a whole turn
                    node = child
                    break
            node = child
        margin = self._playout_margin(node)
        reward = 0.9 * ((margin > 0) - (margin < 0)) + 0.1 * margin / len(root.board)
        for parent, index in path:
            black = parent.black_to_move  # the player whose decision it is
            parent.visits += 1
            stone = 0 if parent.kind == _PASS else 1 if black else 2
            self._tree.update(parent.stats, index, parent.decisions, self._final, stone,
                              reward if black else -reward, margin, (margin > 0) if black else (margin < 0))

    def _playout_margin(self, node: _Node) -> int:
        """The final margin of one random game from ``node``, a position's node (never a second stone's);
        its final board goes to ``self._final``."""
        self._playout.playouts(node.board, node.black_to_move, node.passes, self._nec, self._neighbours, 1,
                               self._margin, self._final)
        return int(self._margin[0])

    # -- the verdict --------------------------------------------------------------------------------------

    def _ranked(self, root: _Node) -> tuple[EngineTurn, ...]:
        """Every turn the tree holds, most visited first; a two-stone turn is a first stone with its
        most visited second, counted with the first stone's visits (every second stone's included)."""
        grid, tree = self.game.grid, self._tree
        entries = []
        for index, child in enumerate(root.children):
            if child is None:
                continue
            decision = int(root.decisions[index])
            if root.kind == _FIRST:
                second = -max((count, -int(cell)) for count, cell in zip(child.stats[tree.COUNT], child.decisions))[1]
                turn = Turn(tuple(sorted((decision, second))))
            else:
                turn = Turn(() if decision == -1 else (decision,))
            visits = root.stats[tree.COUNT, index]
            entries.append(EngineTurn(turn, turn.name(grid), int(visits), root.stats[tree.MARGIN, index] / visits,
                                      root.stats[tree.WON, index] / visits))
        return tuple(sorted(entries, key=lambda entry: (-entry.visits, entry.turn)))
