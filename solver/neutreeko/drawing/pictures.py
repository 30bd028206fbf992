"""Pictures of a Neutreeko position, line or game as file contents: a board diagram as SVG, PNG or an HTML
page (the diagram and the table of moves), the value-history chart of an annotated game as SVG or PNG, a
line as a sheet of small boards (SVG or PNG) or as an HTML page of them, each with its caption, in a grid
that flows with the window. The drawing itself is :mod:`solver.neutreeko.drawing.diagram`'s, the same in every
format.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from solver.core.drawing import svg
from solver.core.drawing.pictures import encode
from solver.neutreeko.drawing import chart, diagram
from solver.neutreeko.model.position import Move, Position
from solver.neutreeko.playing.annotate import Annotation
from solver.neutreeko.querying import report
from solver.neutreeko.querying.probe import Evaluation, Line, RankedMove


def position_picture(position: Position, evaluation: Evaluation | None, moves: Sequence[RankedMove],
                     last_move: Move | None = None, format: str = "svg") -> bytes:
    """The board diagram of ``position`` (see :func:`solver.neutreeko.drawing.diagram.board_diagram`) as an
    ``svg``, ``png`` or ``html`` file's bytes."""
    scene = diagram.board_diagram(position, evaluation, moves, last_move)
    if format == "html":
        return position_page(position, evaluation, moves, svg.render(scene, declaration=False)).encode("utf-8")
    return encode(scene, format)


def line_picture(line: Line, format: str = "svg") -> bytes:
    """The sheet of ``line`` (one small board per ply) as an ``svg``, ``png`` or ``html`` file's bytes."""
    if format == "html":
        return line_page(line).encode("utf-8")
    return encode(diagram.line_sheet(line), format)


def annotation_picture(annotation: Annotation, format: str = "svg") -> bytes:
    """The value-history chart of ``annotation`` (see :mod:`solver.neutreeko.drawing.chart`) as file bytes."""
    return encode(chart.value_history(annotation), format)


_PAGE_STYLE = """\
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; color: #222; margin: 2em; }
h1 { font-size: 1.3em; } code { font-size: 1.05em; }
.frames { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 1.4em 1em; }
figure { margin: 0; text-align: center; }
figcaption { font-size: 0.85em; margin-top: 0.2em; line-height: 1.5; }
.move { font-weight: bold; }
table { border-collapse: collapse; } td, th { padding: 0.15em 0.8em; text-align: left; }
tr.best td { font-weight: bold; }
""" + "".join(f".{value} {{ color: {colour}; }}\n" for value, colour in diagram.VALUE_COLOURS.items())


def _page(title: str, body: list[str]) -> str:
    """A standalone HTML page: ``title`` (plain text) and ``body`` (HTML lines)."""
    return "\n".join(["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      f"<title>{escape(title)}</title>", f"<style>\n{_PAGE_STYLE}</style>", "</head>", "<body>",
                      *body, "</body>", "</html>", ""])


def position_page(position: Position, evaluation: Evaluation | None, moves: Sequence[RankedMove],
                  board: str) -> str:
    """A standalone HTML page of ``position``: the diagram ``board`` (inline SVG), the value and a table
    of the moves drawn, best first (the best ones in bold)."""
    fen = escape(position.fen())
    value = f"<p>{escape(report.describe(position, evaluation))}.</p>" if evaluation else ""
    rows = []
    best = diagram.best_of(moves)
    for move in sorted(moves, key=RankedMove.order_key):
        row = '<tr class="best">' if move in best else "<tr>"
        rows.append(f'{row}<td>{escape(move.name)}</td>'
                    f'<td class="{move.value}">{escape(move.evaluation.move_text())}</td></tr>')
    table = ([f"<table><tr><th>move</th><th>value for {position.side_to_move.capitalize()}, plies from here</th>"
              "</tr>", *rows, "</table>"] if rows else [])
    return _page(f"Neutreeko: {position.fen()}",
                 [f"<h1>Neutreeko <code>{fen}</code></h1>", value, f"<figure>\n{board}</figure>", *table])


def line_page(line: Line) -> str:
    """A standalone HTML page of ``line``: a title, its value and result, then a figure per frame."""
    fen = escape(line.position.fen())
    figures = []
    for frame in diagram.line_frames(line):
        board = svg.render(diagram.small_board(frame), declaration=False)
        value = frame.evaluation.value if frame.evaluation else ""
        figures.append(f'<figure class="frame">\n{board}<figcaption><span class="move">{escape(frame.heading)}'
                       f'</span><br><span class="{value}">{escape(frame.value_text())}</span>'
                       f'</figcaption></figure>')
    summary = escape(diagram.line_summary(line) + ".")
    forced = diagram.forced_note(line)
    return _page(f"Neutreeko: perfect play from {line.position.fen()}", [
        f"<h1>Perfect play from <code>{fen}</code></h1>", f"<p>{summary} Under each board: the "
        f"move just played and the value of the position for the side to move, in plies."
        f"{' ' + escape(forced) + '.' if forced else ''}</p>",
        '<div class="frames">', *figures, "</div>"])
