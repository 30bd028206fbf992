"""NECNON tables: one HDF5 file per board and protocol setting, in the digest-checked container of
:mod:`solver.core.storage.container` (the one Neutreeko's tables use).

The dataset ``classes`` holds one record per class of positions reachable from the empty board
(:data:`solver.necnon.solving.solve.RECORD`: canonical key, margin, turns, number of positions), sorted by key,
so that a position is found by binary search on its canonical key (:mod:`solver.necnon.model.keys`): first
over the chunks, by the first key of each that the container's chunk map keeps, then inside the one
chunk read. A position reachable from the empty board is always there; one that is not there cannot be
reached. Its attributes (:data:`ATTRIBUTES`, the format version :data:`FORMAT_VERSION`) describe the
file; :func:`open_table` checks every attribute a reader uses, its presence and its kind, before any
reader sees them, as Neutreeko's tables are checked. Whole-table readers (:attr:`Table.records`,
:attr:`Table.summary`) check that the records agree with the attributes.

Tables live in :func:`solver.core.storage.container.tables_dir`, named ``necnon-<board>-<protocol>.h5``
(``necnon-4x4-nec.h5``). The same solve gives the same data bytes and attributes (``solve_seconds`` and
``written`` apart) on every run.

The attributes: docs/table-format.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.core.errors import TableError, TableMismatchError
from solver.core.storage import container
from solver.core.storage.chunks import Chunks
from solver.core.storage.container import COUNT, INTEGER, SECONDS, TEXT, TEXTS, Attributes, Contents, tables_dir
from solver.core.storage.remote import Location, Url, location
from solver.necnon.model.keys import KEY_LAYOUT, find
from solver.necnon.model.rules import Game
from solver.necnon.solving.solve import RECORD
from solver.necnon.tables.stats import COUNT_NAMES, Summary, summarize

#: The version of the table format this module writes and reads.
FORMAT_VERSION = 1
GAME = "necnon"
_DATASET = "classes"
#: The attributes of every table and their kinds, checked on opening (besides the container's own);
#: ``value`` is a margin, which may be negative.
ATTRIBUTES = {"game": TEXT, "grid": TEXT, "board": TEXT, "cells": COUNT, "symmetries": COUNT, "protocol": TEXT,
              "black_protocol": TEXT, "green_protocol": TEXT, "key_layout": TEXT,
              **{name: COUNT for name in COUNT_NAMES}, "value": INTEGER, "best_first": TEXTS,
              "solve_seconds": SECONDS, "sorted_by": TEXT}


def table_path(game: Game) -> Location:
    """Default path of ``game``'s table."""
    return tables_dir() / f"necnon-{game.grid}-{game.setting}.h5"


def solve_command(game: Game, path: Location | None = None) -> str:
    """The command that builds ``game``'s table at ``path`` (default, or an address: where
    :func:`table_path` says)."""
    out = "" if path is None or isinstance(location(path), Url) or location(path) == table_path(game) \
        else f" --out {path}"
    return f"necnon solve --board {game.grid} --protocol {game.setting}{out}"


def write_table(game: Game, records: npt.NDArray[np.void], path: Path, solve_seconds: float,
                replace: bool = True) -> Summary:
    """Write ``records`` (see :mod:`solver.necnon.solving.solve`) as ``game``'s table at ``path``, atomically;
    return its summary. Unless ``replace``, a file at ``path`` (one that appeared while the table was
    written) is left as it is: :class:`~solver.core.errors.TableExistsError`. Raises
    :class:`~solver.core.errors.TableError` if the file cannot be written."""
    summary = summarize(game, records)
    attributes: Attributes = {
        "format_version": FORMAT_VERSION, "game": GAME, "grid": game.grid.kind, "board": str(game.grid),
        "cells": game.grid.cells, "symmetries": len(game.grid.symmetries), "protocol": game.setting,
        "black_protocol": game.black.value, "green_protocol": game.green.value, "key_layout": KEY_LAYOUT,
        **summary.counts(), "best_first": list(summary.best_first), "solve_seconds": float(solve_seconds),
    }
    container.write(Path(path), _DATASET, records, attributes, sorted_by="key", replace=replace)
    return summary


def convert_table(path: Path, attributes: Attributes, records: npt.NDArray[Any]) -> Game:
    """Rewrite the table at ``path`` in today's format from its contents in the first container format,
    ``attributes`` and ``records``, as :func:`solver.core.storage.legacy.read` gives them verified (nothing is
    solved again); return its game. Raises :class:`~solver.core.errors.TableError` unless they are a table of NECNON."""
    if attributes.get("game") != GAME or attributes.get("format_version") != FORMAT_VERSION:
        raise TableError(f"{path} is not a NECNON table of format {FORMAT_VERSION}")
    container.check_kinds(attributes, {"board": TEXT, "protocol": TEXT, "solve_seconds": SECONDS},
                          partial(container.damaged, path))
    game = Game.of(str(attributes["board"]), str(attributes["protocol"]))
    if records.dtype != RECORD:
        raise TableError(f"{path} holds records of {records.dtype}, not of {RECORD}")
    write_table(game, records, path, float(attributes["solve_seconds"]))
    return game


@dataclass(frozen=True, eq=False)
class Table:
    """An opened table of ``game``: its records sorted by canonical key, read a verified chunk at a time."""

    game: Game
    path: Location
    chunks: Chunks = field(repr=False)
    contents: Contents = field(repr=False)

    @property
    def attributes(self) -> Attributes:
        return self.contents.attributes

    @property
    def records(self) -> npt.NDArray[np.void]:
        """Every record, the whole table read; :class:`~solver.core.errors.TableError` unless they match their digest, are
        sorted by key and give the figures the attributes state."""
        return self._checked[0]

    @property
    def summary(self) -> Summary:
        """The figures of the table, computed from its records (checked as they are)."""
        return self._checked[1]

    @cached_property
    def _checked(self) -> tuple[npt.NDArray[np.void], Summary]:
        records = self.contents.read(_DATASET, len(self.chunks), RECORD)
        if len(records) == 0 or np.any(records["key"][1:] <= records["key"][:-1]):
            raise self.contents.damaged("its records are not sorted by key")
        summary = summarize(self.game, records)
        self.contents.check_figures({**summary.counts(), "best_first": list(summary.best_first)})
        return records, summary

    def probe(self, keys: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.void]]:
        """For each canonical key: is it in the table (a position that can be reached), and its record
        (meaningless where absent); reads only the chunks where the keys would be."""
        keys = np.asarray(keys, dtype=np.uint64)
        numbers = np.maximum(np.searchsorted(self.chunks.fences, keys, side="right") - 1, 0)
        present = np.zeros(len(keys), dtype=bool)
        found = np.zeros(len(keys), dtype=RECORD)
        for number in np.unique(numbers):
            chunk = self.chunks.chunk(int(number))
            which = numbers == number
            rows = find(chunk, keys[which])
            present[which] = rows >= 0
            found[which] = chunk[np.maximum(rows, 0)]
        return present, found

    def result_digest(self) -> str:
        """``"sha256:<hex>"`` of the records' bytes: the ``digest`` attribute, once the records, read a
        chunk at a time, are found to have it (:class:`~solver.core.errors.TableError` otherwise)."""
        return self.contents.checked_digest(_DATASET, len(self.chunks), RECORD)

    def describe(self) -> Attributes:
        """What a release's manifest says of the table (:mod:`solver.core.storage.release`): the game, board and
        protocol, :meth:`result_digest` and the figures its attributes state."""
        return {"game": GAME, "board": str(self.game.grid), "protocol": self.game.setting,
                "result_digest": self.result_digest(),
                "figures": {name: self.attributes.get(name) for name in (*COUNT_NAMES, "best_first")}}

    def close(self) -> None:
        """Close the file (its chunks leave the cache)."""
        self.contents.close()


def open_table(game: Game, path: Location | None = None) -> Table:
    """Open and check ``game``'s table (at ``path``, or where :func:`table_path` says).

    Raises :class:`~solver.core.errors.MissingTableError` (a ``KeyError``) if there is no file, :class:`~solver.core.errors.TableMismatchError`
    if it is a table of another game, board or protocol, :class:`~solver.core.errors.TableError` if something other than a
    regular file is there, or the file is not a table of ours or is damaged (see
    :mod:`solver.core.storage.container`: the header and the chunk map are verified here, each chunk when it is
    first read)."""
    path = location(path) if path is not None else table_path(game)
    container.check_present(path, f"no table for {game} at {path} (build it with: {solve_command(game, path)})")
    rebuild = f"{solve_command(game, path)} --force"
    contents = container.open_contents(path, rebuild, "necnon convert")
    try:
        attributes = contents.attributes
        if not contents.ours:
            raise TableError(f"{path} is not a neutreeko-solver table")
        if attributes.get("game") != GAME:
            raise TableMismatchError(f"{path} is a table of {str(attributes.get('game', 'neutreeko'))[:60]}, not of necnon")
        if not contents.has(_DATASET) or attributes.get("format_version") != FORMAT_VERSION \
                or attributes.get("key_layout") != KEY_LAYOUT or attributes.get("sorted_by") != "key":
            raise TableError(f"{path} has format {str(attributes.get('format_version'))[:60]}; this version reads necnon "
                             f"format {FORMAT_VERSION} (rebuild it with {rebuild})")
        contents.check_attributes(ATTRIBUTES)
        if (attributes["board"], attributes["protocol"]) != (str(game.grid), game.setting):
            raise TableMismatchError(f"{path} is a table for {attributes['board'][:60]} "
                                     f"{attributes['protocol'][:60]}, not {game}")
        if attributes["classes"] < 1:
            raise contents.damaged("its classes attribute is 0, not a count of classes")
        chunks = contents.chunks(_DATASET, attributes["classes"], RECORD)
    except BaseException:
        contents.close()
        raise
    return Table(game, path, chunks, contents)


def release_entry(path: Location, attributes: Mapping[str, object]) -> tuple[str, Table, None]:
    """The table at ``path`` (``attributes`` read from it) as a release takes it: its file name there and
    the table opened; NECNON commits no digests (see :class:`~solver.core.games.GameEntry`)."""
    game = Game.of(str(attributes.get("board")), str(attributes.get("protocol")))
    return table_path(game).name, open_table(game, path), None
