"""The table container every game stores its results in: a plain HDF5 file holding one chunked,
gzip-compressed dataset and attributes that describe it, behind a header (HDF5's *user block*, which
the library skips) that tells this project's reader everything it needs without the HDF5 library.

:func:`write` and :func:`stamp` write a table; :func:`open_contents` opens one as :class:`Contents`,
checking the header, the chunk map and (in a local file) every byte that lies in no chunk, and
:meth:`Contents.check_attributes` checks the attributes a game names (:class:`Kind`); a chunk is checked
against its digest when it is read (:mod:`solver.core.storage.chunks`). A damaged or forged file raises
one :class:`~solver.core.errors.TableError` naming the table ("table X is damaged: ...; rebuild it
with ..."), a file of the first container format one naming the command that converts it
(:mod:`solver.core.storage.legacy`). :func:`check_file` digests the whole file at once. What the
attributes mean is each game's business (:mod:`solver.neutreeko.tables.table`,
:mod:`solver.necnon.tables.table`).

Where tables live (:func:`tables_dir`): ``$NEUTREEKO_TABLES`` if set; otherwise ``tables/`` of the
source checkout the package runs from; otherwise (an installed package)
``$XDG_DATA_HOME/neutreeko-solver/tables`` (``~/.local/share/neutreeko-solver/tables``).

The file, byte by byte: docs/table-format.md; how the guarantee is kept: docs/design/tables.md.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
import json
import math
import os
import stat
import zlib
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from solver.core import files
from solver.core.errors import MissingTableError, TableError, TableExistsError
from solver.core.storage.chunks import MAP_ENTRY, Chunks, OpenFile, Source
from solver.core.storage.remote import Location, Url, location

#: The ``format`` attribute of every table of this project.
FORMAT = "neutreeko-solver table"
#: The dataset of every table that holds its chunk map.
MAP_DATASET = "chunk_map"
#: Uncompressed bytes of a chunk (the last chunk of a dataset may hold fewer items).
CHUNK_BYTES = 1 << 18
#: zlib's compression level of every table: level 9 stores little less, for a compression several times
#: as slow (scripts/bench_chunk_size.py measures both); a probe decompresses either as fast.
LEVEL = 6
#: The smallest header (HDF5 user blocks are 512 bytes or a larger power of two).
HEADER_BYTES = 512
_MAGIC = b"neutreeko-solver table container 2\n"
_LEGACY_MAGIC = b"neutreeko-solver table container 1\n"
_HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
#: The fields of the header's JSON and their types.
_HEADER_FIELDS = {"size": int, "header_bytes": int, "body_sha256": str, "metadata_sha256": str, "dataset": str,
                  "dtype": list, "shape": list, "chunk_items": int, "map_offset": int, "map_sha256": str,
                  "attributes": dict}
_MAX_JSON = 1 << 20
_READ_BYTES = 1 << 20
# Chunks compressed at a time when writing, and blocks read at a time when digesting (16 MiB held), by
# threads (zlib, hashlib and reading release the interpreter's lock).
_BATCH = 64
_READ_BATCH = 16
_WORKERS = max(1, min(4, os.cpu_count() or 1))

Attributes = dict[str, Any]
Opened = TypeVar("Opened")


@dataclass(frozen=True)
class Kind:
    """What an attribute's value must be: ``what`` says it in words, ``accepts`` tells."""

    what: str
    accepts: Callable[[Any], bool]


COUNT = Kind("a count", lambda value: type(value) is int and value >= 0)
INTEGER = Kind("a whole number", lambda value: type(value) is int)
SECONDS = Kind("a time in seconds", lambda value: type(value) is float and 0 <= value < math.inf)
TEXT = Kind("a text", lambda value: type(value) is str)
FLAG = Kind("true or false", lambda value: type(value) is bool)
TEXTS = Kind("a list of texts", lambda value: type(value) is list and all(type(item) is str for item in value))
#: The attributes every table of this project has, whatever its game (:func:`write` writes them).
COMMON_ATTRIBUTES = {"format": TEXT, "format_version": COUNT, "digest": TEXT, "writer": TEXT, "written": TEXT}


def check_kinds(attributes: Mapping[str, Any], schema: Mapping[str, Kind],
                damaged: Callable[[str], TableError]) -> None:
    """Raise ``damaged(why)`` naming the first attribute of ``schema`` that ``attributes`` lack or hold
    in a value not of its :class:`Kind` (quoted to 60 characters)."""
    for name, kind in schema.items():
        if name not in attributes:
            raise damaged(f"its attribute {name} is missing")
        if not kind.accepts(attributes[name]):
            raise damaged(f"its attribute {name} is {repr(attributes[name])[:60]}, not {kind.what}")


def tables_dir() -> Location:
    """The directory tables are read from and written to by default (see the module docstring): a
    :class:`~solver.core.storage.remote.Url` if ``$NEUTREEKO_TABLES`` is the address of a release."""
    if os.environ.get("NEUTREEKO_TABLES"):
        return location(os.environ["NEUTREEKO_TABLES"])
    checkout = Path(__file__).resolve().parents[3]
    if (checkout / "pyproject.toml").is_file() and (checkout / "tables").is_dir():
        return checkout / "tables"
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "neutreeko-solver" / "tables"


def digest(data: npt.NDArray[Any]) -> str:
    """``"sha256:<hex>"`` of an array's bytes."""
    return "sha256:" + hashlib.sha256(np.ascontiguousarray(data).data).hexdigest()


def _make_tables_dir(path: Path) -> None:
    """Make the tables directory (:func:`tables_dir`, the program's own) if ``path`` goes in it and it is
    missing; a table anywhere else needs its directory to exist already."""
    home = tables_dir()
    if isinstance(home, Path) and os.path.abspath(path.parent) == os.path.abspath(home):
        path.parent.mkdir(parents=True, exist_ok=True)


def local(path: Location) -> Path:
    """``path`` if it is a local path; :class:`~solver.core.errors.TableError` for an address, where tables
    are read, never written."""
    if isinstance(path, Url):
        raise TableError(f"cannot write a table at {path}: tables are read from an address, written to a directory")
    return path


def check_writable(path: Path) -> None:
    """Raise :class:`~solver.core.errors.TableError` unless a table can be written at ``path`` (making the
    tables directory if it goes there), so that a long solve does not end in a failed write."""
    try:
        _make_tables_dir(path)
        files.check_writable(path)
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


def check_present(path: Location, missing: str) -> None:
    """Raise :class:`~solver.core.errors.MissingTableError` (a ``KeyError``) saying ``missing`` if nothing is at ``path``,
    and :class:`~solver.core.errors.TableError` if something other than a regular file is (a link leading nowhere, a FIFO,
    a device, a directory). An address is not looked at: opening it tells."""
    if isinstance(path, Url):
        return
    try:
        present = files.regular_file(path)
    except OSError as error:
        raise TableError(f"cannot use {path} as a table: {error.strerror or error}") from None
    if not present:
        raise MissingTableError(missing)


def ensure(path: Location, open_existing: Callable[[Location], Opened], check_asked: Callable[[Path], None],
           build: Callable[[Path], object], on_build: Callable[[Path], None] | None = None) -> Opened:
    """The table at ``path`` as ``open_existing`` opens it; if there is none
    (:class:`~solver.core.errors.MissingTableError`), ``check_asked(path)`` (which raises if it may not be built), then
    ``on_build(path)`` (to say what comes), ``build(path)`` and the table it built. None is built at an
    address: its :class:`~solver.core.errors.MissingTableError` is raised."""
    try:
        return open_existing(path)
    except MissingTableError:
        if isinstance(path, Url):
            raise
        check_asked(path)
        if on_build:
            on_build(path)
        build(path)
        return open_existing(path)


def check_replaceable(path: Path, force: bool, open_existing: Callable[[Path], object]) -> None:
    """Raise :class:`~solver.core.errors.TableError` before any work unless a table can be written at ``path``, and
    :class:`~solver.core.errors.TableExistsError` if a file is there and not ``force``: a valid table (``open_existing``
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



@dataclass(frozen=True)
class Pieces:
    """One-dimensional data given in order a piece at a time, so that it is never whole in memory:
    ``length`` items of ``dtype``, whose :func:`digest` is ``digest``; ``pieces()`` yields them anew on
    each call."""

    length: int
    dtype: np.dtype[Any]
    digest: str
    pieces: Callable[[], Iterator[npt.NDArray[Any]]]


def write(path: Path, dataset: str, data: npt.NDArray[Any] | Pieces, attributes: Attributes,
          sorted_by: str | None = None, replace: bool = True) -> None:
    """Write ``data`` (one-dimensional, or :class:`Pieces`) as the one dataset ``dataset`` of a table at ``path``
    (atomically, flushed to disk), in chunks of :data:`CHUNK_BYTES` compressed with zlib at :data:`LEVEL`
    (HDF5's gzip filter), with ``attributes`` (in their order; JSON-compatible values), :data:`FORMAT`,
    the data's digest and the writer's name and the date; ``sorted_by`` names the field by which the
    records are sorted (its first value in each chunk is kept in the chunk map). The same inputs give
    the same bytes but for the date. Unless ``replace``, a file at ``path`` is never replaced, even one
    that appeared while the table was being written: :class:`~solver.core.errors.TableExistsError`.

    Raises :class:`~solver.core.errors.TableError` if the file cannot be written (a full disk included: the HDF5 file is
    closed whatever failed, and the temporary file removed)."""
    length = data.length if isinstance(data, Pieces) else len(data)
    chunk_items = max(1, min(length, CHUNK_BYTES // data.dtype.itemsize))
    try:
        described = {"format": FORMAT, **attributes,
                     "digest": data.digest if isinstance(data, Pieces) else digest(data), **_provenance(),
                     **({"sorted_by": sorted_by} if sorted_by else {})}
        header_bytes = _power_of_two(len(json.dumps(described)) + 2048)
        _make_tables_dir(path)
        with files.replacing(path, replace) as temporary:
            with _hdf5(Path(temporary), "w", track_order=True, userblock_size=header_bytes) as (file, sink):
                stored = file.create_dataset(dataset, shape=(length,), dtype=data.dtype, chunks=(chunk_items,),
                                             compression="gzip", compression_opts=LEVEL, shuffle=False,
                                             track_times=False)
                pieces = data.pieces() if isinstance(data, Pieces) else iter([data])
                for number, compressed in _compressed(_rechunked(pieces, chunk_items, length)):
                    stored.id.write_direct_chunk((number * chunk_items,), compressed)
                    sink.check()  # a full disk stops the compression too
                file.create_dataset(MAP_DATASET, data=np.zeros(-(-length // chunk_items), MAP_ENTRY),
                                    track_times=False)
                file.attrs.update(described)
            stamp(Path(temporary))
    except FileExistsError as error:  # not replace, and a file appeared while the table was written
        raise TableExistsError(f"not overwriting {path} without --force: {error.strerror}") from None
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


def stamp(path: Path) -> None:
    """Write the chunk map and the header of the table file at ``path`` from the file as HDF5 describes
    it: each chunk's place, size, first key and digest, the map's digest, every attribute, and the
    digest of every byte after the header. :func:`write` ends with it; on a file changed through HDF5
    it gives what a writer would have written."""
    with _hdf5(path, "r+") as (file, _):
        dataset = next(name for name in file if name != MAP_DATASET)
        stored = file[dataset]
        chunk_items = int(stored.chunks[0])
        sorted_by = file.attrs.get("sorted_by")
        header_bytes = int(file.userblock_size)
        entries = np.zeros(len(file[MAP_DATASET]), MAP_ENTRY)
        for number, entry in enumerate(entries):
            where = stored.id.get_chunk_info_by_coord((number * chunk_items,))
            raw = stored.id.read_direct_chunk((number * chunk_items,))[1]
            entry["offset"], entry["size"] = where.byte_offset, where.size
            entry["sha256"] = np.frombuffer(hashlib.sha256(raw).digest(), np.uint8)
            if number == 0:
                shift = _shift(path, where.byte_offset, raw, header_bytes)
            if sorted_by:
                entry["fence"] = np.frombuffer(zlib.decompress(raw), stored.dtype)[0][sorted_by]
        entries["offset"] += np.uint64(shift if len(entries) else 0)
        file[MAP_DATASET][...] = entries
        map_offset = int(file[MAP_DATASET].id.get_offset())
        header = {"dataset": dataset, "dtype": _dtype_text(stored.dtype), "shape": list(stored.shape),
                  "chunk_items": chunk_items, "map_sha256": hashlib.sha256(entries.tobytes()).hexdigest(),
                  "attributes": {name: _plain(value) for name, value in file.attrs.items()}}
    header["map_offset"] = map_offset + _shift(path, map_offset, entries.tobytes(), header_bytes)
    with open(path, "r+b") as raw:
        written = OpenFile(os.dup(raw.fileno()))
        try:
            size = written.size()
            header = {"size": size, "header_bytes": header_bytes,
                      "body_sha256": _digest_ranges(written, [(header_bytes, size)]),
                      "metadata_sha256": _metadata_digest(written, entries, header_bytes, size), **header}
        finally:
            written.close()
        text = _header_text(header)
        if len(text) > header_bytes:
            raise OSError(f"the header of {path} does not fit its {header_bytes} bytes")
        raw.seek(0)
        raw.write(text.ljust(header_bytes, b"\0"))


def _shift(path: Path, address: int, expected: bytes, header_bytes: int) -> int:
    """What to add to an address HDF5 gives (of a chunk, or of a dataset's data) for the place of its
    bytes ``expected`` in the file at ``path``: 0, or the header's size, which some HDF5 versions (1.12)
    leave out of the addresses they give. Raises :class:`OSError` if the bytes are at neither place."""
    with open(path, "rb") as raw:
        for shift in (0, header_bytes):
            raw.seek(address + shift)
            if raw.read(len(expected)) == expected:
                return shift
    raise OSError(f"HDF5 places data of {path} at {address:,}, which holds other bytes")


@contextmanager
def _hdf5(path: Path, mode: str, **options: Any) -> Iterator[tuple[Any, _Sink]]:
    """``path`` opened by h5py in ``mode`` (``"w"`` or ``"r+"``, with h5py's ``options``) through a
    :class:`_Sink`, and the sink. The HDF5 file is closed when the block ends, whatever happened, and
    then the sink's failure, if any, is raised (an :class:`OSError`, or the interrupt that stopped a
    write)."""
    import h5py  # only writing needs HDF5: reading goes by the header

    with open(path, "r+b", buffering=0) as raw:
        sink = _Sink(raw)
        with h5py.File(sink, mode, **options) as file:
            yield file, sink
        sink.check()


class _Sink:
    """The file HDF5 writes a table to (h5py's ``fileobj`` driver): an unbuffered file whose first failed
    write (a full disk, a quota, an I/O error, or an interrupt arriving inside it) is kept, every write
    from then on being discarded, so that HDF5 never sees a write fail.

    Why: HDF5 that cannot flush a file when closing it keeps the file half open; h5py's finalisers then
    print errors, and the interpreter crashes when it finalises what is left at exit (a full disk ended
    ``solve`` with a segmentation fault). With writes that do not fail, closing always closes the file
    and every object in it; :meth:`check` then raises what went wrong. What the file holds after a
    failure does not matter: it is a temporary file, removed."""

    def __init__(self, raw: io.FileIO) -> None:
        self._raw = raw
        self.failure: BaseException | None = None

    def check(self) -> None:
        """Raise the kept failure, if any."""
        if self.failure is not None:
            raise self.failure

    def write(self, data: memoryview) -> int:
        def write_all() -> None:
            view = memoryview(data)
            while view:  # an unbuffered write may write a part
                view = view[self._raw.write(view):]

        self._unless_failed(write_all)
        return len(data)

    def truncate(self, size: int) -> int:
        self._unless_failed(lambda: self._raw.truncate(size))
        return size

    def _unless_failed(self, write: Callable[[], object]) -> None:
        """Run ``write`` unless a failure is kept; keep its failure, an interrupt too (HDF5 must not see
        it: :meth:`check` raises it)."""
        if self.failure is None:
            try:
                write()
            except BaseException as failure:
                self.failure = failure

    def flush(self) -> None:
        """Nothing to do: the file is unbuffered, and :func:`solver.core.files.replacing` makes it durable."""

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def readinto(self, buffer: memoryview) -> int | None:
        return self._raw.readinto(buffer)

    def read(self, size: int = -1) -> bytes:
        return self._raw.read(size)


class Contents:
    """An open table file: its attributes, as the verified header gives them, and its dataset, read a
    verified chunk at a time. ``rebuild`` is the command that rebuilds the file, for messages. The file
    stays open until :meth:`close` or until the object is forgotten."""

    def __init__(self, path: Location, file: Source, header: dict[str, Any], entries: npt.NDArray[np.void],
                 rebuild: str = "") -> None:
        self.path = path
        self.rebuild = rebuild
        self.attributes: Attributes = header["attributes"]
        self._header = header
        self._entries = entries
        self._file = file
        self._chunks: Chunks | None = None

    @property
    def size(self) -> int:
        """The file's size in bytes (as its verified header states)."""
        return int(self._header["size"])

    @property
    def ours(self) -> bool:
        """Does the file say it is a table of this project?"""
        return self.attributes.get("format") == FORMAT

    def check_attributes(self, schema: Mapping[str, Kind]) -> None:
        """Raise :class:`~solver.core.errors.TableError` (the file damaged) naming the first attribute of
        :data:`COMMON_ATTRIBUTES` and ``schema`` that is missing or not of its :class:`Kind`, so that
        readers of the attributes only ever see checked ones."""
        check_kinds(self.attributes, {**COMMON_ATTRIBUTES, **schema}, self.damaged)

    def has(self, dataset: str) -> bool:
        return bool(self._header["dataset"] == dataset)

    def damaged(self, why: str) -> TableError:
        """The error for this file, damaged as ``why`` says."""
        return damaged(self.path, why, self.rebuild)

    def chunks(self, dataset: str, length: int, dtype: npt.DTypeLike) -> Chunks:
        """The dataset, to be read a chunk at a time; :class:`~solver.core.errors.TableError` unless it has ``length`` items
        of ``dtype`` (a scalar type or a record type)."""
        if self._chunks is None:
            header, dtype = self._header, np.dtype(dtype)
            if not self.has(dataset) or header["shape"] != [length] or header["dtype"] != _dtype_text(dtype):
                raise self.damaged(f"its data has shape {header['shape']} of {header['dtype']}, not [{length}] "
                                   f"of {_dtype_text(dtype)}")
            chunk_items = header["chunk_items"]
            chunk_bytes = chunk_items * dtype.itemsize
            if chunk_items < 1 or len(self._entries) != -(-length // chunk_items) or chunk_bytes > 64 * CHUNK_BYTES \
                    or (len(self._entries) and self._entries["size"].max() > _deflated_bound(chunk_bytes)):
                raise self.damaged(f"its chunk map does not fit its data ({len(self._entries)} chunks of "
                                   f"{chunk_items} items for {length})")
            # Not self.damaged: a reader holding its contents would make a cycle, freed late with its file.
            self._chunks = Chunks(self._file, self._entries, length, chunk_items, dtype,
                                  functools.partial(damaged, self.path, rebuild=self.rebuild))
        return self._chunks

    def read(self, dataset: str, length: int, dtype: npt.DTypeLike) -> npt.NDArray[Any]:
        """The whole dataset as one array (see :meth:`chunks`), checked against the ``digest`` attribute
        too."""
        data = self.chunks(dataset, length, dtype).whole()
        if digest(data) != self.attributes.get("digest"):
            raise self.damaged("its data does not match its digest")
        return data

    def checked_chunks(self, dataset: str, length: int, dtype: npt.DTypeLike) -> Iterator[npt.NDArray[Any]]:
        """The dataset's chunks in order (see :meth:`chunks`), read in the memory of a few; after the last,
        :class:`~solver.core.errors.TableError` unless together they have the ``digest`` attribute: what :meth:`read`
        checks, without holding the data."""
        sha = hashlib.sha256()
        for chunk in self.chunks(dataset, length, dtype).in_order():
            sha.update(chunk.data)
            yield chunk
        if "sha256:" + sha.hexdigest() != self.attributes.get("digest"):
            raise self.damaged("its data does not match its digest")

    def checked_digest(self, dataset: str, length: int, dtype: npt.DTypeLike) -> str:
        """The ``digest`` attribute, once the dataset is found to have it (see :meth:`checked_chunks`)."""
        for _ in self.checked_chunks(dataset, length, dtype):
            pass
        return str(self.attributes["digest"])

    def check_figures(self, figures: Mapping[str, Any]) -> None:
        """Raise :class:`~solver.core.errors.TableError` naming the first of ``figures`` (computed from the data) that is not
        the attribute of its name: data that contradicts its own attributes is damaged."""
        for name, value in figures.items():
            stated = self.attributes.get(name)
            if value != stated:
                shown = f"{value:,}" if isinstance(value, int) else repr(value)
                raise self.damaged(f"its data has {name} {shown}, its attributes {stated!r}")

    def check_file(self) -> int:
        """Digest every byte after the header (the header was checked on opening) and return the file's
        size; :class:`~solver.core.errors.TableError` if they are not as written."""
        size = int(self._header["size"])
        try:
            body = _digest_ranges(self._file, [(self._header["header_bytes"], size)])
        except OSError as error:  # shorter now than when it was opened
            raise TableError(f"cannot read {self.path}: {error.strerror or error}") from None
        if body != self._header["body_sha256"]:
            raise self.damaged("its contents do not match their digest")
        return size

    def close(self) -> None:
        """Close the file (its chunks leave the cache)."""
        if self._chunks is not None:
            self._chunks.close()
        self._file.close()


def damaged(path: Location, why: str, rebuild: str = "") -> TableError:
    """``table <path> is damaged: <why>; rebuild it with <rebuild>``; at an address, ``...; the copy
    served there is not the table published: publish it there again``."""
    if isinstance(path, Url):
        return TableError(f"table {path} is damaged: {why}; the copy served there is not the table published: "
                          "publish it there again")
    return TableError(f"table {path} is damaged: {why}; " + (f"rebuild it with {rebuild}" if rebuild else "rebuild it"))


def open_contents(path: Location, rebuild: str = "", convert: str = "") -> Contents:
    """``path`` (a file, or an address read as :mod:`solver.core.storage.remote` says) opened read-only
    as :class:`Contents`, once its header and chunk map have been verified, and a local file's metadata
    region (at an address it is not read: finding and checking a chunk needs none of it, and on a big
    table it outweighs the map; :func:`check_file` reads it).
    A file that cannot be read, is not a table or is damaged raises :class:`~solver.core.errors.TableError`
    saying why; messages about a damaged file name ``rebuild``, the command that rebuilds it, and about a
    file of the first container format ``convert``, the command that rewrites it."""
    file = _remote_file(path) if isinstance(path, Url) else _open_file(path)
    try:
        header = _verified_header(file, path, rebuild, convert)
        entries = _verified_map(file, header, path, rebuild)
        if not isinstance(path, Url):
            _check_metadata(file, header, entries, path, rebuild)
    except OSError as error:
        file.close()
        raise TableError(f"cannot read {path}: {error.strerror or error}") from None
    except BaseException:
        file.close()
        raise
    return Contents(path, file, header, entries, rebuild)


def check_file(path: Location, rebuild: str = "", convert: str = "") -> int:
    """Digest the whole file at ``path`` (the header, padding included, and every byte after it) and
    return its size; raise :class:`~solver.core.errors.TableError` as :func:`open_contents` does if any byte is not as written."""
    contents = open_contents(path, rebuild, convert)
    try:
        return contents.check_file()
    finally:
        contents.close()


def _remote_file(url: Url) -> Source:
    """The file at ``url``, read over HTTP (the HTTP client imported here: a local table needs none)."""
    from solver.core.storage.remote_file import RemoteFile

    return RemoteFile(url)


def _open_file(path: Path) -> OpenFile:
    """The regular file at ``path`` opened for reading; :class:`~solver.core.errors.TableError` if it cannot be."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror or error}") from None
    file = OpenFile(descriptor)
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError as error:
        file.close()
        raise TableError(f"cannot read {path}: {error.strerror or error}") from None
    if not regular:
        file.close()
        raise TableError(f"cannot use {path}: it is not a regular file")
    return file


def _verified_header(file: Source, path: Location, rebuild: str, convert: str) -> dict[str, Any]:
    """The header of ``file``, checked (see the module docstring)."""
    start = file.read(HEADER_BYTES, 0)
    if start.startswith(_LEGACY_MAGIC):
        remedy = f"; rewrite it with {convert} {path} (it is not solved again)" if convert else ""
        raise TableError(f"{path} is a table in the first container format{remedy}")
    if not start.startswith(_MAGIC):
        kind = "an HDF5 file without the table header: another program's file, or a table written by an " \
               "older version" if start.startswith(_HDF5_SIGNATURE) else ""
        remedy = f"; rebuild it with {rebuild}" if kind and rebuild else ""
        raise TableError(f"{path} is not a neutreeko-solver table" + (f" ({kind}){remedy}" if kind else ""))
    try:
        line, _, _ = start[len(_MAGIC):].partition(b"\n")
        words = line.decode("ascii").split(" ")
        if len(words) != 4 or words[0] != "header" or words[2] != "sha256" or not words[1].isdigit():
            raise ValueError
        length = int(words[1])
        if length > _MAX_JSON:
            raise ValueError
        first = len(_MAGIC) + len(line) + 1
        text = file.read(length + 1, first)
        if hashlib.sha256(text[:length]).hexdigest() != words[3] or text[length:] != b"\n":
            raise ValueError
        header = json.loads(text[:length])
        if not isinstance(header, dict) or header.keys() != _HEADER_FIELDS.keys() or \
                any(type(header[name]) is not kind for name, kind in _HEADER_FIELDS.items()):
            raise ValueError
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise damaged(path, "its header is not as written", rebuild) from None
    size, header_bytes = header["size"], header["header_bytes"]
    actual = file.size()
    if actual < size:
        raise damaged(path, f"it is truncated ({actual:,} of {size:,} bytes)", rebuild)
    if actual != size:
        raise damaged(path, f"it has {actual:,} bytes, not {size:,}", rebuild)
    if header_bytes != _power_of_two(header_bytes) or not first + length < header_bytes <= header["map_offset"] \
            or header_bytes > 4 * _MAX_JSON \
            or file.read(header_bytes - first - length - 1, first + length + 1).strip(b"\0"):
        raise damaged(path, "its header is not as written", rebuild)
    for name, value in header["attributes"].items():
        if not _plain_value(value):
            raise damaged(path, f"its attribute {name[:60]} is {repr(value)[:60]}, not a text, finite number or "
                          "flag, or a list of them", rebuild)
    return header


def _verified_map(file: Source, header: dict[str, Any], path: Location, rebuild: str) -> npt.NDArray[np.void]:
    """The chunk map of ``file``, checked against the header."""
    shape, chunk_items, size = header["shape"], header["chunk_items"], header["size"]
    if len(shape) != 1 or type(shape[0]) is not int or shape[0] < 0 or chunk_items < 1:
        raise damaged(path, "its header is not as written", rebuild)
    count = -(-shape[0] // chunk_items)
    length = count * MAP_ENTRY.itemsize
    if header["map_offset"] + length > size:
        raise damaged(path, "its chunk map lies beyond its end", rebuild)
    stored = file.read(length, header["map_offset"])
    if hashlib.sha256(stored).hexdigest() != header["map_sha256"]:
        raise damaged(path, "its chunk map does not match its digest", rebuild)
    entries = np.frombuffer(stored, MAP_ENTRY)
    offsets, sizes = entries["offset"], entries["size"]
    if count and (offsets.min() < header["header_bytes"] or offsets.max() > size or sizes.max() > size
                  or (offsets + sizes).max() > size):
        raise damaged(path, "its chunk map points outside the file", rebuild)
    return entries


def _check_metadata(file: Source, header: dict[str, Any], entries: npt.NDArray[np.void], path: Location,
                    rebuild: str) -> None:
    """Raise :class:`~solver.core.errors.TableError` unless the metadata region of ``file`` matches the
    header's digest."""
    if _metadata_digest(file, entries, header["header_bytes"], header["size"]) != header["metadata_sha256"]:
        raise damaged(path, "its metadata does not match its digest", rebuild)


def _metadata_digest(file: Source, entries: npt.NDArray[np.void], start: int, end: int) -> str:
    """SHA-256 (hex) of the bytes from ``start`` to ``end`` of ``file`` that lie in no
    chunk of ``entries``: HDF5's metadata (superblock, object headers, chunk index, attributes) and the
    chunk map, in the order of the file."""
    # Found by numpy, the empty gaps left out (a big table has thousands between adjacent chunks, and
    # a few hundred that are not).
    order = np.argsort(entries["offset"], kind="stable")
    offsets = entries["offset"][order].astype(np.int64)
    ends = np.maximum.accumulate(offsets + entries["size"][order].astype(np.int64)) if len(entries) else offsets
    gaps = np.stack([np.maximum(np.r_[start, ends], start), np.r_[offsets, end]], axis=1)
    return _digest_ranges(file, [(at, until) for at, until in gaps[gaps[:, 0] < gaps[:, 1]].tolist()])


def _digest_ranges(file: Source, ranges: list[tuple[int, int]]) -> str:
    """SHA-256 (hex) of the bytes of ``file`` in each ``(start, end)`` of ``ranges`` in turn (empty
    ones too), read in blocks, a batch at a time, by threads when the batch holds more than a block
    (over HTTP, each block is a request). Raises :class:`OSError` if the file ends before a range does."""
    def read(block: tuple[int, int]) -> bytes:
        return file.read(block[1] - block[0], block[0])

    blocks = [(at, min(at + _READ_BYTES, end)) for start, end in ranges for at in range(start, end, _READ_BYTES)]
    sha = hashlib.sha256()
    with ExitStack() as stack:
        pool: ThreadPoolExecutor | None = None
        for first in range(0, len(blocks), _READ_BATCH):
            batch = blocks[first:first + _READ_BATCH]
            # Threads pay for themselves past a block's worth of bytes; a batch of small pieces (the
            # metadata of a local table: hundreds of them between its chunks on the largest boards) is
            # read sooner in this thread.
            if sum(end - at for at, end in batch) > _READ_BYTES:
                pool = pool or stack.enter_context(ThreadPoolExecutor(_WORKERS))
                pieces: Iterator[bytes] = pool.map(read, batch)
            else:
                pieces = map(read, batch)
            for (at, end), data in zip(batch, pieces):
                if len(data) != end - at:
                    raise OSError(f"the file ends at {at + len(data):,} bytes, before {end:,}")
                sha.update(data)
    return sha.hexdigest()


def _rechunked(pieces: Iterator[npt.NDArray[Any]], chunk_items: int, length: int) -> Iterator[npt.NDArray[Any]]:
    """The ``length`` items of ``pieces`` in chunks of ``chunk_items``. HDF5 stores an edge chunk whole:
    the last one is padded with zeros (the fill value). Raises ``ValueError`` if the pieces hold another
    number of items."""
    held: list[npt.NDArray[Any]] = []
    items = seen = 0
    for piece in pieces:
        seen += len(piece)
        while len(piece):
            taken = piece[:chunk_items - items]
            held.append(taken)
            items += len(taken)
            piece = piece[len(taken):]
            if items == chunk_items:
                yield held[0] if len(held) == 1 else np.concatenate(held)
                held, items = [], 0
    if seen != length:
        raise ValueError(f"the pieces hold {seen:,} items, not {length:,}")
    if items:
        yield np.concatenate([*held, np.zeros(chunk_items - items, held[0].dtype)])


def _compressed(chunks: Iterator[npt.NDArray[Any]]) -> Iterator[tuple[int, bytes]]:
    """(number, compressed bytes) of each of ``chunks`` in order, compressed a batch at a time by
    threads."""
    def compress(chunk: npt.NDArray[Any]) -> bytes:
        return zlib.compress(chunk.tobytes(), LEVEL)

    number = 0
    with ThreadPoolExecutor(_WORKERS) as pool:
        while batch := list(itertools.islice(chunks, _BATCH)):
            yield from zip(range(number, number + len(batch)), pool.map(compress, batch))
            number += len(batch)


def _header_text(header: dict[str, Any]) -> bytes:
    """The header's lines for the JSON fields ``header`` (without the padding)."""
    text = json.dumps({name: header[name] for name in _HEADER_FIELDS}, separators=(",", ":")).encode()
    return _MAGIC + f"header {len(text)} sha256 {hashlib.sha256(text).hexdigest()}\n".encode() + text + b"\n"


def _provenance() -> Attributes:
    """Who wrote a table and when: the ``writer`` and ``written`` attributes."""
    from importlib import metadata  # slow to import, and only a table's writer needs it

    try:
        version = metadata.version("neutreeko-solver")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return {"writer": f"neutreeko-solver {version}",
            "written": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def _dtype_text(dtype: np.dtype[Any]) -> list[Any]:
    """A numpy type as the header's JSON gives it: its ``descr``, lists for tuples."""
    described: list[Any] = json.loads(json.dumps(dtype.descr))
    return described


def _plain(value: Any) -> Any:
    """An attribute's value as h5py reads it, made plain Python (for the header's JSON)."""
    if isinstance(value, np.ndarray):
        return [_plain(item) for item in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    return value.decode() if isinstance(value, bytes) else value


def _plain_value(value: Any) -> bool:
    """Is ``value`` an attribute value the header may hold: a string, finite number or flag, or a list of
    them?"""
    if isinstance(value, list):
        return all(_plain_value(item) and not isinstance(item, list) for item in value)
    return isinstance(value, (str, int)) or isinstance(value, float) and math.isfinite(value)


def _deflated_bound(size: int) -> int:
    """The most bytes zlib makes of ``size`` bytes (its documented worst case, rounded up)."""
    return size + size // 1000 + 64


def _power_of_two(size: int) -> int:
    """The smallest power of two >= ``size`` and >= :data:`HEADER_BYTES`."""
    return max(HEADER_BYTES, 1 << max(0, size - 1).bit_length())
