"""What every ``neutreeko`` command shares: the command group, which turns every error a user can cause
into one line on standard error and a non-zero exit (2 for bad input: board, rule, position, move,
usage, a table file for another board or rule; 1 for a table or file that cannot be used or written;
130 when interrupted), the common options, and opening tables (built, with progress, when missing).
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from solver.build import ensure_table
from solver.errors import NeutreekoError, TableError, TableMismatchError
from solver.game import Game
from solver.position import Position
from solver.probe import Tablebase
from solver.rules import DEFAULT_RULE, RULES
from solver.table import Table, open_table


class _Neutreeko(click.Group):
    """Maps exceptions to one-line messages and exit codes (see the module docstring)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name or "neutreeko", complete_var, False, **extra)
        except TableMismatchError as error:
            fail(error, 2)
        except TableError as error:
            fail(error, 1)
        except NeutreekoError as error:
            fail(error, 2)
        except _NO_ARGS_IS_HELP as error:  # bare ``neutreeko``: the help, as click shows it
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            fail(error.format_message(), error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            fail("interrupted", 130)
        except MemoryError:
            fail("out of memory", 1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Reported here: click would print a blank line, then its own Abort.
            if sys.stderr.isatty():
                click.echo(err=True)  # end the terminal's "^C"
            fail("interrupted", 130)


# click >= 8.2 raises this for a group called without a command; older versions exit with the help.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


@contextmanager
def writing(path: Path):
    """Turn a failure to write ``path`` into one line and exit 1."""
    try:
        yield
    except OSError as error:
        raise click.ClickException(f"cannot write {path}: {error.strerror or error}") from None


def fail(message, code: int):
    click.echo(f"neutreeko: error: {message}", err=True)
    sys.exit(code)


board_option = click.option("--board", default="5x5", show_default=True, metavar="WIDTHxHEIGHT",
                            help="Board size, files x ranks, each side from 3 to 7.")
rule_option = click.option("--rule", default=DEFAULT_RULE, show_default=True,
                           help=f"Winning condition: {', '.join(RULES)}.")
table_option = click.option("--table", "table_file", type=click.Path(path_type=Path), default=None,
                            help="Table file to read instead of the default one.")


def terminal_progress():
    """Ply-by-ply progress (positions newly won or lost, time so far) when standard error is a
    terminal, silence otherwise."""
    if not sys.stderr.isatty():
        return None
    began = time.perf_counter()

    def progress(level) -> None:
        kind = "wins" if level.won else "losses"
        click.echo(f"  ply {level.plies:3d}: {level.count:>12,} new {kind:<6} {time.perf_counter() - began:8.2f} s",
                   err=True)

    return progress


def open_or_build(game: Game, table_file: Path | None) -> Table:
    """The table of ``game`` at ``table_file``, or the default one, built if it is missing."""
    if table_file is not None:
        return open_table(game, table_file)

    def announce(path: Path) -> None:
        click.echo(f"building the {game} table at {path} ...", err=True)

    return ensure_table(game, progress=terminal_progress(), on_build=announce)


@click.group(cls=_Neutreeko, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Neutreeko, solved: every position's value with its exact distance in plies."""


position_argument = click.argument("position", nargs=-1, required=True)
moves_option = click.option("--moves", default="", metavar='"C4-C3 D5-D2"',
                            help="Moves to play from POSITION first, each checked.")


def position_options(command):
    """POSITION with --board, --rule, --table and --moves: what query, line and show read."""
    for option in reversed((position_argument, board_option, rule_option, table_option, moves_option)):
        command = option(command)
    return command


def read_position(words: tuple[str, ...], board: str, rule: str, moves: str) -> Position:
    """POSITION (its words joined by a space, so quoting it is optional) on the --board, after --moves."""
    return Position.parse(" ".join(words), rule, Game.of(board, rule)).play_line(moves)


def tablebase_for(table_file: Path | None) -> Tablebase:
    """A tablebase opening tables as the other commands do: built, with progress, if missing."""
    return Tablebase(opener=lambda game: open_or_build(game, table_file))


def reader_gone() -> None:
    """Standard output's reader has gone (``| head``): stop quietly, with exit 0, and keep Python from
    failing to flush standard output at exit."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
