"""HDF5 tables: where they live, how they are written, and how they are opened and checked.

A table file is a container of :mod:`solver.core.storage.container` holding one dataset of result bytes
encoded as :mod:`solver.neutreeko.model.values` says: either ``result``, one byte per index of
:mod:`solver.neutreeko.model.index` (a *full* table, the default, the plain per-position array that
:attr:`Table.result` hands to statistics and checks at no cost), or ``class_result``, one byte per legal
symmetry class in the order of :mod:`solver.neutreeko.tables.folding` (a *folded* table, written by
``neutreeko solve --fold``: smaller, for shipping and probing, unfolded for statistics and checks).
Both answer every probe identically through :meth:`Table.probe`, a folded one through the position's
canonical twin; its attributes (:data:`ATTRIBUTES`, :data:`FOLDED_ATTRIBUTES`, the format version
:data:`FORMAT_VERSION`) make it self-describing.

:func:`open_table` checks every attribute a reader uses, its presence and its kind, before any reader
sees them; it raises :class:`~solver.core.errors.MissingTableError` for a missing table and
:class:`~solver.core.errors.TableError` for a damaged one, naming the command that builds it. A probe reads the chunk that holds its answer, nothing more;
whole-table readers (:attr:`Table.result`, :attr:`Table.summary`) read every chunk and check that the
data agrees with the attributes: the digest, the counts, and 255 exactly where the index has no legal
position. Tables live in :func:`solver.core.storage.container.tables_dir`, named by board and rule
(:func:`table_path`): ``neutreeko-5x5.h5`` for the standard rule, ``neutreeko-5x5-centre.h5`` for
another; they are written to a temporary file and renamed into place.

The attributes: docs/table-format.md; the container's guarantee: docs/design/tables.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
import numpy.typing as npt

from solver.core.errors import TableError, TableMismatchError
from solver.core.storage import container
from solver.core.storage.chunks import Chunks
from solver.core.storage.container import COUNT, FLAG, SECONDS, TEXT, Attributes, Contents, check_writable, tables_dir
from solver.core.storage.remote import Location, Url, location
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.rules import DEFAULT_RULE
from solver.neutreeko.model.symmetry import CANONICAL_FORM, symmetry_count
from solver.neutreeko.model.values import ENCODING, ILLEGAL
from solver.neutreeko.solving.memory import fits_over_positions
from solver.neutreeko.tables import folding
from solver.neutreeko.tables.digests import committed_digest
from solver.neutreeko.tables.stats import (
    COUNT_NAMES,
    Summary,
    stretches,
    summarize,
    summarize_folded_stretches,
    summarize_stretches,
)

__all__ = ["ATTRIBUTES", "FOLDED_ATTRIBUTES", "FORMAT_VERSION", "Table", "check_writable", "convert_table", "open_table", "solve_command", "table_path",
           "tables_dir", "write_folded_table", "write_table"]

#: The version of the table format this module writes and reads.
FORMAT_VERSION = 2
INDEX_DESCRIPTION = (
    "index = rank(mover) * C(N-3, 3) + rank(other), seen from the side to move, N the number of squares "
    "(numbered a1 = 0, b1 = 1, ... along each rank from the first); rank(a < b < c) = C(a,1) + C(b,2) + "
    "C(c,3) (colexicographic); the other side's squares are first renumbered 0 .. N-4 with the mover's "
    "three squares taken out")
_DATASET = "result"
_FOLDED_DATASET = "class_result"
#: The attributes of every table and their kinds, checked on opening (besides the container's own).
ATTRIBUTES = {"board": TEXT, "rule": TEXT, "index_scheme": COUNT, "value_encoding": TEXT,
              **{name: COUNT for name in COUNT_NAMES}, "index_description": TEXT, "solve_seconds": SECONDS}
#: Those of a folded table besides.
FOLDED_ATTRIBUTES = {"symmetries": COUNT, "classes": COUNT, "canonical_form": TEXT}


def table_path(game: Game) -> Location:
    """Default path of ``game``'s table."""
    suffix = "" if game.rule.name == DEFAULT_RULE else f"-{game.rule.name}"
    return tables_dir() / f"neutreeko-{game.board}{suffix}.h5"


def write_table(game: Game, result: npt.NDArray[np.uint8], path: Path, solve_seconds: float,
                fold: bool = False, replace: bool = True) -> Summary:
    """Write ``result`` (one byte per index) as ``game``'s table at ``path`` (atomically), folded by
    symmetry if ``fold``; return its summary. Unless ``replace``, a file at ``path`` (one that appeared
    while the table was written) is left as it is: :class:`~solver.core.errors.TableExistsError`.

    Raises :class:`~solver.core.errors.TableError` if the directory cannot be written."""
    summary = summarize(game, result)
    _write(game, folding.fold(game, result) if fold else result, summary, path, solve_seconds, fold, replace)
    return summary


def write_folded_table(game: Game, folded: npt.NDArray[np.uint8] | container.Pieces, summary: Summary, path: Path,
                       solve_seconds: float, replace: bool = True) -> None:
    """Write ``folded`` (one byte per legal class, as :func:`solver.neutreeko.tables.folding.fold` gives them,
    whole or in pieces), whose positions' counts are ``summary``, as ``game``'s folded table at ``path``,
    as :func:`write_table` does."""
    _write(game, folded, summary, path, solve_seconds, True, replace)


def _write(game: Game, data: npt.NDArray[np.uint8] | container.Pieces, summary: Summary, path: Path,
           solve_seconds: float, fold: bool, replace: bool) -> None:
    attributes: Attributes = {
        "format_version": FORMAT_VERSION, "board": str(game.board), "rule": game.rule.name,
        "index_scheme": index.INDEX_SCHEME, "value_encoding": ENCODING, **summary.counts(),
        "index_description": INDEX_DESCRIPTION, "solve_seconds": float(solve_seconds), "folded": bool(fold),
    }
    if fold:
        attributes.update(symmetries=symmetry_count(game.board),
                          classes=data.length if isinstance(data, container.Pieces) else len(data),
                          canonical_form=CANONICAL_FORM)
    container.write(Path(path), _FOLDED_DATASET if fold else _DATASET, data, attributes, replace=replace)


def convert_table(path: Path, attributes: Attributes, data: npt.NDArray[Any]) -> Game:
    """Rewrite the table at ``path`` in today's format from its contents in the first container format,
    ``attributes`` and ``data``, as :func:`solver.core.storage.legacy.read` gives them verified (nothing is
    solved again); return its game. Raises :class:`~solver.core.errors.TableError` unless they are a table of Neutreeko."""
    if attributes.get("game", "neutreeko") != "neutreeko" or attributes.get("format_version") != FORMAT_VERSION:
        raise TableError(f"{path} is not a Neutreeko table of format {FORMAT_VERSION}")
    read = {"board": TEXT, "rule": TEXT, "solve_seconds": SECONDS, **({"folded": FLAG} if "folded" in attributes else {})}
    container.check_kinds(attributes, read, partial(container.damaged, path))
    game = Game.of(str(attributes["board"]), str(attributes["rule"]))
    folded = bool(attributes.get("folded", False))
    if data.dtype != np.uint8 or len(data) != (folding.Classes.of(game).count if folded else game.positions):
        raise TableError(f"{path} holds {len(data):,} values of {data.dtype}, not the table of {game}")
    result = folding.unfold(game, data) if folded else data
    write_table(game, result, path, float(attributes["solve_seconds"]), fold=folded)
    return game


@dataclass(frozen=True, eq=False)
class Table:
    """An opened table of ``game``, read a verified chunk at a time: ``chunks`` holds one result byte
    per index, or, if ``folded``, one per legal symmetry class (see the module docstring)."""

    game: Game
    path: Location
    chunks: Chunks = field(repr=False)
    contents: Contents = field(repr=False)
    folded: bool = False

    @property
    def attributes(self) -> Attributes:
        return self.contents.attributes

    def probe(self, indices: Any) -> Any:
        """Result bytes (see :mod:`solver.neutreeko.model.values`) of an index or an array of indices, reading
        only the chunks that hold them; a folded table answers through each position's canonical twin,
        and :data:`~solver.neutreeko.model.values.ILLEGAL` where not legal."""
        if not self.folded:
            return self.chunks.take(indices)[()]
        numbers = self._classes.numbers(indices)
        found = self.chunks.take(np.maximum(numbers, 0))
        found[numbers < 0] = ILLEGAL  # cheaper than np.where for the few indices of a probe
        return found[()]

    @cached_property
    def _classes(self) -> folding.Classes:
        return folding.Classes.of(self.game)

    @property
    def result(self) -> npt.NDArray[np.uint8]:
        """``result[index]``: the byte of every index of ``game``, the whole table read (a folded table is
        then unfolded, which takes time; prefer :meth:`probe` for probes).

        Raises :class:`~solver.core.errors.TableError` unless the data matches its digest, holds 255 exactly where the index
        has no legal position, and gives the counts the attributes state."""
        return self._whole[0]

    @cached_property
    def summary(self) -> Summary:
        """The counts of :attr:`result`, checked as it is. A table not yet read whole is counted as it is
        read, a chunk at a time in the memory of a few (on 9 x 9: 6.5 GB never held at once); a folded
        one class by class, without unfolding it
        (:func:`~solver.neutreeko.tables.stats.summarize_folded_stretches`: 10 x 10's 3 GB never held at once)."""
        if "_whole" in self.__dict__:
            return self._whole[1]
        if self.folded:
            # From the bytes if they are held already (the unfolding's digest needs them whole), else as
            # the chunks are read.
            parts = (stretches(self.data) if "data" in self.__dict__ else
                     _indexed(self.contents.checked_chunks(_FOLDED_DATASET, len(self.chunks), np.uint8)))
            try:
                summary = summarize_folded_stretches(self.game, parts)
            except ValueError as error:
                raise self.contents.damaged(str(error)) from None
            self.contents.check_figures(summary.counts())
            return summary
        return self._checked_summary(_indexed(self.contents.checked_chunks(_DATASET, len(self.chunks), np.uint8)))

    @cached_property
    def data(self) -> npt.NDArray[np.uint8]:
        """The bytes as stored: :attr:`result` of a full table, one byte per legal class of a folded one
        (not unfolded), the whole table read. Raises :class:`~solver.core.errors.TableError` unless they match their digest."""
        data: npt.NDArray[np.uint8] = self.contents.read(_FOLDED_DATASET if self.folded else _DATASET,
                                                         len(self.chunks), np.uint8)
        return data

    @cached_property
    def _whole(self) -> tuple[npt.NDArray[np.uint8], Summary]:
        result = folding.unfold(self.game, self.data) if self.folded else self.data
        return result, self._checked_summary(stretches(result))

    def _checked_summary(self, parts: Iterable[tuple[int, npt.NDArray[np.uint8]]]) -> Summary:
        """The summary of the result bytes ``parts`` (see :func:`summarize_stretches`), once they hold 255
        exactly where the index has no legal position and give the counts the attributes state."""
        summary = summarize_stretches(self.game, _legal_checked(self.game, parts, self.contents))
        self.contents.check_figures(summary.counts())
        return summary

    def result_digest(self) -> str:
        """``"sha256:<hex>"`` of :attr:`result`'s bytes, the digest committed for the tables of the
        survey (:mod:`solver.neutreeko.tables.digests`): a full table's ``digest`` attribute, once its data, read
        a chunk at a time, is found to have it; a folded table's unfolding, digested a stretch at a time
        (:func:`~solver.neutreeko.tables.folding.unfolded_stretches`: never held whole, 24 GB on 10 x 10), once
        its counts are checked. Raises :class:`~solver.core.errors.TableError` if the data does not match its digest or counts."""
        if self.folded:
            self.data  # held whole, as the unfolding reads it in any order: counted from it, not read twice
            self.summary  # the folded bytes and their counts checked first, as reading the result checks them
            return folding.unfolded_digest(self.game, self.data)
        return self.contents.checked_digest(_DATASET, len(self.chunks), np.uint8)

    def describe(self) -> Attributes:
        """What a release's manifest says of the table (:mod:`solver.core.storage.release`): the game, board and
        rule, whether it is folded, :meth:`result_digest` and the counts its attributes state."""
        return {"game": "neutreeko", "board": str(self.game.board), "rule": self.game.rule.name,
                "folded": self.folded, "result_digest": self.result_digest(),
                "figures": {name: self.attributes.get(name) for name in COUNT_NAMES}}

    def close(self) -> None:
        """Close the file (its chunks leave the cache)."""
        self.contents.close()


def _indexed(chunks: Iterable[npt.NDArray[np.uint8]]) -> Iterator[tuple[int, npt.NDArray[np.uint8]]]:
    """The chunks of a table's data, in order, each with the place of its first byte (an index, or a
    class of a folded table)."""
    first = 0
    for chunk in chunks:
        yield first, chunk
        first += len(chunk)


def _legal_checked(game: Game, parts: Iterable[tuple[int, npt.NDArray[np.uint8]]],
                   contents: Contents) -> Iterator[tuple[int, npt.NDArray[np.uint8]]]:
    """``parts`` (first index, result bytes) passed on, each once it is found to hold 255 exactly at the
    indices whose mover has won; else :class:`~solver.core.errors.TableError`."""
    other_count = index.other_count(game.board.size)
    for first, part in parts:
        # The part's indices fall in rows of other_count, one per mover triple: count its 255s row by row.
        rows = np.arange(first // other_count, (first + len(part) - 1) // other_count + 1)
        starts = np.maximum(rows * other_count - first, 0)
        illegal = np.add.reduceat(part == ILLEGAL, starts, dtype=np.int64)
        if not np.array_equal(illegal, np.where(game.wins[rows], np.diff(starts, append=len(part)), 0)):
            raise contents.damaged("it marks as illegal a legal position, or as legal an illegal one")
        yield first, part


def solve_command(game: Game, path: Location | None = None) -> str:
    """The command that builds ``game``'s table at ``path`` (default, or an address: where
    :func:`table_path` says): over symmetry classes (``--fold``) if the solve over positions does not fit
    this machine's memory."""
    out = "" if path is None or isinstance(location(path), Url) or location(path) == table_path(game) \
        else f" --out {path}"
    fold = "" if fits_over_positions(game) else " --fold"
    return f"neutreeko solve --board {game.board} --rule {game.rule.name}{out}{fold}"


def open_table(game: Game, path: Location | None = None) -> Table:
    """Open and check ``game``'s table (at ``path``, or where :func:`table_path` says).

    Raises :class:`~solver.core.errors.MissingTableError` (a ``KeyError``) if there is no file, :class:`~solver.core.errors.TableMismatchError`
    if it is a table of NECNON or for another board or rule, :class:`~solver.core.errors.TableError` if something other
    than a regular file is there (a link leading nowhere, a FIFO, a device, a directory), or the file is
    not a table of ours or is damaged (see :mod:`solver.core.storage.container`: the header and the chunk map are
    verified here, each chunk when it is first read)."""
    path = location(path) if path is not None else table_path(game)
    container.check_present(path, f"no table for {game} at {path} (build it with: {solve_command(game, path)})")
    rebuild = f"{solve_command(game, path)} --force"
    contents = container.open_contents(path, rebuild, "neutreeko convert")
    try:
        folded = _checked(game, path, contents, rebuild)
        expected = folding.Classes.of(game).count if folded else game.positions
        chunks = contents.chunks(_FOLDED_DATASET if folded else _DATASET, expected, np.uint8)
    except BaseException:
        contents.close()
        raise
    return Table(game, path, chunks, contents, folded)


def _checked(game: Game, path: Location, contents: Contents, rebuild: str) -> bool:
    """Is the table ``contents`` of ``game`` folded? Raises as :func:`open_table` does when its attributes
    do not describe a table of ``game`` that this version reads."""
    attributes = contents.attributes
    folded = attributes.get("folded", False)
    if not contents.ours:
        raise TableError(f"{path} is not a neutreeko-solver table")
    if attributes.get("game", "neutreeko") != "neutreeko":  # only the other game names itself
        raise TableMismatchError(f"{path} is a table of {str(attributes['game'])[:60]}, not of neutreeko")
    if not isinstance(folded, bool) or not contents.has(_FOLDED_DATASET if folded else _DATASET):
        raise TableError(f"{path} is not a neutreeko-solver table")
    if attributes.get("format_version") != FORMAT_VERSION or attributes.get("index_scheme") != index.INDEX_SCHEME:
        raise TableError(f"{path} has format {str(attributes.get('format_version'))[:60]}, index scheme "
                         f"{str(attributes.get('index_scheme'))[:60]}; this version reads format "
                         f"{FORMAT_VERSION}, index scheme {index.INDEX_SCHEME} (rebuild it with {rebuild})")
    contents.check_attributes({**ATTRIBUTES, **(FOLDED_ATTRIBUTES if folded else {})})
    if attributes["value_encoding"] != ENCODING:
        raise TableError(f"{path} encodes values as {attributes['value_encoding'][:60]!r}; this "
                         f"version reads {ENCODING!r} (rebuild it with {rebuild})")
    if (attributes["board"], attributes["rule"]) != (str(game.board), game.rule.name):
        raise TableMismatchError(f"{path} is a table for {attributes['board'][:60]} "
                                 f"{attributes['rule'][:60]}, not {game}")
    if folded and attributes["canonical_form"] != CANONICAL_FORM:
        raise TableError(f"{path} is folded with canonical form {attributes['canonical_form'][:60]!r}; "
                         f"this version reads {CANONICAL_FORM!r} (rebuild it with {rebuild})")
    return folded


def release_entry(path: Location, attributes: Mapping[str, object]) -> tuple[str, Table, str | None]:
    """The table at ``path`` (``attributes`` read from it) as a release takes it: its file name there,
    the table opened, and its committed result digest, if any (see :class:`~solver.core.games.GameEntry`)."""
    game = Game.of(str(attributes.get("board")), str(attributes.get("rule")))
    return table_path(game).name, open_table(game, path), committed_digest(game)
