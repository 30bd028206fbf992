"""Annotating a NECNON game: every turn judged (by the table, or estimated by the search engine; see
:mod:`solver.necnon.querying.judge`), a summary per side, the first point lost.

:func:`annotate` takes a judge and a game record and gives an :class:`Annotation`. For each turn, from
the point of view of the player making it: ``before``, the value of the position, and ``after``, the
value of the turn played. The points it **gave away** (:func:`points_given`) are the player's margin
before minus the margin after (Black's points minus Green's for Black, the opposite for Green): 0 for a
best turn, never negative with the table. :func:`mark_of` says how many
(:class:`~solver.core.answers.marks.Mark`): best, inaccuracy (no point given away, by a slower way; with
the table only), mistake (one point), blunder (two or more). An engine's estimates are fractions: a
turn is marked by its points rounded to the nearest whole one (less than half a point is none). The
*first point lost* is the first mistake or blunder.

:func:`annotation_object` is the JSON of ``necnon annotate --json``, described in docs/guide/necnon.md;
with the search engine judging, ``"exact"`` is false, values and points given away are estimates (to a
hundredth), ``"turns"`` and ``"keeping"`` are null and ``"best"`` is the engine's choice.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from solver.core.answers.marks import Mark, some
from solver.core.answers.report import aligned, counted
from solver.necnon.model.position import BLACK, GREEN, Colour, Position
from solver.necnon.playing.record import GameRecord
from solver.necnon.querying.judge import Estimate, Judge, TurnValues
from solver.necnon.querying.report import final_score

JSONObject = dict[str, Any]


def points_given(values: TurnValues, black: bool) -> float:
    """The points a turn valued ``values`` gave away for its player, Black (``black``) or Green; never
    negative (an engine may value a turn above its own choice)."""
    return max(0.0, values.before.gain(black) - values.after.gain(black))


def mark_of(values: TurnValues, black: bool) -> Mark:
    """The mark of a turn valued ``values`` for its player (see the module docstring).

    >>> from solver.necnon.querying.judge import Estimate as E
    >>> [mark_of(TurnValues(E(-1, 5), after, (), None, 9), True).value
    ...  for after in (E(-1, 5), E(-1, 3), E(-2, 4), E(-3, 4), E(-1.4, None))]
    ['best', 'inaccuracy', 'mistake', 'blunder', 'best']
    """
    given = int(points_given(values, black) + 0.5)
    if given:
        return Mark.MISTAKE if given == 1 else Mark.BLUNDER
    return Mark.BEST if values.after.turns in (None, values.before.turns) else Mark.INACCURACY


@dataclass(frozen=True)
class AnnotatedTurn:
    """One turn judged: its number from 1, the side that made it, the turn as written, the position
    before it, its values (see :class:`~solver.necnon.querying.judge.TurnValues`), the points it gave away and
    its mark."""

    number: int
    side: Colour
    play: str
    position: Position
    values: TurnValues
    given: float
    mark: Mark

    @property
    def before(self) -> Estimate:
        return self.values.before

    @property
    def after(self) -> Estimate:
        return self.values.after

    def verdict(self) -> str:
        """One line on the turn: ``"3. a3,c1? a mistake: gave 1 point away (0 -> -1); a2,b3 kept 0"``,
        ``"1. b2 best: Green by 1 in 5 turns"``."""
        head = f"{self.number}. {self.play}{self.mark.symbol}"
        if self.mark is Mark.BEST:
            return f"{head} best: {self.after.text()}"
        if self.mark is Mark.INACCURACY:
            return f"{head} an inaccuracy: {self.before.text()} -> {self.after.text()}; best {some(self.values.best)}"
        better = (f"{some(self.values.best)} kept {self.before.label()}" if self.before.evaluation is not None
                  else f"the engine chose {some(self.values.best)} ({self.before.label()})")
        return (f"{head} {self.mark.article} {self.mark.value}: gave {_points(self.given)} away "
                f"({self.before.label()} -> {self.after.label()}); {better}")


def _points(given: float) -> str:
    """``"1 point"``, ``"2 points"``, an estimate ``"about 1.4 points"``."""
    if given != int(given):
        return f"about {given:.1f} points"
    return f"{int(given)} point{'s' * (given != 1)}"


@dataclass(frozen=True)
class SideSummary:
    """What one side did: its turns, each mark, and the points it gave away in all."""

    side: Colour
    turns: int
    best: int
    inaccuracies: int
    mistakes: int
    blunders: int
    given: float

    @classmethod
    def of(cls, side: Colour, turns: Sequence[AnnotatedTurn]) -> SideSummary:
        own = [turn for turn in turns if turn.side == side]
        marks = Counter(turn.mark for turn in own)
        return cls(side, len(own), marks[Mark.BEST], marks[Mark.INACCURACY], marks[Mark.MISTAKE],
                   marks[Mark.BLUNDER], sum(turn.given for turn in own))

    def text(self) -> str:
        """``"Black: 3 turns (2 best, 0 inaccuracies, 1 mistake, 0 blunders), 1 point given away"``."""
        return (f"{self.side.capitalize()}: {counted(self.turns, 'turn')} ({self.best} best, "
                f"{counted(self.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
                f"{counted(self.mistakes, 'mistake')}, {counted(self.blunders, 'blunder')}), "
                f"{_points(round(self.given, 2))} given away")


@dataclass(frozen=True)
class Annotation:
    """A game judged turn by turn: the record, who judged it (``judge``; ``exact`` for the table), the
    start's value, every :class:`AnnotatedTurn`, and the last position's value."""

    record: GameRecord
    judge: str
    exact: bool
    start_value: Estimate
    turns: tuple[AnnotatedTurn, ...]
    end_value: Estimate

    def summary(self, side: Colour) -> SideSummary:
        return SideSummary.of(side, self.turns)

    def errors(self) -> list[AnnotatedTurn]:
        """Every mistake and blunder, of both sides, in the order played."""
        return [turn for turn in self.turns if turn.mark.decisive]

    @property
    def first_point_lost(self) -> AnnotatedTurn | None:
        """The first turn that gave a point away (a mistake or a blunder), or None."""
        return next(iter(self.errors()), None)


def annotate(judge: Judge, record: GameRecord) -> Annotation:
    """Judge every turn of ``record`` with ``judge``; raises what the judge raises (a missing table, a
    position its table does not hold)."""
    turns = []
    for number, (position, turn) in enumerate(zip(record.positions, record.turns), 1):
        values = judge.judge(position, turn)
        black = position.black_to_move
        turns.append(AnnotatedTurn(number, position.side_to_move, turn.name(position.game.grid), position, values,
                                   round(points_given(values, black), 2), mark_of(values, black)))
    return Annotation(record, judge.name, judge.exact, judge.value(record.start), tuple(turns),
                      judge.value(record.end))


# -- output -------------------------------------------------------------------------------------------

def _value(estimate: Estimate) -> JSONObject:
    exact = estimate.evaluation
    return {"value": exact.margin if exact else round(estimate.margin, 2), "turns": estimate.turns}


def annotation_object(annotation: Annotation) -> JSONObject:
    """The JSON object of ``annotation`` (the schema is in the module docstring)."""
    record, first = annotation.record, annotation.first_point_lost
    game, end = record.start.game, record.end
    return {
        "board": str(game.grid), "protocol": game.setting, "start": record.start.notation(),
        "judge": annotation.judge, "exact": annotation.exact, **_value(annotation.start_value),
        "game": [{"turn": turn.number, "by": turn.side, "play": turn.play, "position": turn.position.notation(),
                  "before": _value(turn.before), "after": _value(turn.after),
                  "given": int(turn.given) if annotation.exact else turn.given, "mark": turn.mark.value,
                  "best": list(turn.values.best), "keeping": turn.values.keeping, "legal": turn.values.legal}
                 for turn in annotation.turns],
        "summary": {side: {"turns": summary.turns, "best": summary.best, "inaccuracies": summary.inaccuracies,
                           "mistakes": summary.mistakes, "blunders": summary.blunders,
                           "given": int(summary.given) if annotation.exact else round(summary.given, 2)}
                    for side in (BLACK, GREEN) for summary in (annotation.summary(side),)},
        "first_point_lost": first.number if first else None,
        "end": {"position": end.notation(), "to_move": end.side_to_move, "over": end.over,
                **_value(annotation.end_value)},
        "result": record.result,
    }


def annotation_text(annotation: Annotation) -> str:
    """Who judged, a table of the turns (turn, value before, the turn's value, points given away, mark,
    turns keeping the margin of the legal ones, best turns), a summary per side, the first point lost
    and the result."""
    record = annotation.record
    start = record.start
    players = "".join(f"; {side}: {record.tag(side)}" for side in ("Black", "Green") if record.tag(side))
    lines = [f"NECNON {start.game}, from {'the empty board' if start.first_turn else start.notation()}{players}"]
    lines.append(f"judged by {annotation.judge}" + ("" if annotation.exact else
                 ": values are estimates (mean margins of random playouts), not values under perfect play"))
    rows = [("", "turn", "before", "turn's value", "given", "mark", "keep/legal" if annotation.exact else "legal",
             "best" if annotation.exact else "engine's choice")]
    rows += [(f"{turn.number}.", turn.play + turn.mark.symbol, turn.before.text(), turn.after.text(),
              _given(turn.given, annotation.exact), "" if turn.mark is Mark.BEST else turn.mark.value,
              _counts(turn.values), some(turn.values.best)) for turn in annotation.turns]
    lines += aligned(rows)
    lines.append("values are Black's points minus Green's; given: the points the turn gave away, for its player")
    lines += [annotation.summary(side).text() for side in (BLACK, GREEN) if annotation.summary(side).turns]
    first = annotation.first_point_lost
    lines.append(f"first point lost: {first.side.capitalize()}'s {first.verdict()}" if first else
                 "first point lost: none (no turn gave a point away)")
    end = record.end
    if end.over:
        lines.append(f"result: {record.result}: {final_score(end)}")
    else:
        lines.append(f"result: not over; {end.side_to_move.capitalize()} to move, {annotation.end_value.text()}")
    return "\n".join(lines)


def _counts(values: TurnValues) -> str:
    """``"2/14"``: turns keeping the margin of the legal ones; ``"14"`` when that is not known."""
    return f"{values.legal}" if values.keeping is None else f"{values.keeping}/{values.legal}"


def _given(given: float, exact: bool) -> str:
    return str(int(given)) if exact else f"{given:.1f}"
