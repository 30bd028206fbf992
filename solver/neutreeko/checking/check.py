"""The forward consistency check of a solved table: every stored value confirmed from its children's.

A table is right exactly when each index holds the byte its children's bytes call for, by the
definitions of :mod:`solver.neutreeko.model.values`:

* not legal (ILLEGAL) exactly where the side to move already has a winning triple;
* lost in 0 where the other side has three in a row, or the side to move has no move;
* won in d when some child is lost in d - 1 and none in less;
* lost in d (d > 0) when every child is won, the longest in d - 1;
* drawn when no child is lost and some child is drawn.

A table that passes is the solution, by induction on the distance: the lost-in-0 positions are right,
a position labelled with distance d is truly valued so once those with smaller distances are, and a
position truly won or lost cannot be labelled a draw, since a draw needs a drawn child but all the
children of a lost position are won and a won position has a lost child. So the check proves a table
right without a reference solver, with its own move generation (:mod:`solver.neutreeko.checking._forward`),
forwards, not the solver's unmoves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from solver.core.errors import IllegalPositionError
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import symmetries
from solver.neutreeko.model.values import ILLEGAL, MAX_DISTANCE, Evaluation
from solver.neutreeko.solving.kernel_inputs import KernelInputs
from solver.neutreeko.tables.folding import Classes

#: At most this many inconsistencies are listed one by one (all are counted).
LISTED = 1000


def byte_text(byte: int) -> str:
    """What a result byte says: ``"win in 3"``, ``"draw"``, ``"illegal"``; a distance the encoding
    cannot hold is named as such."""
    if byte == ILLEGAL:
        return "illegal"
    if byte > MAX_DISTANCE + 1:
        return f"{'win' if (byte - 1) % 2 else 'loss'} in {byte - 1} (beyond the encoding)"
    return Evaluation.of_byte(byte).terse()


@dataclass(frozen=True)
class Inconsistency:
    """An index whose ``stored`` byte is not the ``expected`` one its children call for."""

    index: int
    stored: int
    expected: int

    def describe(self, game: Game) -> str:
        """One line: the position (as notation with Black to move, or its squares if not legal), the
        stored value and the value its children give."""
        try:
            where = Position.from_index(game, self.index).fen()
        except IllegalPositionError:
            mover, other = index.decode(self.index, game.board.size)
            where = (f"mover on {' '.join(map(game.board.name, mover.tolist()))}, other side on "
                     f"{' '.join(map(game.board.name, other.tolist()))}")
        return (f"index {self.index:,} ({where}): stored {byte_text(self.stored)}, "
                f"its children give {byte_text(self.expected)}")


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_consistency` found: ``indices`` checked, of which ``legal`` legal positions, and ``wrong``
    inconsistencies, the first :data:`LISTED` of them (in index order) in ``listed``. Of
    :func:`check_folded`, ``unit`` is ``"classes"``: ``indices`` and ``legal`` count the classes, and
    an inconsistency's index is its class's canonical one."""

    game: Game
    indices: int
    legal: int
    wrong: int
    listed: tuple[Inconsistency, ...]
    seconds: float
    unit: str = "indices"

    @property
    def passed(self) -> bool:
        """No inconsistency, and, for a folded table, every class met by the pass."""
        return self.wrong == 0 and (self.unit != "classes" or self.legal == self.indices)


def check_consistency(game: Game, result: npt.NDArray[np.uint8], listed: int = LISTED,
                      progress: Progress | None = None) -> CheckReport:
    """Check every index of ``result`` (one byte per index of ``game``) against its children, in
    parallel; list at most ``listed`` inconsistencies (all are counted). ``progress`` is told how far
    the check is, about a hundred times (see :class:`CheckStep`)."""
    import numba  # numba is imported only when something is checked

    from solver.neutreeko.checking import _forward

    if result.shape != (game.positions,):
        raise ValueError(f"{game} has {game.positions:,} indices, not {len(result):,}")
    began = time.perf_counter()
    inputs = KernelInputs.of(game, numba.get_num_threads())
    legal = np.zeros(len(inputs.triples), dtype=np.int64)

    def run(wrong: np.ndarray, listing: bool, found: np.ndarray, offsets: np.ndarray, expected: np.ndarray,
            first: int, last: int) -> None:
        _forward._check_rows(result, inputs.steps, inputs.triples, inputs.wins, inputs.weights, inputs.other_count,
                             legal, wrong, listing, found, offsets, expected, first, last)

    total, found, expected = _two_passes(len(inputs.triples), listed, run,
                                         _Watch("indices", game.positions, began, progress))
    order = np.argsort(found, kind="stable")
    inconsistencies = tuple(Inconsistency(int(found[i]), int(result[found[i]]), int(expected[i])) for i in order)
    return CheckReport(game, game.positions, int(legal.sum()), total, inconsistencies,
                       time.perf_counter() - began)


def check_folded(game: Game, folded: npt.NDArray[np.uint8], listed: int = LISTED,
                 progress: Progress | None = None) -> CheckReport:
    """Check every class of a folded table, ``folded`` (one byte per legal class of ``game``, in the order
    of :mod:`solver.neutreeko.tables.folding`), against its children's classes, without unfolding it; list at
    most ``listed`` inconsistencies (all are counted), in class order.

    A folded table that passes unfolds to a full one that passes :func:`check_consistency`, so it is
    the solution, by the proof of the module docstring: every position of a class is the image of the
    class's canonical position under a symmetry, which takes its children to the canonical position's
    children, class for class, so its children's bytes, and the byte they call for, are those of the
    canonical position. Each child is taken to its class as the folding defines it, the smallest index
    among its images (of those whose mover is the smallest image of the child's mover,
    :func:`solver.neutreeko.checking._forward._lowest_images`), not by the solver's shortcuts. The report's
    ``legal`` counts the classes the pass met, which must be every one once (``indices``).
    ``progress`` as for :func:`check_consistency`, counting classes."""
    classes = Classes.of(game)
    if folded.shape != (classes.count,):
        raise ValueError(f"{game} has {classes.count:,} legal classes, not {len(folded):,}")
    began = time.perf_counter()
    run, checked = folded_rows(game, folded)
    total, found, expected = _two_passes(len(checked), listed, run, _Watch("classes", classes.count, began, progress))
    return folded_report(game, total, found, expected, int(checked.sum()), lambda numbers: folded[numbers],
                         time.perf_counter() - began)


def folded_rows(game: Game, folded: npt.NDArray[np.uint8]) -> tuple[Callable[..., None], np.ndarray]:
    """The check of some rows of ``folded`` (the triples of the other side), ``run(wrong, listing, found,
    offsets, expected, first, last)`` as a check's two passes take it, and the count per row of the
    classes it has met (``checked``, filled as it runs): a check over several processes runs it on
    stretches of rows in each."""
    import numba  # numba is imported only when something is checked

    from solver.neutreeko.checking import _forward

    classes = Classes.of(game)
    inputs = KernelInputs.of(game, numba.get_num_threads())
    checked = np.zeros(len(inputs.triples), dtype=np.int64)

    def run(wrong: np.ndarray, listing: bool, found: np.ndarray, offsets: np.ndarray, expected: np.ndarray,
            first: int, last: int) -> None:
        _forward._check_classes(folded, inputs.steps, inputs.triples, inputs.wins, symmetries(game.board),
                                inputs.other_count, classes.block_start, classes.symmetric, classes.symmetric_indices,
                                checked, wrong, listing, found, offsets, expected, first, last)

    return run, checked


def folded_report(game: Game, total: int, found: np.ndarray, expected: np.ndarray, checked: int,
                  stored: Callable[[np.ndarray], np.ndarray], seconds: float) -> CheckReport:
    """The report of the check of a folded table: ``total`` inconsistencies, those listed being the
    classes ``found`` whose bytes (``stored(found)``) should be ``expected``; ``checked`` classes met."""
    order = np.argsort(found, kind="stable")
    canonical = Classes.of(game).canonical_of(found[order])
    bytes_found = stored(found[order]) if len(found) else np.empty(0, dtype=np.uint8)
    inconsistencies = tuple(Inconsistency(int(position), int(byte), int(expected[i]))
                            for position, byte, i in zip(canonical, bytes_found, order))
    return CheckReport(game, Classes.of(game).count, checked, total, inconsistencies, seconds, "classes")


@dataclass(frozen=True)
class CheckStep:
    """How far a forward check is: ``done`` of ``total`` items (``unit``, indices or classes) checked in
    ``seconds``."""

    unit: str
    done: int
    total: int
    seconds: float

    @property
    def seconds_left(self) -> float | None:
        """The time left at the pace so far, or None before there is a pace."""
        return self.seconds * (self.total - self.done) / self.done if self.done else None


Progress = Callable[[CheckStep], None]

#: A check's first pass runs in about this many stretches of rows, each told to its progress.
_STRETCHES = 100


@dataclass(frozen=True)
class _Watch:
    unit: str
    total: int
    began: float
    progress: Progress | None

    def tell(self, share: float) -> None:
        """Tell the progress that ``share`` (0 to 1) of the items are checked."""
        if self.progress is not None:
            self.progress(CheckStep(self.unit, round(self.total * share), self.total,
                                        time.perf_counter() - self.began))


def _two_passes(count: int, listed: int, run: Callable[..., None], watch: _Watch) -> tuple[int, np.ndarray, np.ndarray]:
    """Run a check over ``count`` rows, the triples of the other side (``run(wrong, listing, found,
    offsets, expected, first, last)``, as :func:`solver.neutreeko.checking._forward._check_rows` takes them),
    each of about the same work: once counting the inconsistencies of each row, in about
    :data:`_STRETCHES` stretches of rows, ``watch`` told after each; then, if there are any and
    ``listed``, again over the rows with some, to list the first ``listed`` of them (they are few, or not
    listed). Returns (their number, those found, the bytes expected there)."""
    wrong = np.zeros(count, dtype=np.int64)
    found, expected = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    offsets = np.full(count, -1, dtype=np.int64)
    cuts = np.linspace(0, count, min(_STRETCHES, count) + 1).astype(np.int64)
    for first, last in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
        run(wrong, False, found, offsets, expected, first, last)
        watch.tell(last / count)
    total = int(wrong.sum())
    if total and listed:
        offsets = np.where(wrong > 0, np.cumsum(wrong) - wrong, -1)
        offsets[offsets >= listed] = -1
        found, expected = np.empty(min(total, listed), dtype=np.int64), np.empty(min(total, listed), dtype=np.int64)
        run(wrong, True, found, offsets, expected, 0, count)
    return total, found, expected
