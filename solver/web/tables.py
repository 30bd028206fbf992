"""The server's tables: each kept open while its file stays the same, each behind a lock of its own, a
missing one built when the game allows it, one build at a time, in a child process. Nothing here knows
a game: a table is a key (its name in messages), a path, a function that opens it and the command line
of a child process that builds it. Tables at a release's address are opened once and kept (a release
does not change), never built; those present are those its manifest lists.

What a request for a table may cost, and why:

- **A ready table** costs one ``stat`` of its file: its (device, inode, size, modification time) are
  compared with the opened file's, so that a table replaced or deleted on disk is reopened, or found
  missing (and so built again, if it may be), at the next request. A request for a ready table never
  waits for a build of another: each table has its own lock, held only to open it (a few
  milliseconds) or to build it.
- **A missing table** that may be built is built by :class:`Builds`: one build at a time, each in a
  child process, so that its memory (hundreds of megabytes over every small board) is the system's
  again when it ends, and so that stopping the server stops it at once: the child writes only in a
  private directory beside the table, and is killed and its directory removed when the server stops
  (:meth:`Builds.stop`); the server renames a built table into place
  (:func:`solver.core.files.replacing`: not once a SIGINT or SIGTERM has been received).
- **A wait** is bounded: a request for a table being built, or for a missing table while another is
  being built, waits up to :attr:`BuildLimits.wait_seconds`, then gets :class:`BusyError` (HTTP 503).
- **A failed build** (a full disk, a directory that cannot be written) is remembered for
  :attr:`BuildLimits.failure_seconds`: the requests in between get the same one-line
  :class:`BuildError`, naming the reason in the system's words (``No space left on device``), not in
  the HDF5 library's, which name the temporary file and buffer addresses.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, NoReturn, TypeGuard, TypeVar

from solver.core import files
from solver.core.errors import MissingTableError, TableError
from solver.core.storage import release
from solver.core.storage.remote import Location, Url

Table = TypeVar("Table")
#: The command line of a child process that writes a table to the path it is given.
Command = Callable[[Path], Sequence[str]]
Signature = tuple[int, int, int, int]

_REASON_CHARACTERS = 300


class BuildError(TableError):
    """A table could not be built (one line: the table, where, and the reason in words)."""


class BusyError(Exception):
    """A table cannot be had now but may be soon: it, or another, is being built, or the server is
    stopping. The request may be repeated."""


@dataclass(frozen=True)
class BuildLimits:
    """How long a request waits for a build (of its table, or of another before its own), how long a
    failed build is remembered, and how long a build may take before its child is killed (seconds)."""

    wait_seconds: float = 10.0
    failure_seconds: float = 60.0
    build_seconds: float = 300.0


@dataclass
class _Slot(Generic[Table]):
    """A table and the signature of the file it was opened from; its lock is held to open or build it."""

    lock: threading.Lock
    table: Table | None = None
    signature: Signature | None = None


class LiveTables(Generic[Table]):
    """Tables by key (a name such as ``"5x5 centre"``, used in messages), kept open while their files
    stay the same (see the module docstring); missing ones built by ``builds``, which every game's
    tables of a server share, so that builds run one at a time whatever their game. Safe to call from
    several threads at once."""

    def __init__(self, builds: Builds) -> None:
        self._limits = builds.limits
        self._builds = builds
        self._slots: dict[str, _Slot[Table]] = {}
        self._slots_lock = threading.Lock()

    def get(self, key: str, path: Location, open_table: Callable[[Location], Table],
            build: Command | None = None) -> Table:
        """The table ``key`` as ``open_table(path)`` opens it: the one opened before if the file at
        ``path`` is still the same, otherwise opened again; if it is missing (``open_table`` raises
        :class:`~solver.core.errors.MissingTableError`) and ``build`` is given, built by a child process running
        ``build(out)`` first, which writes it to ``out``.

        Raises what ``open_table`` raises (a table missing that may not be built, or damaged),
        :class:`BuildError` if the build failed (now or in the last ``failure_seconds``) and
        :class:`BusyError` if the table could not be had within ``wait_seconds``."""
        slot = self._slot(key)
        if not slot.lock.acquire(timeout=self._limits.wait_seconds):
            raise BusyError(f"the {key} table is being built; ask again in a few seconds")
        try:
            signature = _signature(path)
            if slot.table is None or signature is None or signature != slot.signature:
                # The table opened before is dropped, not closed: a request may still be reading it.
                slot.table = None
                slot.table, slot.signature = self._open(key, path, signature, open_table, build)
            return slot.table
        finally:
            slot.lock.release()

    def _slot(self, key: str) -> _Slot[Table]:
        with self._slots_lock:
            return self._slots.setdefault(key, _Slot(threading.Lock()))

    def _open(self, key: str, path: Location, signature: Signature | None, open_table: Callable[[Location], Table],
              build: Command | None) -> tuple[Table, Signature | None]:
        """The table opened (built first if missing and ``build`` is given) and the signature of its file,
        taken before it was opened (``signature``, if it was not built): should the file change in
        between, the next request opens it again."""
        try:
            return open_table(path), signature
        except MissingTableError:
            if build is None or not buildable(path):
                raise
        self._builds.build(key, path, build)
        signature = _signature(path)
        return open_table(path), signature


def listing(directory: Location) -> frozenset[str] | None:
    """The names in ``directory``, or None if it cannot be read: an answer made from the tables there
    is made again only when they change (a table added, removed or renamed into place). Those of a
    release's address are its manifest's, read once."""
    if isinstance(directory, Url):
        return _manifest_names(directory)
    try:
        return frozenset(os.listdir(directory))
    except OSError:
        return None


def buildable(path: Location) -> TypeGuard[Path]:
    """May a missing table at ``path`` be built? Not at an address: tables are read there."""
    return not isinstance(path, Url)


def is_present(path: Location) -> bool:
    """Is a table file at ``path`` (for an address: does its release's manifest list it)?"""
    if isinstance(path, Url):
        return path.name in (listing(path.parent) or ())
    return path.is_file()


@functools.lru_cache(maxsize=8)
def _manifest_names(directory: Url) -> frozenset[str] | None:
    """The files the manifest of the release at ``directory`` lists, or None if it cannot be read."""
    try:
        return frozenset(entry.file for entry in release.read_manifest(str(directory)))
    except TableError:
        return None


def _signature(path: Location) -> Signature | None:
    """(device, inode, size, modification time in ns) of the file at ``path`` (links followed), or None
    if it cannot be looked at: a file replaced, rewritten or deleted has another signature (or none). A
    table at an address has one signature: a release does not change under its address."""
    if isinstance(path, Url):
        return 0, 0, 0, 0
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


class Builds:
    """Tables built one at a time, each by a child process (see the module docstring); ``announce`` is
    told when a build starts, ends and fails."""

    def __init__(self, announce: Callable[[str], None] = lambda message: None,
                 limits: BuildLimits = BuildLimits()) -> None:
        self._announce = announce
        self._limits = limits
        self._one_at_a_time = threading.Lock()
        self._lock = threading.Lock()  # guards the fields below, which stop() reads from another thread
        self._building: str | None = None
        self._child: subprocess.Popen[bytes] | None = None
        self._private: Path | None = None
        self._stopping = False
        self._failures: dict[str, tuple[float, BuildError]] = {}

    @property
    def limits(self) -> BuildLimits:
        return self._limits

    def build(self, key: str, path: Path, command: Command) -> None:
        """Build the table ``key`` at ``path``: run ``command(out)`` in a child process, ``out`` in a
        private directory beside ``path``, then rename what it wrote to ``path``.

        Raises :class:`BuildError` if it fails, or failed less than ``failure_seconds`` ago (the same
        error, without running it again), and :class:`BusyError` if another build does not end within
        ``wait_seconds`` or the server is stopping."""
        self._check_failure(key)
        if not self._one_at_a_time.acquire(timeout=self._limits.wait_seconds):
            raise BusyError(f"the server is building the {self._building or 'another'} table, one at a time; ask for "
                            f"the {key} table again in a few seconds")
        try:
            self._check_running()
            self._building = key
            self._announce(f"building the {key} table at {path} (first use) ...")
            began = time.perf_counter()
            try:
                self._run(key, path, command)
            except BuildError as error:
                remembered = BuildError(f"{error} (not tried again for {self._limits.failure_seconds:g} s)")
                self._failures[key] = (time.monotonic() + self._limits.failure_seconds, remembered)
                self._announce(str(remembered))
                raise remembered from None
            self._announce(f"built the {key} table in {time.perf_counter() - began:.1f} s")
        finally:
            self._building = None
            self._one_at_a_time.release()

    def stop(self) -> None:
        """Kill the child of the build under way, if any, and wait (a second or two at most) until its
        private directory is removed; refuse every build from now on. Called from the main thread when
        the server stops (Ctrl-C): it never waits for a child to finish its work."""
        with self._lock:
            self._stopping = True
            if self._child is not None:
                self._child.kill()
        if self._one_at_a_time.acquire(timeout=2.0):  # the building thread has cleaned up
            self._one_at_a_time.release()
        with self._lock:
            if self._private is not None:
                shutil.rmtree(self._private, ignore_errors=True)

    def _check_failure(self, key: str) -> None:
        until, error = self._failures.get(key, (0.0, None))
        if error is not None and time.monotonic() < until:
            raise error
        self._failures.pop(key, None)

    def _check_running(self) -> None:
        if self._stopping:
            raise BusyError("the server is stopping")

    def _run(self, key: str, path: Path, command: Command) -> None:
        """Run the build of ``key`` in a private directory beside ``path`` and move its table into place;
        raises :class:`BuildError` saying why not. The directory is removed whatever happens."""
        with self._private_directory(key, path) as private:
            out = private / path.name
            with self._lock:
                self._check_running()
                try:
                    self._child = subprocess.Popen(command(out), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
                except OSError as error:  # out of processes, memory or file descriptors
                    raise _failed(key, path, reason(error)) from None
            try:
                failure = self._wait()
            finally:
                with self._lock:
                    self._child = None
            self._check_running()
            if failure is not None:
                raise _failed(key, path, failure.replace(str(out), str(path)))
            try:
                with files.replacing(path) as temporary:
                    os.replace(out, temporary)
            except OSError as error:
                raise _failed(key, path, reason(error)) from None
            except KeyboardInterrupt:  # the server received SIGINT or SIGTERM: the table is not put in place
                raise BusyError("the server is stopping") from None

    def _wait(self) -> str | None:
        """Wait for the child to end (killed after ``build_seconds``); None if it succeeded, else why not."""
        assert self._child is not None
        try:
            output, _ = self._child.communicate(timeout=self._limits.build_seconds)
        except subprocess.TimeoutExpired:
            self._child.kill()
            self._child.communicate()
            return f"it took more than {self._limits.build_seconds:g} s"
        if self._child.returncode == 0:
            return None
        lines = output.decode("utf-8", "replace").strip().splitlines()
        return lines[-1][:_REASON_CHARACTERS] if lines else _ended(self._child.returncode)

    @contextmanager
    def _private_directory(self, key: str, path: Path) -> Iterator[Path]:
        """A new directory beside ``path`` (its own directory created if need be), removed when the
        block ends; :meth:`stop` removes it too."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            private = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".build", dir=path.parent))
        except OSError as error:
            raise _failed(key, path, reason(error)) from None
        with self._lock:
            self._private = private
        try:
            yield private
        finally:
            shutil.rmtree(private, ignore_errors=True)
            with self._lock:
                self._private = None


def _failed(key: str, path: Path, why: str) -> BuildError:
    return BuildError(f"cannot build the {key} table at {path}: {why}")


def _ended(code: int) -> str:
    """How a child process that said nothing ended (its return code ``code``), in words: ``"its process
    ended on a signal (Killed)"``."""
    if code < 0:
        return f"its process ended on a signal ({signal.strsignal(-code) or -code})"
    return f"its process ended with exit code {code}"


def reason(error: BaseException) -> str:
    """Why ``error`` happened, in one line fit for a client: the system's words for the first error
    number in its chain (``"No space left on device"``: the HDF5 library's messages hold file names
    and buffer addresses), otherwise the first line of its message."""
    number = _error_number(error)
    if number is not None:
        return os.strerror(number)
    lines = str(error).strip().splitlines()
    return lines[0][:_REASON_CHARACTERS] if lines else type(error).__name__


def _error_number(error: BaseException) -> int | None:
    """The first ``errno`` of an :class:`OSError` among ``error``, its cause and its context, and theirs."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno:
            return seen.errno
        seen = seen.__cause__ or seen.__context__
    return None


def run_child(work: Callable[..., object], arguments: Sequence[str]) -> NoReturn:
    """The body of a build's child process: ``work(*arguments)``, then exit 0; if it raises, one line
    saying why (:func:`reason`) on standard output and exit 1, with a traceback first on standard error
    for a fault (an error neither of the system nor of a table). It runs at a lower priority than the
    server, and ignores SIGINT: the server stops it (Ctrl-C reaches every process of the terminal)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        os.nice(10)
    try:
        work(*arguments)
    except Exception as error:
        if not isinstance(error, TableError) and _error_number(error) is None:
            traceback.print_exc()
        print(reason(error), flush=True)
        sys.exit(1)
    sys.exit(0)
