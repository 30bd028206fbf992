"""Judging a NECNON turn: the value of the position before it, the value of the turn played and the best
turns, from the board's table where there is one, else estimated by the search engine.

Values are Black's points minus Green's, whoever moves (see :mod:`solver.necnon.model.values`). A
:class:`TableJudge` gives them exactly, with the turns left under perfect play: the value before a turn
is the position's, the value of a turn is that of the position it leads to, its turns counted from the
same position, so that a best turn's value equals the value before it. An :class:`EngineJudge`
estimates them with :class:`~solver.necnon.searching.engine.SearchEngine`, thinking the time (or running the
playouts) it is given on each position of the game: a position's value is the mean final margin of
the playouts through the engine's choice, the engine's choice is the best turn, and a turn is valued
by the engine's value of the position it leads to, the engine's own choice by the value before it. A
finished position's value is its score, exactly, from either judge. An engine's values are estimates
from random playouts, not values under perfect play: they carry no turns, and can be wrong by points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from solver.core.answers.report import counted
from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.model.values import Evaluation
from solver.necnon.querying.probe import Tablebase, best_turns
from solver.necnon.searching.engine import SearchEngine


@dataclass(frozen=True)
class Estimate:
    """A value: ``margin``, Black's points minus Green's, and ``turns``, the turns left under perfect
    play when the value is exact, None when it is an engine's estimate.

    >>> Estimate(-1, 5).text(), Estimate(1.44, None).text(), Estimate(1.44, None).label()
    ('Green by 1 in 5 turns', 'about +1.4', '+1.4')
    """

    margin: float
    turns: int | None

    @classmethod
    def exact(cls, evaluation: Evaluation) -> Estimate:
        return cls(evaluation.margin, evaluation.turns)

    @property
    def evaluation(self) -> Evaluation | None:
        """The exact value, or None for an estimate."""
        return None if self.turns is None else Evaluation(int(self.margin), self.turns)

    def gain(self, black: bool) -> float:
        """The margin from the side of Black (``black``) or Green: what that player maximises."""
        return self.margin if black else -self.margin

    def text(self) -> str:
        """``"Black by 2 in 5 turns"`` (exact), ``"about -0.6"`` (an estimate)."""
        exact = self.evaluation
        return exact.terse() if exact is not None else f"about {self.label()}"

    def label(self) -> str:
        """The margin with its sign: ``"+2"``, ``"0"``; an estimate's to a tenth, ``"-0.6"``."""
        exact = self.evaluation
        return exact.label() if exact is not None else f"{self.margin:+.1f}"


@dataclass(frozen=True)
class TurnValues:
    """What a judge says of a turn played in a position: the value ``before`` it (the position's), the
    value ``after`` it (the turn's), the best turns, how many turns keep the position's margin (None
    when the engine judges) and how many are legal."""

    before: Estimate
    after: Estimate
    best: tuple[str, ...]
    keeping: int | None
    legal: int


class Judge(Protocol):
    """What :func:`solver.necnon.playing.annotate.annotate` asks of a judge (see the module docstring)."""

    #: ``"the table"``, ``"the search engine, 1 s a position"``: who judges, for the output.
    name: str
    #: True for exact values (a table's), False for estimates (the engine's).
    exact: bool

    def value(self, position: Position) -> Estimate:
        """The value of ``position``."""
        ...

    def judge(self, position: Position, turn: Turn) -> TurnValues:
        """The values of ``turn``, legal in ``position`` (which is not over)."""
        ...


class TableJudge:
    """Exact values, from the tables of ``tablebase``; raises what its probes raise (a missing table, a
    position that cannot be reached)."""

    name = "the table"
    exact = True

    def __init__(self, tablebase: Tablebase) -> None:
        self.tablebase = tablebase

    def value(self, position: Position) -> Estimate:
        return Estimate.exact(self.tablebase.probe(position))

    def judge(self, position: Position, turn: Turn) -> TurnValues:
        ranked = self.tablebase.turns(position)
        played = next(entry for entry in ranked if entry.turn == turn)
        before = ranked[0].evaluation
        return TurnValues(Estimate.exact(before), Estimate.exact(played.evaluation),
                          tuple(entry.name for entry in best_turns(ranked)),
                          sum(entry.evaluation.margin == before.margin for entry in ranked), len(ranked))


class EngineJudge:
    """Estimates of the search engine for ``game``, thinking ``seconds`` on each position (or running
    exactly ``iterations`` playouts, reproducible with ``seed``); each position is searched once."""

    def __init__(self, game: Game, seed: int | None = None, seconds: float = 1.0,
                 iterations: int | None = None) -> None:
        self.engine = SearchEngine(game, seed, seconds, iterations)
        self.exact = False
        self.name = "the search engine, " + (f"{counted(iterations, 'playout')} a position" if iterations is not None
                                             else f"{seconds:g} s a position")
        self._seen: dict[Position, tuple[Estimate, Turn | None, str]] = {}

    def _search(self, position: Position) -> tuple[Estimate, Turn | None, str]:
        """The engine's value of ``position``, its choice and the choice's name (None and "" at the end)."""
        if position not in self._seen:
            if position.over:
                self._seen[position] = (Estimate(position.margin(), 0), None, "")
            else:
                choice = self.engine.search(position).turns[0]
                self._seen[position] = (Estimate(choice.mean_margin, None), choice.turn, choice.name)
        return self._seen[position]

    def value(self, position: Position) -> Estimate:
        return self._search(position)[0]

    def judge(self, position: Position, turn: Turn) -> TurnValues:
        before, choice, name = self._search(position)
        after = before if turn == choice else self.value(position.play(turn))
        return TurnValues(before, after, (name,), None, len(position.turns()))
