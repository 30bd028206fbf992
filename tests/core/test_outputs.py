"""Output paths: a link to a regular file is written through (its target replaced atomically, the link
kept); a device, FIFO, socket, directory or a link leading nowhere is refused before any work, and left
as it was. The default table path too: only a regular file or nothing is a table or a place for one."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from solver.cli import group
from solver.core import files
from tests.helpers import assert_one_line_error, invoke

# Every test gets its own tables directory, so that none writes into the checkout's.
pytestmark = pytest.mark.usefixtures("fresh_tables")


def _device(path: Path) -> Path:
    """A character device like /dev/null (made here, so that a failing test harms no real device)."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _socket(path: Path) -> Path:
    with socket.socket(socket.AF_UNIX) as bound:
        bound.bind(str(path))
    return path


def _directory(path: Path) -> Path:
    path.mkdir()
    return path


def _dangling_link(path: Path) -> Path:
    path.symlink_to(path.parent / "nowhere")
    return path


def _link_to_device(path: Path) -> Path:
    path.symlink_to(_device(path.parent / "device"))
    return path


def _link_to_fifo(path: Path) -> Path:
    path.symlink_to(_fifo(path.parent / "fifo"))
    return path


NOT_REGULAR = {
    "device": (_device, "it is a character device, not a regular file"),
    "FIFO": (_fifo, "it is a FIFO, not a regular file"),
    "socket": (_socket, "it is a socket, not a regular file"),
    "directory": (_directory, "it is a directory"),
    "dangling link": (_dangling_link, "which does not exist"),
    "link to a device": (_link_to_device, "it is a character device"),
    "link to a FIFO": (_link_to_fifo, "it is a FIFO"),
}


def _state(directory: Path) -> dict[str, tuple[int, str]]:
    """What is in ``directory``: each entry's type bits and, for a link, where it leads."""
    return {path.name: (stat.S_IFMT(path.lstat().st_mode), os.readlink(path) if path.is_symlink() else "")
            for path in sorted(directory.iterdir())}


#: Commands that write a file, by the file's suffix.
WRITERS = {"svg": ["show", "start", "--svg"], "html": ["line", "start", "--max-plies", "2", "--html"],
           "h5": ["solve", "--board", "3x3", "--force", "--out"]}


@pytest.mark.parametrize("kind", NOT_REGULAR, ids=list(NOT_REGULAR))
@pytest.mark.parametrize("suffix", WRITERS)
def test_what_is_not_a_regular_file_is_never_written_over(tables_env, tmp_path, kind, suffix, monkeypatch):
    make, reason = NOT_REGULAR[kind]
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("solved despite the refusal"))
    path = make(tmp_path / f"out.{suffix}")
    before = _state(tmp_path)
    line = assert_one_line_error(invoke(*WRITERS[suffix], str(path)), f"cannot write {path}", reason, code=1)
    assert "neutreeko solve" not in line  # never a suggestion to run the refused command again
    assert _state(tmp_path) == before


@pytest.mark.parametrize("suffix", WRITERS)
def test_a_link_to_a_regular_file_is_written_through(tables_env, tmp_path, suffix):
    """The target is replaced (a new file renamed into place), the link stays, nothing else appears."""
    target = tmp_path / "pictures" / f"target.{suffix}"
    target.parent.mkdir()
    target.write_text("old")
    target.chmod(0o600)
    inode = target.stat().st_ino
    link = tmp_path / f"link.{suffix}"
    link.symlink_to(Path("pictures") / target.name)
    result = invoke(*WRITERS[suffix], str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(Path("pictures") / target.name)
    assert target.stat().st_ino != inode and target.read_bytes() != b"old"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # the replaced file's permissions are kept
    assert sorted(path.name for path in tmp_path.rglob("*")) == sorted([link.name, "pictures", target.name])


@pytest.mark.kernel
def test_solve_without_force_refuses_a_link_to_a_valid_table(tmp_path):
    target = tmp_path / "t.h5"
    assert invoke("solve", "--board", "3x3", "--out", str(target)).exit_code == 0
    link = tmp_path / "link.h5"
    link.symlink_to(target)
    assert_one_line_error(invoke("solve", "--board", "3x3", "--out", str(link)), "a valid table already exists",
                          code=1)
    assert link.is_symlink()


@pytest.mark.parametrize("kind", NOT_REGULAR, ids=list(NOT_REGULAR))
def test_default_table_path_that_is_not_a_regular_file(fresh_tables, kind, monkeypatch):
    """Not "building ...": the entry is left as it is, and the message says what it is."""
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("built over it"))
    make, reason = NOT_REGULAR[kind]
    fresh_tables.mkdir()
    path = make(fresh_tables / "neutreeko-5x5.h5")
    before = _state(fresh_tables)
    for command in (["query", "start"], ["stats"], ["stats", "--table", str(path)], ["solve"]):
        result = invoke(*command)
        line = assert_one_line_error(result, str(path), reason, code=1)
        assert "building" not in result.stderr and "neutreeko solve" not in line
        assert _state(fresh_tables) == before, command


def test_unsearchable_tables_directory(fresh_tables, monkeypatch):
    """A tables directory that may not be searched: one line, exit 1, nothing built."""
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("built anyway"))
    fresh_tables.mkdir()
    fresh_tables.chmod(0)
    if os.geteuid() == 0:  # root searches anything: let the directory refuse as it would refuse others
        real_stat, real_lstat = os.stat, os.lstat

        def refuse(real):
            def looked_at(path, *args, **kwargs):
                if str(path).startswith(f"{fresh_tables}{os.sep}"):
                    raise PermissionError(13, "Permission denied", str(path))
                return real(path, *args, **kwargs)
            return looked_at

        monkeypatch.setattr(os, "stat", refuse(real_stat))
        monkeypatch.setattr(os, "lstat", refuse(real_lstat))
    try:
        for command in (["query", "start"], ["stats"]):
            assert_one_line_error(invoke(*command), str(fresh_tables), "Permission denied", code=1)
    finally:
        fresh_tables.chmod(0o755)


def test_check_writable_and_write_agree(tmp_path):
    """The library refuses as the commands do, and check_writable leaves nothing behind."""
    fifo = _fifo(tmp_path / "fifo")
    for action in (files.check_writable, lambda path: files.write_atomically(path, b"x")):
        with pytest.raises(OSError, match="it is a FIFO, not a regular file"):
            action(fifo)
    target = tmp_path / "target"
    target.write_text("old")
    (tmp_path / "link").symlink_to(target)
    files.check_writable(tmp_path / "link")
    files.write_atomically(tmp_path / "link", "new")
    assert target.read_text() == "new" and (tmp_path / "link").is_symlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["fifo", "link", "target"]


@pytest.mark.parametrize("program, args", [
    ("neutreeko", ["show", "start", "--svg", "{missing}/b.svg"]),
    ("neutreeko", ["show", "start", "--png", "{missing}/b.png"]),
    ("neutreeko", ["line", "start", "--html", "{missing}/l.html"]),
    ("neutreeko", ["annotate", "-", "--svg", "{missing}/a.svg"]),
    ("neutreeko", ["solve", "--board", "3x3", "--out", "{missing}/t.h5"]),
    ("neutreeko", ["puzzles", "--board", "4x4", "--out", "{missing}/p.txt"]),
    ("neutreeko", ["puzzles", "--board", "4x4", "--svg", "{missing}/pictures"]),
    ("neutreeko", ["starts", "--board", "4x4", "--svg", "{missing}/pictures"]),
    ("neutreeko", ["survey", "--out", "{missing}/survey.md"]),
    ("neutreeko", ["play", "--record", "{missing}/game.txt"]),
    ("neutreeko", ["publish", "{missing}/release"]),
    ("necnon", ["show", "--svg", "{missing}/b.svg"]),
    ("necnon", ["line", "--board", "3x3", "--svg", "{missing}/l.svg"]),
    ("necnon", ["annotate", "-", "--png", "{missing}/a.png"]),
    ("necnon", ["solve", "--board", "3x3", "--out", "{missing}/t.h5"]),
    ("necnon", ["survey", "--out", "{missing}/survey.md"]),
    ("necnon", ["play", "--record", "{missing}/game.txt"]),
], ids=lambda value: value if isinstance(value, str) else " ".join(value[:2]))
def test_a_missing_directory_is_refused_and_not_made(tmp_path, program, args):
    """Every writer of both programs refuses a file or directory in a directory that does not exist, in
    one line (exit 2), before any work, and makes nothing: neither that directory nor the tables one."""
    missing = tmp_path / "missing" / "deeper"
    result = invoke(*[arg.format(missing=missing) for arg in args], input="", program=group(program))
    assert_one_line_error(result, "the directory '", "' does not exist", code=2, program=program)
    assert list(tmp_path.iterdir()) == []
