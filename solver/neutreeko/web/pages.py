"""Neutreeko's pages in the explorer: the explorer (``/``) and training (``/train``), their files in
``static/`` beside this module, and the colours of its diagrams as the pages' palette."""

from __future__ import annotations

from solver.neutreeko.drawing import diagram
from solver.neutreeko.model.position import BLACK, WHITE

#: The game's static files, by URL path, with their media types.
PAGES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/explorer.js": ("explorer.js", "text/javascript; charset=utf-8"),
    "/stats.js": ("stats.js", "text/javascript; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/rules.md": ("rules.md", "text/markdown; charset=utf-8"),
    "/train": ("train.html", "text/html; charset=utf-8"),
    "/train.js": ("train.js", "text/javascript; charset=utf-8"),
    "/train.css": ("train.css", "text/css; charset=utf-8"),
}

#: The pages the in-browser reader answers for on a static site (``neutreeko site``); training needs
#: a server.
STATIC_PAGES = frozenset({"/"})

def palette() -> dict[str, str]:
    """The diagrams' colours (:mod:`solver.neutreeko.drawing.diagram`), by CSS custom property name."""
    return {
        **diagram.VALUE_COLOURS,
        "light-square": diagram.LIGHT_SQUARE, "dark-square": diagram.DARK_SQUARE, "board-edge": diagram.BOARD_EDGE,
        "last-move": diagram.LAST_MOVE, "winning-ring": diagram.WINNING_RING,
        "black-piece": diagram.PIECE_COLOURS[BLACK][0], "black-edge": diagram.PIECE_COLOURS[BLACK][1],
        "white-piece": diagram.PIECE_COLOURS[WHITE][0], "white-edge": diagram.PIECE_COLOURS[WHITE][1],
        "ink": diagram.INK, "faint-ink": diagram.FAINT_INK,
    }
