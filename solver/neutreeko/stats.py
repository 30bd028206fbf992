"""Statistics of a solved game, computed from its result bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import numpy as np

from solver.neutreeko import index
from solver.neutreeko.game import Game
from solver.neutreeko.values import ILLEGAL, UNDECIDED, encode_result

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
    ``game`` (a folded table's data), as :func:`summarize` gives it from the table unfolded, without
    unfolding it: each class counted as many times as it has positions, in parallel (10 x 10's
    folded table is 3 GB, its unfolding 24 GB). Raises ``ValueError`` if ``folded`` is not one byte per
    legal class."""
    import numba  # numba is imported only when a folded table is counted

    from solver.neutreeko import _class_kernel
    from solver.neutreeko.class_inputs import ClassInputs
    from solver.neutreeko.kernel_inputs import KernelInputs
    from solver.neutreeko.symmetry import images

    classes, inputs = ClassInputs.of(game), KernelInputs.of(game, numba.get_num_threads())
    if folded.shape != (classes.count,):
        raise ValueError(f"{game} has {classes.count:,} legal classes, not {len(folded):,}")
    stretches = 8 * numba.get_num_threads()
    histogram = np.zeros((stretches, 256), dtype=np.int64)
    no_move = np.zeros(stretches, dtype=np.int64)
    _class_kernel._histogram(folded, inputs.triples, inputs.wins, inputs.other_count, classes.arrays, histogram,
                             no_move)

    def positions_holding(byte: int) -> np.ndarray:
        found = indices_of(folded, byte).astype(inputs.index_type)
        _class_kernel._canonical_positions(found, len(found), inputs.triples, inputs.other_count, classes.arrays,
                                           np.empty(len(found), dtype=np.uint8))
        return np.unique(images(found, game.board))

    return summary_from(histogram.sum(axis=0), int(no_move.sum()), positions_holding)


def stretches(result: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """``result`` as (first index, bytes) stretches, in order, each a view of at most 16 MB."""
    for first in range(0, len(result), _STRETCH):
        yield first, result[first:first + _STRETCH]


def summarize_stretches(game: Game, parts: Iterable[tuple[int, np.ndarray]]) -> Summary:
    """Count the result bytes of ``game`` given as (first index, bytes) stretches that together cover
    every index once, in order, by value and distance; in the memory of one stretch (and of the
    indices of the longest wins), so that a table can be counted as it is read a chunk at a time."""
    histogram = np.zeros(256, dtype=np.int64)
    longest_byte, longest = 0, list[np.ndarray]()  # the longest win's byte so far, and its indices
    no_move = 0
    lost_at_once = encode_result(0)
    for first, part in parts:
        counts = np.bincount(part, minlength=256)
        histogram += counts
        win_bytes = np.flatnonzero(counts[_WIN_BYTES]) * 2 + 2
        if len(win_bytes) and win_bytes[-1] >= longest_byte:
            if win_bytes[-1] > longest_byte:
                longest_byte, longest = int(win_bytes[-1]), list[np.ndarray]()
            longest.append(first + np.flatnonzero(part == longest_byte))
        if counts[lost_at_once]:
            _, other = index.decode(first + np.flatnonzero(part == lost_at_once), game.board.size)
            no_move += int(np.count_nonzero(~game.wins[index.triple_rank(other[:, 0], other[:, 1], other[:, 2])]))
    found = np.concatenate(longest) if longest else np.empty(0, dtype=np.int64)
    return summary_from(histogram, no_move, lambda byte: found)  # asked for the longest win's byte only


def summary_from(histogram: np.ndarray, no_move: int, holding: Callable[[int], np.ndarray]) -> Summary:
    """The summary of a game whose indices hold ``histogram[byte]`` times each result byte (the
    not legal ones included), ``no_move`` of them lost because the side to move cannot move;
    ``holding(byte)`` gives the sorted indices that hold ``byte``, asked for the longest win only."""
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
        longest_win_indices=tuple(int(i) for i in holding(encode_result(longest_win))) if wins else (),
    )


def indices_of(result: np.ndarray, byte: int) -> np.ndarray:
    """The places in ``result`` that hold ``byte`` (int64, sorted), found a stretch at a time."""
    found = [first + np.flatnonzero(result[first:first + _STRETCH] == byte)
             for first in range(0, len(result), _STRETCH)]
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


# The bytes of wins: an odd distance d is the byte d + 1 (see solver.neutreeko.values).
_WIN_BYTES = slice(2, ILLEGAL, 2)
