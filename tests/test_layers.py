"""The package's layers: a module imports only from its own layer or the ones below, and a game never
from another game. Every import statement counts, those inside functions too.

    solver.cli                       the command line                      (top)
    solver.web                       the explorer in the browser: its API, server and page
    solver.neutreeko, solver.necnon  the games: rules, solvers, tables, answers
    solver.core                      what every game shares                (bottom)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.core.jit import package_imports

PACKAGE = Path(__file__).resolve().parent.parent / "solver"
#: The layer of each subpackage; ``solver`` itself (``__init__``, ``__main__``) stands above them all.
LAYERS = {"core": 0, "neutreeko": 1, "necnon": 1, "web": 2, "cli": 3}
TOP = 4


def _layer_of(module: str) -> tuple[int, str]:
    """(layer, subpackage) of a module of the package, by its dotted name."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS[parts[1]], parts[1]
    return TOP, ""


def _imports(path: Path) -> list[str]:
    """The package's modules that ``path`` imports, by dotted name."""
    return sorted(package_imports(path))


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer():
    """Each subpackage of ``solver/`` is a known layer, so that a new one must be placed."""
    subpackages = {path.parent.name for path in _modules() if path.parent != PACKAGE}
    assert subpackages <= set(LAYERS), subpackages - set(LAYERS)


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_no_module_imports_a_higher_layer_or_another_game(path):
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    layer, subpackage = _layer_of(module)
    for imported in _imports(path):
        imported_layer, imported_subpackage = _layer_of(imported)
        if imported == "solver":
            continue  # the package's own __init__: its version, which any module may read
        assert imported_layer < layer or imported_subpackage == subpackage, \
            f"{module} (layer {layer}) imports {imported} (layer {imported_layer})"


def test_the_check_sees_an_upward_import(tmp_path):
    """A core module importing a game would be reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from solver.neutreeko.querying.probe import Tablebase\n")
    assert "solver.neutreeko.querying.probe" in _imports(bad)
    assert _layer_of("solver.neutreeko.querying.probe")[0] > _layer_of("solver.core.files")[0]
