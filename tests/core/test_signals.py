"""SIGINT and SIGTERM: during imports, during the final write of a table, and swallowed by Python (in a
weak-reference callback or ``__del__``). Each ends in one line and exit 130 (143), the previous file
untouched and no temporary file left; real processes and signals, each bounded in time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import solver.core.storage.container
import solver.neutreeko.tables.build
from solver.core import files, interrupts
from tests.helpers import assert_one_line_error, invoke

TIMEOUT = 60
SIGNALS = {"SIGINT": (signal.SIGINT, 130, "interrupted"), "SIGTERM": (signal.SIGTERM, 143, "terminated")}

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc")]


def _start(*args: str, tables: Path | None = None) -> subprocess.Popen:
    env = {**os.environ, **({"NEUTREEKO_TABLES": str(tables)} if tables else {})}
    return subprocess.Popen([sys.executable, "-m", "solver", *args], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(condition, process: subprocess.Popen, what: str) -> None:
    """Poll ``condition()`` until it holds, failing if the process ends first or after the timeout."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"no {what} (the process ended with {process.poll()})")
        time.sleep(0.001)


def _ended(process: subprocess.Popen, code: int, message: str) -> None:
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == code, stderr.decode()
    assert stderr.decode().splitlines() == [f"neutreeko: error: {message}"]
    assert stdout == b""


@pytest.mark.parametrize("name", SIGNALS)
def test_signal_while_importing(tables_5x5, name):
    """Sent once numpy is being loaded, well before the command line is: no traceback."""
    number, code, message = SIGNALS[name]
    process = _start("query", "start", tables=tables_5x5)
    maps = Path(f"/proc/{process.pid}/maps")
    _wait_for(lambda: "numpy" in maps.read_text(), process, "numpy loaded")
    process.send_signal(number)
    _ended(process, code, message)


@pytest.mark.parametrize("name", SIGNALS)
def test_signal_during_the_final_write(table_5x5, tmp_path, name):
    """While the solved table is being written: the previous file stays, the temporary one goes."""
    number, code, message = SIGNALS[name]
    previous = tmp_path / "previous.h5"
    previous.write_bytes(table_5x5.read_bytes())
    process = _start("solve", "--force", "--out", str(previous))

    def writing() -> bool:
        """Is a temporary file beside the table being filled? (Not the empty one that checks, first,
        that the directory can be written, and may be gone before it is looked at.)"""
        for path in tmp_path.iterdir():
            try:
                if path.name.endswith(".tmp") and path.stat().st_size > 0:
                    return True
            except FileNotFoundError:
                continue
        return False

    _wait_for(writing, process, "temporary file")
    process.send_signal(number)
    _ended(process, code, message)
    assert previous.read_bytes() == table_5x5.read_bytes()
    assert os.listdir(tmp_path) == ["previous.h5"]


# -- every moment, from the first to the last ----------------------------------------------------------

#: Milliseconds after a moment at which a signal is sent, one process each.
DELAYS = (0, 1, 2, 5, 10, 20, 40)


def _command() -> list[str]:
    """The ``neutreeko`` command as users start it: the console script beside the interpreter, or
    ``python -m solver`` where there is none."""
    script = Path(sys.executable).with_name("neutreeko")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "solver"]


def _handles(pid: int, number: int) -> bool:
    """Has process ``pid`` a handler for signal ``number`` (``SigCgt`` in its /proc status)?"""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (number - 1) & 1)


def test_only_the_signal_handling_is_imported_before_it_is_installed():
    """A signal that arrives before the command installs its handlers gets Python's traceback, so the
    console script's import of :mod:`solver.__main__` loads nothing but what installs them: no typing,
    no click, no numpy. (What comes before, the interpreter's start and the script's own imports, is
    Python's: there a signal kills the process, as a shell's exit status 130 or 143 says.)"""
    code = "import sys; before = set(sys.modules); import solver.__main__; print(*set(sys.modules) - before)"
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert imported.returncode == 0, imported.stderr
    assert set(imported.stdout.split()) <= {"solver", "solver.__main__", "solver.core", "solver.core.interrupts",
                                            "signal", "importlib"}


@pytest.mark.parametrize("name", SIGNALS)
def test_a_signal_just_after_the_handlers_are_installed(tmp_path, name):
    """From the moment the handlers are there (SIGTERM caught, which Python alone does not), through
    the imports of the command line: one line, the signal's code."""
    number, code, message = SIGNALS[name]
    for delay in DELAYS:
        process = subprocess.Popen([*_command(), "solve", "--board", "3x3", "--out", str(tmp_path / "t.h5")],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _wait_for(lambda: _handles(process.pid, signal.SIGTERM), process, "handlers")
        time.sleep(delay / 1000)
        process.send_signal(number)
        _ended(process, code, message)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", SIGNALS)
def test_a_signal_as_the_command_exits(tmp_path, name):
    """Once the table is written and the command has said so: exit 0 and nothing on standard error,
    or, if the signal came before the command had ended, its one line and code; never a death by the
    signal without a word (Python gives back the default action as it exits) or a traceback."""
    number, code, message = SIGNALS[name]
    out = tmp_path / "t.h5"
    for delay in DELAYS:
        process = subprocess.Popen([*_command(), "solve", "--board", "3x3", "--force", "--out", str(out)],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        said = process.stdout.readline()
        time.sleep(delay / 1000)
        process.send_signal(number)
        stdout, stderr = process.communicate(timeout=TIMEOUT)
        assert said.startswith(b"solved 3x3 connected") and stdout == b"", said
        assert (process.returncode, stderr.decode()) in {(0, ""), (code, f"neutreeko: error: {message}\n")}, \
            (delay, process.returncode, stderr.decode())
        assert os.listdir(tmp_path) == ["t.h5"]


# -- an interrupt Python swallows -------------------------------------------------------------------


@pytest.fixture
def handled_signals(monkeypatch):
    """The command line's signal handling, installed for the test and taken back after it."""
    previous = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    for state, value in (("_received", None), ("_installed", False), ("_settled", False)):
        monkeypatch.setattr(interrupts, state, value)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    interrupts.install()
    yield
    for number, handler in previous.items():
        signal.signal(number, handler)


# Python's report of the swallowed exception is expected in these tests.
swallowing = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


class _Swallowing:
    """Sends SIGINT from its ``__del__``, where Python prints "Exception ignored" and carries on, as it
    does in h5py's weak-reference callbacks."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)


def _swallow_an_interrupt() -> None:
    _Swallowing()
    assert interrupts._received == signal.SIGINT  # sent, and its exception lost


@swallowing
def test_a_swallowed_interrupt_stops_the_rename(handled_signals, tmp_path):
    target = tmp_path / "table.h5"
    target.write_text("previous")
    with pytest.raises(KeyboardInterrupt):
        with files.replacing(target) as temporary:
            Path(temporary).write_text("new")
            _swallow_an_interrupt()
    assert target.read_text() == "previous" and os.listdir(tmp_path) == ["table.h5"]


@swallowing
def test_a_swallowed_interrupt_while_writing_the_table(handled_signals, tmp_path, monkeypatch):
    """Lost inside the table's write, as in the h5py callbacks: exit 130, the previous file untouched."""
    target = tmp_path / "t.h5"
    target.write_text("previous")
    real_digest = solver.core.storage.container.digest

    def digest_and_swallow(data):
        _swallow_an_interrupt()
        return real_digest(data)

    monkeypatch.setattr(solver.core.storage.container, "digest", digest_and_swallow)
    assert_one_line_error(invoke("solve", "--board", "3x3", "--force", "--out", str(target)), "interrupted",
                          code=130)
    assert target.read_text() == "previous" and os.listdir(tmp_path) == ["t.h5"]


@swallowing
def test_a_swallowed_interrupt_during_the_solve(handled_signals, tmp_path, monkeypatch):
    """Lost during the analysis: it stops at the next level, before anything is written."""
    real_solve = solver.neutreeko.tables.build.solve

    def swallow_then_solve(game, progress, checkpoints):
        _swallow_an_interrupt()
        return real_solve(game, progress, checkpoints)

    monkeypatch.setattr(solver.neutreeko.tables.build, "solve", swallow_then_solve)
    monkeypatch.setattr(solver.neutreeko.tables.build, "write_table", lambda *args: pytest.fail("written"))
    assert_one_line_error(invoke("solve", "--board", "3x3", "--force", "--out", str(tmp_path / "t.h5")),
                          "interrupted", code=130)
    assert os.listdir(tmp_path) == []
