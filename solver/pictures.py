"""Pictures of a position or a line as file contents, in a format, and writing them safely.

Formats: ``svg`` (:mod:`solver.svg`), ``png`` (:mod:`solver.png`, through matplotlib) and, for a
line, ``html``: a page of the line's small boards as inline SVG, each with its caption, in a grid that
flows with the window. The drawing itself is :mod:`solver.diagram`'s, the same in every format.

The command line writes them with :func:`solver.files.write_atomically`.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Sequence

from solver import diagram, png, svg
from solver.errors import NeutreekoError
from solver.position import Move, Position
from solver.probe import Evaluation, Line, RankedMove
from solver.scene import Scene

#: Each format and the file suffixes that name it (the first is the usual one).
FORMATS = {"svg": (".svg",), "png": (".png",), "html": (".html", ".htm")}


class PictureFormatError(NeutreekoError, ValueError):
    """An unknown picture format, or a file name whose suffix names another format."""


def check_format(path: Path | str, format: str) -> None:
    """Raise :class:`PictureFormatError` unless ``format`` is known and ``path`` has no suffix or one
    of the format's (any case): ``--png board.jpg`` is refused rather than written as PNG."""
    if format not in FORMATS:
        raise PictureFormatError(f"unknown picture format {format!r}; known formats: {', '.join(FORMATS)}")
    suffix = Path(path).suffix.lower()
    if suffix and suffix not in FORMATS[format]:
        named = next((name for name, suffixes in FORMATS.items() if suffix in suffixes), None)
        hint = f"; it names {named.upper()}, written with --{named}" if named else ""
        raise PictureFormatError(f"{path}: {format.upper()} files end in {' or '.join(FORMATS[format])}, "
                                 f"not {suffix}{hint}")


def encode(scene: Scene, format: str) -> bytes:
    """``scene`` as an ``svg`` or ``png`` file's bytes."""
    if format == "svg":
        return svg.render(scene).encode("utf-8")
    if format == "png":
        return png.render(scene)
    raise PictureFormatError(f"a single picture is svg or png, not {format!r}")


def position_picture(position: Position, evaluation: Evaluation | None, moves: Sequence[RankedMove],
                     last_move: Move | None = None, format: str = "svg") -> bytes:
    """The board diagram of ``position`` (see :func:`solver.diagram.board_diagram`) as file bytes."""
    return encode(diagram.board_diagram(position, evaluation, moves, last_move), format)


def line_picture(line: Line, format: str = "svg") -> bytes:
    """The sheet of ``line`` (one small board per ply) as an ``svg``, ``png`` or ``html`` file's bytes."""
    if format == "html":
        return line_page(line).encode("utf-8")
    return encode(diagram.line_sheet(line), format)


_PAGE_STYLE = """\
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; color: #222; margin: 2em; }
h1 { font-size: 1.3em; } code { font-size: 1.05em; }
.frames { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 1.4em 1em; }
figure { margin: 0; text-align: center; }
figcaption { font-size: 0.85em; margin-top: 0.2em; line-height: 1.5; }
.move { font-weight: bold; }
""" + "".join(f".{value} {{ color: {colour}; }}\n" for value, colour in diagram.VALUE_COLOURS.items())


def line_page(line: Line) -> str:
    """A standalone HTML page of ``line``: a title, its value and result, then a figure per frame."""
    fen = escape(line.position.fen())
    figures = []
    for frame in diagram.line_frames(line):
        board = svg.render(diagram.small_board(frame), declaration=False)
        figures.append(f'<figure class="frame">\n{board}<figcaption><span class="move">{escape(frame.heading)}'
                       f'</span><br><span class="{frame.evaluation.value}">{escape(frame.value_text())}</span>'
                       f'</figcaption></figure>')
    summary = escape(diagram.line_summary(line) + ".")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>Neutreeko: perfect play from {fen}</title>", f"<style>\n{_PAGE_STYLE}</style>", "</head>",
        "<body>", f"<h1>Perfect play from <code>{fen}</code></h1>", f"<p>{summary} Under each board: the "
        f"move just played and the value of the position for the side to move, in plies.</p>",
        '<div class="frames">', *figures, "</div>", "</body>", "</html>", ""])
