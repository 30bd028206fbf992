"""The puzzles command: positions of real play with exactly one value-keeping move, graded."""

from __future__ import annotations

import json
from pathlib import Path

import click

from solver.cli.common import Output, make_directory, seed_option, table_option, write_pictures, writing
from solver.core import files
from solver.core.storage.remote import Location
from solver.neutreeko.cli.group import board_option, build_option, rule_option, tablebase_for
from solver.neutreeko.playing import KINDS, ORIGINS


@click.command(name="puzzles")
@board_option
@rule_option
@table_option
@build_option
@click.option("--count", type=click.IntRange(min=1), default=20, show_default=True, help="How many puzzles.")
@click.option("--kind", type=click.Choice(KINDS, case_sensitive=False), default="all", show_default=True,
              help="win: only one move keeps the win; save: only one move keeps the draw; all: both.")
@click.option("--min-plies", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Fewest plies (to the win; for a save, of the best losing alternative).")
@click.option("--max-plies", type=click.IntRange(min=1), default=None, metavar="N",
              help="Most plies, counted as for --min-plies (default: no limit).")
@seed_option("Seed of the sampled games: the same seed, the same puzzles", 0)
@click.option("--from", "origin", type=click.Choice(ORIGINS, case_sensitive=False), default="standard",
              show_default=True, help="Where the sampled games begin: the standard start, or the fair starts "
                                      "(neutreeko starts), a random one of the top list a game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (its schema is in the user guide).")
@click.option("--svg", "svg_dir", type=Output(file_okay=False), default=None, metavar="DIR",
              help="Also draw each puzzle's position as DIR/puzzle-001.svg, ...")
@click.option("--out", "out_file", type=Output(dir_okay=False), default=None, metavar="FILE",
              help="Write the text (or JSON) to FILE, atomically, instead of standard output.")
def puzzles_command(board: str, rule: str, table_file: Location | None, build: bool, count: int, kind: str,
                    min_plies: int, max_plies: int | None, seed: int, origin: str, as_json: bool, svg_dir: Path | None,
                    out_file: Path | None) -> None:
    """Puzzles from exact values: find the only move that keeps the win (or the draw).

    A win puzzle: the side to move wins and exactly one move keeps the win. A save puzzle: the position
    is drawn and exactly one move keeps the draw. The positions come from sampled games from the start (or
    the fair starts: --from fair), each side playing a random value-keeping move but one move in five a random move that does not
    lose at once, one puzzle per symmetry class; each is checked again against the table. A summary of
    the sampling (at which plies of their games the puzzles were reached) goes to standard error.

    \b
    Difficulty = plies + 3 x tempting + 6 if the best alternative is only
    one step worse (a win to a draw, a draw to a loss), where plies are
    the plies to the win (a save: of the best losing alternative) and
    tempting counts the wrong moves that look good: those that only draw
    (a win puzzle) or resist 8 plies or more. Easiest first.

    \b
    Example (five puzzles of 4 x 4, the same every time with seed 1):
      neutreeko puzzles --board 4x4 --count 5 --seed 1
    """
    from solver.neutreeko.drawing import pictures
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.playing.puzzles import find_puzzles, puzzles_object, puzzles_text, summary_line

    if max_plies is not None and min_plies > max_plies:
        raise click.BadParameter(f"--min-plies {min_plies} is more than --max-plies {max_plies}",
                                 param_hint="'--max-plies'")
    if out_file is not None:
        with writing(out_file):
            files.check_writable(out_file)
    if svg_dir is not None:
        make_directory(svg_dir)
    tablebase = tablebase_for(table_file, build)
    found = find_puzzles(tablebase, Game.of(board, rule), count, kind.lower(), min_plies, max_plies, seed,
                         origin.lower())
    if svg_dir is not None:
        for number, puzzle in enumerate(found.puzzles, 1):
            write_pictures([(svg_dir / f"puzzle-{number:03d}.svg", "svg")], lambda kind: pictures.position_picture(
                puzzle.position, puzzle.evaluation, [], None, kind))
    text = json.dumps(puzzles_object(found)) if as_json else puzzles_text(found)
    click.echo(summary_line(found), err=True)
    if out_file is None:
        click.echo(text)
    else:
        with writing(out_file):
            files.write_atomically(out_file, text + "\n")
