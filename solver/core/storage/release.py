"""Releases of tables: a directory of table files that a mirror serves as it is (:func:`~solver.core.storage.release.publish`), and
one table of it downloaded, checked and moved into the tables directory (:func:`~solver.core.storage.release.fetch`).

A release directory holds table files of either game under the names of the tables directory
(``neutreeko-5x5.h5``, ``necnon-4x4-nec.h5``), ``manifest.json``, which says what each holds, and
``SHA256SUMS``, the SHA-256 of every other file of the release in the lines ``sha256sum -c SHA256SUMS``
checks::

    {"format": "neutreeko-solver release", "version": 1, "writer": "neutreeko-solver 0.1.0",
     "tables": [{"file": "neutreeko-4x4.h5", "size": <bytes>, "sha256": "<hex of the file>",
                 "game": "neutreeko", "board": "4x4", "rule": "connected", "folded": false,
                 "result_digest": "sha256:<hex>", "figures": {"legal": <count>, ...}},
                ...]}

Each entry's fields after ``sha256`` are its table's own description (the ``describe()`` of a game's
table: NECNON's name a ``protocol`` instead of a rule), computed from the file as published: the
figures are the table's attributes, the result digest is computed from its data.

Fetching trusts nothing it has not checked: the manifest's entry must describe the table asked for and
give its result digest the committed one, if the package commits one (before any byte of the table is
downloaded); the file downloaded must have the entry's size and SHA-256, pass the container's check of
every byte (:func:`solver.core.storage.container.check_file`) and describe itself as the entry does, its
result digest computed again from its data. Only then is it renamed into place. A file refused is
removed; a download that stopped is kept beside the destination as ``<name>.part`` and resumed by the
next fetch (:mod:`solver.core.storage.download`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver import __version__
from solver.core import files
from solver.core.answers.notation import quote, shortened
from solver.core.errors import InputError, ReleaseError, TableError, TableExistsError
from solver.core.storage import container, download
from solver.core.storage.container import Attributes

#: The files of a release beside its tables.
MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
FORMAT = "neutreeko-solver release"
VERSION = 1
#: The most bytes a manifest may have (a few hundred per table).
MANIFEST_LIMIT = 16 << 20
#: The most seconds the manifest may take to arrive.
MANIFEST_DEADLINE = 60.0
#: What a partial download is named after: ``neutreeko-8x8.h5.part``.
PART_SUFFIX = ".part"
_READ_BYTES = 1 << 20
_HEX = frozenset("0123456789abcdef")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    """One table of a release: its file's name, size and SHA-256 (hex), and the table's description."""

    file: str
    size: int
    sha256: str
    table: Attributes

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "size": self.size, "sha256": self.sha256, **self.table}

    @classmethod
    def from_json(cls, item: Any) -> Entry:
        """The entry of a manifest's item; :class:`ValueError` saying why if it is not one."""
        if not isinstance(item, dict):
            raise ValueError("a table entry is not an object")
        name, size, sha256 = item.get("file"), item.get("size"), item.get("sha256")
        if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
            raise ValueError(f"the file name {_shown(name)} is not a plain file name")
        if type(size) is not int or size < 0:
            raise ValueError(f"{quote(name)} has the size {_shown(size)}")
        if not isinstance(sha256, str) or len(sha256) != 64 or not set(sha256) <= _HEX:
            raise ValueError(f"{quote(name)} has the SHA-256 {_shown(sha256)}")
        return cls(name, size, sha256, {key: value for key, value in item.items()
                                        if key not in ("file", "size", "sha256")})


def file_sha256(path: Path) -> str:
    """The SHA-256 (hex) of every byte of the file at ``path``."""
    sha = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(_READ_BYTES):
            sha.update(block)
    return sha.hexdigest()


def publish(directory: Path, tables: Sequence[Path], describe: Callable[[Path], tuple[str, Attributes]],
            force: bool) -> list[Entry]:
    """Make ``directory`` a release of the table files ``tables``, ``describe(file)`` giving each one's
    name in the release and its description (checking the table, raising :class:`~solver.core.errors.TableError` if it is
    not sound): each file hard-linked there under its name (copied where the file system has no hard
    links or the directory is on another one), then the manifest and the sums written, every file
    atomically; ``directory`` is made if it is missing (not its parent). Return the entries, in the order
    given.

    Raises :class:`~solver.core.errors.TableExistsError` if ``directory`` holds a release already and not ``force`` (before
    any table is read; with it, the files of the release are replaced, and files of an earlier one not
    published again are left), :class:`~solver.core.errors.InputError` if two tables have one name, :class:`~solver.core.errors.TableError` if
    a file cannot be written."""
    existing = [name for name in (MANIFEST, SUMS) if (directory / name).exists()]
    if existing and not force:
        raise TableExistsError(f"a release is already in {directory} ({existing[0]}); use --force to replace it")
    described = [(source, *describe(source)) for source in tables]
    names = [name for _, name, _ in described]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"two tables to publish are both {twice[0]}: give one of them")
    try:
        directory.mkdir(exist_ok=True)
    except OSError as error:
        raise TableError(f"cannot write {directory}: {error.strerror or error}") from None
    entries = []
    for source, name, description in described:
        target = directory / name
        _write(target, functools.partial(_link_or_copy, source))
        entries.append(Entry(name, target.stat().st_size, file_sha256(target), description))
    manifest = {"format": FORMAT, "version": VERSION, "writer": f"neutreeko-solver {__version__}",
                "tables": [entry.as_json() for entry in entries]}
    text = json.dumps(manifest, indent=1) + "\n"
    _write(directory / MANIFEST, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
    sums = [(entry.sha256, entry.file) for entry in entries]
    sums.append((hashlib.sha256(text.encode()).hexdigest(), MANIFEST))
    _write(directory / SUMS, lambda temporary: Path(temporary).write_text(
        "".join(f"{sha256}  {name}\n" for sha256, name in sums), encoding="utf-8"))
    return entries


def _write(path: Path, fill: Callable[[str], object]) -> None:
    """Write ``path`` atomically, ``fill(temporary)`` making the temporary file; :class:`~solver.core.errors.TableError`
    saying why if it cannot be written."""
    try:
        with files.replacing(path) as temporary:
            fill(temporary)
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


def _link_or_copy(source: Path, temporary: str) -> None:
    """Make ``temporary`` (an empty file) the file ``source``: a hard link to it where the file system
    allows (the tables directory's files are replaced by renames, never changed in place, so the link
    keeps the published bytes), a copy otherwise."""
    os.unlink(temporary)
    try:
        os.link(source, temporary)
    except OSError:
        with open(source, "rb") as reading, open(temporary, "wb") as writing:
            while block := reading.read(_READ_BYTES):
                writing.write(block)


def read_manifest(mirror: str, timeout: float = download.TIMEOUT,
                  deadline: float = MANIFEST_DEADLINE) -> list[Entry]:
    """The entries of the manifest ``mirror`` serves; :class:`~solver.core.errors.ReleaseError` if it cannot be had within
    ``deadline`` seconds or is not a release's manifest."""
    url = download.address(mirror, MANIFEST)
    body = download.read(url, MANIFEST_LIMIT, timeout, deadline)
    try:
        manifest = json.loads(body)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep, a number too long to read
        raise ReleaseError(f"{quote(url)} is not a release manifest: it is not JSON") from None
    try:
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise ValueError("it does not say it is one")
        if manifest.get("version") != VERSION:
            raise ValueError(f"it is of version {_shown(manifest.get('version'))}; this version reads {VERSION}")
        if not isinstance(manifest.get("tables"), list):
            raise ValueError("it has no list of tables")
        return [Entry.from_json(item) for item in manifest["tables"]]
    except ValueError as error:
        raise ReleaseError(f"{quote(url)} is not a release manifest: {error}") from None


def fetch(mirror: str, destination: Path, identity: Attributes, committed: str | None,
          describe: Callable[[Path], Attributes], force: bool = False,
          progress: download.Progress | None = None, timeout: float = download.TIMEOUT,
          deadline: float = download.DEADLINE) -> Entry:
    """Download the table ``mirror`` serves under ``destination``'s name, check it and rename it to
    ``destination`` (see the module docstring); return its entry.

    ``identity`` is what the entry must say of the table asked for (``{"game": "neutreeko", "board":
    "5x5", "rule": "connected"}``), ``committed`` its committed result digest (None if there is none),
    ``describe(path)`` the description of the table at ``path`` (raising :class:`~solver.core.errors.TableError` if it is
    not the table asked for). Each read waits at most ``timeout`` seconds; the table's download stops
    ``deadline`` seconds after it began (kept, for the next fetch to resume it), the manifest's after
    ``deadline`` or :data:`MANIFEST_DEADLINE`, whichever is shorter. A table at ``destination`` is
    replaced only if ``force`` (:class:`~solver.core.errors.TableExistsError` before anything is downloaded); every other
    refusal is a :class:`~solver.core.errors.ReleaseError` (a :class:`~solver.core.errors.TableError`)."""
    download.address(mirror, MANIFEST)  # a mirror that is no address is refused first
    try:
        if files.regular_file(destination) and not force:
            raise TableExistsError(f"a table is already at {destination}; use --force to replace it")
    except OSError as error:
        raise TableError(f"cannot write {destination}: {error.strerror or error}") from None
    container.check_writable(destination)
    entry = _entry(read_manifest(mirror, timeout, min(deadline, MANIFEST_DEADLINE)), destination.name, mirror)
    url = download.address(mirror, entry.file)
    _vouch(entry, url, identity, committed)
    part = destination.with_name(destination.name + PART_SUFFIX)
    download.download(url, part, entry.size, progress, timeout, deadline)
    try:
        _check(part, entry, url, describe)
    except ReleaseError:  # a refusal: no later fetch could complete this file
        part.unlink(missing_ok=True)
        raise
    try:
        files.move_into_place(part, destination, replace=force)
    except FileExistsError:
        raise TableExistsError(f"a table appeared at {destination} during the download; it is kept, and the "
                               f"download is {part} (fetch --force to replace the table with it)") from None
    except OSError as error:
        raise TableError(f"cannot write {destination}: {error.strerror or error}; the download is kept as "
                         f"{part}") from None
    return entry


def _entry(entries: list[Entry], name: str, mirror: str) -> Entry:
    """The entry of the file ``name``; :class:`~solver.core.errors.ReleaseError` naming what the mirror has if it has none."""
    for entry in entries:
        if entry.file == name:
            return entry
    listed = f"{len(entries)}: {quote(', '.join(entry.file for entry in entries))}" if entries else "no tables"
    raise ReleaseError(f"the release at {quote(mirror)} has no {name} (it has {listed})")


def _vouch(entry: Entry, url: str, identity: Attributes, committed: str | None) -> None:
    """Raise :class:`~solver.core.errors.ReleaseError` unless ``entry`` says what ``identity`` says and gives the
    committed result digest, if there is one."""
    for key, value in identity.items():
        if entry.table.get(key) != value:
            raise ReleaseError(f"the manifest's entry for {quote(url)} gives its {key} as "
                               f"{_shown(entry.table.get(key))}, not {value!r}")
    if committed is not None and entry.table.get("result_digest") != committed:
        raise ReleaseError(f"{quote(url)} does not match the committed digest: the manifest gives its result digest "
                           f"as {_shown(entry.table.get('result_digest'))}, the committed one is {committed!r}")


def _check(part: Path, entry: Entry, url: str, describe: Callable[[Path], Attributes]) -> None:
    """Raise :class:`~solver.core.errors.ReleaseError` unless the download ``part`` is the file ``entry`` describes."""
    try:
        size, sha256 = part.stat().st_size, file_sha256(part)
    except OSError as error:
        raise TableError(f"cannot read {part}: {error.strerror or error}") from None
    if size != entry.size:
        raise ReleaseError(f"{quote(url)} does not match the manifest: {size:,} bytes, the manifest lists "
                           f"{entry.size:,}")
    if sha256 != entry.sha256:
        raise ReleaseError(f"{quote(url)} does not match the manifest: its SHA-256 is {sha256}, the manifest's "
                           f"{entry.sha256}")
    try:
        container.check_file(part)
        described = describe(part)
    except TableError as error:
        raise ReleaseError(f"{quote(url)} is not a sound table: {error}") from None
    for key in sorted(described.keys() | entry.table.keys()):
        if described.get(key) != entry.table.get(key):
            raise ReleaseError(f"{quote(url)} does not match the manifest: its {shortened(key)} is "
                               f"{_shown(described.get(key))}, the manifest's {_shown(entry.table.get(key))}")


def _shown(value: object) -> str:
    """A value a manifest or a table gives, for a message: a string quoted (:func:`quote`), any other
    value as its ``repr``, either cut to :data:`~solver.core.answers.notation.QUOTED` characters, but for a
    result digest (``sha256:`` and 64 hex digits), whole: two of them are told apart only so."""
    if isinstance(value, str) and _DIGEST.fullmatch(value):
        return repr(value)
    return quote(value) if isinstance(value, str) else shortened(repr(value))
