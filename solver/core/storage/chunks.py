"""Reading a table's dataset a chunk at a time: each chunk read from the file (``os.pread``, or an
HTTP ``Range`` request for a table at an address), checked against its SHA-256 before it is
decompressed, and kept in one bounded cache of the process.

A probe reads the one chunk that holds its answer; a batch reads each chunk it needs once; a whole
table is read chunk by chunk into one array. The HDF5 library takes no part in it: the container's
header (:mod:`solver.core.storage.container`) gives each chunk's offset, stored size and digest, and the
chunks are zlib streams (HDF5's deflate filter), decompressed, bounded to the chunk's size, by ISA-L
(the ``isal`` package's zlib interface): the same streams, faster than :mod:`zlib`, which
matters wherever many chunks are read (random positions of a big table, a whole table). A chunk that
does not match its digest, or does not decompress to exactly one chunk, raises
:class:`~solver.core.errors.TableError` ("table X is damaged: ..."), so that nothing is answered from
unverified bytes.

The cache holds decompressed chunks of every open table, least recently used first out, up to
:func:`cache_limit` bytes (default :data:`~solver.core.storage.DEFAULT_CACHE_BYTES`; ``$NEUTREEKO_CACHE_MB`` or
:func:`set_cache_limit` change it). It is shared by the threads of a server: a lock guards it, and
chunks are read and decompressed outside the lock.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from isal import isal_zlib

from solver.core.errors import InputError, TableError
from solver.core.storage import DEFAULT_CACHE_BYTES

#: The entries of a chunk map: where each chunk is stored, its stored size, its first key (for a
#: dataset sorted by a 64-bit key, 0 otherwise) and the SHA-256 of its stored bytes.
MAP_ENTRY = np.dtype([("offset", "<u8"), ("size", "<u8"), ("fence", "<u8"), ("sha256", "u1", (32,))])
# Threads that read and decompress chunks (ISA-L and hashlib release the interpreter's lock), and the
# chunks a batch asks of them at a time (which bounds the decompressed chunks held outside the cache).
_WORKERS = max(1, min(4, os.cpu_count() or 1))
_BATCH = 16
# What ISA-L raises for a stream that is not deflate (its stubs declare it an instance, not a class).
_INFLATE_ERROR: type[Exception] = isal_zlib.error  # type: ignore[assignment]


class _Cache:
    """Decompressed chunks by (reader, chunk number), least recently used evicted first beyond
    ``limit`` bytes (by default :func:`_default_limit`, read when first needed)."""

    def __init__(self) -> None:
        self._limit: int | None = None
        self._chunks: OrderedDict[tuple[int, int], npt.NDArray[Any]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[int, int]) -> npt.NDArray[Any] | None:
        with self._lock:
            chunk = self._chunks.get(key)
            if chunk is not None:
                self._chunks.move_to_end(key)
            return chunk

    def put(self, key: tuple[int, int], chunk: npt.NDArray[Any]) -> None:
        with self._lock:
            if key in self._chunks or chunk.nbytes > self.limit:
                return
            self._chunks[key] = chunk
            self._bytes += chunk.nbytes
            self._shrink()

    def forget(self, owner: int) -> None:
        """Drop every chunk of the reader ``owner``."""
        with self._lock:
            for key in [key for key in self._chunks if key[0] == owner]:
                self._bytes -= self._chunks.pop(key).nbytes

    @property
    def limit(self) -> int:
        if self._limit is None:
            self._limit = _default_limit()
        return self._limit

    def resize(self, limit: int) -> None:
        with self._lock:
            self._limit = limit
            self._shrink()

    @property
    def size(self) -> int:
        """Bytes held."""
        return self._bytes

    def _shrink(self) -> None:
        while self._bytes > self.limit and self._chunks:
            self._bytes -= self._chunks.popitem(last=False)[1].nbytes


def _default_limit() -> int:
    """``$NEUTREEKO_CACHE_MB`` in bytes, or :data:`~solver.core.storage.DEFAULT_CACHE_BYTES` if it is not set or empty;
    :class:`InputError` unless it is a whole number of at most 12 digits."""
    text = os.environ.get("NEUTREEKO_CACHE_MB", "")
    if not text:
        return DEFAULT_CACHE_BYTES
    if not re.fullmatch("[0-9]{1,12}", text):
        raise InputError(f"NEUTREEKO_CACHE_MB {text[:60]!r} is not a number of megabytes (a whole number of at "
                         "most 12 digits)")
    return int(text) << 20


_CACHE = _Cache()
# Numbers the readers, whose chunks the cache holds under their number.
_READERS = itertools.count()


@functools.lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """The threads that read chunks, started on first use."""
    return ThreadPoolExecutor(_WORKERS, thread_name_prefix="chunks")


def cache_limit() -> int:
    """The cache's bound in bytes."""
    return _CACHE.limit


def cache_size() -> int:
    """The bytes of decompressed chunks the cache holds now."""
    return _CACHE.size


def set_cache_limit(limit: int) -> None:
    """Bound the cache to ``limit`` bytes (chunks beyond it are dropped at once)."""
    _CACHE.resize(max(0, int(limit)))


class Source(Protocol):
    """Where a table's bytes are read from: a local file (:class:`OpenFile`) or a file served over HTTP
    (:class:`~solver.core.storage.remote_file.RemoteFile`)."""

    def read(self, length: int, offset: int) -> bytes:
        """Up to ``length`` bytes from ``offset`` (fewer at the end of the file)."""

    def size(self) -> int:
        """The file's size in bytes."""

    def close(self) -> None:
        """Let go of the file."""


class OpenFile:
    """A file open for reading, closed by :meth:`close` or when the last reference to it goes (the
    chunk reader and the table's contents share one)."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor
        self._closer = weakref.finalize(self, os.close, descriptor)

    def read(self, length: int, offset: int) -> bytes:
        """Up to ``length`` bytes from ``offset`` (fewer at the end of the file)."""
        return os.pread(self.descriptor, length, offset)

    def size(self) -> int:
        return os.fstat(self.descriptor).st_size

    def close(self) -> None:
        self._closer()


class Chunks:
    """One dataset of an open table: ``length`` items of ``dtype`` in chunks of ``chunk_items``, stored at
    the places ``entries`` (of :data:`MAP_ENTRY`) says in ``file``.

    ``damaged(why)`` makes the error raised when a chunk is not as written."""

    def __init__(self, file: Source, entries: npt.NDArray[np.void], length: int, chunk_items: int,
                 dtype: np.dtype[Any], damaged: Callable[[str], TableError]) -> None:
        self.length = length
        self.chunk_items = chunk_items
        self.dtype = dtype
        self.entries = entries
        self._file = file
        self._damaged = damaged
        self._key = next(_READERS)  # not id(self): a later reader may get the id of a forgotten one

    def __len__(self) -> int:
        return self.length

    @property
    def count(self) -> int:
        """The number of chunks."""
        return len(self.entries)

    @property
    def fences(self) -> npt.NDArray[np.uint64]:
        """The first key of each chunk (for a dataset sorted by a 64-bit key)."""
        return np.asarray(self.entries["fence"])

    def chunk(self, number: int) -> npt.NDArray[Any]:
        """The items of chunk ``number`` (the last one cut to the dataset's length), verified; read-only."""
        return self._chunks([number])[0]

    def take(self, positions: npt.ArrayLike) -> npt.NDArray[Any]:
        """The items at ``positions`` (integers in ``0 .. length - 1``, any shape), each chunk read once."""
        wanted = np.asarray(positions, dtype=np.int64)
        flat = wanted.reshape(-1)
        if flat.size and (flat.min() < 0 or flat.max() >= self.length):
            raise IndexError(f"position out of range 0 .. {self.length - 1}")
        numbers = flat // self.chunk_items
        out = np.empty(flat.shape, dtype=self.dtype)
        if flat.size == 0:
            return out.reshape(wanted.shape)
        if flat.size == 1:  # a single probe: no sorting
            out[0] = self.chunk(int(numbers[0]))[flat[0] - numbers[0] * self.chunk_items]
            return out.reshape(wanted.shape)
        order = np.argsort(numbers, kind="stable")
        parts = np.split(order, np.flatnonzero(np.diff(numbers[order])) + 1)
        for first in range(0, len(parts), _BATCH):
            batch = parts[first:first + _BATCH]
            batch_numbers = [int(numbers[part[0]]) for part in batch]
            for number, part, chunk in zip(batch_numbers, batch, self._chunks(batch_numbers)):
                out[part] = chunk[flat[part] - number * self.chunk_items]
        return out.reshape(wanted.shape)

    def _chunks(self, numbers: list[int]) -> list[npt.NDArray[Any]]:
        """The chunks ``numbers``, from the cache or read (several at once by threads), then cached."""
        found = [_CACHE.get((self._key, number)) for number in numbers]
        missing = [number for number, chunk in zip(numbers, found) if chunk is None]
        read = dict(zip(missing, _pool().map(self._read, missing) if len(missing) > 1 else map(self._read, missing)))
        for number, chunk in read.items():
            _CACHE.put((self._key, number), chunk)
        return [chunk if chunk is not None else read[number] for number, chunk in zip(numbers, found)]

    def whole(self) -> npt.NDArray[Any]:
        """The whole dataset as one array, every chunk verified (read in parallel, not cached)."""
        data = np.empty(self.length, dtype=self.dtype)
        for number, chunk in enumerate(self.in_order()):
            first = number * self.chunk_items
            data[first:first + len(chunk)] = chunk
        return data

    def in_order(self) -> Iterator[npt.NDArray[Any]]:
        """Every chunk in order, verified, read a batch at a time in parallel and not cached: the whole
        dataset in the memory of one batch, whatever its size."""
        for first in range(0, self.count, _BATCH):
            yield from _pool().map(self._read, range(first, min(first + _BATCH, self.count)))

    def close(self) -> None:
        """Drop this reader's chunks from the cache."""
        _CACHE.forget(self._key)

    def _read(self, number: int) -> npt.NDArray[Any]:
        entry = self.entries[number]
        offset, size = int(entry["offset"]), int(entry["size"])
        stored = self._file.read(size, offset)
        if len(stored) != size:
            raise self._damaged(f"chunk {number} is cut short")
        if hashlib.sha256(stored).digest() != entry["sha256"].tobytes():
            raise self._damaged(f"chunk {number} does not match its digest")
        expected = self.chunk_items * self.dtype.itemsize
        inflater = isal_zlib.decompressobj()
        try:
            raw = inflater.decompress(stored, expected)
        except _INFLATE_ERROR:
            raise self._damaged(f"chunk {number} does not decompress") from None
        if len(raw) != expected or not inflater.eof or inflater.unconsumed_tail:
            raise self._damaged(f"chunk {number} does not decompress to {expected:,} bytes")
        items = np.frombuffer(raw, dtype=self.dtype)
        first = number * self.chunk_items
        return items[:max(0, min(self.chunk_items, self.length - first))]
