"""The search engine for boards too large to solve: an exact endgame, and before it Monte Carlo tree
search with random playouts and RAVE.

**Endgame.** Near the end of a game the engine solves the rest exactly
(:class:`~solver.necnon.searching.endgame.EndgameSolver`). Running a number of playouts (``iterations``), it does
so when at most :data:`~solver.necnon.searching.endgame.MAX_EMPTY` cells are empty, on a second thread while the
tree search runs on the first, within :data:`ENDGAME_NODES` nodes a playout. Thinking for a time, it
does so when at most :data:`SOLVING_EMPTY` cells are empty, where the exact search may well finish in
the time (with more, it cannot: the core goes to a second tree instead): beside the tree search for
:data:`TREE_SHARE` of the time, then with both cores (:data:`ENDGAME_THREADS` searches sharing its
table), searching the tree's choice first in each of its tests. Solved, the engine plays a turn that
keeps the perfect value (and the tree search stops); else the tree search's choice, unless the endgame
has proven another turn worth more than that choice can be (a turn worth at least some margin to its
player, the choice less). The endgame's table lasts the game: what the search of one turn stored
serves the next.

**Tree.** A turn of two stones is chosen as two decisions of its player: a first stone, then a second
stone on a later allowed cell (in board order), so that a node has at most one child per cell rather
than one per pair. One-stone turns and passes are one decision. At a new root that a symmetry of the
board maps to itself (the empty board, say), a first stone is laid only on a cell that no such symmetry
maps to a lower one: every turn is the image of one of those, and the playouts are not spread over turns
worth the same (the empty board's first stones: 8 of 21 on 7 x 3, 6 of 36 on 6 x 6, 9 of 61 on hex5).
Each node keeps, for each of its decisions, the playouts through it and their reward for its player, and
the same "all moves as first" (AMAF): the playouts through the node in which its player laid a stone on
the decision's cell at any later point, as if it had been first. No stone is ever removed, so a
playout's final board tells which cells each player laid. The tree is a few arrays
(:class:`~solver.necnon.searching.tree.SearchTree`) and its iterations a numba kernel
(:mod:`solver.necnon.searching._tree`), a batch of them at a time. While the endgame does not run, :data:`TREES`
trees are searched at once, each on a thread of its own with a seed of its own, and their figures of the
root's turns added (root parallelism); beside the endgame, one.

**Selection.** From the root, the decision of greatest value: its mean reward blended with its AMAF
mean (RAVE: the AMAF weighs much while the decision has few playouts of its own, little after, by
:data:`RAVE_BIAS`), plus an exploration bonus (:data:`EXPLORATION`); among equals the first in an order
shuffled by the engine's seed. The first decision without a child adds it to the tree, and if it is a
first stone, a second stone under it is chosen at once (its node starts from the first stone's AMAF
figures for the same cells): every playout goes through a whole turn, so that one playout is enough to
choose one.

**Evaluation.** A playout plays the game out from there with random turns (stones on allowed cells
drawn uniformly; :mod:`solver.necnon.searching._playout`) and scores it by the rules. Its reward for Black is
``0.9 * sign(margin) + 0.1 * margin / cells``, in [-1, 1]: winning counts most, and among wins the
wider margins a little; Green's reward is its opposite. A finished position is scored exactly.

**Reuse.** A search starts from the node of its position in the tree of the engine's last search, if
the position is there within two turns of that search's root (the engine's turn and the reply to it):
the playouts through it count again (the rest of the tree is dropped), and the visits of a verdict's
turns may add up to more than its playouts.

**Choice.** The most visited first decision, then the most visited second stone under it (their
playouts in every tree added). With the same seed and a number of iterations (``--iterations``) the
engine plays the same turns when asked for the same positions in the same order; with a time budget
(``--time``) the number of iterations, and so the choice, depends on the machine's speed.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar, cast

from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.searching.endgame import MAX_EMPTY, EndgameSolver, Solved
from solver.necnon.searching.tree import SearchTree, ranked

#: The exploration constant (rewards lie in [-1, 1]).
EXPLORATION = 0.1
#: The bias of the AMAF estimates (Gelly and Silver's b): the smaller, the longer they weigh.
RAVE_BIAS = 0.1
#: The exact endgame's budget, in nodes a playout of the ``iterations`` (a node takes some 1/100 to 1/400
#: of a playout's time on the boards measured, so that the endgame takes about as long as the playouts,
#: at most a few times as long).
ENDGAME_NODES = 200
#: The most empty cells for which, thinking for a time, the engine runs the exact endgame (and gives it
#: both cores after a short tree search). With 20, the exact search takes 0.4 to 32 million nodes (0.1 to
#: 8 s on one core) on 7 x 3 after Black's first stone, 1.6 to 18 million on the empty 5 x 4 board; with
#: 21, on the empty 7 x 3 board, 40 to 69 million under every protocol but ``non`` (10 to 18 s; 5 to
#: 6 s on both cores): more than a turn of 2 s allows, so that both cores are better spent on trees.
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
#: between two (a batch takes about a millisecond).
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
            return [f"the engine's view (solved exactly, {self.nodes:,} nodes in {self.seconds:.1f} s; margin "
                    f"is Black minus Green):", f"  {best.name}  keeps the perfect margin {best.mean_margin:+.0f}"]
        endgame = f" and {self.nodes:,} nodes of the exact endgame" if self.nodes else ""
        lines = [f"the engine's view ({self.iterations:,} playouts{endgame} in {self.seconds:.1f} s; mean margin "
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
