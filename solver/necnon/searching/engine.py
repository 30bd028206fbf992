"""The search engine for boards too large to solve: an exact endgame, and before it Monte Carlo tree
search with random playouts and RAVE.

:class:`SearchEngine` takes a game, a seed and a budget (``seconds`` of thinking, or ``iterations``
playouts); :meth:`SearchEngine.search` gives its :class:`Verdict` of a position (its turns, most
visited first, the first its choice, or the rest of the game solved exactly) and
:meth:`SearchEngine.choose` the turn it plays with that verdict. Values are margins, Black's points
minus Green's. Near the end of a game (at most :data:`~solver.necnon.searching.endgame.MAX_EMPTY` empty
cells, or :data:`SOLVING_EMPTY` thinking for a time) the exact endgame runs beside the tree search, and
a turn it solved keeps the perfect value. With the same seed and a number of iterations the engine
plays the same turns when asked for the same positions in the same order; with a time budget the
number of iterations, and so the choice, depends on the machine's speed.

The design (the tree, selection, evaluation, reuse, the choice, the threads): docs/design/engine.md.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar, cast

from solver.core.answers.report import counted
from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.searching.endgame import MAX_EMPTY, EndgameSolver, Solved
from solver.necnon.searching.tree import SearchTree, ranked

#: The exploration constant (rewards lie in [-1, 1]).
EXPLORATION = 0.1
#: The bias of the AMAF estimates (Gelly and Silver's b): the smaller, the longer they weigh.
RAVE_BIAS = 0.1
#: The exact endgame's budget, in nodes a playout of the ``iterations``: a node costs a small fraction
#: of a playout, so that the endgame takes about as long as the playouts, at most a few times as long.
ENDGAME_NODES = 200
#: The most empty cells for which, thinking for a time, the engine runs the exact endgame (and gives it
#: both cores after a short tree search). With 20 the exact search fits a turn's time on 7 x 3 after
#: Black's first stone and on the empty 5 x 4 board; with 21 (the empty 7 x 3 board) it takes longer than
#: a turn allows under every protocol but ``non``, even on both cores, so that they are better spent on
#: trees.
SOLVING_EMPTY = 20
#: The share of the turn's time the tree search runs for before the exact endgame takes both cores.
TREE_SHARE = 0.1
#: The searches the exact endgame runs at once when it has both cores.
ENDGAME_THREADS = 2
#: Trees searched at once while the exact endgame does not run, each on a thread of its own (root
#: parallelism: their figures of the root's turns are added; their share of ``iterations`` is even);
#: beside the endgame's thread, one.
TREES = 2
#: Iterations of the tree search a call of its kernel: the engine looks at the clock and the endgame
#: between two, so that a batch is kept short.
BATCH = 32


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
    the one turn given keeps the perfect value, its ``mean_margin`` (no playout went through it).
    ``floor``: the exact endgame did not finish, but proved that the first turn is worth at least this
    margin to its player, and the tree search's most visited turn less (the first is then played
    rather than that one)."""

    turns: tuple[EngineTurn, ...]
    iterations: int
    seconds: float
    solved: bool = False
    nodes: int = 0
    floor: int | None = None

    def lines(self, limit: int = 8) -> list[str]:
        """Its view as text: the iterations (or the exact solution), then the first ``limit`` turns."""
        if self.solved:
            best = self.turns[0]
            return [f"the engine's view (solved exactly, {counted(self.nodes, 'node')} in {self.seconds:.1f} s; margin "
                    f"is Black minus Green):", f"  {best.name}  keeps the perfect margin {best.mean_margin:+.0f}"]
        endgame = f" and {counted(self.nodes, 'node')} of the exact endgame" if self.nodes else ""
        lines = [f"the engine's view ({counted(self.iterations, 'playout')}{endgame} in {self.seconds:.1f} s; mean margin "
                 f"is Black minus Green):"]
        if self.floor is not None:
            lines.append(f"  (the exact endgame proved {self.turns[0].name} worth at least {self.floor:+d} to its "
                         f"player, the most visited turn less)")
        width = max((len(entry.name) for entry in self.turns[:limit]), default=0)
        lines += [f"  {entry.name:<{width}}  {entry.visits:>7,} visits  mean margin {entry.mean_margin:+6.2f}  "
                  f"won {100 * entry.won:5.1f} %" for entry in self.turns[:limit]]
        if len(self.turns) > limit:
            lines.append(f"  ... and {len(self.turns) - limit} more")
        return lines


_T = TypeVar("_T")


class _Background(Generic[_T]):
    """A call run on a thread of its own: :meth:`result` waits for it and returns what it returned, or
    raises what it raised."""

    def __init__(self, name: str, call: Callable[[], _T]) -> None:
        self._value: _T | None = None
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(call,), name=name, daemon=True)
        self._thread.start()

    def _run(self, call: Callable[[], _T]) -> None:
        try:
            self._value = call()
        except BaseException as failure:  # handed to the thread that asks for the result
            self._failure = failure

    def result(self) -> _T:
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        return cast(_T, self._value)


class _Endgame:
    """The exact solution of ``position`` by ``solver``, searched on a thread of its own while the tree
    search runs: within ``nodes`` nodes, or (None) until the clock reaches ``deadline``. The kernel holds
    no lock while it searches, so that the two searches use two cores. ``solved``: the solution once
    found, else None."""

    def __init__(self, solver: EndgameSolver, position: Position, nodes: int | None, deadline: float) -> None:
        self.solved: Solved | None = None
        self._solver, self._position, self._nodes, self._deadline = solver, position, nodes, deadline
        self._search = _Background("necnon-endgame", self._run)

    def _run(self) -> None:
        deadline = None if self._nodes is not None else self._deadline
        self.solved = self._solver.solve(self._position, self._nodes, deadline=deadline)

    def result(self) -> Solved | None:
        """The solution, once the search has ended (by its budget or its deadline), or None. Raises
        what the search raised, if it failed."""
        self._search.result()
        return self.solved


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
        from solver.necnon.searching import _playout  # numba is imported only when the engine is used

        self._playout = _playout
        self._solver: EndgameSolver | None = None
        self._trees = [SearchTree(game, EXPLORATION, RAVE_BIAS) for _ in range(TREES)]
        self._reusable = [False] * TREES  # does each tree hold the last search, which the next may reuse?
        self.game = game
        self.seconds, self.iterations = seconds, iterations
        self.rng = random.Random(seed)

    def search(self, position: Position) -> Verdict:
        """Search from ``position`` and return the engine's view: at least one turn, the first its choice.
        Raises ValueError if the game is over."""
        if position.over:
            raise ValueError("the game is over: there is nothing to search")
        began = time.perf_counter()
        deadline = began + self.seconds
        # numba's generator (the playouts' and the order of a node's decisions; one a thread) seeded anew
        # each search: what a search chooses does not depend on how many playouts the last one ran,
        # which the endgame's thread may cut short.
        seeds = [self.rng.randrange(2**31) for _ in self._trees]
        empty = self.game.grid.cells - (position.black | position.green).bit_count()
        solving = self.iterations is None and empty <= SOLVING_EMPTY  # the endgame has both cores at the end
        trees_end = began + TREE_SHARE * self.seconds if solving else deadline
        endgame = self._endgame(position, empty, trees_end)
        trees = self._trees[:1] if endgame is not None else self._trees
        quotas = [None if self.iterations is None else (self.iterations + k) // len(trees) for k in range(len(trees))]

        def grown(k: int) -> int:
            return self._grow(k, seeds[k], position, quotas[k], trees_end, endgame)

        helpers = [_Background(f"necnon-tree-{k}", functools.partial(grown, k)) for k in range(1, len(trees))]
        done = grown(0) + sum(helper.result() for helper in helpers)
        solved = endgame.result() if endgame is not None else None
        turns = self._ranked(trees) if solved is None else ()
        if solved is None and solving:  # the tree's choice first: if it is worse, the veto below can tell
            solved = self._endgame_solver().solve(position, None, first=turns[0].turn, threads=ENDGAME_THREADS,
                                                  deadline=deadline)
        self._reusable = [solved is None and k < len(trees) for k in range(len(self._trees))]
        seconds = time.perf_counter() - began
        if solved is not None:
            return self._solved_verdict(position, solved, done, seconds)
        if endgame is None:
            return Verdict(turns, done, seconds)
        return self._checked(turns, done, seconds)

    def _checked(self, turns: tuple[EngineTurn, ...], done: int, seconds: float) -> Verdict:
        """The verdict of the trees' ``turns`` (``done`` playouts in ``seconds``), the exact endgame not
        finished: its first turn the tree search's choice, unless the endgame proved another turn worth
        more than that one can be, which then comes first."""
        solver, choice = self._endgame_solver(), turns[0].turn
        proven = solver.proven()
        ceiling = None if proven is None or proven.turn == choice else solver.ceiling(choice)
        if proven is None or ceiling is None or ceiling >= proven.floor:
            return Verdict(turns, done, seconds, nodes=solver.nodes)
        best = next((entry for entry in turns if entry.turn == proven.turn),
                    EngineTurn(proven.turn, proven.turn.name(self.game.grid), 0, 0.0, 0.0))
        return Verdict((best, *(entry for entry in turns if entry is not best)), done, seconds,
                       nodes=solver.nodes, floor=proven.floor)

    def _grow(self, k: int, seed: int, position: Position, quota: int | None, deadline: float,
              endgame: _Endgame | None) -> int:
        """Search tree ``k`` from ``position`` (the generator of the calling thread seeded with ``seed``):
        ``quota`` iterations, or (None) until the clock reaches ``deadline``; stop early once
        ``endgame`` is solved. Returns the iterations run."""
        self._playout.seed(seed)
        tree = self._trees[k]
        tree.start(position, reuse=self._reusable[k])
        done = 0
        while quota is None or done < quota:
            if done and ((endgame is not None and endgame.solved is not None) or
                         (quota is None and time.perf_counter() >= deadline)):
                break
            batch = BATCH if quota is None else min(BATCH, quota - done)
            tree.run(batch)
            done += batch
        return done

    def _solved_verdict(self, position: Position, solved: Solved, done: int, seconds: float) -> Verdict:
        """The verdict of ``position`` solved exactly, after ``done`` playouts and ``seconds``."""
        black = position.black_to_move
        won = float(solved.margin > 0 if black else solved.margin < 0)
        entry = EngineTurn(solved.turn, solved.turn.name(self.game.grid), 0, float(solved.margin), won)
        return Verdict((entry,), done, seconds, True, solved.nodes)

    def choose(self, position: Position) -> tuple[Turn, Verdict]:
        """The engine's turn in ``position`` and its view."""
        verdict = self.search(position)
        return verdict.turns[0].turn, verdict

    def _endgame(self, position: Position, empty: int, deadline: float) -> _Endgame | None:
        """The exact endgame of ``position`` (``empty`` cells empty) begun on a thread of its own (until
        ``deadline`` when thinking for a time), if few enough cells are empty."""
        if empty > (MAX_EMPTY if self.iterations is not None else SOLVING_EMPTY):
            return None
        nodes = None if self.iterations is None else ENDGAME_NODES * self.iterations
        return _Endgame(self._endgame_solver(), position, nodes, deadline)

    def _endgame_solver(self) -> EndgameSolver:
        """The exact endgame's solver, made on first use: its table lasts the game."""
        if self._solver is None:
            self._solver = EndgameSolver(self.game, threads=ENDGAME_THREADS)
        return self._solver

    # -- the verdict --------------------------------------------------------------------------------------

    def _ranked(self, trees: list[SearchTree]) -> tuple[EngineTurn, ...]:
        """The turns of the root as the ``trees`` saw them, as the engine reports them, most visited first."""
        grid = self.game.grid
        return tuple(EngineTurn(entry.turn, entry.turn.name(grid), entry.visits, entry.margins / entry.visits,
                                entry.won / entry.visits) for entry in ranked(trees))
