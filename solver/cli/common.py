"""What the command groups of every game share: a group that turns every error a user can cause into one
line on standard error and a non-zero exit (2 for bad input: board, variant, position, move, usage, a
table file for another board or variant; 1 for a table or file that cannot be used or written; 130
when interrupted), and the helpers commands use to write files and to stop when their reader goes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from solver.core import files
from solver.core.errors import InputError, TableError, TableMismatchError
from solver.core.pictures import check_format

Game = TypeVar("Game")
Table = TypeVar("Table")

#: The options of commands that draw a picture to a file.
svg_option = click.option("--svg", "svg_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
                          help="Write the diagram to an SVG file.")
png_option = click.option("--png", "png_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
                          help="Write the diagram to a PNG file.")

# click >= 8.2 raises this for a group called without a command; older versions exit with the help.
_NO_ARGS_IS_HELP: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())


class CommandGroup(click.Group):
    """A click group that maps exceptions to one-line messages and exit codes (see the module
    docstring), each message starting with the program's name."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        program = prog_name or self.name or "solver"
        try:
            code = super().main(args, program, complete_var, False, **extra)
        except TableMismatchError as error:
            fail(error, 2, program)
        except TableError as error:
            fail(error, 1, program)
        except InputError as error:
            fail(error, 2, program)
        except _NO_ARGS_IS_HELP as error:  # the bare command: the help, as click shows it
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            fail(error.format_message(), error.exit_code, program)
        except (click.Abort, KeyboardInterrupt):
            fail("interrupted", 130, program)
        except MemoryError:
            fail("out of memory", 1, program)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Reported here: click would print a blank line, then its own Abort.
            if sys.stderr.isatty():
                click.echo(err=True)  # end the terminal's "^C"
            fail("interrupted", 130)


def fail(message: object, code: int, program: str | None = None) -> NoReturn:
    """Print ``<program>: error: <message>`` on standard error and exit with ``code``; the program is
    the running command's unless given."""
    if program is None:
        context = click.get_current_context(silent=True)
        program = (context.find_root().info_name if context else None) or "solver"
    click.echo(f"{program}: error: {message}", err=True)
    sys.exit(code)


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn a failure to write ``path`` into one line and exit 1."""
    try:
        yield
    except OSError as error:
        raise click.ClickException(f"cannot write {path}: {error.strerror or error}") from None


def reader_gone() -> NoReturn:
    """Standard output's reader has gone (``| head``): stop quietly, with exit 0, and keep Python from
    failing to flush standard output at exit."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)


def pictures_asked(**paths: Path | None) -> list[tuple[Path, str]]:
    """The (file, format) pairs of the picture options given (``svg=path, png=None``), each checked
    before any work: its suffix fits its format and a file can be written there."""
    asked = [(path, kind) for kind, path in paths.items() if path is not None]
    for path, kind in asked:
        check_format(path, kind)
        with writing(path):
            files.check_writable(path)
    return asked


def write_pictures(asked: list[tuple[Path, str]], draw: Callable[[str], bytes]) -> None:
    """Write each asked picture, ``draw(format)``, atomically."""
    for path, kind in asked:
        with writing(path):
            files.write_atomically(path, draw(kind))


def open_or_build(game: Game, table_file: Path | None, open_table: Callable[[Game, Path], Table],
                  ensure_table: Callable[..., Table], progress: object, label: str) -> Table:
    """The table of ``game``: ``open_table(game, table_file)`` if a file is given, else the default
    one, which ``ensure_table(game, progress=..., on_build=...)`` builds if it is missing, saying so
    on standard error (``building the <label> table at <path> ...``)."""
    if table_file is not None:
        return open_table(game, table_file)

    def announce(path: Path) -> None:
        click.echo(f"building the {label} table at {path} ...", err=True)

    return ensure_table(game, progress=progress, on_build=announce)
