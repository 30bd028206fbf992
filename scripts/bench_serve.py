"""Benchmark of the explorer's server, ``neutreeko serve``, on loopback only, every run bounded.

(a) start: from launching ``neutreeko serve --port 0`` to its first answered position request (tables
    present), the median of ``--starts`` launches; the time to its printed address beside it.
(b) latency: ``--clients`` concurrent clients (default 8), each on a kept-alive connection, each asking
    ``--requests`` random legal positions (``/api/position``: the value and every move); the 50th,
    95th and 99th percentile of the request times and the requests per second, the median of
    ``--runs`` runs.
(c) connections: ``--connections`` clients (default 200) each open a connection, wait until all are
    open, then ask one position at once; the errors and the slowest answer, over ``--runs`` runs.
The server's peak resident memory (VmHWM) is read at the end.
(d) with ``--boards 5x5,8x8,9x9``: a fresh server asked ``--spread`` random positions on each of those
    boards in turn (every table opened, chunks all over each read), ``--spread`` more on the first
    board again; its peak resident memory then, and after the whole run, against its chunk cache's
    bound (``--cache-mb``).

Usage: ``python scripts/bench_serve.py [--clients 8] [--requests 300] [--connections 200] [--runs 5]``.
The table is built first if it is missing, so that no run includes a build. The clients run in this
process (threads), on the same 2 cores as the server: the figures include their own overhead.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import benchjson

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import random_positions

HOST = "127.0.0.1"  # loopback only
DEADLINE = 120.0    # seconds any one phase may take


def command() -> list[str]:
    """The ``neutreeko`` console script beside this interpreter, or ``python -m solver``."""
    script = Path(sys.executable).with_name("neutreeko")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "solver"]


class Server:
    """``neutreeko serve --port 0 --quiet`` running; ``port`` once it has printed its address."""

    def __init__(self, *options: str) -> None:
        self.began = time.perf_counter()
        self.process = subprocess.Popen([*command(), "serve", "--port", "0", "--quiet", *options],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        self.printed = time.perf_counter() - self.began
        if not line.startswith("Neutreeko explorer at "):
            self.stop()
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(line.split()[3].rstrip("/").rsplit(":", 1)[1])

    def peak_memory_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        """Stop the server; what it wrote on standard error beyond its goodbye is shown."""
        self.process.terminate()
        _, errors = self.process.communicate(timeout=10)
        errors = errors.replace("neutreeko serve: stopped\n", "")
        if errors:
            print(errors, file=sys.stderr, end="")


def path_of(fen: str, board: str = "5x5") -> str:
    return f"/api/position?position={quote(fen)}&board={board}&rule=connected"


def ask(connection: http.client.HTTPConnection, path: str) -> float:
    """Seconds one request took; raises unless it is answered 200."""
    began = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}")
    return time.perf_counter() - began


def start_time(server: Server, fen: str) -> float:
    """Seconds from launch to the first answered position request (retried until the port answers)."""
    while time.perf_counter() - server.began < DEADLINE:
        try:
            connection = http.client.HTTPConnection(HOST, server.port, timeout=10)
            ask(connection, path_of(fen))
            connection.close()
            return time.perf_counter() - server.began
        except ConnectionRefusedError:
            time.sleep(0.005)
    raise SystemExit("the server did not answer")


def latency_run(port: int, paths: list[list[str]]) -> tuple[list[float], float, int]:
    """(request times, wall seconds, errors) of one client per list of paths, all at once."""
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def client(own: list[str]) -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=10)
        mine = []
        try:
            for path in own:
                mine.append(ask(connection, path))
        except (OSError, RuntimeError, http.client.HTTPException):
            with lock:
                errors[0] += 1
        finally:
            connection.close()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=client, args=(own,)) for own in paths]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
    return times, time.perf_counter() - began, errors[0]


def connections_run(port: int, paths: list[str]) -> tuple[int, float]:
    """(errors, slowest answer in seconds) of one request on each of ``len(paths)`` connections held
    open at once."""
    connected = threading.Barrier(len(paths), timeout=DEADLINE)
    slowest = [0.0]
    errors = [0]
    lock = threading.Lock()

    def client(path: str) -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        try:
            connection.connect()
            connected.wait()
            took = ask(connection, path)
            with lock:
                slowest[0] = max(slowest[0], took)
        except (OSError, RuntimeError, http.client.HTTPException, threading.BrokenBarrierError):
            with lock:
                errors[0] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
    return errors[0], slowest[0]


def memory_run(boards: list[str], spread: int, cache_mb: int, seed: int) -> None:
    """(d): one server, ``spread`` random positions on each board, then on the first again; its memory."""
    server = Server("--cache-mb", str(cache_mb))
    try:
        connection = http.client.HTTPConnection(HOST, server.port, timeout=DEADLINE)
        seconds = {}
        for label, board in [*zip(boards, boards), (f"{boards[0]} again", boards[0])]:
            began = time.perf_counter()
            for position in random_positions(Game.of(board), spread, seed + len(seconds)):
                ask(connection, path_of(position.fen(), board))
            seconds[label] = (time.perf_counter() - began) / spread
        connection.close()
        print(f"memory: {spread} random positions on each of {', '.join(boards)} (then {boards[0]} again): "
              f"server peak resident memory {server.peak_memory_mb():.0f} MB with a {cache_mb} MB chunk cache; "
              f"mean time per position " + ", ".join(f"{board} {time * 1000:.1f} ms" for board, time in seconds.items()))
    finally:
        server.stop()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=300, help="requests per client and run (default 300)")
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--starts", type=int, default=5, help="server launches timed (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boards", default="", help="boards for (d), comma-separated (their tables present)")
    parser.add_argument("--spread", type=int, default=500, help="positions per board in (d) (default 500)")
    parser.add_argument("--cache-mb", type=int, default=128, help="the server's chunk cache in (d) (default 128)")
    benchjson.add_option(parser)
    options = parser.parse_args()
    if options.boards:
        memory_run(options.boards.split(","), options.spread, options.cache_mb, options.seed)
    subprocess.run([*command(), "query", "start"], stdout=subprocess.DEVNULL, check=True)  # built if missing
    fens = [position.fen() for position in
            random_positions(Game.of("5x5"), options.clients * options.requests + options.connections, options.seed)]

    starts, printed = [], []
    for _ in range(options.starts):
        server = Server()
        starts.append(start_time(server, fens[0]))
        printed.append(server.printed)
        server.stop()
    benchjson.record("serve: launch to the first position answered", starts, "s")
    print(f"start: first position answered a median {statistics.median(starts):.3f} s after launch "
          f"(min {min(starts):.3f}, max {max(starts):.3f}; address printed after a median "
          f"{statistics.median(printed):.3f} s; {options.starts} launches)")

    server = Server()
    try:
        start_time(server, fens[0])
        paths = [path_of(fen) for fen in fens]
        per_client = [paths[number * options.requests:(number + 1) * options.requests]
                      for number in range(options.clients)]
        runs = [latency_run(server.port, per_client) for _ in range(options.runs)]
        errors = sum(run[2] for run in runs)
        p50, p95, p99 = (statistics.median(percentile(run[0], share) * 1000 for run in runs)
                         for share in (0.50, 0.95, 0.99))
        rate = statistics.median(len(run[0]) / run[1] for run in runs)
        for share, name in ((0.50, "p50"), (0.95, "p95"), (0.99, "p99")):
            benchjson.record(f"{options.clients} clients, latency {name}", [percentile(run[0], share) * 1000 for run in runs],
                             "ms")
        benchjson.record(f"{options.clients} clients, requests", [len(run[0]) / run[1] for run in runs], "requests/s")
        print(f"latency: {options.clients} clients x {options.requests} position requests: median over "
              f"{options.runs} runs of p50 {p50:.2f} ms, p95 {p95:.2f} ms, p99 {p99:.2f} ms; "
              f"{rate:,.0f} requests/s; {errors} errors")
        held = paths[-options.connections:]
        results = [connections_run(server.port, held) for _ in range(options.runs)]
        print(f"connections: {options.connections} held open at once, one request each: "
              f"{sum(errors for errors, _ in results)} errors in {options.runs} runs; slowest answer a median "
              f"{statistics.median(slowest for _, slowest in results) * 1000:.0f} ms "
              f"(max {max(slowest for _, slowest in results) * 1000:.0f} ms)")
        benchjson.record("server peak resident memory", server.peak_memory_mb(), "MB")
        print(f"server peak resident memory: {server.peak_memory_mb():.0f} MB (pid {server.process.pid}, "
              f"{os.cpu_count()} cores)")
    finally:
        server.stop()
    benchjson.write("bench_serve", options)


if __name__ == "__main__":
    main()
