"""Commands about one position: query (and query - for many), line and show."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from solver.cli.common import (
    Output,
    echo_answer,
    fail,
    picture_options,
    pictures_asked,
    standard_input,
    write_pictures,
)
from solver.core.answers.report import counted
from solver.core.storage.remote import Location
from solver.neutreeko.cli.group import (
    position_options,
    read_position,
    tablebase_for,
)
from solver.neutreeko.querying import BATCH_LINES, LINES_PER_CHUNK

if TYPE_CHECKING:
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.querying.probe import Tablebase


@click.command()
@position_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--with-moves", is_flag=True, help="With -: rank every move of each position too.")
@click.option("--batch-lines", type=click.IntRange(min=1), metavar="N",
              help=f"With -: answer at most N lines waiting on standard input together (default {BATCH_LINES:,}, "
                   f"or {LINES_PER_CHUNK} a chunk of a table larger than the chunk cache). Such a table is read "
                   f"once a batch, so larger batches answer random positions faster, in more memory.")
def query(position: tuple[str, ...], board: str, rule: str, table_file: Location | None, build: bool, moves: str,
          as_json: bool, with_moves: bool, batch_lines: int | None) -> None:
    """The value of POSITION and of every legal move, best first.

    POSITION is the notation (e.g. "1w1w1/2b2/5/2w2/1b1b1 b") or start. Values are for the side to
    move; a move's value is for the player making it, its plies counted from POSITION. Moves are
    ordered: wins by fewest plies, draws, losses by most plies; ties alphabetically.

    \b
    With POSITION -, read positions from standard input, one a line, and
    write one JSON object a line: the --json object without "moves" (add
    --with-moves for them), or an error object for a bad line.

    \b
    Examples (the start after Black's C4-C3; two positions as JSON lines):
      neutreeko query start --moves C4-C3
      printf 'start\\nw4/5/1b3/2w2/bw1b1 b\\n' | neutreeko query -
    """
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.querying import report

    if position == ("-",):
        if moves:
            raise click.UsageError("--moves cannot be used when reading positions from standard input")
        _query_stdin(Game.of(board, rule), tablebase_for(table_file, build), with_moves, batch_lines)
        return
    for name, given in (("--with-moves", with_moves), ("--batch-lines", batch_lines is not None)):
        if given:
            raise click.UsageError(f"{name} is for reading positions from standard input (POSITION -)")
    tablebase = tablebase_for(table_file, build)
    queried = read_position(position, board, rule, moves)
    evaluation, ranked = tablebase.probe(queried), tablebase.moves(queried)
    if as_json:
        click.echo(json.dumps(report.query_object(queried, evaluation, ranked)))
    else:
        click.echo(report.query_text(queried, evaluation, ranked))


def _query_stdin(game: Game, tablebase: Tablebase, with_moves: bool, batch_lines: int | None) -> None:
    """Answer standard input line by line on standard output, up to ``batch_lines`` lines together (by
    default, as many as suit the table); exit 2 after it if a line was bad."""
    from solver.neutreeko.querying.bulk import default_batch_lines, query_stream, read_lines

    lines = errors = 0
    batch = batch_lines or default_batch_lines(tablebase.table(game))
    for answers in query_stream(read_lines(standard_input(), batch), tablebase, game, with_moves):
        sys.stdout.write("\n".join(answers.texts))
        sys.stdout.write("\n")
        sys.stdout.flush()
        lines, errors = lines + len(answers.texts), errors + answers.errors
    if errors:
        fail(f"{errors} of {counted(lines, 'line')} could not be answered (see their error objects)", 2)


@click.command()
@position_options
@click.option("--max-plies", type=click.IntRange(min=0), default=None,
              help="Stop after this many plies (default: at the win or the third repetition).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@picture_options("Also draw the line as a sheet of small boards, one per ply,")
@click.option("--html", "html_file", type=Output(), default=None, metavar="FILE",
              help="Also draw the line as an HTML page of small boards, one per ply.")
def line(position: tuple[str, ...], board: str, rule: str, table_file: Location | None, build: bool, moves: str,
         max_plies: int | None, as_json: bool, svg_file: Path | None, png_file: Path | None,
         html_file: Path | None) -> None:
    """The line of perfect play from POSITION.

    The winner takes a fastest win, the loser a longest resistance, a drawn side a move that keeps the
    draw, ties as in query. The line ends at the win, at a position's third occurrence (draw by
    repetition) or after --max-plies plies. Each ply is numbered as in play (1. for Black, 1... for
    White) and shown with the value of the position after it; ! marks a forced move, the only one
    that keeps the value. A picture file asked for is written besides the text; with --svg - the SVG
    goes to standard output instead of it.

    \b
    Example (the 51-ply win, as text and as a page of boards):
      neutreeko line "w4/5/1b3/2w2/bw1b1 b" --html longest.html
    """
    from solver.neutreeko.drawing import pictures
    from solver.neutreeko.querying import report

    asked = pictures_asked(svg=svg_file, png=png_file, html=html_file)
    played = tablebase_for(table_file, build).line(read_position(position, board, rule, moves), max_plies)
    write_pictures(asked, lambda kind: pictures.line_picture(played, kind))
    echo_answer(svg_file, lambda: json.dumps(report.line_object(played)) if as_json else report.line_text(played),
                lambda: pictures.line_picture(played, "svg"))


@click.command()
@position_options
@click.option("--best", type=click.IntRange(min=1), default=None, metavar="N",
              help="Draw only the N best moves (ties cut in the order of query).")
@click.option("--keeping", is_flag=True,
              help="Draw only the moves that keep the value: the winning moves of a won position, the "
                   "drawing moves of a drawn one (every move of a lost one).")
@picture_options("Draw the diagram")
@click.option("--html", "html_file", type=Output(), default=None, metavar="FILE",
              help="Write the diagram and the table of its moves to an HTML page.")
def show(position: tuple[str, ...], board: str, rule: str, table_file: Location | None, build: bool, moves: str,
         best: int | None, keeping: bool, svg_file: Path | None, png_file: Path | None,
         html_file: Path | None) -> None:
    """A diagram of POSITION, with every legal move as an arrow.

    Each arrow goes from a piece to the square it stops on, coloured by the move's value for the side to
    move (win, draw, loss) and labelled at its head with it (W3: wins in 3 plies, D: draw, L22: loses
    in 22); the best moves are bold. The last move of --moves is highlighted. The board and its moves
    are printed as text (as query prints them), and a picture file asked for is written besides; with
    --svg - the SVG goes to standard output instead of the text, and so it does without --svg, --png or
    --html when standard output is redirected.

    \b
    Example (White's two winning replies to C4-C3):
      neutreeko show start --moves C4-C3 --keeping --png reply.png
    """
    from solver.neutreeko.drawing import pictures
    from solver.neutreeko.playing.record import play_moves, read_moves
    from solver.neutreeko.querying import report
    from solver.neutreeko.querying.probe import keeping_moves

    asked = pictures_asked(svg=svg_file, png=png_file, html=html_file)
    start = read_position(position, board, rule, "")
    played = read_moves(start, moves)
    shown = play_moves(start, played)
    last_move = played[-1] if played else None
    tablebase = tablebase_for(table_file, build)
    evaluation, ranked = tablebase.probe(shown), tablebase.moves(shown)
    kept = keeping_moves(evaluation, ranked) if keeping else ranked
    drawn = kept[:best] if best else kept
    write_pictures(asked, lambda kind: pictures.position_picture(shown, evaluation, drawn, last_move, kind))
    echo_answer(svg_file, lambda: report.query_text(shown, evaluation, drawn),
                lambda: pictures.position_picture(shown, evaluation, drawn, last_move, "svg"), bool(asked))
