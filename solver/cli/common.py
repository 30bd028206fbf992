"""What the command groups of every game share: a group that turns every error a user can cause into one
line on standard error and a non-zero exit (2 for bad input: board, variant, position, move, usage, a
table file for another board or variant, closed standard input; 1 for a table or file that cannot be
used or written, standard output included; 130 when interrupted, 143 when terminated), and the helpers
commands use to read standard input and write files.

Standard output whose reader has gone (``| head``) ends every command quietly with exit 0.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, Protocol, TextIO, TypeVar, cast

import click

from solver.core import MAX_SEED, files, interrupts
from solver.core.answers.notation import quote
from solver.core.errors import ClusterError, InputError, MissingTableError, TableError, TableMismatchError
from solver.core.games import load
from solver.core.storage.remote import Location, location

Game = TypeVar("Game")
Table = TypeVar("Table")


class _Named(Protocol):
    """A game record of either game: its moves (turns) as written."""

    def names(self) -> list[str]: ...


Annotated = TypeVar("Annotated", bound=_Named)

Command = TypeVar("Command", bound=Callable[..., Any])


class Output(click.Path):
    """A file (or, with ``file_okay=False``, a directory) that a command writes, as a :class:`~pathlib.Path`:
    the directory it goes in must exist. A missing one is bad input (one line, exit 2), refused before
    any work, and never made. ``-`` (standard output) passes."""

    def __init__(self, file_okay: bool = True, dir_okay: bool = True) -> None:
        super().__init__(path_type=Path, file_okay=file_okay, dir_okay=dir_okay)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = cast(Path, super().convert(value, param, ctx))  # path_type=Path
        if path != STANDARD_OUTPUT and not path.parent.exists():
            self.fail(f"the directory {quote(str(path.parent))} does not exist", param, ctx)
        return path


#: The options of commands that read a table (a file or an address), and of those that write one.
table_option = click.option("--table", "table_file", type=location, default=None, metavar="FILE|URL",
                            help="Table file, or its http(s):// address, to read instead of the default one.")
out_option = click.option("--out", type=Output(), default=None,
                          help="Where to write the table (default: the tables directory).")
rebuild_option = click.option("--force", is_flag=True, help="Rebuild even if a valid table exists.")


def side_option(sides: Iterable[str]) -> Callable[[Command], Command]:
    """``play``'s ``--as``: the side a person plays, one of ``sides`` (parameter ``you``)."""
    return click.option("--as", "you", type=click.Choice(list(sides), case_sensitive=False), default="black",
                        show_default=True, help="The side you play; none lets the engine play itself.")


def play_record_options(unit: str, load_from: str = "") -> Callable[[Command], Command]:
    """``play``'s ``--load`` (a record continued, ``load_from`` saying from what more) and ``--record``
    (the record written after every ``unit``), parameters ``load_file`` and ``record_file``."""
    load = click.option("--load", "load_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
                        help=f"Continue the game of a record (as save and --record write it){load_from}.")
    record = click.option("--record", "record_file", type=Output(), default=None, metavar="FILE",
                          help=f"Write the game's record to FILE after every {unit}.")
    return lambda command: load(record(command))


def seed_option(help: str, default: int | None) -> Callable[[Command], Command]:
    """The ``--seed`` option of every command that has one: a whole number from 0 to
    :data:`solver.core.MAX_SEED` (anything else is a usage error; the help shows the range)."""
    return click.option("--seed", type=click.IntRange(0, MAX_SEED), default=default, show_default=default is not None,
                        metavar="SEED", help=help + ".")


def picture_options(drawing: str) -> Callable[[Command], Command]:
    """The options of a command that draws a picture to a file, ``--svg FILE`` and ``--png FILE``
    (parameters ``svg_file`` and ``png_file``), their help ``"<drawing> in an SVG file."`` and so on."""
    def decorate(command: Command) -> Command:
        for option, name in (("png", "a PNG"), ("svg", "an SVG")):  # the last applied is listed first
            command = click.option(f"--{option}", f"{option}_file", type=Output(), default=None,
                                   metavar="FILE", help=f"{drawing} in {name} file.")(command)
        return command

    return decorate

# click >= 8.2 raises this for a group called without a command; older versions exit with the help.
_NO_ARGS_IS_HELP: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())
#: How writing to standard output fails, apart from its reader going away: disk full, quota, file too
#: large, an I/O error.
_OUTPUT_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
#: click's messages about usage (which may quote a whole argument) are cut to this many characters.
_LONGEST_MESSAGE = 160


class CommandGroup(click.Group):
    """A click group that maps exceptions to one-line messages and exit codes (see the module
    docstring), each message starting with the program's name, and loads its commands lazily:
    ``lazy`` maps a command's name to the ``"module:attribute"`` of the command, imported when the
    command is invoked or its help shown (a command line imports only what the command it runs uses)."""

    def __init__(self, *args: Any, lazy: Mapping[str, str] | None = None, **options: Any) -> None:
        super().__init__(*args, **options)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.add_command(load(self.lazy[cmd_name]), cmd_name)
        return super().get_command(ctx, cmd_name)

    def loaded(self) -> CommandGroup:
        """This group, every command loaded: for readers of ``commands`` (the documentation's)."""
        for name in self.lazy:
            self.get_command(click.Context(self), name)
        return self

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        program = prog_name or self.name or "solver"
        if sys.stdout is None:
            fail("cannot write standard output: it is closed", 1, program)
        try:
            code = super().main(args, program, complete_var, False, **extra)
            sys.stdout.flush()  # a full disk shows here at the latest, not at the interpreter's exit
        except TableMismatchError as error:
            fail(error, 2, program)
        except (TableError, ClusterError) as error:
            fail(error, 1, program)
        except InputError as error:
            fail(error, 2, program)
        except _NO_ARGS_IS_HELP as error:  # the bare command: the help, as click shows it
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            message = error.format_message()
            if isinstance(error, click.UsageError) and len(message) > _LONGEST_MESSAGE:
                message = message[:_LONGEST_MESSAGE] + "..."
            fail(message, error.exit_code, program)
        except KeyboardInterrupt as error:
            fail(*interrupts.exit_status(error), program)
        except click.Abort as error:  # click's wrapping of a KeyboardInterrupt outside a command
            cause = error.__cause__
            fail(*interrupts.exit_status(cause if isinstance(cause, KeyboardInterrupt) else KeyboardInterrupt()),
                 program)
        except MemoryError:
            fail("out of memory", 1, program)
        except OSError as error:
            _output_failed(error, program)
        sys.exit(code if isinstance(code, int) else 0)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt as error:  # reported here: click would print a blank line, then Abort
            fail(*interrupts.exit_status(error), info_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            # The command has ended: a signal from now on is ignored (click, catching it, would print a
            # blank line before the message).
            interrupts.settle()
            return result
        except KeyboardInterrupt as error:
            # Reported here: click would print a blank line, then its own Abort.
            if sys.stderr is not None and sys.stderr.isatty():
                click.echo(err=True)  # end the terminal's "^C"
            fail(*interrupts.exit_status(error))
        except OSError as error:  # here, before click turns a reader gone into exit 1
            _output_failed(error)


def _output_failed(error: OSError, program: str | None = None) -> NoReturn:
    """End the command after ``error``: quietly if standard output's reader has gone (exit 0), with
    one line if standard output cannot be written (exit 1). Every file a command opens maps its own
    errors (:func:`writing`, :class:`TableError`), so what arrives here from a write without a file
    name is standard output's; anything else is raised again."""
    if isinstance(error, BrokenPipeError):
        reader_gone()
    if error.filename is None and error.errno in _OUTPUT_ERRNOS:
        _discard_output()
        fail(f"cannot write standard output: {error.strerror}", 1, program)
    raise error


def _discard_output() -> None:
    """Send what standard output still holds, and anything written later, to /dev/null, so that
    Python's flush at exit does not fail again."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return
    os.dup2(os.open(os.devnull, os.O_WRONLY), descriptor)


def fail(message: object, code: int, program: str | None = None) -> NoReturn:
    """Print ``<program>: error: <message>`` on standard error (on one line) and exit with ``code``; the
    program is the running command's unless given. Signals are settled first
    (:func:`~solver.core.interrupts.settle`): one arriving now would add a second line."""
    interrupts.settle()
    if program is None:
        context = click.get_current_context(silent=True)
        program = (context.find_root().info_name if context else None) or "solver"
    click.echo(f"{program}: error: {' '.join(str(message).splitlines())}", err=True)
    sys.exit(code)


def standard_input() -> TextIO:
    """Standard input; :class:`~solver.core.errors.InputError` if it is closed."""
    if sys.stdin is None:
        raise InputError("cannot read standard input: it is closed")
    return sys.stdin


_READ_BYTES = 1 << 16


def input_lines(stream: TextIO) -> Iterator[str]:
    """The lines of a text stream (without their line ends), read from its bytes as UTF-8 whatever the
    locale (undecodable bytes become U+FFFD), a byte order mark at the start dropped, a line longer than
    any a command reads cut (:class:`~solver.core.answers.console.LineCutter`); read as soon as each line
    arrives. Standard input at a terminal is read by :class:`~solver.core.answers.console.TerminalLines`
    instead: line editing and history, in the terminal's encoding."""
    from solver.core.answers.console import TerminalLines

    if stream is sys.stdin and stream.isatty():
        return TerminalLines()
    return _cut_lines(cast(io.BufferedIOBase, stream.buffer))  # a text stream's buffer: it has read1


def _cut_lines(binary: io.BufferedIOBase) -> Iterator[str]:
    from solver.core.answers.console import LineCutter

    cutter = LineCutter()

    def arrived() -> Iterator[bytes]:
        while data := binary.read1(_READ_BYTES):  # what has arrived, without waiting for more
            yield from cutter.feed(data)
        yield from cutter.end()

    for number, line in enumerate(arrived()):
        text = line.decode("utf-8", "replace")
        yield text.removeprefix("\ufeff") if number == 0 else text


def record_to_annotate(game: str, parse: Callable[[str], Annotated], step: str) -> Annotated:
    """The record ``parse`` reads from the file ``game``, or from standard input for ``-``; a
    :class:`~solver.core.answers.record.RecordError` names the file (or standard input) and the line,
    and an :class:`~solver.core.errors.InputError` says that a record without a ``step`` (``"move"``,
    ``"turn"``) has nothing to annotate."""
    from solver.core.answers.record import read_file, read_stream

    if game != "-":
        record = read_file(game, parse)
    else:
        record = read_stream(standard_input().buffer, "standard input", parse)
    if not record.names():
        raise InputError(f"{'standard input' if game == '-' else quote(game)} holds no {step} to annotate")
    return record


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
    _discard_output()
    sys.exit(0)


#: ``--svg -``: the SVG on standard output, whether or not it is a terminal.
STANDARD_OUTPUT = Path("-")

#: What a drawing command says on standard error when it prints text to a terminal instead of its SVG.
SVG_HINT = "(the diagram as SVG: --svg FILE, or --svg - for standard output)"


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (a function of its own, so that tests can pretend)."""
    return sys.stdout is not None and sys.stdout.isatty()


def echo_answer(svg_file: Path | None, text: Callable[[], str], svg: Callable[[], bytes],
                files_asked: bool | None = None) -> None:
    """Print a drawing command's answer (``line``, ``annotate``, ``show`` of every game) on standard
    output: ``text()``, whatever picture files are written besides it, or the SVG, ``svg()``, instead
    for ``--svg -``. ``show`` passes ``files_asked``: when it asks for no picture file, its SVG also
    goes to a standard output that is not a terminal (redirected or piped), and a terminal gets the
    text and :data:`SVG_HINT` (14 kB of SVG help no one there)."""
    to_svg = svg_file == STANDARD_OUTPUT or (files_asked is False and not stdout_is_terminal())
    if to_svg:
        click.echo(svg().decode(), nl=False)
        return
    click.echo(text())
    if files_asked is False:
        click.echo(SVG_HINT, err=True)


def pictures_asked(**paths: Path | None) -> list[tuple[Path, str]]:
    """The (file, format) pairs of the picture options given (``svg=path, png=None``; ``--svg -`` is
    standard output, see :func:`echo_answer`, not a file), each checked
    before any work: its suffix fits its format, a file can be written there, and a PNG can be drawn
    (matplotlib, the ``png`` extra, is installed: else one line naming the install command, exit 1)."""
    from solver.core.drawing import png
    from solver.core.drawing.pictures import check_format

    asked = [(path, kind) for kind, path in paths.items()
             if path is not None and not (kind == "svg" and path == STANDARD_OUTPUT)]
    for path, kind in asked:
        check_format(path, kind)
        if kind == "png":
            try:
                png.require()
            except png.PNGUnavailableError as error:
                raise click.ClickException(str(error)) from None
        with writing(path):
            files.check_writable(path)
    return asked


def make_directory(path: Path) -> None:
    """Make the directory ``path`` of an option such as ``--svg DIR`` (its parent exists: see
    :class:`Output`), unless it is there; one line and exit 1 if it cannot be made."""
    with writing(path):
        path.mkdir(exist_ok=True)


def write_pictures(asked: list[tuple[Path, str]], draw: Callable[[str], bytes]) -> None:
    """Write each asked picture, ``draw(format)``, atomically."""
    for path, kind in asked:
        with writing(path):
            files.write_atomically(path, draw(kind))


def open_or_build(game: Game, table_file: Location | None,
                  open_table: Callable[[Game, Location | None], Table], ensure_table: Callable[..., Table],
                  progress: object, label: str, cost: Callable[[], str] | None = None) -> Table:
    """The table of ``game``: ``open_table(game, table_file)``, the default one if no file is given.
    A missing default table is built by ``ensure_table(game, progress=..., on_build=...)``, which says
    so on standard error (``building the <label> table at <path> ...``, with ``(<cost()>)`` before the
    dots if ``cost`` is given and says something); it is called only then, so that a command reading a
    table that exists need not import the solver."""
    try:
        return open_table(game, table_file)
    except MissingTableError:
        if table_file is not None:
            raise

    def announce(path: Location) -> None:
        said = cost() if cost else ""
        click.echo(f"building the {label} table at {path}{f' ({said})' if said else ''} ...", err=True)

    return ensure_table(game, progress=progress, on_build=announce)
