"""HDF5 tables: where they live, how they are written, and how they are opened and checked.

A table file holds one dataset, chunked and gzip-compressed, of result bytes encoded as :mod:`solver.values`
says: either ``result``, one byte per index of :mod:`solver.index` (a *full* table, the default), or
``class_result``, one byte per legal symmetry class in the order of :mod:`solver.folding` (a *folded*
table, written by ``neutreeko solve --fold``: 205 kB instead of 1.5 MB on 5 x 5, 16 MB instead of
125 MB on 7 x 7). Both open the same way and answer every probe identically through
:meth:`Table.lookup`, a folded one through the position's canonical twin. Full is the default because it is the plain per-position array
that :attr:`Table.result` hands to statistics and checks at no cost, whereas a folded table must be
unfolded for that (about a second on 5 x 5, half a minute on 7 x 7); folded suits shipping and probing.
Its attributes make it self-describing:

=================  =============================================================================
attribute          meaning
=================  =============================================================================
format             ``"neutreeko-solver table"`` (anything else is not one of ours)
format_version     :data:`FORMAT_VERSION`
board, rule        e.g. ``"5x5"``, ``"connected"``
index_scheme       :data:`solver.index.INDEX_SCHEME`
value_encoding     :data:`solver.values.ENCODING`
legal, wins, losses, draws, longest_win, longest_loss, no_move
                   the counts (see :class:`solver.stats.Summary`)
digest             ``"sha256:<hex>"`` of the data bytes; checked on every open
folded             true for a folded table (absent or false: a full one)
symmetries, classes
                   folded tables only: the board's symmetry count and the number of legal classes
canonical_form     folded tables only: :data:`solver.symmetry.CANONICAL_FORM`
solve_seconds      how long the analysis took (not part of the data)
attributes_digest  ``"sha256:<hex>"`` of all the attributes above but ``solve_seconds``, so that an
                   edited attribute is caught like edited data; checked on every open
=================  =============================================================================

Where tables live: ``$NEUTREEKO_TABLES`` if set; otherwise ``tables/`` of the source checkout the
package runs from; otherwise (an installed package) ``$XDG_DATA_HOME/neutreeko-solver/tables``
(``~/.local/share/neutreeko-solver/tables``). A table is named by board and rule:
``neutreeko-5x5.h5`` for the standard rule, ``neutreeko-5x5-centre.h5`` for another.

A table is written to a temporary file beside its destination and renamed into place, so an
interrupted write leaves the previous table, or none. The same inputs give the same data bytes and
the same attributes (``solve_seconds`` apart) on every run.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import h5py
import numpy as np

from solver import files, folding, index
from solver.errors import MissingTableError, TableError, TableMismatchError
from solver.game import Game
from solver.rules import DEFAULT_RULE
from solver.stats import Summary, summarize
from solver.symmetry import CANONICAL_FORM, symmetry_count
from solver.values import ENCODING, ILLEGAL

FORMAT = "neutreeko-solver table"
FORMAT_VERSION = 2
_DATASET = "result"
_FOLDED_DATASET = "class_result"
_CHUNK_BYTES = 1 << 18


def tables_dir() -> Path:
    """The directory tables are read from and written to by default (see the module docstring)."""
    if os.environ.get("NEUTREEKO_TABLES"):
        return Path(os.environ["NEUTREEKO_TABLES"])
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "tables").is_dir():
        return checkout / "tables"
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "neutreeko-solver" / "tables"


def table_path(game: Game) -> Path:
    """Default path of ``game``'s table."""
    suffix = "" if game.rule.name == DEFAULT_RULE else f"-{game.rule.name}"
    return tables_dir() / f"neutreeko-{game.board}{suffix}.h5"


def digest(result: np.ndarray) -> str:
    return "sha256:" + hashlib.sha256(np.ascontiguousarray(result).data).hexdigest()


# Left out of the attributes digest: the digest itself, and the one attribute that differs between runs.
_UNDIGESTED_ATTRIBUTES = ("attributes_digest", "solve_seconds")


def attributes_digest(attributes: dict) -> str:
    """``"sha256:<hex>"`` of a table's attributes (all but :data:`_UNDIGESTED_ATTRIBUTES`), as h5py
    reads them; it catches an edited attribute as :func:`digest` catches edited data."""
    described = {name: value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value
                 for name, value in attributes.items() if name not in _UNDIGESTED_ATTRIBUTES}
    text = json.dumps(described, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def check_writable(path: Path) -> None:
    """Raise :class:`TableError` unless a table can be written at ``path``, so that a long solve does
    not end in a failed write."""
    try:
        files.check_writable(path)
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None


def _open_hdf5(path: Path) -> h5py.File:
    """``path`` opened read-only; :class:`TableError` saying why if it cannot be."""
    try:
        return h5py.File(path, "r")
    except OSError as error:
        if not os.access(path, os.R_OK):
            raise TableError(f"cannot read {path}: permission denied") from None
        if not h5py.is_hdf5(path):
            raise TableError(f"{path} is not a neutreeko-solver table (not an HDF5 file)") from None
        if "truncated" in str(error):
            raise TableError(f"{path} is truncated (rebuild it with --force)") from None
        raise TableError(f"{path} is damaged and cannot be opened ({error})") from None


def write_table(game: Game, result: np.ndarray, path: Path, solve_seconds: float, fold: bool = False) -> Summary:
    """Write ``result`` (one byte per index) as ``game``'s table at ``path`` (atomically), folded by
    symmetry if ``fold``; return its summary.

    Raises :class:`TableError` if the directory cannot be written."""
    path = Path(path)
    summary = summarize(game, result)
    data = folding.fold(game, result) if fold else result
    try:
        with files.replacing(path) as temporary, h5py.File(temporary, "w", track_order=True) as file:
            file.create_dataset(_FOLDED_DATASET if fold else _DATASET, data=data,
                                chunks=(max(1, min(len(data), _CHUNK_BYTES)),),
                                compression="gzip", compression_opts=9 if fold else 6, shuffle=False,
                                track_times=False)
            attributes = {
                "format": FORMAT, "format_version": FORMAT_VERSION,
                "board": str(game.board), "rule": game.rule.name,
                "index_scheme": index.INDEX_SCHEME, "value_encoding": ENCODING,
                **summary.counts(), "digest": digest(data), "solve_seconds": float(solve_seconds),
                "folded": bool(fold),
            }
            if fold:
                attributes.update(symmetries=symmetry_count(game.board), classes=len(data),
                                  canonical_form=CANONICAL_FORM)
            file.attrs.update(attributes)
            # Digest the attributes as they read back, so that writing and checking see the same types.
            file.attrs["attributes_digest"] = attributes_digest(dict(file.attrs))
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None
    return summary


@dataclass(frozen=True)
class Table:
    """An opened, checked table of ``game``: ``data`` holds one result byte per index, or, if
    ``folded``, one per legal symmetry class (see the module docstring)."""

    game: Game
    path: Path
    data: np.ndarray
    attributes: dict
    folded: bool = False

    def lookup(self, indices):
        """Result bytes (see :mod:`solver.values`) of an index or an array of indices; a folded
        table answers through each position's canonical twin, and :data:`ILLEGAL` where not legal."""
        if not self.folded:
            return self.data[indices]
        numbers = folding.Classes.of(self.game).numbers(indices)
        return np.where(numbers >= 0, self.data[np.maximum(numbers, 0)], np.uint8(ILLEGAL))[()]

    @cached_property
    def result(self) -> np.ndarray:
        """``result[index]``: the byte of every index of ``game`` (a folded table is unfolded on
        first access, which takes about a second on 5 x 5; prefer :meth:`lookup` for probes)."""
        return folding.unfold(self.game, self.data) if self.folded else self.data


def open_table(game: Game, path: Path | None = None) -> Table:
    """Open and check ``game``'s table (at ``path``, or where :func:`table_path` says).

    Raises :class:`MissingTableError` (a ``KeyError``) if there is no file, :class:`TableMismatchError`
    if it is a table for another board or rule, :class:`TableError` if the file is not a table of ours
    or is damaged (digest mismatch)."""
    path = Path(path) if path is not None else table_path(game)
    if path.is_dir():
        raise TableError(f"{path} is a directory, not a table")
    if not path.is_file():
        out = "" if path == table_path(game) else f" --out {path}"
        raise MissingTableError(f"no table for {game} at {path} (build it with: neutreeko solve "
                                f"--board {game.board} --rule {game.rule.name}{out})")
    try:
        with _open_hdf5(path) as file:
            attributes = dict(file.attrs)
            folded = bool(attributes.get("folded", False))
            if attributes.get("format") != FORMAT or (_FOLDED_DATASET if folded else _DATASET) not in file:
                raise TableError(f"{path} is not a neutreeko-solver table")
            if attributes.get("format_version") != FORMAT_VERSION or \
                    attributes.get("index_scheme") != index.INDEX_SCHEME:
                raise TableError(f"{path} has format {attributes.get('format_version')}, index scheme "
                                 f"{attributes.get('index_scheme')}; this version reads format "
                                 f"{FORMAT_VERSION}, index scheme {index.INDEX_SCHEME} (rebuild it with --force)")
            if attributes_digest(attributes) != attributes.get("attributes_digest"):
                raise TableError(f"{path} is damaged: its attributes do not match their digest "
                                 f"(rebuild it with --force)")
            if attributes.get("value_encoding") != ENCODING:
                raise TableError(f"{path} encodes values as {attributes.get('value_encoding')!r}; this "
                                 f"version reads {ENCODING!r} (rebuild it with --force)")
            if (attributes.get("board"), attributes.get("rule")) != (str(game.board), game.rule.name):
                raise TableMismatchError(f"{path} is a table for {attributes.get('board')} "
                                         f"{attributes.get('rule')}, not {game}")
            if folded and attributes.get("canonical_form") != CANONICAL_FORM:
                raise TableError(f"{path} is folded with canonical form {attributes.get('canonical_form')!r}; "
                                 f"this version reads {CANONICAL_FORM!r} (rebuild it with --force)")
            result = file[_FOLDED_DATASET if folded else _DATASET][()]
    except TableError:
        raise
    except (OSError, KeyError, ValueError) as error:
        raise TableError(f"{path} is damaged and cannot be read ({error}); rebuild it with --force") from None
    expected = folding.Classes.of(game).count if folded else game.positions
    if result.shape != (expected,) or result.dtype != np.uint8 or digest(result) != attributes.get("digest"):
        raise TableError(f"{path} is damaged: its data does not match its digest (rebuild it with --force)")
    return Table(game, path, result, attributes, folded)
