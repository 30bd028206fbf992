"""What the explorer asks of each game's API (:class:`~solver.web.game_api.GameApi`), and the error an API raises for a
request it cannot answer (:class:`~solver.web.game_api.ApiError`).

Each game's API lives in its own package (its registry entry's ``web``, see
:class:`~solver.core.games.GameEntry`), reached through :mod:`solver.web.api`: the server sees
endpoints, parameters and JSON objects only, never a board or a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from typing import Any, Protocol, TypeVar

from solver.core.answers.record import Variation
from solver.core.errors import InputError

JSONObject = dict[str, Any]
State = TypeVar("State")
Step = TypeVar("Step")

#: The most positions one ``POST /api/positions`` answers, one a line of its body (:func:`position_lines`).
MAX_POSITIONS = 1000
#: The most moves (NECNON's turns) a game tree may hold, its main line and every variation together, for
#: ``/api/game``, ``/api/annotate`` and ``/api/record``, and how deep its variations may nest: the work
#: and the answer of such a request grow with them (:func:`check_tree`).
MAX_TREE_PLIES, MAX_NESTING = 2000, 100


class ApiError(InputError):
    """A request the API cannot answer, with the HTTP status to answer it with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class GameApi(Protocol):
    """One game's endpoints. ``endpoints`` maps each path the game answers to the parameters it reads
    (``game`` apart, which the registry reads); ``answer`` is called only with those parameters.
    ``posted`` maps each path that takes a POST's body (a game record, or positions one a line) to the
    parameters it reads from the URL; ``answer_body`` answers it."""

    @property
    def endpoints(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def posted(self) -> Mapping[str, tuple[str, ...]]: ...

    def answer(self, endpoint: str, parameters: Mapping[str, str]) -> JSONObject:
        """The JSON object ``endpoint`` answers with for ``parameters``; raises
        :class:`~solver.core.errors.InputError` naming what is wrong with them."""

    def answer_body(self, endpoint: str, parameters: Mapping[str, str], text: str) -> JSONObject:
        """The JSON object ``endpoint`` (one of ``posted``) answers with for the body ``text`` and the URL's
        ``parameters`` (those it reads only); raises :class:`~solver.core.errors.InputError` naming the
        line of a record that cannot be read, or what is wrong with the parameters."""

    def games(self) -> list[JSONObject]:
        """The game's entries of ``/api/games``: ``{"game": name, "board": ..., ..., "table": state}``;
        the same list object while nothing in it changed."""

    def catalogue(self) -> JSONObject:
        """What ``/api/games`` says beside the lists when this is the default game (its default board,
        for example)."""


def check_tree(moves: Sequence[object], variations: Sequence[Variation[Any]]) -> None:
    """Raise :class:`ApiError` (413) if the tree of ``moves`` and ``variations`` holds more than
    :data:`MAX_TREE_PLIES` moves in all or nests more than :data:`MAX_NESTING` variations deep."""
    plies, depth, level = len(moves), 0, list(variations)
    while level and plies <= MAX_TREE_PLIES and depth <= MAX_NESTING:
        depth += 1
        plies += sum(len(variation.moves) for variation in level)
        level = [nested for variation in level for nested in variation.variations]
    if plies > MAX_TREE_PLIES:
        raise ApiError(f"the game holds more than {MAX_TREE_PLIES:,} moves with its variations; at most that many "
                       "are answered", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    if depth > MAX_NESTING:
        raise ApiError(f"the game's variations nest more than {MAX_NESTING} deep; at most that many are answered",
                       HTTPStatus.REQUEST_ENTITY_TOO_LARGE)


def position_lines(text: str) -> list[str]:
    """The lines of a ``POST /api/positions`` body, one position each (a last line end ignored); raises
    :class:`ApiError` for none (400) or more than :data:`MAX_POSITIONS` (413)."""
    lines = [line.removesuffix("\r") for line in text.removesuffix("\n").split("\n")] if text else []
    if not lines:
        raise ApiError("the body holds no position: send one position a line")
    if len(lines) > MAX_POSITIONS:
        raise ApiError(f"the body holds {len(lines):,} lines; at most {MAX_POSITIONS:,} positions are answered "
                       "a request", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    return lines


def variation_objects(positions: Sequence[State], variations: Sequence[Variation[Step]],
                      play: Callable[[State, Step], State],
                      said: Callable[[Variation[Step], State, list[State]], JSONObject]) -> list[JSONObject]:
    """The answers of ``variations``, those of the main line leading to ``positions`` (the start, then
    after each move), and of theirs, nested: ``said(variation, before, after)`` answers one, given the
    position before its first move and those after each of its moves (``play`` plays a move), and its own
    variations' answers are put under ``"variations"``. Without recursion: nesting of any depth."""
    answers: list[JSONObject] = []
    # Each variation still to answer, with the positions of the line it branches off, the ply of the
    # first of them, and the list its answer goes in; the next to answer last.
    todo = [(variation, positions, 0, answers) for variation in reversed(variations)]
    while todo:
        variation, line, first, into = todo.pop()
        before = line[variation.ply - 1 - first]
        after = [before]
        for move in variation.moves:
            after.append(play(after[-1], move))
        answer: JSONObject = {**said(variation, before, after[1:]), "variations": []}
        into.append(answer)
        todo += [(nested, after, variation.ply - 1, answer["variations"]) for nested in reversed(variation.variations)]
    return answers


def check_parameters(endpoint: str, parameters: Mapping[str, str], known: tuple[str, ...]) -> None:
    """Raise :class:`ApiError` naming the first of ``parameters`` that ``endpoint`` does not read."""
    unknown = sorted(set(parameters) - set(known))
    if unknown:
        raise ApiError(f"unknown parameter {unknown[0]!r} for {endpoint}; it takes: {', '.join(known) or 'none'}")
