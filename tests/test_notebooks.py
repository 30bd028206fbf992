"""The notebooks run without error in a fresh kernel, are stored with their outputs, and use only the
public API. Their numbers are asserted in ``test_analysis.py``; here, the verdicts they print."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from solver.neutreeko.build import build_table
from solver.neutreeko.game import Game
from solver.neutreeko.table import table_path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["statistics", "longest-win", "strategy", "openings", "fair-starts"]


@pytest.fixture(scope="module")
def notebook_tables(tables_5x5, tmp_path_factory) -> Path:
    """A tables directory of their own for the notebooks: the session's 5 x 5 table and a 4 x 4 one."""
    directory = tmp_path_factory.mktemp("notebook-tables")
    shutil.copy(tables_5x5 / table_path(Game.of("5x5")).name, directory)
    build_table(Game.of("4x4"), directory / "neutreeko-4x4.h5")
    return directory


def outputs(notebook) -> str:
    """Every text the notebook's code cells printed or displayed, joined."""
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            texts.append(output.get("text", "") + output.get("data", {}).get("text/markdown", ""))
    return "\n".join(texts)


def test_every_notebook_is_tested():
    assert sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_stored_with_outputs_and_public_api_only(name):
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(cell.execution_count for cell in code), "run scripts/run_notebooks.py and keep the outputs"
    assert all(output.output_type != "error" for cell in code for output in cell.outputs)
    assert any(cell.outputs for cell in code)
    source = "\n".join(cell.source for cell in code)
    assert not re.search(r"solver\._|\b_[a-z]\w*\(", source), "notebooks use the public API only"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name, notebook_tables, monkeypatch):
    """Executed in a fresh ``python3`` kernel of this Python, on the test tables."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(notebook_tables))
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    assert client.kernel_name == "python3"
    client.execute()
    printed = outputs(notebook)
    expected = {
        "statistics": ["3,468,080 legal positions", "(104,660 positions)", "takes 51 plies", "all reproduced",
                       "4x4:  5.20% drawn, longest win  33 plies"],
        "longest-win": ["8 positions (Black to move) are won in 51 plies",
                        "they fall into 1 symmetry class(es)", "At 12 of them a single move keeps the win"],
        "strategy": ["the folklore holds over all legal positions", "every one of the first 15 plies",
                     "ply 16 offers 5", "holds exactly"],
        "openings": ["Black has 14 first moves: 2 keep the draw (B1-C1, D1-C1)", "1. B1-B4  loses in 22"],
        "fair-starts": ["5,388 candidate setups (688 up to symmetry)", "140 are draws (20 up to symmetry)",
                        "The standard start ranks 19 of 20 fair starts: it is forced for 15 plies",
                        "12 of the 20 fair starts are not forced at all"],
    }[name]
    for text in expected:
        assert text in printed, text
    assert sorted(path.name for path in notebook_tables.iterdir()) == ["neutreeko-4x4.h5", "neutreeko-5x5.h5"]


def test_kernel_is_this_python(notebook_tables):
    """The ``python3`` kernel runs the interpreter of the tests (so the installed package, not another)."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    NotebookClient(notebook, timeout=60, kernel_name="python3").execute()
    assert Path(notebook.cells[0].outputs[0].text.strip()).resolve() == Path(sys.executable).resolve()
