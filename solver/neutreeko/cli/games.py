"""Commands about games: play against the tables, annotate a game record, find fair starts."""

from __future__ import annotations

import json
from pathlib import Path

import click

from solver.cli.common import (
    Output,
    echo_answer,
    input_lines,
    make_directory,
    picture_options,
    pictures_asked,
    play_record_options,
    record_to_annotate,
    seed_option,
    side_option,
    standard_input,
    table_option,
    write_pictures,
    writing,
)
from solver.core import files
from solver.core.storage.remote import Location
from solver.neutreeko.cli.group import (
    board_option,
    build_option,
    read_position,
    rule_option,
    tablebase_for,
)
from solver.neutreeko.playing import ENGINE_NAMES, SIDE_NAMES
from solver.neutreeko.studies import DEPTH, TOP


@click.command()
@board_option
@rule_option
@table_option
@build_option
@side_option(SIDE_NAMES)
@click.option("--opponent", type=click.Choice(ENGINE_NAMES, case_sensitive=False), default="strong",
              show_default=True, help="The engine: perfect, strong (as good, varied), fair (slips now and "
                                      "then), random.")
@click.option("--from", "position", default=None, metavar="POSITION",
              help="The position to start from, in notation (default: the standard start).")
@click.option("--start", "start", default="standard", show_default=True, metavar="standard|fair|fair:K",
              help="Start from the standard start, a random one of the best fair starts (seeded by --seed), "
                   "or the K-th fair start (see neutreeko starts).")
@play_record_options("move")
@click.option("--coach", is_flag=True, help="Judge each of your moves at once, in one line.")
@seed_option("Seed of the engine's choices: the same seed, the same game", None)
def play(board: str, rule: str, table_file: Location | None, build: bool, you: str, opponent: str,
         position: str | None, start: str, load_file: Path | None, record_file: Path | None, coach: bool,
         seed: int | None) -> None:
    """Play against the tables, with hints and take-backs.

    Type a move as FROM-TO (e.g. C4-C3, any case) or a command: hint, undo, line, fen, save FILE, help,
    quit. Three in a row wins; a position occurring for the third time is a draw. The end shows every
    mistake and blunder of both sides and the game's record, which annotate reads and --load continues.
    Input may be piped. On the board, the piece that moved last is in brackets ([w]) and * marks the
    square it left.

    \b
    Example (White against the fair engine, replayable with the same seed):
      neutreeko play --as white --opponent fair --seed 7
    """
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.playing.play import Match, new_seed
    from solver.neutreeko.playing.record import GameRecord, read_record
    from solver.neutreeko.studies.starts import fair_starts

    fair = start.strip().lower() != "standard"
    if load_file is not None and (position is not None or fair):
        raise click.UsageError("--load continues a record from its own start: it cannot be used with --from or --start")
    if position is not None and fair:
        raise click.UsageError("--from and --start name the start two ways: give one")
    if record_file is not None:
        with writing(record_file):
            files.check_writable(record_file)
    tablebase = tablebase_for(table_file, build)
    seed = new_seed() if seed is None else seed
    if load_file is not None:
        game = read_record(load_file)
    elif fair:
        game = GameRecord(fair_starts(tablebase, Game.of(board, rule)).choose(start, seed).position)
    else:
        game = GameRecord(read_position((position or "start",), board, rule, ""))
    stdin = standard_input()
    match = Match.setup(tablebase, game, you.lower(), opponent.lower(), seed,
                        write=lambda text: click.echo(text, nl=False), echo_input=not stdin.isatty(), coach=coach,
                        record_path=record_file)
    match.run(input_lines(stdin))


@click.command(name="annotate")
@click.argument("game", metavar="GAME|-")
@table_option
@build_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (its schema is in the user guide).")
@picture_options("Also draw the value-history chart")
def annotate_command(game: str, table_file: Location | None, build: bool, as_json: bool, svg_file: Path | None,
                     png_file: Path | None) -> None:
    """Judge every move of a game record against the tables.

    GAME is a record file (as play saves it, or a plain list of moves from the start), - for standard
    input. For every ply: the value before the move and the move's value for its player, its mark
    (best; ?! inaccuracy: a slower win or a faster loss; ? mistake: a win to a draw or a draw to a loss;
    ?? blunder: a win to a loss), the best moves, and how many moves kept the value; then a summary per
    side, the first decisive error and the result. A chart file asked for is written besides the text;
    with --svg - the SVG goes to standard output instead of it.

    \b
    Example (Black's first move throws the draw away):
      printf '1. C4-C3 D5-D2 2. B1-A1\\n' | neutreeko annotate -
    """
    from solver.neutreeko.drawing import pictures
    from solver.neutreeko.model.position import BLACK, WHITE, Colour
    from solver.neutreeko.playing.annotate import annotate, annotation_object, annotation_text
    from solver.neutreeko.playing.record import parse_record

    asked = pictures_asked(svg=svg_file, png=png_file)
    record = record_to_annotate(game, parse_record, "move")
    judged = annotate(tablebase_for(table_file, build), record.start, record.moves)
    write_pictures(asked, lambda kind: pictures.annotation_picture(judged, kind))
    names: dict[Colour, str] = {side: record.tag(side.capitalize()) for side in (BLACK, WHITE)}
    echo_answer(svg_file, lambda: json.dumps(annotation_object(judged)) if as_json else annotation_text(judged, names),
                lambda: pictures.annotation_picture(judged, "svg"))


@click.command(name="starts")
@board_option
@rule_option
@table_option
@build_option
@click.option("--count", type=click.IntRange(min=1), default=TOP, show_default=True, help="How many starts to list.")
@click.option("--depth", type=click.IntRange(min=1, max=200), default=DEPTH, show_default=True,
              help="Plies of draw-keeping play the freedom is measured over.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (its schema is in the user guide).")
@click.option("--svg", "svg_dir", type=Output(file_okay=False), default=None, metavar="DIR",
              help="Also draw each listed start, with its first moves, as DIR/start-01.svg, ...")
def starts_command(board: str, rule: str, table_file: Location | None, build: bool, count: int, depth: int,
                   as_json: bool, svg_dir: Path | None) -> None:
    """Fair starts: drawn setups where neither side is favoured by shape, ranked by freedom.

    A candidate has White's pieces where Black's are turned half round or mirrored (so both sides have
    the same shape), no three in a row, Black to move. The draws among them are ranked: fewest plies
    forced from the start (one way to keep the draw, up to symmetry), then most positions reachable by
    draw-keeping play after --depth plies, then the largest share of first moves keeping the draw. The
    standard start's rank is given. play --start fair:K plays the K-th.

    \b
    Example (the three best fair starts of 4 x 4):
      neutreeko starts --board 4x4 --count 3
    """
    from solver.neutreeko.drawing import pictures
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.studies.starts import fair_starts, starts_object, starts_text

    if svg_dir is not None:
        make_directory(svg_dir)
    pictured = [svg_dir / f"start-{rank:02d}.svg" for rank in range(1, count + 1)] if svg_dir else []
    asked = pictures_asked(svg=pictured[0]) if pictured else []
    tablebase = tablebase_for(table_file, build)
    found = fair_starts(tablebase, Game.of(board, rule), depth)
    for start, path in zip(found.starts, pictured):
        position = start.position
        write_pictures([(path, kind) for _, kind in asked], lambda kind: pictures.position_picture(
            position, tablebase.probe(position), tablebase.moves(position), None, kind))
    click.echo(json.dumps(starts_object(found, count)) if as_json else starts_text(found, count))
