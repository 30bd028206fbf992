"""Building tables: solve a game and store the result, or open the table that is already there."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from solver.core.container import check_replaceable
from solver.core.errors import MissingTableError, TableExistsError
from solver.neutreeko.game import Game
from solver.neutreeko.solve import Level, solve
from solver.neutreeko.stats import Summary
from solver.neutreeko.table import Table, open_table, table_path, write_table

__all__ = ["TableExistsError", "build_table", "ensure_table"]

Progress = Callable[[Level], None]


def build_table(game: Game, path: Path | None = None, force: bool = False,
                progress: Progress | None = None, fold: bool = False) -> tuple[Path, Summary, float]:
    """Solve ``game`` and write its table (to ``path`` or the default place), folded by symmetry if
    ``fold`` (see :mod:`solver.neutreeko.table`).

    Returns (path, summary, solve seconds). Unless ``force``, refuses with :class:`TableExistsError`
    to replace any file at ``path``: a valid table, or a file that is not one (which may be someone's
    data). Raises :class:`TableError` before solving if ``path`` cannot be written."""
    path = Path(path) if path is not None else table_path(game)
    check_replaceable(path, force, lambda existing: open_table(game, existing))
    solution = solve(game, progress)
    summary = write_table(game, solution.result, path, solution.seconds, fold)
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
