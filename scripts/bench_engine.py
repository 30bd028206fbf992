"""Measure the NECNON search engine against perfect play on the solved boards: the points it gives away.

    python scripts/bench_engine.py                                  # every default board, 0.5 s a turn
    python scripts/bench_engine.py --boards 4x4,hex3 --games 2 --iterations 2000 --seed 1

On every board of ``--boards`` (default :data:`DEFAULT_BOARDS`: every board of 12 cells or more whose
tables build in about a minute or less) under every protocol setting of ``--protocols`` (default all
four), the engine (:class:`solver.necnon.searching.engine.SearchEngine`) plays ``--games`` games from the empty
board in each seat against the perfect player (the table's best turn), thinking ``--time`` seconds a
turn or running exactly ``--iterations`` playouts (then every figure is reproducible with ``--seed``).
Missing tables are built first, before any game and outside the timing.

**Points given away** in a game, for the engine's side: the perfect value of the start for that side
(Black's points minus Green's, negated for Green) minus the final result for that side. Against a
perfect opponent it is never negative: the opponent keeps the start's value for itself on every turn,
so the engine can only lose points, and it is 0 exactly when the game ends with the perfect result.

Output: a line per board, protocol and seat, a line per board, a summary line, each giving the games,
the mean points given away per game, the share of games with the perfect result and the mean points
the engine's first turn of a game gave away (judged by the table; on a board solved from its first
turns on, they tell the opening apart from the rest of the game); then the time
taken and the command line that reproduces the run. Games use the game loop of
:func:`solver.necnon.playing.play.play_game`; the engine of each game has its own seed, drawn from ``--seed``,
the board, the protocol, the seat and the game's number.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from dataclasses import dataclass
from typing import Callable, Sequence

import benchjson

from solver.necnon.model.position import BLACK, GREEN, Colour, Position
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.playing.annotate import points_given
from solver.necnon.playing.play import PlayedGame, engine_player, perfect_player, play_game
from solver.necnon.querying.judge import TableJudge
from solver.necnon.querying.probe import Tablebase
from solver.necnon.searching.engine import SearchEngine
from solver.necnon.tables.build import ensure_table

#: Boards of 12 cells or more with tables that build quickly (hex3, the largest, in up to a minute per
#: protocol; 3x4 is 4x3 turned, measured apart since the engine's order of cells differs).
DEFAULT_BOARDS = ("4x3", "3x4", "4x4", "5x3", "hex3")
#: ``--time`` when neither it nor ``--iterations`` is given.
DEFAULT_SECONDS = 0.5
SEATS: tuple[Colour, ...] = (BLACK, GREEN)


def points_given_away(start_value: int, end: Position, black: bool) -> int:
    """The points the player of Black (``black``) or Green gave away in a game that started from a
    position of perfect value ``start_value`` (Black minus Green) and ended in ``end``: the value for
    that player minus its final margin. Never negative against a perfect opponent.

    >>> from solver.necnon.model.rules import Game
    >>> end = Position.empty(Game.of("2x2")).play_line("a1 b1,a2 pass b2")  # Black wins by 2
    >>> points_given_away(2, end, True), points_given_away(2, end, False), points_given_away(0, end, False)
    (0, 0, 2)
    """
    sign = 1 if black else -1
    return sign * (start_value - end.margin())


def given_in_first_turn(tablebase: Tablebase, played: PlayedGame, seat: Colour) -> int:
    """The points the player in ``seat`` gave away in its first turn of ``played`` (which has one), by the
    table."""
    ply = next(ply for ply in played.plies if ply.side == seat)
    return round(points_given(TableJudge(tablebase).judge(ply.before, ply.turn), seat == BLACK))


@dataclass(frozen=True)
class Tally:
    """Games measured: how many, the points given away in all, how many ended with the perfect result,
    and the points given away in the engine's first turn of each."""

    games: int = 0
    given: int = 0
    perfect: int = 0
    first_turn: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.games + other.games, self.given + other.given, self.perfect + other.perfect,
                     self.first_turn + other.first_turn)

    def text(self) -> str:
        """``"4 games, 0.50 points given away a game, the perfect result in 3 (75.0 %), 0.25 a game in its
        first turn"``."""
        mean = self.given / self.games if self.games else 0.0
        share = 100 * self.perfect / self.games if self.games else 0.0
        first = self.first_turn / self.games if self.games else 0.0
        return (f"{self.games} game{'s' * (self.games != 1)}, {mean:.2f} points given away a game, "
                f"the perfect result in {self.perfect} ({share:.1f} %), {first:.2f} a game in its first turn")


def engine_seed(seed: int, game: Game, seat: Colour, number: int) -> int:
    """The engine's seed in game ``number`` of ``game`` in ``seat``: the same for the same run."""
    return random.Random(f"{seed}/{game.grid}/{game.setting}/{seat}/{number}").randrange(2**31)


def measure(tablebase: Tablebase, game: Game, seat: Colour, games: int, seed: int, seconds: float,
            iterations: int | None) -> Tally:
    """Play ``games`` games of the engine in ``seat`` against the perfect player of ``tablebase``."""
    start = Position.empty(game)
    value = tablebase.probe(start).margin
    tally = Tally()
    for number in range(games):
        engine = SearchEngine(game, engine_seed(seed, game, seat, number), seconds, iterations)
        other = GREEN if seat == BLACK else BLACK
        played = play_game(start, {seat: engine_player(engine), other: perfect_player(tablebase)})
        given = points_given_away(value, played.position, seat == BLACK)
        tally += Tally(1, given, given == 0, given_in_first_turn(tablebase, played, seat))
    return tally


def command_line(options: argparse.Namespace) -> str:
    """The command that repeats the run, every choice written out."""
    thinking = (["--iterations", str(options.iterations)] if options.iterations is not None
                else ["--time", f"{options.time:g}"])
    return shlex.join(["python", "scripts/bench_engine.py", "--boards", ",".join(options.boards),
                       "--protocols", ",".join(options.protocols), "--games", str(options.games), *thinking,
                       "--seed", str(options.seed)])


def _names(known: Sequence[str] | None = None) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if known is not None and name not in known]
        if not names or unknown:
            raise argparse.ArgumentTypeError(f"unknown: {', '.join(unknown)}" if unknown else "none given")
        return names
    return parse


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=_names(), default=list(DEFAULT_BOARDS),
                        help=f"Comma-separated boards (default {','.join(DEFAULT_BOARDS)}).")
    parser.add_argument("--protocols", type=_names(tuple(SETTINGS)), default=list(SETTINGS),
                        help="Comma-separated protocol settings (default all four).")
    parser.add_argument("--games", type=int, default=4, help="Games per board, protocol and seat (default 4).")
    thinking = parser.add_mutually_exclusive_group()
    thinking.add_argument("--time", type=float, default=DEFAULT_SECONDS,
                          help=f"The engine's seconds a turn (default {DEFAULT_SECONDS:g}).")
    thinking.add_argument("--iterations", type=int, help="The engine's playouts a turn (reproducible).")
    parser.add_argument("--seed", type=int, default=1, help="Seeds every engine (default 1).")
    benchjson.add_option(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Parse ``argv`` (default: the command line), build missing tables, play and print the figures."""
    options = parser().parse_args(argv)
    if options.games < 1 or (options.iterations is not None and options.iterations < 1):
        raise SystemExit("--games and --iterations must be positive")
    games = {board: [Game.of(board, setting) for setting in options.protocols] for board in options.boards}
    for board_games in games.values():
        for game in board_games:
            ensure_table(game, build_large=True,
                         on_build=lambda path: print(f"building {path.name} ...", file=sys.stderr))
    thinking = (f"{options.iterations:,} playouts a turn" if options.iterations is not None
                else f"{options.time:g} s a turn")
    print(f"the engine ({thinking}) against perfect play, {options.games} games per board, protocol and seat")
    began = time.perf_counter()
    total = Tally()
    with Tablebase() as tablebase:
        for board, board_games in games.items():
            per_board = Tally()
            for game in board_games:
                for seat in SEATS:
                    tally = measure(tablebase, game, seat, options.games, options.seed, options.time,
                                    options.iterations)
                    print(f"{board} {game.setting} engine {seat}: {tally.text()}")
                    benchjson.record(f"{board} {game.setting} engine {seat}: points given away a game",
                                     tally.given / tally.games, "points")
                    per_board += tally
            print(f"{board} all: {per_board.text()}")
            total += per_board
    print(f"summary: {total.text()}")
    print(f"time: {time.perf_counter() - began:.1f} s of play (tables built before)")
    print(f"command: {command_line(options)}")
    benchjson.record("time of play", time.perf_counter() - began, "s")
    benchjson.write("bench_engine", options)


if __name__ == "__main__":
    main()
