"""Writing files so that nothing is lost: a file is written to a temporary file beside it and renamed
into place, so an interrupted or failed write leaves the previous file, or none.

What may be written over: only a regular file or a missing path. A symbolic link (or a chain of them)
to a regular file is written through: its target is replaced atomically and the link stays. Anything
else is refused before any work: a directory, a device (``/dev/null``, ``/dev/full``), a FIFO, a
socket, a link leading nowhere or to one of those, and on Linux a file or directory whose attributes
(``chattr +i``, ``+a``) forbid the rename. A writer that must not replace anything (``replace=False``)
keeps whatever appeared at the path while it worked: its rename never replaces. An interrupt received
at any time before the rename (see :mod:`solver.core.interrupts`) stops the rename: the previous file
stays. The file is flushed to disk before the rename and its directory after it, so that a file
reported written survives a power cut. A temporary file that cannot be removed is named in the error.

Every function raises :class:`OSError` whose ``strerror`` says why in words a user can act on; the
callers turn it into their own one-line errors.
"""

from __future__ import annotations

import errno
import os
import stat
import struct
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from solver.core import interrupts

if sys.platform == "linux":
    import fcntl

#: How :func:`os.link` says that a file system has no hard links.
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS}
#: Linux's FS_IOC_GETFLAGS (what ``lsattr`` reads), and the attributes that forbid replacing a file or
#: renaming one into a directory.
_GET_FLAGS = (2 << 30) | (struct.calcsize("l") << 16) | (ord("f") << 8) | 1
_ATTRIBUTES = ((0x10, "immutable (chattr +i)"), (0x20, "append-only (chattr +a)"))
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
    """An empty file created beside ``path`` (a :func:`destination`), removed when the block ends unless
    the block renamed it away. It has ``path``'s permissions if ``path`` exists, ordinary ones otherwise.
    ``path``'s directory must exist: a missing one is never made (:class:`FileNotFoundError`). If the
    file cannot be removed, :class:`OSError` says so, naming it (and what failed before), so that it is
    never left behind unreported."""
    if not path.parent.is_dir():
        if path.parent.exists():
            raise NotADirectoryError(errno.ENOTDIR, f"{path.parent} is not a directory", str(path))
        raise FileNotFoundError(errno.ENOENT, f"the directory {path.parent} does not exist", str(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise OSError(error.errno, f"cannot create a file in {path.parent} ({error.strerror or error})",
                      str(path)) from None
    failure: OSError | None = None
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
    except OSError as error:
        failure = error
        raise
    finally:  # also after an interrupt: no temporary file is left behind
        _remove(temporary, failure)


def _remove(temporary: str, failure: OSError | None) -> None:
    """Remove ``temporary`` if it is still there; if it cannot be, raise :class:`OSError` saying why and
    where it is, after what failed before (``failure``), if anything did."""
    try:
        os.unlink(temporary)
    except FileNotFoundError:
        return
    except OSError as error:
        before = f"{failure.strerror or failure}; " if failure is not None else ""
        raise OSError(error.errno, f"{before}the temporary file {temporary} is left: cannot remove it "
                                   f"({error.strerror})", failure.filename if failure else temporary) from None


def check_writable(path: Path | str) -> None:
    """Raise :class:`OSError` unless a file can be written at ``path`` (its attributes looked at, then
    tried by creating and removing a file beside it), so that long work does not end in a failed write."""
    with _beside(_writable(path)):
        pass


@contextmanager
def replacing(path: Path | str, replace: bool = True) -> Iterator[str]:
    """The name of a temporary file to write; when the block ends without an exception, and no interrupt
    has been received, it is renamed to ``path`` (or to the file a link at ``path`` leads to); otherwise
    it is removed and ``path`` is left as it was.

    With ``replace``, the file there is replaced. Without it, nothing there is: neither a file that was
    there from the start nor one that appeared while the block ran (another program's, another
    writer's); :class:`FileExistsError` then, the temporary file removed."""
    target = _writable(path)
    with _beside(target) as temporary:
        yield temporary
        _rename_into_place(temporary, target, replace)


def move_into_place(source: Path | str, path: Path | str, replace: bool = True) -> None:
    """Rename the file ``source``, written beside ``path`` (in the directory of its :func:`destination`),
    to ``path`` as :func:`replacing` renames its temporary file: flushed first, not once an interrupt has
    been received, and never over anything unless ``replace`` (:class:`FileExistsError`). Whatever
    fails, ``source`` stays as it was: for a file that took long to make (a download), which a failed
    rename must not lose."""
    _rename_into_place(source, _writable(path), replace)


def _rename_into_place(temporary: Path | str, target: Path, replace: bool) -> None:
    """Flush ``temporary``, check for an interrupt, rename it to ``target`` (replacing what is there only
    if ``replace``) and flush ``target``'s directory."""
    _flush(temporary)
    interrupts.check()
    (os.replace if replace else _rename_new)(temporary, target)
    _flush(target.parent)


def _rename_new(temporary: Path | str, target: Path) -> None:
    """Rename ``temporary`` to ``target`` unless something is there: :class:`FileExistsError`, and what
    is there is left as it is.

    A hard link is made, then the temporary name removed: a link never replaces, and looking and
    renaming are one step, so a file created at any moment before is kept. A file system without hard
    links gets a look just before a rename, which leaves a moment in which a file created is replaced."""
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise _appeared(target) from None
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(target):
            raise _appeared(target) from None
        os.replace(temporary, target)
    else:
        os.unlink(temporary)


def _appeared(target: Path) -> FileExistsError:
    return FileExistsError(errno.EEXIST, "a file appeared there while it was being written; it is left as it is",
                           str(target))


def _writable(path: Path | str) -> Path:
    """The :func:`destination` of ``path``, once checked that Linux's file attributes allow replacing it
    and renaming a file into its directory; :class:`OSError` otherwise, before any file is made there (in
    an append-only directory it could not be removed again)."""
    target = destination(path)
    refusals = ((target, "it is {}: it cannot be replaced"),
                (target.parent, f"its directory {target.parent} is {{}}: no file written there could be renamed "
                                f"into place"))
    for place, refusal in refusals:
        attribute = _attribute(place)
        if attribute:
            raise OSError(errno.EPERM, refusal.format(attribute), str(target))
    return target


def _attribute(path: Path) -> str | None:
    """Which of Linux's attributes that keep even root from replacing a file or renaming one into a
    directory ``path`` has, in words (``"immutable (chattr +i)"``); None if none, or if that cannot be
    told (another system, a file system without attributes, nothing there, no permission to open it)."""
    if sys.platform != "linux":
        return None
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # never waits, whatever is there by now
    except OSError:
        return None
    try:
        flags = bytearray(8)
        fcntl.ioctl(descriptor, _GET_FLAGS, flags)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    value = int.from_bytes(flags[:4], sys.byteorder)
    return next((name for flag, name in _ATTRIBUTES if value & flag), None)


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
