"""Annotating a game: every ply judged against the tables, a summary per side, the first decisive error.

:func:`annotate` takes a :class:`~solver.neutreeko.querying.probe.Tablebase`, a start and moves and gives
an :class:`Annotation`. For each ply, from the point of view of the player making it: ``before``, the
value of the position (the value of its best moves), and ``after``, the value of the move played, its
plies counted from the same position, so that a best move's ``after`` equals ``before`` (see
:class:`~solver.neutreeko.model.values.Evaluation`). :func:`mark_of` compares the two in the one order
of evaluations (:class:`~solver.core.answers.marks.Mark`): best (``after == before``), inaccuracy (the
same value, worse plies), mistake (one value worse), blunder (a win thrown away to a loss). The *first
decisive error* is the first mistake or blunder: the first move that changed what the game is worth
with best play.

:func:`annotation_object` is the JSON of ``neutreeko annotate --json``, described in docs/guide/games.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from solver.core.answers.marks import Mark, some
from solver.core.answers.report import aligned, counted
from solver.core.errors import IllegalMoveError
from solver.neutreeko.model.outcome import Outcome, ending
from solver.neutreeko.model.position import BLACK, WHITE, Colour, Move, Position
from solver.neutreeko.model.values import VALUES, Evaluation
from solver.neutreeko.playing.record import ply_label
from solver.neutreeko.querying.probe import RankedMove, Tablebase, best_moves

JSONObject = dict[str, Any]


def mark_of(before: Evaluation, after: Evaluation) -> Mark:
    """The mark of a move valued ``after`` from a position valued ``before``, both for the player
    making it (see the module docstring). Raises :class:`ValueError` if ``after`` is better than
    ``before``: no move is better than the best.

    >>> mark_of(Evaluation.win(5), Evaluation.win(9)).value, mark_of(Evaluation.win(5), Evaluation.loss(8)).value
    ('inaccuracy', 'blunder')
    """
    if after.order_key() < before.order_key():
        raise ValueError(f"a move valued {after} cannot be better than its position's {before}")
    if after == before:
        return Mark.BEST
    return _BY_DROP[VALUES.index(after.value) - VALUES.index(before.value)]


# A move's value drops by 0 (same value, worse plies), 1 (win to draw, draw to loss) or 2 (win to loss) places.
_BY_DROP = (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)


@dataclass(frozen=True)
class AnnotatedPly:
    """One ply judged: its number from 1 and its move number (``"3."``, ``"3..."``), the side that
    played it, the position before it, ``before`` and ``after`` (see the module docstring), the mark,
    the best moves, how many moves kept the position's value and how many were legal."""

    ply: int
    number: str
    side: Colour
    move: str
    position: Position
    before: Evaluation
    after: Evaluation
    mark: Mark
    best: tuple[str, ...]
    keeping: int
    legal: int

    @classmethod
    def of(cls, ply: int, start: Position, position: Position, ranked: Sequence[RankedMove],
           played: RankedMove) -> AnnotatedPly:
        """Judge ``played``, one of ``ranked`` (:meth:`~solver.neutreeko.querying.probe.Tablebase.moves` of ``position``, best first),
        as ply ``ply`` of a game from ``start``."""
        before = ranked[0].evaluation
        return cls(ply, ply_label(start, ply), position.side_to_move, played.name, position, before,
                   played.evaluation, mark_of(before, played.evaluation),
                   tuple(move.name for move in best_moves(list(ranked))),
                   sum(move.value == before.value for move in ranked), len(ranked))

    def verdict(self) -> str:
        """One line on the move: ``"1. C4-C3? a mistake: draw -> loss in 4; best B1-C1 D1-C1 (draw)"``,
        ``"1. B1-C1 best: draw (2 of 14 moves keep the draw)"``."""
        head = f"{self.number} {self.move}{self.mark.symbol}"
        if self.mark is Mark.BEST and self.before.value == "loss":
            return f"{head} best: the longest resistance ({self.after.move_text()})"
        if self.mark is Mark.BEST:
            return (f"{head} best: {self.after.move_text()} ({self.keeping} of {counted(self.legal, 'move')} "
                    f"keep{'s' if self.keeping == 1 else ''} the {self.before.value})")
        return (f"{head} {self.mark.article} {self.mark.value}: {self.before.terse()} -> {self.after.terse()}; "
                f"best {' '.join(self.best)} ({self.before.terse()})")


@dataclass(frozen=True)
class SideSummary:
    """What one side did: its moves, how many kept the value (best or inaccurate), and each mark."""

    side: Colour
    moves: int
    kept: int
    best: int
    inaccuracies: int
    mistakes: int
    blunders: int

    @classmethod
    def of(cls, side: Colour, plies: Sequence[AnnotatedPly]) -> SideSummary:
        marks = Counter(ply.mark for ply in plies if ply.side == side)
        return cls(side, sum(marks.values()), marks[Mark.BEST] + marks[Mark.INACCURACY], marks[Mark.BEST],
                   marks[Mark.INACCURACY], marks[Mark.MISTAKE], marks[Mark.BLUNDER])

    def text(self) -> str:
        """``"Black: 12 moves, 11 kept the value (10 best, 1 inaccuracy), 1 mistake, 0 blunders"``."""
        return (f"{self.side.capitalize()}: {counted(self.moves, 'move')}, {self.kept} kept the value "
                f"({self.best} best, {counted(self.inaccuracies, 'inaccuracy', 'inaccuracies')}), "
                f"{counted(self.mistakes, 'mistake')}, {counted(self.blunders, 'blunder')}")


@dataclass(frozen=True)
class Annotation:
    """A game judged ply by ply: its start and the start's value, every :class:`AnnotatedPly`, the
    last position and its value (for its side to move), and how the moves ended the game (None if it
    is not over)."""

    start: Position
    start_evaluation: Evaluation
    plies: tuple[AnnotatedPly, ...]
    end: Position
    end_evaluation: Evaluation
    outcome: Outcome | None

    @property
    def result(self) -> str:
        """How the game ended, or ``"*"`` if it is not over."""
        return self.outcome.result if self.outcome else "*"

    def summary(self, side: Colour) -> SideSummary:
        return SideSummary.of(side, self.plies)

    def errors(self) -> list[AnnotatedPly]:
        """Every mistake and blunder, of both sides, in the order played."""
        return [ply for ply in self.plies if ply.mark.decisive]

    @property
    def first_error(self) -> AnnotatedPly | None:
        """The first decisive error (mistake or blunder), or None."""
        return next(iter(self.errors()), None)


def annotate(tablebase: Tablebase, start: Position, moves: Sequence[Move | str]) -> Annotation:
    """Judge the game of ``moves`` (each a :class:`~solver.neutreeko.model.position.Move` or ``"FROM-TO"``) from ``start`` against the
    tables. Raises :class:`~solver.core.errors.IllegalMoveError` for a move that is not legal or that
    comes after the game ended (three in a row, or a position's third occurrence, the start counting
    once), and what :meth:`~solver.neutreeko.querying.probe.Tablebase.moves` raises."""
    position, seen = start, Counter([start])
    plies: list[AnnotatedPly] = []
    for ply, move in enumerate(moves, 1):
        over = ending(position, seen[position])
        if over is not None:
            name = move if isinstance(move, str) else move.name(start.game.board)
            raise IllegalMoveError(f"move {name} comes after the end of the game ({over.result})")
        chosen = position.parse_move(move) if isinstance(move, str) else move
        plies.append(judge(tablebase, start, ply, position, chosen))
        position = position.play(chosen)
        seen[position] += 1
    return Annotation(start, tablebase.probe(start), tuple(plies), position, tablebase.probe(position),
                      ending(position, seen[position]))


def judge(tablebase: Tablebase, start: Position, ply: int, position: Position, move: Move) -> AnnotatedPly:
    """``move`` judged as ply ``ply`` of a game from ``start``, played in ``position`` (whether the game
    was over before it is not asked). Raises :class:`~solver.core.errors.IllegalMoveError` for a move
    that is not legal there, and what :meth:`~solver.neutreeko.querying.probe.Tablebase.moves` raises."""
    ranked = tablebase.moves(position)
    played = next((entry for entry in ranked if entry.move == move), None)
    if played is None:
        raise IllegalMoveError(f"move {move.name(start.game.board)} is not legal in {position.fen()}")
    return AnnotatedPly.of(ply, start, position, ranked, played)


# -- output -------------------------------------------------------------------------------------------

def _value(evaluation: Evaluation) -> JSONObject:
    return {"value": evaluation.value, "plies": evaluation.plies}


def annotation_object(annotation: Annotation) -> JSONObject:
    """The JSON object of ``annotation`` (the schema is in the module docstring)."""
    game = annotation.start.game
    first = annotation.first_error
    return {
        "board": str(game.board), "rule": game.rule.name, "start": annotation.start.fen(),
        **_value(annotation.start_evaluation),
        "moves": [ply_object(ply) for ply in annotation.plies],
        "summary": {side: {name: getattr(annotation.summary(side), name)
                           for name in ("moves", "kept", "best", "inaccuracies", "mistakes", "blunders")}
                    for side in (BLACK, WHITE)},
        "first_error": first.ply if first else None,
        "end": {"position": annotation.end.fen(), "to_move": annotation.end.side_to_move,
                **_value(annotation.end_evaluation)},
        "result": annotation.result,
    }


def ply_object(ply: AnnotatedPly) -> JSONObject:
    """The JSON object of one ply judged: an entry of the annotation object's ``"moves"``."""
    return {"ply": ply.ply, "number": ply.number, "side": ply.side, "move": ply.move,
            "position": ply.position.fen(), "before": _value(ply.before), "after": _value(ply.after),
            "mark": ply.mark.value, "best": list(ply.best), "keeping": ply.keeping, "legal": ply.legal}


def annotation_text(annotation: Annotation, players: dict[Colour, str] | None = None) -> str:
    """A table of the plies (move, value before, the move's value, mark, best moves, moves keeping the
    value of the legal ones), a summary per side, the first decisive error and the result."""
    players = players or {}
    start = annotation.start
    lines = [f"Neutreeko {start.game}, from {'the start' if start == Position.start(start.game) else start.fen()}"
             + "".join(f"; {side.capitalize()}: {players[side]}" for side in (BLACK, WHITE) if players.get(side))]
    rows = [("", "move", "before", "move's value", "mark", "keep/legal", "best")]
    rows += [(ply.number, ply.move + ply.mark.symbol, ply.before.terse(), ply.after.move_text(),
              "" if ply.mark is Mark.BEST else ply.mark.value, f"{ply.keeping}/{ply.legal}", some(ply.best))
             for ply in annotation.plies]
    lines += aligned(rows)
    lines.append("values are for the player moving; a move's plies count from the position before it")
    lines += [annotation.summary(side).text() for side in (BLACK, WHITE)]
    first = annotation.first_error
    lines.append(f"first decisive error: {first.side.capitalize()}'s {first.verdict()}" if first else
                 "first decisive error: none (every move kept the value of the game)")
    if annotation.outcome is not None:
        lines.append(f"result: {annotation.result} ({annotation.outcome.reason(annotation.end)})")
    else:
        end = annotation.end_evaluation
        lines.append(f"result: not over; {annotation.end.side_to_move.capitalize()} to move, {end.terse()}")
    return "\n".join(lines)
