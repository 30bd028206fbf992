"""Commands on the table files of every game, added to every game's group: ``check-file`` digests whole
files, ``convert`` rewrites files of the first container format in today's without solving again.
A game's table module is imported only when a file of that game is converted, so that no command
line loads another game at start-up. Each group gets commands of its own, whose help shows
an example of its game (:func:`commands`)."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from solver import registry
from solver.core.games import load

_TABLES = click.argument("tables", nargs=-1, required=True, metavar="TABLE...", type=click.Path(path_type=Path))


def _check_file(program: str, tables: tuple[str, ...]) -> None:
    from solver.core.storage import container
    from solver.core.storage.remote import location

    for path in map(location, tables):
        container.check_present(path, f"no table at {path}")
        click.echo(f"{path}: intact ({container.check_file(path, convert=f'{program} convert'):,} bytes digested)")


def _convert(tables: tuple[Path, ...]) -> None:
    from solver.core.storage import container, legacy

    for path in tables:
        container.check_present(path, f"no table at {path}")
        attributes, data = legacy.read(path)
        tables_module = load(registry.of_table(attributes, path).tables)
        game = tables_module.convert_table(path, attributes, data)
        click.echo(f"converted {path} ({game}): {attributes['digest']}")


def commands(program: str, table: str, builds: str = "") -> tuple[click.Command, ...]:
    """``check-file`` and ``convert`` for the group ``program``, their examples on its table file named
    ``table`` (in ``tables/`` for check-file, once the command ``builds`` has built it if given; in
    ``old/``, in the first format, for convert)."""
    after = f" (once {builds} has built the table)" if builds else ""
    check_file = click.command(name="check-file", help=f"""Digest every byte of table files (of either game),
    or of tables at addresses, against their header: a probe checks only the header, the chunk map, the
    chunks it reads and, in a local file, the metadata; this checks the whole file. Exits 1 at the first
    file that is not intact, naming it.

    \b
    Example{after}:
      {program} check-file tables/{table}
    """)(click.argument("tables", nargs=-1, required=True, metavar="TABLE|URL...")(
        functools.partial(_check_file, program)))
    convert = click.command(name="convert", help=f"""Rewrite table files (of either game) written in the
    first container format in today's format, in place, from their verified data: nothing is solved
    again, the result bytes stay the same.

    \b
    Example (a table of the first format in old/):
      {program} convert old/{table}
    """)(_TABLES(_convert))
    return check_file, convert
