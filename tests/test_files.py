"""Atomic writes: a failed write keeps the previous file and leaves nothing else behind."""

from __future__ import annotations

import os

import pytest

from solver.core import files


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


def test_missing_directories_are_made(tmp_path):
    target = tmp_path / "a" / "b" / "line.html"
    files.write_atomically(target, "page")
    assert target.read_text() == "page"


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
