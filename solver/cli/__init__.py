"""The command line: each game's command group (its own commands, from the registry) with the commands
every game shares: ``check-file`` and ``convert`` (:mod:`~solver.cli.containers`), ``publish``
(:mod:`~solver.cli.releases`) and, in the default game's group, ``serve`` and ``site``
(:mod:`~solver.cli.explorer`).

:func:`group` gives a game's group; ``cli`` is the default game's, ``<program>_cli`` any game's.
Importing this module sets ``OPENBLAS_NUM_THREADS`` to 1 unless the environment sets it, before any
command imports numpy.
"""

from __future__ import annotations

import os
from functools import cache

import click

from solver import registry
from solver.cli import containers, releases
from solver.cli.common import CommandGroup
from solver.core.games import load

__all__ = ["cli", "group"]

# The package calls no BLAS routine, and the OpenBLAS numpy loads starts a thread per core at once, a
# large part of a short command's time: one is enough.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


@cache
def group(program: str) -> CommandGroup:
    """The command group of the game whose command is ``program``, with the shared commands added;
    :class:`KeyError` if no game has that command."""
    entry = registry.program(program)
    if entry is None:
        raise KeyError(program)
    commands: CommandGroup = load(entry.commands)
    for command in (*containers.commands(entry.program, entry.example_table, entry.example_build),
                    releases.publish_command(entry.program)):
        commands.add_command(command)
    if entry is registry.default():  # loaded when used, as the game's own commands are
        commands.lazy.update(serve="solver.cli.explorer:serve", site="solver.cli.explorer:site")
    return commands


def __getattr__(name: str) -> click.Group:
    """``cli``, the default game's group, and ``<program>_cli``, each game's (for the documentation),
    made on first use so that one game's command line does not load another's commands, with every
    command loaded."""
    program = registry.default().program if name == "cli" else name.removesuffix("_cli")
    if (name == "cli" or name.endswith("_cli")) and registry.program(program) is not None:
        return group(program).loaded()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
