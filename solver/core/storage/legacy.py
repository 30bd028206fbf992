"""Reading tables written in the first container format, to rewrite them in today's
(``neutreeko convert``) without solving again.

That format put a 512-byte header before the HDF5 file: a first line ``neutreeko-solver table container
1``, the file's size and the SHA-256 of every byte after the header. Its attributes held the SHA-256 of
the data (``digest``) and of the other attributes but ``solve_seconds`` (``attributes_digest``). The
whole file is checked against the header before the HDF5 library reads it, and the data and attributes
against their digests after.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import numpy.typing as npt

from solver.core.errors import TableError
from solver.core.storage.container import Attributes, damaged, digest

_MAGIC = b"neutreeko-solver table container 1\n"
_HEADER_BYTES = 512
_READ_BYTES = 1 << 20
_UNDIGESTED = ("solve_seconds", "attributes_digest")


def read(path: Path) -> tuple[Attributes, npt.NDArray[Any]]:
    """The attributes and the data of the first-format table at ``path``, verified. Raises
    :class:`~solver.core.errors.TableError` if it cannot be read, is not such a table, or is damaged."""
    try:
        with open(path, "rb") as raw:
            header = raw.read(_HEADER_BYTES)
            if not header.startswith(_MAGIC):
                raise TableError(f"{path} is not a table in the first container format")
            fields = header[len(_MAGIC):].split(b"\n")
            sha = hashlib.sha256()
            while block := raw.read(_READ_BYTES):
                sha.update(block)
            size = raw.tell()
            if fields[:2] != [f"size {size}".encode(), f"sha256 {sha.hexdigest()}".encode()]:
                raise damaged(path, "its contents do not match their digest")
            with h5py.File(path, "r") as file:
                names = list(file)
                if len(names) != 1 or not isinstance(file[names[0]], h5py.Dataset):
                    raise damaged(path, "it does not hold one dataset")
                data = file[names[0]][()]
                attributes = {name: _plain(value) for name, value in file.attrs.items()}
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror or error}") from None
    described = {name: value for name, value in attributes.items() if name not in _UNDIGESTED}
    text = json.dumps(described, sort_keys=True, separators=(",", ":"), default=str)
    if "sha256:" + hashlib.sha256(text.encode()).hexdigest() != attributes.get("attributes_digest"):
        raise damaged(path, "its attributes do not match their digest")
    if digest(data) != attributes.get("digest"):
        raise damaged(path, "its data does not match its digest")
    return attributes, data


def _plain(value: Any) -> Any:
    """An attribute's value as the first format digested it: numpy values made plain Python."""
    return value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value
