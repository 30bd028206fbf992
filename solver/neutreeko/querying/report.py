"""What ``neutreeko query``, ``neutreeko line`` and ``neutreeko stats`` print: JSON objects and text for
people.

:func:`query_object`, :func:`line_object`, :func:`stats_object` and :func:`error_object` (a bad line of
``query -``) make the JSON objects, every value from the side to move's point of view (see
:mod:`solver.neutreeko.querying.probe`): a move's value and plies for the player making it, counted
from the queried position; a line move's for the side to move after it, ``"forced"`` when it was the
only move that kept the value (:func:`solver.neutreeko.querying.probe.keeping_moves`).
:func:`query_text`, :func:`line_text` and :func:`describe` write the same for people.

The objects, field by field: docs/reference/json-output.md.
"""

from __future__ import annotations

from typing import Any

from solver.core.answers.report import line_error
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import game_over
from solver.neutreeko.model.position import MAX_POSITION_LENGTH, Position
from solver.neutreeko.model.symmetry import by_class
from solver.neutreeko.model.values import plies_text
from solver.neutreeko.querying.probe import Evaluation, Line, RankedMove
from solver.neutreeko.tables.stats import Summary

#: How a forced move (the only one that keeps the value) is marked in text, after the move.
FORCED_MARK = "!"
FORCED_LEGEND = f"{FORCED_MARK} the only move that keeps the value (the only winning or drawing move, or the only legal one)"

JSONObject = dict[str, Any]


def position_object(position: Position, evaluation: Evaluation) -> JSONObject:
    """The keys every query object starts with: the position and its value for the side to move."""
    return {"position": position.fen(), "board": str(position.game.board), "to_move": position.side_to_move,
            "value": evaluation.value, "plies": evaluation.plies}


def query_object(position: Position, evaluation: Evaluation, moves: list[RankedMove] | None) -> JSONObject:
    """The ``query --json`` object; without "moves" when ``moves`` is None."""
    answer = position_object(position, evaluation)
    if moves is not None:
        answer["moves"] = [{"move": move.name, "value": move.value, "plies": move.plies,
                            "position": move.position.fen()} for move in moves]
    return answer


def line_object(line: Line) -> JSONObject:
    """The ``line --json`` object."""
    from solver.neutreeko.playing.record import move_number, numbered  # records' notation: only for a line

    return {
        **position_object(line.position, line.evaluation),
        "moves": [{"ply": ply, "number": move_number(line.position, ply), "move": step.name, "forced": step.forced,
                   "position": step.position.fen(), "to_move": step.position.side_to_move,
                   "value": step.evaluation.value, "plies": step.evaluation.plies}
                  for ply, step in enumerate(line.steps, 1)],
        "movetext": " ".join(numbered(line.position, (step.name for step in line.steps))),
        "result": line.result,
        "reason": line.outcome.reason(line.end),
    }


def stats_object(game: Game, summary: Summary, every: bool = False) -> JSONObject:
    """The ``stats --json`` object of ``game``'s ``summary``; each longest win's class with every one of
    its positions if ``every`` (``--all``)."""
    return {
        "board": str(game.board), "rule": game.rule.name, **summary.counts(),
        "wins_by_plies": {str(plies): count for plies, count in sorted(summary.wins_by_plies.items())},
        "losses_by_plies": {str(plies): count for plies, count in sorted(summary.losses_by_plies.items())},
        "longest_wins": [{"position": fen, "class_size": len(members), **({"positions": members} if every else {})}
                         for fen, members in longest_wins(game, summary)],
    }


def longest_wins(game: Game, summary: Summary) -> list[tuple[str, list[str]]]:
    """The longest wins of ``summary`` by symmetry class (:func:`~solver.neutreeko.model.symmetry.by_class`):
    the canonical position of each class in notation, and its positions among them."""
    return [(Position.from_index(game, canonical).fen(), [Position.from_index(game, i).fen() for i in members])
            for canonical, members in by_class(summary.longest_win_indices, game.board)]


def error_object(line_number: int, text: str, message: str) -> JSONObject:
    """The object ``query -`` prints for a line it cannot answer; a line longer than any position is
    given by its first :data:`~solver.neutreeko.model.position.MAX_POSITION_LENGTH` characters and ``...``."""
    return line_error(line_number, text, message, MAX_POSITION_LENGTH)


def describe(position: Position, evaluation: Evaluation) -> str:
    """``"Black to move wins in 51 plies"``, ``"White to move: draw"``, and for a finished game
    ``"Black has won (three in a row on A1 A2 A3)"`` or ``"Black has won (White cannot move)"``."""
    over = game_over(position)
    if over is not None and over.winner is not None:
        return f"{over.winner.capitalize()} has won ({over.reason(position)})"
    side = position.side_to_move.capitalize()
    if evaluation.plies is None:
        return f"{side} to move: draw"
    return f"{side} to move {'wins' if evaluation.value == 'win' else 'loses'} in {plies_text(evaluation.plies)}"


def query_text(position: Position, evaluation: Evaluation, moves: list[RankedMove]) -> str:
    """The board, the position in notation, its value, then every move best first."""
    return "\n".join([position.diagram(), position.fen(), *ranking_lines(position, evaluation, moves)])


def ranking_lines(position: Position, evaluation: Evaluation, moves: list[RankedMove]) -> list[str]:
    """The position's value, then every move best first (the part of :func:`query_text` after the
    board; ``neutreeko play`` shows it as the hint)."""
    lines = [describe(position, evaluation)]
    if moves:
        width = max(len(move.name) for move in moves)
        lines.append(f"moves, best first (value for {position.side_to_move.capitalize()}, "
                     f"plies from this position):")
        lines.extend(f"  {move.name:<{width}}  {move.evaluation.move_text()}" for move in moves)
    return lines


def line_text(line: Line) -> str:
    """The start position and its value; each ply labelled as ``play`` numbers it (``1.``, ``1...``),
    :data:`FORCED_MARK` after a forced move, with the value after it; the last position, the moves
    numbered in pairs, and the result with its reason."""
    from solver.core.answers.record import wrap
    from solver.neutreeko.playing.record import numbered, ply_label

    lines = [line.position.diagram(), line.position.fen(), describe(line.position, line.evaluation)]
    labels = [ply_label(line.position, ply) for ply in range(1, len(line.steps) + 1)]
    number_width = max((label.index(".") for label in labels), default=0)
    label_width = max((len(label) for label in labels), default=0) - number_width
    name_width = max((len(step.name) for step in line.steps), default=0)
    for label, step in zip(labels, line.steps):
        number, dots = label.split(".", 1)
        mark = FORCED_MARK if step.forced else " "
        lines.append(f"{number:>{number_width}}.{dots:<{label_width - 1}} {step.name:<{name_width}} {mark} "
                     f"{describe(step.position, step.evaluation)}")
    if line.steps:
        lines.append(line.end.diagram())
        lines += ["moves:", wrap(numbered(line.position, (step.name for step in line.steps)))]
        if any(step.forced for step in line.steps):
            lines.append(FORCED_LEGEND)
    lines.append(f"result: {line.result} ({line.outcome.reason(line.end)})")
    return "\n".join(lines)
