"""NECNON's commands (:mod:`~solver.necnon.cli.commands`): its boards solved, queried, drawn, played and
surveyed."""

from solver.necnon.cli.commands import cli

__all__ = ["cli", "commands"]
