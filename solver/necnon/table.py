"""NECNON tables: one HDF5 file per board and protocol setting, in the digest-checked container of
:mod:`solver.core.container` (the one Neutreeko's tables use).

The dataset ``classes`` holds one record per class of positions reachable from the empty board
(:data:`solver.necnon.solve.RECORD`: canonical key, margin, turns, number of positions), sorted by key,
so that a position is found by binary search on its canonical key (:mod:`solver.necnon.keys`). A
position reachable from the empty board is always there; one that is not there cannot be reached.
The attributes describe the file:

=================  =============================================================================
attribute          meaning
=================  =============================================================================
format             ``"neutreeko-solver table"`` (the container's; anything else is not one of ours)
format_version     :data:`FORMAT_VERSION`
game               ``"necnon"``
grid, board        ``"square"`` or ``"hex"``; the board, e.g. ``"4x4"``, ``"hex3"``
cells, symmetries  the board's number of cells and of symmetries (8, 4 or 12)
protocol           the setting, e.g. ``"nec-non"``; black_protocol, green_protocol: each player's
key_layout         :data:`solver.necnon.keys.KEY_LAYOUT`
classes, positions, black_wins, draws, green_wins, finished, value, turns, longest
                   the figures of :class:`solver.necnon.stats.Summary`; ``value`` and ``turns`` are
                   the empty board's (Black's points minus Green's under perfect play)
best_first         the cells whose first stone keeps the empty board's value
digest             ``"sha256:<hex>"`` of the data bytes; checked on every open
solve_seconds      how long the search took (not part of the data)
attributes_digest  ``"sha256:<hex>"`` of all the attributes but ``solve_seconds``; checked on every open
=================  =============================================================================

Tables live in :func:`solver.core.container.tables_dir`, named ``necnon-<board>-<protocol>.h5``
(``necnon-4x4-nec.h5``). The same solve gives the same data bytes and attributes (``solve_seconds``
apart) on every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from solver.core import container
from solver.core.container import Attributes, tables_dir
from solver.core.errors import TableError, TableMismatchError
from solver.necnon.keys import KEY_LAYOUT, find
from solver.necnon.rules import Game
from solver.necnon.solve import RECORD
from solver.necnon.stats import Summary, summarize

FORMAT_VERSION = 1
GAME = "necnon"
_DATASET = "classes"
_UNDIGESTED = ("solve_seconds",)


def table_path(game: Game) -> Path:
    """Default path of ``game``'s table."""
    return tables_dir() / f"necnon-{game.grid}-{game.setting}.h5"


def solve_command(game: Game, path: Path | None = None) -> str:
    """The command that builds ``game``'s table at ``path`` (default: where :func:`table_path` says)."""
    out = "" if path is None or Path(path) == table_path(game) else f" --out {path}"
    return f"necnon solve --board {game.grid} --protocol {game.setting}{out}"


def write_table(game: Game, records: npt.NDArray[np.void], path: Path, solve_seconds: float) -> Summary:
    """Write ``records`` (see :mod:`solver.necnon.solve`) as ``game``'s table at ``path``, atomically;
    return its summary. Raises :class:`TableError` if the file cannot be written."""
    summary = summarize(game, records)
    attributes: Attributes = {
        "format_version": FORMAT_VERSION, "game": GAME, "grid": game.grid.kind, "board": str(game.grid),
        "cells": game.grid.cells, "symmetries": len(game.grid.symmetries), "protocol": game.setting,
        "black_protocol": game.black.value, "green_protocol": game.green.value, "key_layout": KEY_LAYOUT,
        **summary.counts(), "best_first": list(summary.best_first), "solve_seconds": float(solve_seconds),
    }
    container.write(Path(path), _DATASET, records, attributes, _UNDIGESTED)
    return summary


@dataclass(frozen=True)
class Table:
    """An opened, checked table of ``game``: ``records`` sorted by canonical key."""

    game: Game
    path: Path
    records: npt.NDArray[np.void] = field(repr=False)
    attributes: Attributes = field(repr=False)

    @cached_property
    def summary(self) -> Summary:
        """The figures of the table (computed from its records on first use)."""
        return summarize(self.game, self.records)

    def rows(self, keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
        """The row of each canonical key, or -1 where it is absent (a position that cannot be reached)."""
        return find(self.records, keys)


def open_table(game: Game, path: Path | None = None) -> Table:
    """Open and check ``game``'s table (at ``path``, or where :func:`table_path` says).

    Raises :class:`MissingTableError` (a ``KeyError``) if there is no file, :class:`TableMismatchError`
    if it is a table of another game, board or protocol, :class:`TableError` if something other than a
    regular file is there, or the file is not a table of ours or is damaged (see
    :mod:`solver.core.container`: the whole file is verified before it is read)."""
    path = Path(path) if path is not None else table_path(game)
    container.check_present(path, f"no table for {game} at {path} (build it with: {solve_command(game, path)})")
    rebuild = f"{solve_command(game, path)} --force"
    with container.opened(path, rebuild) as contents:
        attributes = contents.attributes
        if not contents.ours:
            raise TableError(f"{path} is not a neutreeko-solver table")
        if attributes.get("game") != GAME:
            raise TableMismatchError(f"{path} is a table of {attributes.get('game', 'neutreeko')}, not of necnon")
        if not contents.has(_DATASET) or attributes.get("format_version") != FORMAT_VERSION \
                or attributes.get("key_layout") != KEY_LAYOUT:
            raise TableError(f"{path} has format {attributes.get('format_version')}; this version reads necnon "
                             f"format {FORMAT_VERSION} (rebuild it with {rebuild})")
        contents.check_attributes(_UNDIGESTED)
        if (attributes.get("board"), attributes.get("protocol")) != (str(game.grid), game.setting):
            raise TableMismatchError(f"{path} is a table for {attributes.get('board')} "
                                     f"{attributes.get('protocol')}, not {game}")
        records = contents.read(_DATASET, (int(attributes["classes"]),), RECORD)
    return Table(game, path, records, attributes)
