"""``python -m solver``: the same as the ``neutreeko`` command."""

from solver.cli import cli

cli(prog_name="neutreeko")
