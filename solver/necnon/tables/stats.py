"""Figures of a solved NECNON game, computed from its records (one per reachable class, see
:mod:`solver.necnon.solving.solve`): counts of positions by value, the longest game, and the empty board's
value with its best first stones."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.necnon.model.keys import canonical_keys, find, key
from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game

# Margins lie within +-_MARGIN_SPAN (a board has at most 91 cells); records are counted _SLICE at a time.
_MARGIN_SPAN = 128
_SLICE = 1 << 22

#: The scalar figures of a :class:`Summary`, which tables store as attributes under these names.
COUNT_NAMES = ("classes", "positions", "black_wins", "draws", "green_wins", "finished", "value", "turns",
               "longest")


@dataclass(frozen=True)
class Summary:
    """Figures of a solved game. Counts are of positions reachable from the empty board (each class
    counted with all its images); a position's value is Black's points minus Green's under perfect
    play, so ``black_wins`` counts positions of positive value. ``value`` and ``turns`` are the empty
    board's, ``best_first`` the cells (by name, in board order) whose first stone keeps its value,
    ``longest`` the most turns any position lasts under perfect play, ``margins`` the positions of each
    value."""

    classes: int
    positions: int
    black_wins: int
    draws: int
    green_wins: int
    finished: int
    value: int
    turns: int
    longest: int
    best_first: tuple[str, ...]
    margins: dict[int, int]

    def counts(self) -> dict[str, int]:
        """The scalar figures, by name (stored as table attributes)."""
        return {name: getattr(self, name) for name in COUNT_NAMES}


def summarize(game: Game, records: npt.NDArray[np.void]) -> Summary:
    """The figures of ``game`` solved as ``records``, counted a slice of records at a time (so that
    counting adds little to the memory the records take)."""
    cells = np.uint64(game.grid.cells)
    full = (np.uint64(1) << cells) - np.uint64(1)
    by_margin = np.zeros(2 * _MARGIN_SPAN + 1, dtype=np.int64)
    finished = longest = 0
    for start in range(0, len(records), _SLICE):
        part = records[start:start + _SLICE]
        keys, images = part["key"], part["images"].astype(np.int64)
        by_margin += np.bincount(part["margin"].astype(np.int64) + _MARGIN_SPAN, weights=images,
                                 minlength=len(by_margin)).astype(np.int64)
        over = (keys >> (cells + cells + np.uint64(1)) == 2) | ((keys & full) | (keys >> cells & full) == full)
        finished += int(images[over].sum())
        longest = max(longest, int(part["turns"].max()))
    margins = {margin - _MARGIN_SPAN: int(count) for margin, count in enumerate(by_margin) if count}
    empty = Position.empty(game)
    root = records[find(records, canonical_keys(game.grid, [key(empty)]))[0]]
    firsts = [empty.play(Turn((cell,))) for cell in range(game.grid.cells)]
    first_rows = find(records, canonical_keys(game.grid, [key(first) for first in firsts]))
    return Summary(
        classes=len(records),
        positions=sum(margins.values()),
        black_wins=sum(count for margin, count in margins.items() if margin > 0),
        draws=margins.get(0, 0),
        green_wins=sum(count for margin, count in margins.items() if margin < 0),
        finished=finished,
        value=int(root["margin"]),
        turns=int(root["turns"]),
        longest=longest,
        best_first=tuple(game.grid.name(cell) for cell, row in enumerate(first_rows)
                         if records["margin"][row] == root["margin"]),
        margins=margins,
    )
