"""The pages' files: the package's own ``static/`` files, read once, and ``palette.css``, the colours of
the board diagrams of both games (:mod:`solver.neutreeko.drawing.diagram`, :mod:`solver.necnon.drawing.diagram`) as CSS
custom properties, so that the pages and the pictures share one palette.

The server answers only the paths of :func:`assets` (a fixed table, never a path on disk made from a
request), so nothing outside these files can be reached.
"""

from __future__ import annotations

from importlib import resources
from typing import NamedTuple

from solver.necnon.drawing import diagram as necnon_diagram
from solver.neutreeko.drawing import diagram
from solver.neutreeko.model.position import BLACK, WHITE


class Asset(NamedTuple):
    """A file the server answers with: its bytes and its media type."""

    content: bytes
    media_type: str


#: The static files, by URL path, with their media types.
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/explorer.css": ("explorer.css", "text/css; charset=utf-8"),
    "/explorer.js": ("explorer.js", "text/javascript; charset=utf-8"),
    "/tree.js": ("tree.js", "text/javascript; charset=utf-8"),
    "/stats.js": ("stats.js", "text/javascript; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/train": ("train.html", "text/html; charset=utf-8"),
    "/train.js": ("train.js", "text/javascript; charset=utf-8"),
    "/train.css": ("train.css", "text/css; charset=utf-8"),
    "/necnon": ("necnon.html", "text/html; charset=utf-8"),
    "/necnon.js": ("necnon.js", "text/javascript; charset=utf-8"),
    "/necnon.css": ("necnon.css", "text/css; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}


def palette_css() -> str:
    """The diagrams' colours as CSS custom properties on ``:root``."""
    colours = {
        **diagram.VALUE_COLOURS,
        "light-square": diagram.LIGHT_SQUARE, "dark-square": diagram.DARK_SQUARE, "board-edge": diagram.BOARD_EDGE,
        "last-move": diagram.LAST_MOVE, "winning-ring": diagram.WINNING_RING,
        "black-piece": diagram.PIECE_COLOURS[BLACK][0], "black-edge": diagram.PIECE_COLOURS[BLACK][1],
        "white-piece": diagram.PIECE_COLOURS[WHITE][0], "white-edge": diagram.PIECE_COLOURS[WHITE][1],
        "ink": diagram.INK, "faint-ink": diagram.FAINT_INK,
    }
    (black, black_edge), (green, green_edge) = (necnon_diagram.STONE_COLOURS[colour] for colour in ("black", "green"))
    colours.update({
        "necnon-cell": necnon_diagram.CELL_FILL, "necnon-cell-edge": necnon_diagram.CELL_EDGE,
        "necnon-black": black, "necnon-black-edge": black_edge, "necnon-green": green, "necnon-green-edge": green_edge,
        "necnon-last-turn": necnon_diagram.LAST_TURN, "necnon-keeps": necnon_diagram.KEEPS,
        "necnon-loses": necnon_diagram.LOSES, "necnon-smothered": necnon_diagram.SMOTHERED,
        "necnon-faint-ink": necnon_diagram.FAINT_INK,
    })
    lines = [f"  --{name}: {colour};" for name, colour in colours.items()]
    return ("/* The colours of the board diagrams (solver/neutreeko/drawing/diagram.py, solver/necnon/drawing/diagram.py). */\n"
            ":root {\n" + "\n".join(lines) + "\n}\n")


def assets() -> dict[str, Asset]:
    """Every file the server answers with, by URL path."""
    folder = resources.files(__package__ or "solver.web") / "static"
    table = {path: Asset(folder.joinpath(name).read_bytes(), media_type)
             for path, (name, media_type) in STATIC.items()}
    table["/palette.css"] = Asset(palette_css().encode(), "text/css; charset=utf-8")
    return table
