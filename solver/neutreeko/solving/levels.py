"""The loop over levels that both retrograde solves share, over positions (:mod:`solver.neutreeko.solving.solve`) and
over symmetry classes (:mod:`solver.neutreeko.solving.solve_classes`): the state between two levels, progress, and
the saved states that let an interrupted solve continue (:mod:`solver.neutreeko.solving.checkpoint`).

Between two levels a solve is nothing but its :class:`State`: the result bytes (as 8-byte words), the
decided bits, the count per row of the latest level's items, the distance reached. A step from a level
to the next changes them in place; a step interrupted halfway leaves them inconsistent (some parents
of the level settled, others not), so a state is saved, and taken up again, only at the start of a
level. The steps depend on nothing else (the numbers of threads and slabs change nothing that is
decided, see :mod:`solver.neutreeko.solving._kernel`), so a solve continued from a saved state gives the bytes
of one never interrupted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from solver.neutreeko.model.values import MAX_DISTANCE

if TYPE_CHECKING:
    from solver.neutreeko.solving.checkpoint import Checkpoints

#: What a solve decides: positions (the full solve) or classes (the solve over symmetry classes).
Unit = str


@dataclass(frozen=True)
class Level:
    """One step of the analysis: ``count`` items (positions, or classes: ``unit``) decided at distance
    ``plies``, ``decided`` of the ``legal`` ones decided so far (this level's included), after
    ``seconds`` of solving (before an interruption included); on a cluster, ``exchanged`` bytes passed
    between workers to decide them (None before the first step, and off a cluster)."""

    plies: int
    count: int
    decided: int
    legal: int
    seconds: float
    unit: Unit
    exchanged: int | None = None

    @property
    def won(self) -> bool:
        """Odd distances are wins for the side to move, even ones losses."""
        return self.plies % 2 == 1

    @property
    def seconds_left(self) -> float | None:
        """How long the rest should take, if the time per item stays that of the levels done so far:
        an upper bound for the most part, as the draws, never decided, are counted as work to come
        (3 to 8 % of the legal positions on the boards solved). None before any level is done."""
        done = self.decided - self.count  # the items whose level has been processed
        if done <= 0:
            return None
        return self.seconds * (self.legal - done) / done


@dataclass(eq=False)
class State:
    """Everything a solve holds between two levels: ``words``, the result bytes as 8-byte words (see
    :mod:`solver.neutreeko.solving._kernel` for what they hold); ``decided``, one bit per item; ``fresh[row]``, the
    items of the level ``plies`` in that row; ``done``, the items decided at smaller distances;
    ``seconds``, the time solved so far."""

    words: np.ndarray
    decided: np.ndarray
    fresh: np.ndarray
    plies: int = 0
    done: int = 0
    seconds: float = 0.0

    def result(self, items: int) -> np.ndarray:
        """The result bytes of the first ``items`` items (a view of :attr:`words`)."""
        return self.words.view(np.uint8)[:items]


@dataclass(frozen=True)
class Layout:
    """How a solve lays its items out in a :class:`State`: ``len(illegal_rows)`` rows of ``row_length``
    items each; the items of the rows that ``illegal_rows`` marks, and every item from ``legal_end`` on,
    are illegal (decided :data:`~solver.neutreeko.model.values.ILLEGAL` before any level), the others
    legal; an undecided legal item's byte counts from 1 to ``most`` moves."""

    row_length: int
    illegal_rows: np.ndarray
    legal_end: int
    most: int


Progress = Callable[[Level], None]
Step = Callable[[np.ndarray, np.ndarray, int], None]


def run_levels(state: State, unit: Unit, legal: int, step: Step, progress: Progress | None = None,
               checkpoints: Checkpoints | None = None) -> None:
    """Take ``state`` through every level: ``step(found, fresh, plies)`` decides the predecessors of
    the level ``plies``, whose counts per row are ``found``, counting the next level's in ``fresh``
    (zeroed). ``progress`` is told of each level before its step, once ``checkpoints`` has saved the
    state if one is due. ``legal`` is the number of legal items, for progress.

    Raises :class:`OverflowError` if a distance does not fit the result byte."""
    began = time.perf_counter() - state.seconds
    saved = state.seconds
    while (count := int(state.fresh.sum())) > 0:
        state.seconds = time.perf_counter() - began
        if checkpoints is not None and state.seconds - saved >= checkpoints.every:
            checkpoints.save(state)
            saved = state.seconds
        if progress:
            progress(Level(state.plies, count, state.done + count, legal, state.seconds, unit))
        if state.plies + 1 > MAX_DISTANCE:
            raise OverflowError(f"distance {state.plies + 1} does not fit the table encoding")
        found, state.fresh = state.fresh, np.zeros_like(state.fresh)
        step(found, state.fresh, state.plies)
        state.done += count
        state.plies += 1
    state.seconds = time.perf_counter() - began
