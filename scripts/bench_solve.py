"""Benchmark the retrograde solver: warm solves, the first run with a cold and a warm compile cache,
peak memory, and ``neutreeko solve`` end to end.

    python scripts/bench_solve.py                      # 5 x 5, standard rule, 7 warm runs
    python scripts/bench_solve.py --board 7x7 --runs 1 --cli-runs 0
    python scripts/bench_solve.py --baseline /tmp/old  # also time another source tree, alternately
    python scripts/bench_solve.py --board 7x7 --runs 1 --rounds 3 --over both  # over classes too, alternately

Only the public API is used (:class:`solver.neutreeko.model.game.Game`, :func:`solver.neutreeko.solving.solve.solve`, and with
``--over classes`` or ``both`` :func:`solver.neutreeko.solving.solve_classes.solve_classes`, the solve of ``neutreeko solve
--fold``). Each measurement that must start from nothing runs in a fresh interpreter:

* **warm**: one process solves 3 x 3 (loading the compiled kernels, which serve every board), then the
  board ``--runs`` times; median and min.
* **cold first run**: the first solve of a process whose numba cache is an empty directory
  (``NUMBA_CACHE_DIR``), so numba's import and the JIT compilation are included; **warm-cache first
  run**: the same again once that directory holds the compiled kernels.
* **peak memory**: a process that solves once (after a 3 x 3 solve that loads numba and the compiled
  kernels): its peak resident set (``getrusage``) next to the resident set before that solve, and the
  peak of allocations traced during it (``tracemalloc``; numpy reports its arrays to it).
* **CLI**: ``neutreeko solve --force --out TMP`` (with ``--fold`` over classes) as a user runs it, after one
  untimed run.

With ``--baseline DIR`` (a directory holding another ``solver`` package, e.g. one exported with
``git archive HEAD solver | tar -x -C DIR``) the warm solves of both trees alternate, ``--rounds``
times, and the ratio of the medians is printed: both measured in the same conditions. With ``--over both``
the solves over positions and over classes alternate so, and each has its peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchjson

from solver.neutreeko.model.game import Game

# Each runs in a fresh interpreter with the arguments board, rule, runs and what it solves over, and
# prints one JSON object. A 3 x 3 solve first loads numba and the compiled kernels (the same for every board).
_SOLVER = """
import sys
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.solving.solve_classes import solve_classes
solve = solve_classes if sys.argv[4] == "classes" else solve
"""

_WARM = _SOLVER + """
import json, time
from solver.neutreeko.model.game import Game
solve(Game.of("3x3"))
game = Game.of(sys.argv[1], sys.argv[2])
seconds = []
for _ in range(int(sys.argv[3])):
    began = time.perf_counter()
    solve(game)
    seconds.append(time.perf_counter() - began)
print(json.dumps({"seconds": seconds}))
"""

_FIRST = """
import json, sys, time
began = time.perf_counter()
from solver.neutreeko.model.game import Game
from solver.neutreeko.solving.solve import solve
solve(Game.of(sys.argv[1], sys.argv[2]))
print(json.dumps({"seconds": time.perf_counter() - began}))
"""

_MEMORY = _SOLVER + """
import json, resource, tracemalloc
from solver.neutreeko.model.game import Game
solve(Game.of("3x3"))
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
game = Game.of(sys.argv[1], sys.argv[2])
tracemalloc.start()
solve(game)
print(json.dumps({"loaded": loaded, "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "peak_traced": tracemalloc.get_traced_memory()[1]}))
"""


def _run(code: str, board: str, rule: str, runs: int = 0, env: dict[str, str] | None = None,
         tree: Path | None = None, over: str = "positions") -> dict:
    """Run ``code`` in a fresh interpreter (importing ``solver`` from ``tree`` if given), solving ``over``
    positions or classes."""
    env = dict(os.environ if env is None else env)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree.resolve()), env.get("PYTHONPATH")]))
    # `python -c` puts its working directory first on the path: an empty one imports nothing by mistake.
    with tempfile.TemporaryDirectory(prefix="bench-solve-") as empty:
        done = subprocess.run([sys.executable, "-c", code, board, rule, str(runs), over], env=env,
                              capture_output=True, text=True, cwd=empty)
    if done.returncode != 0:
        sys.exit(f"bench_solve: a solve failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _megabytes(size: float) -> str:
    return f"{size / 2**20:,.1f} MB"


def _kinds(args: argparse.Namespace) -> list[str]:
    """What the solves are over: ``positions``, ``classes`` or both, as ``--over`` says."""
    return ["positions", "classes"] if args.over == "both" else [args.over]


def _warm(args: argparse.Namespace) -> None:
    trees = [("current", None)] + ([("baseline", args.baseline)] if args.baseline else [])
    runs = [(f"{name}, over {over}", tree, over) for name, tree in trees for over in _kinds(args)]
    seconds: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    for _ in range(args.rounds):
        for name, tree, over in runs:
            seconds[name] += _run(_WARM, args.board, args.rule, args.runs, tree=tree, over=over)["seconds"]
    for name, _, _ in runs:
        benchjson.record(f"warm solve ({name})", seconds[name], "s",
                         compared="alternating with the baseline tree" if args.baseline else None)
        print(f"warm solve ({name}): median {statistics.median(seconds[name]):.3f} s, "
              f"min {min(seconds[name]):.3f} s over {len(seconds[name])} runs")
    for over in _kinds(args) if args.baseline else []:
        ratio = statistics.median(seconds[f"baseline, over {over}"]) / statistics.median(seconds[f"current, over {over}"])
        print(f"warm solve over {over}: baseline median / current median = {ratio:.2f}")
    if args.over == "both":
        for name, _ in trees:
            ratio = statistics.median(seconds[f"{name}, over positions"]) / statistics.median(seconds[f"{name}, over classes"])
            print(f"warm solve ({name}): over positions median / over classes median = {ratio:.2f}")


def _first_runs(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = _run(_FIRST, args.board, args.rule, env=env)["seconds"]
        cached = _run(_FIRST, args.board, args.rule, env=env)["seconds"]
    benchjson.record("first run, cold numba cache", cold, "s")
    benchjson.record("first run, warm numba cache", cached, "s")
    print(f"first run, cold numba cache (import + JIT compile + solve): {cold:.2f} s")
    print(f"first run, warm numba cache (import + cache load + solve): {cached:.2f} s")


def _memory(args: argparse.Namespace) -> None:
    for over in _kinds(args):
        memory = _run(_MEMORY, args.board, args.rule, over=over)
        benchjson.record(f"peak resident memory, a process solving once over {over}", memory["peak_rss"] / 2**20, "MB")
        benchjson.record(f"traced allocations of the solve over {over}", memory["peak_traced"] / 2**20, "MB")
        print(f"peak memory of a process that solves once over {over}: resident {_megabytes(memory['peak_rss'])} "
              f"(of which {_megabytes(memory['loaded'])} before the solve: interpreter, numpy, numba, kernels); "
              f"traced allocations during the solve {_megabytes(memory['peak_traced'])}")


def _cli(args: argparse.Namespace) -> None:
    command = shutil.which("neutreeko", path=os.path.dirname(sys.executable)) or shutil.which("neutreeko")
    if command is None:
        sys.exit("bench_solve: the neutreeko command is not installed")
    for over in _kinds(args):
        with tempfile.TemporaryDirectory(prefix="bench-solve-") as scratch:
            line = [command, "solve", "--board", args.board, "--rule", args.rule, "--force",
                    "--out", str(Path(scratch) / "table.h5"), *(["--fold"] if over == "classes" else [])]
            seconds = []
            for run in range(args.cli_runs + 1):  # the first run only warms the compile cache
                began = time.perf_counter()
                done = subprocess.run(line, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"bench_solve: {' '.join(line)} failed:\n{done.stderr.strip()}")
                if run:
                    seconds.append(time.perf_counter() - began)
        benchjson.record(f"neutreeko solve --force{' --fold' if over == 'classes' else ''}, end to end", seconds, "s")
        print(f"neutreeko solve --force{' --fold' if over == 'classes' else ''}, end to end: "
              f"median {statistics.median(seconds):.2f} s, min {min(seconds):.2f} s over {len(seconds)} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="5x5", help="board, WIDTHxHEIGHT (default 5x5)")
    parser.add_argument("--rule", default="connected", help="winning condition (default connected)")
    parser.add_argument("--runs", type=int, default=7, help="timed warm solves per process (default 7)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="processes of warm solves per tree, alternating with --baseline (default 1)")
    parser.add_argument("--baseline", type=Path, help="another source tree to time alongside")
    parser.add_argument("--over", choices=("positions", "classes", "both"), default="positions",
                        help="solve over positions (neutreeko solve), symmetry classes (solve --fold) or both, "
                             "alternately (default positions)")
    parser.add_argument("--cli-runs", type=int, default=3,
                        help="timed runs of neutreeko solve; 0 skips them (default 3)")
    parser.add_argument("--no-first-runs", dest="first_runs", action="store_false",
                        help="skip the cold and warm-cache first runs")
    benchjson.add_option(parser)
    args = parser.parse_args()
    if args.runs < 1 or args.rounds < 1 or args.cli_runs < 0:
        parser.error("--runs and --rounds must be at least 1, --cli-runs at least 0")
    try:
        Game.of(args.board, args.rule)
    except ValueError as error:  # a board or rule that does not exist
        parser.error(str(error))
    if args.baseline and not (args.baseline / "solver").is_dir():
        parser.error(f"--baseline {args.baseline}: no solver package there")

    print(f"board {args.board}, rule {args.rule}, {os.cpu_count()} CPUs")
    _warm(args)
    _memory(args)
    if args.first_runs:
        _first_runs(args)
    if args.cli_runs:
        _cli(args)
    benchjson.write("bench_solve", args)


if __name__ == "__main__":
    main()
