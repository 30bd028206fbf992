"""The search engine for boards too large to solve: an exact endgame, and before it Monte Carlo tree
search (UCT) with random playouts.

**Endgame.** When at most :data:`~solver.necnon.endgame.MAX_EMPTY` cells are empty, the engine first
tries to solve the rest of the game exactly (:class:`~solver.necnon.endgame.EndgameSolver`): with
``iterations`` playouts a turn, within a budget of :data:`ENDGAME_NODES` nodes a playout; with a time a
turn, within :data:`ENDGAME_SHARE` of it. Solved, it plays a turn that keeps the perfect value; else
the tree search below chooses, with the rest of the time (or all its playouts).

**Tree.** A turn of two stones is chosen as two decisions of its player: a first stone, then a second
stone on a later allowed cell (in board order), so that a node has at most one child per cell rather
than one per pair. One-stone turns and passes are one decision. Each node counts its visits and the
reward of the playouts through it, for the player whose decision led to it.

**Selection.** From the root, the child of greatest ``mean + EXPLORATION * sqrt(ln(parent visits) /
visits)`` (UCT), an unvisited child first (in an order shuffled by the engine's seed); the first
unvisited child met is added to the tree, and if it is a first stone, so is an unvisited second stone
under it: every playout goes through a whole turn, so that one playout is enough to choose one.

**Evaluation.** A playout plays the game out from there with random turns (stones on allowed cells
drawn uniformly; :mod:`solver.necnon._playout`) and scores it by the rules. Its reward for Black is
``0.9 * sign(margin) + 0.1 * margin / cells``, in [-1, 1]: winning counts most, and among wins the
wider margins a little; Green's reward is its opposite. A finished position is scored exactly.

**Choice.** The most visited first decision, then the most visited second stone under it. With the
same seed and a number of iterations (``--iterations``) the engine plays the same turns; with a time
budget (``--time``) the number of iterations, and so the choice, depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import numpy as np

from solver.necnon.endgame import MAX_EMPTY, EndgameSolver, Solved, board_bytes
from solver.necnon.position import Position, Turn
from solver.necnon.rules import Game

#: The UCT exploration constant (rewards lie in [-1, 1]).
EXPLORATION = 1.0
#: The exact endgame's budget, in nodes a playout of the ``iterations`` (a node costs a few hundredths
#: of a playout's time on the boards measured, so that the endgame takes at most a few times as long as
#: the playouts).
ENDGAME_NODES = 200
#: The share of a turn's time the exact endgame may take; the tree search has the rest if it fails.
ENDGAME_SHARE = 0.5
#: Nodes of the exact endgame between two looks at the clock (some hundredths of a second).
ENDGAME_CHUNK = 50_000
_CHECK_CLOCK = 32


@dataclass(frozen=True)
class EngineTurn:
    """A turn as the engine saw it: how many playouts went through it, their mean margin (Black minus
    Green) and the share of them its player won."""

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


class _Node:
    """A decision point: a position, and for a second stone the first one (already on ``board``)."""

    __slots__ = ("board", "black_to_move", "passes", "kind", "allowed", "untried", "children", "visits",
                 "reward", "margins", "wins")

    def __init__(self, board: np.ndarray, black_to_move: bool, passes: int, kind: int, allowed: list[int],
                 untried: list[int]) -> None:
        self.board, self.black_to_move, self.passes = board, black_to_move, passes
        self.kind, self.allowed, self.untried = kind, allowed, untried  # untried: cells, or -1 for a pass
        self.children: dict[int, _Node] = {}
        self.visits, self.reward, self.margins, self.wins = 0, 0.0, 0.0, 0


class SearchEngine:
    """Monte Carlo tree search for ``game`` (see the module docstring): ``seconds`` per turn (at least one
    playout however short), or exactly ``iterations`` playouts if given; ``seed`` makes it reproducible.
    Raises ValueError unless ``seconds`` and ``iterations`` are positive."""

    def __init__(self, game: Game, seed: int | None = None, seconds: float = 2.0,
                 iterations: int | None = None) -> None:
        if seconds <= 0 or (iterations is not None and iterations < 1):
            raise ValueError(f"the engine needs a positive time and number of playouts, not {seconds} s "
                             f"and {iterations}")
        from solver.necnon import _playout, _rules  # numba is imported only when the engine is used

        self._playout, self._rules = _playout, _rules
        self._solver: EndgameSolver | None = None
        self.game = game
        self.seconds, self.iterations = seconds, iterations
        self.rng = random.Random(seed)
        grid = game.grid
        self._neighbours, self._nec = grid.neighbour_table, game.nec
        self._scratch = np.empty(grid.cells, dtype=np.int64)
        self._margin = np.empty(1, dtype=np.int64)

    def search(self, position: Position) -> Verdict:
        """Search from ``position`` and return the engine's view: at least one turn, the first its choice.
        Raises ValueError if the game is over."""
        if position.over:
            raise ValueError("the game is over: there is nothing to search")
        self._playout.seed(self.rng.randrange(2**31))
        began = time.perf_counter()
        solved = self._solve(position, began)
        if solved is not None:
            black = position.black_to_move
            won = float(solved.margin > 0 if black else solved.margin < 0)
            entry = EngineTurn(solved.turn, solved.turn.name(self.game.grid), 0, float(solved.margin), won)
            return Verdict((entry,), 0, time.perf_counter() - began, True, solved.nodes)
        root = self._position_node(board_bytes(position), position.black_to_move, position.passes)
        done = 0
        while self.iterations is None or done < self.iterations:
            if self.iterations is None and done and done % _CHECK_CLOCK == 0 and \
                    time.perf_counter() - began >= self.seconds:
                break
            self._iterate(root)
            done += 1
        return Verdict(self._ranked(root), done, time.perf_counter() - began)

    def choose(self, position: Position) -> tuple[Turn, Verdict]:
        """The engine's turn in ``position`` and its view."""
        verdict = self.search(position)
        return verdict.turns[0].turn, verdict

    def _solve(self, position: Position, began: float) -> Solved | None:
        """The rest of the game solved exactly within the endgame's budget, or None (too many empty
        cells, or the budget ran out)."""
        grid = self.game.grid
        if grid.cells - (position.black | position.green).bit_count() > MAX_EMPTY:
            return None
        if self._solver is None:
            self._solver = EndgameSolver(self.game)
        if self.iterations is not None:
            return self._solver.solve(position, ENDGAME_NODES * self.iterations)
        while True:
            solved = self._solver.solve(position, ENDGAME_CHUNK)
            if solved is not None or time.perf_counter() - began >= ENDGAME_SHARE * self.seconds:
                return solved

    # -- the tree -----------------------------------------------------------------------------------------

    def _position_node(self, board: np.ndarray, black_to_move: bool, passes: int) -> _Node:
        """The node of a position: what its turn is, and its decisions in a shuffled order."""
        if passes == 2 or board.all():
            return _Node(board, black_to_move, passes, _OVER, [], [])
        count = self._rules.allowed_cells(board, black_to_move, self._nec, self._neighbours, self._scratch)
        allowed = [int(cell) for cell in self._scratch[:count]]
        if not allowed:
            kind, untried = _PASS, [-1]
        elif len(allowed) == 1 or not board.any():
            kind, untried = _SINGLE, list(allowed)
        else:
            kind, untried = _FIRST, allowed[:-1]  # a first stone leaves a later cell for the second
        self.rng.shuffle(untried)
        return _Node(board, black_to_move, passes, kind, allowed, untried)

    def _child(self, node: _Node, decision: int) -> _Node:
        """The node a decision at ``node`` leads to."""
        if node.kind == _PASS:
            return self._position_node(node.board, not node.black_to_move, node.passes + 1)
        board = node.board.copy()
        board[decision] = 1 if node.black_to_move else 2
        if node.kind == _FIRST:
            seconds = [cell for cell in node.allowed if cell > decision]
            self.rng.shuffle(seconds)
            return _Node(board, node.black_to_move, 0, _SECOND, seconds, list(seconds))
        return self._position_node(board, not node.black_to_move, 0)

    def _iterate(self, root: _Node) -> None:
        """One selection, expansion, playout and update."""
        path = [root]
        node = root
        while not node.untried and node.children:
            node = self._select(node)
            path.append(node)
        if node.untried:
            path.append(node := self._expand(node))
            if node.kind == _SECOND:  # a first stone enters the tree with a second: a whole turn
                path.append(node := self._expand(node))
        margin = self._playout_margin(node)
        reward = 0.9 * ((margin > 0) - (margin < 0)) + 0.1 * margin / len(root.board)
        for parent, child in zip(path, path[1:]):
            black = parent.black_to_move  # the player whose decision led to child
            child.visits += 1
            child.reward += reward if black else -reward
            child.margins += margin
            child.wins += (margin > 0) if black else (margin < 0)
        root.visits += 1

    def _expand(self, node: _Node) -> _Node:
        """The child of one of ``node``'s untried decisions, added to the tree."""
        decision = node.untried.pop()
        node.children[decision] = child = self._child(node, decision)
        return child

    def _select(self, node: _Node) -> _Node:
        """The child of greatest upper confidence bound."""
        logarithm = math.log(node.visits)
        return max(node.children.values(),
                   key=lambda child: child.reward / child.visits + EXPLORATION * math.sqrt(logarithm / child.visits))

    def _playout_margin(self, node: _Node) -> int:
        """The final margin of one random game from ``node``, a position's node (never a second stone's)."""
        self._playout.playouts(node.board, node.black_to_move, node.passes, self._nec, self._neighbours, 1,
                               self._margin)
        return int(self._margin[0])

    # -- the verdict --------------------------------------------------------------------------------------

    def _ranked(self, root: _Node) -> tuple[EngineTurn, ...]:
        """Every turn the tree holds, most visited first; a two-stone turn is a first stone with its
        most visited second, counted with the first stone's visits (every second stone's included)."""
        grid = self.game.grid
        entries = []
        for decision, child in root.children.items():
            if root.kind == _FIRST:
                second = max(child.children.items(), key=lambda item: (item[1].visits, -item[0]))[0]
                turn = Turn(tuple(sorted((decision, second))))
            else:
                turn = Turn(() if decision == -1 else (decision,))
            entries.append(EngineTurn(turn, turn.name(grid), child.visits, child.margins / child.visits,
                                      child.wins / child.visits))
        return tuple(sorted(entries, key=lambda entry: (-entry.visits, entry.turn)))
