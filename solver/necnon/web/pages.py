"""NECNON's page in the explorer (``/necnon``), its files in ``static/`` beside this module, and the
colours of its diagrams as the page's palette."""

from __future__ import annotations

from solver.necnon.drawing import diagram

#: The game's static files, by URL path, with their media types.
PAGES = {
    "/necnon": ("necnon.html", "text/html; charset=utf-8"),
    "/necnon.js": ("necnon.js", "text/javascript; charset=utf-8"),
    "/necnon.css": ("necnon.css", "text/css; charset=utf-8"),
    "/necnon-rules.md": ("rules.md", "text/markdown; charset=utf-8"),
}

#: The pages the in-browser reader answers for on a static site (``neutreeko site``).
STATIC_PAGES = frozenset({"/necnon"})


def palette() -> dict[str, str]:
    """The diagrams' colours (:mod:`solver.necnon.drawing.diagram`), by CSS custom property name."""
    (black, black_edge), (green, green_edge) = (diagram.STONE_COLOURS[colour] for colour in ("black", "green"))
    return {
        "necnon-cell": diagram.CELL_FILL, "necnon-cell-edge": diagram.CELL_EDGE,
        "necnon-black": black, "necnon-black-edge": black_edge, "necnon-green": green, "necnon-green-edge": green_edge,
        "necnon-last-turn": diagram.LAST_TURN, "necnon-keeps": diagram.KEEPS,
        "necnon-loses": diagram.LOSES, "necnon-smothered": diagram.SMOTHERED,
        "necnon-faint-ink": diagram.FAINT_INK,
    }
