"""The ``neutreeko`` command: a thin click layer over the library.

Every error a user can cause ends in one line on standard error and a non-zero exit: 2 for bad input
(board, rule, position, move, usage, a table file for another board or rule), 1 for a table that cannot
be used or written, 130 when interrupted.
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from solver import files, pictures, report
from solver.board import Board
from solver.build import build_table, ensure_table
from solver.bulk import query_stream, read_lines
from solver.errors import NeutreekoError, TableError, TableMismatchError
from solver.game import Game
from solver.play import ENGINES, SIDES, Match
from solver.position import Position
from solver.probe import Tablebase
from solver.rules import DEFAULT_RULE, RULES
from solver.stats import summarize
from solver.survey import SurveyRow, csv_path, run_survey, select_rules, survey_games, write_report
from solver.table import Table, open_table
from solver.verify import verify


class _Neutreeko(click.Group):
    """Maps exceptions to one-line messages and exit codes (see the module docstring)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name or "neutreeko", complete_var, False, **extra)
        except TableMismatchError as error:
            _fail(error, 2)
        except TableError as error:
            _fail(error, 1)
        except NeutreekoError as error:
            _fail(error, 2)
        except _NO_ARGS_IS_HELP as error:  # bare ``neutreeko``: the help, as click shows it
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            _fail("interrupted", 130)
        except MemoryError:
            _fail("out of memory", 1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Reported here: click would print a blank line, then its own Abort.
            if sys.stderr.isatty():
                click.echo(err=True)  # end the terminal's "^C"
            _fail("interrupted", 130)


# click >= 8.2 raises this for a group called without a command; older versions exit with the help.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


@contextmanager
def _writing(path: Path):
    """Turn a failure to write ``path`` into one line and exit 1."""
    try:
        yield
    except OSError as error:
        raise click.ClickException(f"cannot write {path}: {error.strerror or error}") from None


def _fail(message, code: int):
    click.echo(f"neutreeko: error: {message}", err=True)
    sys.exit(code)


board_option = click.option("--board", default="5x5", show_default=True, metavar="WIDTHxHEIGHT",
                            help="Board size, files x ranks, each side from 3 to 7.")
rule_option = click.option("--rule", default=DEFAULT_RULE, show_default=True,
                           help=f"Winning condition: {', '.join(RULES)}.")
table_option = click.option("--table", "table_file", type=click.Path(path_type=Path), default=None,
                            help="Table file to read instead of the default one.")


def _terminal_progress():
    """Ply-by-ply progress (positions newly won or lost, time so far) when standard error is a
    terminal, silence otherwise."""
    if not sys.stderr.isatty():
        return None
    began = time.perf_counter()

    def progress(level) -> None:
        kind = "wins" if level.won else "losses"
        click.echo(f"  ply {level.plies:3d}: {level.count:>12,} new {kind:<6} {time.perf_counter() - began:8.2f} s",
                   err=True)

    return progress


def _open(game: Game, table_file: Path | None) -> Table:
    """The table of ``game`` at ``table_file``, or the default one, built if it is missing."""
    if table_file is not None:
        return open_table(game, table_file)

    def announce(path: Path) -> None:
        click.echo(f"building the {game} table at {path} ...", err=True)

    return ensure_table(game, progress=_terminal_progress(), on_build=announce)


@click.group(cls=_Neutreeko, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Neutreeko, solved: every position's value with its exact distance in plies."""


@cli.command()
@board_option
@rule_option
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Where to write the table (default: the tables directory).")
@click.option("--force", is_flag=True, help="Rebuild even if a valid table exists.")
@click.option("--fold", is_flag=True,
              help="Store one result per symmetry class: a table 8 times smaller, read the same way.")
def solve(board: str, rule: str, out: Path | None, force: bool, fold: bool) -> None:
    """Solve a board completely and write its HDF5 table."""
    game = Game.of(board, rule)
    path, summary, seconds = build_table(game, out, force, _terminal_progress(), fold)
    click.echo(f"solved {game}: {summary.legal:,} legal positions ({summary.wins:,} wins, "
               f"{summary.losses:,} losses, {summary.draws:,} draws) in {seconds:.2f} s -> {path}")


@cli.command(name="survey")
@click.option("--max-board", default="7x7", show_default=True, metavar="WIDTHxHEIGHT",
              help="Largest board: every board from 3x3 up to it, each width with each height.")
@click.option("--rules", default="all", show_default=True,
              help=f"Comma-separated winning conditions ({', '.join(RULES)}), or all.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("docs/survey.md"), show_default=True,
              help="Markdown report; the CSV goes beside it, with the suffix .csv.")
def survey_command(max_board: str, rules: str, out: Path) -> None:
    """Solve every board and rule (reusing built tables) and tabulate them."""
    games = survey_games(Board.parse(max_board), select_rules(rules))
    for path in (out, csv_path(out)):
        with _writing(path):
            files.check_writable(path)

    def announce(row: SurveyRow) -> None:
        click.echo(f"{row.board} {row.rule}: {row.legal:,} legal, {row.draws:,} draws, start {row.start_value}",
                   err=True)

    rows = run_survey(games, lambda game: _open(game, None), announce)
    command = f"neutreeko survey --max-board {max_board} --rules {rules}"
    with _writing(out):
        table = write_report(rows, out, command)
    click.echo(f"surveyed {len(rows)} boards and rules -> {out}, {table}")


@cli.command(name="verify")
@board_option
@rule_option
def verify_command(board: str, rule: str) -> None:
    """Check the tables against the published figures (building them if missing)."""
    game = Game.of(board, rule)
    table = _open(game, None)
    checks = verify(game, lambda other: table if other == game else _open(other, None))
    if not checks:
        summary = summarize(game, table.result)
        click.echo(f"no published figures for {game}; its table gives {summary.legal:,} legal positions, "
                   f"{summary.draws:,} draws, longest win {summary.longest_win} plies")
        return
    width = max(len(check.name) for check in checks)
    click.echo(f"{'check':<{width}}  {'expected':>12}  {'table':>12}  result")
    for check in checks:
        click.echo(f"{check.name:<{width}}  {check.expected:>12}  {check.actual:>12}  "
                   f"{'PASS' if check.passed else 'FAIL'}")
    failed = sum(not check.passed for check in checks)
    click.echo(f"{len(checks) - failed} of {len(checks)} checks pass")
    if failed:
        sys.exit(1)


@cli.command()
@board_option
@rule_option
@table_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def stats(board: str, rule: str, table_file: Path | None, as_json: bool) -> None:
    """Counts by value and distance, and the longest wins."""
    game = Game.of(board, rule)
    summary = summarize(game, _open(game, table_file).result)
    longest = [Position.from_index(game, i).fen() for i in summary.longest_win_indices]
    if as_json:
        click.echo(json.dumps({
            "board": str(game.board), "rule": game.rule.name, **summary.counts(),
            "wins_by_plies": {str(plies): count for plies, count in sorted(summary.wins_by_plies.items())},
            "losses_by_plies": {str(plies): count for plies, count in sorted(summary.losses_by_plies.items())},
            "longest_wins": longest,
        }))
        return
    click.echo(f"{game}: {summary.legal:,} legal positions (side to move's view)")
    for name, count in (("wins", summary.wins), ("losses", summary.losses), ("draws", summary.draws)):
        click.echo(f"  {name:<7} {count:>12,}  {100 * count / summary.legal:6.2f} %")
    click.echo(f"  no move {summary.no_move:>12,}")
    click.echo("plies       wins     losses")
    for plies in range(max(summary.longest_win, summary.longest_loss) + 1):
        wins, losses = summary.wins_by_plies.get(plies), summary.losses_by_plies.get(plies)
        if wins or losses:
            click.echo(f"{plies:5d} {_count(wins):>10} {_count(losses):>10}")
    click.echo(f"longest win: {summary.longest_win} plies, {len(longest)} positions (side to move wins):")
    for fen in longest:
        click.echo(f"  {fen}")


def _count(number: int | None) -> str:
    return f"{number:,}" if number else ""


# -- query and line ---------------------------------------------------------------------------------

position_argument = click.argument("position", nargs=-1, required=True)
moves_option = click.option("--moves", default="", metavar='"C4-C3 D5-D2"',
                            help="Moves to play from POSITION first, each checked.")


def position_options(command):
    """POSITION with --board, --rule, --table and --moves: what query, line and show read."""
    for option in reversed((position_argument, board_option, rule_option, table_option, moves_option)):
        command = option(command)
    return command


def _position(words: tuple[str, ...], board: str, rule: str, moves: str) -> Position:
    """POSITION (its words joined by a space, so quoting it is optional) on the --board, after --moves."""
    return Position.parse(" ".join(words), rule, Game.of(board, rule)).play_line(moves)


def _tablebase(table_file: Path | None) -> Tablebase:
    """A tablebase opening tables as the other commands do: built, with progress, if missing."""
    return Tablebase(opener=lambda game: _open(game, table_file))


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
        _query_stdin(Game.of(board, rule), _tablebase(table_file), with_moves)
        return
    if with_moves:
        raise click.UsageError("--with-moves is for reading positions from standard input (POSITION -)")
    tablebase = _tablebase(table_file)
    queried = _position(position, board, rule, moves)
    evaluation, ranked = tablebase.probe(queried), tablebase.moves(queried)
    if as_json:
        click.echo(json.dumps(report.query_object(queried, evaluation, ranked)))
    else:
        click.echo(report.query_text(queried, evaluation, ranked))


def _query_stdin(game: Game, tablebase: Tablebase, with_moves: bool) -> None:
    """Answer standard input line by line on standard output; exit 2 after it if a line was bad."""
    lines = errors = 0
    try:
        for answers in query_stream(read_lines(sys.stdin), tablebase, game, with_moves):
            sys.stdout.write("\n".join(answers.texts) + "\n")
            sys.stdout.flush()
            lines, errors = lines + len(answers.texts), errors + answers.errors
    except BrokenPipeError:
        # The reader has gone (``| head``): stop quietly, and keep Python from failing to flush at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    if errors:
        _fail(f"{errors} of {lines} lines could not be answered (see their error objects)", 2)


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
    pictures_asked = [(path, kind) for path, kind in ((svg_file, "svg"), (html_file, "html")) if path]
    for path, kind in pictures_asked:
        pictures.check_format(path, kind)
        with _writing(path):
            files.check_writable(path)
    played = _tablebase(table_file).line(_position(position, board, rule, moves), max_plies)
    for path, kind in pictures_asked:
        with _writing(path):
            files.write_atomically(path, pictures.line_picture(played, kind))
    click.echo(json.dumps(report.line_object(played)) if as_json else report.line_text(played))


# -- pictures -----------------------------------------------------------------------------------------

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
    pictures_asked = [(path, kind) for path, kind in ((svg_file, "svg"), (png_file, "png")) if path]
    for path, kind in pictures_asked:
        pictures.check_format(path, kind)
        with _writing(path):
            files.check_writable(path)
    played = moves.split()
    shown = _position(position, board, rule, " ".join(played[:-1]))
    last_move = shown.parse_move(played[-1]) if played else None
    if last_move:
        shown = shown.play(last_move)
    tablebase = _tablebase(table_file)
    evaluation, ranked = tablebase.probe(shown), tablebase.moves(shown)
    if not pictures_asked:
        click.echo(pictures.position_picture(shown, evaluation, ranked, last_move, "svg").decode(), nl=False)
    for path, kind in pictures_asked:
        with _writing(path):
            files.write_atomically(path, pictures.position_picture(shown, evaluation, ranked, last_move, kind))


# -- play ---------------------------------------------------------------------------------------------

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
    stdin = sys.stdin
    match = Match.setup(_tablebase(table_file), _position((start,), board, rule, ""), you.lower(),
                        opponent.lower(), seed, write=lambda text: click.echo(text, nl=False),
                        echo_input=not stdin.isatty())
    try:
        match.run(iter(stdin.readline, ""))
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
