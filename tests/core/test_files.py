"""Atomic writes: a failed write keeps the previous file and leaves nothing else behind; a file that
appears while a table is written is kept unless replacing was asked for; a destination that cannot be
renamed to is refused before any work; a full disk ends a table's write with one line at any point."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import solver.necnon.tables.build
import solver.neutreeko.tables.build
from solver.cli import cli as neutreeko_cli
from solver.cli import group
from solver.core import files
from tests.helpers import assert_one_line_error, invoke

necnon_cli = group("necnon")

TIMEOUT = 120


def test_write_replaces_the_file(tmp_path):
    target = tmp_path / "report.md"
    files.write_atomically(target, "first")
    files.write_atomically(target, b"second")
    assert target.read_bytes() == b"second"
    assert [path.name for path in tmp_path.iterdir()] == ["report.md"]


def test_failed_write_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "board.svg"
    files.write_atomically(target, b"first")

    def fail(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("solver.core.files.os.replace", fail)
    with pytest.raises(OSError, match="No space left"):
        files.write_atomically(target, b"second")
    assert target.read_bytes() == b"first"
    assert [path.name for path in tmp_path.iterdir()] == ["board.svg"]


def test_interrupted_write_leaves_nothing(tmp_path):
    target = tmp_path / "table.h5"
    with pytest.raises(KeyboardInterrupt):
        with files.replacing(target) as temporary:
            open(temporary, "wb").write(b"partial")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_a_missing_directory_is_refused_and_never_made(tmp_path):
    target = tmp_path / "a" / "b" / "line.html"
    for write in (files.check_writable, lambda path: files.write_atomically(path, "page")):
        with pytest.raises(FileNotFoundError) as raised:
            write(target)
        assert raised.value.strerror == f"the directory {tmp_path / 'a' / 'b'} does not exist"
    assert list(tmp_path.iterdir()) == []


def test_files_are_not_private(tmp_path):
    target = tmp_path / "board.png"
    files.write_atomically(target, b"x")
    assert target.stat().st_mode & 0o044 == 0o044  # readable by group and others under a usual umask


@pytest.mark.parametrize("where, reason", [
    ("directory", "it is a directory"),
    ("under a file", "is not a directory"),
])
def test_unwritable_places_say_why(tmp_path, where, reason):
    (tmp_path / "file").write_text("x")
    path = tmp_path if where == "directory" else tmp_path / "file" / "out.svg"
    with pytest.raises(OSError) as raised:
        files.check_writable(path)
    assert reason in raised.value.strerror
    with pytest.raises(OSError):
        files.write_atomically(path, b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_written_file_is_flushed_before_the_rename_and_its_directory_after(tmp_path, monkeypatch):
    """So that a power cut after the rename leaves the new file whole: fsync of the file, the rename,
    fsync of the directory, in that order."""
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(descriptor: int) -> None:
        events.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}")))
        real_fsync(descriptor)

    def replace(source: str, target: str) -> None:
        events.append(("rename", str(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    path = tmp_path / "out.txt"
    files.write_atomically(path, "kept")
    assert [kind for kind, _ in events] == ["fsync", "rename", "fsync"]
    assert events[0][1].startswith(str(tmp_path / ".out.txt.")) and events[1:] == [
        ("rename", str(path)), ("fsync", str(tmp_path))]
    assert path.read_text() == "kept"


# -- a file that appears meanwhile ------------------------------------------------------------------


def _appear(target: Path, what: str) -> None:
    """Another program's file at ``target``: a file, or a link leading nowhere."""
    if what == "file":
        target.write_text("precious")
    else:
        target.symlink_to("nowhere")


@pytest.mark.parametrize("what", ["file", "link"])
def test_what_appears_while_writing_is_kept_unless_replacing(tmp_path, what):
    target = tmp_path / "P.h5"
    with pytest.raises(FileExistsError, match="appeared there while it was being written"):
        with files.replacing(target, replace=False) as temporary:
            Path(temporary).write_text("ours")
            _appear(target, what)
    assert os.readlink(target) == "nowhere" if what == "link" else target.read_text() == "precious"
    assert os.listdir(tmp_path) == ["P.h5"]


def test_replacing_replaces_what_appeared(tmp_path):
    target = tmp_path / "P.h5"
    with files.replacing(target) as temporary:
        Path(temporary).write_text("ours")
        target.write_text("precious")
    assert target.read_text() == "ours" and os.listdir(tmp_path) == ["P.h5"]


def test_moving_into_place_keeps_the_source_whatever_fails(tmp_path, monkeypatch):
    """A finished download is renamed as a temporary file is, but never lost to a failed rename."""
    source, target = tmp_path / "P.h5.part", tmp_path / "P.h5"
    source.write_text("downloaded")
    target.write_text("precious")
    with pytest.raises(FileExistsError, match="appeared"):
        files.move_into_place(source, target, replace=False)
    assert (source.read_text(), target.read_text()) == ("downloaded", "precious")
    def failing(*_):
        raise OSError(errno.EIO, "I/O error")

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", failing)
        with pytest.raises(OSError, match="I/O error"):
            files.move_into_place(source, target)
    assert (source.read_text(), target.read_text()) == ("downloaded", "precious")
    files.move_into_place(source, target)
    assert target.read_text() == "downloaded" and os.listdir(tmp_path) == ["P.h5"]


@pytest.mark.parametrize("there", [False, True])
def test_without_hard_links_the_destination_is_looked_at_before_the_rename(tmp_path, monkeypatch, there):
    def no_links(*_):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "P.h5"
    with pytest.raises(FileExistsError, match="appeared") if there else contextlib.nullcontext():
        with files.replacing(target, replace=False) as temporary:
            Path(temporary).write_text("ours")
            if there:
                _appear(target, "file")
    assert target.read_text() == ("precious" if there else "ours") and os.listdir(tmp_path) == ["P.h5"]


@pytest.mark.kernel
@pytest.mark.parametrize("program, board, module", [
    (neutreeko_cli, "3x3", solver.neutreeko.tables.build),
    (necnon_cli, "3x3", solver.necnon.tables.build),
])
def test_solve_without_force_keeps_a_file_that_appeared_during_the_solve(tmp_path, monkeypatch, program, board,
                                                                          module):
    out = tmp_path / "P.h5"
    real_solve = module.solve

    def solve_then_appear(*args):
        solution = real_solve(*args)
        out.write_text("precious")
        return solution

    monkeypatch.setattr(module, "solve", solve_then_appear)
    result = invoke("solve", "--board", board, "--out", str(out), program=program)
    assert_one_line_error(result, f"not overwriting {out} without --force", "appeared", code=1,
                          program=program.name)
    assert out.read_text() == "precious" and os.listdir(tmp_path) == ["P.h5"]
    forced = invoke("solve", "--board", board, "--out", str(out), "--force", program=program)
    assert forced.exit_code == 0, forced.stderr
    assert out.read_bytes().startswith(b"neutreeko-solver table container 2\n")
    assert os.listdir(tmp_path) == ["P.h5"]


def test_two_solves_to_one_path(tmp_path):
    """Started together: one writes the table, the other refuses with one line (before its solve, or
    after it, when the first one's table appeared meanwhile)."""
    out = tmp_path / "P.h5"
    solves = [subprocess.Popen([sys.executable, "-m", "solver", "solve", "--board", "3x3", "--out", str(out)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for _ in range(2)]
    errors = [process.communicate(timeout=TIMEOUT)[1].decode() for process in solves]
    ended = sorted(zip((process.returncode for process in solves), errors))
    assert [code for code, _ in ended] == [0, 1], ended
    refusal = ended[1][1].splitlines()
    where = re.escape(str(out))
    assert len(refusal) == 1 and re.fullmatch(f"neutreeko: error: (a valid table already exists at {where} |not "
                                              f"overwriting {where} without --force: a file appeared).*", refusal[0])
    assert os.listdir(tmp_path) == ["P.h5"]


# -- attributes that forbid a rename (Linux) --------------------------------------------------------


@contextlib.contextmanager
def _attribute(path: Path, flag: str) -> Iterator[None]:
    """``path`` with ``chattr +<flag>`` for the block; the test is skipped where it cannot be set."""
    if shutil.which("chattr") is None:
        pytest.skip("needs chattr")
    done = subprocess.run(["chattr", f"+{flag}", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot set chattr +{flag}: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", f"-{flag}", str(path)], check=True)


@pytest.mark.integration
def test_an_immutable_destination_is_refused_before_the_solve(tmp_path, monkeypatch):
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("solved anyway"))
    out = tmp_path / "t.h5"
    out.write_text("kept")
    with _attribute(out, "i"):
        assert_one_line_error(invoke("solve", "--force", "--out", str(out)), f"cannot write {out}",
                              "it is immutable (chattr +i)", code=1)
    assert out.read_text() == "kept" and os.listdir(tmp_path) == ["t.h5"]


@pytest.mark.integration
def test_an_append_only_directory_is_refused_before_anything_is_left_in_it(tmp_path, monkeypatch):
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("solved anyway"))
    directory = tmp_path / "logs"
    directory.mkdir()
    with _attribute(directory, "a"):
        assert_one_line_error(invoke("solve", "--out", str(directory / "t.h5")),
                              f"its directory {directory} is append-only (chattr +a)", code=1)
        assert os.listdir(directory) == []
        with pytest.raises(OSError, match="append-only"):
            files.write_atomically(directory / "notes.txt", "x")
        assert os.listdir(directory) == []


def test_a_temporary_file_that_cannot_be_removed_is_named(tmp_path, monkeypatch):
    """A rename that fails and a temporary file that cannot be removed: both said, in one error."""
    def refuse(*_):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr(os, "unlink", refuse)
    with pytest.raises(OSError) as raised:
        files.write_atomically(tmp_path / "t.svg", b"x")
    monkeypatch.undo()
    [left] = os.listdir(tmp_path)
    assert raised.value.strerror == (f"Operation not permitted; the temporary file {tmp_path / left} is left: "
                                     f"cannot remove it (Operation not permitted)")


# -- a full disk ------------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path, request) -> Iterator[Path]:
    """An empty tmpfs of ``request.param`` (default ``1m``) mounted for the test; skipped, saying why,
    where none can be mounted (not root, no ``mount``, a container without the right)."""
    size = getattr(request, "param", "1m")
    disk = tmp_path / "disk"
    disk.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("needs mount")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a {size} tmpfs: {mounted.stderr.strip() or f'mount exited {mounted.returncode}'}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


#: Writes tables of random (incompressible) data of sizes argv[2] to argv[3] by argv[4] to argv[1]/t.h5,
#: saying "written" (and removing the table) or the error, for each.
_FILLING = """
import sys
from pathlib import Path
import numpy as np
from solver.core.storage import container
from solver.core.errors import TableError
path = Path(sys.argv[1]) / "t.h5"
data = np.random.default_rng(0).integers(0, 256, int(sys.argv[3]), dtype=np.uint8)
for size in range(*map(int, sys.argv[2:])):
    try:
        container.write(path, "data", data[:size], {})
    except TableError as error:
        print(error)
    else:
        print("written")
        path.unlink()
"""


def test_a_full_disk_at_any_point_of_a_table(small_disk):
    """Tables that fill a 1 MiB disk at every point of their writing, the chunks, HDF5's metadata at
    closing, the stamp: each is written or refused with one line, and the process ends cleanly (HDF5
    whose file cannot be flushed when closing used to crash it at exit)."""
    filling = subprocess.run([sys.executable, "-c", _FILLING, str(small_disk), "1010000", "1060000", "1000"],
                             capture_output=True, text=True, timeout=TIMEOUT)
    assert filling.returncode == 0 and filling.stderr == "", filling.stderr[-2000:]
    said = set(filling.stdout.splitlines())
    assert said == {"written", f"cannot write {small_disk / 't.h5'}: No space left on device"}, said
    assert os.listdir(small_disk) == []


_COMMANDS = {program: f"from solver.__main__ import run; run({program!r})" for program in ("neutreeko", "necnon")}


@pytest.mark.parametrize("small_disk, program, board", [("256k", "neutreeko", "5x4"), ("8k", "necnon", "3x3")],
                         indirect=["small_disk"])
def test_solve_onto_a_full_disk(small_disk, program, board):
    out = small_disk / "t.h5"
    solved = subprocess.run([sys.executable, "-c", _COMMANDS[program], "solve", "--board", board, "--out", str(out)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
    assert (solved.returncode, solved.stdout) == (1, ""), solved.stderr
    assert solved.stderr == f"{program}: error: cannot write {out}: No space left on device\n"
    assert os.listdir(small_disk) == []
