"""HDF5 tables: where they live, how they are written, and how they are opened and checked.

A table file holds one dataset, ``result``: one byte per index of :mod:`solver.index`, encoded as
:mod:`solver.values` says, chunked and gzip-compressed. Its attributes make it self-describing:

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
solve_seconds      how long the analysis took (not part of the data)
=================  =============================================================================

Where tables live: ``$NEUTREEKO_TABLES`` if set; otherwise ``tables/`` of the source checkout the
package runs from; otherwise (an installed package) ``$XDG_DATA_HOME/neutreeko-solver/tables``
(``~/.local/share/neutreeko-solver/tables``). A table is named by board and rule:
``neutreeko-5x5.h5`` for the standard rule, ``neutreeko-5x5-centre.h5`` for another.

A table is written to a temporary file beside its destination and renamed into place, so an
interrupted write leaves the previous table, or none.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import h5py
import numpy as np

from solver import index
from solver.errors import MissingTableError, TableError
from solver.game import Game
from solver.rules import DEFAULT_RULE
from solver.stats import Summary, summarize
from solver.values import ENCODING

FORMAT = "neutreeko-solver table"
FORMAT_VERSION = 1
_DATASET = "result"
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


def write_table(game: Game, result: np.ndarray, path: Path, solve_seconds: float) -> Summary:
    """Write ``result`` as ``game``'s table at ``path`` (atomically); return its summary.

    Raises :class:`TableError` if the directory cannot be written."""
    path = Path(path)
    summary = summarize(game, result)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(handle)
    except OSError as error:
        raise TableError(f"cannot write a table in {path.parent}: {error.strerror}") from None
    try:
        with h5py.File(temporary, "w", track_order=True) as file:
            file.create_dataset(_DATASET, data=result, chunks=(min(len(result), _CHUNK_BYTES),),
                                compression="gzip", compression_opts=6, shuffle=False, track_times=False)
            attributes = {
                "format": FORMAT, "format_version": FORMAT_VERSION,
                "board": str(game.board), "rule": game.rule.name,
                "index_scheme": index.INDEX_SCHEME, "value_encoding": ENCODING,
                **summary.counts(), "digest": digest(result), "solve_seconds": float(solve_seconds),
            }
            file.attrs.update(attributes)
        os.replace(temporary, path)
    except OSError as error:
        raise TableError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return summary


@dataclass(frozen=True)
class Table:
    """An opened, checked table: ``result[index]`` of every position of ``game``."""

    game: Game
    path: Path
    result: np.ndarray
    attributes: dict

    def lookup(self, indices):
        """Result bytes (see :mod:`solver.values`) of an index or an array of indices."""
        return self.result[indices]

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc) -> None:
        """Nothing to release: the data is read into memory on opening."""


def open_table(game: Game, path: Path | None = None) -> Table:
    """Open and check ``game``'s table (at ``path``, or where :func:`table_path` says).

    Raises :class:`MissingTableError` (a ``KeyError``) if there is no file, :class:`TableError` if
    the file is not a table of ours, is damaged (digest mismatch), or is for another board or rule."""
    path = Path(path) if path is not None else table_path(game)
    if not path.is_file():
        raise MissingTableError(f"no table for {game} at {path} (build it with: neutreeko solve "
                                f"--board {game.board} --rule {game.rule.name})")
    try:
        with h5py.File(path, "r") as file:
            attributes = dict(file.attrs)
            if attributes.get("format") != FORMAT or _DATASET not in file:
                raise TableError(f"{path} is not a neutreeko-solver table")
            if attributes.get("format_version") != FORMAT_VERSION or \
                    attributes.get("index_scheme") != index.INDEX_SCHEME:
                raise TableError(f"{path} has format {attributes.get('format_version')}, index scheme "
                                 f"{attributes.get('index_scheme')}; this version reads "
                                 f"{FORMAT_VERSION}, {index.INDEX_SCHEME} (rebuild it with --force)")
            if (attributes.get("board"), attributes.get("rule")) != (str(game.board), game.rule.name):
                raise TableError(f"{path} is a table for {attributes.get('board')} "
                                 f"{attributes.get('rule')}, not {game}")
            result = file[_DATASET][()]
    except TableError:
        raise
    except (OSError, KeyError, ValueError) as error:
        raise TableError(f"{path} is not a readable neutreeko-solver table ({error})") from None
    if result.shape != (game.positions,) or result.dtype != np.uint8 or digest(result) != attributes.get("digest"):
        raise TableError(f"{path} is damaged: its data does not match its digest (rebuild it with --force)")
    return Table(game, path, result, attributes)
