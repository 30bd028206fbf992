"""Benchmark of what a user waits for before any work: start-up, and a new user's first run.

(a) ``neutreeko --version``, ``neutreeko --help`` and every command's ``--help``: wall time of the
    whole process, the median of ``--runs`` runs after one untimed (modules are then imported from
    their bytecode, as installed), and its peak resident memory;
(b) ``neutreeko query start --board B`` for each ``--board`` (its table built first, outside the runs),
    and for the first board the same through ``python -m solver``; then ``python -c "import numpy"``
    alone (OpenBLAS on one thread, as the command line starts it), the part of a query's start-up that
    no change to the package can take away;
(c) the first ``neutreeko verify``: numba's cache empty and no tables (a new directory for each, as
    after a fresh install), ``--verify-runs`` runs; then the same with the kernels cached (the tables
    still solved), and with everything built (``verify`` only reads).

With ``--baseline DIR`` (a checkout of another version, e.g. ``git worktree add /tmp/base main``) every
command runs alternately with that version, on the same tables, and each line gives both and the
ratio of their medians, so that the machine's noise falls on both alike. The checkout, which has no
console script, runs the command line as the console script does (under the program's name).

Usage: ``python scripts/bench_startup.py [--runs 9] [--board 5x5 --board 4x4] [--verify-runs 3]
[--baseline DIR] [--json FILE]``. The tables of ``query start`` are built first into a temporary
directory, which both versions read.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import benchjson
from benchprocess import Version, alternating, baseline_version, describe, this_version, timed

# In a process of its own: this script imports nothing of the package, so that it stays small (see benchprocess).
_COMMANDS = ("from solver.cli import group\ncli = group('neutreeko')\n"
             "print(*cli.list_commands(cli.make_context('neutreeko', ['--help'], resilient_parsing=True)))")
#: What the ``neutreeko`` console script runs.
_CONSOLE_SCRIPT = "import sys\nsys.argv[0] = 'neutreeko'\nfrom solver.__main__ import main\nmain()"
#: The checkout holding this script: the version ``python -m solver`` runs for ``this``.
ROOT = Path(__file__).resolve().parent.parent


def commands() -> list[str]:
    """The names of ``neutreeko``'s commands, as its group lists them."""
    return subprocess.run([sys.executable, "-c", _COMMANDS], capture_output=True, text=True, check=True,
                          timeout=60).stdout.split()


def with_environment(versions: list[Version], **variables: str) -> list[Version]:
    """``versions`` with ``variables`` set in their environments."""
    return [version._replace(environment={**version.environment, **variables}) for version in versions]


def as_module(version: Version) -> Version:
    """``version`` run as ``python -m solver``, from its checkout (this script's for this version)."""
    return version._replace(program=[sys.executable, "-m", "solver"], directory=version.directory or str(ROOT))


def first_runs(versions: list[Version], runs: int) -> dict[str, list]:
    """``runs`` first runs of ``verify`` by each version, taking turns: each in a new empty numba cache
    and a new empty tables directory."""
    measured: dict[str, list] = {version.name: [] for version in versions}
    for _ in range(runs):
        for version in versions:
            with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as tables:
                fresh, = with_environment([version], NUMBA_CACHE_DIR=cache, NEUTREEKO_TABLES=tables)
                measured[version.name].append(timed(fresh, ["verify"]))
    return measured


def cached_runs(versions: list[Version], runs: int) -> tuple[dict[str, list], dict[str, list]]:
    """``verify`` with each version's kernels cached (a cache of its own, filled first): ``runs`` runs
    without tables (solved every time), then ``runs`` runs with the tables built, taking turns."""
    with tempfile.TemporaryDirectory() as directory:
        caches = []
        for version in versions:
            cache = Path(directory) / version.name
            caches.append(with_environment([version], NUMBA_CACHE_DIR=str(cache),
                                           NEUTREEKO_TABLES=str(Path(directory) / f"{version.name}-tables"))[0])
            timed(caches[-1], ["verify"])
        solving: dict[str, list] = {version.name: [] for version in versions}
        for _ in range(runs):
            for version in caches:
                with tempfile.TemporaryDirectory() as tables:
                    solving[version.name].append(timed(version._replace(
                        environment={**version.environment, "NEUTREEKO_TABLES": tables}), ["verify"]))
        return solving, alternating(caches, ["verify"], runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each start-up command (default 9)")
    parser.add_argument("--board", action="append", default=[], help="boards of query start (default 5x5)")
    parser.add_argument("--verify-runs", type=int, default=3, help="runs of each verify (default 3; 0: none)")
    parser.add_argument("--baseline", type=Path, help="a checkout of another version to compare with")
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.runs < 1 or options.verify_runs < 0:
        parser.error("--runs must be at least 1, --verify-runs at least 0")
    with tempfile.TemporaryDirectory() as tables:
        versions = with_environment([this_version("neutreeko")], NEUTREEKO_TABLES=tables)
        if options.baseline:
            versions.append(baseline_version(options.baseline, Path(tables))._replace(
                program=[sys.executable, "-c", _CONSOLE_SCRIPT]))
        # As installed: modules imported from their bytecode, written by a first run (which is not timed).
        versions = [version._replace(environment={name: value for name, value in version.environment.items()
                                                  if name != "PYTHONDONTWRITEBYTECODE"}) for version in versions]
        measure(versions, options)
    benchjson.write("bench_startup", options)


def measure(versions: list[Version], options: argparse.Namespace) -> None:
    """Every measurement of the module docstring, printed and recorded."""
    for arguments in (["--version"], ["--help"], *([name, "--help"] for name in commands())):
        for version in versions:
            timed(version, arguments)
        what = "neutreeko " + " ".join(arguments)
        print(f"{what}: {describe(what, alternating(versions, arguments, options.runs))}", flush=True)
    for board in options.board or ["5x5"]:
        timed(versions[0], ["query", "start", "--board", board, "--build"])
        for version in versions:
            timed(version, ["query", "start", "--board", board])
        what = f"query start {board}"
        print(f"{what}: {describe(what, alternating(versions, ['query', 'start', '--board', board], options.runs))}",
              flush=True)
    board = (options.board or ["5x5"])[0]
    modules = [as_module(version) for version in versions]
    for version in modules:
        timed(version, ["query", "start", "--board", board])
    what = f"python -m solver query start {board}"
    print(f"{what}: {describe(what, alternating(modules, ['query', 'start', '--board', board], options.runs))}",
          flush=True)
    numpy, = with_environment([Version("numpy", [sys.executable, "-c", "import numpy"], versions[0].environment, None)],
                              OPENBLAS_NUM_THREADS="1")
    timed(numpy, [])
    what = "OPENBLAS_NUM_THREADS=1 python -c 'import numpy'"
    print(f"{what}: {describe(what, alternating([numpy], [], options.runs))}", flush=True)
    if options.verify_runs:
        what = "first verify (empty numba cache, no tables)"
        print(f"{what}: {describe(what, first_runs(versions, options.verify_runs))}", flush=True)
        solving, built = cached_runs(versions, options.verify_runs)
        what = "verify, kernels cached, no tables"
        print(f"{what}: {describe(what, solving)}", flush=True)
        what = "verify, kernels cached, tables built"
        print(f"{what}: {describe(what, built)}", flush=True)


if __name__ == "__main__":
    main()
