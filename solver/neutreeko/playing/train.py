"""Training on puzzles: ``neutreeko train`` shows puzzles one after another and judges the answers.

A :class:`Drill` is a sequence of :class:`Exercise`: a position, won or drawn for the side to move,
and every move that keeps its value (:func:`~solver.neutreeko.querying.probe.keeping_moves`). They come from
:func:`~solver.neutreeko.playing.puzzles.find_puzzles` (exactly one right move) or from the mistakes and
blunders of an annotated game (:func:`from_game`: the position before each, where any value-keeping
move is right, so there may be several).

For each exercise the drill shows the board (:meth:`~solver.neutreeko.model.position.Position.diagram`), the position in notation and
the task (``White to move and win``, ``... and hold the draw``), values hidden, and reads one line: a
move ``FROM-TO`` (any case), or ``quit``. A move that does not parse or is not legal is refused with the
reason and asked again; any legal move is judged against :meth:`Tablebase.moves
<solver.neutreeko.querying.probe.Tablebase.moves>` (``correct: the only winning move, wins in 7``, ``this
draws: C4-C3 keeps the win``), then the solution line (:meth:`~solver.neutreeko.querying.probe.Tablebase.line`) follows and the next
exercise. ``quit`` or the end of input stop the drill; the last line is the score, ``3 of 5 solved``,
counting the exercises answered.

Like :class:`~solver.neutreeko.playing.play.Match`, a drill reads any iterable of lines and writes all its text
through one ``write`` function, so it runs the same in a terminal, under ``CliRunner`` and in a test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from solver.core.answers.console import read_line
from solver.core.errors import IllegalMoveError, NotationError
from solver.neutreeko.model.position import Move, Position
from solver.neutreeko.model.values import Evaluation
from solver.neutreeko.playing.annotate import annotate
from solver.neutreeko.playing.puzzles import LINE_PLIES, Puzzles, movetext
from solver.neutreeko.playing.record import GameRecord
from solver.neutreeko.querying.probe import Line, RankedMove, Tablebase, keeping_moves

Write = Callable[[str], None]

#: The words that stop a drill.
QUIT_WORDS = ("quit", "exit")

_VALUE_WORD = {"win": "winning", "draw": "drawing"}


@dataclass(frozen=True)
class Exercise:
    """A position to solve: its value for the side to move (a win or a draw), every move that keeps it
    (best first), every legal move ranked, and where it comes from (``"puzzle"``, or the game's move
    that went wrong there and its mark, ``"the game's 1. C4-C3?, a mistake"``)."""

    position: Position
    evaluation: Evaluation
    keeping: tuple[RankedMove, ...]
    ranked: tuple[RankedMove, ...]
    source: str

    @classmethod
    def at(cls, tablebase: Tablebase, position: Position, source: str) -> Exercise:
        """The exercise of ``position``, valued through the probe API. Raises :class:`ValueError` for a
        lost position (every move keeps a loss: nothing to find)."""
        evaluation, ranked = tablebase.probe(position), tablebase.moves(position)
        if evaluation.value == "loss":
            raise ValueError(f"{position.fen()} is lost: every move keeps the value")
        return cls(position, evaluation, tuple(keeping_moves(evaluation, ranked)), tuple(ranked), source)

    @property
    def task(self) -> str:
        """``"White to move and win"``, ``"Black to move and hold the draw"``."""
        side = self.position.side_to_move.capitalize()
        return f"{side} to move and {'win' if self.evaluation.value == 'win' else 'hold the draw'}"

    def judge(self, played: RankedMove) -> tuple[bool, str]:
        """Whether ``played`` (one of :attr:`~solver.necnon.searching.tree.ranked`) keeps the value, and one line saying so."""
        value = self.evaluation.value
        names = " ".join(move.name for move in self.keeping)
        keeps = "keeps" if len(self.keeping) == 1 else "keep"
        if played.value != value:
            return False, f"this {_verb(played.evaluation)}: {names} {keeps} the {value}"
        if len(self.keeping) == 1:
            return True, f"correct: the only {_VALUE_WORD[value]} move{_plies(played.evaluation)}"
        others = " ".join(move.name for move in self.keeping if move is not played)
        faster = ""
        if value == "win" and played.evaluation != self.keeping[0].evaluation:
            faster = f"; fastest {self.keeping[0].name}, {self.keeping[0].evaluation.move_text()}"
        return True, (f"correct{_plies(played.evaluation)}: {len(self.keeping)} moves keep the {value} "
                      f"(also {others}){faster}")


    def ranked_move(self, move: Move) -> RankedMove:
        """The entry of :attr:`~solver.necnon.searching.tree.ranked` of ``move``, a legal move of :attr:`position`."""
        return next(entry for entry in self.ranked if entry.move == move)

    def answer(self, tablebase: Tablebase, played: RankedMove) -> Answer:
        """``played`` (one of :attr:`~solver.necnon.searching.tree.ranked`) judged (:meth:`judge`), with the line of perfect play from
        the position, which follows every answer."""
        right, verdict = self.judge(played)
        return Answer(played, right, verdict, tablebase.line(self.position, LINE_PLIES))


@dataclass(frozen=True)
class Answer:
    """A move given to an exercise: whether it keeps the value, the verdict and the solution line."""

    played: RankedMove
    right: bool
    verdict: str
    line: Line

    @property
    def solution(self) -> str:
        """``"solution: 1. D4-E4! E5-A1 2. C2-C1! ... (White wins)"``."""
        return f"solution: {movetext(self.line)} ({self.line.result})"


def _verb(evaluation: Evaluation) -> str:
    """``"draws"``, ``"loses in 6"``, ``"wins in 3"``."""
    return "draws" if evaluation.plies is None else evaluation.move_text()


def _plies(evaluation: Evaluation) -> str:
    return f", {evaluation.move_text()}" if evaluation.plies is not None else ""


def from_puzzles(tablebase: Tablebase, found: Puzzles) -> list[Exercise]:
    """The exercises of puzzles found by :func:`~solver.neutreeko.playing.puzzles.find_puzzles`, in their order."""
    return [Exercise.at(tablebase, puzzle.position, "puzzle") for puzzle in found.puzzles]


def from_game(tablebase: Tablebase, record: GameRecord, kind: str = "all") -> list[Exercise]:
    """An exercise from the position before every mistake and blunder of ``record``'s game (as
    :func:`~solver.neutreeko.playing.annotate.annotate` marks them), in the order played: find a move that keeps
    the value there. ``kind`` ``win`` keeps the won positions only, ``save`` the drawn ones, ``all``
    both. Raises what :func:`~solver.neutreeko.playing.annotate.annotate` raises."""
    judged = annotate(tablebase, record.start, record.moves)
    # The source names the move played and its mark, not the verdict: that lists the right moves.
    exercises = [Exercise.at(tablebase, ply.position, f"the game's {ply.number} {ply.move}{ply.mark.symbol}, "
                             f"a {ply.mark.value}") for ply in judged.errors()]
    wanted = {"win": ("win",), "save": ("draw",), "all": ("win", "draw")}[kind]
    return [exercise for exercise in exercises if exercise.evaluation.value in wanted]


@dataclass(frozen=True)
class Score:
    """How a drill went: exercises solved, answered, and how many there were."""

    solved: int
    answered: int
    total: int
    stopped: str | None = None

    def text(self) -> str:
        """``"score: 3 of 5 solved"``, with why and where it stopped if it did before the end."""
        stopped = f" ({self.stopped} after {self.answered} of {self.total})" if self.stopped else ""
        return f"score: {self.solved} of {self.answered} solved{stopped}"


class Drill:
    """Exercises one after another (see the module docstring). ``write`` receives all output, prompts
    without a line end; with ``echo_input`` each line read is written after its prompt (for piped
    input)."""

    def __init__(self, tablebase: Tablebase, exercises: Sequence[Exercise], write: Write,
                 echo_input: bool = False) -> None:
        self.tablebase = tablebase
        self.exercises = tuple(exercises)
        self.echo_input = echo_input
        self._write = write

    def run(self, lines: Iterable[str]) -> Score:
        """Give every exercise, reading the answers from ``lines``; the score, also written last."""
        lines = iter(lines)
        solved = 0
        for number, exercise in enumerate(self.exercises, 1):
            self._say(self._show(number, exercise))
            answer = self._answer(lines, exercise)
            if answer is None or isinstance(answer, str):
                return self._finish(Score(solved, number - 1, len(self.exercises), answer or "end of input"))
            judged = exercise.answer(self.tablebase, answer)
            solved += judged.right
            self._say(judged.verdict)
            self._say(judged.solution)
        return self._finish(Score(solved, len(self.exercises), len(self.exercises)))

    def _show(self, number: int, exercise: Exercise) -> str:
        source = "" if exercise.source == "puzzle" else f"\nfrom {exercise.source}"
        return (f"\nPuzzle {number} of {len(self.exercises)}{source}\n{exercise.position.diagram()}\n"
                f"{exercise.position.fen()}\n{exercise.task}")

    def _answer(self, lines: Iterator[str], exercise: Exercise) -> RankedMove | str | None:
        """The legal move typed, ``"quit"``, or None at the end of input; asks again after a line
        that is not a legal move."""
        position = exercise.position
        while True:
            text = read_line(lines, f"{position.side_to_move.capitalize()}> ", self._write, self.echo_input)
            if text is None:
                return None
            text = text.strip()
            if text.lower() in QUIT_WORDS:
                return "quit"
            if not text:
                continue
            try:
                move = position.parse_move(text)
            except IllegalMoveError:
                legal = " ".join(sorted(move.name for move in exercise.ranked))
                self._say(f"{text.upper()} is not a legal move here (a piece slides as far as it can). "
                          f"Legal moves: {legal}")
                continue
            except NotationError as error:
                self._say(f"{error}; type a move as FROM-TO, e.g. C4-C3, or quit")
                continue
            return exercise.ranked_move(move)

    def _finish(self, score: Score) -> Score:
        self._say(score.text())
        return score

    def _say(self, text: str) -> None:
        self._write(text + "\n")
