"""Playing against the tables: the game loop of ``neutreeko play`` and the engines it offers.

A :class:`Match` reads lines (any iterable of strings: a terminal, a pipe, a list in a test) and writes
all its text through one ``write`` function, so the same code runs in a terminal, under click's
``CliRunner`` and in a plain unit test. Each colour is played by a person, who types a move as
``FROM-TO`` (any case) or a command (:data:`COMMANDS`), or by an engine of ``ENGINES``: a function
``(ranked, rng) -> RankedMove``, ``ranked`` being :meth:`~solver.neutreeko.querying.probe.Tablebase.moves`
of the position (every legal move, best first, valued for the player making it) and ``rng`` the
match's ``random.Random``, so that a match with a given seed replays exactly; ``fair`` slips one move
in :data:`FAIR_SLIP`.

A game ends with three in a row, a position's third occurrence (a draw), ``quit``, the end of input or
Ctrl-C (the end screen is shown, then the interrupt goes on). Every ply is judged as
:mod:`solver.neutreeko.playing.annotate` judges it; with ``coach`` a person's move gets a one-line
verdict at once. The end screen gives the result, every mistake and blunder of both sides, a summary
per side, and the game's record (:mod:`solver.neutreeko.playing.record`), which ``neutreeko annotate``
reads and ``neutreeko play --load`` continues. A match may begin with the moves of a record, and
writes its record to a file after every ply when given one (``--record``) or when asked (``save FILE``).

The engines and the end of a game: docs/guide/games.md.
"""

from __future__ import annotations

import difflib
import random
import re
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Mapping, NamedTuple

from solver.core.answers.notation import checked, quote
from solver.core.answers.session import Session, Write
from solver.core.errors import IllegalMoveError, NotationError
from solver.neutreeko.model.outcome import LINE_RESULTS, Outcome, Termination, ending
from solver.neutreeko.model.position import BLACK, WHITE, Colour, Move, Position
from solver.neutreeko.model.values import plies_text
from solver.neutreeko.playing import ENGINE_NAMES, SIDE_NAMES
from solver.neutreeko.playing.annotate import AnnotatedPly, Annotation
from solver.neutreeko.playing.record import GameRecord, numbered
from solver.neutreeko.querying import report
from solver.neutreeko.querying.probe import RankedMove, Tablebase, best_moves

#: An engine: the move it plays, chosen from every legal move ranked, with a random source.
Engine = Callable[[list[RankedMove], random.Random], RankedMove]

#: How often the fair engine plays a random safe move instead of a best one.
FAIR_SLIP = 0.2

#: ``--as``: the colours a person plays.
SIDES: dict[str, tuple[Colour, ...]] = dict(zip(SIDE_NAMES, ((BLACK,), (WHITE,), (BLACK, WHITE), ()), strict=True))

#: How a game ended: the endings of a line (a side won, or a draw by repetition), or stopped by ``quit``,
#: the end of input or Ctrl-C.
RESULTS = (*LINE_RESULTS[:3], "quit", "end of input", "interrupted")

#: What a person may type at the prompt besides a move, with what each does.
COMMANDS = {
    "hint": "the value of the position and of every legal move, best first",
    "undo": "take back your last move (and the reply to it)",
    "line": "the line of perfect play from here",
    "fen": "the position in notation",
    "save": "save the game so far as a record: save FILE",
    "help": "this list",
    "quit": "end the game",
}
#: What the marks of the board shown after each move mean (``play --help`` says it too).
MARKS = "On the board, the piece that moved last is in brackets ([w]) and * marks the square it left."
_ALIASES = {"?": "help", "exit": "quit"}
_GLUED_MOVE = re.compile(r"[a-z][0-9]+[a-z][0-9]+")
#: A first word longer than this is neither a move nor a command.
_LONGEST_WORD = 16


# -- engines ----------------------------------------------------------------------------------------

def perfect(ranked: list[RankedMove], rng: random.Random) -> RankedMove:
    """The best move, ties broken as :meth:`~solver.neutreeko.querying.probe.Tablebase.line` breaks them."""
    return ranked[0]


def strong(ranked: list[RankedMove], rng: random.Random) -> RankedMove:
    """A random move among those ranked equal to the best: same value, same plies."""
    return rng.choice(best_moves(ranked))


def fair(ranked: list[RankedMove], rng: random.Random) -> RankedMove:
    """Usually :func:`strong`; one move in :data:`FAIR_SLIP` a random move that does not lose at once
    (after which the opponent cannot win with its next move), or any move if every move does."""
    if rng.random() >= FAIR_SLIP:
        return strong(ranked, rng)
    safe = [move for move in ranked if not (move.value == "loss" and move.plies is not None and move.plies <= 2)]
    return rng.choice(safe or ranked)


def random_move(ranked: list[RankedMove], rng: random.Random) -> RankedMove:
    """Any legal move."""
    return rng.choice(ranked)


#: The engines by name (:data:`~solver.neutreeko.playing.ENGINE_NAMES`), best first.
ENGINES: dict[str, Engine] = dict(zip(ENGINE_NAMES, (perfect, strong, fair, random_move), strict=True))


# -- the record of a game ---------------------------------------------------------------------------

class Ply(NamedTuple):
    """One move of a game: the side that made it, the position before it, the move as ranked there
    (its value for ``side``, and the position after it) and the move judged."""

    side: Colour
    before: Position
    played: RankedMove
    note: AnnotatedPly


class PlayedGame(NamedTuple):
    """A game as it ended: its :class:`~solver.neutreeko.model.outcome.Outcome`, its plies and its last
    position."""

    outcome: Outcome
    plies: tuple[Ply, ...]
    position: Position

    @property
    def result(self) -> str:
        """How the game ended, one of :data:`RESULTS`."""
        return self.outcome.result


def move_list(start: Position, plies: Iterable[Ply]) -> str:
    """The moves numbered as in chess: ``1. C4-C3 D5-D2 2. B1-B4``; ``1... D5-D2`` if White began."""
    return " ".join(numbered(start, (ply.played.name for ply in plies)))


# -- the game loop ----------------------------------------------------------------------------------

def new_seed() -> int:
    """A seed for a match that was given none (shown, so that the game can be replayed)."""
    return random.SystemRandom().randrange(1_000_000)


def _print(text: str) -> None:
    print(text, end="", flush=True)


class Match(Session[Ply, PlayedGame]):
    """A game from ``start`` between persons and engines (see :class:`~solver.core.answers.session.Session`).

    ``engines`` maps ``"black"`` and/or ``"white"`` to an :data:`Engine`; a colour without one is played
    by a person through the lines given to :meth:`~solver.core.answers.session.Session.run`. ``write``
    receives all output, prompts without a line end; with ``echo_input`` each line read is written after
    its prompt (for piped input, so that the transcript reads like a terminal session). With ``coach``,
    each move a person makes gets a one-line verdict. With ``record_path``, the record is written there
    after every ply and at the end; ``tags`` are tags of the record besides the players' (kept from a
    record the game continues).
    """

    program = "neutreeko"
    commands = COMMANDS
    how_to_move = "Type a move as FROM-TO, e.g. C4-C3 (a piece slides as far as it can), or a command:"
    marks = MARKS

    def __init__(self, tablebase: Tablebase, start: Position, engines: Mapping[Colour, Engine],
                 rng: random.Random | None = None, write: Write = _print, echo_input: bool = False,
                 seed: int | None = None, opponent: str | None = None, coach: bool = False,
                 record_path: Path | None = None, tags: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(write, echo_input, record_path)
        self.tablebase = tablebase
        self.start = start
        self.engines = dict(engines)
        self.rng = rng if rng is not None else random.Random(seed)
        self.seed = seed
        self.opponent = opponent
        self.coach = coach
        self.tags = tuple((name, value) for name, value in tags if name not in ("Black", "White"))
        self._seen = Counter([start])

    @classmethod
    def setup(cls, tablebase: Tablebase, game: GameRecord, you: str = BLACK, opponent: str = "strong",
              seed: int | None = None, write: Write = _print, echo_input: bool = False, coach: bool = False,
              record_path: Path | None = None) -> Match:
        """The match ``neutreeko play`` runs, from the start of ``game`` and after its moves (a record
        with no moves for a new game): a person plays the colours of ``you`` (a key of :data:`SIDES`),
        the ``opponent`` engine (a key of :data:`ENGINES`) the others. Without a seed, one is drawn and
        shown, so that any game can be replayed."""
        seed = new_seed() if seed is None else seed
        engine = ENGINES[opponent]
        engines = {side: engine for side in (BLACK, WHITE) if side not in SIDES[you]}
        match = cls(tablebase, game.start, engines, write=write, echo_input=echo_input, seed=seed,
                    opponent=opponent, coach=coach, tags=game.tags)
        for move in game.moves:
            match._push(match.position, move)
        match.record_path = record_path  # written from the first new ply on
        return match

    @property
    def position(self) -> Position:
        """The position now."""
        return self.plies[-1].played.position if self.plies else self.start

    @property
    def persons(self) -> tuple[Colour, ...]:
        """The colours played by a person."""
        return tuple(side for side in (BLACK, WHITE) if side not in self.engines)

    def record(self) -> GameRecord:
        """The game so far as a record, the players named (``person``, ``strong engine, seed 5``)."""
        engine = f"{self.opponent or 'an'} engine" + (f", seed {self.seed}" if self.seed is not None else "")
        players = [(side.capitalize(), "person" if side in self.persons else engine) for side in (BLACK, WHITE)]
        return GameRecord(self.start, tuple(ply.played.move for ply in self.plies), (*players, *self.tags))

    def _check_tables(self) -> None:
        self.tablebase.table(self.start.game)

    def _over(self) -> bool:
        return ending(self.position, self._seen[self.position]) is not None

    def _person_to_move(self) -> bool:
        return self.position.side_to_move not in self.engines

    def _by_person(self, ply: Ply) -> bool:
        return ply.before.side_to_move in self.persons

    def _name(self, ply: Ply) -> str:
        return ply.played.name

    def _counted(self, count: int) -> str:
        return plies_text(count)

    # -- one turn -----------------------------------------------------------------------------------

    def _machine_move(self) -> None:
        side = self.position.side_to_move
        chosen = self.engines[side](self.tablebase.moves(self.position), self.rng)
        self._push(self.position, chosen.move)
        self._say(f"{side.capitalize()} plays {chosen.name}")

    def _command(self, text: str) -> str | None:
        """Carry out a person's line; return what it was ("move", "undo", "quit", ...) or None if it
        was not understood."""
        word, _, argument = text.strip(" ").partition(" ")
        try:
            word = checked(word, "move or command", _LONGEST_WORD).lower()
        except NotationError as error:
            self._say(str(error))
            return None
        word = _ALIASES.get(word, word)
        if not word:
            return None
        if word not in COMMANDS and "-" in word:
            return "move" if self._person_move(text.strip()) else None
        if word not in COMMANDS:
            self._say(self._unknown(word))
            return None
        if word == "hint":
            self._say("\n".join(report.ranking_lines(self.position, self.tablebase.probe(self.position),
                                                     self.tablebase.moves(self.position))))
        elif word == "line":
            self._say(report.line_text(self.tablebase.line(self.position)))
        elif word == "fen":
            self._say(self.position.fen())
        else:
            return self._shared_command(word, argument.strip())
        return word

    def _person_move(self, text: str) -> bool:
        position = self.position
        try:
            move = position.parse_move(text)
        except IllegalMoveError:
            legal = " ".join(sorted(legal.name(position.game.board) for legal in position.moves()))
            self._say(f"{text.upper()} is not a legal move here (a piece slides as far as it can). "
                      f"Legal moves: {legal}")
            return False
        except NotationError as error:
            self._say(f"{error}")
            return False
        note = self._push(position, move)
        if self.coach:
            self._say(f"coach: {note.verdict()}")
        return True

    def _take_back(self, back: int) -> None:
        while len(self.plies) > back:
            self._seen[self.plies.pop().played.position] -= 1

    def _push(self, position: Position, move: Move) -> AnnotatedPly:
        """Play ``move`` (legal) in ``position``, the position now, judge it, and keep the record."""
        ranked = self.tablebase.moves(position)
        played = next((entry for entry in ranked if entry.move == move), None)
        if played is None:
            raise IllegalMoveError(f"move {move.name(position.game.board)} is not legal in {position.fen()}")
        note = AnnotatedPly.of(len(self.plies) + 1, self.start, position, ranked, played)
        self.plies.append(Ply(position.side_to_move, position, played, note))
        self._seen[played.position] += 1
        self._keep_record()
        return note

    # -- the end ------------------------------------------------------------------------------------

    def annotation(self) -> Annotation:
        """The game so far, judged (see :mod:`solver.neutreeko.playing.annotate`)."""
        position = self.position
        return Annotation(self.start, self.tablebase.probe(self.start), tuple(ply.note for ply in self.plies),
                          position, self.tablebase.probe(position), ending(position, self._seen[position]))

    def _finish(self, stopped: str) -> PlayedGame:
        position = self.position
        ended = ending(position, self._seen[position])
        outcome = ended if ended is not None and not stopped else Outcome(Termination(stopped))
        if not outcome.finished:
            headline = f"game stopped ({outcome.result}) after {plies_text(len(self.plies))}"
        else:
            self._say(self._board(status=False))
            headline = (f"{outcome.winner.capitalize()} wins: " if outcome.winner else "draw by repetition: ") \
                + outcome.reason(position)
        lines = [f"== {headline} =="]
        if not outcome.finished:
            lines.append(f"with best play from here: {report.describe(position, self.tablebase.probe(position))}")
        lines += self._judgement(outcome)
        self._end(lines, stopped)
        return PlayedGame(outcome, tuple(self.plies), position)

    def _judgement(self, outcome: Outcome) -> list[str]:
        """Every mistake and blunder of both sides, then a line per side."""
        annotation = self.annotation()
        errors = annotation.errors()
        lines = ["mistakes and blunders:" if errors else "no mistakes or blunders: every move kept the value"]
        lines += [f"  {ply.side.capitalize()} {ply.verdict()}" for ply in errors]
        for side in (BLACK, WHITE):
            summary = annotation.summary(side)
            if not summary.moves:
                continue
            lines.append(summary.text())
            if outcome.termination is Termination.REPETITION and not summary.mistakes + summary.blunders and \
                    any(ply.side == side and ply.before.value == "win" for ply in annotation.plies):
                # Every move kept a win, but not a shortening one: the game went round in circles.
                lines.append(f"  {side.capitalize()} kept a win with every move but let positions repeat; "
                             f"the fastest wins (hint lists them first) cannot repeat.")
        return lines

    # -- text ---------------------------------------------------------------------------------------

    def _introduction(self) -> str:
        game = self.start.game
        engine = f"the {self.opponent} engine" if self.opponent else "the engine"
        seed = f" (seed {self.seed})" if self.seed is not None else ""
        going_on = "" if self.start == Position.start(game) else f"\nThe game starts from {self.start.fen()}."
        if self.plies:
            going_on += f"\nThe game goes on after {plies_text(len(self.plies))}: {move_list(self.start, self.plies)}"
        if not self.persons:
            return f"Neutreeko {game}: {engine} plays both sides{seed}.{going_on}"
        if len(self.persons) == 2:
            who = "You play both sides."
        else:
            other = WHITE if self.persons[0] == BLACK else BLACK
            who = f"You play {self.persons[0].capitalize()}, {engine} plays {other.capitalize()}{seed}."
        return f"Neutreeko {game}. {who}{going_on}\nType a move such as C4-C3, or help."

    def _board(self, status: bool = True) -> str:
        position = self.position
        last = self.plies[-1].played.move if self.plies else None
        text = position.diagram(last)
        if status:
            text += f"\n{position.side_to_move.capitalize()} to move ({plies_text(len(self.plies))} played)"
        return text

    def _unknown(self, word: str) -> str:
        if _GLUED_MOVE.fullmatch(word):
            return f"write a move with a dash between the squares, e.g. {word[:2].upper()}-{word[2:].upper()}"
        close = difflib.get_close_matches(word, COMMANDS, n=1)
        suggestion = f"; did you mean {close[0]}?" if close else "; type help for the commands"
        return f"unknown command {quote(word)}{suggestion}"
