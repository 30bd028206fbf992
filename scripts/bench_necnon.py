"""Benchmark the NECNON solver: warm solves (median and min), positions and classes solved per second,
peak memory, and the first solve of a process with a cold and a warm compile cache.

    python scripts/bench_necnon.py                              # 4x4 nec, 5 warm runs
    python scripts/bench_necnon.py --board hex3 --protocol non --runs 3
    python scripts/bench_necnon.py --board 5x4 --runs 1 --no-cold   # large: about 3 GB
    python scripts/bench_necnon.py --engine --board hex6            # the search engine's playouts a second
    python scripts/bench_necnon.py --endgame --board hex3 --runs 3  # its exact endgame on the empty board
    python scripts/bench_necnon.py --endgame --board 7x3 --line a1 --threads 2  # after a1, two searches

Only the public API is used (:class:`solver.necnon.model.rules.Game`, :func:`solver.necnon.solving.solve.solve`). Each
measurement that must start from nothing runs in a fresh interpreter:

* **warm**: one process solves 3x3 (loading the compiled kernels, which serve every board), then the
  board ``--runs`` times; median and min of the wall-clock times, and of the CPU times (the machine is
  shared: CPU time shows the work when other jobs slow the wall clock);
* **memory**: a process that solves once after a 3x3 solve: its peak resident set (``getrusage``) beside
  the resident set before that solve, and the peak of the allocations traced during it (``tracemalloc``;
  numpy reports its arrays to it);
* **engine** (``--engine``): the search engine's playouts a second from the empty board, median of
  ``--runs`` searches of ``--playouts`` playouts each (default 20,000), a new engine each time, after
  one to load its kernels; and the peak resident set of that process;
* **endgame** (``--endgame``): the engine's exact endgame solver
  (:class:`solver.necnon.searching.endgame.EndgameSolver`) solving the empty board (or the position after
  ``--line``), a new solver each time, with ``--threads`` searches at once (default 1): its nodes (their
  median when two or more searches make them vary), and the median and min of ``--runs`` wall-clock
  times after a 3x3 solve that loads its kernel;
* **cold first run**: the first solve of a process whose numba cache is an empty directory
  (``NUMBA_CACHE_DIR``): numba's import and the compilation included; **warm-cache first run**: the
  same again once that directory holds the compiled kernels.
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
from pathlib import Path
from typing import Any

import benchjson

from solver.core.errors import InputError
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game

_WARM = """
import json, sys, time
from solver.necnon.model.rules import Game
from solver.necnon.solving.solve import solve
solve(Game.of("3x3"))
game = Game.of(sys.argv[1], sys.argv[2])
wall, cpu = [], []
for _ in range(int(sys.argv[3])):
    began, began_cpu = time.perf_counter(), time.process_time()
    solution = solve(game)
    wall.append(time.perf_counter() - began)
    cpu.append(time.process_time() - began_cpu)
print(json.dumps({"wall": wall, "cpu": cpu, "positions": solution.positions, "classes": len(solution.records),
                  "value": int(solution.records["margin"][0]), "turns": int(solution.records["turns"][0])}))
"""

_MEMORY = """
import json, resource, sys, tracemalloc
from solver.necnon.model.rules import Game
from solver.necnon.solving.solve import solve
solve(Game.of("3x3"))
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
tracemalloc.start()
solve(Game.of(sys.argv[1], sys.argv[2]))
print(json.dumps({"loaded": loaded, "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "peak_traced": tracemalloc.get_traced_memory()[1]}))
"""

_ENGINE = """
import json, resource, sys
from solver.necnon.searching.engine import SearchEngine
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
game = Game.of(sys.argv[1], sys.argv[2])
SearchEngine(game, seed=0, iterations=50).search(Position.empty(game))
rates = []
for seed in range(int(sys.argv[3])):
    verdict = SearchEngine(game, seed=seed, iterations=int(sys.argv[4])).search(Position.empty(game))
    rates.append(verdict.iterations / verdict.seconds)
print(json.dumps({"rates": rates, "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""

_ENDGAME = """
import json, sys, time
from solver.necnon.searching.endgame import EndgameSolver
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
EndgameSolver(Game.of("3x3")).solve(Position.empty(Game.of("3x3")), 10**6)
game, threads = Game.of(sys.argv[1], sys.argv[2]), int(sys.argv[5])
position = Position.empty(game).play_line(sys.argv[4])
wall, nodes = [], []
for _ in range(int(sys.argv[3])):
    solver = EndgameSolver(game, threads=threads)
    began = time.perf_counter()
    solved = solver.solve(position, None, threads=threads)
    wall.append(time.perf_counter() - began)
    nodes.append(solved.nodes)
print(json.dumps({"wall": wall, "nodes": nodes, "margin": solved.margin}))
"""

_FIRST = """
import json, sys, time
began = time.perf_counter()
from solver.necnon.model.rules import Game
from solver.necnon.solving.solve import solve
solve(Game.of(sys.argv[1], sys.argv[2]))
print(json.dumps({"seconds": time.perf_counter() - began}))
"""


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter with ``args``; the JSON object it prints last."""
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                            env={**os.environ, **(env or {})})
    answer: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return answer


def _megabytes(size: float) -> str:
    return f"{size / 1e6:,.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="4x4")
    parser.add_argument("--protocol", default="nec")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-cold", action="store_true", help="Leave out the first-run measurements.")
    parser.add_argument("--engine", action="store_true", help="Measure the search engine instead of the solver.")
    parser.add_argument("--playouts", type=int, default=20_000, help="Playouts a search of --engine (default 20,000).")
    parser.add_argument("--endgame", action="store_true",
                        help="Measure the engine's exact endgame on the empty board instead of the solver.")
    parser.add_argument("--line", default="", help="With --endgame: the turns played before (default none).")
    parser.add_argument("--threads", type=int, default=1, help="With --endgame: searches at once (default 1).")
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.runs < 1 or options.threads < 1:
        raise SystemExit("bench_necnon.py: --runs and --threads must be positive")
    try:  # bad input is one line, before any process is started
        game = Game.of(options.board, options.protocol)
        Position.empty(game).play_line(options.line)
    except InputError as error:
        raise SystemExit(f"bench_necnon.py: {error}") from None
    if options.endgame:
        endgame = _run(_ENDGAME, options.board, options.protocol, str(options.runs), options.line,
                       str(options.threads))
        median, nodes = statistics.median(endgame["wall"]), statistics.median(endgame["nodes"])
        where = f"after {options.line}" if options.line else "empty board"
        print(f"exact endgame on necnon {game}, {where} {endgame['margin']:+d}, {options.threads} "
              f"search{'es' * (options.threads != 1)}: {nodes:,.0f} nodes (median), median {median:.2f} s "
              f"(min {min(endgame['wall']):.2f} s, {options.runs} runs), {nodes / median:,.0f} nodes/s")
        benchjson.record(f"exact endgame on {game}, {where}, {options.threads} searches", endgame["wall"], "s")
        benchjson.record(f"exact endgame on {game}, {where}, nodes", endgame["nodes"], "nodes")
        benchjson.write("bench_necnon", options)
        return
    if options.engine:
        engine = _run(_ENGINE, options.board, options.protocol, str(options.runs), str(options.playouts))
        rates = engine["rates"]
        print(f"search engine on necnon {game}, empty board: median {statistics.median(rates):,.0f} playouts/s "
              f"({options.runs} search{'es' * (options.runs != 1)} of {options.playouts:,} playouts; "
              f"min {min(rates):,.0f}, max {max(rates):,.0f}); peak RSS {_megabytes(engine['peak_rss'])}")
        benchjson.record(f"search engine on {game}, empty board", rates, "playouts/s")
        benchjson.record(f"search engine on {game}, peak resident memory", engine["peak_rss"] / 2**20, "MB")
        benchjson.write("bench_necnon", options)
        return

    warm = _run(_WARM, options.board, options.protocol, str(options.runs))
    wall, cpu = warm["wall"], warm["cpu"]
    median = statistics.median(wall)
    positions, classes = warm["positions"], warm["classes"]
    print(f"necnon {game}: {positions:,} positions, {classes:,} classes; empty board {warm['value']:+d} "
          f"in {warm['turns']} turns")
    print(f"warm solve ({options.runs} runs): median {median:.3f} s (min {min(wall):.3f} s); CPU median "
          f"{statistics.median(cpu):.3f} s")
    print(f"rate: {positions / median:,.0f} positions/s, {classes / median:,.0f} classes/s (median wall time); "
          f"{classes / statistics.median(cpu):,.0f} classes per CPU second")
    benchjson.record(f"warm solve of {game}", wall, "s")
    benchjson.record(f"warm solve of {game}, CPU", cpu, "s")
    memory = _run(_MEMORY, options.board, options.protocol)
    benchjson.record(f"solve of {game}, peak resident memory", memory["peak_rss"] / 2**20, "MB")
    print(f"memory: peak RSS {_megabytes(memory['peak_rss'])} (before the solve {_megabytes(memory['loaded'])}); "
          f"{_megabytes(memory['peak_traced'])} allocated by the solve at its peak")
    if options.no_cold:
        benchjson.write("bench_necnon", options)
        return
    cache = Path(tempfile.mkdtemp(prefix="numba-cache-"))
    try:
        cold = _run(_FIRST, options.board, options.protocol, env={"NUMBA_CACHE_DIR": str(cache)})
        cached = _run(_FIRST, options.board, options.protocol, env={"NUMBA_CACHE_DIR": str(cache)})
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"first solve in a new process: {cold['seconds']:.2f} s with an empty numba cache, "
          f"{cached['seconds']:.2f} s with it filled")
    benchjson.record(f"first solve of {game}, empty numba cache", cold["seconds"], "s")
    benchjson.record(f"first solve of {game}, numba cache filled", cached["seconds"], "s")
    benchjson.write("bench_necnon", options)


if __name__ == "__main__":
    main()
