"""The table container every game stores its results in: one HDF5 file holding one dataset, with
attributes that describe it and SHA-256 digests of both, behind a header that holds the digest of the
whole file, written atomically and checked on every open.

What the attributes mean is each game's business (:mod:`solver.neutreeko.table`); this module only
guarantees that what is read is what was written, and that a damaged file, whatever bytes changed in
it, is refused with one :class:`~solver.core.errors.TableError` rather than reaching the HDF5 library,
which may abort the process, loop forever or fail in unforeseen ways on damaged metadata.

The file::

    bytes 0 .. 511     the header (HDF5's "user block", which the library skips), ASCII:
                           neutreeko-solver table container 1\\n
                           size <bytes of the whole file>\\n
                           sha256 <hex digest of every byte after the header>\\n
                       then zero bytes up to 512
    bytes 512 ..       the HDF5 file proper: the dataset and these attributes

=================  =============================================================================
attribute          meaning
=================  =============================================================================
format             :data:`FORMAT` (anything else is not one of ours)
digest             ``"sha256:<hex>"`` of the dataset's bytes
attributes_digest  ``"sha256:<hex>"`` of every other attribute (the undigested ones apart), so that
                   an edited attribute is caught like edited data
=================  =============================================================================

:func:`opened` reads the header and digests the whole file before HDF5 sees it: a changed byte
anywhere (header included, every attribute included) is refused there. The digests of the data and of
the attributes are checked again after reading, and any failure of the HDF5 library is turned into
"table X is damaged: ...". Checking the whole file costs one pass of SHA-256 over it (1.5 ms for
the 1.5 MB 5 x 5 table).

Where tables live: ``$NEUTREEKO_TABLES`` if set; otherwise ``tables/`` of the source checkout the
package runs from; otherwise (an installed package) ``$XDG_DATA_HOME/neutreeko-solver/tables``
(``~/.local/share/neutreeko-solver/tables``).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TypeVar

import h5py
import numpy as np
import numpy.typing as npt

from solver.core import files
from solver.core.errors import MissingTableError, TableError, TableExistsError

#: The ``format`` attribute of every table of this project.
FORMAT = "neutreeko-solver table"
_CHUNK_BYTES = 1 << 18

#: The header: its size (HDF5 user blocks are 512 bytes or a larger power of two) and first line.
HEADER_BYTES = 512
_MAGIC = b"neutreeko-solver table container 1\n"
_HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
_READ_BYTES = 1 << 20

Attributes = dict[str, Any]
Opened = TypeVar("Opened")


def tables_dir() -> Path:
    """The directory tables are read from and written to by default (see the module docstring)."""
    if os.environ.get("NEUTREEKO_TABLES"):
        return Path(os.environ["NEUTREEKO_TABLES"])
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "tables").is_dir():
        return checkout / "tables"
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "neutreeko-solver" / "tables"


def digest(data: npt.NDArray[Any]) -> str:
    """``"sha256:<hex>"`` of an array's bytes."""
    return "sha256:" + hashlib.sha256(np.ascontiguousarray(data).data).hexdigest()


def attributes_digest(attributes: Mapping[str, Any], undigested: tuple[str, ...]) -> str:
    """``"sha256:<hex>"`` of a table's attributes, as h5py reads them, but ``attributes_digest`` and
    the ``undigested`` ones."""
    left_out = ("attributes_digest", *undigested)
    described = {name: value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value
                 for name, value in attributes.items() if name not in left_out}
    text = json.dumps(described, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def check_writable(path: Path) -> None:
    """Raise :class:`TableError` unless a table can be written at ``path``, so that a long solve does
    not end in a failed write."""
    try:
        files.check_writable(path)
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


def check_present(path: Path, missing: str) -> None:
    """Raise :class:`MissingTableError` (a ``KeyError``) saying ``missing`` if nothing is at ``path``,
    and :class:`TableError` if something other than a regular file is (a link leading nowhere, a FIFO,
    a device, a directory)."""
    try:
        present = files.regular_file(path)
    except OSError as error:
        raise TableError(f"cannot use {path} as a table: {error.strerror or error}") from None
    if not present:
        raise MissingTableError(missing)


def ensure(path: Path, open_existing: Callable[[Path], Opened], check_asked: Callable[[Path], None],
           build: Callable[[Path], object], on_build: Callable[[Path], None] | None = None) -> Opened:
    """The table at ``path`` as ``open_existing`` opens it; if there is none
    (:class:`MissingTableError`), ``check_asked(path)`` (which raises if it may not be built), then
    ``on_build(path)`` (to say what comes), ``build(path)`` and the table it built."""
    try:
        return open_existing(path)
    except MissingTableError:
        check_asked(path)
        if on_build:
            on_build(path)
        build(path)
        return open_existing(path)


def check_replaceable(path: Path, force: bool, open_existing: Callable[[Path], object]) -> None:
    """Raise :class:`TableError` before any work unless a table can be written at ``path``, and
    :class:`TableExistsError` if a file is there and not ``force``: a valid table (``open_existing``
    opens it without error) or a file that is not one, which may be someone's data (the error says
    why ``open_existing`` refused it)."""
    check_writable(path)
    if force or not path.exists():
        return
    try:
        open_existing(path)
    except TableError as error:
        raise TableExistsError(f"not overwriting {path} without --force: {error}") from None
    raise TableExistsError(f"a valid table already exists at {path} (use --force to rebuild it)")


def _header(size: int, body_digest: str) -> bytes:
    """The header of a file of ``size`` bytes whose bytes after the header have this SHA-256 (hex)."""
    return (_MAGIC + f"size {size}\nsha256 {body_digest}\n".encode()).ljust(HEADER_BYTES, b"\0")


def _body_digest(file: IO[bytes]) -> str:
    """SHA-256 (hex) of the bytes of ``file`` after the header."""
    file.seek(HEADER_BYTES)
    sha = hashlib.sha256()
    while block := file.read(_READ_BYTES):
        sha.update(block)
    return sha.hexdigest()


def stamp(path: Path) -> None:
    """Write the header of the file at ``path`` (an HDF5 file with a user block of
    :data:`HEADER_BYTES`) from the bytes after it."""
    with open(path, "r+b") as raw:
        header = _header(os.fstat(raw.fileno()).st_size, _body_digest(raw))
        raw.seek(0)
        raw.write(header)


def write(path: Path, dataset: str, data: npt.NDArray[Any], attributes: Attributes,
          undigested: tuple[str, ...] = (), level: int = 6) -> None:
    """Write ``data`` as the one dataset ``dataset`` of a table at ``path`` (atomically), chunked and
    gzip-compressed at ``level``, with ``attributes`` (in their order), :data:`FORMAT`, the data's
    digest and the attributes' digest, behind the header. The same inputs give the same bytes.

    Raises :class:`TableError` if the file cannot be written."""
    try:
        with files.replacing(path) as temporary:
            with h5py.File(temporary, "w", track_order=True, userblock_size=HEADER_BYTES) as file:
                file.create_dataset(dataset, data=data, chunks=(max(1, min(len(data), _CHUNK_BYTES)),),
                                    compression="gzip", compression_opts=level, shuffle=False, track_times=False)
                file.attrs.update({"format": FORMAT, **attributes, "digest": digest(data)})
                # Digest the attributes as they read back, so that writing and checking see the same types.
                file.attrs["attributes_digest"] = attributes_digest(dict(file.attrs), undigested)
            stamp(Path(temporary))
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


class Contents:
    """An open table file: its attributes, checked for :data:`FORMAT` only, and its datasets.
    ``rebuild`` is the command that rebuilds the file, for messages."""

    def __init__(self, path: Path, file: h5py.File, rebuild: str = "") -> None:
        self.path = path
        self.rebuild = rebuild
        self._file = file
        self.attributes: Attributes = dict(file.attrs)

    @property
    def ours(self) -> bool:
        """Does the file say it is a table of this project?"""
        return self.attributes.get("format") == FORMAT

    def has(self, dataset: str) -> bool:
        return isinstance(self._file.get(dataset), h5py.Dataset)

    def damaged(self, why: str) -> TableError:
        """The error for this file, damaged as ``why`` says."""
        return damaged(self.path, why, self.rebuild)

    def check_attributes(self, undigested: tuple[str, ...] = ()) -> None:
        """Raise :class:`TableError` unless the attributes match their digest."""
        if attributes_digest(self.attributes, undigested) != self.attributes.get("attributes_digest"):
            raise self.damaged("its attributes do not match their digest")

    def read(self, dataset: str, shape: tuple[int, ...], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
        """The dataset's array; :class:`TableError` unless it has ``shape`` and ``dtype`` (a scalar type
        or a record type) and matches the ``digest`` attribute."""
        stored = self._file[dataset]
        if stored.shape != shape or stored.dtype != np.dtype(dtype):
            raise self.damaged(f"its data has shape {stored.shape} of {stored.dtype}, not {shape} of "
                               f"{np.dtype(dtype)}")
        data: npt.NDArray[Any] = stored[()]
        if digest(data) != self.attributes.get("digest"):
            raise self.damaged("its data does not match its digest")
        return data


def damaged(path: Path, why: str, rebuild: str = "") -> TableError:
    """``table <path> is damaged: <why>; rebuild it with <rebuild>``."""
    return TableError(f"table {path} is damaged: {why}; " + (f"rebuild it with {rebuild}" if rebuild else "rebuild it"))


def _verified(raw: IO[bytes], path: Path, rebuild: str) -> None:
    """Raise :class:`TableError` unless ``raw``, the open file at ``path``, is a regular file with a
    valid header and every byte after it matches the header's digest."""
    if not stat.S_ISREG(os.fstat(raw.fileno()).st_mode):
        raise TableError(f"cannot use {path}: it is not a regular file")
    header = raw.read(HEADER_BYTES)
    if not header.startswith(_MAGIC):
        kind = ("an HDF5 file without the table header: another program's file, or a table written by an "
                "older version" if header.startswith(_HDF5_SIGNATURE) else "")
        remedy = f"; rebuild it with {rebuild}" if kind and rebuild else ""
        raise TableError(f"{path} is not a neutreeko-solver table" + (f" ({kind}){remedy}" if kind else ""))
    fields = header[len(_MAGIC):].split(b"\n")
    try:
        size = int(fields[0].removeprefix(b"size ").decode("ascii"))
        expected = fields[1].removeprefix(b"sha256 ").decode("ascii")
        if _header(size, expected) != header:
            raise ValueError
    except (ValueError, IndexError, UnicodeDecodeError):
        raise damaged(path, "its header is not as written", rebuild) from None
    actual_size = os.fstat(raw.fileno()).st_size
    if actual_size < size:
        raise damaged(path, f"it is truncated ({actual_size:,} of {size:,} bytes)", rebuild)
    if actual_size != size:
        raise damaged(path, f"it has {actual_size:,} bytes, not {size:,}", rebuild)
    if _body_digest(raw) != expected:
        raise damaged(path, "its contents do not match their digest", rebuild)
    raw.seek(0)


@contextmanager
def opened(path: Path, rebuild: str = "") -> Iterator[Contents]:
    """``path`` opened read-only as :class:`Contents`, once the whole file has been verified against its
    header. A file that cannot be read, is not a table, is damaged, or fails to read inside the block
    raises :class:`TableError` saying why; messages about a damaged file name ``rebuild``, the command
    that rebuilds it."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror or error}") from None
    with os.fdopen(descriptor, "rb") as raw:
        try:
            _verified(raw, path, rebuild)
        except OSError as error:
            raise TableError(f"cannot read {path}: {error.strerror or error}") from None
        try:
            with h5py.File(raw, "r") as file:
                yield Contents(path, file, rebuild)
        except TableError:
            raise
        except Exception as error:  # whatever the HDF5 library makes of a file that passed the digest
            raise damaged(path, f"it cannot be read ({type(error).__name__}: {error})", rebuild) from None
