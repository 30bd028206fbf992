"""Neutreeko's commands: the group (:mod:`~solver.neutreeko.cli.group`, with the options its commands
share and the module of each command, imported when the command is used) and one module per family of
commands.

* :mod:`~solver.neutreeko.cli.tables`: solve, fetch, check, verify, stats and survey;
* :mod:`~solver.neutreeko.cli.positions`: query (and query - for many), line and show;
* :mod:`~solver.neutreeko.cli.games`: play, annotate and starts;
* :mod:`~solver.neutreeko.cli.puzzles`: puzzles;
* :mod:`~solver.neutreeko.cli.train`: train.
"""

from solver.neutreeko.cli.group import cli

__all__ = ["cli", "group", "tables", "positions", "games", "puzzles", "train"]
