"""Commands that build, fetch and read whole tables: solve, fetch, check, verify, stats and survey."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from solver.cli import releases
from solver.cli.common import Output, fail, out_option, rebuild_option, table_option, writing
from solver.core.answers.report import counted

#: Where ``neutreeko survey`` writes its report unless told otherwise.
SURVEY_REPORT = Path("docs/survey.md")
from solver.core import files
from solver.core.storage.remote import Location
from solver.neutreeko.cli.group import (
    board_option,
    build_option,
    open_or_build,
    rule_option,
    terminal_progress,
)
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.rules import RULES
from solver.neutreeko.solving import EVERY

if TYPE_CHECKING:
    from solver.neutreeko.checking.check import CheckReport, CheckStep, Progress
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.tables.table import Table


@click.command()
@board_option
@rule_option
@out_option
@rebuild_option
@click.option("--fold", is_flag=True,
              help="Solve over symmetry classes and store one result per class: 8 times less memory and a table "
                   "8 times smaller on a square board, read the same way.")
@click.option("--progress", is_flag=True, help="Show the progress ply by ply even when standard error is not a terminal.")
@click.option("--resume", is_flag=True,
              help="Continue the solve from the state that an interrupted one saved beside the table.")
@click.option("--save-every", type=click.FloatRange(min=0), default=EVERY, show_default=True, metavar="SECONDS",
              help="Save the solve's state beside the table (TABLE.solving) at the first level after so many "
                   "seconds of solving since the last save.")
@click.option("--cluster", metavar="ADDRESS",
              help="Solve (with --fold) on a Dask cluster: its scheduler's tcp://HOST:PORT, or local:N for N worker "
                   "processes on this machine; needs the cluster extra (pip install 'neutreeko-solver[cluster]').")
@click.option("--partitions", type=click.IntRange(min=1, max=1 << 16), metavar="N",
              help="With --cluster: cut the state into N partitions (default: one per worker); the table is the same.")
@click.option("--state", "state_dir", type=click.Path(path_type=Path, file_okay=False), metavar="DIR",
              help="With --cluster: the directory, reached by every worker, of the saved state "
                   "(default: TABLE.cluster beside the table).")
def solve(board: str, rule: str, out: Path | None, force: bool, fold: bool, progress: bool, resume: bool,
          save_every: float, cluster: str | None, partitions: int | None, state_dir: Path | None) -> None:
    """Solve a board completely and write its HDF5 table.

    A long solve saves its state at the start of a level every --save-every seconds; stopped (Ctrl-C,
    SIGTERM, a power cut), the same command with --resume continues it, to the same table.

    \b
    Example (the 4 x 4 board, orthogonal rows only, into the tables directory):
      neutreeko solve --board 4x4 --rule orthogonal
    """
    from solver.core.storage import container
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.solving.checkpoint import state_path
    from solver.neutreeko.tables.build import build_on_cluster, build_table, check_memory, cluster_state
    from solver.neutreeko.tables.table import table_path

    game = Game.of(board, rule)
    if cluster is None and (partitions or state_dir):
        fail("--partitions and --state go with --cluster", 2)
    if cluster is not None and not fold:
        fail("--cluster solves over symmetry classes: add --fold", 2)
    if cluster is None:
        check_memory(game, fold)  # before the line below, so that a refusal is the only line
    shown = terminal_progress(progress)
    if shown:  # the first level comes once every item is classified: long on the largest boards
        click.echo(f"solving {game} over {'symmetry classes' if fold else 'positions'}: {game.positions:,} indices, "
                   f"the first level once each is classified", err=True)
    try:
        if cluster is not None:
            path, summary, seconds = build_on_cluster(game, cluster, out, force, shown, partitions or 0, state_dir,
                                                      resume, save_every)
        else:
            path, summary, seconds = build_table(game, out, force, shown, fold, resume, save_every)
    except KeyboardInterrupt:
        table = out if out is not None else container.local(table_path(game))
        saved = state_path(table) if cluster is None else cluster_state(table, state_dir)
        if saved.exists():
            click.echo(f"the solve's state at the start of a level is saved in {saved}; the same command with "
                       f"--resume continues from it", err=True)
        raise
    click.echo(f"solved {game}: {summary.legal:,} legal positions ({summary.wins:,} wins, "
               f"{summary.losses:,} losses, {summary.draws:,} draws) in {seconds:.2f} s -> {path}")


@click.command()
@click.argument("board", metavar="BOARD")
@rule_option
@releases.fetch_options
def fetch(board: str, rule: str, mirror: str | None, force: bool, quiet: bool) -> None:
    """Download the table of BOARD (WIDTHxHEIGHT) under --rule from a release (see publish) into the tables directory,
    resuming a download that stopped; it is moved into place only once its size and SHA-256 match the
    mirror's manifest, every byte is checked and the digest of its result bytes is the committed one
    (every board up to 7x7, 8x8, and 9x9 to 11x11 connected; others: the manifest's). A table already there
    is replaced only with --force. Refusals are one line and exit 1.

    \b
    Example (the 8 x 8 table, instead of a long solve):
      neutreeko fetch 8x8 --mirror https://example.org/neutreeko-tables/
    """
    from solver.core.storage import container
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.tables.digests import committed_digest
    from solver.neutreeko.tables.table import open_table, table_path

    game = Game.of(board, rule)
    releases.fetch_table({"game": "neutreeko", "board": str(game.board), "rule": game.rule.name},
                         container.local(table_path(game)),
                         committed_digest(game), partial(open_table, game), mirror, force, quiet)


@click.command(name="check")
@board_option
@rule_option
@table_option
@build_option
@click.option("--progress", is_flag=True,
              help="Show how far the check is even when standard error is not a terminal.")
@click.option("--cluster", metavar="ADDRESS",
              help="Check a folded table on a Dask cluster (tcp://HOST:PORT, or local:N), each worker reading the "
                   "table at the same path; needs the cluster extra.")
def check_command(board: str, rule: str, table_file: Location | None, build: bool, progress: bool,
                  cluster: str | None) -> None:
    """Confirm every value of a table from its children's values, by a forward pass of its own; list
    the inconsistencies (the first 1,000, in index order; all are counted) and exit 1 if there is any.
    A folded table is checked class by class, without unfolding it.

    \b
    Example (the 4 x 4 table, built first if missing):
      neutreeko check --board 4x4
    """
    from solver.neutreeko.checking.check import LISTED
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.tables.build import cluster_module

    game = Game.of(board, rule)
    table = open_or_build(game, table_file, build)
    if cluster is not None:
        module = cluster_module()
        with module.connect(cluster) as client:
            report = module.check_on_cluster(client, game, table.path, LISTED, check_progress(progress))
    else:
        report = forward_check(table, check_progress(progress))
    for inconsistency in report.listed:
        click.echo(inconsistency.describe(game))
    if report.wrong > len(report.listed):
        click.echo(f"... and {report.wrong - len(report.listed):,} more inconsistencies")
    click.echo(_checked(report, table.path))
    if not report.passed:
        sys.exit(1)


@click.command(name="survey")
@click.option("--max-board", default="7x7", show_default=True, metavar="WIDTHxHEIGHT",
              help="Largest board: every board from 3x3 up to it, each width with each height.")
@click.option("--rules", default="all", show_default=True,
              help=f"Comma-separated winning conditions ({', '.join(RULES)}), or all.")
@click.option("--also", multiple=True, metavar="WIDTHxHEIGHT[:RULES]",
              help="A larger board to add, under RULES (comma-separated) or else those of --rules; repeatable.")
@click.option("--check", "check_tables", is_flag=True,
              help="Confirm every table with the forward check (neutreeko check) and say so in each row.")
@click.option("--out", type=Output(), default=SURVEY_REPORT, show_default=True,
              help="Markdown report; the CSV goes beside it with the suffix .csv, the start diagrams in "
                   "a folder named after it (survey-starts/).")
@click.option("--force", is_flag=True, help="Overwrite an existing report.")
@click.option("--keep", is_flag=True,
              help="Keep the rows of the existing report (its CSV) for the variants whose tables are not in the "
                   "tables directory, as they were, instead of building them: to add a board without the rest.")
@build_option
def survey_command(max_board: str, rules: str, also: tuple[str, ...], check_tables: bool, out: Path, force: bool,
                   keep: bool, build: bool) -> None:
    """Solve every board and rule (reusing built tables) and tabulate them, with findings.

    \b
    Example (regenerates the committed report; --keep keeps the rows of the tables not at hand):
      neutreeko survey --max-board 7x7 --rules all --also 8x8:connected --also 9x9:connected --also 10x10:connected --also 11x11:connected --check --build --keep
    """
    from solver.core.answers.report import csv_path
    from solver.core.storage import container
    from solver.neutreeko.studies.survey import (
        SurveyRow,
        read_csv,
        report_paths,
        run_survey,
        select_rules,
        starts_dir,
        survey_games,
        write_report,
    )
    from solver.neutreeko.tables.build import check_build_asked
    from solver.neutreeko.tables.table import table_path

    extra = [game for text in also for game in _also_games(text, rules)]
    games = survey_games(Board.parse(max_board), select_rules(rules), extra)
    for path in report_paths(out):
        with writing(path):
            files.check_writable(path)
        if path.exists() and not (force or keep):
            raise click.ClickException(f"not overwriting {path} without --force")
    before = {(row.board, row.rule): row for row in read_csv(csv_path(out))} if keep else {}
    kept = {key: before[key] for game in games
            if (key := (str(game.board), game.rule.name)) in before and not container.local(table_path(game)).exists()}
    read = [game for game in games if (str(game.board), game.rule.name) not in kept]
    check_build_asked(read, build)

    def announce(row: SurveyRow) -> None:
        click.echo(f"{row.board} {row.rule}: {row.legal:,} legal, {row.draws:,} draws, start {row.start_value}"
                   + (f", {row.verified}" if row.verified else ""), err=True)

    failed = []

    def verified(table: Table) -> str:
        report = forward_check(table, check_progress())
        click.echo(_checked(report, table.path), err=True)
        if not report.passed:
            failed.append(f"{table.game}: {report.wrong:,} inconsistent")
            return f"FAILED forward check ({report.wrong:,} inconsistent)"
        return "forward check"

    surveyed = iter(run_survey(read, lambda game: open_or_build(game, None, build), announce,
                               verified if check_tables else None))
    rows = [kept.get((str(game.board), game.rule.name)) or next(surveyed) for game in games]
    command = " ".join(["neutreeko survey --max-board", max_board, "--rules", rules,
                        *(f"--also {text}" for text in also), *(["--check"] if check_tables else []),
                        *(["--out", str(out)] if out != SURVEY_REPORT else []), *(["--build"] if build else []),
                        *(["--force"] if force else []), *(["--keep"] if keep else [])])  # as run; the report names it
    with writing(out):
        table = write_report(rows, out, command, list(kept.values()))
    click.echo(f"surveyed {counted(len(rows), 'board and rule', 'boards and rules')} -> {out}, {table}, {starts_dir(out)}/"
               + (f" ({len(kept)} kept from the report before)" if keep else ""))
    if failed:
        fail(f"the forward check failed: {'; '.join(failed)}", 1)


def forward_check(table: Table, progress: Progress | None = None) -> CheckReport:
    """The forward check of ``table``: class by class if it is folded, else index by index."""
    from solver.neutreeko.checking.check import check_consistency, check_folded

    if table.folded:
        return check_folded(table.game, table.data, progress=progress)
    return check_consistency(table.game, table.result, progress=progress)


def check_progress(always: bool = False) -> Progress | None:
    """How far a check is, on standard error, when it is a terminal or ``always`` (a line about every
    1 % of the work, with the time so far and the time left at that pace); else None."""
    if not (always or sys.stderr.isatty()):
        return None

    def progress(step: CheckStep) -> None:
        left = step.seconds_left
        click.echo(f"  checked {100 * step.done / max(step.total, 1):5.1f} % of the {step.unit} {step.seconds:9.1f} s"
                   + ("" if left is None else f", about {left:,.0f} s left"), err=True)

    return progress


def _checked(report: CheckReport, path: Location) -> str:
    """The summary line of a forward check."""
    counted = (f"{report.indices:,} classes of legal positions" if report.unit == "classes"
               else f"{report.indices:,} indices, {report.legal:,} legal positions")
    if report.unit == "classes" and report.legal != report.indices:
        counted += f" (only {report.legal:,} of them met by the pass)"
    return f"checked {report.game} ({path}): {counted}, {report.wrong:,} inconsistent, in {report.seconds:.1f} s"


def _also_games(text: str, rules: str) -> list[Game]:
    """The games of an ``--also`` value: ``8x8:connected`` (each rule named must be offered there), or
    ``8x8`` under those of ``rules`` offered there."""
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.studies.survey import select_rules, survey_games

    board, _, named = text.partition(":")
    if named:
        return [Game.of(board, rule) for rule in select_rules(named)]
    games = survey_games(Board.parse(board), select_rules(rules))
    return [game for game in games if game.board == Board.parse(board)]


@click.command(name="verify")
@board_option
@rule_option
@build_option
def verify_command(board: str, rule: str, build: bool) -> None:
    """Check the tables against the published figures (building them if missing).

    \b
    Example (5 x 5 and the 4 x 4 figure beside it):
      neutreeko verify
    """
    from solver.neutreeko.checking.verify import verify
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.model.values import plies_text

    game = Game.of(board, rule)
    table = open_or_build(game, None, build)
    checks = verify(game, lambda other: table if other == game else open_or_build(other, None, build))
    if not checks:
        summary = table.summary
        click.echo(f"no published figures for {game}; its table gives {summary.legal:,} legal positions, "
                   f"{summary.draws:,} draws, longest win {plies_text(summary.longest_win)}")
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


@click.command()
@board_option
@rule_option
@table_option
@build_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--all", "every", is_flag=True,
              help="List every position of the longest wins, not only one of each symmetry class.")
def stats(board: str, rule: str, table_file: Location | None, build: bool, as_json: bool, every: bool) -> None:
    """Counts by value and distance, and the longest wins.

    The longest wins are grouped by symmetry class (the positions that a rotation or mirror of the board
    maps onto each other, which have the same value): one position of each class and the class's size,
    or with --all every position.

    \b
    Example (4 x 4, every position of the longest wins):
      neutreeko stats --board 4x4 --all
    """
    from solver.neutreeko.model.game import Game
    from solver.neutreeko.querying import report

    game = Game.of(board, rule)
    summary = open_or_build(game, table_file, build).summary
    if as_json:
        click.echo(json.dumps(report.stats_object(game, summary, every)))
        return
    classes = report.longest_wins(game, summary)
    click.echo(f"{game}: {summary.legal:,} legal positions (side to move's view)")
    width = max(12, len(f"{summary.legal:,}"))  # 10 x 10's counts run to 14 characters
    for name, count in (("wins", summary.wins), ("losses", summary.losses), ("draws", summary.draws)):
        click.echo(f"  {name:<7} {count:>{width},}  {100 * count / summary.legal:6.2f} %")
    click.echo(f"  no move {summary.no_move:>{width},}")
    column = max(10, *(len(f"{count:,}") for count in [*summary.wins_by_plies.values(),
                                                       *summary.losses_by_plies.values()]))
    click.echo(f"plies {'wins':>{column}} {'losses':>{column}}")
    for plies in range(max(summary.longest_win, summary.longest_loss) + 1):
        wins, losses = summary.wins_by_plies.get(plies), summary.losses_by_plies.get(plies)
        if wins or losses:
            click.echo(f"{plies:5d} {_count(wins):>{column}} {_count(losses):>{column}}")
    positions = len(summary.longest_win_indices)
    click.echo(f"longest win: {summary.longest_win} plies, {positions:,} positions in {len(classes):,} symmetry "
               f"{'class' if len(classes) == 1 else 'classes'} (side to move wins; "
               f"{'every position, by class' if every else 'one position of each class, --all for every one'}):")
    width = max((len(fen) for fen, _ in classes), default=0)
    for fen, members in classes:
        click.echo(f"  {fen:<{width}}  {counted(len(members), 'position')}")
        if every:
            click.echo("\n".join(f"    {member}" for member in members))


def _count(number: int | None) -> str:
    return f"{number:,}" if number else ""
