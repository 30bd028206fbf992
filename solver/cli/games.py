"""The play command: a game against the tables in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.common import input_lines, standard_input
from solver.cli.neutreeko import (
    board_option,
    cli,
    read_position,
    rule_option,
    table_option,
    tablebase_for,
)
from solver.neutreeko.play import ENGINES, SIDES, Match


@cli.command()
@board_option
@rule_option
@table_option
@click.option("--as", "you", type=click.Choice(list(SIDES), case_sensitive=False), default="black",
              show_default=True, help="The side you play; none lets the engine play itself.")
@click.option("--opponent", type=click.Choice(list(ENGINES), case_sensitive=False), default="strong",
              show_default=True, help="The engine: perfect, strong (as good, varied), fair (slips now and "
                                      "then), random.")
@click.option("--from", "start", default="start", show_default=True, metavar="POSITION",
              help="The position to start from, in notation.")
@click.option("--seed", type=int, default=None, help="Seed of the engine's choices: the same seed, the same game.")
def play(board: str, rule: str, table_file: Path | None, you: str, opponent: str, start: str,
         seed: int | None) -> None:
    """Play against the tables, with hints and take-backs.

    Type a move as FROM-TO (e.g. C4-C3, any case) or a command: hint, undo, line, fen, help, quit.
    Three in a row wins; a position occurring for the third time is a draw. The end shows the moves
    and the first move, if any, that threw away a better result. Input may be piped.
    """
    stdin = standard_input()
    match = Match.setup(tablebase_for(table_file), read_position((start,), board, rule, ""), you.lower(),
                        opponent.lower(), seed, write=lambda text: click.echo(text, nl=False),
                        echo_input=not stdin.isatty())
    match.run(input_lines(stdin))
