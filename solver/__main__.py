"""``python -m solver``: the same as the ``neutreeko`` command."""

from solver.cli import cli

if __name__ == "__main__":
    cli(prog_name="neutreeko")
