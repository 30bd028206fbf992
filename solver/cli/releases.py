"""Releases of tables on the command line (:mod:`solver.core.storage.release`): ``publish``, added to every
game's group (it takes tables of every game), and what each game's ``fetch`` shares: its mirror, force and
quiet options, and the run of a fetch with its progress on standard error (:func:`~solver.cli.releases.fetch_table`). Each
game's ``fetch`` is a command of its own group, whose board and variant options it takes. As in
:mod:`solver.cli.containers`, a game's table module is imported only when a file of that game is
published (its ``release_entry``, see :class:`~solver.core.games.GameEntry`)."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import click

from solver import registry
from solver.cli.common import Output
from solver.core.answers.report import counted
from solver.core.errors import ReleaseError
from solver.core.files import size_text
from solver.core.games import load

if TYPE_CHECKING:
    from solver.core.storage.container import Attributes

#: The environment variable that names the mirror when --mirror is not given.
MIRROR_VARIABLE = "NEUTREEKO_MIRROR"

F = TypeVar("F", bound=Callable[..., object])


class Describable(Protocol):
    """An opened table of either game, as a release describes it."""

    def describe(self) -> Attributes: ...

    def close(self) -> None: ...


def _with_publish_options(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` with publish's arguments and options (attached anew for each group's command)."""
    options = (click.argument("directory", type=Output(file_okay=False)),
               click.argument("tables", nargs=-1, metavar="[TABLE...]", type=click.Path(path_type=Path)),
               click.option("--force", is_flag=True, help="Replace the release already in DIRECTORY."))
    for option in reversed(options):
        command = option(command)
    return command


def publish_command(program: str) -> click.Command:
    """``publish`` for the group ``program`` (the same command in both; its example names the group)."""
    return click.command(name="publish", help=f"""Write a release of tables into DIRECTORY, for a web
    server to serve as a mirror of fetch: the table files (default: every table of the tables
    directory, of either game), hard-linked or copied, manifest.json (each table's game, board, rule or
    protocol, size, SHA-256, the digest of its result bytes and its counts) and SHA256SUMS (for
    sha256sum -c). Every byte of every table is checked first, and a Neutreeko table against its
    committed digest; an existing release is replaced only with --force.

    \b
    Example (sha256sum -c SHA256SUMS in release/ then checks it; served, it is a mirror):
      {program} publish release/
    """)(_with_publish_options(functools.partial(_publish, program)))


def _publish(program: str, directory: Path, tables: tuple[Path, ...], force: bool) -> None:
    from solver.core.storage import container

    source = container.local(container.tables_dir())
    publish_into(program, directory, list(tables) or sorted(source.glob("*.h5")), source, force)


def publish_into(program: str, directory: Path, paths: list[Path], source: Path, force: bool = True) -> None:
    """Publish the tables ``paths`` (found in ``source``) into ``directory``, each said on a line, as
    ``program publish`` does; a :class:`click.ClickException` if there are none."""
    from solver.core.storage import release

    if not paths:
        raise click.ClickException(f"no tables to publish in {source}")
    for entry in release.publish(directory, paths, functools.partial(_described, f"{program} convert"), force):
        click.echo(f"{entry.file}: {_label(entry.table)}, {size_text(entry.size)}, sha256 {entry.sha256}")
    click.echo(f"published {counted(len(paths), 'table')} -> {directory} "
               f"({release.MANIFEST}, {release.SUMS})")


def _described(convert: str, path: Path) -> tuple[str, Attributes]:
    """The name in a release and the description of the table at ``path``, of whichever game it is,
    once every byte of the file is checked, its data read and, for a Neutreeko table with a committed
    digest, its result digest found to be that one; a table of the first container format is refused
    naming ``convert``, the command that rewrites it."""
    from solver.core.storage import container

    container.check_present(path, f"no table at {path}")
    container.check_file(path, convert=convert)
    contents = container.open_contents(path)
    attributes = dict(contents.attributes)
    contents.close()
    name, table, committed = load(registry.of_table(attributes, path).tables).release_entry(path, attributes)
    description = describing(table)
    if committed is not None and description["result_digest"] != committed:
        raise ReleaseError(f"{path} does not match the committed digest: its result digest is "
                           f"{description['result_digest']}, the committed one {committed}")
    return name, description


def describing(table: Describable) -> Attributes:
    """``table.describe()``, the table closed after."""
    try:
        return table.describe()
    finally:
        table.close()


def _label(description: Attributes) -> str:
    """``"neutreeko 4x4 connected"``, ``"necnon 3x3 nec"``."""
    variant = description.get("rule", description.get("protocol"))
    return f"{description.get('game')} {description.get('board')} {variant}"


def fetch_options(command: F) -> F:
    """--mirror, --force and --quiet, the options of each game's fetch (parameters ``mirror``, ``force``,
    ``quiet``)."""
    for option in reversed((
            click.option("--mirror", envvar=MIRROR_VARIABLE, metavar="URL", default=None,
                         help=f"Address (http:// or https://) of a release directory (see publish); default: "
                              f"${MIRROR_VARIABLE}."),
            click.option("--force", is_flag=True, help="Replace a table already in the tables directory."),
            click.option("--quiet", "-q", is_flag=True,
                         help="No progress line (it is shown only when standard error is a terminal)."))):
        command = option(command)
    return command


def fetch_table(identity: Attributes, destination: Path, committed: str | None,
                open_at: Callable[[Path], Describable], mirror: str | None, force: bool, quiet: bool) -> None:
    """Fetch the table ``identity`` describes (game, board, rule or protocol) from ``mirror`` to
    ``destination`` (see :func:`solver.core.storage.release.fetch`; ``open_at(path)`` opens a file as that
    table), with a progress line on standard error if it is a terminal and not ``quiet``, and one line
    saying what was checked."""
    from solver.core.storage import release

    if not mirror:
        raise click.ClickException(f"no mirror to fetch from: give --mirror URL or set ${MIRROR_VARIABLE}")
    shown = None if quiet or not stderr_is_terminal() else ProgressLine(destination.name)
    try:
        entry = release.fetch(mirror, destination, identity, committed, lambda path: describing(open_at(path)),
                              force, shown)
    finally:
        if shown:
            shown.end()
    which = "the committed one" if committed else "the manifest's (none is committed for this table)"
    click.echo(f"fetched {_label(identity)} from {mirror} -> {destination} ({size_text(entry.size)}; size, "
               f"SHA-256 and every byte checked; result digest {entry.table['result_digest']}, {which})")


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (a function of its own, so that tests can pretend)."""
    return sys.stderr is not None and sys.stderr.isatty()


class ProgressLine:
    """A download's progress on one line of standard error that updates itself
    (``neutreeko-8x8.h5: 12.5 MB of 629.4 MB (1 %)``), at most ten times a second and at the end."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._shown = 0.0
        self._width = 0

    def __call__(self, held: int, total: int) -> None:
        now = time.monotonic()
        if held < total and now - self._shown < 0.1:
            return
        self._shown = now
        text = f"{self.name}: {size_text(held)} of {size_text(total)} ({100 * held // max(total, 1)} %)"
        click.echo(f"\r{text.ljust(self._width)}", err=True, nl=False)
        self._width = len(text)

    def end(self) -> None:
        """End the line, if one was shown."""
        if self._width:
            click.echo(err=True)
            self._width = 0
