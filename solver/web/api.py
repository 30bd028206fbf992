"""The explorer's JSON API, apart from HTTP: an endpoint and its parameters in, a JSON object out, for
every game of the registry (:mod:`solver.registry`).

A request names its game with the parameter ``game`` (default: the registry's default game); the
game's own API (its entry's ``web``, a :class:`~solver.web.game_api.GameApi`) answers it with the
parameters it reads, which are that game's. ``GET /api/games`` lists every game's boards in one
answer, with what the default game's :meth:`~solver.web.game_api.GameApi.catalogue` adds::

    {"games": [{"game": "neutreeko", "board": "5x5", "rule": "connected", "table": "ready"}, ...,
               {"game": "necnon", "board": "4x4", "protocol": "nec", "table": "on demand"}, ...],
     "default": {"board": "5x5", "rule": "connected"}, "max_line_plies": 1000}

A POST to one of the endpoints that take a body (:attr:`Explorer.posted`) carries a game record, or for
``/api/positions`` positions one a line, of the game the URL names (``?game=...``); the URL holds only
the parameters the game's endpoint reads from it (the board of ``/api/positions``, for example).

A request that cannot be answered raises :class:`~solver.web.game_api.ApiError` (HTTP 400, 404 for an
endpoint no game has) or another :class:`~solver.core.errors.InputError` naming the problem (400); the
errors of tables and builds are the games' (see their modules). :class:`Explorer` is safe to call from
several threads at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from solver import registry
from solver.core.answers.notation import quote
from solver.core.games import load
from solver.core.storage.remote import Location
from solver.web.game_api import ApiError, GameApi, JSONObject, check_parameters
from solver.web.tables import BuildLimits, Builds

__all__ = ["ApiError", "Explorer", "makers"]

#: The endpoint every explorer answers itself, whatever its games.
GAMES_ENDPOINT = "/api/games"
#: What makes a game's API: called with the tables directory and the builds every game's tables share.
ApiMaker = Callable[[Location | None, Builds], GameApi]


def makers() -> dict[str, ApiMaker]:
    """The API maker of every registered game, by the name a request gives in ``game``."""
    return {entry.name: load(entry.web) for entry in registry.games()}


class Explorer:
    """Answers the API's requests for every game of the registry from the tables in ``directory``
    (default: the tables directory). Missing tables are built one at a time, whatever their game, within
    ``limits``; ``announce`` is told, in words, when a build starts, ends or fails (see
    :mod:`solver.web.tables`). :meth:`close` stops a build under way. ``apis`` makes each game's API
    (default: :func:`makers`); the default game's must be among them."""

    def __init__(self, directory: Location | None = None, announce: Callable[[str], None] = lambda message: None,
                 limits: BuildLimits = BuildLimits(), apis: Mapping[str, ApiMaker] | None = None) -> None:
        self._builds = Builds(announce, limits)
        self._apis = {name: make(directory, self._builds) for name, make in (apis or makers()).items()}
        self._default = registry.default().name
        #: Every endpoint of some game, and ``/api/games``.
        self.endpoints = sorted({endpoint for api in self._apis.values() for endpoint in api.endpoints}
                                | {GAMES_ENDPOINT})
        #: Every endpoint that takes a POST's body for some game.
        self.posted = sorted({endpoint for api in self._apis.values() for endpoint in api.posted})
        self._games: tuple[tuple[list[JSONObject], ...], JSONObject] | None = None  # the games' lists, the answer

    def answer(self, endpoint: str, parameters: Mapping[str, str]) -> JSONObject:
        """The JSON object ``endpoint`` answers with for ``parameters``: the answer of the game they name."""
        if endpoint not in self.endpoints:
            raise ApiError(f"no endpoint {endpoint}; the API has {', '.join(self.endpoints)}", 404)
        if endpoint == GAMES_ENDPOINT:
            check_parameters(endpoint, parameters, ())
            return self.games()
        api = self._api(endpoint, parameters, posted=False)
        check_parameters(endpoint, parameters, ("game", *api.endpoints[endpoint]))
        return api.answer(endpoint, {key: value for key, value in parameters.items() if key != "game"})

    def answer_body(self, endpoint: str, parameters: Mapping[str, str], text: str) -> JSONObject:
        """The JSON object ``endpoint`` (one of :attr:`posted`) answers with for the body ``text`` (a game
        record, or positions one a line) of the game ``parameters`` name, with the other parameters it reads."""
        api = self._api(endpoint, parameters, posted=True)
        known = api.posted[endpoint]
        if set(parameters) - {"game", *known}:
            raise ApiError(f"POST {endpoint} takes its input in the body, and only "
                           f"{', '.join(('game', *known))} in the URL")
        return api.answer_body(endpoint, {key: value for key, value in parameters.items() if key != "game"}, text)

    def _api(self, endpoint: str, parameters: Mapping[str, str], posted: bool) -> GameApi:
        """The API of the game ``parameters`` name, if it answers ``endpoint`` (among the endpoints that
        take a posted record if ``posted``); else :class:`ApiError` naming what it has."""
        name = parameters.get("game", self._default)
        api = self._apis.get(name)
        if api is None:
            raise ApiError(f"unknown game {quote(name)}; the explorer has {', '.join(self._apis)}")
        offered = tuple(api.posted if posted else api.endpoints)
        if endpoint not in offered:
            what = "no POST to" if posted else "no endpoint"
            raise ApiError(f"{name} has {what} {endpoint}; it has {', '.join(offered)}")
        return api

    def games(self) -> JSONObject:
        """Every game's boards, with the state of their tables (``GET /api/games``); the answer is kept
        while every game keeps its list (see :meth:`GameApi.games <solver.web.game_api.GameApi.games>`)."""
        lists = tuple(api.games() for api in self._apis.values())
        if self._games is None or any(kept is not new for kept, new in zip(self._games[0], lists)):
            self._games = lists, {"games": [entry for each in lists for entry in each],
                                  **self._apis[self._default].catalogue()}
        return self._games[1]

    def close(self) -> None:
        """Stop the build under way, if any, removing what it wrote; build nothing more."""
        self._builds.stop()
