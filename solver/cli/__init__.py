"""The command line: thin click layers over the library, one module per group of commands.

``neutreeko`` is :data:`cli`; importing the command modules registers their commands with it.
"""

from solver.cli import explorer, games, positions, tables  # noqa: F401  (registers the commands)
from solver.cli.neutreeko import cli

__all__ = ["cli"]
