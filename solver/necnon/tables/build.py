"""Building NECNON tables: solve a game and store its records, or open the table that is already there."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Callable, Iterable

from solver.core.errors import MissingTableError
from solver.core.storage import container
from solver.core.storage.container import check_replaceable
from solver.core.storage.remote import Location, location
from solver.necnon.model.keys import check_solvable
from solver.necnon.model.rules import Game
from solver.necnon.solving.solve import Progress, solve
from solver.necnon.tables.stats import Summary
from solver.necnon.tables.table import Table, open_table, solve_command, table_path, write_table

#: Boards of up to this many cells (4x4) have their missing tables built unasked, in a moment; larger
#: ones, whose solve takes long and much memory, only when asked (``build_large``, the command line's
#: ``--build``).
UNASKED_CELLS = 16


class LargeTableError(MissingTableError):
    """A missing table of a board larger than :data:`UNASKED_CELLS` cells, not asked to be built."""


def build_table(game: Game, path: Path | None = None, force: bool = False,
                progress: Progress | None = None) -> tuple[Path, Summary, float]:
    """Solve ``game`` and write its table (to ``path`` or the default place).

    Returns (path, summary, solve seconds). Unless ``force``, refuses with
    :class:`~solver.core.errors.TableExistsError` to replace any file at ``path``, before solving, or
    one that appeared there during the solve, after it. Raises
    :class:`~solver.core.errors.TableError` before solving if ``path`` cannot be written, and
    :class:`~solver.core.errors.BoardError` if the board is too large to solve."""
    path = container.local(location(path) if path is not None else table_path(game))
    check_replaceable(path, force, lambda existing: open_table(game, existing))
    solution = solve(game, progress)
    summary = write_table(game, solution.records, path, solution.seconds, replace=force)
    return path, summary, solution.seconds


def ensure_table(game: Game, path: Location | None = None, progress: Progress | None = None,
                 on_build: Callable[[Location], None] | None = None, build_large: bool = False) -> Table:
    """Open ``game``'s table, building it first if there is none (``on_build`` is told where).

    Raises :class:`~solver.core.errors.BoardError` for a board too large to solve and
    :class:`LargeTableError` for a board of more than :data:`UNASKED_CELLS` cells unless
    ``build_large``, before anything is announced."""
    return container.ensure(location(path) if path is not None else table_path(game), partial(open_table, game),
                            lambda where: check_build_asked([game], build_large, where),
                            partial(build_table, game, force=True, progress=progress), on_build)


def check_build_asked(games: Iterable[Game], build_large: bool, path: Location | None = None) -> None:
    """Raise :class:`~solver.core.errors.BoardError` for the first of ``games`` too large to solve,
    and :class:`LargeTableError` for the first whose table is missing (at ``path``, or the default
    place) and whose board has more than :data:`UNASKED_CELLS` cells, unless ``build_large``: so that
    a command building many tables refuses before building any."""
    for game in games:
        where = container.local(path if path is not None else table_path(game))
        if where.exists():
            continue
        check_solvable(game.grid)
        if game.grid.cells > UNASKED_CELLS and not build_large:
            raise LargeTableError(f"no table for {game} at {where}; a board of more than {UNASKED_CELLS} cells "
                                  f"is built only when asked (the largest take minutes and gigabytes): add --build "
                                  f"to build it now, or build it with: {solve_command(game, path)}")
