"""What ``necnon query`` and ``necnon line`` print: JSON objects, and text for people.

:func:`query_object` and :func:`line_object` make the JSON objects of a position and of its perfect
line, :func:`state_object` what the rules say with no table read, :func:`search_object` the search
engine's view (:class:`~solver.necnon.searching.engine.Verdict`) and :func:`grid_object` a board's
cells and where they are drawn. Values are Black's points minus Green's under perfect play, whoever is
to move (see :mod:`solver.necnon.querying.probe`); a ranked turn's value is that of the position it
leads to, the ranking best first for the side to move. :func:`query_text`, :func:`line_text` and
:func:`describe` write the same for people; :func:`stats_object` is the figures of a solved board.

The objects, field by field: docs/reference/json-output.md.
"""

from __future__ import annotations

from typing import Any

from solver.necnon.model.grid import Grid
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
from solver.necnon.model.values import Evaluation, turns_text
from solver.necnon.querying.probe import Line, RankedTurn
from solver.necnon.searching.engine import Verdict
from solver.necnon.tables.stats import Summary

JSONObject = dict[str, Any]


def _described(position: Position) -> JSONObject:
    """The keys every object of a position starts with."""
    return {"position": position.notation(), "board": str(position.game.grid), "protocol": position.game.setting,
            "to_move": position.side_to_move, "over": position.over}


def position_object(position: Position, evaluation: Evaluation) -> JSONObject:
    """The keys every query or line object starts with."""
    return {**_described(position), "value": evaluation.margin, "turns": evaluation.turns,
            "result": evaluation.result()}


def query_object(position: Position, evaluation: Evaluation, ranked: list[RankedTurn]) -> JSONObject:
    """The ``query --json`` object."""
    return {**position_object(position, evaluation),
            "ranking": [{"turn": entry.name, "value": entry.evaluation.margin, "turns": entry.evaluation.turns,
                         "position": entry.position.notation()} for entry in ranked]}


def stats_object(game: Game, summary: Summary, solve_seconds: float) -> JSONObject:
    """The ``necnon stats --json`` object of ``game``'s table: its figures
    (:class:`~solver.necnon.tables.stats.Summary`), the positions of each value by value, and the seconds
    it took to solve."""
    return {"board": str(game.grid), "protocol": game.setting, **summary.counts(), "best_first": list(summary.best_first),
            "margins": {str(margin): count for margin, count in summary.margins.items()},
            "solve_seconds": round(solve_seconds, 3)}


def line_object(line: Line) -> JSONObject:
    """The ``line --json`` object."""
    return {
        **position_object(line.position, line.evaluation),
        "line": [{"turn": number, "play": step.name, "by": before.side_to_move, "position": step.position.notation(),
                  "value": step.evaluation.margin, "turns": step.evaluation.turns}
                 for number, (step, before) in enumerate(zip(line.steps, _befores(line)), 1)],
        **_score(line.end),
    }


def _score(position: Position) -> JSONObject:
    """``points`` and ``smothered``: the score if the game ended in ``position``, and the groups it counts."""
    black, green = position.points()
    grid = position.game.grid
    return {"points": {"black": black, "green": green},
            "smothered": [{"colour": group.colour, "cells": [grid.name(cell) for cell in group.cells]}
                          for group in position.groups() if group.smothered]}


def state_object(position: Position) -> JSONObject:
    """The state object of ``position`` (see the module docstring): what the rules say of it."""
    turns = position.turns()
    grid = position.game.grid
    allowed = () if position.over else position.allowed()
    return {**_described(position), "allowed": [grid.name(cell) for cell in allowed],
            "stones": len(turns[0].cells) if turns else 0, "result": Evaluation(position.margin(), 0).result(),
            **_score(position)}


def search_object(position: Position, verdict: Verdict) -> JSONObject:
    """The search object of the engine's ``verdict`` on ``position`` (see the module docstring)."""
    return {**_described(position), "iterations": verdict.iterations, "seconds": round(verdict.seconds, 3),
            "solved": verdict.solved, "nodes": verdict.nodes, "floor": verdict.floor,
            "turns": [{"turn": entry.name, "visits": entry.visits, "mean_margin": round(entry.mean_margin, 3),
                       "won": round(entry.won, 3), "position": position.play(entry.turn).notation()}
                      for entry in verdict.turns]}


def grid_object(grid: Grid) -> JSONObject:
    """The grid object of a board (see the module docstring)."""
    width, height = grid.extent()
    return {"board": str(grid), "kind": grid.kind, "extent": [round(width, 4), round(height, 4)],
            "cells": [{"name": grid.name(cell), "x": round(x, 4), "y": round(y, 4)}
                      for cell, (x, y) in ((cell, grid.centre(cell)) for cell in range(grid.cells))],
            "rows": [[grid.name(cell) for cell in row] for row in grid.rows]}


def describe(position: Position, evaluation: Evaluation) -> str:
    """``"Black to move: Black by 2 in 5 turns"``, or at the end ``"game over: Black wins by 2"``."""
    if position.over:
        return f"game over: {evaluation.result()}"
    return f"{position.side_to_move.capitalize()} to move: {evaluation.terse()}"


def points_text(position: Position) -> str:
    """``"Black 3 points, Green 1"``: the points if the game ended in ``position``."""
    black, green = position.points()
    return f"Black {black} point{'s' * (black != 1)}, Green {green}"


def final_score(position: Position) -> str:
    """``"Black 3 points, Green 1 (smothered: green a1 b1; black d4)"`` for a position where the game
    is over (or would be, if it ended there)."""
    grid = position.game.grid
    smothered = "; ".join(f"{group.colour} {' '.join(grid.name(cell) for cell in group.cells)}"
                          for group in position.groups() if group.smothered)
    return points_text(position) + (f" (smothered: {smothered})" if smothered else " (nothing smothered)")


def query_text(position: Position, evaluation: Evaluation, ranked: list[RankedTurn]) -> str:
    """The board, the position in notation, its value, then every turn best first."""
    return "\n".join([position.diagram(), position.notation(), *ranking_lines(position, evaluation, ranked)])


def ranking_lines(position: Position, evaluation: Evaluation, ranked: list[RankedTurn],
                  limit: int | None = None) -> list[str]:
    """The position's value, then its turns best first (the first ``limit`` of them, if given)."""
    lines = [describe(position, evaluation)]
    if position.over:
        lines.append(final_score(position))
    if ranked:
        shown = ranked if limit is None else ranked[:limit]
        width = max(len(entry.name) for entry in shown)
        lines.append(f"turns, best first for {position.side_to_move.capitalize()} (value after the turn, "
                     f"Black minus Green; turns from this position):")
        lines.extend(f"  {entry.name:<{width}}  {entry.evaluation.label():>3}  {entry.evaluation.terse()}"
                     for entry in shown)
        if len(shown) < len(ranked):
            lines.append(f"  ... and {len(ranked) - len(shown)} more")
    return lines


def line_text(line: Line) -> str:
    """The start and its value, each turn numbered with the value after it, the end and its score."""
    lines = [line.position.diagram(), line.position.notation(), describe(line.position, line.evaluation)]
    number_width = len(str(len(line.steps)))
    name_width = max((len(step.name) for step in line.steps), default=0)
    for number, (step, before) in enumerate(zip(line.steps, _befores(line)), 1):
        lines.append(f"{number:>{number_width}}. {before.side_to_move.capitalize():<5} {step.name:<{name_width}}  "
                     f"{describe(step.position, step.evaluation)}")
    if line.steps:
        lines.append(line.end.diagram(line.steps[-1].turn))
        lines.append(line.end.notation())
    lines.append(f"result: {line.result}: {final_score(line.end)}, after {turns_text(len(line.steps))}")
    return "\n".join(lines)


def _befores(line: Line) -> list[Position]:
    """The position before each step of ``line``."""
    return [line.position, *(step.position for step in line.steps[:-1])]
