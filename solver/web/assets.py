"""The pages' files: the shared ``static/`` files and every game's pages (its entry's ``pages``, see
:class:`~solver.core.games.GameEntry`), read once, and ``palette.css``, the colours of every game's
board diagrams as CSS custom properties, so that the pages and the pictures share one palette.

The server answers only the paths of :func:`assets` (a fixed table, never a path on disk made from a
request), so nothing outside these files can be reached.
"""

from __future__ import annotations

from importlib import resources
from typing import NamedTuple

from solver import registry
from solver.core.games import load


class Asset(NamedTuple):
    """A file the server answers with: its bytes and its media type."""

    content: bytes
    media_type: str


#: The files every game's pages share, by URL path, with their media types.
STATIC = {
    "/explorer.css": ("explorer.css", "text/css; charset=utf-8"),
    "/tree.js": ("tree.js", "text/javascript; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/chart.js": ("chart.js", "text/javascript; charset=utf-8"),
    "/editor.js": ("editor.js", "text/javascript; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}


def palette_css() -> str:
    """Every game's diagram colours as CSS custom properties on ``:root``."""
    colours: dict[str, str] = {}
    for entry in registry.games():
        if entry.pages:
            colours.update(load(entry.pages).palette())
    lines = [f"  --{name}: {colour};" for name, colour in colours.items()]
    return "/* The colours of the board diagrams of every game. */\n:root {\n" + "\n".join(lines) + "\n}\n"


def assets() -> dict[str, Asset]:
    """Every file the server answers with, by URL path: the shared ones, every game's pages, the palette."""
    sources = [(resources.files(__package__ or "solver.web") / "static", STATIC)]
    for entry in registry.games():
        if entry.pages:
            pages = load(entry.pages)
            sources.append((resources.files(pages.__package__) / "static", pages.PAGES))
    table = {path: Asset(folder.joinpath(name).read_bytes(), media_type)
             for folder, files in sources for path, (name, media_type) in files.items()}
    table["/palette.css"] = Asset(palette_css().encode(), "text/css; charset=utf-8")
    return table
