"""Writing files so that nothing is lost: a file is written to a temporary file beside it and renamed
into place, so an interrupted or failed write leaves the previous file, or none.

What may be written over: only a regular file or a missing path. A symbolic link (or a chain of them)
to a regular file is written through: its target is replaced atomically and the link stays. Anything
else is refused before any work: a directory, a device (``/dev/null``, ``/dev/full``), a FIFO, a
socket, a link leading nowhere or to one of those. An interrupt received at any time before the rename
(see :mod:`solver.core.interrupts`) stops the rename: the previous file stays. The file is flushed to
disk before the rename and its directory after it, so that a file reported written survives a power
cut.

Every function raises :class:`OSError` whose ``strerror`` says why in words a user can act on; the
callers turn it into their own one-line errors.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from solver.core import interrupts

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words: ``"a FIFO"``."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def regular_file(path: Path | str) -> bool:
    """Is there a regular file at ``path`` (following symbolic links)? False if nothing is there.

    Raises :class:`OSError` if something else is there (a directory, device, FIFO, socket, a link
    leading nowhere or in a loop), or if ``path`` cannot be looked at (a directory on the way that may
    not be searched)."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as error:
        raise OSError(error.errno, f"cannot look at it ({error.strerror})", str(path)) from None
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise OSError(errno.ENOENT, f"it is a link to {os.readlink(path)}, which does not exist",
                      str(path)) from None
    except OSError as error:
        raise OSError(error.errno, f"cannot follow it ({error.strerror})", str(path)) from None
    if not stat.S_ISREG(mode):
        raise OSError(errno.EEXIST, f"it is {_kind(mode)}, not a regular file", str(path))
    return True


def destination(path: Path | str) -> Path:
    """The file that writing ``path`` replaces: ``path`` itself, or the regular file a symbolic link
    at ``path`` leads to. Raises :class:`OSError` for what must not be written over (see the module
    docstring)."""
    path = Path(path)
    return Path(os.path.realpath(path)) if regular_file(path) else path


@contextmanager
def _beside(path: Path) -> Iterator[str]:
    """An empty file created beside ``path`` (a :func:`destination`), and ``path``'s directory if need
    be, removed when the block ends unless the block renamed it away. It has ``path``'s permissions if
    ``path`` exists, ordinary ones otherwise."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as error:  # a file stands where a directory should be
        raise NotADirectoryError(errno.ENOTDIR, f"{error.filename} is not a directory", str(path)) from None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise OSError(error.errno, f"cannot create a file in {path.parent} ({error.strerror or error})",
                      str(path)) from None
    try:
        os.close(handle)
        try:
            mode = os.stat(path).st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # mkstemp makes it private; ours are ordinary files
        os.chmod(temporary, mode)
        yield temporary
    finally:  # also after an interrupt: no temporary file is left behind
        if os.path.exists(temporary):
            os.unlink(temporary)


def check_writable(path: Path | str) -> None:
    """Raise :class:`OSError` unless a file can be written at ``path`` (tried by creating and removing a
    file beside it), so that long work does not end in a failed write."""
    with _beside(destination(path)):
        pass


@contextmanager
def replacing(path: Path | str) -> Iterator[str]:
    """The name of a temporary file to write; when the block ends without an exception, and no interrupt
    has been received, it replaces ``path`` (or the file a link at ``path`` leads to); otherwise it is
    removed and ``path`` is left as it was."""
    target = destination(path)
    with _beside(target) as temporary:
        yield temporary
        _flush(temporary)
        interrupts.check()
        os.replace(temporary, target)
        _flush(target.parent)


def _flush(path: Path | str) -> None:
    """Make a file's bytes, or a directory's entries, durable (``fsync``), so that a power cut after
    the rename leaves the new file whole, not an empty one."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_atomically(path: Path | str, data: bytes | str) -> None:
    """Write ``data`` (text is UTF-8 encoded) to ``path`` through :func:`replacing`."""
    with replacing(path) as temporary, open(temporary, "wb") as file:
        file.write(data.encode() if isinstance(data, str) else data)


def size_text(size: int) -> str:
    """A size in bytes for people: ``"1.5 MB"``, ``"205.0 kB"``, ``"512 B"`` (powers of 1,000)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"
