"""Commands about one position: query (and query - for many), line and show."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from solver.cli.common import fail, pictures_asked, standard_input, write_pictures
from solver.cli.neutreeko import (
    cli,
    position_options,
    read_position,
    tablebase_for,
)
from solver.neutreeko import pictures, report
from solver.neutreeko.bulk import query_stream, read_lines
from solver.neutreeko.game import Game
from solver.neutreeko.probe import Tablebase


@cli.command()
@position_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--with-moves", is_flag=True, help="With -: rank every move of each position too (slower).")
def query(position: tuple[str, ...], board: str, rule: str, table_file: Path | None, moves: str,
          as_json: bool, with_moves: bool) -> None:
    """The value of POSITION and of every legal move, best first.

    POSITION is the notation (e.g. "1w1w1/2b2/5/2w2/1b1b1 b") or start. Values are for the side to
    move; a move's value is for the player making it, its plies counted from POSITION. Moves are
    ordered: wins by fewest plies, draws, losses by most plies; ties alphabetically.

    \b
    With POSITION -, read positions from standard input, one a line, and
    write one JSON object a line: the --json object without "moves" (add
    --with-moves for them), or an error object for a bad line.
    """
    if position == ("-",):
        if moves:
            raise click.UsageError("--moves cannot be used when reading positions from standard input")
        _query_stdin(Game.of(board, rule), tablebase_for(table_file), with_moves)
        return
    if with_moves:
        raise click.UsageError("--with-moves is for reading positions from standard input (POSITION -)")
    tablebase = tablebase_for(table_file)
    queried = read_position(position, board, rule, moves)
    evaluation, ranked = tablebase.probe(queried), tablebase.moves(queried)
    if as_json:
        click.echo(json.dumps(report.query_object(queried, evaluation, ranked)))
    else:
        click.echo(report.query_text(queried, evaluation, ranked))


def _query_stdin(game: Game, tablebase: Tablebase, with_moves: bool) -> None:
    """Answer standard input line by line on standard output; exit 2 after it if a line was bad."""
    lines = errors = 0
    for answers in query_stream(read_lines(standard_input()), tablebase, game, with_moves):
        sys.stdout.write("\n".join(answers.texts) + "\n")
        sys.stdout.flush()
        lines, errors = lines + len(answers.texts), errors + answers.errors
    if errors:
        fail(f"{errors} of {lines} lines could not be answered (see their error objects)", 2)


@cli.command()
@position_options
@click.option("--max-plies", type=click.IntRange(min=0), default=None,
              help="Stop after this many plies (default: at the win or the third repetition).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--svg", "svg_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Also draw the line as a sheet of small boards, one per ply, in an SVG file.")
@click.option("--html", "html_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Also draw the line as an HTML page of small boards, one per ply.")
def line(position: tuple[str, ...], board: str, rule: str, table_file: Path | None, moves: str,
         max_plies: int | None, as_json: bool, svg_file: Path | None, html_file: Path | None) -> None:
    """The line of perfect play from POSITION.

    The winner takes a fastest win, the loser a longest resistance, a drawn side a move that keeps the
    draw, ties as in query. The line ends at the win, at a position's third occurrence (draw by
    repetition) or after --max-plies plies. Each move is shown with the value of the position after it.
    """
    asked = pictures_asked(svg=svg_file, html=html_file)
    played = tablebase_for(table_file).line(read_position(position, board, rule, moves), max_plies)
    write_pictures(asked, lambda kind: pictures.line_picture(played, kind))
    click.echo(json.dumps(report.line_object(played)) if as_json else report.line_text(played))


@cli.command()
@position_options
@click.option("--svg", "svg_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Write the diagram to an SVG file.")
@click.option("--png", "png_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Write the diagram to a PNG file.")
def show(position: tuple[str, ...], board: str, rule: str, table_file: Path | None, moves: str,
         svg_file: Path | None, png_file: Path | None) -> None:
    """A diagram of POSITION, with every legal move as an arrow.

    Each arrow goes from a piece to the square it stops on, coloured by the move's value for the side to
    move (win, draw, loss) and labelled with it (W3: wins in 3 plies, D: draw, L22: loses in 22). The
    last move of --moves is highlighted. Without --svg or --png, the SVG goes to standard output.
    """
    asked = pictures_asked(svg=svg_file, png=png_file)
    played = moves.split()
    shown = read_position(position, board, rule, " ".join(played[:-1]))
    last_move = shown.parse_move(played[-1]) if played else None
    if last_move:
        shown = shown.play(last_move)
    tablebase = tablebase_for(table_file)
    evaluation, ranked = tablebase.probe(shown), tablebase.moves(shown)
    if not asked:
        click.echo(pictures.position_picture(shown, evaluation, ranked, last_move, "svg").decode(), nl=False)
    write_pictures(asked, lambda kind: pictures.position_picture(shown, evaluation, ranked, last_move, kind))
