"""The value-history chart of an annotated game, as a :class:`~solver.core.drawing.scene.Scene`, in the style of
GamesCrafters' GamesmanUni: plies go down, remoteness goes across::

                 Black winning  <-        remoteness        ->  White winning
                 0    5    10 ...          D          ... 10    5    0
     1. B1-C1    |    .    .               o               .    .    |
                 |    .    .              /                .    .    |
                 |    .    .             o                 .    .    |    1... C2-C3
     2. C4-C3?   |    .    .             o-------.         .    .    |
                 |    .    .                      `------o .    .    |    2... D5-D2

One row per position, the start first, shaded by the side to move. A position's dot stands on the
side of the player who wins it, as many columns in from that edge as the win takes plies (remoteness 0
at the edges: the game is over); drawn positions on the centre line. A dot is coloured by the value
for the side to move there, a link between two dots by the value of the move for the player who made
it (green win, grey draw, red loss, the colours of :mod:`solver.neutreeko.drawing.diagram`). Each move is
written in its player's margin, Black's on the left and White's on the right, with its sign
(``?!`` inaccuracy, ``?`` mistake, ``??`` blunder) and in the colour of its mark.
"""

from __future__ import annotations

from solver.core.answers.marks import MARK_COLOURS, chart_legend
from solver.core.drawing.scene import Circle, Group, Rect, Scene, Shape, Text, text_width
from solver.core.drawing.scene import Line as Stroke
from solver.neutreeko.drawing.diagram import FAINT_INK, INK, VALUE_COLOURS
from solver.neutreeko.model.position import BLACK, Colour, Position
from solver.neutreeko.model.values import Evaluation, plies_text
from solver.neutreeko.playing.annotate import Annotation

#: Row shading by the side to move.
ROW_SHADES = {"black": "#e6e6e6", "white": "#fbfbfb"}
GRID_LINE, GRID_LINE_STRONG = "#d0d0d0", "#9a9a9a"

ROW = 16.0
FONT = 11.0
GRID_WIDTH = 560.0
MARGIN = 12.0


def _x(evaluation: Evaluation, to_move: Colour, left: float, column: float, centre: float, right: float) -> float:
    """Where a position of this value for ``to_move`` stands across: on its winner's side, as many
    columns in from that edge as its plies; draws on the centre line."""
    if evaluation.plies is None:
        return centre
    winner = to_move if evaluation.value == "win" else ("white" if to_move == BLACK else "black")
    return left + evaluation.plies * column if winner == BLACK else right - evaluation.plies * column


def value_history(annotation: Annotation, title: str = "") -> Scene:
    """The chart of ``annotation`` (see the module docstring), titled ``title`` (default: the game and
    its result)."""
    # A position's value for its side to move is the value of its best move, ``before``.
    positions: list[Position] = [ply.position for ply in annotation.plies] + [annotation.end]
    values = [ply.before for ply in annotation.plies] + [annotation.end_evaluation]
    deepest = max([value.plies or 0 for value in values] + [5])
    column = min(24.0, max(4.0, GRID_WIDTH / (2 * (deepest + 1))))
    labels = [f"{ply.number} {ply.move}{ply.mark.symbol}" for ply in annotation.plies]
    margin = max([text_width(label, FONT) for label in labels] + [60.0]) + 2 * MARGIN
    grid_width = 2 * (deepest + 1) * column
    left, top = margin, 86.0
    right, centre = left + grid_width, left + grid_width / 2
    bottom = top + len(positions) * ROW
    width = round(2 * margin + grid_width)

    title = title or (f"Neutreeko {annotation.start.game}: {plies_text(len(annotation.plies))}, "
                      f"{'not over' if annotation.result == '*' else annotation.result}")
    shapes: list[Shape] = [Text(width / 2, 16, title, 14, INK, bold=True),
                           Text(left, 38, "<- Black winning", FONT, INK, anchor="start", bold=True),
                           Text(right, 38, "White winning ->", FONT, INK, anchor="end", bold=True),
                           Text(centre, 38, "remoteness (plies to the end)", FONT, FAINT_INK)]
    # Rows shaded by the side to move, then the remoteness grid and its labels, top and bottom.
    for row, position in enumerate(positions):
        shapes.append(Rect(left, top + row * ROW, grid_width, ROW, ROW_SHADES[position.side_to_move]))
    step = next(step for step in (1, 2, 5, 10, 20) if step * column >= 2.2 * FONT)
    for plies in range(deepest + 1):
        strong = plies % step == 0
        for x in (left + plies * column, right - plies * column):
            shapes.append(Stroke(x, top, x, bottom, GRID_LINE_STRONG if strong else GRID_LINE, 1.0 if strong else 0.5))
            if strong:
                shapes += [Text(x, top - 10, str(plies), FONT - 2, FAINT_INK),
                           Text(x, bottom + 10, str(plies), FONT - 2, FAINT_INK)]
    shapes += [Stroke(centre, top, centre, bottom, GRID_LINE_STRONG, 1.0),
               Text(centre, top - 10, "D", FONT - 1, FAINT_INK, bold=True),
               Text(centre, bottom + 10, "D", FONT - 1, FAINT_INK, bold=True)]
    # Links (the moves), then dots (the positions) on top of them, then the moves' labels.
    xs = [_x(value, position.side_to_move, left, column, centre, right) for value, position in zip(values, positions)]
    ys = [top + (row + 0.5) * ROW for row in range(len(positions))]
    for row, ply in enumerate(annotation.plies):
        link = Stroke(xs[row], ys[row], xs[row + 1], ys[row + 1], VALUE_COLOURS[ply.after.value], 2.2)
        label_x = left - MARGIN if ply.side == BLACK else right + MARGIN
        label = Text(label_x, ys[row], labels[row], FONT, MARK_COLOURS[ply.mark],
                     anchor="end" if ply.side == BLACK else "start", bold=ply.mark.decisive)
        tooltip = f"{ply.verdict()} by {ply.side.capitalize()}"
        shapes.append(Group(f"move {ply.mark.value}", (link, label), tooltip))
    for row, (x, y, value, position) in enumerate(zip(xs, ys, values, positions)):
        tooltip = f"{'start' if row == 0 else annotation.plies[row - 1].number + ' ' + annotation.plies[row - 1].move}:" \
                  f" {position.side_to_move.capitalize()} to move, {value.terse()}"
        shapes.append(Group(f"position {value.value}", (Circle(x, y, 4.2, VALUE_COLOURS[value.value], "#ffffff", 1.2),),
                            tooltip))
    shapes += _legend(left, bottom + 30)
    return Scene(width, round(bottom + 76), tuple(shapes), title=title)


def _legend(left: float, y: float) -> list[Shape]:
    """Two rows: the dot and link colours; the marks' signs."""
    return chart_legend(left, y, "dot: value for the side to move; line: value of the move for its player",
                        [(colour, value) for value, colour in VALUE_COLOURS.items()], FONT, INK, FAINT_INK)
