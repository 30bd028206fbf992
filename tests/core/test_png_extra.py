"""PNG output is the ``png`` extra (matplotlib): without it, every ``--png`` is refused before any work
with one line naming the install command, and the library raises an ``ImportError`` saying the same."""

from __future__ import annotations

import sys

import pytest

from solver.cli import cli as neutreeko_cli
from solver.cli import group
from solver.core.drawing import png
from solver.core.drawing.scene import Scene
from tests.helpers import assert_one_line_error, invoke

necnon_cli = group("necnon")

INSTALL = "pip install 'neutreeko-solver[png]'"


@pytest.fixture
def without_matplotlib(monkeypatch, tmp_path):
    """matplotlib as if it were not installed (``import matplotlib`` fails), and an empty tables
    directory: the refusal comes before any table is built."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path / "tables"))
    return tmp_path


@pytest.mark.parametrize("program, arguments", [
    ("neutreeko", ["show", "start", "--png", "{}"]),
    ("neutreeko", ["line", "start", "--svg", "{}.svg", "--png", "{}"]),
    ("neutreeko", ["annotate", "-", "--png", "{}"]),
    ("necnon", ["show", "--board", "3x3", "--png", "{}"]),
    ("necnon", ["line", "--board", "3x3", "--png", "{}"]),
])
def test_png_without_matplotlib_is_one_line(without_matplotlib, program, arguments):
    out = without_matplotlib / "picture.png"
    args = [argument.format(out) for argument in arguments]
    result = invoke(*args, input="1. C4-C3\n", 
                    program=necnon_cli if program == "necnon" else neutreeko_cli)
    assert_one_line_error(result, "matplotlib", INSTALL, code=1, program=program)
    assert not (without_matplotlib / "tables").exists()
    assert list(without_matplotlib.iterdir()) == []


def test_svg_needs_no_matplotlib(without_matplotlib):
    result = invoke("show", "--board", "3x3", "--no-values", "--svg", str(without_matplotlib / "a.svg"),
                    program=necnon_cli)
    assert result.exit_code == 0, result.stderr
    assert (without_matplotlib / "a.svg").read_bytes().startswith(b"<?xml")


def test_render_without_matplotlib_raises(without_matplotlib):
    with pytest.raises(ImportError, match=INSTALL.replace("[", r"\[").replace("]", r"\]")):
        png.render(Scene(width=10, height=10, shapes=()))
