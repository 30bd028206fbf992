"""The ``neutreeko`` command: a thin click layer over the library.

Every error a user can cause ends in one line on standard error and a non-zero exit: 2 for bad input
(board, rule, position, move, usage), 1 for a table that cannot be used or written, 130 when interrupted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from solver.build import build_table, ensure_table
from solver.errors import NeutreekoError, TableError
from solver.game import Game
from solver.position import Position
from solver.rules import DEFAULT_RULE, RULES
from solver.stats import summarize
from solver.table import Table, open_table
from solver.verify import verify


class _Neutreeko(click.Group):
    """Maps exceptions to one-line messages and exit codes (see the module docstring)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name or "neutreeko", complete_var, False, **extra)
        except TableError as error:
            _fail(error, 1)
        except NeutreekoError as error:
            _fail(error, 2)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            _fail("interrupted", 130)
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message, code: int):
    click.echo(f"neutreeko: error: {message}", err=True)
    sys.exit(code)


board_option = click.option("--board", default="5x5", show_default=True, metavar="WIDTHxHEIGHT",
                            help="Board size, files x ranks, each side from 3 to 7.")
rule_option = click.option("--rule", default=DEFAULT_RULE, show_default=True,
                           help=f"Winning condition: {', '.join(RULES)}.")
table_option = click.option("--table", "table_file", type=click.Path(path_type=Path), default=None,
                            help="Table file to read instead of the default one.")


def _progress(level) -> None:
    kind = "won" if level.won else "lost"
    click.echo(f"  ply {level.plies:3d}: {level.count:>12,} positions {kind} in {level.plies}", err=True)


def _terminal_progress():
    """Ply-by-ply progress when standard error is a terminal, silence otherwise."""
    return _progress if sys.stderr.isatty() else None


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
def solve(board: str, rule: str, out: Path | None, force: bool) -> None:
    """Solve a board completely and write its HDF5 table."""
    game = Game.of(board, rule)
    path, summary, seconds = build_table(game, out, force, _terminal_progress())
    click.echo(f"solved {game}: {summary.legal:,} legal positions ({summary.wins:,} wins, "
               f"{summary.losses:,} losses, {summary.draws:,} draws) in {seconds:.2f} s -> {path}")


@cli.command(name="verify")
@board_option
@rule_option
def verify_command(board: str, rule: str) -> None:
    """Check the tables against the published figures (building them if missing)."""
    game = Game.of(board, rule)
    checks = verify(game, lambda other: _open(other, None))
    if not checks:
        summary = summarize(game, _open(game, None).result)
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
