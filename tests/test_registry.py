"""The registry of games: a game that lives outside the package (:mod:`tests.toy_game`) is solved,
probed, queried, checked, published and served through the shared command line and web code, registered
at run time and through an entry point, with no edit to a shared module; and no shared module names a
game."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver import cli, registry
from solver.web.api import Explorer
from solver.web.server import ExplorerServer
from tests import toy_game

ROOT = Path(__file__).resolve().parent.parent
#: The distribution's name, which names no game.
PRODUCT = "neutreeko-solver"
START = "......... x"


@pytest.fixture
def toy(monkeypatch, tmp_path):
    """The toy game registered for one test, and its table solved into ``tmp_path``."""
    monkeypatch.setattr(registry, "_registered", [])
    monkeypatch.setattr(registry, "_discovered", None)
    registry.register(toy_game.GAME)
    table = tmp_path / "toy-3x3.h5"
    solved = CliRunner().invoke(cli.group("toy"), ["solve", "--out", str(table)])
    assert solved.exit_code == 0, solved.output
    assert solved.output == f"5478 positions -> {table}\n"
    yield table
    monkeypatch.undo()


def test_the_toy_game_is_queried_checked_and_published_through_the_shared_commands(toy, tmp_path):
    runner, toy_cli = CliRunner(), cli.group("toy")
    assert registry.game("toy") is toy_game.GAME and toy_game.GAME in registry.games()
    queried = runner.invoke(toy_cli, ["query", START, "--table", str(toy)])
    assert queried.exit_code == 0 and "'value': 0, 'plies': 9" in queried.output  # a draw in 9 plies
    checked = runner.invoke(toy_cli, ["check-file", str(toy)])
    assert checked.exit_code == 0 and checked.output.startswith(f"{toy}: intact (")
    published = runner.invoke(toy_cli, ["publish", str(tmp_path / "release"), str(toy)])
    assert published.exit_code == 0, published.output
    manifest = json.loads((tmp_path / "release" / "manifest.json").read_text())
    assert [(entry["file"], entry["game"]) for entry in manifest["tables"]] == [("toy-3x3.h5", "toy")]
    toy.write_bytes(toy.read_bytes()[:-1] + bytes([toy.read_bytes()[-1] ^ 1]))
    damaged = runner.invoke(toy_cli, ["check-file", str(toy)])
    assert damaged.exit_code == 1


def test_the_toy_game_is_served_by_the_explorer(toy):
    explorer = Explorer(toy.parent)
    try:
        assert {"game": "toy", "board": "3x3", "table": "ready"} in explorer.games()["games"]
        with ExplorerServer("127.0.0.1", 0, explorer) as server:
            thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
            thread.start()
            try:
                url = f"{server.url}api/position?game=toy&position=xx.oo....+x"
                with urllib.request.urlopen(url, timeout=10) as answer:
                    assert json.load(answer) == {"position": "xx.oo.... x", "value": 1, "plies": 1}
            finally:
                server.shutdown()
    finally:
        explorer.close()


def test_a_game_installed_apart_is_found_through_its_entry_point(tmp_path):
    """A distribution declaring the toy game under the registry's entry-point group: its command line
    runs through ``solver.__main__`` like the built-in games'."""
    info = tmp_path / "site" / "toy_game-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINTS}]\ntoy = tests.toy_game:GAME\n")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    table = tmp_path / "toy-3x3.h5"

    def toy(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", "from solver.__main__ import run; run('toy')", *arguments],
                              env=environment, cwd=tmp_path, capture_output=True, text=True, timeout=120)

    assert toy("solve", "--out", str(table)).returncode == 0
    answered = toy("query", "xx.oo.... x", "--table", str(table))
    assert answered.returncode == 0 and "'value': 1, 'plies': 1" in answered.stdout
    assert toy("check-file", str(table)).stdout.startswith(f"{table}: intact")
    refused = toy("query", "xx.oo.... o", "--table", str(table))  # o cannot be to move here
    assert refused.returncode == 2 and refused.stderr == "toy: error: not a position of play: 'xx.oo.... o'\n"


def _shared_modules() -> list[Path]:
    package = ROOT / "solver"
    games = {entry.name for entry in registry.games()}
    return sorted(path for path in package.rglob("*.py")
                  if path.relative_to(package).parts[0] not in games and path.name != "registry.py")


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of ``path`` that are not docstrings, with their lines."""
    tree = ast.parse(path.read_text())
    documentation = {id(node.body[0].value) for node in ast.walk(tree)
                     if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                     and node.body and isinstance(node.body[0], ast.Expr)
                     and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation]


def test_no_shared_module_names_a_game_in_its_code():
    """Outside the games' packages and the registry, no string of code (docstrings apart) names a game:
    neither its name, nor its command, nor a table of it."""
    names = {entry.name for entry in registry.games()} | {entry.program for entry in registry.games()}
    found = set()
    for path in _shared_modules():
        for _, text in _code_strings(path):
            words = text.replace(PRODUCT, " ").replace("/", " ").replace("-", " ").replace(".", " ").replace(":", " ").split()
            if names & set(words):
                found.add((str(path.relative_to(ROOT)), text[:40]))
    assert not found, sorted(found)


def test_the_check_sees_a_game_named_in_code(tmp_path):
    named = tmp_path / "named.py"
    named.write_text('"""Docstrings may name neutreeko."""\nGAME = "necnon"\n')
    assert _code_strings(named) == [(2, "necnon")]
