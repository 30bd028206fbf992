"""Probing tables: a position's value, every move ranked, and the line of perfect play.

The API has the shape of python-chess's ``chess.syzygy``: open a :class:`Tablebase` (a context
manager that opens each game's table the first time a position of that game is probed), then
:meth:`~Tablebase.probe` a position, which raises :class:`~solver.errors.MissingTableError` (a
``KeyError``) when the table is missing, or :meth:`~Tablebase.get` it, which returns a default instead.

**Sign convention.** Every value is from the point of view of the side to move in the position probed:
``Evaluation("win", 5)`` -- the side to move wins in 5 plies, its own winning move included;
``Evaluation("loss", 4)`` -- it loses in 4 plies however long it resists (``0``: the other side has
just won); ``Evaluation("draw", None)`` -- best play repeats forever. A *move's* value
(:class:`RankedMove`) is for the player who makes it, its plies counted from the position before the
move: a move to a position the opponent loses in ``d`` wins in ``d + 1``.

**Move order** (:meth:`Tablebase.moves`, and so the choice made by :meth:`Tablebase.line`): winning
moves by fewest plies, then drawing moves, then losing moves by most plies (longest resistance); ties
by the move's text ``FROM-TO`` in alphabetical order, that is by origin file, origin rank, target file,
target rank (``B1-A1`` before ``B1-C1`` before ``D1-C1``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Callable, NamedTuple, TypeVar

import numpy as np

from solver.errors import MissingTableError, TableError
from solver.game import Game
from solver.position import BLACK, WHITE, Move, Position
from solver.table import Table, open_table, table_path
from solver.values import ILLEGAL, Value, decode_result

Default = TypeVar("Default")

#: How a line ended: a side won, the third occurrence of a position, or the ply limit.
LINE_RESULTS = ("black wins", "white wins", "draw by repetition", "stopped")


class Evaluation(NamedTuple):
    """A position's value for the side to move, and its distance in plies (None for a draw)."""

    value: Value
    plies: int | None


class RankedMove(NamedTuple):
    """A legal move, its value for the player who makes it (plies counted from the position before
    the move) and the position it leads to."""

    move: Move
    name: str
    value: Value
    plies: int | None
    position: Position


class LineStep(NamedTuple):
    """One ply of a line: the move, the position after it and that position's :class:`Evaluation`
    (from the point of view of the side to move *after* the move)."""

    move: Move
    name: str
    position: Position
    evaluation: Evaluation


class Line(NamedTuple):
    """The perfect-play line from ``position`` (valued ``evaluation``): its plies and how it ended,
    one of :data:`LINE_RESULTS`."""

    position: Position
    evaluation: Evaluation
    steps: tuple[LineStep, ...]
    result: str


def for_mover(child: Evaluation) -> tuple[Value, int | None]:
    """The value, for the player who moves, of a move leading to a position valued ``child``
    (from the opponent's view), with the plies counted from before the move."""
    if child.value == "draw":
        return "draw", None
    return ("win" if child.value == "loss" else "loss"), child.plies + 1


def rank_key(move: RankedMove) -> tuple:
    """Sort key of the move order (see the module docstring): best move first."""
    if move.value == "win":
        return 0, move.plies, move.name
    if move.value == "draw":
        return 1, 0, move.name
    return 2, -move.plies, move.name


def best_moves(ranked: list[RankedMove]) -> list[RankedMove]:
    """The moves of a ranking (best first) as good as the first: the same value and the same plies."""
    return [move for move in ranked if (move.value, move.plies) == (ranked[0].value, ranked[0].plies)]


class Tablebase:
    """Values of positions, read from the tables of their games (opened on first use, then kept).

    ``directory``: where the tables are (default: :func:`solver.table.tables_dir`); or ``opener``, a
    function returning the :class:`~solver.table.Table` of a :class:`~solver.game.Game` (the command
    line passes one that builds a missing table). Positions may be given as :class:`Position` or as
    notation (read as standard Neutreeko; pass a ``Position`` for another rule).

    Every value is from the point of view of the side to move (see the module docstring):

    >>> from solver.probe import Tablebase
    >>> with Tablebase() as tablebase:
    ...     tablebase.probe("start")
    ...     tablebase.probe("w4/5/1b3/2w2/bw1b1 b")                     # Black to move wins
    ...     tablebase.probe(Position.parse("start").play("C4-C3"))          # White to move wins
    ...     tablebase.probe(Position.parse("start").play_line("C4-C3 D5-D2"))  # Black to move loses
    ...     [(move.name, move.value, move.plies) for move in tablebase.moves("start")][:3]
    Evaluation(value='draw', plies=None)
    Evaluation(value='win', plies=51)
    Evaluation(value='win', plies=3)
    Evaluation(value='loss', plies=2)
    [('B1-C1', 'draw', None), ('D1-C1', 'draw', None), ('B1-B4', 'loss', 22)]
    >>> Tablebase(directory="/nonexistent").get("start", default="no table")
    'no table'
    """

    def __init__(self, directory: Path | str | None = None,
                 opener: Callable[[Game], Table] | None = None) -> None:
        if opener is None:
            def opener(game: Game) -> Table:
                return open_table(game, None if directory is None else Path(directory) / table_path(game).name)
        self._opener = opener
        self._tables: dict[tuple[str, str], Table] = {}

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Forget the opened tables (they are reopened if probed again)."""
        self._tables.clear()

    def table(self, game: Game) -> Table:
        """``game``'s table, opened on first use. Raises :class:`MissingTableError` (a ``KeyError``)
        if there is none, :class:`~solver.errors.TableError` if it cannot be used."""
        key = (str(game.board), game.rule.name)
        if key not in self._tables:
            self._tables[key] = self._opener(game)
        return self._tables[key]

    def probe(self, position: Position | str) -> Evaluation:
        """The :class:`Evaluation` of ``position`` for the side to move.

        Raises :class:`MissingTableError` (a ``KeyError``) if its table is missing,
        :class:`~solver.errors.NotationError` for notation that does not parse, and
        :class:`~solver.errors.IllegalPositionError` for a position whose side to move already has
        three in a row."""
        position = _position(position)
        return self._evaluate(position.game, [position.index()])[0]

    def get(self, position: Position | str, default: Default = None) -> Evaluation | Default:
        """Like :meth:`probe`, but ``default`` instead of :class:`MissingTableError`."""
        try:
            return self.probe(position)
        except MissingTableError:
            return default

    def moves(self, position: Position | str) -> list[RankedMove]:
        """Every legal move of ``position``, best first (see the module docstring for the order),
        each valued for the player who makes it with plies counted from ``position``. Empty when
        the game is over. Raises as :meth:`probe` does."""
        position = _position(position)
        children = position.children()
        values = self._evaluate(position.game, [child.index() for _, child in children])
        ranked = [RankedMove(move, move.name(position.game.board), *for_mover(value), child)
                  for (move, child), value in zip(children, values)]
        return sorted(ranked, key=rank_key)

    def line(self, position: Position | str, max_plies: int | None = None) -> Line:
        """The line of perfect play from ``position``: every ply is the first of :meth:`moves`, so
        the winner takes a fastest win, the loser a longest resistance, a drawn side a move that keeps
        the draw. It ends when a side wins, when a position occurs for the third time (``"draw by
        repetition"``; the start counts as its first occurrence) or after ``max_plies`` plies
        (``"stopped"``). Raises as :meth:`probe` does."""
        start = current = _position(position)
        seen = Counter([start])  # a Position is its own repetition key: pieces and side to move
        steps: list[LineStep] = []
        while True:
            ranked = self.moves(current)
            if not ranked:
                result = f"{WHITE if current.black_to_move else BLACK} wins"
                break
            if max_plies is not None and len(steps) >= max_plies:
                result = "stopped"
                break
            best = ranked[0]
            steps.append(LineStep(best.move, best.name, best.position, self.probe(best.position)))
            current = best.position
            seen[current] += 1
            if seen[current] == 3:
                result = "draw by repetition"
                break
        return Line(start, self.probe(start), tuple(steps), result)

    def _evaluate(self, game: Game, indices: list[int]) -> list[Evaluation]:
        """Evaluations of positions of ``game`` by index, read through :meth:`Table.lookup`."""
        table = self.table(game)
        if not indices:
            return []
        results = table.lookup(np.asarray(indices, dtype=np.int64))
        if np.any(results == ILLEGAL):
            raise TableError(f"{table.path} marks a legal position as illegal: the table is damaged")
        return [Evaluation(*decode_result(int(byte))) for byte in results]


def open_tablebase(directory: Path | str | None = None) -> Tablebase:
    """A :class:`Tablebase` reading the tables in ``directory`` (default: the tables directory)."""
    return Tablebase(directory)


def _position(position: Position | str) -> Position:
    return position if isinstance(position, Position) else Position.parse(position)
