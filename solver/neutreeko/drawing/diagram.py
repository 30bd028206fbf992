"""What a picture of a position or a line shows, as a :class:`~solver.core.drawing.scene.Scene` for any backend.

A board diagram (:func:`board_diagram`), top to bottom::

    (o) Black to move: draw                  the side to move's piece and the position's value
    5 +---+---+---+---+---+                  the board, ranks labelled on the left; the last move's
    . |   | w |   | w |   |                  two squares highlighted; every legal move an arrow from
    1 +---+---+---+---+---+                  the piece to the square it stops on, coloured by its value
        A   B   C   D   E                    for the player making it, labelled W3 / D / L22
    Black's moves (n: plies from here)  -> bold: best  [] last move          the legend
    -> W n = wins in n   -> D = draw   -> L n = loses in n
    1w1w1/2b2/5/2w2/1b1b1 b                  the position in notation

Arrows are drawn worst first, so the best moves lie on top; each is set off a little to the right of
its direction, so that two slides along one line in opposite directions stay apart, and labelled on its
shaft just behind its head, where it ends, so that crossing arrows are read apart. The best moves (as
good as the best one) are bold, their labels filled. A line sheet (:func:`line_sheet`) is a grid of small
boards, one per ply of a :class:`~solver.neutreeko.querying.probe.Line` (the position it starts from first), each
with its move, labelled as ``play`` numbers it and marked ``!`` when forced, and its value under it.
"""

from __future__ import annotations

from math import hypot
from typing import NamedTuple, Sequence

from solver.core.drawing.scene import Circle, Group, Polygon, Rect, Scene, Shape, Text, text_width
from solver.core.drawing.scene import Line as Stroke
from solver.neutreeko.model.outcome import game_over
from solver.neutreeko.model.position import BLACK, WHITE, Colour, Move, Position
from solver.neutreeko.model.values import plies_text
from solver.neutreeko.playing.record import ply_label
from solver.neutreeko.querying import report
from solver.neutreeko.querying.probe import Evaluation, Line, RankedMove, best_moves

#: Arrow and label colour of a move's value (for the player making it): blue and orange (Okabe and Ito's),
#: told apart under the common colour-vision deficiencies, a neutral grey between them; each takes white
#: letters at 4.5:1.
VALUE_COLOURS = {"win": "#0072b2", "draw": "#6e6e6e", "loss": "#c05000"}
LIGHT_SQUARE, DARK_SQUARE, BOARD_EDGE = "#f3ead8", "#e4d4b3", "#8c7853"
LAST_MOVE = "#f5d547"
WINNING_RING = "#f0b400"
PIECE_COLOURS = {BLACK: ("#1e1e1e", "#000000"), WHITE: ("#fdfdfd", "#3c3c3c")}
INK, FAINT_INK = "#222222", "#6b6b6b"

#: Size of a square in pixels: a board diagram, and a board on a line sheet.
CELL, SMALL_CELL = 96, 30


# -- the board ------------------------------------------------------------------------------------

class _Geometry(NamedTuple):
    """Where a board ``width`` x ``height`` squares stands in a scene: its top-left corner and the size of
    a square."""

    left: float
    top: float
    cell: float
    width: int
    height: int

    def centre(self, square: int) -> tuple[float, float]:
        file, rank = square % self.width, square // self.width
        return self.left + (file + 0.5) * self.cell, self.top + (self.height - rank - 0.5) * self.cell


def _board(position: Position, geometry: _Geometry, last_move: Move | None, label_size: float) -> list[Shape]:
    """Squares, the last move's squares, file and rank labels, and the pieces (winning ones ringed)."""
    board, cell = position.game.board, geometry.cell
    shapes: list[Shape] = []
    highlighted = set(last_move) if last_move else set()
    for square in range(board.size):
        x, y = geometry.centre(square)
        light = (board.file_of(square) + board.rank_of(square)) % 2 == 1
        shapes.append(Rect(x - cell / 2, y - cell / 2, cell, cell, LIGHT_SQUARE if light else DARK_SQUARE))
        if square in highlighted:
            shapes.append(Rect(x - cell / 2, y - cell / 2, cell, cell, LAST_MOVE, opacity=0.65))
    shapes.append(Rect(geometry.left, geometry.top, board.width * cell, board.height * cell, "none",
                       BOARD_EDGE, max(1.0, cell / 48)))
    bottom = geometry.top + board.height * cell
    for file in range(board.width):
        shapes.append(Text(geometry.left + (file + 0.5) * cell, bottom + 0.9 * label_size,
                           board.name(file)[0], label_size, FAINT_INK))
    for rank in range(board.height):
        shapes.append(Text(geometry.left - 0.75 * label_size, geometry.top + (board.height - rank - 0.5) * cell,
                           str(rank + 1), label_size, FAINT_INK))
    winner = position.winner()
    for colour, squares in ((BLACK, position.black), (WHITE, position.white)):
        for square in squares:
            shapes.append(_piece(colour, *geometry.centre(square), 0.36 * cell, board.name(square),
                                 ringed=colour == winner))
    return shapes


def _piece(colour: Colour, x: float, y: float, radius: float, square_name: str = "", ringed: bool = False,
           role: str = "piece") -> Group:
    fill, edge = PIECE_COLOURS[colour]
    shapes: list[Shape] = []
    if ringed:
        shapes.append(Circle(x, y, radius * 1.22, "none", WINNING_RING, radius * 0.2))
    shapes.append(Circle(x, y, radius, fill, edge, max(1.0, radius / 12)))
    return Group(f"{role} {colour}", tuple(shapes), f"{colour} {square_name}".strip())


# -- moves ----------------------------------------------------------------------------------------

def _arrow(geometry: _Geometry, move: RankedMove, best: bool) -> tuple[Group, Group]:
    """The arrow of ``move`` and its label, each a group; a best move's arrow is bolder and its label
    filled. The label sits on the shaft just behind the arrowhead, so that it is read where the arrow
    ends, apart from the labels of the other arrows of the same piece."""
    cell, colour = geometry.cell, VALUE_COLOURS[move.value]
    (x1, y1), (x2, y2) = geometry.centre(move.move.origin), geometry.centre(move.move.target)
    length = hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy * 0.09 * cell, ux * 0.09 * cell  # to the right of the direction (y points down)
    start = 0.38 * cell
    head_length, head_half_width = 0.26 * cell, (0.15 if best else 0.11) * cell
    tip_x, tip_y = x2 + nx - ux * 0.06 * cell, y2 + ny - uy * 0.06 * cell
    base_x, base_y = tip_x - ux * head_length, tip_y - uy * head_length
    opacity = 1.0 if best else 0.8
    shaft = Stroke(x1 + nx + ux * start, y1 + ny + uy * start, base_x + ux * 2, base_y + uy * 2, colour,
                   (0.09 if best else 0.05) * cell, opacity=opacity)
    head = Polygon(((tip_x, tip_y), (base_x - uy * head_half_width, base_y + ux * head_half_width),
                    (base_x + uy * head_half_width, base_y - ux * head_half_width)), colour, opacity=opacity)
    tooltip = f"{move.name}: {move.evaluation.move_text()}{' (best)' if best else ''}"
    text, size = move.evaluation.label(), 0.15 * cell
    box_width, box_height = text_width(text, size) + 0.35 * size, 1.45 * size
    behind = abs(ux) * box_width / 2 + abs(uy) * box_height / 2 + 0.03 * cell  # the box's half-length along the shaft
    label_x, label_y = base_x - ux * behind, base_y - uy * behind
    label = (Rect(label_x - box_width / 2, label_y - box_height / 2, box_width, box_height,
                  colour if best else "#ffffff", colour, max(1.0, cell / 64), radius=box_height / 3),
             Text(label_x, label_y, text, size, "#ffffff" if best else colour, bold=True))
    role = f"{move.value} best" if best else move.value
    return Group(f"move {role}", (shaft, head), tooltip), Group(f"distance {role}", label, tooltip)


# -- the legend -----------------------------------------------------------------------------------

def _legend(position: Position, left: float, top: float, width: float, size: float, row: float,
            with_moves: bool, with_last_move: bool) -> tuple[list[Shape], float]:
    """The legend from (left, top) within ``width``: what the arrows are (and the last move's colour)
    on a row, then the three values on the next; a row too long for ``width`` wraps. Returns the
    legend and its height."""
    rows: list[list[tuple[str, str]]] = [[], []]
    if with_moves:
        rows[0].append(("caption", f"{position.side_to_move.capitalize()}'s moves (n: plies from here)"))
        rows[0].append(("best", "bold: best"))
        rows[1] += [("win", "W n = wins in n"), ("draw", "D = draw"), ("loss", "L n = loses in n")]
    if with_last_move:
        rows[0].append(("last", "last move"))
    shapes: list[Shape] = []
    y = top - row / 2
    for entries in filter(None, rows):
        x, y = left, y + row
        for kind, text in entries:
            swatch = 0.0 if kind == "caption" else 2.2 * size
            entry_width = swatch + text_width(text, size) + 1.6 * size
            if x + entry_width > left + width and x > left:
                x, y = left, y + row
            if kind == "last":
                shapes.append(Rect(x + 0.4 * size, y - 0.6 * size, 1.2 * size, 1.2 * size, LAST_MOVE, BOARD_EDGE, 1))
            elif kind != "caption":
                colour, bold = (INK, 1.6) if kind == "best" else (VALUE_COLOURS[kind], 1.0)
                shapes.append(Stroke(x, y, x + 1.2 * size, y, colour, 0.35 * bold * size))
                shapes.append(Polygon(((x + 1.9 * size, y), (x + 1.1 * size, y - 0.45 * bold * size),
                                       (x + 1.1 * size, y + 0.45 * bold * size)), colour))
            shapes.append(Text(x + swatch, y, text, size, INK, anchor="start"))
            x += entry_width
    if not shapes:
        return [], 0.0
    return [Group("legend", tuple(shapes))], y + row / 2 - top


def _header(position: Position, evaluation: Evaluation | None, left: float, y: float, width: float,
            size: float) -> list[Shape]:
    """A piece of the side to move, then the position's value (or just who is to move)."""
    text = report.describe(position, evaluation) if evaluation else f"{position.side_to_move.capitalize()} to move"
    radius = 0.45 * size
    size = min(size, (width - 3 * radius) / max(1.0, text_width(text, 1.0)))
    return [Group("header", (_piece(position.side_to_move, left + radius, y, radius, role="to-move"),
                              Text(left + 2.6 * radius, y, text, size, INK, anchor="start", bold=True)))]


# -- public ---------------------------------------------------------------------------------------

def best_of(moves: Sequence[RankedMove]) -> list[RankedMove]:
    """The best of ``moves`` (in any order): those as good as the best one; the ones a diagram
    emphasises."""
    return best_moves(sorted(moves, key=RankedMove.order_key)) if moves else []


def board_diagram(position: Position, evaluation: Evaluation | None = None, moves: Sequence[RankedMove] = (),
                  last_move: Move | None = None, cell: float = CELL) -> Scene:
    """A diagram of ``position``: its value (``evaluation``, for the side to move) above, every move of
    ``moves`` as an arrow (see the module docstring), ``last_move``'s squares highlighted."""
    board = position.game.board
    label_size = 0.17 * cell
    left, top = 0.36 * cell, 0.66 * cell
    board_width = board.width * cell
    width = round(left + board_width + 0.22 * cell)
    geometry = _Geometry(left, top, cell, board.width, board.height)
    shapes: list[Shape] = _header(position, evaluation, left, top / 2, board_width, 0.2 * cell)
    shapes += _board(position, geometry, last_move, label_size)
    best = best_of(moves)
    arrows = [_arrow(geometry, move, move in best) for move in sorted(moves, key=RankedMove.order_key, reverse=True)]
    shapes += [arrow for arrow, _ in arrows] + [label for _, label in arrows]
    legend_top = top + board.height * cell + 2.0 * label_size
    legend, legend_height = _legend(position, left, legend_top, board_width, 0.135 * cell, 0.3 * cell,
                                    bool(moves), last_move is not None)
    shapes += legend
    fen_y = legend_top + legend_height + 0.2 * cell
    shapes.append(Text(left, fen_y, position.fen(), 0.13 * cell, FAINT_INK, anchor="start"))
    return Scene(width, round(fen_y + 0.2 * cell), tuple(shapes), title=f"Neutreeko {position.fen()}")


class Frame(NamedTuple):
    """One small board of a sheet: a heading (``"12. C3-B4"``, ``"start"``), the position, its value
    for the side to move (or None) and the move that led to it (highlighted)."""

    heading: str
    position: Position
    evaluation: Evaluation | None = None
    last_move: Move | None = None

    def value_text(self) -> str:
        """``"White to move: loses in 2"``, ``"Black has won"``, or ``"White to move"`` without a value."""
        over = game_over(self.position)
        if over is not None and over.winner is not None:
            return f"{over.winner.capitalize()} has won"
        side = self.position.side_to_move.capitalize()
        if self.evaluation is None:
            return f"{side} to move"
        return f"{side} to move: {self.evaluation.move_text()}"

    def colour(self) -> str:
        """The colour of the value text: the value's, or ink for a finished game or no value."""
        if self.evaluation is None or game_over(self.position) is not None:
            return INK
        return VALUE_COLOURS[self.evaluation.value]


def line_frames(line: Line) -> list[Frame]:
    """The position the line starts from, then the position after each ply, headed by the ply's label
    as ``play`` numbers it and its move, marked when forced (``"6... C3-B4 !"``)."""
    frames = [Frame("start", line.position, line.evaluation)]
    frames += [Frame(f"{ply_label(line.position, ply)} {step.name}{' ' + report.FORCED_MARK if step.forced else ''}",
                     step.position, step.evaluation, step.move)
               for ply, step in enumerate(line.steps, 1)]
    return frames


def small_board(frame: Frame, cell: float = SMALL_CELL) -> Scene:
    """The board of one frame with its last move highlighted, and small file and rank labels."""
    board = frame.position.game.board
    label_size = 0.34 * cell
    geometry = _Geometry(0.5 * cell, 0.1 * cell, cell, board.width, board.height)
    shapes = _board(frame.position, geometry, frame.last_move, label_size)
    return Scene(round(0.5 * cell + board.width * cell + 0.1 * cell),
                 round(0.1 * cell + board.height * cell + 1.7 * label_size), tuple(shapes),
                 title=frame.position.fen())


def line_summary(line: Line) -> str:
    """``"Black to move wins in 51 plies; the line: 51 plies, black wins"``."""
    return f"{report.describe(line.position, line.evaluation)}; the line: {plies_text(len(line.steps))}, {line.result}"


def forced_note(line: Line) -> str:
    """What the forced mark means, if the line has a forced move; else empty."""
    return report.FORCED_LEGEND if any(step.forced for step in line.steps) else ""


def _tile(frame: Frame, board: Scene, x: float, y: float, width: float, cell: float) -> Group:
    """One frame of a sheet from (``x``, ``y``), ``width`` wide: its small ``board``, then its heading
    and its value centred under it."""
    caption_size = 0.4 * cell
    centre = x + width / 2
    board_x = centre - board.width / 2 + 0.2 * cell  # the rank labels' room is on the left
    caption_y = y + board.height + 0.8 * caption_size
    return Group("frame", (board.placed(board_x, y, "board"),
                           Text(centre, caption_y, frame.heading, caption_size, INK, bold=True),
                           Text(centre, caption_y + 1.4 * caption_size, frame.value_text(), caption_size,
                                frame.colour())),
                 f"{frame.heading}: {frame.position.fen()}")


def _tile_size(boards: Sequence[Scene], cell: float) -> tuple[float, float]:
    """The width and height of a tile holding the largest of ``boards`` and its captions."""
    caption_size = 0.4 * cell
    return (max(max(board.width for board in boards), text_width("White to move: loses in 50", caption_size))
            + 0.6 * cell, max(board.height for board in boards) + 3.2 * caption_size + 0.5 * cell)


def frame_picture(frame: Frame, cell: float = SMALL_CELL) -> Scene:
    """One frame on its own: the small board, its heading and its value (e.g. a variant's start)."""
    board = small_board(frame, cell)
    width, height = _tile_size([board], cell)
    return Scene(round(width), round(height), (_tile(frame, board, 0, 0.2 * cell, width, cell),),
                 title=frame.position.fen())


def sheet(frames: Sequence[Frame], title: str, summary: str = "", columns: int = 6,
          cell: float = SMALL_CELL, notes: Sequence[str] = ()) -> Scene:
    """``frames`` as small boards, ``columns`` to a row, each with its heading and value under it,
    below a title, a one-line summary and a line for each of ``notes`` (empty ones left out)."""
    notes = [note for note in (summary, *notes) if note]
    boards = [small_board(frame, cell) for frame in frames]
    note_size = 0.42 * cell
    tile_width, tile_height = _tile_size(boards, cell)
    columns = max(1, min(columns, len(frames)))
    margin, header = 0.6 * cell, (1.6 + 0.8 * len(notes)) * cell
    width = round(max(2 * margin + columns * tile_width, 2 * margin + text_width(title, 0.55 * cell),
                      *(2 * margin + text_width(note, note_size) for note in notes)))
    shapes: list[Shape] = [Text(margin, 0.8 * cell, title, 0.55 * cell, INK, anchor="start", bold=True)]
    shapes += [Text(margin, (1.6 + 0.8 * number) * cell, note, note_size, FAINT_INK, anchor="start")
               for number, note in enumerate(notes)]
    shapes += [_tile(frame, board, margin + (number % columns) * tile_width,
                     header + (number // columns) * tile_height, tile_width, cell)
               for number, (frame, board) in enumerate(zip(frames, boards))]
    rows = -(-len(frames) // columns)
    return Scene(width, round(header + rows * tile_height), tuple(shapes), title=title)


def line_sheet(line: Line, columns: int = 6, cell: float = SMALL_CELL) -> Scene:
    """Every frame of ``line`` (see :func:`line_frames`) on a :func:`sheet` titled by its start."""
    return sheet(line_frames(line), f"Perfect play from {line.position.fen()}", line_summary(line), columns, cell,
                 notes=[forced_note(line)])
