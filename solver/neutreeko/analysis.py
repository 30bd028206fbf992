"""Analyses of solved games, for the notebooks: what the tables say about boards, squares and openings.

Every function reads tables through the public API (:class:`~solver.neutreeko.table.Table` results and a
:class:`~solver.neutreeko.probe.Tablebase`) and returns plain numbers, numpy arrays and named tuples: the
notebooks draw them, the tests assert them. Values are, as everywhere, for the side to move.

Two notions used below:

- *keeping* moves of a position (:func:`~solver.neutreeko.probe.keeping_moves`): the moves that keep
  its value for the side to move: winning moves in a won position, drawing moves in a drawn one (in a
  lost position every move loses).
- moves *up to symmetry*: moves whose positions are images of each other under a board symmetry
  (:mod:`solver.neutreeko.symmetry`) count once; from the start, B1-C1 and D1-C1 are one move up to symmetry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Sequence

import numpy as np
import numpy.typing as npt

from solver.core.errors import MissingTableError
from solver.neutreeko import index
from solver.neutreeko.game import Game
from solver.neutreeko.position import Position
from solver.neutreeko.probe import Line, RankedMove, Tablebase, best_moves, keeping_moves
from solver.neutreeko.stats import Summary, summarize
from solver.neutreeko.symmetry import canonical_indices
from solver.neutreeko.table import Table
from solver.neutreeko.values import Evaluation, Value, value_codes

#: The squares the folklore calls strong (the middle of each edge and the centre), and the corners.
KEY_SQUARES = ("C1", "A3", "C3", "E3", "C5")
CORNERS = ("A1", "E1", "A5", "E5")
#: Values for the side to move, in the order used by the arrays below.
VALUES = ("win", "draw", "loss")
#: Who holds a square: the side to move, or the side that has just moved.
HOLDERS = ("side to move", "side that just moved")


# -- every position -------------------------------------------------------------------------------

def shares(summary: Summary) -> dict[str, float]:
    """The share of legal positions won, drawn and lost by the side to move."""
    return {"win": summary.wins / summary.legal, "draw": summary.draws / summary.legal,
            "loss": summary.losses / summary.legal}


class BoardFigures(NamedTuple):
    """A board's figures, from its table: counts for the side to move and the start position's value."""

    board: str
    legal: int
    wins: int
    draws: int
    losses: int
    longest_win: int
    start: Evaluation
    summary: Summary


def board_figures(boards: Iterable[str], rule: str = "connected",
                  directory: Path | str | None = None) -> list[BoardFigures]:
    """The figures of each board (``"4x4"``, ...) whose table exists (in ``directory``, default the
    tables directory), in the order given; boards without a table are left out."""
    figures = []
    tablebase = Tablebase(directory)
    for board in boards:
        game = Game.of(board, rule)
        try:
            table = tablebase.table(game)
        except MissingTableError:
            continue
        summary = summarize(game, table.result)
        start = tablebase.probe(Position.start(game))
        figures.append(BoardFigures(str(game.board), summary.legal, summary.wins, summary.draws, summary.losses,
                                    summary.longest_win,
                                    start,
                                    summary))
    return figures


def longest_wins(game: Game, table: Table) -> list[Position]:
    """The positions (Black to move) won in the most plies, as :class:`~solver.neutreeko.stats.Summary` finds them."""
    return [Position.from_index(game, i) for i in summarize(game, table.result).longest_win_indices]


def symmetry_classes(positions: Sequence[Position]) -> int:
    """How many classes of positions under the board's symmetries ``positions`` fall into (all of one game)."""
    if not positions:
        return 0
    board = positions[0].game.board
    return len({(int(canonical_indices(position.index(), board)), position.black_to_move)
                for position in positions})


# -- squares --------------------------------------------------------------------------------------

class SquareValues(NamedTuple):
    """``counts[holder, value, rank, file]``: how many legal positions have a piece of ``holder`` (0 the
    side to move, 1 the side that just moved) on the square, by the value for the side to move
    (:data:`VALUES` order). A position counts once for each of the holder's pieces."""

    counts: np.ndarray

    def holder_wins(self, holder: int) -> npt.NDArray[np.float64]:
        """Per square (``[rank, file]``): the share of those positions that the holder wins."""
        won = self.counts[holder, 0] if holder == 0 else self.counts[holder, 2]
        share: npt.NDArray[np.float64] = won / self.counts[holder].sum(axis=0)
        return share

    def draws(self, holder: int) -> npt.NDArray[np.float64]:
        """Per square: the share of those positions that are drawn."""
        share: npt.NDArray[np.float64] = self.counts[holder, 1] / self.counts[holder].sum(axis=0)
        return share


class Pieces(NamedTuple):
    """Every legal position of a table: its value code for the side to move (see :func:`solver.neutreeko.values.value_codes`)
    and the squares of the side to move and of the other side (``(positions, 3)`` arrays)."""

    game: Game
    values: np.ndarray
    mover: np.ndarray
    other: np.ndarray


def legal_pieces(game: Game, result: np.ndarray) -> Pieces:
    """The :class:`Pieces` of ``game``'s table ``result`` (one byte per index); about a second on 5 x 5."""
    codes = value_codes(result)
    legal = np.flatnonzero(codes >= 0)
    mover, other = index.decode(legal, game.board.size)
    return Pieces(game, codes[legal], mover, other)


def square_values(pieces: Pieces) -> SquareValues:
    """Count the legal positions by who holds each square and the value (see :class:`SquareValues`)."""
    board = pieces.game.board
    counts = np.zeros((2, 3, board.size), dtype=np.int64)
    for holder, squares in enumerate((pieces.mover, pieces.other)):
        for value in range(3):
            counts[holder, value] = np.bincount(squares[pieces.values == value].reshape(-1), minlength=board.size)
    return SquareValues(counts.reshape(2, 3, board.height, board.width))


class Holding(NamedTuple):
    """The legal positions in which ``holder`` has a piece on at least one of some squares (``holds``)
    or on none of them, by value for the side to move."""

    holder: str
    holds: bool
    positions: int
    wins: int
    draws: int
    losses: int

    @property
    def holder_wins(self) -> float:
        """The share of these positions that the holder wins."""
        return (self.wins if self.holder == HOLDERS[0] else self.losses) / self.positions

    @property
    def holder_loses(self) -> float:
        return (self.losses if self.holder == HOLDERS[0] else self.wins) / self.positions

    @property
    def draw_share(self) -> float:
        return self.draws / self.positions


def holdings(pieces: Pieces, squares: Sequence[str]) -> list[Holding]:
    """For each holder (side to move, side that just moved), the positions where it holds at least one
    of ``squares`` (names such as ``"C3"``) and those where it holds none: four rows."""
    chosen = [pieces.game.board.parse_square(name) for name in squares]
    rows = []
    for holder, held_squares in zip(HOLDERS, (pieces.mover, pieces.other)):
        held = np.isin(held_squares, chosen).any(axis=1)
        for holds in (True, False):
            counts = np.bincount(pieces.values[held == holds], minlength=3)
            rows.append(Holding(holder, holds, int(counts.sum()), *(int(count) for count in counts)))
    return rows


# -- choices along a line -------------------------------------------------------------------------

class Choice(NamedTuple):
    """The choice of the side to move before ply ``ply`` of a line: its position's value and the
    number of its moves, of keeping moves (see the module docstring), of keeping moves up to symmetry,
    and of best moves (as good as the first of :meth:`Tablebase.moves`), and the move the line played."""

    ply: int
    position: Position
    evaluation: Evaluation
    moves: int
    keeping: int
    keeping_up_to_symmetry: int
    best: int
    played: str

    @property
    def value(self) -> Value:
        return self.evaluation.value

    @property
    def plies(self) -> int | None:
        return self.evaluation.plies


def choice(tablebase: Tablebase, position: Position, ply: int = 1, played: str = "") -> Choice:
    """The :class:`Choice` of the side to move in ``position``."""
    evaluation = tablebase.probe(position)
    ranked = tablebase.moves(position)
    if not ranked:  # the game is over: nothing to choose
        return Choice(ply, position, evaluation, 0, 0, 0, 0, played)
    keeping = keeping_moves(evaluation, ranked)
    classes = set(canonical_indices([move.position.index() for move in keeping], position.game.board).tolist())
    return Choice(ply, position, evaluation, len(ranked), len(keeping), len(classes),
                  len(best_moves(ranked)), played)


def line_choices(tablebase: Tablebase, line: Line) -> list[Choice]:
    """The :class:`Choice` before every ply of ``line``."""
    positions = [line.position] + [step.position for step in line.steps[:-1]]
    return [choice(tablebase, position, ply, step.name)
            for ply, (position, step) in enumerate(zip(positions, line.steps), 1)]


def drawing_tree_widths(tablebase: Tablebase, position: Position, plies: int) -> list[int]:
    """How many positions, up to symmetry, can stand on the board after each of the first ``plies``
    plies from ``position`` when both sides only ever play moves that keep the draw: element ``k - 1``
    for ply ``k``. A width of 1 means that, symmetric twins aside, there is only one way to play so far."""
    board = position.game.board
    frontier = [position]
    widths = []
    for _ in range(plies):
        reached: dict[int, Position] = {}
        for current in frontier:
            for move in tablebase.moves(current):
                if move.value == "draw":
                    reached.setdefault(int(canonical_indices(move.position.index(), board)), move.position)
        frontier = list(reached.values())
        widths.append(len(frontier))
    return widths


# -- opening tree ---------------------------------------------------------------------------------

class OpeningNode(NamedTuple):
    """A move of the opening tree with its value for the player making it, its plies counted from the
    position before it, and the replies explored after it."""

    move: str
    evaluation: Evaluation
    position: Position
    replies: tuple[OpeningNode, ...]

    @property
    def value(self) -> Value:
        return self.evaluation.value


def opening_tree(tablebase: Tablebase, position: Position, depth: int,
                 explore: Callable[[RankedMove], bool] = lambda move: True) -> tuple[OpeningNode, ...]:
    """Every move of ``position``, best first, and below each move for which ``explore(move)`` holds
    (a :class:`~solver.neutreeko.probe.RankedMove`) its replies, down to ``depth`` plies."""
    if depth <= 0:
        return ()
    return tuple(OpeningNode(move.name, move.evaluation, move.position,
                             opening_tree(tablebase, move.position, depth - 1, explore) if explore(move) else ())
                 for move in tablebase.moves(position))


def tree_lines(nodes: Sequence[OpeningNode], first_ply: int = 1) -> list[str]:
    """The tree as indented text, a move a line: ``"1. B1-C1  draw"``, ``"   2. C2-C3  draw"``, ..."""
    lines = []
    for node in nodes:
        lines.append(f"{'   ' * (first_ply - 1)}{first_ply}. {node.move}  {node.evaluation.move_text()}")
        lines += tree_lines(node.replies, first_ply + 1)
    return lines


# -- presentation ---------------------------------------------------------------------------------

def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table; integers get thousands separators, floats are shown as percentages."""
    def cell(value: object) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, (int, np.integer)):
            return f"{value:,}"
        if isinstance(value, (float, np.floating)):
            return f"{100 * value:.1f} %"
        return str(value)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)
