"""What the command line imports before it answers: only what the command it runs uses. Its start-up
time is mostly imports, so the set is checked rather than the clock: no numpy or h5py for ``--version``
or any help, no numba and no HDF5 library for a query of a table that exists, no other command's
module for a command, and for none of them the reader of installed packages' metadata or the HTTP client
(a built-in game needs no entry point, a local table no address); and OpenBLAS starts no thread of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from solver.cli import group

TIMEOUT = 60
#: Libraries that cost a large part of a start-up each; none is needed to show the version or any help.
HEAVY = ("numpy", "h5py", "numba", "llvmlite", "matplotlib")
#: The entry points' reader and the HTTP client, with the mail parser and TLS they import: only for a game
#: installed apart and for tables at an address.
APART = ("importlib.metadata", "email", "http.client", "ssl", "urllib.request")


def _imported(*args: str, tables: str = "", invoked: str = "neutreeko") -> set[str]:
    """The modules, and their top-level packages, that ``neutreeko ARGS`` (the program named by its path
    ``invoked``) has imported when it ends."""
    code = ("import atexit, json, sys\n"
            "atexit.register(lambda: sys.__stderr__.write('\\nIMPORTED ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
            f"sys.argv = [{invoked!r}, *sys.argv[1:]]\n"
            "from solver.__main__ import main\nmain()\n")
    env = {**os.environ, **({"NEUTREEKO_TABLES": tables} if tables else {})}
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("IMPORTED "))
    modules = json.loads(line.removeprefix("IMPORTED "))
    return {*modules, *(name.split(".")[0] for name in modules)}


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["query", "--help"], ["solve", "--help"],
                                  ["starts", "--help"], ["serve", "--help"], ["site", "--help"],
                                  ["check-file", "--help"], ["play", "--help"], ["puzzles", "--help"],
                                  ["train", "--help"]],
                         ids=" ".join)
def test_version_and_help_import_no_heavy_library(args):
    imported = _imported(*args)
    assert not imported & {*HEAVY, *APART}, sorted(imported & {*HEAVY, *APART})


def test_python_m_solver_reads_no_entry_point():
    imported = _imported("--version", invoked="/somewhere/solver/__main__.py")  # sys.argv[0] of python -m solver
    assert not imported & {*HEAVY, *APART}, sorted(imported & {*HEAVY, *APART})


def test_version_imports_no_command():
    imported = _imported("--version")
    assert not {name for name in imported if name.startswith("solver.neutreeko.cli.")} - {"solver.neutreeko.cli.group"}
    assert "solver.cli.explorer" not in imported


def test_every_command_is_listed_and_loads_under_its_name():
    """The group's lazy map and the commands' own names agree, and each command loads."""
    cli = group("neutreeko")
    context = cli.make_context("neutreeko", ["--help"], resilient_parsing=True)
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        assert command is not None and command.name == name


def test_the_documented_group_holds_every_command():
    """The documentation (sphinx-click) reads a group's ``commands``: ``solver.cli.cli`` has them all
    loaded (in a process of its own: here, other tests load commands)."""
    from solver.neutreeko.cli.group import COMMANDS

    done = subprocess.run([sys.executable, "-c", "from solver.cli import cli\nprint(*cli.commands)"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == set(COMMANDS) | {"check-file", "convert", "publish", "serve", "site"}


@pytest.mark.parametrize("given, expected", [(None, "1"), ("3", "3")])
def test_openblas_starts_one_thread_unless_told(given, expected):
    """The command line sets OPENBLAS_NUM_THREADS to 1 before numpy loads OpenBLAS (the package calls no
    BLAS routine, and the threads OpenBLAS starts slow every command down), unless the environment sets it."""
    environment = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        environment["OPENBLAS_NUM_THREADS"] = given
    code = "import os, sys\nimport solver.cli\nprint(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.stdout.split() == [expected, "False"], done.stderr


@pytest.mark.slow
def test_query_imports_no_solver_and_no_hdf5(tables_5x5):
    imported = _imported("query", "start", tables=str(tables_5x5))
    assert not imported & {"numba", "llvmlite", "h5py", "matplotlib", *APART}, sorted(imported & set(APART))
    assert not {"solver.neutreeko.cli.tables", "solver.neutreeko.cli.games", "solver.neutreeko.tables.build",
                "solver.neutreeko.solving.solve", "solver.cli.explorer", "solver.neutreeko.querying.bulk",
                "solver.neutreeko.drawing.pictures", "solver.neutreeko.playing.record", "importlib.resources"} & imported
