"""What a notebook shows of the games' objects: HTML fragments for IPython's ``_repr_html_``, a picture
under its captions and a table, with the standard library only.

A position displays itself as its board diagram (``_repr_svg_``), a line as its sheet of small boards
under its summary and a ranked list of moves as a table, as python-chess's boards do; the games build
those from :func:`picture` and :func:`table`:

>>> print(table(["move", "plies"], [("B1-C1", None), ("B1-B4", 22)]))
<table>
<tr><th>move</th><th>plies</th></tr>
<tr><td>B1-C1</td><td></td></tr>
<tr><td>B1-B4</td><td>22</td></tr>
</table>
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Sequence

from solver.core.drawing import svg
from solver.core.drawing.scene import Scene


def picture(scene: Scene, captions: Iterable[str] = ()) -> str:
    """``scene`` as inline SVG under ``captions`` (plain text, a paragraph each; empty ones left out)."""
    paragraphs = "".join(f"<p>{escape(caption)}</p>\n" for caption in captions if caption)
    return f"<div>\n{paragraphs}{svg.render(scene, declaration=False)}</div>"


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table of ``rows`` under ``headers`` (plain text; None an empty cell)."""
    def cells(tag: str, values: Sequence[object]) -> str:
        return "".join(f"<{tag}>{'' if value is None else escape(str(value))}</{tag}>" for value in values)

    lines = ["<table>", f"<tr>{cells('th', headers)}</tr>", *(f"<tr>{cells('td', row)}</tr>" for row in rows),
             "</table>"]
    return "\n".join(lines)
