"""The train command: puzzles one after another in the terminal, each answer judged against the table."""

from __future__ import annotations

from pathlib import Path

import click

from solver.cli.common import input_lines, seed_option, standard_input, table_option
from solver.core.answers.report import counted
from solver.core.storage.remote import Location
from solver.neutreeko.cli.group import board_option, build_option, rule_option, tablebase_for
from solver.neutreeko.playing import KINDS

#: Puzzles of a drill without --from-game and without --count.
COUNT = 10


@click.command(name="train")
@board_option
@rule_option
@table_option
@build_option
@click.option("--count", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"How many puzzles (default: {COUNT}; with --from-game, every mistake).")
@click.option("--kind", type=click.Choice(KINDS, case_sensitive=False), default="all", show_default=True,
              help="win: find the move that keeps the win; save: the one that holds the draw; all: both.")
@seed_option("Seed of the puzzles: the same seed, the same puzzles (default: a new one, shown)", None)
@click.option("--from-game", "record_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="RECORD", help="Replay your mistakes: a puzzle from the position before every mistake "
                                     "and blunder of this game record (its own board and rule).")
def train(board: str, rule: str, table_file: Location | None, build: bool, count: int | None, kind: str,
          seed: int | None, record_file: Path | None) -> None:
    """Solve puzzles one after another, each answer judged against the table.

    Each puzzle shows the board and the task (White to move and win, Black to move and hold the draw),
    values hidden. Type a move as FROM-TO (e.g. C4-C3, any case), or quit; an illegal move is refused
    and asked again. The answer is judged (the only winning move, or what it does instead), then the
    solution line follows; the last line is the score. Input may be piped.

    The puzzles are those of neutreeko puzzles (exactly one right move), drawn with --seed; with
    --from-game, the positions before the mistakes and blunders of the game, where every move that
    keeps the value is right.

    \b
    Example (three puzzles: the first solved, the second missed, then quit):
      printf 'A5-B5\\nD3-D4\\nquit\\n' | neutreeko train --count 3 --seed 1
    """
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.playing.play import new_seed
    from solver.neutreeko.playing.puzzles import find_puzzles
    from solver.neutreeko.playing.record import read_record
    from solver.neutreeko.playing.train import Drill, from_game, from_puzzles

    tablebase = tablebase_for(table_file, build)
    if record_file is not None:
        exercises = from_game(tablebase, read_record(record_file), kind.lower())[:count]
        if not exercises:
            click.echo(f"{record_file}: no {'' if kind == 'all' else kind + ' '}mistakes or blunders to replay")
            return
        errors = "1 mistake or blunder" if len(exercises) == 1 else f"{len(exercises)} mistakes and blunders"
        click.echo(f"Replaying {errors} of {record_file}: find a move that keeps the value. Type a move such "
                   "as C4-C3, or quit.")
    else:
        seed = new_seed() if seed is None else seed
        found = find_puzzles(tablebase, Game.of(board, rule), count or COUNT, kind.lower(), seed=seed)
        exercises = from_puzzles(tablebase, found)
        click.echo(f"{counted(len(exercises), 'puzzle')} on {found.game} (seed {seed}): find the only move that keeps the "
                   "value. Type a move such as C4-C3, or quit.")
    stdin = standard_input()
    drill = Drill(tablebase, exercises, write=lambda text: click.echo(text, nl=False), echo_input=not stdin.isatty())
    drill.run(input_lines(stdin))
