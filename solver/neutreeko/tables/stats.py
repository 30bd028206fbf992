"""Statistics of a solved game, computed from its result bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED, encode_result

# Bytes counted at a time: bounds the temporary arrays (np.bincount widens its input to 8 bytes a value).
_STRETCH = 1 << 24

#: The scalar counts of a :class:`Summary`, which tables store as attributes under these names.
COUNT_NAMES = ("legal", "wins", "losses", "draws", "longest_win", "longest_loss", "no_move")


@dataclass(frozen=True)
class Summary:
    """Counts of a solved game. ``wins``/``losses`` are from the side to move's point of view;
    ``no_move`` counts the positions lost because the side to move cannot move."""

    legal: int
    wins: int
    losses: int
    draws: int
    longest_win: int
    longest_loss: int
    no_move: int
    wins_by_plies: dict[int, int]
    losses_by_plies: dict[int, int]
    longest_win_indices: tuple[int, ...]

    def counts(self) -> dict[str, int]:
        """The scalar counts, by name (stored as table attributes)."""
        return {name: getattr(self, name) for name in COUNT_NAMES}


def summarize(game: Game, result: np.ndarray) -> Summary:
    """Count ``result`` (one byte per index of ``game``) by value and distance (see
    :func:`summarize_stretches`)."""
    return summarize_stretches(game, stretches(result))


def summarize_folded(game: Game, folded: np.ndarray) -> Summary:
    """The summary of the positions (not the classes) of ``folded``, one byte per legal class of
    ``game`` (a folded table's data), as :func:`summarize` gives it from the table unfolded (see
    :func:`summarize_folded_stretches`)."""
    return summarize_folded_stretches(game, stretches(folded))


def summarize_folded_stretches(game: Game, parts: Iterable[tuple[int, np.ndarray]]) -> Summary:
    """The summary of the positions (not the classes) of a folded table's data, one byte per legal class
    of ``game``, given as (first class, bytes) stretches that together cover every class once, in order:
    each class counted as many times as it has positions, in parallel, without unfolding the table (10 x
    10's folded table is 3 GB, its unfolding 24 GB) and in the memory of one stretch (and of the classes
    of the longest wins), so that a table can be counted as it is read a chunk at a time. Raises
    ``ValueError`` if a class is marked illegal or the stretches do not cover the legal classes."""
    import numba  # numba is imported only when a folded table is counted

    from solver.neutreeko.model.symmetry import images
    from solver.neutreeko.solving import _class_kernel
    from solver.neutreeko.solving.class_inputs import ClassInputs
    from solver.neutreeko.solving.kernel_inputs import KernelInputs

    classes, inputs = ClassInputs.of(game), KernelInputs.of(game, numba.get_num_threads())
    histogram = np.zeros(256, dtype=np.int64)
    longest, no_move, covered = _LongestWin(), 0, 0
    for first, part in parts:
        if first != covered or first + len(part) > classes.count:
            raise ValueError(f"classes {first:,} to {first + len(part) - 1:,} given after {covered:,} of "
                             f"{game}'s {classes.count:,} legal classes")
        by_stretch = np.zeros((8 * numba.get_num_threads(), 256), dtype=np.int64)
        no_move_by_stretch = np.zeros(len(by_stretch), dtype=np.int64)
        _class_kernel._histogram(part, first, inputs.triples, inputs.wins, inputs.other_count, classes.arrays,
                                 by_stretch, no_move_by_stretch)
        counts = by_stretch.sum(axis=0)
        if counts[ILLEGAL]:
            raise ValueError("it marks a legal class as illegal")
        histogram += counts
        no_move += int(no_move_by_stretch.sum())
        longest.see(first, part, counts)
        covered += len(part)
    if covered != classes.count:
        raise ValueError(f"{game} has {classes.count:,} legal classes, not {covered:,}")
    found = longest.places().astype(inputs.index_type)
    _class_kernel._canonical_positions(found, len(found), inputs.triples, inputs.other_count, classes.arrays,
                                       np.empty(len(found), dtype=np.uint8))
    positions = np.unique(images(found, game.board))
    return summary_from(histogram, no_move, positions)


def stretches(result: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """``result`` as (first index, bytes) stretches, in order, each a view of at most 16 MB."""
    for first in range(0, len(result), _STRETCH):
        yield first, result[first:first + _STRETCH]


def summarize_stretches(game: Game, parts: Iterable[tuple[int, np.ndarray]]) -> Summary:
    """Count the result bytes of ``game`` given as (first index, bytes) stretches that together cover
    every index once, in order, by value and distance; in the memory of one stretch (and of the
    indices of the longest wins), so that a table can be counted as it is read a chunk at a time."""
    histogram = np.zeros(256, dtype=np.int64)
    longest, no_move = _LongestWin(), 0
    lost_at_once = encode_result(0)
    for first, part in parts:
        counts = np.bincount(part, minlength=256)
        histogram += counts
        longest.see(first, part, counts)
        if counts[lost_at_once]:
            _, other = index.decode(first + np.flatnonzero(part == lost_at_once), game.board.size)
            no_move += int(np.count_nonzero(~game.wins[index.triple_rank(other[:, 0], other[:, 1], other[:, 2])]))
    return summary_from(histogram, no_move, longest.places())


class _LongestWin:
    """The places of the longest win among stretches of result bytes seen in order: those of the
    greatest win byte seen so far."""

    def __init__(self) -> None:
        self.byte, self._places = 0, list[np.ndarray]()

    def see(self, first: int, part: np.ndarray, counts: np.ndarray) -> None:
        """Take the stretch ``part`` of places ``first`` on; ``counts[byte]`` is not 0 for each byte it
        holds (its count of them, or of their positions: only which bytes are held matters)."""
        win_bytes = np.flatnonzero(counts[_WIN_BYTES]) * 2 + 2
        if len(win_bytes) and win_bytes[-1] >= self.byte:
            if win_bytes[-1] > self.byte:
                self.byte, self._places = int(win_bytes[-1]), []
            self._places.append(first + np.flatnonzero(part == self.byte))

    def places(self) -> np.ndarray:
        """The places (int64, sorted) that hold the longest win's byte."""
        return np.concatenate(self._places) if self._places else np.empty(0, dtype=np.int64)


def summary_from(histogram: np.ndarray, no_move: int, longest_win_places: np.ndarray) -> Summary:
    """The summary of a game whose indices hold ``histogram[byte]`` times each result byte (the
    not legal ones included), ``no_move`` of them lost because the side to move cannot move, and
    whose longest wins are the positions of the sorted indices ``longest_win_places``."""
    by_distance = {byte - 1: int(histogram[byte]) for byte in range(1, ILLEGAL) if histogram[byte]}
    wins = {plies: count for plies, count in by_distance.items() if plies % 2 == 1}
    losses = {plies: count for plies, count in by_distance.items() if plies % 2 == 0}
    longest_win = max(wins, default=0)
    return Summary(
        legal=int(histogram.sum() - histogram[ILLEGAL]),
        wins=sum(wins.values()),
        losses=sum(losses.values()),
        draws=int(histogram[UNDECIDED]),
        longest_win=longest_win,
        longest_loss=max(losses, default=0),
        no_move=no_move,
        wins_by_plies=wins,
        losses_by_plies=losses,
        longest_win_indices=tuple(int(i) for i in longest_win_places),
    )


# The bytes of wins: an odd distance d is the byte d + 1 (see solver.neutreeko.model.values).
_WIN_BYTES = slice(2, ILLEGAL, 2)
