"""Execute the notebooks in ``notebooks/`` and store them with their outputs.

    pip install -e '.[notebooks]'                        (once: Jupyter and the notebook runner)
    python scripts/run_notebooks.py [NOTEBOOK ...]      (default: every notebook)

Each runs in a fresh kernel of this Python (the ``python3`` kernel) from the ``notebooks/`` folder, with
the tables directory as the package finds it (``$NEUTREEKO_TABLES`` if set); each builds the small tables
it needs, so the outputs do not depend on which tables exist. The test suite runs them too
(``tests/test_notebooks.py``), without storing the result.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

try:
    import nbformat
    from nbclient import NotebookClient
except ImportError as missing:
    sys.exit(f"run_notebooks.py: error: {missing.name} is missing; install the notebooks extra: "
             f"pip install -e '.[notebooks]'")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def execute(path: Path, timeout: int = 300) -> nbformat.NotebookNode:
    """``path`` executed in a fresh ``python3`` kernel (raises ``CellExecutionError`` on a failing cell)."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=timeout, kernel_name="python3", record_timing=False, coalesce_streams=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def main(names: list[str]) -> None:
    paths = [Path(name) for name in names] or sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in paths:
        began = time.perf_counter()
        notebook = execute(path)
        nbformat.write(notebook, path)
        print(f"{path}: {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
