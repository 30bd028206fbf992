"""Whole processes of a version of the command line, timed: what the benchmarks of commands share.

:class:`Version` says how to run a version (this one, :func:`this_version`, or another checkout,
:func:`baseline_version`); :func:`timed` runs one command of it and measures wall and CPU time and
peak resident memory; :func:`alternating` runs several versions in turn, and :func:`describe` prints
and records (for ``--json``, :mod:`benchjson`) their medians and ratio. Linux counts in a child's peak
memory what its parent held when it forked, so a script that reports the peaks of small commands
keeps its own memory small (imports nothing heavy).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import benchjson


class Run(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds: depends less on what else the machine is doing
    peak: int  # peak resident memory, bytes


class Version(NamedTuple):
    """A version to run: its command line (``neutreeko`` or ``necnon``) and its environment."""

    name: str
    program: list[str]
    environment: dict[str, str]
    directory: str | None
    options: tuple[str, ...] = ()  # after the arguments of every run: a setting of this version


def this_version(program: str) -> Version:
    """The ``program`` console script (``neutreeko`` or ``necnon``) beside this interpreter, or the
    same through ``python -c``."""
    script = Path(sys.executable).with_name(program)
    entry = "main" if program == "neutreeko" else program
    arguments = [str(script)] if script.is_file() else [sys.executable, "-c",
                                                         f"from solver.__main__ import {entry}; {entry}()"]
    return Version("this", arguments, dict(os.environ), None)


def baseline_version(checkout: Path, tables: Path) -> Version:
    """The version in ``checkout``, run from there (so that its ``solver`` is imported), on ``tables``."""
    return Version("baseline", [sys.executable, "-m", "solver"], {**os.environ, "NEUTREEKO_TABLES": str(tables)},
                   str(checkout))


def timed(version: Version, arguments: list[str], stdin=None) -> Run:
    """One run of ``arguments`` of ``version``, measured; raises if it fails."""
    began = time.perf_counter()
    with subprocess.Popen([*version.program, *arguments, *version.options], stdin=stdin, stdout=subprocess.DEVNULL,
                          env=version.environment, cwd=version.directory) as process:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - began
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, arguments)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


def medians(runs: list[Run]) -> tuple[float, float, int]:
    """Median wall and median CPU seconds of several runs, and their largest peak memory."""
    return (statistics.median(run.wall for run in runs), statistics.median(run.cpu for run in runs),
            max(run.peak for run in runs))


def alternating(versions: list[Version], arguments: list[str], runs: int, stdin: Path | None = None) \
        -> dict[str, list[Run]]:
    """``runs`` runs of ``arguments`` by each version, taking turns."""
    measured: dict[str, list[Run]] = {version.name: [] for version in versions}
    for _ in range(runs):
        for version in versions:
            if stdin is None:
                measured[version.name].append(timed(version, arguments))
            else:
                with stdin.open("rb") as stream:
                    measured[version.name].append(timed(version, arguments, stream))
    return measured


def describe(what: str, measured: dict[str, list[Run]], count: int | None = None) -> str:
    """Each version's median wall and CPU time (and rate, for ``count`` positions) and peak memory;
    the ratio of the baseline's wall time to this one's. Each is recorded for ``--json`` under ``what``."""
    parts = []
    compared = "alternating with " + ", ".join(measured) if len(measured) > 1 else None
    for name, runs in measured.items():
        wall, cpu, peak = medians(runs)
        benchjson.record(f"{what} ({name}), wall", [r.wall for r in runs], "s", compared)
        benchjson.record(f"{what} ({name}), peak resident memory", peak / 2**20, "MB")
        if count:
            benchjson.record(f"{what} ({name}), rate", [count / r.wall for r in runs], "positions/s", compared)
        rate = f" = {count / wall:,.0f} positions/s" if count else ""
        parts.append(f"{name}: median {wall:.3f} s wall{rate}, {cpu:.3f} s CPU (wall {min(r.wall for r in runs):.3f}"
                     f"-{max(r.wall for r in runs):.3f}, {len(runs)} runs), peak {peak / 2**20:.0f} MB")
    if "baseline" in measured:
        ratio = medians(measured["baseline"])[0] / medians(measured["this"])[0]
        parts.append(f"baseline / this {ratio:.2f}")
    return "; ".join(parts)
