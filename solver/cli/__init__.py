"""The ``neutreeko`` command: a thin click layer over the library, one module per group of commands.

Importing the command modules registers their commands with :data:`cli`.
"""

from solver.cli import games, positions, tables  # noqa: F401  (registers the commands)
from solver.cli.common import cli

__all__ = ["cli"]
