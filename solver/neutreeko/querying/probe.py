"""Probing tables: a position's value, every move ranked, and the line of perfect play.

The API has the shape of python-chess's ``chess.syzygy``: open a :class:`Tablebase` (a context
manager that opens each game's table the first time a position of that game is probed), then
:meth:`~Tablebase.probe` a position, which raises :class:`~solver.core.errors.MissingTableError` (a
``KeyError``) when the table is missing, or :meth:`~Tablebase.get` it, which returns a default instead.

**Sign convention.** Every value is from the point of view of the side to move in the position probed:
``Evaluation.win(5)`` -- the side to move wins in 5 plies, its own winning move included;
``Evaluation.loss(4)`` -- it loses in 4 plies however long it resists (``0``: the other side has
just won); ``DRAW`` -- best play repeats forever (see :class:`~solver.neutreeko.model.values.Evaluation`). A *move's* value
(:class:`RankedMove`) is for the player who makes it, its plies counted from the position before the
move: a move to a position the opponent loses in ``d`` wins in ``d + 1``.

**Move order** (:meth:`Tablebase.moves`, and so the choice made by :meth:`Tablebase.line`): winning
moves by fewest plies, then drawing moves, then losing moves by most plies (longest resistance), as
:meth:`Evaluation.order_key <solver.neutreeko.model.values.Evaluation.order_key>` sorts them; ties by the move's text ``FROM-TO`` in alphabetical order, that is by origin file, origin rank, target file,
target rank (``B1-A1`` before ``B1-C1`` before ``D1-C1``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, TypeVar

import numpy as np

from solver.core.errors import MissingTableError
from solver.core.storage.container import damaged
from solver.core.storage.remote import Location, location
from solver.core.storage.tablebase import OpenedTables
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import LINE_RESULTS, Outcome, Termination, ending
from solver.neutreeko.model.position import Move, Position
from solver.neutreeko.model.values import ILLEGAL, Evaluation, Value, plies_text
from solver.neutreeko.tables.table import Table, open_table, solve_command, table_path

__all__ = ["LINE_RESULTS", "Evaluation", "Line", "LineStep", "RankedMove", "RankedMoves", "Tablebase",
           "best_moves", "keeping_moves", "open_tablebase"]

Default = TypeVar("Default")


@dataclass(frozen=True)
class RankedMove:
    """A legal move, its :class:`Evaluation` for the player who makes it (plies counted from the
    position before the move) and the position it leads to."""

    move: Move
    name: str
    evaluation: Evaluation
    position: Position

    @property
    def value(self) -> Value:
        return self.evaluation.value

    @property
    def plies(self) -> int | None:
        return self.evaluation.plies

    def order_key(self) -> tuple[tuple[int, int], str]:
        """Sort key of the move order (see the module docstring): best move first."""
        return self.evaluation.order_key(), self.name

    def __repr__(self) -> str:
        return f"RankedMove({self.name}: {self.evaluation.move_text()})"


class RankedMoves(list[RankedMove]):
    """The moves of a position, best first (:meth:`Tablebase.moves`): a list, equal to a plain list of the
    same moves, which a notebook shows as a table of each move's value and plies."""

    def _repr_html_(self) -> str:
        from solver.core.drawing.notebook import table  # here: a query never draws

        return table(["move", "value", "plies"], [(move.name, move.value, move.plies) for move in self])


@dataclass(frozen=True)
class LineStep:
    """One ply of a line: the move, the position after it and that position's :class:`Evaluation`
    (from the point of view of the side to move *after* the move); ``forced`` when the move was the
    only one that kept the value of the position before it (see :func:`keeping_moves`)."""

    move: Move
    name: str
    position: Position
    evaluation: Evaluation
    forced: bool = False

    def __repr__(self) -> str:
        forced = ", forced" if self.forced else ""
        return f"LineStep({self.name}{forced}, then {self.position.side_to_move} to move: {self.evaluation})"


@dataclass(frozen=True)
class Line:
    """The perfect-play line from ``position`` (valued ``evaluation``): its plies and how it ended."""

    position: Position
    evaluation: Evaluation
    steps: tuple[LineStep, ...]
    outcome: Outcome

    @property
    def result(self) -> str:
        """How the line ended, one of :data:`~solver.neutreeko.model.outcome.LINE_RESULTS`."""
        return self.outcome.result

    @property
    def end(self) -> Position:
        """The last position of the line."""
        return self.steps[-1].position if self.steps else self.position

    def __repr__(self) -> str:
        return f"Line(from {self.position.fen()!r}: {plies_text(len(self.steps))}, {self.result})"

    def _repr_html_(self) -> str:
        """Its summary and its sheet of small boards (:func:`solver.neutreeko.drawing.diagram.line_sheet`) as inline
        SVG: what a notebook shows for a line."""
        # Imported here: the drawing layer stands above the probe, and a query never draws.
        from solver.core.drawing.notebook import picture
        from solver.neutreeko.drawing import diagram

        return picture(diagram.line_sheet(self), [diagram.line_summary(self), diagram.forced_note(self)])


def best_moves(ranked: list[RankedMove]) -> list[RankedMove]:
    """The moves of a ranking (best first) as good as the first: the same value and the same plies."""
    return [move for move in ranked if move.evaluation == ranked[0].evaluation]


def keeping_moves(evaluation: Evaluation, ranked: list[RankedMove]) -> list[RankedMove]:
    """The moves of a position valued ``evaluation`` that keep its value for the side to move: the
    winning moves of a won position, the drawing moves of a drawn one, and every move of a lost one
    (they all lose). A move is *forced* when it is the only one."""
    return [move for move in ranked if evaluation.value == "loss" or move.value == evaluation.value]


class Tablebase(OpenedTables[Game, Table]):
    """Values of positions, read from the tables of their games (opened on first use, then kept).

    ``directory``: where the tables are, a directory or a release's address (default:
    :func:`solver.neutreeko.tables.table.tables_dir`); or ``opener``, a
    function returning the :class:`~solver.neutreeko.tables.table.Table` of a :class:`~solver.neutreeko.model.game.Game` (the command
    line passes one that builds a missing table). Positions may be given as :class:`~solver.neutreeko.model.position.Position` or as
    notation (read as standard Neutreeko; pass a ``Position`` for another rule).

    Every value is from the point of view of the side to move (see the module docstring):

    >>> from solver.neutreeko.querying.probe import Tablebase
    >>> with Tablebase() as tablebase:
    ...     tablebase.probe("start")
    ...     tablebase.probe("w4/5/1b3/2w2/bw1b1 b")                     # Black to move wins
    ...     tablebase.probe(Position.parse("start").play("C4-C3"))          # White to move wins
    ...     tablebase.probe(Position.parse("start").play("C4-C3").play("D5-D2"))  # Black to move loses
    ...     tablebase.moves("start")[:3]
    Evaluation(value='draw', plies=None)
    Evaluation(value='win', plies=51)
    Evaluation(value='win', plies=3)
    Evaluation(value='loss', plies=2)
    [RankedMove(B1-C1: draw), RankedMove(D1-C1: draw), RankedMove(B1-B4: loses in 22)]
    >>> Tablebase(directory="/nonexistent").get("start", default="no table")
    'no table'
    """

    def __init__(self, directory: Location | str | None = None,
                 opener: Callable[[Game], Table] | None = None) -> None:
        if opener is None:
            def opener(game: Game) -> Table:
                return open_table(game, None if directory is None else location(directory) / table_path(game).name)
        super().__init__(opener, key=lambda game: (str(game.board), game.rule.name))

    def probe(self, position: Position | str) -> Evaluation:
        """The :class:`Evaluation` of ``position`` for the side to move.

        Raises :class:`~solver.core.errors.MissingTableError` (a ``KeyError``) if its table is missing,
        :class:`~solver.core.errors.NotationError` for notation that does not parse, and
        :class:`~solver.core.errors.IllegalPositionError` for a position whose side to move already has
        three in a row."""
        position = _position(position)
        return self._evaluate(position.game, [position.index()])[0]

    def get(self, position: Position | str, default: Default | None = None) -> Evaluation | Default | None:
        """Like :meth:`probe`, but ``default`` instead of :class:`~solver.core.errors.MissingTableError`."""
        try:
            return self.probe(position)
        except MissingTableError:
            return default

    def moves(self, position: Position | str) -> RankedMoves:
        """Every legal move of ``position``, best first (see the module docstring for the order),
        each valued for the player who makes it with plies counted from ``position``. Empty when
        the game is over. Raises as :meth:`probe` does."""
        position = _position(position)
        children = position.children()
        values = self._evaluate(position.game, [child.index() for _, child in children])
        ranked = [RankedMove(move, move.name(position.game.board), value.for_mover(), child)
                  for (move, child), value in zip(children, values)]
        return RankedMoves(sorted(ranked, key=RankedMove.order_key))

    def line(self, position: Position | str, max_plies: int | None = None) -> Line:
        """The line of perfect play from ``position``: every ply is the first of :meth:`moves`, so
        the winner takes a fastest win, the loser a longest resistance, a drawn side a move that keeps
        the draw. It ends as :func:`~solver.neutreeko.model.outcome.ending` says (a win, or a position's
        third occurrence, the start counting as its first) or after ``max_plies`` plies (its result
        ``"stopped"``). Each step says whether its move was forced: the only move keeping the value
        (:func:`keeping_moves`). Raises as :meth:`probe` does."""
        start = current = _position(position)
        evaluation = value = self.probe(start)
        seen = Counter([start])
        steps: list[LineStep] = []
        while (outcome := ending(current, seen[current])) is None:
            if max_plies is not None and len(steps) >= max_plies:
                outcome = Outcome(Termination.PLY_LIMIT)
                break
            ranked = self.moves(current)
            best, forced = ranked[0], len(keeping_moves(value, ranked)) == 1
            current, value = best.position, self.probe(best.position)
            steps.append(LineStep(best.move, best.name, current, value, forced))
            seen[current] += 1
        return Line(start, evaluation, tuple(steps), outcome)

    def _evaluate(self, game: Game, indices: list[int]) -> list[Evaluation]:
        """Evaluations of positions of ``game`` by index, read through :meth:`Table.probe`."""
        table = self.table(game)
        if not indices:
            return []
        results = table.probe(np.asarray(indices, dtype=np.int64))
        if np.any(results == ILLEGAL):
            raise damaged(table.path, "it marks a legal position as illegal",
                          f"{solve_command(game, table.path)} --force")
        return [Evaluation.of_byte(int(byte)) for byte in results]


def open_tablebase(directory: Location | str | None = None) -> Tablebase:
    """A :class:`Tablebase` reading the tables in ``directory`` (default: the tables directory)."""
    return Tablebase(directory)


def _position(position: Position | str) -> Position:
    return position if isinstance(position, Position) else Position.parse(position)
