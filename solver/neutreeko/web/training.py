"""The training page's part of Neutreeko's API (:mod:`solver.neutreeko.web.api` answers through it): the
puzzles of ``neutreeko puzzles`` and the judgement of ``neutreeko train``, from the same library
functions, so that the page, the terminal and a script agree word for word::

    GET /api/puzzles?[board=B][&rule=R][&count=N][&kind=K][&seed=S][&min_plies=A][&max_plies=Z]
        the ``neutreeko puzzles --json`` object (:func:`solver.neutreeko.playing.puzzles.puzzles_object`) of
        :func:`~solver.neutreeko.playing.puzzles.find_puzzles` with these arguments; N from 1 to
        :data:`MAX_PUZZLES` (default 20), K ``win``, ``save`` or ``all`` (default), S a whole number
        (default 0), A and Z plies (default 1 and no limit)
    GET /api/try?position=P[&moves=M][&board=B][&rule=R][&move=X]
        the exercise of the position (:class:`solver.neutreeko.playing.train.Exercise`): ``{"position", "board",
        "rule", "side", "task": "White to move and win", "moves": [every legal move, by name, in
        alphabetical order]}``, values hidden; with X, also the try judged as ``neutreeko train`` judges
        it: ``{..., "move": X, "correct": true, "verdict": "correct: the only winning move, wins in 7",
        "solution": "solution: 1. E5-C3! ... (White wins)", "line": [the solution's moves],
        "keeping": [every move that keeps the value]}``

A position of a puzzle set is one with exactly one value-keeping move; ``/api/try`` takes any won or
drawn position (the one before a game's mistake may have several right moves, each judged correct). A
lost position, or a game already over, has nothing to find: a 400.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from solver.core import MAX_SEED
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.playing import KINDS
from solver.neutreeko.playing.puzzles import find_puzzles, puzzles_object
from solver.neutreeko.playing.train import Exercise
from solver.neutreeko.querying.probe import Tablebase
from solver.web.game_api import ApiError, JSONObject

#: The most puzzles one request of ``/api/puzzles`` asks for, so that a set is sampled in a moment.
MAX_PUZZLES = 100
#: The puzzles of a set when ``count`` is not given (as ``neutreeko puzzles``).
DEFAULT_PUZZLES = 20

PUZZLES_PARAMETERS = ("board", "rule", "count", "kind", "seed", "min_plies", "max_plies")
TRY_PARAMETERS = ("position", "moves", "board", "rule", "move")

_NUMBER = re.compile(r"[0-9]{1,18}")


def whole_number(parameters: Mapping[str, str], name: str, default: int | None, least: int,
                 most: int | None = None) -> int | None:
    """The parameter ``name`` as a whole number from ``least`` to ``most`` (no bound if None), or
    ``default`` if it is not given; :class:`~solver.web.game_api.ApiError` naming it otherwise."""
    text = parameters.get(name)
    if text is None:
        return default
    bounds = f"from {least} to {most}" if most is not None else f"of at least {least}"
    if not _NUMBER.fullmatch(text) or int(text) < least or (most is not None and int(text) > most):
        raise ApiError(f"{name} {text[:20]!r} is not a whole number {bounds}")
    return int(text)


def puzzles(tablebase: Tablebase, game: Game, parameters: Mapping[str, str]) -> JSONObject:
    """The ``/api/puzzles`` object of ``game`` for ``parameters`` (see the module docstring)."""
    kind = parameters.get("kind", "all")
    if kind not in KINDS:
        raise ApiError(f"kind {kind[:20]!r} is not one of {', '.join(KINDS)}")
    count = whole_number(parameters, "count", DEFAULT_PUZZLES, 1, MAX_PUZZLES)
    seed = whole_number(parameters, "seed", 0, 0, MAX_SEED)
    min_plies = whole_number(parameters, "min_plies", 1, 1)
    max_plies = whole_number(parameters, "max_plies", None, 1)
    assert count is not None and seed is not None and min_plies is not None
    if max_plies is not None and min_plies > max_plies:  # find_puzzles would say it in the CLI's words
        raise ApiError(f"min_plies {min_plies} is more than max_plies {max_plies}")
    return puzzles_object(find_puzzles(tablebase, game, count, kind, min_plies, max_plies, seed))


def try_move(tablebase: Tablebase, position: Position, move: str | None) -> JSONObject:
    """The ``/api/try`` object of ``position``, and of the try ``move`` there if it is given (see the
    module docstring); a move that does not parse or is not legal raises as :meth:`Position.parse_move
    <solver.neutreeko.model.position.Position.parse_move>` does."""
    try:
        exercise = Exercise.at(tablebase, position, "puzzle")
    except ValueError as error:
        raise ApiError(f"{error}: nothing to find there") from None
    answer: JSONObject = {"position": position.fen(), "board": str(position.game.board),
                          "rule": position.game.rule.name, "side": position.side_to_move, "task": exercise.task,
                          "moves": sorted(entry.name for entry in exercise.ranked)}
    if move is None:
        return answer
    judged = exercise.answer(tablebase, exercise.ranked_move(position.parse_move(move)))
    return {**answer, "move": judged.played.name, "correct": judged.right, "verdict": judged.verdict,
            "solution": judged.solution, "line": [step.name for step in judged.line.steps],
            "keeping": [entry.name for entry in exercise.keeping]}
