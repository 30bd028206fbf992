"""The explorer as static files (``neutreeko site``): the pages of :func:`~solver.web.assets.assets`, the
in-browser reader (``static/reader/``) and ``site.json``, which says where the release of tables lives.
Any static web server that answers ``Range`` requests serves them; the pages then read the tables
themselves (docs/guide/static-site.md).

A page's addresses are made relative (``/page.js`` -> ``page.js``, the page ``/train`` -> ``train.html``),
so that the site works under any path, and its ``<html>`` element is marked ``data-site``, which makes
``page.js`` ask the reader instead of a server.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from solver.core import files
from solver.web.assets import assets

#: The folder of the reader's modules, under ``static/`` and in a site.
READER = "reader"
#: The file of a site that names its release.
SITE_FILE = "site.json"
_ADDRESS = re.compile(r'(href|src|value)="/([^"]*)"')


def _file_name(path: str, media_type: str) -> str:
    """The file a site holds the asset served at ``path`` in: ``/`` -> ``index.html``, ``/train`` ->
    ``train.html``, ``/page.js`` -> ``page.js``."""
    name = path.lstrip("/") or "index"
    return f"{name}.html" if media_type.startswith("text/html") and not name.endswith(".html") else name


def reader_files() -> dict[str, bytes]:
    """The reader's modules by their name in a site (``reader/api.js``, ...)."""
    folder = resources.files(__package__ or "solver.web") / "static" / READER
    return {f"{READER}/{item.name}": item.read_bytes() for item in folder.iterdir() if item.name.endswith(".js")}


def write_site(directory: Path, tables: str) -> list[str]:
    """Write the explorer's static files into ``directory`` (made if missing; each file written
    atomically), its pages reading the release at ``tables`` (a URL, or a path relative to the site);
    return the names written. Raises :class:`OSError` if a file cannot be written."""
    served = assets()
    names = {path: _file_name(path, asset.media_type) for path, asset in served.items()}

    def relative(match: re.Match[str]) -> str:
        target = "/" + match.group(2)
        return f'{match.group(1)}="{names.get(target, match.group(2)) if target != "/" else "./"}"'

    contents: dict[str, bytes] = {}
    for path, asset in served.items():
        content = asset.content
        if asset.media_type.startswith("text/html"):
            content = _ADDRESS.sub(relative, content.decode()).replace("<html", "<html data-site", 1).encode()
        contents[names[path]] = content
    contents.update(reader_files())
    contents[SITE_FILE] = (json.dumps({"tables": tables}, indent=1) + "\n").encode()
    for name, content in contents.items():
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomically(target, content)
    return sorted(contents)
