"""Probing NECNON tables: a position's value, every turn ranked, and the line of perfect play.

The shape is python-chess's ``chess.syzygy``, as for Neutreeko: a :class:`Tablebase` opens each game's
table the first time one of its positions is probed; :meth:`~Tablebase.probe` raises
:class:`~solver.core.errors.MissingTableError` (a ``KeyError``) when the table is missing,
:meth:`~Tablebase.get` returns a default instead.

**Sign convention.** Every value is Black's points minus Green's under perfect play, whoever is to move:
``Evaluation(2, 5)`` -- Black wins by 2, with 5 turns left; ``Evaluation(-1, 4)`` -- Green wins by 1;
``Evaluation(0, 3)`` -- a draw (see :class:`~solver.necnon.model.values.Evaluation`). A *turn's* evaluation is
that of the position it leads to, its turns counted from before the turn.

**Turn order** (:meth:`Tablebase.turns`, and so :meth:`Tablebase.line`): best first for the side to
move, as :meth:`Evaluation.order_key <solver.necnon.model.values.Evaluation.order_key>` sorts (Black the
greatest margin, Green the smallest; then the winner the fewest turns, the loser the most, a draw the
fewest); ties by the turn's cells in board order (``a1,b1`` before ``a1,c1`` before ``b1,c1``;
``pass`` is alone when it is allowed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

from solver.core.errors import IllegalPositionError, MissingTableError
from solver.core.storage.remote import Location, location
from solver.core.storage.tablebase import OpenedTables
from solver.necnon.model.keys import canonical_keys, key
from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.model.values import Evaluation, turns_text
from solver.necnon.tables.table import Table, open_table, table_path

__all__ = ["Evaluation", "Line", "LineStep", "RankedTurn", "RankedTurns", "Tablebase", "best_turns"]

Default = TypeVar("Default")


@dataclass(frozen=True)
class RankedTurn:
    """A legal turn, the :class:`Evaluation` of the position it leads to (turns counted from before
    the turn), and that position."""

    turn: Turn
    name: str
    evaluation: Evaluation
    position: Position

    def __repr__(self) -> str:
        return f"RankedTurn({self.name}: {self.evaluation})"


class RankedTurns(list[RankedTurn]):
    """The turns of a position, best first (:meth:`Tablebase.turns`): a list, equal to a plain list of the
    same turns, which a notebook shows as a table of each turn's value and the turns it leaves."""

    def _repr_html_(self) -> str:
        from solver.core.drawing.notebook import table  # here: a query never draws

        return table(["turn", "value (Black minus Green)", "turns"],
                     [(turn.name, turn.evaluation.label(), turn.evaluation.turns) for turn in self])


@dataclass(frozen=True)
class LineStep:
    """One turn of a line: the turn, the position after it and that position's :class:`Evaluation`."""

    turn: Turn
    name: str
    position: Position
    evaluation: Evaluation


@dataclass(frozen=True)
class Line:
    """The perfect-play line from ``position`` (valued ``evaluation``) to the end of the game."""

    position: Position
    evaluation: Evaluation
    steps: tuple[LineStep, ...]

    @property
    def end(self) -> Position:
        """The last position: the game is over in it."""
        return self.steps[-1].position if self.steps else self.position

    @property
    def points(self) -> tuple[int, int]:
        """(Black's points, Green's points) at the end."""
        return self.end.points()

    @property
    def result(self) -> str:
        """``"Black wins by 2"``, ``"Green wins by 1"`` or ``"draw"``."""
        return Evaluation(self.end.margin(), 0).result()

    def __repr__(self) -> str:
        return f"Line(from {self.position.notation()!r}: {turns_text(len(self.steps))}, {self.result})"

    def _repr_html_(self) -> str:
        """Its summary and its sheet of small boards (:func:`solver.necnon.drawing.diagram.line_sheet`) as inline
        SVG: what a notebook shows for a line."""
        # Imported here: the drawing layer stands above the probe, and a query never draws.
        from solver.core.drawing.notebook import picture
        from solver.necnon.drawing import diagram

        return picture(diagram.line_sheet(self), [diagram.line_summary(self)])


def best_turns(ranked: list[RankedTurn]) -> list[RankedTurn]:
    """The turns of a ranking (best first) as good as the first: the same margin and turns."""
    return [turn for turn in ranked if turn.evaluation == ranked[0].evaluation]


class Tablebase(OpenedTables[Game, Table]):
    """Values of NECNON positions, read from the tables of their games (opened on first use, then kept).

    ``directory``: where the tables are (default: :func:`solver.core.storage.container.tables_dir`); or
    ``opener``, a function returning the :class:`~solver.necnon.tables.table.Table` of a
    :class:`~solver.necnon.model.rules.Game` (the command line passes one that builds a missing table).

    >>> from solver.necnon.model.rules import Game
    >>> game = Game.of("3x3", "nec")
    >>> with Tablebase() as tablebase:
    ...     tablebase.probe(Position.empty(game))                 # Green wins by 1, in 5 turns
    ...     tablebase.turns(Position.empty(game))[:2]
    Evaluation(margin=-1, turns=5)
    [RankedTurn(a1: Green by 1 in 5 turns), RankedTurn(b1: Green by 1 in 5 turns)]
    >>> Tablebase(directory="/nonexistent").get(Position.empty(game), default="no table")
    'no table'
    """

    def __init__(self, directory: Location | str | None = None, opener: Callable[[Game], Table] | None = None) -> None:
        if opener is None:
            def opener(game: Game) -> Table:
                return open_table(game, None if directory is None else location(directory) / table_path(game).name)
        super().__init__(opener)

    def probe(self, position: Position) -> Evaluation:
        """The :class:`Evaluation` of ``position``: Black's points minus Green's under perfect play, and
        the turns left.

        Raises :class:`~solver.core.errors.MissingTableError` (a ``KeyError``) if its table is missing, and
        :class:`~solver.core.errors.IllegalPositionError` if the position cannot be reached from the
        empty board."""
        return self._evaluate(position.game, [position])[0]

    def get(self, position: Position, default: Default | None = None) -> Evaluation | Default | None:
        """Like :meth:`probe`, but ``default`` instead of :class:`~solver.core.errors.MissingTableError`."""
        try:
            return self.probe(position)
        except MissingTableError:
            return default

    def turns(self, position: Position) -> RankedTurns:
        """Every legal turn of ``position``, best first for its side to move (see the module
        docstring), each valued by the position it leads to; empty when the game is over. Raises as
        :meth:`probe` does."""
        self.probe(position)  # the position itself must be reachable
        children = [(turn, position.play(turn)) for turn in position.turns()]
        values = self._evaluate(position.game, [child for _, child in children])
        ranked = [RankedTurn(turn, turn.name(position.game.grid), value.after_turn(), child)
                  for (turn, child), value in zip(children, values)]
        return RankedTurns(sorted(ranked, key=lambda entry: (entry.evaluation.order_key(position.black_to_move),
                                                             entry.turn)))

    def line(self, position: Position) -> Line:
        """The line of perfect play from ``position`` to the end: every turn is the first of
        :meth:`turns`. Raises as :meth:`probe` does."""
        steps: list[LineStep] = []
        current = position
        while not current.over:
            best = self.turns(current)[0]
            steps.append(LineStep(best.turn, best.name, best.position, self.probe(best.position)))
            current = best.position
        return Line(position, self.probe(position), tuple(steps))

    def _evaluate(self, game: Game, positions: list[Position]) -> list[Evaluation]:
        if not positions:
            return []
        table = self.table(game)
        present, found = table.probe(canonical_keys(game.grid, [key(position) for position in positions]))
        for position, there in zip(positions, present):
            if not there:
                raise IllegalPositionError(f"{position.notation()} cannot be reached from the empty board "
                                           f"under {game.setting}")
        return [Evaluation(int(margin), int(turns)) for margin, turns in zip(found["margin"], found["turns"])]
