"""The ``necnon`` command: NECNON's boards solved, queried, drawn, played and surveyed.

A thin click layer over :mod:`solver.necnon`, with the conventions of ``neutreeko`` (one-line errors
and exit 2 for bad input, exit 1 for a table that cannot be used, 130 when interrupted; see
:mod:`solver.cli.common`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import click

from solver import __version__
from solver.cli import common, releases
from solver.cli.common import (
    CommandGroup,
    Output,
    echo_answer,
    input_lines,
    out_option,
    picture_options,
    pictures_asked,
    play_record_options,
    reader_gone,
    rebuild_option,
    record_to_annotate,
    seed_option,
    side_option,
    standard_input,
    table_option,
    write_pictures,
    writing,
)
from solver.core import files
from solver.core.answers.report import counted
from solver.core.drawing.pictures import encode
from solver.core.storage import container
from solver.core.storage.remote import Location
from solver.necnon.drawing import chart, diagram
from solver.necnon.model.position import Position, notation_grid
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.model.values import Evaluation, turns_text
from solver.necnon.playing.annotate import annotate, annotation_object, annotation_text
from solver.necnon.playing.play import ENGINES, SIDES, Match, table_exists
from solver.necnon.playing.record import GameRecord, parse_record, read_record
from solver.necnon.querying import report
from solver.necnon.querying.judge import EngineJudge, Judge, TableJudge
from solver.necnon.querying.probe import RankedTurn, Tablebase
from solver.necnon.solving.solve import Progress, SolveStep
from solver.necnon.studies.survey import SurveyRow, csv_path, run_survey, survey_games, write_report
from solver.necnon.tables.build import UNASKED_CELLS, build_table, check_build_asked, ensure_table
from solver.necnon.tables.table import GAME, Table, open_table, table_path

F = TypeVar("F", bound=Callable[..., object])

DEFAULT_BOARD = "4x4"


@click.group(cls=CommandGroup, name="necnon", context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="necnon", message="%(prog)s %(version)s")
def cli() -> None:
    """NECNON, solved: Black's points minus Green's under perfect play, for every position of the small
    boards, and a search engine for the others."""


board_option = click.option("--board", default=None, metavar="WxH|hexN",
                            help="Board: WIDTHxHEIGHT squares (each side 2 to 7) or hexN, a hexhex board of base "
                                 "N (2 to 6). Default: the position's board, or 4x4.")
protocol_option = click.option("--protocol", default="nec", show_default=True, metavar="|".join(SETTINGS),
                               help="Protocols: nec or non for both players, or Black's then Green's.")
build_option = click.option("--build", is_flag=True,
                            help=f"Build a missing table even for a board of more than {UNASKED_CELLS} cells (a long "
                                 f"solve in much memory); smaller ones are built unasked.")
position_argument = click.argument("position", nargs=-1)
moves_option = click.option("--moves", default="", metavar='"b2 a1,c3 pass"',
                            help="Turns to play from POSITION first, each checked.")


def position_options(command: F) -> F:
    """POSITION with --board, --protocol, --table, --build and --moves: what query, line and show read."""
    for option in reversed((position_argument, board_option, protocol_option, table_option, build_option,
                            moves_option)):
        command = option(command)
    return command


def game_of(board: str | None, protocol: str, words: tuple[str, ...] = ()) -> Game:
    """The game of --board (or else of the board POSITION is written on, or else 4x4) and --protocol."""
    if board is not None:
        return Game.of(board, protocol)
    return Game.of(notation_grid(" ".join(words)) or DEFAULT_BOARD, protocol)


def read_position(words: tuple[str, ...], game: Game, moves: str) -> Position:
    """POSITION (its words joined by a space; the empty board if none) after --moves."""
    text = " ".join(words).strip() or "empty"
    return Position.parse(text, game).play_line(moves)


def terminal_progress() -> Progress | None:
    """Progress of a solve (classes and positions solved, time so far) when standard error is a
    terminal, silence otherwise."""
    if not sys.stderr.isatty():
        return None

    def progress(state: SolveStep) -> None:
        click.echo(f"  {state.classes:>13,} classes  {state.positions:>15,} positions  {state.seconds:8.1f} s",
                   err=True)

    return progress


def open_or_build(game: Game, table_file: Location | None, build: bool) -> Table:
    """The table of ``game`` at ``table_file``, or the default one, built (with progress) if it is
    missing (a board of more than :data:`~solver.necnon.tables.build.UNASKED_CELLS` cells only if ``build``)."""
    return common.open_or_build(game, table_file, open_table, partial(ensure_table, build_large=build),
                                terminal_progress(), f"necnon {game}")


def tablebase_for(table_file: Location | None, build: bool) -> Tablebase:
    """A tablebase opening tables as :func:`open_or_build` does."""
    return Tablebase(opener=lambda game: open_or_build(game, table_file, build))


# -- whole tables -------------------------------------------------------------------------------------

@cli.command()
@board_option
@protocol_option
@out_option
@rebuild_option
def solve(board: str | None, protocol: str, out: Path | None, force: bool) -> None:
    """Solve a board from the empty board and write its HDF5 table.

    \b
    Example (3 x 3, both players under NON, in a moment):
      necnon solve --board 3x3 --protocol non
    """
    game = game_of(board, protocol)
    path, summary, seconds = build_table(game, out, force, terminal_progress())
    click.echo(f"solved necnon {game}: {summary.positions:,} positions ({summary.classes:,} classes), "
               f"empty board {summary.value:+d} in {turns_text(summary.turns)}, in {seconds:.2f} s -> {path}")


@cli.command()
@click.argument("board", metavar="BOARD")
@protocol_option
@releases.fetch_options
def fetch(board: str, protocol: str, mirror: str | None, force: bool, quiet: bool) -> None:
    """Download the table of BOARD (WxH or hexN) under --protocol from a release (see publish) into the tables
    directory, resuming a download that stopped; it is moved into place only once its size and
    SHA-256 match the mirror's manifest and every byte and its result digest are checked. A table
    already there is replaced only with --force. Refusals are one line and exit 1.

    \b
    Example:
      necnon fetch 4x4 --protocol nec --mirror https://example.org/neutreeko-tables/
    """
    game = Game.of(board, protocol)
    releases.fetch_table({"game": GAME, "board": str(game.grid), "protocol": game.setting},
                         container.local(table_path(game)), None,
                         partial(open_table, game), mirror, force, quiet)


@cli.command()
@board_option
@protocol_option
@table_option
@build_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def stats(board: str | None, protocol: str, table_file: Location | None, build: bool, as_json: bool) -> None:
    """The figures of a solved board: positions by value, the empty board's value and best first stones.

    \b
    Example (hex2; its table is built unasked, in a moment):
      necnon stats --board hex2
    """
    game = game_of(board, protocol)
    table = open_or_build(game, table_file, build)
    summary = table.summary
    if as_json:
        click.echo(json.dumps(report.stats_object(game, summary, table.attributes["solve_seconds"])))
        return
    click.echo(f"necnon {game} ({game.grid.describe()}, {game.grid.cells} cells; Black {game.black.value}, "
               f"Green {game.green.value})")
    click.echo(f"  {summary.positions:,} positions reachable from the empty board, in {summary.classes:,} "
               f"symmetry classes; {summary.finished:,} finished")
    click.echo(f"  empty board: {Evaluation(summary.value, summary.turns).terse()} "
               f"(Black's points minus Green's under perfect play: {summary.value:+d})")
    click.echo(f"  best first stones: {' '.join(summary.best_first)}")
    click.echo(f"  longest game under perfect play: {turns_text(summary.longest)}")
    click.echo("  value   positions")
    for margin, count in summary.margins.items():
        click.echo(f"  {margin:>+5d}  {count:>11,}  {100 * count / summary.positions:6.2f} %")


@cli.command(name="survey")
@click.option("--max-cells", type=click.IntRange(4, 30), default=16, show_default=True,
              help="Largest board solved: every square board (width >= height) and hexhex board with at "
                   "most this many cells.")
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Games sampled for each kind of play (random and perfect players).")
@seed_option("Seed of the sampled games", 1)
@click.option("--out", type=Output(), default=Path("docs/necnon-survey.md"), show_default=True,
              help="Markdown report; the CSV goes beside it, with the suffix .csv.")
@click.option("--force", is_flag=True, help="Overwrite an existing report.")
@build_option
def survey_command(max_cells: int, games: int, seed: int, out: Path, force: bool, build: bool) -> None:
    """Solve every board and protocol up to --max-cells (reusing built tables) and tabulate them;
    an existing report (or its CSV) is replaced only with --force.

    The committed report (docs/necnon-survey.md) names the command that made it, which needs every
    table up to 21 cells (hours, and gigabytes).

    \b
    Example (the 20 boards and protocols of up to 9 cells, in seconds):
      necnon survey --max-cells 9 --games 100 --out survey.md
    """
    surveyed = survey_games(max_cells)
    for path in (out, csv_path(out)):
        with writing(path):
            files.check_writable(path)
        if path.exists() and not force:
            raise click.ClickException(f"not overwriting {path} without --force")
    check_build_asked(surveyed, build)

    def announce(row: SurveyRow) -> None:
        click.echo(f"  {row}", err=True)

    rows = run_survey(surveyed, lambda game: open_or_build(game, None, build), games, seed, announce)
    command = " ".join([f"necnon survey --max-cells {max_cells} --games {games} --seed {seed}",
                        *(["--out", str(out)] if out != Path("docs/necnon-survey.md") else []),
                        *(["--build"] if build else []), *(["--force"] if force else [])])  # as run
    with writing(out):
        table = write_report(rows, out, command)
    click.echo(f"surveyed {counted(len(rows), 'board and protocol', 'boards and protocols')} -> {out}, {table}")


# -- one position ---------------------------------------------------------------------------------------

@cli.command()
@position_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def query(position: tuple[str, ...], board: str | None, protocol: str, table_file: Location | None, build: bool,
          moves: str, as_json: bool) -> None:
    """The value of POSITION (default: empty, the empty board) and of every turn, best first.

    POSITION is the notation (e.g. "2b1/g3/4/3g b": 4 x 4, Black on c4, Green on a3 and d1, Black to
    move) or empty. Values are Black's points minus Green's under perfect play, whoever is to move;
    turns are counted to the end of the game. Turns are ranked best first for the side to move; ties by
    their cells in board order.

    \b
    Example (the 4 x 4 table is built unasked, in a moment):
      necnon query 2b1/g3/4/3g b
    """
    game = game_of(board, protocol, position)
    tablebase = tablebase_for(table_file, build)
    queried = read_position(position, game, moves)
    evaluation, ranked = tablebase.probe(queried), tablebase.turns(queried)
    click.echo(json.dumps(report.query_object(queried, evaluation, ranked)) if as_json
               else report.query_text(queried, evaluation, ranked))


@cli.command()
@position_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@picture_options("Also draw the line as a sheet of small boards, one per turn,")
def line(position: tuple[str, ...], board: str | None, protocol: str, table_file: Location | None, build: bool,
         moves: str, as_json: bool, svg_file: Path | None, png_file: Path | None) -> None:
    """The line of perfect play from POSITION (default: the empty board) to the end, with the score.

    Each turn is the first of query's ranking: the winner hurries, the loser delays, a draw is reached
    the fastest way. A picture file asked for is written besides the text; with --svg - the SVG goes
    to standard output instead of it.

    \b
    Example (hex2 under NEC for Black and NON for Green, drawn as a sheet of boards):
      necnon line --board hex2 --protocol nec-non --svg line.svg
    """
    asked = pictures_asked(svg=svg_file, png=png_file)
    game = game_of(board, protocol, position)
    played = tablebase_for(table_file, build).line(read_position(position, game, moves))
    write_pictures(asked, lambda kind: encode(diagram.line_sheet(played), kind))
    echo_answer(svg_file, lambda: json.dumps(report.line_object(played)) if as_json else report.line_text(played),
                lambda: encode(diagram.line_sheet(played), "svg"))


@cli.command()
@position_options
@picture_options("Draw the diagram")
@click.option("--no-values", is_flag=True, help="Draw the position only, without reading a table.")
def show(position: tuple[str, ...], board: str | None, protocol: str, table_file: Location | None, build: bool,
         moves: str, svg_file: Path | None, png_file: Path | None, no_values: bool) -> None:
    """A diagram of POSITION (default: the empty board): stones, and on each cell the side to move may
    play the best value of a turn there.

    The last turn of --moves is ringed. Hexagonal boards are drawn with hexagonal cells. The board and
    its turns are printed as text (as query prints them), and a picture file asked for is written
    besides; with --svg - the SVG goes to standard output instead of the text, and so it does without
    --svg or --png when standard output is redirected. With --no-values no table is read (any board).

    \b
    Example (3 x 3 after two turns):
      necnon show --board 3x3 --moves "b2 a1,c3" --svg board.svg
    """
    asked = pictures_asked(svg=svg_file, png=png_file)
    game = game_of(board, protocol, position)
    turns = moves.split()
    shown = read_position(position, game, " ".join(turns[:-1]))
    last = shown.parse_turn(turns[-1]) if turns else None
    if last is not None:
        shown = shown.play(last)
    evaluation: Evaluation | None = None
    ranked: list[RankedTurn] = []
    if not no_values:
        tablebase = tablebase_for(table_file, build)
        evaluation, ranked = tablebase.probe(shown), tablebase.turns(shown)
    scene = diagram.board_diagram(shown, evaluation, ranked, last)
    write_pictures(asked, lambda kind: encode(scene, kind))
    try:
        echo_answer(svg_file, lambda: report.query_text(shown, evaluation, ranked) if evaluation is not None
                    else "\n".join([shown.diagram(last), shown.notation()]), lambda: encode(scene, "svg"), bool(asked))
    except BrokenPipeError:
        reader_gone()


# -- a game ---------------------------------------------------------------------------------------------

@cli.command()
@board_option
@protocol_option
@table_option
@build_option
@side_option(SIDES)
@click.option("--opponent", type=click.Choice(list(ENGINES), case_sensitive=False), default=None,
              help="perfect (the table; built if missing, with --build on a board of more than "
                   f"{UNASKED_CELLS} cells), mcts (the search engine), random. Default: "
                   "perfect if the board's table exists, else mcts. Hints come from the table if there is "
                   "one, else from the engine.")
@click.option("--from", "start", default="empty", show_default=True, metavar="POSITION",
              help="The position to start from, in notation.")
@seed_option("Seed of the engine's choices: the same seed, the same game (with --iterations for mcts)", None)
@click.option("--time", "seconds", type=click.FloatRange(min=0.01), default=2.0, show_default=True,
              help="Seconds the mcts engine thinks per turn.")
@click.option("--iterations", type=click.IntRange(min=1), default=None,
              help="Playouts of the mcts engine per turn instead of --time (reproducible with --seed).")
@play_record_options("turn", ", on its board and protocol")
def play(board: str | None, protocol: str, table_file: Location | None, build: bool, you: str, opponent: str | None,
         start: str, seed: int | None, seconds: float, iterations: int | None, load_file: Path | None,
         record_file: Path | None) -> None:
    """Play NECNON against the table or the search engine, with hints and take-backs.

    Type a turn as c3,d4 (two stones), c3 (one) or pass, or a command: hint, undo, line, board,
    save FILE, help, quit. Input may be piped. The end shows the score, with a table every turn that
    gave points away, and the game's record, which annotate reads and --load continues; Ctrl-C shows
    it too, then exits 130. On the board, the stones of the last turn are in upper case (B, G) and +
    marks the cells allowed to the side to move.

    \b
    Example (a first stone against the table on 3 x 3, a hint, the record kept in game.txt):
      printf 'b2\\nhint\\nquit\\n' | necnon play --board 3x3 --record game.txt
    """
    if load_file is not None and (board is not None or start != "empty" or protocol_given()):
        raise click.UsageError("--load continues a record on its own board and protocol, from its own start: "
                               "it cannot be used with --board, --protocol or --from")
    if record_file is not None:
        with writing(record_file):
            files.check_writable(record_file)
    if load_file is not None:
        game = read_record(load_file)
    else:
        game = GameRecord(Position.parse(start, game_of(board, protocol, (start,))))
    has_table = table_exists(game.start.game, table_file)
    chosen = (opponent or ("perfect" if has_table else "mcts")).lower()
    tablebase = tablebase_for(table_file, build) if has_table or chosen == "perfect" else None
    stdin = standard_input()
    match = Match.setup(game, you.lower(), chosen, tablebase, seed, seconds, iterations,
                        write=lambda text: click.echo(text, nl=False), echo_input=not stdin.isatty(),
                        record_path=record_file)
    try:
        match.run(input_lines(stdin))
    except BrokenPipeError:
        reader_gone()


def protocol_given() -> bool:
    """Was --protocol given on the command line (rather than left to its default)?"""
    source = click.get_current_context().get_parameter_source("protocol")
    return source is not None and source.name == "COMMANDLINE"


@cli.command(name="annotate")
@click.argument("game", metavar="GAME|-")
@table_option
@build_option
@click.option("--time", "seconds", type=click.FloatRange(min=0.01), default=1.0, show_default=True,
              help="Without a table: seconds the search engine thinks on each position of the game.")
@click.option("--iterations", type=click.IntRange(min=1), default=None,
              help="Without a table: playouts of the search engine on each position instead of --time "
                   "(reproducible with --seed).")
@seed_option("Without a table: seed of the search engine", 1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (its schema is in the user guide).")
@picture_options("Also draw the value-history chart")
def annotate_command(game: str, table_file: Location | None, build: bool, seconds: float, iterations: int | None,
                     seed: int, as_json: bool, svg_file: Path | None, png_file: Path | None) -> None:
    """Judge every turn of a game record against the table (or, on a board without one, by the
    search engine).

    GAME is a record file (as play saves it, or a plain list of turns from the empty 4 x 4 board), -
    for standard input. For every turn: the value before it and the turn's value (Black's points
    minus Green's), the points it gave away for its player and a mark by them (?! inaccuracy: none, by
    a slower way; ? mistake: one point; ?? blunder: two or more), the best turns and how many kept the
    margin; then a summary per side, the first point lost and the result. On a board without a table
    (one of more than 16 cells is built only with --build) the search engine judges, thinking --time
    on each position: its values are estimates, and the output says so. A chart file asked for is
    written besides the text; with --svg - the SVG goes to standard output instead of it.

    \b
    Example (Green's second turn gives two points away):
      printf '[Board "3x3"]\\n1. b2 2. a1,c3\\n' | necnon annotate -
    """
    asked = pictures_asked(svg=svg_file, png=png_file)
    record = record_to_annotate(game, parse_record, "turn")
    played = record.start.game
    judge: Judge
    if table_exists(played, table_file) or build or played.grid.cells <= UNASKED_CELLS:
        judge = TableJudge(tablebase_for(table_file, build))
    else:
        judge = EngineJudge(played, seed, seconds, iterations)
    judged = annotate(judge, record)
    write_pictures(asked, lambda kind: encode(chart.value_history(judged), kind))
    echo_answer(svg_file, lambda: json.dumps(annotation_object(judged)) if as_json else annotation_text(judged),
                lambda: encode(chart.value_history(judged), "svg"))
