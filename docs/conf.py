"""Sphinx configuration of the documentation site: Markdown pages (MyST), the Python API from the
docstrings (autosummary over the whole package, so that it follows the modules wherever they move), every
command from click (sphinx-click) and the benchmark page built from ``docs/benchmarks/*.json``.

Build: ``sphinx-build -W -b html docs docs/_build/html`` (``pip install -e '.[docs]'``)."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))  # the benchmark page's extension
sys.path.insert(0, str(DOCS.parent))  # the package of this checkout, not an installed copy

import solver  # noqa: E402

project = "neutreeko-solver"
author = "the neutreeko-solver authors"
copyright = "the neutreeko-solver authors"
release = version = solver.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_click",
    "benchmark_page",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "survey-starts", "benchmarks/*.json"]
templates_path = ["_templates"]

myst_enable_extensions = ["deflist", "colon_fence"]
myst_heading_anchors = 3

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# Annotations name a class by its short name (``Game``, ``Table``, ``Tablebase``, ``Position``), which both
# games define: Sphinx links the first it finds and says so for each. The docstrings' own roles are
# qualified wherever the two differ; only these ambiguous annotation links are left unwarned.
suppress_warnings = ["ref.python"]

html_theme = "furo"
html_title = f"neutreeko-solver {release}"
html_static_path: list[str] = []

# Nitpicky (``-n``) stays off: with it the build finds about 900 unresolved references, 205 distinct
# targets, three quarters of them numpy's and the standard library's types in annotations (resolving those
# needs intersphinx, which fetches inventories over the network at every build), the rest private kernel
# modules (``solver.neutreeko.solving._kernel``) that autosummary leaves out and short names of the other game's
# classes. Turning it on means intersphinx, or an inventory kept in the tree, and qualified roles.
nitpicky = False
