"""Building tables: solve a game and store the result, or open the table that is already there."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from solver.errors import MissingTableError, TableError
from solver.game import Game
from solver.solve import Level, solve
from solver.stats import Summary
from solver.table import Table, open_table, table_path, write_table

Progress = Callable[[Level], None]


class TableExistsError(TableError):
    """A valid table is already at the destination and overwriting was not asked for."""


def build_table(game: Game, path: Path | None = None, force: bool = False,
                progress: Progress | None = None) -> tuple[Path, Summary, float]:
    """Solve ``game`` and write its table (to ``path`` or the default place).

    Returns (path, summary, solve seconds). Refuses, with :class:`TableExistsError`, to replace a
    valid table unless ``force``; a missing or unusable file is simply replaced."""
    path = Path(path) if path is not None else table_path(game)
    if not force:
        try:
            open_table(game, path)
        except TableError:
            pass
        else:
            raise TableExistsError(f"a valid table already exists at {path} (use --force to rebuild it)")
    if path.is_dir():
        raise TableError(f"cannot write a table to {path}: it is a directory")
    solution = solve(game, progress)
    summary = write_table(game, solution.result, path, solution.seconds)
    return path, summary, solution.seconds


def ensure_table(game: Game, path: Path | None = None, progress: Progress | None = None,
                 on_build: Callable[[Path], None] | None = None) -> Table:
    """Open ``game``'s table, building it first if there is none (``on_build`` is told where)."""
    try:
        return open_table(game, path)
    except MissingTableError:
        if on_build:
            on_build(Path(path) if path is not None else table_path(game))
        built, _, _ = build_table(game, path, force=True, progress=progress)
        return open_table(game, built)
