"""The notebooks run without error in a fresh kernel, are stored with their outputs, and use only the
public API. Their numbers are asserted in ``test_analysis.py``; here, the verdicts they print."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.build import build_table
from solver.neutreeko.tables.table import table_path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["statistics", "longest-win", "strategy", "openings", "fair-starts", "necnon"]


@pytest.fixture(scope="module")
def notebook_tables(tables_5x5, tmp_path_factory) -> Path:
    """A tables directory of their own for the notebooks: the session's 5 x 5 table and a 4 x 4 one."""
    directory = tmp_path_factory.mktemp("notebook-tables")
    shutil.copy(tables_5x5 / table_path(Game.of("5x5")).name, directory)
    build_table(Game.of("4x4"), directory / "neutreeko-4x4.h5")
    return directory


def outputs(notebook) -> str:
    """Every text the notebook's code cells printed or displayed, joined; in each cell the stream
    outputs of one name (``stdout``, ``stderr``) count as one, where the first of them is, as nbclient's
    ``coalesce_streams`` merges them: how a kernel splits what it prints into messages depends on timing,
    and so on the machine's load."""
    texts = []
    for cell in notebook.cells:
        streams: dict[str, int] = {}
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                if output.get("name") in streams:
                    texts[streams[output.get("name")]] += output.get("text", "")
                    continue
                streams[output.get("name")] = len(texts)
            texts.append(output.get("text", "") + output.get("data", {}).get("text/markdown", ""))
    return "\n".join(texts)


def test_outputs_do_not_depend_on_how_the_streams_were_split():
    """What a cell printed in two stream messages is what it printed in one (a run under load once
    split a line from the next, and the join gave an extra blank line)."""
    def notebook(*outputs):
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=list(outputs))])

    def stream(text, name="stdout"):
        return nbformat.v4.new_output("stream", name=name, text=text)

    shown = nbformat.v4.new_output("display_data", data={"text/markdown": "| a |"})
    one = notebook(stream("first\nsecond\n"), shown)
    assert outputs(notebook(stream("first\n"), stream("second\n"), shown)) == outputs(one)
    assert outputs(notebook(stream("first\n"), shown, stream("second\n"))) == outputs(one)
    assert outputs(notebook(stream("first\n"), stream("x\n", "stderr"), stream("second\n"))) \
        == outputs(notebook(stream("first\nsecond\n"), stream("x\n", "stderr")))


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
def test_notebook_runs(name, notebook_tables, monkeypatch, tmp_path):
    """Executed in a fresh ``python3`` kernel of this Python, on the test tables (which lack tables the
    stored run had, and the 3 x 3 one, which the statistics notebook builds): every text it prints or
    displays is the stored one, so the stored outputs hold whatever tables exist. A temporary directory
    the notebook makes is gone at its end (the kernel's temporary directory is the test's own, so that
    other runs at the same time do not count)."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(notebook_tables))
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    stored = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3", coalesce_streams=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    assert client.kernel_name == "python3"
    client.execute()
    printed = outputs(notebook)
    assert printed == outputs(stored), "run scripts/run_notebooks.py and keep the outputs"
    expected = {
        "statistics": ["3,468,080 legal positions", "(104,660 positions)", "takes 51 plies",
                       "7 of 7 published figures reproduced.", "4x4:  5.20% drawn, longest win  33 plies"],
        "longest-win": ["8 positions (Black to move) are won in 51 plies",
                        "they fall into 1 symmetry class(es)", "At 12 of them a single move keeps the win"],
        "strategy": ["| inner ring | B2 C2 D2 B3 D3 B4 C4 D4 |", "the folklore holds over all legal positions",
                     "Verdict along perfect play: a move onto the centre or an edge midpoint keeps the draw more often",
                     "every one of the first 15 plies", "ply 16 offers 5", "holds exactly"],
        "openings": ["Black has 14 first moves, 8 up to symmetry: 2 keep the draw (B1-C1, D1-C1)",
                     "1. B1-C1 = D1-C1  draw",
                     "1. 12 losing moves (7 up to symmetry): in 2 to 22 plies, the longest resistance B1-B4 = D1-D4"],
        "fair-starts": ["5,388 candidate setups (688 up to symmetry)", "140 are draws (20 up to symmetry)",
                        "The standard start ranks 19 of 20 fair starts: it is forced for 15 plies",
                        "12 of the 20 fair starts are not forced at all"],
        "necnon": ["boards and settings in the survey", "| 4x4 | +0 (9) |", "Perfect play: Black wins",
                   "| hex2 nec-non | 7 | two passes |", "7 turns: 1.b2 2.pass", "smothered stones"],
    }[name]
    for text in expected:
        assert text in printed, text
    built = sorted(path.name for path in notebook_tables.iterdir())
    assert set(built) <= {"neutreeko-3x3.h5", "neutreeko-4x4.h5", "neutreeko-5x5.h5"}, built
    left = sorted(path.name for path in temporary.glob("*notebook*"))
    assert left == [], f"the notebook leaves {left} behind"


def test_the_notebooks_extra_runs_them():
    """The notebook install of the user guide gives what scripts/run_notebooks.py imports and the kernel
    it runs."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((NOTEBOOKS.parent / "pyproject.toml").read_text())["project"]
    guide = (NOTEBOOKS.parent / "docs" / "guide" / "notebooks.md").read_text()
    assert "pip install -e '.[notebooks]'" in guide and "python scripts/run_notebooks.py" in guide
    assert "jupyter lab notebooks/" in guide

    def name(requirement: str) -> str:
        return re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0].lower().replace("_", "-")

    provided = {name(r) for r in project["dependencies"] + project["optional-dependencies"]["notebooks"]}
    assert {"jupyter", "ipykernel"} <= provided  # Jupyter to open them, the python3 kernel to run them
    script = ast.parse((NOTEBOOKS.parent / "scripts" / "run_notebooks.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(script) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(script)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    distributions = importlib.metadata.packages_distributions()
    for module in sorted(imported - set(sys.stdlib_module_names) - {"__future__"}):
        assert {name(d) for d in distributions.get(module, [module])} & provided, module


def test_run_notebooks_says_what_to_install(tmp_path):
    """Without the extra, one line naming it instead of a traceback."""
    script = tmp_path / "run.py"
    script.write_text("import sys\nsys.modules['nbformat'] = None\n"
                      f"exec(open({str(NOTEBOOKS.parent / 'scripts' / 'run_notebooks.py')!r}).read())\n")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == ("run_notebooks.py: error: nbformat is missing; install the notebooks extra: "
                                     "pip install -e '.[notebooks]'")


def test_kernel_is_this_python(notebook_tables):
    """The ``python3`` kernel runs the interpreter of the tests (so the installed package, not another)."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    NotebookClient(notebook, timeout=60, kernel_name="python3").execute()
    assert Path(notebook.cells[0].outputs[0].text.strip()).resolve() == Path(sys.executable).resolve()
