"""The command line: thin click layers over the library, one module per group of commands.

``neutreeko`` is :data:`cli`; importing the command modules registers their commands with it.
"""

from solver.cli import explorer, games, positions, puzzles, releases, tables, train  # noqa: F401  (registers the commands)
from solver.cli.containers import commands
from solver.cli.neutreeko import cli

for command in (*commands("neutreeko", "neutreeko-5x5.h5"), releases.publish_command("neutreeko")):
    cli.add_command(command)

__all__ = ["cli"]
