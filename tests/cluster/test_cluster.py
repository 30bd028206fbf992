"""The class solve on a Dask cluster (issue 42): a real scheduler and two workers, each its own process
on loopback (``dask scheduler``, ``dask worker``), solve tables whose result digests are the committed
ones (those of the single-machine solve) whatever the number of partitions, with a worker killed
mid-solve, and stopped and resumed; a cluster that cannot run the solve is refused in one line."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.digests import committed_digest
from solver.neutreeko.tables.table import open_table
from tests.helpers import assert_one_line_error, invoke

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.integration

#: Seconds any process of these tests may take.
TIMEOUT = 120
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _environment(pythonpath: Path = ROOT) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(pythonpath), "NUMBA_NUM_THREADS": "1"}


class Cluster:
    """A scheduler and ``workers`` workers (without nannies: a worker killed stays dead) on loopback."""

    def __init__(self, workers: int = 2) -> None:
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.processes.append(self._start("scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                                          "--no-dashboard"))
        for _ in range(workers):
            self.add_worker()
        with distributed.Client(self.address, timeout=TIMEOUT) as client:
            client.wait_for_workers(workers, timeout=TIMEOUT)

    def _start(self, *arguments: str, pythonpath: Path = ROOT) -> subprocess.Popen[bytes]:
        # In the directory of the package it runs: ``-m`` puts the working directory first on the path.
        return subprocess.Popen([sys.executable, "-m", "dask", *arguments], env=_environment(pythonpath),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=pythonpath)

    def add_worker(self, pythonpath: Path = ROOT) -> subprocess.Popen[bytes]:
        worker = self._start("worker", self.address, "--no-nanny", "--nthreads", "1", "--host", "127.0.0.1",
                             "--no-dashboard", pythonpath=pythonpath)
        self.processes.append(worker)
        return worker

    @property
    def workers(self) -> list[subprocess.Popen[bytes]]:
        return self.processes[1:]

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.kill()
            process.wait(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def shared_cluster() -> Iterator[Cluster]:
    """A cluster for the tests that leave its workers as they were."""
    started = Cluster()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A cluster of the test's own, whose workers it may kill or add to."""
    started = Cluster()
    try:
        yield started
    finally:
        started.stop()


def _digest(board: str, path: Path) -> str:
    return open_table(Game.of(board), path).result_digest()


def _solve_command(board: str, address: str, out: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "solver", "solve", "--board", board, "--fold", "--cluster", address,
            "--out", str(out), *options]


def test_the_tables_are_the_single_machine_ones_for_any_number_of_partitions(shared_cluster, tmp_path):
    cluster = shared_cluster
    for board, partitions in (("4x4", 2), ("4x4", 16), ("5x4", 3), ("5x5", 3), ("5x5", 16), ("6x6", 2)):
        out = tmp_path / f"{board}-{partitions}.h5"
        result = invoke("solve", "--board", board, "--fold", "--cluster", cluster.address, "--partitions",
                        str(partitions), "--out", str(out), "--state", str(tmp_path / "state"))
        assert result.exit_code == 0, result.stderr
        assert _digest(board, out) == committed_digest(Game.of(board)), (board, partitions)
        assert not (tmp_path / "state").exists()  # the saved state is removed with the table written


def _run_until(command: list[str], line: str) -> subprocess.Popen[str]:
    """``command`` started with its progress on a pipe, once it has shown a line holding ``line``."""
    process = subprocess.Popen(command, env=_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    deadline = time.monotonic() + TIMEOUT
    assert process.stderr is not None
    for shown in process.stderr:
        if line in shown or time.monotonic() > deadline:
            break
    return process


def test_a_worker_killed_mid_solve_costs_a_level_not_the_solve(cluster, tmp_path):
    out = tmp_path / "5x5.h5"
    process = _run_until(_solve_command("5x5", cluster.address, out, "--progress", "--save-every", "0",
                                        "--state", str(tmp_path / "state")), "ply   4:")
    cluster.workers[1].kill()
    _, errors = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, errors
    assert "a worker was lost at ply" in errors
    assert _digest("5x5", out) == committed_digest(Game.of("5x5"))


def test_a_stopped_solve_resumes_to_the_same_table(shared_cluster, tmp_path):
    cluster = shared_cluster
    out, state = tmp_path / "5x5.h5", tmp_path / "state"
    command = _solve_command("5x5", cluster.address, out, "--progress", "--save-every", "0", "--state", str(state))
    process = _run_until(command, "ply   9:")
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 130
    assert errors.splitlines()[-2:] == [f"the solve's state at the start of a level is saved in {state / 'state.json'}; "
                                        "the same command with --resume continues from it", "neutreeko: error: interrupted"]
    assert not out.exists()
    resumed = subprocess.run([*command, "--resume"], env=_environment(), capture_output=True, text=True,
                             timeout=TIMEOUT, cwd=ROOT)
    assert resumed.returncode == 0, resumed.stderr
    first = next(line for line in resumed.stderr.splitlines() if "ply" in line)
    assert not first.startswith("  ply   0:"), first  # taken up from a saved level, not begun again
    assert _digest("5x5", out) == committed_digest(Game.of("5x5"))


def test_a_worker_running_other_code_is_refused_before_any_work(cluster, tmp_path):
    copy = tmp_path / "other"
    shutil.copytree(ROOT / "solver", copy / "solver", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    with open(copy / "solver" / "__init__.py", "a") as source:
        source.write("# another version\n")
    cluster.add_worker(pythonpath=copy)
    with distributed.Client(cluster.address, timeout=TIMEOUT) as client:
        client.wait_for_workers(3, timeout=TIMEOUT)
    result = invoke("solve", "--board", "4x4", "--fold", "--cluster", cluster.address, "--out",
                    str(tmp_path / "4x4.h5"), "--state", str(tmp_path / "state"))
    assert_one_line_error(result, "runs neutreeko-solver", "sources", code=1)
    assert not (tmp_path / "4x4.h5").exists()


def test_an_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    """Once the wait for the scheduler is over: :data:`~solver.neutreeko.solving.cluster.CONNECT_SECONDS`,
    shortened here."""
    from solver.neutreeko.solving import cluster

    assert cluster.CONNECT_SECONDS < 60
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 0.5)
    began = time.monotonic()
    result = invoke("solve", "--board", "4x4", "--fold", "--cluster", f"tcp://127.0.0.1:{_free_port()}", "--out",
                    str(tmp_path / "4x4.h5"))
    assert_one_line_error(result, "cannot reach the Dask scheduler", code=1)
    assert time.monotonic() - began < 5


def test_what_a_worker_cannot_reach_is_named(tmp_path):
    """What each worker runs before any work (one machine cannot show a directory that a worker does
    not share, so the checks are run here)."""
    from solver.neutreeko.solving.cluster import _reaches, _sees

    (tmp_path / ".probe-token").write_text("token")
    assert _reaches(str(tmp_path), "token") == ""
    assert "cannot use" in _reaches(str(tmp_path / "elsewhere"), "token")
    (tmp_path / ".probe-token").write_text("another client's")
    assert "not what this client wrote" in _reaches(str(tmp_path), "token")
    assert _sees(str(tmp_path / ".probe-token"), 16) == ""
    assert "not 17" in _sees(str(tmp_path / ".probe-token"), 17)
    assert "cannot read" in _sees(str(tmp_path / "missing.h5"), 17)


def test_local_cluster_and_usage_errors(tmp_path):
    out = tmp_path / "4x4.h5"
    result = invoke("solve", "--board", "4x4", "--fold", "--cluster", "local:2", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert _digest("4x4", out) == committed_digest(Game.of("4x4"))
    assert_one_line_error(invoke("solve", "--board", "4x4", "--cluster", "local:2"), "--fold", code=2)
    assert_one_line_error(invoke("solve", "--board", "4x4", "--fold", "--cluster", "local:x", "--out", str(out),
                                 "--force"), "local:N", code=1)
    assert_one_line_error(invoke("solve", "--board", "4x4", "--partitions", "2"), "--cluster", code=2)


#: Run with Dask hidden, as on a plain install.
WITHOUT_DASK = ("import sys; sys.modules['dask'] = sys.modules['distributed'] = None; "
                "from solver.__main__ import main; sys.argv[0] = 'neutreeko'; main()")


def test_a_plain_install_needs_no_dask_but_for_the_cluster(tmp_path):
    shown = subprocess.run([sys.executable, "-c", WITHOUT_DASK, "solve", "--help"], env=_environment(),
                           capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT)
    assert shown.returncode == 0 and "--cluster" in shown.stdout, shown.stderr
    refused = subprocess.run([sys.executable, "-c", WITHOUT_DASK, "solve", "--board", "4x4", "--fold", "--cluster",
                              "local:2", "--out", str(tmp_path / "4x4.h5")], env=_environment(), capture_output=True,
                             text=True, timeout=TIMEOUT, cwd=ROOT)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.splitlines() == ["neutreeko: error: --cluster needs Dask: pip install "
                                           "'neutreeko-solver[cluster]'"]


@pytest.mark.slow
def test_7x7_on_a_local_cluster_is_the_committed_table(tmp_path):
    out = tmp_path / "7x7.h5"
    result = invoke("solve", "--board", "7x7", "--fold", "--cluster", "local:2", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert _digest("7x7", out) == committed_digest(Game.of("7x7"))


def test_the_check_on_the_cluster_finds_what_the_plain_check_finds(shared_cluster, tmp_path):
    cluster = shared_cluster
    from solver.neutreeko.solving.solve_classes import solve_classes
    from solver.neutreeko.tables.stats import summarize_folded
    from solver.neutreeko.tables.table import write_folded_table

    game = Game.of("5x4")
    good, bad = tmp_path / "good.h5", tmp_path / "bad.h5"
    folded = solve_classes(game).folded
    write_folded_table(game, folded, summarize_folded(game, folded), good, 0.0)
    wrong = folded.copy()
    wrong[[5, 1000, 20000]] = (wrong[[5, 1000, 20000]] % 20) + 2
    write_folded_table(game, wrong, summarize_folded(game, wrong), bad, 0.0)
    for path, code in ((good, 0), (bad, 1)):
        plain = invoke("check", "--board", "5x4", "--table", str(path))
        on_cluster = invoke("check", "--board", "5x4", "--table", str(path), "--cluster", cluster.address)
        assert (plain.exit_code, on_cluster.exit_code) == (code, code), on_cluster.stderr
        assert on_cluster.stdout.splitlines()[:-1] == plain.stdout.splitlines()[:-1]
        assert on_cluster.stdout.split(", in ")[0] == plain.stdout.split(", in ")[0]
