"""Sphinx configuration of the documentation site: Markdown pages (MyST), the Python API from the
docstrings (autosummary over the whole package, so that it follows the modules wherever they move), every
command from click (sphinx-click) and the benchmark page built from ``docs/benchmarks/*.json``.

Build: ``sphinx-build -W -b html docs docs/_build/html`` (``pip install -e '.[docs]'``)."""

from __future__ import annotations

import ast
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
    "sphinx.ext.viewcode",
    "sphinx_click",
    "benchmark_page",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "survey-starts", "benchmarks/*.json", "benchmarks/*.md"]
templates_path = ["_templates"]

myst_enable_extensions = ["deflist", "colon_fence"]
myst_heading_anchors = 3

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# A method that overrides click's without a docstring of its own shows none, not click's text.
autodoc_inherit_docstrings = False
# Annotations name a class by its short name (``Game``, ``Table``, ``Tablebase``, ``Position``), which both
# games define: Sphinx links the first it finds and says so for each. The docstrings' own roles are
# qualified wherever the two differ; only these ambiguous annotation links are left unwarned.
suppress_warnings = ["ref.python"]

html_theme = "furo"
html_title = f"neutreeko-solver {release}"
html_static_path: list[str] = []

# Every cross-reference must resolve, but for these, each ignored for the reason beside it.
nitpicky = True
nitpick_ignore_regex = [
    # Types of numpy, Dask and the standard library in annotations: linking them needs intersphinx, which
    # fetches inventories over the network, and CI builds offline.
    (r"py:.*", r"(numpy|np|npt|pathlib|collections\.abc|random|enum|abc|click|typing|t|io|os|time|zlib|"
               r"readline|threading|socket|subprocess|http|json|concurrent|contextlib|types|distributed)(\..+)?"),
    (r"py:func", r"input"),  # the built-in
    (r"py:class", r"Path"),  # pathlib.Path, as annotations under ``from __future__ import annotations`` name it
    # The numba kernels are private modules (``_kernel``): autosummary leaves them out of the reference,
    # and their public wrappers' docstrings name them for the reader of the code.
    (r"py:mod", r"solver\..*\._\w+"),
    # Private names, left out of the reference like the kernels: docstrings name them for the reader of
    # the code.
    (r"py:.*", r"(.+\.)?_[a-z_]+\w*|(.+\.)?_[A-Z_]+"),
]


def _type_names() -> list[str]:
    """The package's type variables (``F = TypeVar("F")``, by their full names) and type aliases
    (``Write = Callable[[str], None]``, by their full and their short names, as annotations give them):
    Sphinx links them as classes, and autodoc documents neither."""
    names = []
    for path in sorted((DOCS.parent / "solver").rglob("*.py")):
        module = ".".join(path.relative_to(DOCS.parent).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.parse(path.read_text()).body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            name = node.targets[0].id
            if isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "TypeVar":
                names.append(f"{module}.{name}")
            elif isinstance(node.value, ast.Subscript):
                names += [f"{module}.{name}", name]
    return names


nitpick_ignore = [(role, name) for name in _type_names() for role in ("py:class", "py:obj")]
