"""Building NECNON tables: solve a game and store its records, or open the table that is already there."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from solver.core.container import check_replaceable
from solver.core.errors import MissingTableError
from solver.necnon.keys import check_solvable
from solver.necnon.rules import Game
from solver.necnon.solve import Progress, solve
from solver.necnon.stats import Summary
from solver.necnon.table import Table, open_table, table_path, write_table

Report = Callable[[Progress], None]


def build_table(game: Game, path: Path | None = None, force: bool = False,
                progress: Report | None = None) -> tuple[Path, Summary, float]:
    """Solve ``game`` and write its table (to ``path`` or the default place).

    Returns (path, summary, solve seconds). Unless ``force``, refuses with
    :class:`~solver.core.errors.TableExistsError` to replace any file at ``path``. Raises
    :class:`~solver.core.errors.TableError` before solving if ``path`` cannot be written, and
    :class:`~solver.core.errors.BoardError` if the board is too large to solve."""
    path = Path(path) if path is not None else table_path(game)
    check_replaceable(path, force, lambda existing: open_table(game, existing))
    solution = solve(game, progress)
    summary = write_table(game, solution.records, path, solution.seconds)
    return path, summary, solution.seconds


def ensure_table(game: Game, path: Path | None = None, progress: Report | None = None,
                 on_build: Callable[[Path], None] | None = None) -> Table:
    """Open ``game``'s table, building it first if there is none (``on_build`` is told where).
    Raises :class:`~solver.core.errors.BoardError` for a board too large to solve, before anything
    is announced."""
    try:
        return open_table(game, path)
    except MissingTableError:
        check_solvable(game.grid)
        if on_build:
            on_build(Path(path) if path is not None else table_path(game))
        built, _, _ = build_table(game, path, force=True, progress=progress)
        return open_table(game, built)
