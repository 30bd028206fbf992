"""A match between two settings of the NECNON search engine on a board too large to solve: the score of A.

    python scripts/match_engines.py --board hex4 --a iterations=2000 --b time=0.5 --games 20
    python scripts/match_engines.py --board 7x7 --protocol non-nec --a time=2 --b time=1 --games 10 --seed 3

Each side is a setting of :class:`solver.necnon.engine.SearchEngine`: ``time=S`` (seconds a turn) or
``iterations=N`` (playouts a turn; with both sides so, the match is reproducible with ``--seed``). A
change to the engine is judged by a match of the changed checkout against the settings it had before
(the figures printed by a run on the old checkout), or of two settings in one checkout. The games start
from the empty board; A plays Black in the odd games (1, 3, ...) and Green in the even ones, so that
the seats alternate. Each engine has its own seed in each game, drawn from ``--seed``, the side and the
game's number. Games use the game loop of :func:`solver.necnon.play.play_game`.

Output: a line per game (who played Black, the result, A's score), then A's wins, draws and losses, its
score (a win 1, a draw 1/2) as a share of the games, and the 95 % **Wilson** score interval of that share
(the per-game scores taken as a binomial proportion, a draw as half a win: with draws the interval is a
little wider than it need be), then the command line. The match is bounded in time: no game starts
after ``--max-seconds`` (a game under way is finished), and the figures are of the games played.
"""

from __future__ import annotations

import argparse
import math
import random
import shlex
import time
from dataclasses import dataclass
from typing import Sequence

from solver.necnon.engine import SearchEngine
from solver.necnon.play import engine_player, play_game
from solver.necnon.position import BLACK, GREEN, Position
from solver.necnon.rules import SETTINGS, Game
from solver.necnon.values import Evaluation

#: The normal quantile of a two-sided 95 % interval.
Z_95 = 1.959964


@dataclass(frozen=True)
class Setting:
    """How an engine thinks: ``seconds`` a turn, or exactly ``iterations`` playouts a turn when given."""

    seconds: float
    iterations: int | None

    @classmethod
    def parse(cls, text: str) -> Setting:
        """``"time=0.5"`` or ``"iterations=2000"``; :class:`argparse.ArgumentTypeError` otherwise.

        >>> Setting.parse("iterations=2000"), Setting.parse(" time = 0.5 ").text()
        (Setting(seconds=1.0, iterations=2000), '0.5 s a turn')
        """
        name, _, value = (part.strip() for part in text.partition("="))
        try:
            if name == "time" and float(value) > 0:
                return cls(float(value), None)
            if name == "iterations" and int(value) > 0:
                return cls(1.0, int(value))
        except ValueError:
            pass
        raise argparse.ArgumentTypeError(f"{text!r}: expected time=S or iterations=N (positive)")

    def spec(self) -> str:
        """The text :meth:`parse` reads back."""
        return f"iterations={self.iterations}" if self.iterations is not None else f"time={self.seconds:g}"

    def text(self) -> str:
        return f"{self.iterations:,} playouts a turn" if self.iterations is not None else f"{self.seconds:g} s a turn"

    def engine(self, game: Game, seed: int) -> SearchEngine:
        return SearchEngine(game, seed, self.seconds, self.iterations)


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a share ``score / games`` (``games`` at least 1), at the normal
    quantile ``z`` (95 % by default).

    >>> [round(bound, 3) for bound in wilson_interval(3, 6)]
    [0.188, 0.812]
    >>> [round(bound, 3) for bound in wilson_interval(6, 6)]
    [0.61, 1.0]
    """
    share = score / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seed(seed: int, side: str, number: int) -> int:
    """The seed of side ``side`` (``"a"``, ``"b"``) in game ``number``: the same for the same match."""
    return random.Random(f"{seed}/{side}/{number}").randrange(2**31)


def play(game: Game, a: Setting, b: Setting, number: int, seed: int) -> tuple[int, float]:
    """Game ``number`` (from 1) of a match: its final margin (Black minus Green) and A's score in it
    (1, 1/2 or 0). A plays Black in odd games."""
    engines = {"a": engine_player(a.engine(game, game_seed(seed, "a", number))),
               "b": engine_player(b.engine(game, game_seed(seed, "b", number)))}
    black, green = ("a", "b") if number % 2 else ("b", "a")
    margin = play_game(Position.empty(game), {BLACK: engines[black], GREEN: engines[green]}).position.margin()
    black_score = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return margin, black_score if black == "a" else 1.0 - black_score


def command_line(options: argparse.Namespace) -> str:
    """The command that repeats the match, every choice written out."""
    return shlex.join(["python", "scripts/match_engines.py", "--board", options.board, "--protocol", options.protocol,
                       "--a", options.a.spec(), "--b", options.b.spec(), "--games", str(options.games),
                       "--seed", str(options.seed), "--max-seconds", f"{options.max_seconds:g}"])


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="hex4", help="The board (default hex4).")
    parser.add_argument("--protocol", default="nec", choices=tuple(SETTINGS), help="The protocol setting (default nec).")
    parser.add_argument("--a", type=Setting.parse, default=Setting(1.0, None), help="Side A (default time=1).")
    parser.add_argument("--b", type=Setting.parse, default=Setting(0.5, None), help="Side B (default time=0.5).")
    parser.add_argument("--games", type=int, default=10, help="Games (default 10; an even number balances the seats).")
    parser.add_argument("--seed", type=int, default=1, help="Seeds every engine (default 1).")
    parser.add_argument("--max-seconds", type=float, default=900.0,
                        help="No game starts after this many seconds (default 900).")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Parse ``argv`` (default: the command line), play the match and print its figures."""
    options = parser().parse_args(argv)
    if options.games < 1:
        raise SystemExit("--games must be positive")
    game = Game.of(options.board, options.protocol)
    print(f"A ({options.a.text()}) against B ({options.b.text()}) on {game}: {options.games} games, "
          f"A Black in the odd ones")
    began = time.perf_counter()
    scores: list[float] = []
    for number in range(1, options.games + 1):
        if time.perf_counter() - began >= options.max_seconds:
            print(f"stopped after {len(scores)} games: --max-seconds {options.max_seconds:g} reached")
            break
        margin, score = play(game, options.a, options.b, number, options.seed)
        scores.append(score)
        seats = "A Black, B Green" if number % 2 else "B Black, A Green"
        print(f"game {number}: {seats}: {Evaluation(margin, 0).result()}, A scores {score:g}")
    if not scores:
        return
    wins, draws, losses = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    low, high = wilson_interval(sum(scores), len(scores))
    counts = ", ".join(f"{number} {word if number == 1 else plural}" for number, word, plural in
                       ((wins, "win", "wins"), (draws, "draw", "draws"), (losses, "loss", "losses")))
    print(f"A: {counts} in {len(scores)} games; score {sum(scores):g}/{len(scores)} "
          f"= {sum(scores) / len(scores):.3f}, 95 % interval {low:.3f} to {high:.3f} (Wilson)")
    print(f"time: {time.perf_counter() - began:.1f} s")
    print(f"command: {command_line(options)}")


if __name__ == "__main__":
    main()
