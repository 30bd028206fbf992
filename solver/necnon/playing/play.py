"""Playing NECNON in the terminal: the game loop of ``necnon play`` and its opponents.

A :class:`Match` reads lines (a terminal, a pipe, a list in a test) and writes all its text through one
``write`` function. Each colour is played by a person, who types turns and commands, or by an opponent:

=======  =======================================================================================
perfect  the table's best turn (the first of :meth:`Tablebase.turns <solver.necnon.querying.probe.Tablebase.turns>`)
mcts     the search engine of :mod:`solver.necnon.searching.engine`, for boards too large to solve
random   any legal turn, uniformly
=======  =======================================================================================

A person types a turn (``c3,d4``, ``c3`` or ``pass``) or a command (:data:`COMMANDS`). ``hint`` shows
the table's view of the position (its value and the best turns) where there is a table, else the
engine's view (the most visited turns of a search). The game ends as the rules say, with ``quit``, at
the end of input or with Ctrl-C (the end is shown, then the interrupt goes on, so that the command
exits 130). The end shows the score, with a table every turn that gave points away and a summary per
side (as :mod:`solver.necnon.playing.annotate` judges them), and the game's record
(:mod:`solver.necnon.playing.record`), which ``necnon annotate`` reads and ``necnon play --load`` continues. A
match may begin with the turns of a record, and writes its record to a file after every turn when
given one (``--record``) or when asked (``save FILE``).

A game with no person in it is also :func:`play_game`: each colour a :data:`Player` (a function from a
position to the turn played there: :func:`perfect_player`, :func:`engine_player`, :func:`random_player`,
the same choices the opponents of a match make), played to the end with no output; the scripts that
measure the engine run their games with it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Iterable, Mapping, NamedTuple

from solver.core.answers.session import Session, Write
from solver.core.errors import IllegalMoveError, MissingTableError, NotationError
from solver.core.storage.remote import Location
from solver.necnon.model.position import BLACK, GREEN, Colour, Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.model.values import Evaluation, turns_text
from solver.necnon.playing.annotate import annotate
from solver.necnon.playing.record import GameRecord, numbered
from solver.necnon.querying import report
from solver.necnon.querying.judge import TableJudge
from solver.necnon.querying.probe import Tablebase
from solver.necnon.searching.engine import SearchEngine
from solver.necnon.tables.table import open_table

#: A machine player: the turn it plays in a position that is not over.
Player = Callable[[Position], Turn]

#: ``--opponent``: who plays the colours a person does not.
ENGINES = ("perfect", "mcts", "random")
#: ``--as``: the colours a person plays.
SIDES: dict[str, tuple[Colour, ...]] = {BLACK: (BLACK,), GREEN: (GREEN,), "both": (BLACK, GREEN), "none": ()}
#: What a person may type at the prompt besides a turn, with what each does.
COMMANDS = {
    "hint": "the table's value of the position and its best turns, or the engine's view",
    "undo": "take back your last turn (and the reply to it)",
    "line": "the line of perfect play from here (with a table)",
    "board": "the board and the position in notation",
    "save": "save the game so far as a record: save FILE",
    "help": "this list",
    "quit": "end the game",
}
#: What the marks of the board shown before each turn mean (``play --help`` says it too).
MARKS = ("On the board, the stones of the last turn are in upper case (B, G) and + marks the cells allowed "
         "to the side to move.")
_HINT_TURNS = 10


def table_exists(game: Game, table_file: Location | None = None) -> bool:
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


def perfect_player(tablebase: Tablebase) -> Player:
    """The perfect player: the first of :meth:`Tablebase.turns <solver.necnon.querying.probe.Tablebase.turns>`
    (deterministic). Raises what the probes raise (a missing table)."""
    return lambda position: tablebase.turns(position)[0].turn


def engine_player(engine: SearchEngine) -> Player:
    """The search engine's choice (:meth:`SearchEngine.choose <solver.necnon.searching.engine.SearchEngine.choose>`),
    thinking as ``engine`` was made to."""
    return lambda position: engine.choose(position)[0]


def random_player(rng: random.Random) -> Player:
    """Any legal turn, uniformly, drawn from ``rng``."""
    return lambda position: rng.choice(position.turns())


def play_game(start: Position, players: Mapping[Colour, Player]) -> PlayedGame:
    """The game from ``start`` to its end by the rules, each colour's turns chosen by its player in
    ``players`` (keyed :data:`~solver.necnon.model.position.BLACK` and :data:`~solver.necnon.model.position.GREEN`);
    nothing is written. The plies are marked as not a person's, and the game as finished.

    >>> from solver.necnon.model.rules import Game
    >>> start = Position.empty(Game.of("2x2"))
    >>> first = lambda position: position.turns()[0]
    >>> game = play_game(start, {BLACK: first, GREEN: first})
    >>> game.position.over, len(game.plies) > 0
    (True, True)
    """
    plies: list[Ply] = []
    position = start
    while not position.over:
        side = position.side_to_move
        turn = players[side](position)
        plies.append(Ply(side, False, position, turn))
        position = position.play(turn)
    return PlayedGame(tuple(plies), position, True)


class Match(Session[Ply, PlayedGame]):
    """A game from ``start`` (see :class:`~solver.core.answers.session.Session`): ``opponent`` (one of
    :data:`ENGINES`) plays the colours not in ``persons``.
    ``tablebase`` (needed by the perfect opponent) answers hints and lines and judges the game when
    given; the search engine, made when first needed, thinks ``seconds`` a turn or runs ``iterations``
    playouts. With ``record_path``, the record is written there after every turn and at the end;
    ``tags`` are tags of the record besides the players' (kept from a record the game continues)."""

    program = "necnon"
    commands = COMMANDS
    how_to_move = ("Type a turn: two allowed cells (c3,d4), one when only one is allowed (or on the first turn), "
                   "or pass when none is. Commands:")
    marks = MARKS

    def __init__(self, start: Position, persons: tuple[Colour, ...], opponent: str, tablebase: Tablebase | None,
                 seed: int, seconds: float = 2.0, iterations: int | None = None, write: Write = print,
                 echo_input: bool = False, record_path: Path | None = None,
                 tags: Iterable[tuple[str, str]] = ()) -> None:
        if opponent == "perfect" and tablebase is None:
            raise ValueError("the perfect opponent needs a tablebase")
        super().__init__(write, echo_input, record_path)
        self.start, self.persons, self.opponent, self.tablebase = start, persons, opponent, tablebase
        self.seed, self.seconds, self.iterations = seed, seconds, iterations
        self.rng = random.Random(seed)
        self.tags = tuple((name, value) for name, value in tags if name not in ("Black", "Green"))
        self._search: SearchEngine | None = None

    @classmethod
    def setup(cls, game: GameRecord, you: str = BLACK, opponent: str = "perfect", tablebase: Tablebase | None = None,
              seed: int | None = None, seconds: float = 2.0, iterations: int | None = None,
              write: Write = print, echo_input: bool = False, record_path: Path | None = None) -> Match:
        """The match ``necnon play`` runs, from the start of ``game`` and after its turns (a record with
        no turns for a new game): a person plays the colours of ``you`` (a key of :data:`SIDES`).
        Without a seed, one is drawn and shown, so that a game can be replayed."""
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        match = cls(game.start, SIDES[you], opponent, tablebase, seed, seconds, iterations, write, echo_input,
                    tags=game.tags)
        for before, turn in zip(game.positions, game.turns):
            match.plies.append(Ply(before.side_to_move, before.side_to_move in match.persons, before, turn))
        match.record_path = record_path  # written from the first new turn on
        return match

    def record(self) -> GameRecord:
        """The game so far as a record, the players named (``person``, ``mcts, seed 5, 2 s a turn``)."""
        players = [(side.capitalize(), "person" if side in self.persons else self._opponent_name())
                   for side in (BLACK, GREEN)]
        return GameRecord(self.start, tuple(ply.turn for ply in self.plies), (*players, *self.tags))

    def _opponent_name(self) -> str:
        if self.opponent == "perfect":
            return "perfect (the table)"
        if self.opponent == "random":
            return f"random, seed {self.seed}"
        thinking = f"{self.iterations:,} playouts" if self.iterations is not None else f"{self.seconds:g} s"
        return f"mcts, seed {self.seed}, {thinking} a turn"

    @property
    def position(self) -> Position:
        """The position now."""
        return self.plies[-1].before.play(self.plies[-1].turn) if self.plies else self.start

    def _check_tables(self) -> None:
        if self.tablebase is not None:
            self.tablebase.table(self.start.game)

    def _over(self) -> bool:
        return self.position.over

    def _person_to_move(self) -> bool:
        return self.position.side_to_move in self.persons

    def _by_person(self, ply: Ply) -> bool:
        return ply.by_person

    def _name(self, ply: Ply) -> str:
        return ply.turn.name(self.start.game.grid)

    def _counted(self, count: int) -> str:
        return turns_text(count)

    # -- one turn ------------------------------------------------------------------------------------------

    def _machine_move(self) -> None:
        position = self.position
        side = position.side_to_move
        if self.opponent == "random":
            turn = random_player(self.rng)(position)
        elif self.tablebase is not None and self.opponent == "perfect":
            turn = perfect_player(self.tablebase)(position)
        else:
            turn = engine_player(self._engine())(position)
        self.plies.append(Ply(side, False, position, turn))
        self._keep_record()
        self._say(f"{side.capitalize()} plays {turn.name(position.game.grid)}")

    def _engine(self) -> SearchEngine:
        if self._search is None:
            self._search = SearchEngine(self.start.game, self.seed, self.seconds, self.iterations)
        return self._search

    def _command(self, text: str) -> str | None:
        """Carry out a person's line; return what it was (``"move"``, a command) or None if not understood."""
        word = text.strip(" ").lower()
        if not word:
            return None
        first, _, argument = text.strip(" ").partition(" ")
        if first.lower() == "save":
            return self._shared_command("save", argument.strip(" "))
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
        self._keep_record()
        return "move"

    def _run_command(self, word: str) -> str | None:
        if word == "hint":
            self._say("\n".join(self._hint()))
        elif word == "line":
            if self.tablebase is None:
                self._say("no table for this board: the line of perfect play needs one (try hint)")
            else:
                self._say(report.line_text(self.tablebase.line(self.position)))
        elif word == "board":
            self._say(f"{self._board(status=False)}\n{self.position.notation()}")
        elif word != "quit":
            return self._shared_command(word, "")
        return word

    def _hint(self) -> list[str]:
        position = self.position
        if self.tablebase is not None:
            return report.ranking_lines(position, self.tablebase.probe(position), self.tablebase.turns(position),
                                        limit=_HINT_TURNS)
        return self._engine().search(position).lines(_HINT_TURNS)

    # -- the end -------------------------------------------------------------------------------------------

    def _finish(self, stopped: str) -> PlayedGame:
        position = self.position
        lines = []
        if not stopped:
            self._say(self._board(status=False))
            lines.append(f"== {Evaluation(position.margin(), 0).result()}: {report.final_score(position)} ==")
        else:
            lines.append(f"== game stopped ({stopped}) after {turns_text(len(self.plies))} ==")
            if self.tablebase is not None:
                lines.append(f"with perfect play from here: {report.describe(position, self.tablebase.probe(position))}")
        if self.tablebase is not None and self.plies:
            lines += self._judgement(self.record(), self.tablebase)
        self._end(lines, stopped)
        return PlayedGame(tuple(self.plies), position, not stopped)

    @staticmethod
    def _judgement(record: GameRecord, tablebase: Tablebase) -> list[str]:
        """Every turn of either side that gave points away, then a line per side."""
        annotation = annotate(TableJudge(tablebase), record)
        errors = annotation.errors()
        lines = ["turns that gave points away:" if errors else "no turn gave a point away"]
        lines += [f"  {turn.side.capitalize()} {turn.verdict()}" for turn in errors]
        lines += [annotation.summary(side).text() for side in (BLACK, GREEN) if annotation.summary(side).turns]
        return lines

    # -- text ----------------------------------------------------------------------------------------------

    def _introduction(self) -> str:
        game = self.start.game
        opponent = {"perfect": "the table", "mcts": "the search engine", "random": "a random player"}[self.opponent]
        head = f"NECNON {game} ({game.grid.describe()}; Black {game.black.value}, Green {game.green.value})"
        going_on = "" if self.start.first_turn else f"\nThe game starts from {self.start.notation()}."
        if self.plies:
            played = " ".join(numbered(self.record().names()))
            going_on += f"\nThe game goes on after {turns_text(len(self.plies))}: {played}"
        prompt = "\nType a turn such as c3,d4 (c3 for one stone, pass), or help."
        if not self.persons:
            return f"{head}: {opponent} plays both sides (seed {self.seed}).{going_on}"
        if len(self.persons) == 2:
            return f"{head}. You play both sides.{going_on}{prompt}"
        other = GREEN if self.persons[0] == BLACK else BLACK
        return (f"{head}. You play {self.persons[0].capitalize()}, {opponent} plays {other.capitalize()} "
                f"(seed {self.seed}).{going_on}{prompt}")

    def _board(self, status: bool = True) -> str:
        position = self.position
        text = position.diagram(self.plies[-1].turn if self.plies else None)
        if status and not position.over:
            allowed = len(position.allowed())
            text += (f"\n{position.side_to_move.capitalize()} to move ({turns_text(len(self.plies))} played; "
                     f"+ marks the {allowed} allowed cell{'s' * (allowed != 1)})")
        return text
