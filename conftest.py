"""Fixtures shared by the test suite and the doctests of ``solver/``: the 5 x 5 game solved once a
session, its table in a directory of its own, an explorer server reading it, small NECNON tables, and
environments that keep tests out of ``tables/``.

Every test gets one tier, a marker (:data:`TIERS`), the costliest of what it needs: by its fixtures (the
5 x 5 solve, a browser, a server, a solved table), by its folder (``tests/cli``, ``tests/web``), by its
code (a subprocess, a server; a doctest that solves), or as it declares (``pytestmark =
pytest.mark.kernel``, ``@pytest.mark.integration``). ``pytest -m unit`` runs the cheap tier;
``tests/test_tiers.py`` checks that each test has exactly one."""

from __future__ import annotations

import inspect
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem

from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.tables.build import build_table as build_necnon_table
from solver.necnon.tables.table import table_path as necnon_table_path
from solver.neutreeko.model.game import Game
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.solving.solve import Solution, solve
from solver.neutreeko.tables.table import table_path, write_table
from solver.web.api import Explorer
from solver.web.server import ExplorerServer

STANDARD = Game.of("5x5", "connected")


@pytest.fixture(scope="session")
def solved_5x5() -> Solution:
    """The standard game (5 x 5, ``connected``) solved by the kernel, once a session."""
    return solve(STANDARD)


@pytest.fixture(scope="session")
def tables_5x5(solved_5x5, tmp_path_factory) -> Path:
    """A directory holding only ``neutreeko-5x5.h5``, written once a session (never change it)."""
    directory = tmp_path_factory.mktemp("tables-5x5")
    write_table(STANDARD, solved_5x5.result, directory / table_path(STANDARD).name, solved_5x5.seconds)
    return directory


@pytest.fixture(scope="session")
def table_5x5(tables_5x5) -> Path:
    """The 5 x 5 table file of :func:`tables_5x5` (copy it before changing it)."""
    return tables_5x5 / table_path(STANDARD).name


@pytest.fixture(scope="session")
def tablebase(tables_5x5) -> Tablebase:
    """A tablebase on :func:`tables_5x5`, its table opened once a session."""
    return Tablebase(tables_5x5)


@pytest.fixture(scope="session")
def tables_4x4(tmp_path_factory) -> Path:
    """A directory holding only ``neutreeko-4x4.h5``, written once a session (never change it)."""
    game = Game.of("4x4")
    directory = tmp_path_factory.mktemp("tables-4x4")
    solved = solve(game)
    write_table(game, solved.result, directory / table_path(game).name, solved.seconds)
    return directory


@pytest.fixture
def tables_env(tables_5x5, monkeypatch) -> Path:
    """Point ``NEUTREEKO_TABLES``, which the command line reads, at :func:`tables_5x5`."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables_5x5))
    return tables_5x5


@pytest.fixture
def fresh_tables(tmp_path, monkeypatch) -> Path:
    """Point ``NEUTREEKO_TABLES`` at a directory of this test's own (not created yet)."""
    directory = tmp_path / "tables"
    monkeypatch.setenv("NEUTREEKO_TABLES", str(directory))
    return directory


#: The NECNON games of :func:`necnon_tables`: small enough to solve in a moment.
NECNON_GAMES = (NecnonGame.of("3x3", "nec"), NecnonGame.of("hex2", "nec"), NecnonGame.of("3x2", "non"))


@pytest.fixture(scope="session")
def necnon_tables(tmp_path_factory) -> Path:
    """A directory holding the tables of :data:`NECNON_GAMES`, written once a session (never change it)."""
    directory = tmp_path_factory.mktemp("necnon-tables")
    for game in NECNON_GAMES:
        build_necnon_table(game, directory / necnon_table_path(game).name)
    return directory


@pytest.fixture
def necnon_env(necnon_tables, monkeypatch) -> Path:
    """Point ``NEUTREEKO_TABLES``, which the command line reads, at :func:`necnon_tables`."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(necnon_tables))
    return necnon_tables


def _reads_tables(item: pytest.Item) -> bool:
    """A doctest that opens a tablebase."""
    return isinstance(item, DoctestItem) and any("Tablebase" in example.source for example in item.dtest.examples)


def _solves(item: pytest.Item) -> bool:
    """A doctest that runs a solver's kernels."""
    return isinstance(item, DoctestItem) and any("solve(" in example.source for example in item.dtest.examples)


def _necnon(item: pytest.Item) -> bool:
    return isinstance(item, DoctestItem) and item.dtest.globs.get("__name__", "").startswith("solver.necnon")


#: The tiers, cheapest first.
TIERS = ("unit", "kernel", "integration", "slow", "browser")
#: The tier a fixture brings to every test that uses it, directly or through another fixture.
_FIXTURE_TIERS = {"browser": "browser", "solved_5x5": "slow", "serve_tables": "integration",
                  "tables_4x4": "kernel", "necnon_tables": "kernel"}
#: The tier of every test in a folder of ``tests/``: processes and servers.
_FOLDER_TIERS = {"cli": "integration", "web": "integration"}
_ROOT = Path(__file__).resolve().parent


def _needs(item: pytest.Item) -> set[str]:
    """The tiers of what ``item`` needs; empty for a unit test."""
    needs = {_FIXTURE_TIERS[name] for name in getattr(item, "fixturenames", ()) if name in _FIXTURE_TIERS}
    needs |= {mark.name for mark in item.iter_markers() if mark.name in TIERS}
    path = item.path.relative_to(_ROOT).parts
    if path[0] == "tests" and len(path) > 2 and path[1] in _FOLDER_TIERS:
        needs.add(_FOLDER_TIERS[path[1]])
    if _reads_tables(item):
        needs.add("kernel" if _necnon(item) else "slow")
    if _solves(item):
        needs.add("kernel")
    function = getattr(item, "function", None)
    if function is not None and any(word in inspect.getsource(function) for word in ("subprocess", "ExplorerServer")):
        needs.add("integration")
    return needs


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give each test its tier, the costliest it needs; a tier its module declares is replaced by it."""
    tiers = [max(_needs(item), key=TIERS.index, default="unit") for item in items]
    for item, tier in zip(items, tiers):
        for node in item.listchain():
            node.own_markers[:] = [mark for mark in node.own_markers if mark.name not in TIERS]
        item.add_marker(tier)


#: With ``$TIER_TIMES`` naming a file, the session writes there each tier's test count and the seconds
#: its tests took (setup, call and teardown), and the session's own seconds (``scripts/bench_commands.py``).
_TIER_TIMES: dict[str, dict[str, float]] = {tier: {"tests": 0, "seconds": 0.0} for tier in TIERS}
_SESSION_START = time.perf_counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    tier = next((word for word in TIERS if word in report.keywords), None)
    if tier is not None:
        _TIER_TIMES[tier]["seconds"] += report.duration
        _TIER_TIMES[tier]["tests"] += report.when == "call" or (report.when == "setup" and report.skipped)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if target := os.environ.get("TIER_TIMES"):
        Path(target).write_text(json.dumps({"tiers": _TIER_TIMES,
                                            "session_seconds": time.perf_counter() - _SESSION_START}))


@pytest.fixture(autouse=True)
def _doctest_tables(request):
    """Doctests that read tables read the default tables directory: point it at :func:`tables_5x5`, or
    at :func:`necnon_tables` for NECNON's."""
    if _reads_tables(request.node):
        request.getfixturevalue("necnon_env" if _necnon(request.node) else "tables_env")


@pytest.fixture(scope="session")
def serve_tables() -> Iterator[Callable[[Path], str]]:
    """A function starting an explorer server (``neutreeko serve``) on an ephemeral loopback port, reading
    the tables of a directory, and returning its address; every server runs to the session's end."""
    running: list[tuple[ExplorerServer, threading.Thread]] = []

    def start(directory: Path) -> str:
        server = ExplorerServer("127.0.0.1", 0, Explorer(directory))
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        thread.start()
        running.append((server, thread))
        return server.url

    yield start
    for server, thread in running:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="session")
def explorer_url(tables_5x5, serve_tables) -> str:
    """The address of an explorer server reading :func:`tables_5x5`, running for the session."""
    return serve_tables(tables_5x5)


@pytest.fixture(scope="session")
def necnon_url(necnon_tables, serve_tables) -> str:
    """The address of an explorer server reading :func:`necnon_tables` (and no Neutreeko table), running
    for the session."""
    return serve_tables(necnon_tables)
