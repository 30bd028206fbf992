"""The explorer as static files (``neutreeko site``): the pages of :func:`~solver.web.assets.assets`, the
in-browser reader (``static/reader/``) and ``site.json``, which says where the release of tables lives.
Any static web server that answers ``Range`` requests serves them; the pages then read the tables
themselves (docs/guide/static-site.md).

To look at a site before it is published, serve it with ``python -m solver.web.static_host DIR`` (on
127.0.0.1, with ``Range``, which the ``http.server`` of Python 3.11 does not answer).

The scripts are written without their comments and indentation (:func:`compact`), which keeps the site's
JavaScript small.

A page's addresses are made relative (``/page.js`` -> ``page.js``, the page ``/train`` -> ``train.html``),
so that the site works under any path, and its ``<html>`` element is marked ``data-site``, which makes
``page.js`` ask the reader instead of a server.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from solver import registry
from solver.core import files
from solver.core.games import load
from solver.web.assets import assets

#: The folder of the reader's modules, under ``static/`` and in a site.
READER = "reader"
#: The file of a site that names its release.
SITE_FILE = "site.json"
_NEEDS_PYTHON = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Needs the installed explorer</title></head>
<body><p>This page ({page}) needs Python: install neutreeko-solver (its Getting started says how) and run
<code>neutreeko serve</code>. <a href="./">Back to the explorer</a>, which reads the tables here.</p>
</body></html>
"""
_ADDRESS = re.compile(r'(href|src|value|data-source)="/([^"]*)"')


def _file_name(path: str, media_type: str) -> str:
    """The file a site holds the asset served at ``path`` in: ``/`` -> ``index.html``, ``/train`` ->
    ``train.html``, ``/page.js`` -> ``page.js``."""
    name = path.lstrip("/") or "index"
    return f"{name}.html" if media_type.startswith("text/html") and not name.endswith(".html") else name


def compact(script: str) -> str:
    """``script`` as the browser needs it: without its comment lines (a line that is a ``//`` comment, or
    a ``/* ... */`` block from the start of a line to the end of one), its blank lines and each line's
    indentation (the scripts hold no string that runs over lines, where it would count)."""
    kept, inside = [], False
    for line in script.splitlines():
        text = line.strip()
        if inside:
            inside = not text.endswith("*/")
        elif text.startswith("/*") and ("*/" not in text or text.endswith("*/")):
            inside = not text.endswith("*/") or text == "/*"
        elif text and not text.startswith("//"):
            kept.append(text + "\n")
    return "".join(kept)


def static_pages() -> frozenset[str]:
    """The pages the in-browser reader answers for, as each game's pages module lists them
    (``STATIC_PAGES``); every other page needs a server (``serve``)."""
    return frozenset(path for entry in registry.games() if entry.pages
                     for path in getattr(load(entry.pages), "STATIC_PAGES", ()))


def reader_files() -> dict[str, bytes]:
    """The reader's modules by their name in a site (``reader/api.js``, ...)."""
    folder = resources.files(__package__ or "solver.web") / "static" / READER
    return {f"{READER}/{item.name}": item.read_bytes() for item in folder.iterdir() if item.name.endswith(".js")}


def write_site(directory: Path, tables: str) -> list[str]:
    """Write the explorer's static files into ``directory`` (made if missing; each file written
    atomically), its pages reading the release at ``tables`` (a URL, or a path relative to the site);
    return the names written. The pages of :func:`static_pages` are written with the files they load;
    every other page is a note that it needs the installed explorer. Raises :class:`OSError` if a file
    cannot be written."""
    served = assets()
    names = {path: _file_name(path, asset.media_type) for path, asset in served.items()}

    def relative(match: re.Match[str]) -> str:
        target = "/" + match.group(2)
        return f'{match.group(1)}="{names.get(target, match.group(2)) if target != "/" else "./"}"'

    contents: dict[str, bytes] = {}
    static = static_pages()
    for path, asset in served.items():
        if not asset.media_type.startswith("text/html"):
            continue
        if path not in static:
            contents[names[path]] = _NEEDS_PYTHON.format(page=path).encode()
            continue
        page = asset.content.decode()
        contents[names[path]] = _ADDRESS.sub(relative, page).replace("<html", "<html data-site", 1).encode()
        for _, loaded in _ADDRESS.findall(page):
            if "/" + loaded in served and not served["/" + loaded].media_type.startswith("text/html"):
                contents[names["/" + loaded]] = served["/" + loaded].content
    contents.update(reader_files())
    for name in contents:
        if name.endswith(".js"):
            contents[name] = compact(contents[name].decode()).encode()
    contents[SITE_FILE] = (json.dumps({"tables": tables}, indent=1) + "\n").encode()
    for name, content in contents.items():
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomically(target, content)
    return sorted(contents)
