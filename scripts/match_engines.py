"""A match between two settings of the NECNON search engine on a board too large to solve: the score of A.

    python scripts/match_engines.py --board hex4 --a iterations=2000 --b time=0.5 --games 20
    python scripts/match_engines.py --board 7x7 --protocol non-nec --a time=2 --b time=1 --games 10 --seed 3
    git archive main | tar -x -C /tmp/main      # another version's source tree, to match against
    python scripts/match_engines.py --board hex5 --a time=2 --b time=2,tree=/tmp/main --games 40

Each side is a setting of :class:`solver.necnon.searching.engine.SearchEngine`: ``time=S`` (seconds a turn) or
``iterations=N`` (playouts a turn; with both sides so, the match is reproducible with ``--seed``),
and optionally ``tree=DIR``: the engine of the source tree at DIR (another version of this project,
which it imports in a process of its own, :class:`TreeEngine`) rather than this checkout's. A change to
the engine is judged by a match of the changed checkout against the version before it, or of two
settings in one checkout. The games start
from the empty board; A plays Black in the odd games (1, 3, ...) and Green in the even ones, so that
the seats alternate. Each engine has its own seed in each game, drawn from ``--seed``, the side and the
game's number. Games use the game loop of :func:`solver.necnon.playing.play.play_game`.

Output: a line per game (who played Black, the result, A's score), then A's wins, draws and losses, its
score (a win 1, a draw 1/2) as a share of the games, and the 95 % **Wilson** score interval of that share
(the per-game scores taken as a binomial proportion, a draw as half a win: with draws the interval is a
little wider than it need be), then the command line. The match is bounded in time: no game starts
after ``--max-seconds`` (a game under way is finished), and the figures are of the games played.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from solver.necnon.model.position import BLACK, GREEN, Position, Turn
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.model.values import Evaluation
from solver.necnon.playing.play import Player, engine_player, play_game
from solver.necnon.searching.engine import SearchEngine

#: The normal quantile of a two-sided 95 % interval.
Z_95 = 1.959964


@dataclass(frozen=True)
class Setting:
    """How an engine thinks: ``seconds`` a turn, or exactly ``iterations`` playouts a turn when given;
    the engine of the source tree ``tree`` if given, else this checkout's."""

    seconds: float
    iterations: int | None
    tree: Path | None = None

    @classmethod
    def parse(cls, text: str) -> Setting:
        """``"time=0.5"`` or ``"iterations=2000"``, optionally followed by ``",tree=DIR"``;
        :class:`argparse.ArgumentTypeError` otherwise.

        >>> Setting.parse("iterations=2000"), Setting.parse(" time = 0.5 ").text()
        (Setting(seconds=1.0, iterations=2000, tree=None), '0.5 s a turn')
        >>> Setting.parse("time=2,tree=/tmp/main").text()
        '2 s a turn, the engine of /tmp/main'
        """
        thinking, _, rest = text.partition(",")
        name, _, value = (part.strip() for part in thinking.partition("="))
        tree_name, _, tree = (part.strip() for part in rest.partition("="))
        if rest and (tree_name != "tree" or not tree):
            raise argparse.ArgumentTypeError(f"{text!r}: expected time=S or iterations=N, then ,tree=DIR if any")
        where = Path(tree) if tree else None
        try:
            if name == "time" and float(value) > 0:
                return cls(float(value), None, where)
            if name == "iterations" and int(value) > 0:
                return cls(1.0, int(value), where)
        except ValueError:
            pass
        raise argparse.ArgumentTypeError(f"{text!r}: expected time=S or iterations=N (positive)")

    def spec(self) -> str:
        """The text :meth:`parse` reads back."""
        thinking = f"iterations={self.iterations}" if self.iterations is not None else f"time={self.seconds:g}"
        return thinking if self.tree is None else f"{thinking},tree={self.tree}"

    def text(self) -> str:
        thinking = f"{self.iterations:,} playouts a turn" if self.iterations is not None else f"{self.seconds:g} s a turn"
        return thinking if self.tree is None else f"{thinking}, the engine of {self.tree}"


# What a process of :class:`TreeEngine` runs: it reads a line ``new BOARD SETTING SEED SECONDS
# ITERATIONS`` (ITERATIONS "-" for none) or ``turn NOTATION`` and answers the latter with the turn's
# name. It uses only the API every version of the engine has had: ``SearchEngine(game, seed, seconds,
# iterations).choose(position)``.
_TREE_WORKER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import solver
if not solver.__file__.startswith(sys.argv[1]):
    sys.exit(f"solver was imported from {solver.__file__}, not from {sys.argv[1]}")
try:
    from solver.necnon.searching.engine import SearchEngine
    from solver.necnon.model.position import Position
    from solver.necnon.model.rules import Game
except ModuleNotFoundError:  # a tree from before the game's modules were grouped into packages
    from solver.necnon.engine import SearchEngine
    from solver.necnon.position import Position
    from solver.necnon.rules import Game
for line in sys.stdin:
    word, _, rest = line.rstrip("\n").partition(" ")
    if word == "new":
        board, setting, seed, seconds, iterations = rest.split(" ")
        game = Game.of(board, setting)
        engine = SearchEngine(game, int(seed), float(seconds), None if iterations == "-" else int(iterations))
    else:
        turn = engine.choose(Position.parse(rest, game))[0]
        print(turn.name(game.grid), flush=True)
"""


class TreeEngine:
    """The search engine of the source tree ``tree``, in a Python process of its own (so that two
    versions of the package can play each other); :meth:`player` makes its engine for a game. Close it
    (or use it in a ``with`` block) to end the process."""

    def __init__(self, tree: Path) -> None:
        necnon = tree / "solver" / "necnon"
        if not ((necnon / "searching" / "engine.py").is_file() or (necnon / "engine.py").is_file()):
            raise SystemExit(f"{tree} is not a source tree of this project (no NECNON search engine in solver/necnon)")
        self._process = subprocess.Popen([sys.executable, "-c", _TREE_WORKER, str(tree.resolve())],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def player(self, game: Game, seed: int, setting: Setting) -> Player:
        """A player that asks the process for the turns of a new engine of ``game``."""
        iterations = "-" if setting.iterations is None else str(setting.iterations)
        self._send(f"new {game.grid} {game.setting} {seed} {setting.seconds!r} {iterations}")

        def turn(position: Position) -> Turn:
            self._send(f"turn {position.notation()}")
            assert self._process.stdout is not None
            answer = self._process.stdout.readline()
            if not answer:
                raise SystemExit(f"the engine process ended (exit {self._process.wait()})")
            return position.parse_turn(answer.strip())
        return turn

    def _send(self, line: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()

    def __enter__(self) -> TreeEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def player(setting: Setting, game: Game, seed: int, tree: TreeEngine | None) -> Player:
    """The player of a side in one game: a new engine of this checkout, or of ``tree`` (the side's
    :class:`TreeEngine` if its setting names a source tree)."""
    if tree is None:
        return engine_player(SearchEngine(game, seed, setting.seconds, setting.iterations))
    return tree.player(game, seed, setting)


def play(game: Game, a: Setting, b: Setting, number: int, seed: int,
         trees: Mapping[str, TreeEngine] | None = None) -> tuple[int, float]:
    """Game ``number`` (from 1) of a match: its final margin (Black minus Green) and A's score in it
    (1, 1/2 or 0). A plays Black in odd games. ``trees``: the :class:`TreeEngine` of each side
    (``"a"``, ``"b"``) whose setting names a source tree."""
    trees = trees or {}
    engines = {side: player(setting, game, game_seed(seed, side, number), trees.get(side))
               for side, setting in (("a", a), ("b", b))}
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
    with contextlib.ExitStack() as processes:
        trees = {side: processes.enter_context(TreeEngine(setting.tree))
                 for side, setting in (("a", options.a), ("b", options.b)) if setting.tree is not None}
        for number in range(1, options.games + 1):
            if time.perf_counter() - began >= options.max_seconds:
                print(f"stopped after {len(scores)} games: --max-seconds {options.max_seconds:g} reached")
                break
            margin, score = play(game, options.a, options.b, number, options.seed, trees)
            scores.append(score)
            seats = "A Black, B Green" if number % 2 else "B Black, A Green"
            print(f"game {number}: {seats}: {Evaluation(margin, 0).result()}, A scores {score:g}", flush=True)
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
