"""The ``neutreeko`` command group and what its commands share: the board, rule, table and position
options, and opening tables (built, with progress, when missing)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from solver import __version__
from solver.cli.common import CommandGroup
from solver.neutreeko.board import MAX_SIDE, MIN_SIDE
from solver.neutreeko.build import ensure_table
from solver.neutreeko.game import Game
from solver.neutreeko.position import Position
from solver.neutreeko.probe import Tablebase
from solver.neutreeko.rules import DEFAULT_RULE, RULES
from solver.neutreeko.solve import Level
from solver.neutreeko.table import Table, open_table

F = TypeVar("F", bound=Callable[..., object])


@click.group(cls=CommandGroup, name="neutreeko", context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="neutreeko", message="%(prog)s %(version)s")
def cli() -> None:
    """Neutreeko, solved: every position's value with its exact distance in plies."""


board_option = click.option("--board", default="5x5", show_default=True, metavar="WIDTHxHEIGHT",
                            help=f"Board size, files x ranks, each side from {MIN_SIDE} to {MAX_SIDE}.")
rule_option = click.option("--rule", default=DEFAULT_RULE, show_default=True,
                           help=f"Winning condition: {', '.join(RULES)}.")
table_option = click.option("--table", "table_file", type=click.Path(path_type=Path), default=None,
                            help="Table file to read instead of the default one.")
position_argument = click.argument("position", nargs=-1, required=True)
moves_option = click.option("--moves", default="", metavar='"C4-C3 D5-D2"',
                            help="Moves to play from POSITION first, each checked.")


def position_options(command: F) -> F:
    """POSITION with --board, --rule, --table and --moves: what query, line and show read."""
    for option in reversed((position_argument, board_option, rule_option, table_option, moves_option)):
        command = option(command)
    return command


def read_position(words: tuple[str, ...], board: str, rule: str, moves: str) -> Position:
    """POSITION (its words joined by a space, so quoting it is optional) on the --board, after --moves."""
    return Position.parse(" ".join(words), rule, Game.of(board, rule)).play_line(moves)


def terminal_progress(always: bool = False) -> Callable[[Level], None] | None:
    """Ply-by-ply progress (positions newly won or lost, time so far) when standard error is a
    terminal or ``always``, silence otherwise."""
    if not (always or sys.stderr.isatty()):
        return None
    began = time.perf_counter()

    def progress(level: Level) -> None:
        kind = "wins" if level.won else "losses"
        click.echo(f"  ply {level.plies:3d}: {level.count:>14,} new {kind:<6} {time.perf_counter() - began:9.2f} s",
                   err=True)

    return progress


def open_or_build(game: Game, table_file: Path | None) -> Table:
    """The table of ``game`` at ``table_file``, or the default one, built if it is missing."""
    if table_file is not None:
        return open_table(game, table_file)

    def announce(path: Path) -> None:
        click.echo(f"building the {game} table at {path} ...", err=True)

    return ensure_table(game, progress=terminal_progress(), on_build=announce)


def tablebase_for(table_file: Path | None) -> Tablebase:
    """A tablebase opening tables as the other commands do: built, with progress, if missing."""
    return Tablebase(opener=lambda game: open_or_build(game, table_file))
