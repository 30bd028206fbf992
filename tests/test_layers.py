"""The package's layers: a module imports only from its own layer or the ones below, a game never from
another game, and a shared module never from a game. Every import statement counts, those inside
functions too.

    solver.cli, solver.<game>.cli    the command line                      (top)
    solver.web, solver.<game>.web    the explorer in the browser: its API, server and page
    solver.registry                  the games, by name (it imports none: it loads them by name)
    solver.<game>                    each game: rules, solvers, tables, answers
    solver.core                      what every game shares                (bottom)

A game's ``cli`` and ``web`` stand on the shared layer of their name, which they may import.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from solver.core.jit import package_imports

PACKAGE = Path(__file__).resolve().parent.parent / "solver"
#: The layer of each shared subpackage; ``solver`` itself (``__init__``, ``__main__``) stands above them all.
LAYERS = {"core": 0, "registry": 2, "web": 3, "cli": 4}
#: The games' packages, each at layer 1 but for its slices of the shared layers above.
GAMES = {"neutreeko", "necnon"}
GAME_LAYER = 1
TOP = 5


def _layer_of(module: str) -> tuple[int, str]:
    """(layer, owner) of a module of the package, by its dotted name: the owner is the shared subpackage
    or the game the module belongs to."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS[parts[1]], parts[1]
    if len(parts) > 1 and parts[1] in GAMES:
        return LAYERS.get(parts[2], GAME_LAYER) if len(parts) > 2 else GAME_LAYER, parts[1]
    return TOP, ""


def _imports(path: Path) -> list[str]:
    """The package's modules that ``path`` imports, by dotted name."""
    return sorted(package_imports(path))


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer():
    """Each subpackage of ``solver/`` is a known layer or game, so that a new one must be placed."""
    subpackages = {path.relative_to(PACKAGE).parts[0] for path in _modules() if path.parent != PACKAGE}
    assert subpackages <= set(LAYERS) | GAMES, subpackages - set(LAYERS) - GAMES


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_no_module_imports_a_higher_layer_or_another_game(path):
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    layer, subpackage = _layer_of(module)
    for imported in _imports(path):
        imported_layer, imported_subpackage = _layer_of(imported)
        if imported == "solver":
            continue  # the package's own __init__: its version, which any module may read
        if imported_subpackage in GAMES:
            assert imported_subpackage == subpackage, f"{module} imports {imported}, of a game not its own"
        shared_below = imported_layer == layer and subpackage in GAMES and imported_subpackage in LAYERS
        assert imported_layer < layer or imported_subpackage == subpackage or shared_below, \
            f"{module} (layer {layer}) imports {imported} (layer {imported_layer})"


def test_the_check_sees_an_upward_import(tmp_path):
    """A core module importing a game would be reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from solver.neutreeko.querying.probe import Tablebase\n")
    assert "solver.neutreeko.querying.probe" in _imports(bad)
    assert _layer_of("solver.neutreeko.querying.probe")[0] > _layer_of("solver.core.files")[0]


def _packages() -> list[Path]:
    return sorted(path.parent for path in PACKAGE.rglob("__init__.py"))


@pytest.mark.parametrize("package", _packages(), ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_every_package_lists_what_it_holds(package):
    """A room a reader can take in: at most 15 modules, and an ``__init__`` whose ``__all__`` names
    every public module and subpackage it holds (the games' packages and ``solver`` apart, which
    export names of their own too)."""
    modules = {path.stem for path in package.glob("*.py") if not path.stem.startswith("_")}
    subpackages = {path.parent.name for path in package.glob("*/__init__.py")}
    assert len(modules) <= 15, f"{package.name} holds {len(modules)} modules"
    name = ".".join(package.relative_to(PACKAGE.parent).parts)
    exported = set(getattr(importlib.import_module(name), "__all__", ()))
    if package.parent == PACKAGE or package == PACKAGE:
        return  # core, web, cli and the games export names of their own; solver its version
    assert exported >= modules | subpackages, f"{name}.__all__ lacks {sorted(modules | subpackages - exported)}"
