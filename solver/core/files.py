"""Writing files so that nothing is lost: a file is written to a temporary file beside it and renamed
into place, so an interrupted or failed write leaves the previous file, or none.

Every function raises :class:`OSError` whose ``strerror`` says why in words a user can act on; the
callers turn it into their own one-line errors.
"""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def _create_beside(path: Path) -> str:
    """Create an empty, ordinary (not private) file beside ``path``, and ``path``'s directory if need
    be; return its name."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "it is a directory", str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as error:  # a file stands where a directory should be
        raise NotADirectoryError(errno.ENOTDIR, f"{error.filename} is not a directory", str(path)) from None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise OSError(error.errno, f"cannot create a file in {path.parent} ({error.strerror or error})",
                      str(path)) from None
    os.close(handle)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes it private; ours are ordinary files
    return temporary


def check_writable(path: Path | str) -> None:
    """Raise :class:`OSError` unless a file can be written at ``path`` (tried by creating and removing a
    file beside it), so that long work does not end in a failed write."""
    os.unlink(_create_beside(Path(path)))


@contextmanager
def replacing(path: Path | str) -> Iterator[str]:
    """The name of a temporary file to write; when the block ends without an exception it replaces
    ``path``, otherwise it is removed and ``path`` is left as it was."""
    path = Path(path)
    temporary = _create_beside(path)
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


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
