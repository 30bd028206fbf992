"""The command line: thin click layers over the library, one module per group of commands.

``neutreeko`` is :data:`cli`; importing the command modules registers their commands with it.
"""

from solver.cli import containers, explorer, games, positions, puzzles, releases, tables, train  # noqa: F401  (registers the commands)
from solver.cli.neutreeko import cli

for command in (*containers.COMMANDS, *releases.COMMANDS):
    cli.add_command(command)

__all__ = ["cli"]
