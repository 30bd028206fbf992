"""Pictures of NECNON positions and lines as :class:`~solver.core.drawing.scene.Scene` objects: square cells drawn
as squares, hexagonal cells as hexagons (pointy side up, rows of cells horizontal).

A board diagram (:func:`board_diagram`)::

    [b] Black to move: Black by 2 in 5 turns      the header: the side to move and the value
    +-----------------------+
    | +2  | (b) | x   | 0   |                       stones; the last turn's ringed in yellow; on each
    |  ...                  |                       cell the side to move may play, the best value
    +-----------------------+                       (Black minus Green) of a turn laying a stone there,
    legend                                          in green where it keeps the position's value; the
    2b1/g3/4/3g b                                   best turn's cells outlined; forbidden cells crossed

When the game is over, smothered groups are struck through in red and the header gives the score.
A line sheet (:func:`line_sheet`) is a grid of small boards, one per turn of a line, each with the
turn and the value after it.
"""

from __future__ import annotations

from math import cos, pi, sin, sqrt
from typing import Sequence

from solver.core.drawing.scene import Circle, Group, Polygon, Rect, Scene, Shape, Text, text_width
from solver.core.drawing.scene import Line as Stroke
from solver.necnon.model.grid import Cell
from solver.necnon.model.position import BLACK, GREEN, Colour, Position, Turn
from solver.necnon.model.values import Evaluation
from solver.necnon.querying import report
from solver.necnon.querying.probe import Line, RankedTurn

CELL_FILL, CELL_EDGE = "#efe3c8", "#8c7853"
STONE_COLOURS = {BLACK: ("#1e1e1e", "#000000"), GREEN: ("#2f9e5b", "#17633a")}
LAST_TURN = "#f0b400"
KEEPS, LOSES, SMOTHERED = "#2166ac", "#8a8a8a", "#d55e00"
#: Caption colour of a value by its winner (None: a draw).
WINNER_COLOURS = {BLACK: "#1e1e1e", GREEN: "#17633a", None: "#6b6b6b"}
INK, FAINT_INK = "#222222", "#7a7060"

#: Width of a cell in pixels: a board diagram, and a board on a line sheet.
CELL, SMALL_CELL = 80, 28


def _cell_outline(position: Position, cell: Cell, left: float, top: float, size: float) -> tuple[float, float,
                                                                                                 Shape]:
    """The centre of ``cell`` and its shape (square or hexagon), on a board drawn from (left, top)."""
    x, y = position.game.grid.centre(cell)
    x, y = left + x * size, top + y * size
    if position.game.grid.kind == "square":
        return x, y, Rect(x - size / 2, y - size / 2, size, size, CELL_FILL, CELL_EDGE, max(1.0, size / 40))
    radius = size / sqrt(3)
    corners = tuple((x + radius * cos(pi / 2 + k * pi / 3), y - radius * sin(pi / 2 + k * pi / 3)) for k in range(6))
    return x, y, Polygon(corners, CELL_FILL, stroke=CELL_EDGE, stroke_width=max(1.0, size / 40))


def _stone(colour: Colour, x: float, y: float, radius: float, name: str, ringed: bool = False) -> Group:
    fill, edge = STONE_COLOURS[colour]
    shapes: list[Shape] = []
    if ringed:
        shapes.append(Circle(x, y, radius * 1.2, "none", LAST_TURN, radius * 0.22))
    shapes.append(Circle(x, y, radius, fill, edge, max(1.0, radius / 12)))
    return Group(f"stone {colour}", tuple(shapes), f"{colour} {name}")


def _board(position: Position, left: float, top: float, size: float, last: Turn | None,
           ranked: Sequence[RankedTurn] = (), names: bool = True) -> list[Shape]:
    """Cells, stones (the last turn's ringed), smothered groups struck through at the end, and on each
    cell the side to move may play the best value of a turn there (from ``ranked``), or a cross on a
    forbidden one."""
    grid = position.game.grid
    shapes: list[Shape] = []
    centres = {}
    for cell in range(grid.cells):
        x, y, outline = _cell_outline(position, cell, left, top, size)
        centres[cell] = (x, y)
        shapes.append(Group("cell", (outline,), grid.name(cell)))
    placed = set(last.cells) if last else set()
    for cell in range(grid.cells):
        colour = position.stone(cell)
        if colour is not None:
            shapes.append(_stone(colour, *centres[cell], 0.36 * size, grid.name(cell), ringed=cell in placed))
    if position.over:
        for group in position.groups():
            if group.smothered:
                shapes.append(_struck(group.colour, [centres[cell] for cell in group.cells], size))
        return shapes
    best_here = _best_by_cell(ranked)
    allowed = set(position.allowed())
    keeps = ranked[0].evaluation.margin if ranked else None
    best_cells = set(ranked[0].turn.cells) if ranked else set()
    for cell in range(grid.cells):
        if position.stone(cell) is not None:
            continue
        x, y = centres[cell]
        if cell not in allowed:
            arm = 0.11 * size
            shapes.append(Group("forbidden", (Stroke(x - arm, y - arm, x + arm, y + arm, LOSES, size / 30),
                                              Stroke(x - arm, y + arm, x + arm, y - arm, LOSES, size / 30)),
                                f"{grid.name(cell)}: forbidden to {position.side_to_move}"))
            continue
        if cell in best_here:
            value = best_here[cell]
            kept = value.margin == keeps
            ring = (Circle(x, y - 0.06 * size, 0.22 * size, "none", KEEPS, size / 24),) if cell in best_cells else ()
            shapes.append(Group(f"option {'keeps' if kept else 'worse'}",
                                (*ring, Text(x, y - 0.06 * size, value.label(), 0.22 * size, KEEPS if kept else LOSES,
                                             bold=True)),
                                f"{grid.name(cell)}: at best {value.terse()}"))
        if names:
            shapes.append(Text(x, y + 0.3 * size, grid.name(cell), 0.14 * size, FAINT_INK))
    return shapes


def _best_by_cell(ranked: Sequence[RankedTurn]) -> dict[Cell, Evaluation]:
    """For each cell some turn lays a stone on, the value of the best such turn."""
    best: dict[Cell, Evaluation] = {}
    for entry in ranked:  # best first
        for cell in entry.turn.cells:
            best.setdefault(cell, entry.evaluation)
    return best


def _struck(colour: Colour, centres: list[tuple[float, float]], size: float) -> Group:
    """A red stroke across each stone of a smothered group."""
    arm = 0.3 * size
    strokes = tuple(Stroke(x - arm, y + arm, x + arm, y - arm, SMOTHERED, size / 14) for x, y in centres)
    return Group(f"smothered {colour}", strokes, f"smothered {colour} group of {len(centres)}")


def _header(position: Position, evaluation: Evaluation | None, left: float, y: float, size: float) -> list[Shape]:
    if evaluation is None:
        text = "game over" if position.over else f"{position.side_to_move.capitalize()} to move"
    else:
        text = report.describe(position, evaluation)
    if position.over:
        text += f" ({report.points_text(position)})"
    if position.over:
        return [Group("header", (Text(left, y, text, size, INK, anchor="start", bold=True),))]
    radius = 0.45 * size
    return [Group("header", (_stone(position.side_to_move, left + radius, y, radius, "to move"),
                             Text(left + 2.6 * radius, y, text, size, INK, anchor="start", bold=True)))]


def board_diagram(position: Position, evaluation: Evaluation | None = None, ranked: Sequence[RankedTurn] = (),
                  last: Turn | None = None, cell: float = CELL) -> Scene:
    """A diagram of ``position``: its value (``evaluation``) above, the best value of a turn on each
    cell the side to move may play (from ``ranked``, best first), ``last``'s stones ringed."""
    grid = position.game.grid
    board_width, board_height = (extent * cell for extent in grid.extent())
    left, top = 0.4 * cell, 0.8 * cell
    shapes: list[Shape] = _header(position, evaluation, left, top / 2, 0.22 * cell)
    shapes += _board(position, left, top, cell, last, ranked)
    y = top + board_height + 0.3 * cell
    legend = []
    if not position.over:
        legend.append(f"on each cell {position.side_to_move.capitalize()} may play: the best value (Black minus "
                      f"Green) of a turn there" if ranked else f"x: forbidden to {position.side_to_move.capitalize()}")
        if ranked:
            legend.append("blue: keeps the position's value; ringed: the best turn; x: forbidden")
    else:
        legend.append("struck through: smothered groups (each stone a point for the other colour)")
    if last is not None:
        legend.append("yellow rings: the last turn")
    for text in legend:
        shapes.append(Text(left, y, text, 0.16 * cell, INK, anchor="start"))
        y += 0.26 * cell
    shapes.append(Text(left, y + 0.05 * cell, position.notation(), 0.16 * cell, FAINT_INK, anchor="start"))
    width = max(left + board_width + 0.4 * cell, *(left + text_width(text, 0.16 * cell) + 0.4 * cell
                                                    for text in [*legend, position.notation()]))
    return Scene(round(width), round(y + 0.35 * cell), tuple(shapes),
                 title=f"NECNON {position.game} {position.notation()}")


def small_board(position: Position, last: Turn | None = None, cell: float = SMALL_CELL) -> Scene:
    """A board without labels: cells, stones, the last turn ringed, smothered groups struck through."""
    board_width, board_height = position.game.grid.extent()
    margin = 0.1 * cell
    return Scene(round(board_width * cell + 2 * margin), round(board_height * cell + 2 * margin),
                 tuple(_board(position, margin, margin, cell, last, names=False)), title=position.notation())


def line_summary(line: Line) -> str:
    """``"Black to move: Green by 1 in 5 turns; result: Green wins by 1, ..."``: the start's value and how the
    line ends."""
    return f"{report.describe(line.position, line.evaluation)}; result: {line.result}, {report.final_score(line.end)}"


def line_sheet(line: Line, columns: int = 6, cell: float = SMALL_CELL) -> Scene:
    """The start of ``line`` and the position after each of its turns as small boards, ``columns`` to a
    row, each with its caption (the turn and the value after it), under a title and the result."""
    frames: list[tuple[str, Position, Turn | None, Evaluation]] = [("start", line.position, None, line.evaluation)]
    befores = [line.position, *(step.position for step in line.steps)]
    frames += [(f"{number}. {before.side_to_move.capitalize()} {step.name}", step.position, step.turn,
                step.evaluation) for number, (step, before) in enumerate(zip(line.steps, befores), 1)]
    boards = [small_board(position, last, cell) for _, position, last, _ in frames]
    caption = 0.42 * cell
    tile_width = max(max(board.width for board in boards), text_width("Green by 12 in 10 turns", caption)) + 0.6 * cell
    tile_height = max(board.height for board in boards) + 3.4 * caption + 0.4 * cell
    columns = max(1, min(columns, len(frames)))
    margin, header = 0.6 * cell, 2.4 * cell
    title = f"NECNON {line.position.game}: perfect play from {line.position.notation()}"
    summary = line_summary(line)
    width = round(max(2 * margin + columns * tile_width, 2 * margin + text_width(title, 0.55 * cell),
                      2 * margin + text_width(summary, 0.42 * cell)))
    shapes: list[Shape] = [Text(margin, 0.8 * cell, title, 0.55 * cell, INK, anchor="start", bold=True),
                           Text(margin, 1.6 * cell, summary, 0.42 * cell, FAINT_INK, anchor="start")]
    for number, ((heading, position, _, evaluation), board) in enumerate(zip(frames, boards)):
        x = margin + (number % columns) * tile_width
        y = header + (number // columns) * tile_height
        centre = x + tile_width / 2
        below = y + board.height + 0.8 * caption
        value = evaluation.terse() if not position.over else f"over: {evaluation.result()}"
        colour = WINNER_COLOURS[evaluation.winner]
        shapes.append(Group("frame", (board.placed(centre - board.width / 2, y, "board"),
                                      Text(centre, below, heading, caption, INK, bold=True),
                                      Text(centre, below + 1.4 * caption, value, caption, colour)),
                            f"{heading}: {position.notation()}"))
    rows = -(-len(frames) // columns)
    return Scene(width, round(header + rows * tile_height), tuple(shapes), title=title)
