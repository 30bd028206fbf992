"""What ``neutreeko query`` and ``neutreeko line`` print: JSON objects and text for people.

JSON objects (all values from the side to move's point of view, see :mod:`solver.neutreeko.probe`)::

    query  {"position": FEN, "board": "5x5", "to_move": "black"|"white", "value": "win"|"loss"|"draw",
            "plies": int|null, "moves": [{"move": "B1-C1", "value": ..., "plies": ..., "position": FEN}, ...]}
           a move's value and plies are for the player making it, counted from the queried position;
           ``query -`` prints the same object without "moves" unless asked for them.
    line   {"position": FEN, "board": ..., "to_move": ..., "value": ..., "plies": ...,
            "moves": [{"ply": 1, "move": "B3-C4", "position": FEN, "to_move": ..., "value": ...,
                       "plies": ...}, ...],
            "result": "black wins"|"white wins"|"draw by repetition"|"stopped"}
           a line move's value and plies are those of the position after it, for its side to move.
    error  {"line": n, "input": text, "error": message}        (a bad line of ``query -``; text cut
                                                                after MAX_POSITION_LENGTH characters,
                                                                with "...")
"""

from __future__ import annotations

from typing import Any

from solver.neutreeko.position import MAX_POSITION_LENGTH, Position
from solver.neutreeko.probe import Evaluation, Line, RankedMove
from solver.neutreeko.values import plies_text

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
    return {
        **position_object(line.position, line.evaluation),
        "moves": [{"ply": ply, "move": step.name, "position": step.position.fen(),
                   "to_move": step.position.side_to_move, "value": step.evaluation.value,
                   "plies": step.evaluation.plies} for ply, step in enumerate(line.steps, 1)],
        "result": line.result,
    }


def error_object(line_number: int, text: str, message: str) -> JSONObject:
    """The object ``query -`` prints for a line it cannot answer; a line longer than any position is
    given by its first :data:`~solver.neutreeko.position.MAX_POSITION_LENGTH` characters and ``...``."""
    if len(text) > MAX_POSITION_LENGTH:
        text = text[:MAX_POSITION_LENGTH] + "..."
    return {"line": line_number, "input": text, "error": message}


def describe(position: Position, evaluation: Evaluation) -> str:
    """``"Black to move wins in 51 plies"``, ``"White to move: draw"``, ``"White to move loses in 0
    plies (Black has three in a row)"``."""
    side = position.side_to_move.capitalize()
    if evaluation.plies is None:
        return f"{side} to move: draw"
    text = f"{side} to move {'wins' if evaluation.value == 'win' else 'loses'} in {plies_text(evaluation.plies)}"
    if evaluation.plies == 0:
        winner = position.winner()
        text += f" ({winner.capitalize()} has three in a row)" if winner else f" ({side} cannot move)"
    return text


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
    """The start position and its value, then each ply numbered with the value after it, then the result."""
    lines = [line.position.diagram(), line.position.fen(), describe(line.position, line.evaluation)]
    number_width = len(str(len(line.steps)))
    for ply, step in enumerate(line.steps, 1):
        lines.append(f"{ply:>{number_width}}. {step.name:<5}  {describe(step.position, step.evaluation)}")
    if line.steps:
        lines.append(line.end.diagram())
    lines.append(f"result: {line.result}")
    return "\n".join(lines)
