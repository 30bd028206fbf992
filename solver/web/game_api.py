"""What the explorer asks of each game's API (:class:`GameApi`), and the error an API raises for a
request it cannot answer (:class:`ApiError`).

Each game's API lives in its own package (its registry entry's ``web``, see
:class:`~solver.core.games.GameEntry`), reached through :mod:`solver.web.api`: the server sees
endpoints, parameters and JSON objects only, never a board or a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from solver.core.errors import InputError

JSONObject = dict[str, Any]


class ApiError(InputError):
    """A request the API cannot answer, with the HTTP status to answer it with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class GameApi(Protocol):
    """One game's endpoints. ``endpoints`` maps each path the game answers to the parameters it reads
    (``game`` apart, which the registry reads); ``answer`` is called only with those parameters.
    ``posted`` are the endpoints that also take a game record of the game as a POST's body, which
    ``answer_record`` answers."""

    @property
    def endpoints(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def posted(self) -> tuple[str, ...]: ...

    def answer(self, endpoint: str, parameters: Mapping[str, str]) -> JSONObject:
        """The JSON object ``endpoint`` answers with for ``parameters``; raises
        :class:`~solver.core.errors.InputError` naming what is wrong with them."""

    def answer_record(self, endpoint: str, text: str) -> JSONObject:
        """The JSON object ``endpoint`` (one of ``posted``) answers with for the game record ``text``;
        raises :class:`~solver.core.errors.InputError` naming the line of a record that cannot be read."""

    def games(self) -> list[JSONObject]:
        """The game's entries of ``/api/games``: ``{"game": name, "board": ..., ..., "table": state}``;
        the same list object while nothing in it changed."""

    def catalogue(self) -> JSONObject:
        """What ``/api/games`` says beside the lists when this is the default game (its default board,
        for example)."""


def check_parameters(endpoint: str, parameters: Mapping[str, str], known: tuple[str, ...]) -> None:
    """Raise :class:`ApiError` naming the first of ``parameters`` that ``endpoint`` does not read."""
    unknown = sorted(set(parameters) - set(known))
    if unknown:
        raise ApiError(f"unknown parameter {unknown[0]!r} for {endpoint}; it takes: {', '.join(known) or 'none'}")
