"""Neutreeko's commands: the group (:mod:`~solver.neutreeko.cli.group`, with the options its commands
share) and one module per family of commands, each adding its commands to the group on import.

* :mod:`~solver.neutreeko.cli.tables`: solve, fetch, check, verify, stats and survey;
* :mod:`~solver.neutreeko.cli.positions`: query (and query - for many), line and show;
* :mod:`~solver.neutreeko.cli.games`: play, annotate and starts;
* :mod:`~solver.neutreeko.cli.puzzles`: puzzles;
* :mod:`~solver.neutreeko.cli.train`: train.
"""

from solver.neutreeko.cli import games, positions, puzzles, tables, train  # noqa: F401  (registers the commands)
from solver.neutreeko.cli.group import cli

__all__ = ["cli", "group", "tables", "positions", "games", "puzzles", "train"]
