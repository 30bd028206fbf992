"""README's two commands, timed as a new user runs them: from a fresh clone, each in a new virtual
environment.

Clones this repository's HEAD into a temporary directory, runs README's main command there, then its
test command with ``$TIER_TIMES`` set (``conftest.py`` then writes each test tier's count and the
seconds its tests took), and prints the wall time of each command and each tier's share. Packages come
from pip's cache or the registry, so the first run on a machine also times their download. A command
that fails stops the script with its exit code; nothing is written then.

Usage: ``python scripts/bench_commands.py [--json docs/benchmarks/commands.json]``. README and
CONTRIBUTING quote the figures of ``docs/benchmarks/commands.json`` (``tests/test_docs_figures.py``
checks that they agree).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchjson

ROOT = Path(__file__).resolve().parent.parent


def readme_commands(readme: str) -> tuple[str, str]:
    """README's main command and test command: the first two ``sh`` blocks, in that order."""
    blocks = re.findall(r"^```sh\n(.*?)\n```", readme, flags=re.DOTALL | re.MULTILINE)
    if len(blocks) < 2:
        raise SystemExit("README.md has fewer than two sh blocks")
    return blocks[0], blocks[1]


def timed(command: str, directory: Path, environment: dict[str, str] | None = None) -> float:
    """Run ``command`` in a shell in ``directory``; its wall seconds. Exits with its code if it fails."""
    began = time.perf_counter()
    done = subprocess.run(["bash", "-c", command], cwd=directory, env=environment,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - began
    if done.returncode:
        print(f"{command!r} failed (exit {done.returncode}):\n{done.stderr[-2000:]}", file=sys.stderr)
        raise SystemExit(done.returncode)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    benchjson.add_option(parser)
    options = parser.parse_args()
    main_command, test_command = readme_commands((ROOT / "README.md").read_text())
    with tempfile.TemporaryDirectory(prefix="bench-commands-") as scratch:
        clone = Path(scratch) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=300)
        seconds = timed(main_command, clone)
        print(f"main command: {seconds:.1f} s")
        benchjson.record("README's main command, from a fresh clone", seconds, "s")
        tier_file = Path(scratch) / "tiers.json"
        environment = {**os.environ, "TIER_TIMES": str(tier_file)}
        seconds = timed(test_command, clone, environment)
        print(f"test command: {seconds:.1f} s")
        benchjson.record("README's test command, from a fresh clone", seconds, "s")
        session = json.loads(tier_file.read_text())
    benchjson.record("pytest's session, in the test command", session["session_seconds"], "s")
    tiers = session["tiers"]
    for tier, figures in tiers.items():
        print(f"  {tier:<12} {int(figures['tests']):>5} tests  {figures['seconds']:7.1f} s")
        benchjson.record(f"tier {tier}: tests", figures["tests"], "tests")
        benchjson.record(f"tier {tier}: seconds of its tests", figures["seconds"], "s")
    benchjson.write("bench_commands", options)


if __name__ == "__main__":
    main()
