"""What a game's ``conformance`` part offers (:class:`~solver.core.conformance.Conformance`): its rules
on a small board, in a form one test checks for every registered game; and the rule of the games decided
in plies (:func:`~solver.core.conformance.by_plies`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol


class Conformance(Protocol):
    """A game on a small board. Positions are any hashable objects; each has an integer key.

    * ``board``: the small board's name;
    * ``positions()``: every position of the board (or a sample), each once;
    * ``encode(position)``: its key; ``decode(key)``: the position again;
    * ``children(position)``: the positions its moves lead to (none when the game is over);
    * ``parents``: ``parents(position)``, the positions whose moves lead to it (its unmoves), or None
      for a game that has no unmoves;
    * ``images(position)``: its images under each symmetry of the board, the identity first, the
      symmetries in one order for every position;
    * ``solve_small()``: the value of every position of :meth:`positions`, by key, as the game's solver
      gives it;
    * ``value(position, values)``: the value the game's rule gives ``position`` from ``values``, those
      of its children in the order of :meth:`children`.
    """

    board: str
    parents: Callable[[Any], Sequence[Any]] | None

    def positions(self) -> Sequence[Hashable]: ...
    def encode(self, position: Any) -> int: ...
    def decode(self, key: int) -> Any: ...
    def children(self, position: Any) -> Sequence[Any]: ...
    def images(self, position: Any) -> Sequence[Any]: ...
    def solve_small(self) -> Mapping[int, Any]: ...
    def value(self, position: Any, values: Sequence[Any]) -> Any: ...


def by_plies(values: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The value ``(outcome, plies)`` of a position with children of ``values`` (at least one), each from
    its own side to move: ``outcome`` 1 won, -1 lost, 0 drawn (``plies`` then 0). A move to a lost child
    wins, the soonest; if every child is won the position is lost, the latest; else it is drawn.

    >>> by_plies([(1, 3), (-1, 4), (-1, 2)]), by_plies([(1, 3), (1, 1)]), by_plies([(1, 3), (0, 0)])
    ((1, 3), (-1, 4), (0, 0))
    """
    lost = [plies for outcome, plies in values if outcome < 0]
    if lost:
        return 1, min(lost) + 1
    if all(outcome > 0 for outcome, _ in values):
        return -1, max(plies for _, plies in values) + 1
    return 0, 0
