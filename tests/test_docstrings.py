"""Module docstrings are short contracts: at most :data:`MOST_LINES` lines each; design essays live in
``docs/design/``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "solver"
MOST_LINES = 25


def test_module_docstrings_are_short() -> None:
    long = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if docstring is not None and len(docstring.splitlines()) > MOST_LINES:
            long[str(path.relative_to(PACKAGE.parent))] = len(docstring.splitlines())
    assert not long, f"module docstrings over {MOST_LINES} lines (move the rest to docs/design/): {long}"
