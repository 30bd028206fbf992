"""The benchmark scripts' common ``--json FILE``: what a run measured, and where, as one JSON object.

Each ``scripts/bench_*.py`` calls :func:`add_option` on its parser, :func:`record` beside each figure it
prints and :func:`write` at its end. The file holds the machine (CPUs and their model, Python, the
platform), the date, the commit (``-dirty`` when the tree has changes), the script's options, the peak
resident memory of the script and of its children, and every measurement: a name, a unit, the median,
min, max and run count of its samples (or one value), and what it was compared with, if anything.
``docs/benchmarks/*.json`` are such files: the documentation's benchmark page is built from them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

_MEASURED: list[dict[str, Any]] = []


def add_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--json FILE`` to ``parser``."""
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write what was measured, as JSON, to FILE")


def record(name: str, samples: float | list[float], unit: str, compared: str | None = None) -> None:
    """Keep one measurement: ``samples`` (one value or several runs' values) in ``unit`` (``"s"``,
    ``"MB"``, ``"positions/s"``...); ``compared`` names what it was set against (a baseline, another
    setting), if anything."""
    values = [float(samples)] if isinstance(samples, (int, float)) else [float(v) for v in samples]
    if not values:
        raise ValueError(f"no samples for {name!r}")
    entry: dict[str, Any] = {"name": name, "unit": unit, "median": statistics.median(values),
                             "min": min(values), "max": max(values), "runs": len(values)}
    if compared:
        entry["compared"] = compared
    _MEASURED.append(entry)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("-dirty" if dirty else "")


def report(script: str, options: argparse.Namespace) -> dict[str, Any]:
    """The JSON object of this run: the machine, the options and every measurement recorded."""
    self_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    children_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return {
        "script": script,
        "command": " ".join([f"python scripts/{script}.py", *sys.argv[1:]]),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": _commit(),
        "machine": {"cpus": os.cpu_count(), "cpu_model": _cpu_model(), "python": platform.python_version(),
                    "platform": platform.platform(), "load_average": list(os.getloadavg())},
        "options": {key: str(value) if isinstance(value, Path) else value
                    for key, value in vars(options).items() if key != "json"},
        "peak_rss_mb": {"script": self_peak / 2**20, "children": children_peak / 2**20},
        "measurements": list(_MEASURED),
    }


def write(script: str, options: argparse.Namespace) -> None:
    """Write :func:`report` to ``options.json`` (a temporary file renamed into place), if it was given."""
    path: Path | None = options.json
    if path is None:
        return
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(report(script, options), indent=1) + "\n")
    os.replace(temporary, path)
    print(f"measurements written to {path}", file=sys.stderr)
