"""Standard streams as real processes see them: a full or closed standard output, a reader that goes
away (``| head``), a closed standard input, undecodable input under a strict encoding. Each ends in one
line on standard error (or none, for a reader gone) and a documented exit code, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import START

TIMEOUT = 60


def _run(tables: Path, *args: str, close: tuple[int, ...] = (), **options) -> subprocess.CompletedProcess:
    """``python -m solver ARGS`` with the 5 x 5 tables, the descriptors in ``close`` closed in the child."""
    env = {**os.environ, "NEUTREEKO_TABLES": str(tables), **options.pop("env", {})}

    def close_descriptors() -> None:
        for descriptor in close:
            os.close(descriptor)

    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run([sys.executable, "-m", "solver", *args], env=env, stderr=subprocess.PIPE,
                          preexec_fn=close_descriptors, timeout=TIMEOUT, **options)


def _one_line(done: subprocess.CompletedProcess, code: int, message: str) -> None:
    stderr = done.stderr.decode()
    assert done.returncode == code, stderr
    assert stderr.splitlines() == [f"neutreeko: error: {message}"], stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args, stdin", [(["query", "start"], None), (["stats", "--json"], None),
                                         (["query", "-"], b"start\n" * 5000)], ids=["query", "stats", "query -"])
def test_full_standard_output(tables_5x5, args, stdin):
    with open("/dev/full", "wb") as full:
        done = _run(tables_5x5, *args, stdout=full, input=stdin, stdin=None)
    _one_line(done, 1, "cannot write standard output: No space left on device")


def test_closed_standard_output(tables_5x5):
    _one_line(_run(tables_5x5, "query", "-", close=(1,), stdout=None, input=b"start\n", stdin=None), 1,
              "cannot write standard output: it is closed")


@pytest.mark.parametrize("args", [["stats"], ["verify"], ["query", "start"], ["show", "start"],
                                  ["query", "-"], ["line", "start"]], ids=" ".join)
def test_reader_gone_ends_every_command_quietly(tables_5x5, tmp_path, args):
    """The reader of standard output has gone before the first write: exit 0, nothing on standard error,
    the same for every command."""
    tables = tmp_path / "tables"
    tables.mkdir()
    for table in tables_5x5.iterdir():
        (tables / table.name).symlink_to(table)
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = _run(tables, *args, "--board", "4x4" if args == ["verify"] else "5x5", stdout=write_end,
                    input=b"start\n" * 10, stdin=None)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr.decode().replace(f"building the 4x4 connected table at "
                                                          f"{tables / 'neutreeko-4x4.h5'} ...\n", "")) == (0, "")


@pytest.mark.parametrize("args", [["query", "-"], ["play"], ["annotate", "-"]], ids=" ".join)
def test_closed_standard_input(tables_5x5, args):
    _one_line(_run(tables_5x5, *args, close=(0,), stdin=None), 2, "cannot read standard input: it is closed")


def test_undecodable_input_to_play_under_a_strict_encoding(tables_5x5):
    done = _run(tables_5x5, "play", "--opponent", "perfect", input=b"\xff\xfe\nc4-c3\nfen\n", stdin=None,
                env={"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C"})
    stdout = done.stdout.decode()
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert "U+FFFD" in stdout and "printable ASCII" in stdout  # the bad line is refused, play goes on
    assert "Black> c4-c3" in stdout and "game stopped (end of input)" in stdout


def test_byte_order_mark_before_play_input(tables_5x5):
    done = _run(tables_5x5, "play", "--opponent", "perfect", input="\ufefffen\n".encode(), stdin=None)
    assert done.returncode == 0 and START in done.stdout.decode()
