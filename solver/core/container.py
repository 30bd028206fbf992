"""The table container every game stores its results in: one HDF5 file holding one dataset, with
attributes that describe it and SHA-256 digests of both, written atomically and checked on every open.

What the attributes mean is each game's business (:mod:`solver.neutreeko.table`); this module only
guarantees that what is read is what was written:

=================  =============================================================================
attribute          meaning
=================  =============================================================================
format             :data:`FORMAT` (anything else is not one of ours)
digest             ``"sha256:<hex>"`` of the dataset's bytes
attributes_digest  ``"sha256:<hex>"`` of every other attribute (the undigested ones apart), so that
                   an edited attribute is caught like edited data
=================  =============================================================================

Where tables live: ``$NEUTREEKO_TABLES`` if set; otherwise ``tables/`` of the source checkout the
package runs from; otherwise (an installed package) ``$XDG_DATA_HOME/neutreeko-solver/tables``
(``~/.local/share/neutreeko-solver/tables``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import numpy.typing as npt

from solver.core import files
from solver.core.errors import MissingTableError, TableError, TableExistsError

#: The ``format`` attribute of every table of this project.
FORMAT = "neutreeko-solver table"
_CHUNK_BYTES = 1 << 18

Attributes = dict[str, Any]


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


def check_exists(path: Path, missing: str) -> None:
    """Raise :class:`TableError` if ``path`` is a directory, :class:`MissingTableError` (a ``KeyError``)
    saying ``missing`` if there is no file."""
    if path.is_dir():
        raise TableError(f"{path} is a directory, not a table")
    if not path.is_file():
        raise MissingTableError(missing)


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


def write(path: Path, dataset: str, data: npt.NDArray[Any], attributes: Attributes,
          undigested: tuple[str, ...] = (), level: int = 6) -> None:
    """Write ``data`` as the one dataset ``dataset`` of a table at ``path`` (atomically), chunked and
    gzip-compressed at ``level``, with ``attributes`` (in their order), :data:`FORMAT`, the data's
    digest and the attributes' digest. The same inputs give the same bytes.

    Raises :class:`TableError` if the file cannot be written."""
    try:
        with files.replacing(path) as temporary, h5py.File(temporary, "w", track_order=True) as file:
            file.create_dataset(dataset, data=data, chunks=(max(1, min(len(data), _CHUNK_BYTES)),),
                                compression="gzip", compression_opts=level, shuffle=False, track_times=False)
            file.attrs.update({"format": FORMAT, **attributes, "digest": digest(data)})
            # Digest the attributes as they read back, so that writing and checking see the same types.
            file.attrs["attributes_digest"] = attributes_digest(dict(file.attrs), undigested)
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


class Contents:
    """An open table file: its attributes, checked for :data:`FORMAT` only, and its datasets."""

    def __init__(self, path: Path, file: h5py.File) -> None:
        self.path = path
        self._file = file
        self.attributes: Attributes = dict(file.attrs)

    @property
    def ours(self) -> bool:
        """Does the file say it is a table of this project?"""
        return self.attributes.get("format") == FORMAT

    def has(self, dataset: str) -> bool:
        return isinstance(self._file.get(dataset), h5py.Dataset)

    def check_attributes(self, undigested: tuple[str, ...] = ()) -> None:
        """Raise :class:`TableError` unless the attributes match their digest."""
        if attributes_digest(self.attributes, undigested) != self.attributes.get("attributes_digest"):
            raise TableError(f"{self.path} is damaged: its attributes do not match their digest "
                             f"(rebuild it with --force)")

    def read(self, dataset: str, shape: tuple[int, ...], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
        """The dataset's array; :class:`TableError` unless it has ``shape`` and ``dtype`` (a scalar type
        or a record type) and matches the ``digest`` attribute."""
        data: npt.NDArray[Any] = self._file[dataset][()]
        if data.shape != shape or data.dtype != np.dtype(dtype) or digest(data) != self.attributes.get("digest"):
            raise TableError(f"{self.path} is damaged: its data does not match its digest (rebuild it with --force)")
        return data


@contextmanager
def opened(path: Path) -> Iterator[Contents]:
    """``path`` opened read-only as :class:`Contents`. A file that cannot be read, is not HDF5, is
    truncated, or fails to read inside the block raises :class:`TableError` saying why."""
    try:
        file = h5py.File(path, "r")
    except OSError as error:
        if not os.access(path, os.R_OK):
            raise TableError(f"cannot read {path}: permission denied") from None
        if not h5py.is_hdf5(path):
            raise TableError(f"{path} is not a neutreeko-solver table (not an HDF5 file)") from None
        if "truncated" in str(error):
            raise TableError(f"{path} is truncated (rebuild it with --force)") from None
        raise TableError(f"{path} is damaged and cannot be opened ({error})") from None
    try:
        with file:
            yield Contents(path, file)
    except TableError:
        raise
    except (OSError, KeyError, ValueError) as error:
        raise TableError(f"{path} is damaged and cannot be read ({error}); rebuild it with --force") from None
