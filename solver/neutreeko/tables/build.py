"""Building tables: solve a game and store the result, or open the table that is already there."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

import numpy as np

from solver.core import interrupts
from solver.core.errors import ClusterError, InputError, MissingTableError, TableExistsError
from solver.core.files import size_text
from solver.core.storage import container
from solver.core.storage.container import check_replaceable
from solver.core.storage.remote import Location, location
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import symmetry_count
from solver.neutreeko.solving import EVERY, memory
from solver.neutreeko.solving.checkpoint import CLUSTER_STATE, Checkpoints, StateError, state_path
from solver.neutreeko.solving.levels import Level, Progress
from solver.neutreeko.solving.memory import fits_over_positions, state_bytes
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.solving.solve_classes import solve_classes
from solver.neutreeko.tables import digests, folding
from solver.neutreeko.tables.folding import Classes
from solver.neutreeko.tables.stats import Summary, summarize
from solver.neutreeko.tables.table import Table, open_table, solve_command, table_path, write_folded_table, write_table

__all__ = ["UNASKED_SQUARES", "LargeTableError", "SolveTooLargeError", "TableExistsError", "build_cost", "build_table",
           "check_build_asked", "check_memory", "check_resumed", "ensure_table", "is_large"]


#: Boards of up to this many squares (5 x 5) have their missing tables built unasked, in a moment;
#: larger ones, whose solve takes long and whose file is large, only when
#: asked (``build_large``, the command line's ``--build``).
UNASKED_SQUARES = 25


class LargeTableError(MissingTableError):
    """A missing table of a board larger than :data:`UNASKED_SQUARES` squares, not asked to be built."""


class SolveTooLargeError(InputError):
    """A solve whose state would not fit this machine's memory."""


def build_table(game: Game, path: Path | None = None, force: bool = False, progress: Progress | None = None,
                fold: bool = False, resume: bool = False, save_every: float = EVERY) -> tuple[Path, Summary, float]:
    """Solve ``game`` and write its table (to ``path`` or the default place); if ``fold``, solve it over
    its symmetry classes (:mod:`solver.neutreeko.solving.solve_classes`, an eighth of the memory on a square board)
    and write the folded table (see :mod:`solver.neutreeko.tables.table`).

    The solve saves its state beside the table every ``save_every`` seconds of solving and, if
    ``resume``, continues from the state saved there (:mod:`solver.neutreeko.solving.checkpoint`); the state is
    removed once the table is written. A table solved from a saved state is checked before it is
    written (:func:`check_resumed`): a state whose digest was forged does not leave a wrong table.

    Returns (path, summary, solve seconds). Unless ``force``, refuses with :class:`TableExistsError`
    to replace any file at ``path``: a valid table, or a file that is not one (which may be someone's
    data), before solving, and one that appeared there during the solve, after it. Raises
    :class:`~solver.core.errors.TableError` before solving if ``path`` cannot be written,
    :class:`~solver.neutreeko.solving.checkpoint.StateError` for a saved state that cannot be taken up or whose
    table fails its check, and :class:`SolveTooLargeError` (see :func:`check_memory`) before anything else."""
    check_memory(game, fold)
    path = container.local(location(path) if path is not None else table_path(game))
    check_replaceable(path, force, lambda existing: open_table(game, existing))
    checkpoints = Checkpoints(state_path(path), game, "classes" if fold else "positions", save_every, resume)
    resumed = resume and checkpoints.path.exists()
    if fold:
        folded = solve_classes(game, _stopping(progress), checkpoints)
        if resumed:
            check_resumed(checkpoints, folded.summary, lambda: folding.unfolded_digest(game, folded.folded))
        write_folded_table(game, folded.folded, folded.summary, path, folded.seconds, replace=force)
        summary, seconds = folded.summary, folded.seconds
    else:
        solution = solve(game, _stopping(progress), checkpoints)
        if resumed:
            check_resumed(checkpoints, summarize(game, solution.result), lambda: container.digest(solution.result))
        summary = write_table(game, solution.result, path, solution.seconds, replace=force)
        seconds = solution.seconds
    checkpoints.discard()
    return path, summary, seconds


def cluster_module() -> ModuleType:
    """:mod:`solver.neutreeko.solving.cluster`, imported now; :class:`~solver.core.errors.ClusterError` if Dask
    is not installed."""
    try:
        from solver.neutreeko.solving import cluster
    except ImportError as error:
        if error.name not in ("dask", "distributed"):
            raise
        raise ClusterError("--cluster needs Dask: pip install 'neutreeko-solver[cluster]'") from None
    return cluster


def cluster_state(table: Path, directory: Path | None = None) -> Path:
    """The file that says which state a solve on a cluster of the table at ``table`` saved last, in
    ``directory`` or else ``TABLE.cluster/`` beside the table."""
    return (directory if directory is not None else table.with_name(table.name + ".cluster")) / CLUSTER_STATE


def build_on_cluster(game: Game, address: str, path: Path | None = None, force: bool = False,
                     progress: Progress | None = None, partitions: int = 0, state: Path | None = None,
                     resume: bool = False, save_every: float = EVERY) -> tuple[Path, Summary, float]:
    """Solve ``game`` over its symmetry classes on the Dask cluster at ``address`` (``tcp://host:port``, or
    ``local:N``) and write its folded table as :func:`build_table` does (byte for byte the same), fetched
    from the workers a piece at a time; ``partitions``, ``state`` (the directory of the saved state,
    every worker's; beside the table by default), ``resume`` and ``save_every`` as
    :func:`solver.neutreeko.solving.cluster.solve_on_cluster` takes them.

    Raises :class:`~solver.core.errors.ClusterError` without Dask or for a cluster that cannot run it, and what :func:`build_table` raises."""
    cluster = cluster_module()
    path = container.local(location(path) if path is not None else table_path(game))
    check_replaceable(path, force, lambda existing: open_table(game, existing))
    directory = cluster_state(path, state).parent
    with cluster.connect(address) as client:
        solution = cluster.solve_on_cluster(client, game, partitions, directory, _stopping(progress), save_every,
                                            resume)
        write_folded_table(game, solution.folded, solution.summary, path, solution.seconds, replace=force)
    cluster.discard(directory)
    return path, solution.summary, solution.seconds


def check_resumed(checkpoints: Checkpoints, summary: Summary, result_digest: Callable[[], str]) -> None:
    """Raise :class:`~solver.neutreeko.solving.checkpoint.StateError` unless the result of a solve continued from
    the state at ``checkpoints``, counted as ``summary``, is sound: every position decided or drawn, at
    every distance from 0 to the longest, and ``result_digest()`` (of the result bytes, one per index) the
    committed one (:mod:`solver.neutreeko.tables.digests`) where there is one."""
    game = checkpoints.game
    legal = int(np.count_nonzero(~game.wins)) * index.other_count(game.board.size)
    distances = {*summary.wins_by_plies, *summary.losses_by_plies}
    why = ""
    if summary.legal != legal or summary.wins + summary.losses + summary.draws != legal:
        why = f"its counts are not those of {game} ({summary.legal:,} legal positions, not {legal:,})"
    elif distances != set(range(max(distances, default=-1) + 1)):
        why = "its distances skip a level"
    else:
        committed = digests.committed_digest(game)
        if committed is not None and result_digest() != committed:
            why = f"its result does not match the committed digest {committed}"
    if why:
        raise StateError(f"the table solved from the saved state {checkpoints.path} is wrong: {why}; it is not "
                         "written; remove the state and solve again without --resume")


def check_memory(game: Game, fold: bool) -> None:
    """Raise :class:`SolveTooLargeError` if the state of ``game``'s solve, over positions or (``fold``)
    over symmetry classes, is more than :func:`~solver.neutreeko.solving.memory.physical_memory` (see
    :mod:`solver.neutreeko.solving.memory`). Over positions the message names the solve over classes, if that
    one fits."""
    available = memory.physical_memory()
    if available is None or fits_over_positions(game):
        return
    if fold:
        needed = state_bytes(Classes.of(game).count)
        if needed > available:
            raise SolveTooLargeError(f"solving {game} over symmetry classes holds about {size_text(needed)}, more "
                                     f"than this machine's {size_text(available)} of memory")
        return
    full = state_bytes(game.positions)
    # About one class in symmetry_count positions: counting them exactly takes a while on a board this size.
    classes = full // symmetry_count(game.board)
    advice = f"; solve it over symmetry classes with --fold (about {size_text(classes)})" if classes <= available else ""
    raise SolveTooLargeError(f"solving {game} over positions holds about {size_text(full)}, more than this "
                             f"machine's {size_text(available)} of memory{advice}")


def _stopping(progress: Progress | None) -> Progress:
    """``progress``, after stopping the solve at the next level if a signal was received (one whose
    exception Python swallowed, see :mod:`solver.core.interrupts`)."""
    def each_level(level: Level) -> None:
        interrupts.check()
        if progress:
            progress(level)

    return each_level


def ensure_table(game: Game, path: Location | None = None, progress: Progress | None = None,
                 on_build: Callable[[Location], None] | None = None, build_large: bool = False) -> Table:
    """Open ``game``'s table, building it first if there is none (``on_build`` is told where).

    A board of more than :data:`UNASKED_SQUARES` squares is built only if ``build_large``; otherwise
    a missing table raises :class:`LargeTableError` saying what building it takes and how to ask."""
    return container.ensure(location(path) if path is not None else table_path(game), partial(open_table, game),
                            lambda where: check_build_asked([game], build_large, where),
                            partial(build_table, game, force=True, progress=progress), on_build)


def check_build_asked(games: Iterable[Game], build_large: bool, path: Location | None = None) -> None:
    """Raise :class:`LargeTableError` for the first of ``games`` whose table is missing (at ``path``, or
    the default place) and is larger than :data:`UNASKED_SQUARES` squares, unless ``build_large``, and
    :class:`SolveTooLargeError` for one whose solve does not fit in memory (:func:`check_memory`): so
    that a command building many tables refuses before building any."""
    for game in games:
        where = container.local(path if path is not None else table_path(game))
        if where.exists():
            continue
        if build_large or not is_large(game):
            check_memory(game, False)
        else:
            command = solve_command(game)
            how = (f"add --build to build it now, or build it with: {command}" if fits_over_positions(game) else
                   f"its solve over positions does not fit this machine's memory; build it with: {command}")
            raise LargeTableError(f"no table for {game} at {where}; a board larger than 5 x 5 is built only when "
                                  f"asked ({build_cost(game)}): {how}")


def is_large(game: Game) -> bool:
    """Is ``game``'s board larger than :data:`UNASKED_SQUARES` squares (its table built only when asked)?"""
    return game.board.size > UNASKED_SQUARES


def build_cost(game: Game) -> str:
    """What building ``game``'s table takes, for messages: ``"38,955,840 positions, about 43.8 MB of
    memory, a file of up to 39.0 MB"`` (6 x 6). The solve holds 1.125 bytes per index (see
    :mod:`solver.neutreeko.solving._kernel`) besides the interpreter's 150 MB or so."""
    return (f"{game.positions:,} positions, about {size_text(state_bytes(game.positions))} of memory, "
            f"a file of up to {size_text(game.positions)}")
