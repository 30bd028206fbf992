"""Analyses of solved games, for the notebooks: what the tables say about boards, squares and openings.

Every function reads tables through the public API (:class:`~solver.neutreeko.tables.table.Table` results and a
:class:`~solver.neutreeko.querying.probe.Tablebase`) and returns plain numbers, numpy arrays and named tuples: the
notebooks draw them, the tests assert them. Values are, as everywhere, for the side to move.

Two notions used below:

- *keeping* moves of a position (:func:`~solver.neutreeko.querying.probe.keeping_moves`): the moves that keep
  its value for the side to move: winning moves in a won position, drawing moves in a drawn one (in a
  lost position every move loses).
- moves *up to symmetry*: moves whose positions are images of each other under a board symmetry
  (:mod:`solver.neutreeko.model.symmetry`) count once; from the start, B1-C1 and D1-C1 are one move up to symmetry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Sequence

import numpy as np
import numpy.typing as npt

from solver.core.answers.report import counted
from solver.core.errors import MissingTableError
from solver.neutreeko.model import index
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import canonical_indices, images
from solver.neutreeko.model.values import Evaluation, Value, value_codes
from solver.neutreeko.playing.record import ply_label
from solver.neutreeko.querying.probe import Line, RankedMove, Tablebase, best_moves, keeping_moves
from solver.neutreeko.studies.drawgraph import DrawGraph
from solver.neutreeko.tables.stats import Summary
from solver.neutreeko.tables.table import Table

#: The squares the folklore calls strong (the middle of each edge and the centre), and the corners.
KEY_SQUARES = ("C1", "A3", "C3", "E3", "C5")
CORNERS = ("A1", "E1", "A5", "E5")
#: The groups of :func:`square_groups`, in order.
SQUARE_GROUPS = ("centre", "edge midpoints", "inner ring", "corners", "other edge squares")
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
        summary = table.summary
        start = tablebase.probe(Position.start(game))
        figures.append(BoardFigures(str(game.board), summary.legal, summary.wins, summary.draws, summary.losses,
                                    summary.longest_win,
                                    start,
                                    summary))
    return figures


def longest_wins(game: Game, table: Table) -> list[Position]:
    """The positions (Black to move) won in the most plies, as :class:`~solver.neutreeko.tables.stats.Summary` finds them."""
    return [Position.from_index(game, i) for i in table.summary.longest_win_indices]


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
    """Every legal position of a table: its value code for the side to move (see :func:`solver.neutreeko.model.values.value_codes`)
    and the squares of the side to move and of the other side (``(positions, 3)`` arrays)."""

    game: Game
    values: np.ndarray
    mover: np.ndarray
    other: np.ndarray


def legal_pieces(game: Game, result: np.ndarray) -> Pieces:
    """The :class:`Pieces` of ``game``'s table ``result`` (one byte per index), the whole table read."""
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


def square_groups(board: Board) -> dict[str, tuple[str, ...]]:
    """The squares of a board with odd sides by their place (:data:`SQUARE_GROUPS`): the centre, the
    middle of each edge, the inner ring (the eight squares around the centre), the corners and the
    rest of the edge; on 5 x 5 they are every square. Raises ``ValueError`` for a side of even length.

    >>> square_groups(Board(5, 5))["edge midpoints"], square_groups(Board(5, 5))["inner ring"]
    (('C1', 'A3', 'E3', 'C5'), ('B2', 'C2', 'D2', 'B3', 'D3', 'B4', 'C4', 'D4'))
    """
    if board.width % 2 == 0 or board.height % 2 == 0:
        raise ValueError(f"a {board} board has no centre square")
    middle_file, middle_rank = board.width // 2, board.height // 2
    groups: dict[str, list[str]] = {name: [] for name in SQUARE_GROUPS}
    for square in range(board.size):
        file, rank = board.file_of(square), board.rank_of(square)
        on_file_edge, on_rank_edge = file in (0, board.width - 1), rank in (0, board.height - 1)
        if (file, rank) == (middle_file, middle_rank):
            group = "centre"
        elif on_file_edge and on_rank_edge:
            group = "corners"
        elif (on_file_edge and rank == middle_rank) or (on_rank_edge and file == middle_file):
            group = "edge midpoints"
        elif on_file_edge or on_rank_edge:
            group = "other edge squares"
        elif max(abs(file - middle_file), abs(rank - middle_rank)) == 1:
            group = "inner ring"
        else:
            continue
        groups[group].append(board.name(square))
    return {name: tuple(squares) for name, squares in groups.items()}


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
    chosen = np.zeros(pieces.game.board.size, dtype=np.bool_)
    chosen[[pieces.game.board.parse_square(name) for name in squares]] = True
    rows = []
    for holder, held_squares in zip(HOLDERS, (pieces.mover, pieces.other)):
        held = chosen[held_squares[:, 0]] | chosen[held_squares[:, 1]] | chosen[held_squares[:, 2]]
        by_holding = np.bincount(pieces.values + 3 * held, minlength=6).reshape(2, 3)  # [holds, value]
        for holds in (True, False):
            counts = by_holding[int(holds)]
            rows.append(Holding(holder, holds, int(counts.sum()), *(int(count) for count in counts)))
    return rows


# -- choices along a line -------------------------------------------------------------------------

class Choice(NamedTuple):
    """The choice of the side to move before ply ``ply`` of a line: its position's value and the
    number of its moves, of keeping moves (see the module docstring), of keeping moves up to symmetry,
    and of best moves (as good as the first of :meth:`~solver.neutreeko.querying.probe.Tablebase.moves`), and the move the line played."""

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


def drawing_tree(tablebase: Tablebase, position: Position, plies: int) -> list[list[Position]]:
    """The positions that can stand on the board after each of the first ``plies`` plies from the drawn
    ``position`` when both sides only ever play moves that keep the draw (element ``k - 1`` for ply
    ``k``): perfect play, walked on the :class:`~solver.neutreeko.studies.drawgraph.DrawGraph`. Each position
    comes with all its images under the board's symmetries, so that the squares of a symmetric group
    are counted alike (a position stands for its class, with the class's size as its weight)."""
    game = position.game
    graph = DrawGraph.of(tablebase.table(game))
    levels = []
    for ply, reached in enumerate(graph.reached([graph.number(position)], plies), 1):
        every = np.unique(images(graph.classes[reached[0]], game.board))
        black_to_move = position.black_to_move == (ply % 2 == 0)
        levels.append([Position.from_index(game, int(found), black_to_move) for found in every.tolist()])
    return levels


def drawing_tree_widths(tablebase: Tablebase, position: Position, plies: int) -> list[int]:
    """How many positions, up to symmetry, can stand on the board after each of the first ``plies``
    plies from the drawn ``position`` when both sides only ever play moves that keep the draw: element
    ``k - 1`` for ply ``k`` (see :class:`~solver.neutreeko.studies.drawgraph.DrawGraph`). A width of 1 means
    that, symmetric twins aside, there is only one way to play so far."""
    graph = DrawGraph.of(tablebase.table(position.game))
    widths: list[int] = graph.widths([graph.number(position)], plies)[0].tolist()
    return widths


def pieces_of(tablebase: Tablebase, positions: Sequence[Position]) -> Pieces:
    """The :class:`Pieces` of some positions of one game (values probed), for the square analysis of
    positions other than all legal ones."""
    game = positions[0].game
    codes = np.array([VALUES.index(tablebase.probe(position).value) for position in positions], dtype=np.int8)
    return Pieces(game, codes, np.array([position.mover for position in positions]),
                  np.array([position.other for position in positions]))


class TargetMoves(NamedTuple):
    """``moves[rank, file]``: how many moves of some positions end on the square; ``keeping[rank,
    file]``: how many of those keep the value of their position (see the module docstring)."""

    moves: np.ndarray
    keeping: np.ndarray

    def keeping_share(self, squares: Sequence[str] | None = None, board: Board | None = None) -> float:
        """The share of the moves onto ``squares`` (names; every square if None) that keep the value."""
        if squares is None or board is None:
            return float(self.keeping.sum() / self.moves.sum())
        chosen = [board.parse_square(name) for name in squares]
        return float(self.keeping.reshape(-1)[chosen].sum() / self.moves.reshape(-1)[chosen].sum())


def moves_by_target(tablebase: Tablebase, positions: Sequence[Position]) -> TargetMoves:
    """Every legal move of ``positions`` (of one game, at least one), counted by the square it ends on,
    and whether it keeps its position's value."""
    board = positions[0].game.board
    moves, keeping = np.zeros(board.size, dtype=np.int64), np.zeros(board.size, dtype=np.int64)
    for position in positions:
        ranked = tablebase.moves(position)
        kept = {move.move for move in keeping_moves(tablebase.probe(position), ranked)}
        for move in ranked:
            moves[move.move.target] += 1
            keeping[move.move.target] += move.move in kept
    return TargetMoves(moves.reshape(board.height, board.width), keeping.reshape(board.height, board.width))


# -- opening tree ---------------------------------------------------------------------------------

class OpeningNode(NamedTuple):
    """A move of the opening tree with its value for the player making it, its plies counted from the
    position before it, the replies explored after it, and its ``twins``: the other moves from the same
    position that lead to an image of ``position`` under a board symmetry (a mirror branch, merged
    into this one: from the start, D1-C1 is B1-C1's twin)."""

    move: str
    evaluation: Evaluation
    position: Position
    replies: tuple[OpeningNode, ...]
    twins: tuple[str, ...] = ()

    @property
    def value(self) -> Value:
        return self.evaluation.value

    @property
    def names(self) -> str:
        """The move and its twins: ``"B1-C1 = D1-C1"``."""
        return " = ".join((self.move, *self.twins))


def opening_tree(tablebase: Tablebase, position: Position, depth: int,
                 explore: Callable[[RankedMove], bool] = lambda move: True) -> tuple[OpeningNode, ...]:
    """Every move of ``position``, best first, mirror branches merged (moves to positions of one
    symmetry class make one node, see :class:`OpeningNode`), and below each node whose move
    ``explore(move)`` accepts (a :class:`~solver.neutreeko.querying.probe.RankedMove`) its replies, down to
    ``depth`` plies."""
    if depth <= 0:
        return ()
    ranked = tablebase.moves(position)
    classes = canonical_indices([move.position.index() for move in ranked], position.game.board).tolist()
    branches: dict[int, list[RankedMove]] = {}
    for move, canonical in zip(ranked, classes):
        branches.setdefault(canonical, []).append(move)
    return tuple(OpeningNode(first.name, first.evaluation, first.position,
                             opening_tree(tablebase, first.position, depth - 1, explore) if explore(first) else (),
                             tuple(twin.name for twin in twins))
                 for first, *twins in branches.values())


def tree_lines(nodes: Sequence[OpeningNode], start: Position, ply: int = 1) -> list[str]:
    """The tree of the moves from ``start`` as indented text, plies labelled as :mod:`~solver.neutreeko.playing.record`
    numbers them: every move that does not lose on a line of its own with its replies below it, and the
    losing moves of each position summed up on one line::

        1. B1-C1 = D1-C1  draw
           1... C2-C3  draw
           1... 13 losing moves: in 4 to 18 plies, the longest resistance D5-D2
        1. 12 losing moves (6 up to symmetry): in 2 to 22 plies, the longest resistance B1-B4 = D1-D4
    """
    indent, label = "   " * (ply - 1), ply_label(start, ply)
    lines = []
    for node in nodes:
        if node.value != "loss":
            lines.append(f"{indent}{label} {node.names}  {node.evaluation.move_text()}")
            lines += tree_lines(node.replies, start, ply + 1)
    losing = [node for node in nodes if node.value == "loss"]
    if losing:
        count = sum(1 + len(node.twins) for node in losing)
        classes = f" ({len(losing)} up to symmetry)" if len(losing) != count else ""
        plies = [node.evaluation.plies or 0 for node in losing]
        spread = f"in {min(plies)}" if min(plies) == max(plies) else f"in {min(plies)} to {max(plies)}"
        lines.append(f"{indent}{label} {counted(count, 'losing move')}{classes}: {spread} plies, "
                     f"the longest resistance {losing[0].names}")
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
