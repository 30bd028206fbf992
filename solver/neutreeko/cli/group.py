"""The ``neutreeko`` command group and what its commands share: the board, rule, table and position
options, and opening tables (built, with progress, when missing)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from solver import __version__
from solver.cli import common
from solver.cli.common import CommandGroup, table_option
from solver.core.storage.remote import Location
from solver.neutreeko.model.board import MAX_SIDE, MIN_SIDE
from solver.neutreeko.model.rules import DEFAULT_RULE, RULES

if TYPE_CHECKING:
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.model.position import Position
    from solver.neutreeko.querying.probe import Tablebase
    from solver.neutreeko.solving.levels import Level
    from solver.neutreeko.tables.table import Table

F = TypeVar("F", bound=Callable[..., object])

#: Each command, by the module that defines it: imported only when the command runs or its help is shown.
COMMANDS = {"solve": "tables:solve", "fetch": "tables:fetch", "check": "tables:check_command",
            "verify": "tables:verify_command", "stats": "tables:stats", "survey": "tables:survey_command",
            "query": "positions:query", "line": "positions:line", "show": "positions:show",
            "play": "games:play", "annotate": "games:annotate_command", "starts": "games:starts_command",
            "puzzles": "puzzles:puzzles_command", "train": "train:train"}


@click.group(cls=CommandGroup, name="neutreeko", context_settings={"help_option_names": ["-h", "--help"]},
             lazy={name: f"solver.neutreeko.cli.{spec}" for name, spec in COMMANDS.items()})
@click.version_option(__version__, "--version", prog_name="neutreeko", message="%(prog)s %(version)s")
def cli() -> None:
    """Neutreeko, solved: every position's value with its exact distance in plies."""


board_option = click.option("--board", default="5x5", show_default=True, metavar="WIDTHxHEIGHT",
                            help=f"Board size, files x ranks, each side from {MIN_SIDE} to {MAX_SIDE}.")
rule_option = click.option("--rule", type=click.Choice(list(RULES), case_sensitive=False), default=DEFAULT_RULE,
                           show_default=True, help="Winning condition; connected is standard Neutreeko (the "
                                                    "documentation's notation page describes the others).")
build_option = click.option("--build", is_flag=True,
                            help="Build a missing table even for a board larger than 5x5 (up to a minute "
                                 "and hundreds of MB); smaller ones are built unasked.")
# nargs=-1 so that the position may be given unquoted ("1w1w1/2b2/5/2w2/1b1b1 b" is two words).
position_argument = click.argument("position", nargs=-1, required=True, metavar="POSITION")
moves_option = click.option("--moves", default="", metavar='"C4-C3 D5-D2"',
                            help='Moves to play from POSITION first, each checked: a plain list or numbered, '
                                 '"1. C4-C3 D5-D2 2. B1-B4".')


def position_options(command: F) -> F:
    """POSITION with --board, --rule, --table, --build and --moves: what query, line and show read."""
    for option in reversed((position_argument, board_option, rule_option, table_option, build_option,
                            moves_option)):
        command = option(command)
    return command


def read_position(words: tuple[str, ...], board: str, rule: str, moves: str) -> Position:
    """POSITION (its words joined by a space, so quoting it is optional) on the --board, after --moves
    (move text, see :mod:`solver.neutreeko.playing.record`)."""
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.model.position import Position

    position = Position.parse(" ".join(words), rule, Game.of(board, rule))
    if not moves:
        return position
    from solver.neutreeko.playing.record import after_moves  # the reader of records only for --moves

    return after_moves(position, moves)


def terminal_progress(always: bool = False) -> Callable[[Level], None] | None:
    """Ply-by-ply progress when standard error is a terminal or ``always``, silence otherwise: the
    positions (or classes) newly won or lost, the share of the legal ones decided so far, the time
    solved so far and an estimate of the time left (see :attr:`~solver.neutreeko.solving.levels.Level.seconds_left`)."""
    if not (always or sys.stderr.isatty()):
        return None

    def progress(level: Level) -> None:
        kind = "wins" if level.won else "losses"
        unit = " (classes)" if level.unit == "classes" else ""
        left = level.seconds_left
        click.echo(f"  ply {level.plies:3d}: {level.count:>14,} new {kind:<6}{unit} "
                   f"{100 * level.decided / max(level.legal, 1):5.1f} % decided {level.seconds:9.2f} s"
                   + ("" if left is None else f", about {left:,.0f} s left")
                   + ("" if level.exchanged is None else f", {level.exchanged / 1e6:,.1f} MB exchanged"), err=True)

    return progress


def open_or_build(game: Game, table_file: Location | None, build: bool) -> Table:
    """The table of ``game`` at ``table_file``, or the default one, built (with progress) if it is
    missing (a board larger than 5 x 5 only if ``build``: see :func:`~solver.neutreeko.tables.build.ensure_table`)."""
    from solver.neutreeko.tables.table import open_table

    def ensure(game: Game, **options: Any) -> Table:  # the solver is imported only to build a missing table
        from solver.neutreeko.tables.build import ensure_table

        return ensure_table(game, build_large=build, **options)

    def cost() -> str:
        from solver.neutreeko.tables.build import build_cost, is_large

        return build_cost(game) if is_large(game) else ""

    return common.open_or_build(game, table_file, open_table, ensure, terminal_progress(), str(game), cost)


def tablebase_for(table_file: Location | None, build: bool) -> Tablebase:
    """A tablebase opening tables as :func:`open_or_build` does."""
    from solver.neutreeko.querying.probe import Tablebase

    return Tablebase(opener=lambda game: open_or_build(game, table_file, build))
