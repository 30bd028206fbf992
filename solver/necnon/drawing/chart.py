"""The value-history chart of an annotated NECNON game, as a :class:`~solver.core.drawing.scene.Scene`, drawn as
Neutreeko's is (:mod:`solver.neutreeko.drawing.chart`): turns go down, the margin goes across::

                 Black winning  <-   margin (Black minus Green)   ->  Green winning
                 +3   +2   +1            0            -1   -2   -3
     1. b2       |    .    .             o             .    .    |
                 |    .    .              \\            .    .    |
                 |    .    .               o           .    .    |    2. a1,c3??
     3. b1,c1    |    .    o--------------'            .    .    |

One row per position, the start first, shaded by the side to move. A position's dot stands at its
value, Black's points minus Green's: Black's wins on the left, Green's on the right, draws on the
centre line; an engine's estimates between the lines. A dot and the link that leads to it are
coloured by the winner of that value. Each turn is written in its player's margin, Black's on the
left and Green's on the right, with its sign (``?!`` inaccuracy, ``?`` mistake, ``??`` blunder) in the
colour of its mark (:data:`solver.core.answers.marks.MARK_COLOURS`).
"""

from __future__ import annotations

import math

from solver.core.answers.marks import MARK_COLOURS, chart_legend
from solver.core.drawing.scene import Circle, Group, Rect, Scene, Shape, Text, text_width
from solver.core.drawing.scene import Line as Stroke
from solver.necnon.drawing.diagram import FAINT_INK, INK, WINNER_COLOURS
from solver.necnon.model.position import BLACK, GREEN, Colour
from solver.necnon.model.values import turns_text
from solver.necnon.playing.annotate import Annotation
from solver.necnon.querying.judge import Estimate

#: Row shading by the side to move.
ROW_SHADES = {BLACK: "#e6e6e6", GREEN: "#f3f8f4"}
GRID_LINE, GRID_LINE_STRONG = "#d0d0d0", "#9a9a9a"

ROW = 16.0
FONT = 11.0
GRID_WIDTH = 480.0
MARGIN = 12.0


def _winner(estimate: Estimate) -> Colour | None:
    """Who wins at this value (an estimate within half a point of 0 is a draw)."""
    return BLACK if estimate.margin >= 0.5 else GREEN if estimate.margin <= -0.5 else None


def value_history(annotation: Annotation, title: str = "") -> Scene:
    """The chart of ``annotation`` (see the module docstring), titled ``title`` (default: the game, who
    judged it and its result)."""
    record = annotation.record
    positions = list(record.positions)
    values = [turn.before for turn in annotation.turns] + [annotation.end_value]
    widest = max([math.ceil(abs(value.margin)) for value in values] + [2])
    column = GRID_WIDTH / (2 * widest)
    labels = [f"{turn.number}. {turn.play}{turn.mark.symbol}" for turn in annotation.turns]
    margin = max([text_width(label, FONT) for label in labels] + [60.0]) + 2 * MARGIN
    left, top = margin, 86.0
    right, centre = left + GRID_WIDTH, left + GRID_WIDTH / 2
    bottom = top + len(positions) * ROW
    width = round(2 * margin + GRID_WIDTH)

    result = "not over" if record.result == "*" else record.result
    title = title or f"NECNON {record.start.game}: {turns_text(len(annotation.turns))}, {result}"
    shapes: list[Shape] = [Text(width / 2, 16, title, 14, INK, bold=True),
                           Text(left, 38, "<- Black winning", FONT, INK, anchor="start", bold=True),
                           Text(right, 38, "Green winning ->", FONT, INK, anchor="end", bold=True),
                           Text(centre, 38, "margin (Black's points minus Green's)", FONT, FAINT_INK),
                           Text(centre, 54, f"judged by {annotation.judge}", FONT - 1, FAINT_INK)]
    for row, position in enumerate(positions):
        shapes.append(Rect(left, top + row * ROW, GRID_WIDTH, ROW, ROW_SHADES[position.side_to_move]))
    for margin_line in range(-widest, widest + 1):
        x = centre - margin_line * column
        strong = margin_line == 0 or abs(margin_line) == widest
        tick = f"{margin_line:+d}" if margin_line else "0"
        shapes += [Stroke(x, top, x, bottom, GRID_LINE_STRONG if strong else GRID_LINE, 1.0 if strong else 0.5),
                   Text(x, top - 10, tick, FONT - 2, FAINT_INK), Text(x, bottom + 10, tick, FONT - 2, FAINT_INK)]
    xs = [centre - value.margin * column for value in values]
    ys = [top + (row + 0.5) * ROW for row in range(len(positions))]
    for row, turn in enumerate(annotation.turns):
        link = Stroke(xs[row], ys[row], xs[row + 1], ys[row + 1], WINNER_COLOURS[_winner(values[row + 1])], 2.2)
        label_x = left - MARGIN if turn.side == BLACK else right + MARGIN
        label = Text(label_x, ys[row], labels[row], FONT, MARK_COLOURS[turn.mark],
                     anchor="end" if turn.side == BLACK else "start", bold=turn.mark.decisive)
        shapes.append(Group(f"turn {turn.mark.value}", (link, label), f"{turn.verdict()} by {turn.side.capitalize()}"))
    for row, (x, y, value, position) in enumerate(zip(xs, ys, values, positions)):
        where = "start" if row == 0 else labels[row - 1]
        tooltip = f"{where}: {position.side_to_move.capitalize()} to move, {value.text()}"
        shapes.append(Group("position", (Circle(x, y, 4.2, WINNER_COLOURS[_winner(value)], "#ffffff", 1.2),),
                            tooltip))
    shapes += _legend(left, bottom + 30)
    return Scene(width, round(bottom + 76), tuple(shapes), title=title)


def _legend(left: float, y: float) -> list[Shape]:
    """Two rows: the dot colours; the marks' signs."""
    dots = [(WINNER_COLOURS[winner], name) for winner, name in ((BLACK, "Black wins"), (None, "draw"), (GREEN, "Green wins"))]
    return chart_legend(left, y, "dot: a position's value; line: the turn that led to it", dots, FONT, INK, FAINT_INK)
