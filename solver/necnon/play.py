"""Playing NECNON in the terminal: the game loop of ``necnon play`` and its opponents.

A :class:`Match` reads lines (a terminal, a pipe, a list in a test) and writes all its text through one
``write`` function. Each colour is played by a person, who types turns and commands, or by an opponent:

=======  =======================================================================================
perfect  the table's best turn (the first of :meth:`Tablebase.turns <solver.necnon.probe.Tablebase.turns>`)
mcts     the search engine of :mod:`solver.necnon.engine`, for boards too large to solve
random   any legal turn, uniformly
=======  =======================================================================================

A person types a turn (``c3,d4``, ``c3`` or ``pass``) or a command (:data:`COMMANDS`). ``hint`` shows
the table's view of the position (its value and the best turns) where there is a table, else the
engine's view (the most visited turns of a search). The game ends as the rules say, or with ``quit``
or the end of input; the end shows the score, the turns played and, with a table, the first turn of
each person that made the value worse for them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from solver.core.console import read_line
from solver.core.errors import IllegalMoveError, MissingTableError, NotationError
from solver.necnon import report
from solver.necnon.engine import SearchEngine
from solver.necnon.position import BLACK, GREEN, Colour, Position, Turn
from solver.necnon.probe import Tablebase
from solver.necnon.rules import Game
from solver.necnon.table import open_table
from solver.necnon.values import Evaluation, turns_text

Write = Callable[[str], None]

#: ``--opponent``: who plays the colours a person does not.
ENGINES = ("perfect", "mcts", "random")
#: ``--as``: the colours a person plays.
SIDES: dict[str, tuple[Colour, ...]] = {BLACK: (BLACK,), GREEN: (GREEN,), "both": (BLACK, GREEN), "none": ()}
COMMANDS = {
    "hint": "the table's value of the position and its best turns, or the engine's view",
    "undo": "take back your last turn (and the reply to it)",
    "line": "the line of perfect play from here (with a table)",
    "board": "the board and the position in notation",
    "help": "this list",
    "quit": "end the game",
}
_HINT_TURNS = 10


def table_exists(game: Game, table_file: Path | None = None) -> bool:
    """Is there a table of ``game`` (at ``table_file``, or in the default place)? A table that is
    there but cannot be used raises :class:`~solver.core.errors.TableError`."""
    try:
        open_table(game, table_file)
    except MissingTableError:
        return False
    return True


class Ply(NamedTuple):
    """One turn of a game: who made it, whether a person did, the position before it and the turn."""

    side: Colour
    by_person: bool
    before: Position
    turn: Turn


class PlayedGame(NamedTuple):
    """A game as it ended: its turns, its last position, and whether it was finished by the rules."""

    plies: tuple[Ply, ...]
    position: Position
    finished: bool


class Match:
    """A game from ``start``: ``opponent`` (one of :data:`ENGINES`) plays the colours not in ``persons``.
    ``tablebase`` (needed by the perfect opponent) answers hints and lines when given; the search
    engine, made when first needed, thinks ``seconds`` a turn or runs ``iterations`` playouts."""

    def __init__(self, start: Position, persons: tuple[Colour, ...], opponent: str, tablebase: Tablebase | None,
                 seed: int, seconds: float = 2.0, iterations: int | None = None, write: Write = print,
                 echo_input: bool = False) -> None:
        if opponent == "perfect" and tablebase is None:
            raise ValueError("the perfect opponent needs a tablebase")
        self.start, self.persons, self.opponent, self.tablebase = start, persons, opponent, tablebase
        self.seed, self.seconds, self.iterations = seed, seconds, iterations
        self.rng = random.Random(seed)
        self.echo_input = echo_input
        self._write = write
        self._search: SearchEngine | None = None
        self.plies: list[Ply] = []

    @classmethod
    def setup(cls, start: Position, you: str = BLACK, opponent: str = "perfect", tablebase: Tablebase | None = None,
              seed: int | None = None, seconds: float = 2.0, iterations: int | None = None,
              write: Write = print, echo_input: bool = False) -> Match:
        """The match ``necnon play`` runs: a person plays the colours of ``you`` (a key of :data:`SIDES`).
        Without a seed, one is drawn and shown, so that a game can be replayed."""
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        return cls(start, SIDES[you], opponent, tablebase, seed, seconds, iterations, write, echo_input)

    @property
    def position(self) -> Position:
        """The position now."""
        return self.plies[-1].before.play(self.plies[-1].turn) if self.plies else self.start

    def run(self, lines: Iterable[str]) -> PlayedGame:
        """Play until the game ends, reading the persons' input from ``lines``."""
        lines = iter(lines)
        if self.tablebase is not None:
            self.tablebase.table(self.start.game)  # a missing or broken table fails here, before any play
        self._say(self._introduction())
        show_board = True
        while not self.position.over:
            side = self.position.side_to_move
            if side not in self.persons:
                self._opponent_turn(side)
                show_board = True
                continue
            if show_board:
                self._say(self._board())
                show_board = False
            text = self._read(lines, f"{side.capitalize()}> ")
            if text is None:
                return self._finish(False, "end of input")
            command = self._command(text)
            if command == "quit":
                return self._finish(False, "quit")
            show_board = command in ("turn", "undo")
        return self._finish(True, "")

    # -- one turn ------------------------------------------------------------------------------------------

    def _opponent_turn(self, side: Colour) -> None:
        position = self.position
        if self.opponent == "random":
            turn = self.rng.choice(position.turns())
        elif self.tablebase is not None and self.opponent == "perfect":
            turn = self.tablebase.turns(position)[0].turn
        else:
            turn, _ = self._engine().choose(position)
        self.plies.append(Ply(side, False, position, turn))
        self._say(f"{side.capitalize()} plays {turn.name(position.game.grid)}")

    def _engine(self) -> SearchEngine:
        if self._search is None:
            self._search = SearchEngine(self.start.game, self.seed, self.seconds, self.iterations)
        return self._search

    def _command(self, text: str) -> str | None:
        """Carry out a person's line; return what it was (``"turn"``, a command) or None if not understood."""
        word = text.strip(" ").lower()
        if not word:
            return None
        if word in COMMANDS:
            return self._run_command(word)
        position = self.position
        try:
            turn = position.parse_turn(word)
        except IllegalMoveError as error:
            self._say(f"{error}")
            return None
        except NotationError as error:
            self._say(f"{error}; type help for the commands")
            return None
        self.plies.append(Ply(position.side_to_move, True, position, turn))
        return "turn"

    def _run_command(self, word: str) -> str | None:
        if word == "hint":
            self._say("\n".join(self._hint()))
        elif word == "undo":
            return word if self._undo() else None
        elif word == "line":
            if self.tablebase is None:
                self._say("no table for this board: the line of perfect play needs one (try hint)")
            else:
                self._say(report.line_text(self.tablebase.line(self.position)))
        elif word == "board":
            self._say(f"{self._board(status=False)}\n{self.position.notation()}")
        elif word == "help":
            self._say(self._help())
        return word

    def _hint(self) -> list[str]:
        position = self.position
        if self.tablebase is not None:
            return report.ranking_lines(position, self.tablebase.probe(position), self.tablebase.turns(position),
                                        limit=_HINT_TURNS)
        return self._engine().search(position).lines(_HINT_TURNS)

    def _undo(self) -> bool:
        """Take back turns up to the last one a person made. False if there is none."""
        back = next((number for number in reversed(range(len(self.plies))) if self.plies[number].by_person), None)
        if back is None:
            self._say("nothing to undo")
            return False
        taken = [ply.turn.name(self.start.game.grid) for ply in self.plies[back:]]
        del self.plies[back:]
        self._say(f"took back {' '.join(taken)}")
        return True

    def _read(self, lines: Iterator[str], prompt: str) -> str | None:
        """The next line without its line end, after writing ``prompt``; None at the end of input."""
        return read_line(lines, prompt, self._write, self.echo_input)

    # -- the end -------------------------------------------------------------------------------------------

    def _finish(self, finished: bool, stopped: str) -> PlayedGame:
        position = self.position
        lines = []
        if finished:
            self._say(self._board(status=False))
            lines.append(f"== {Evaluation(position.margin(), 0).result()}: {report.final_score(position)} ==")
        else:
            lines.append(f"== game stopped ({stopped}) after {turns_text(len(self.plies))} ==")
            if self.tablebase is not None:
                lines.append(f"with perfect play from here: {report.describe(position, self.tablebase.probe(position))}")
        grid = self.start.game.grid
        lines.append("turns: " + (" ".join(f"{number}.{ply.turn.name(grid)}" for number, ply in enumerate(self.plies, 1))
                                  or "(none)"))
        if self.tablebase is not None:
            lines += [self._slip(side, self.tablebase) for side in self.persons
                      if any(ply.side == side for ply in self.plies)]
        self._say("\n".join(lines))
        return PlayedGame(tuple(self.plies), position, finished)

    def _slip(self, side: Colour, tablebase: Tablebase) -> str:
        """The first turn of ``side`` that made the value worse for it, with a better one, if any."""
        black = side == BLACK
        for number, ply in enumerate(self.plies, 1):
            if ply.side != side:
                continue
            before = tablebase.probe(ply.before)
            after = tablebase.probe(ply.before.play(ply.turn))
            if after.gain(black) < before.gain(black):
                best = tablebase.turns(ply.before)[0]
                return (f"{side.capitalize()}'s turn {number}, {ply.turn.name(self.start.game.grid)}, made the value "
                        f"{after.label()} (from {before.label()}); {best.name} kept {before.label()}.")
        return f"{side.capitalize()} kept the best value with every turn."

    # -- text ----------------------------------------------------------------------------------------------

    def _introduction(self) -> str:
        game = self.start.game
        opponent = {"perfect": "the table", "mcts": "the search engine", "random": "a random player"}[self.opponent]
        head = f"NECNON {game} ({game.grid.describe()}; Black {game.black.value}, Green {game.green.value})"
        if not self.persons:
            return f"{head}: {opponent} plays both sides (seed {self.seed})."
        if len(self.persons) == 2:
            return f"{head}. You play both sides.\nType a turn such as c3,d4 (c3 for one stone, pass), or help."
        other = GREEN if self.persons[0] == BLACK else BLACK
        return (f"{head}. You play {self.persons[0].capitalize()}, {opponent} plays {other.capitalize()} "
                f"(seed {self.seed}).\nType a turn such as c3,d4 (c3 for one stone, pass), or help.")

    def _board(self, status: bool = True) -> str:
        position = self.position
        text = position.diagram(self.plies[-1].turn if self.plies else None)
        if status and not position.over:
            allowed = len(position.allowed())
            text += (f"\n{position.side_to_move.capitalize()} to move ({turns_text(len(self.plies))} played; "
                     f"+ marks the {allowed} allowed cell{'s' * (allowed != 1)})")
        return text

    def _help(self) -> str:
        width = max(len(name) for name in COMMANDS)
        return "\n".join(["Type a turn: two allowed cells (c3,d4), one when only one is allowed (or on the "
                          "first turn), or pass when none is. Commands:",
                          *(f"  {name:<{width}}  {text}" for name, text in COMMANDS.items())])

    def _say(self, text: str) -> None:
        self._write(text + "\n")
