"""The draw-keeping graph of a game: its drawn positions up to symmetry, and the moves that keep the draw.

A drawn position's *draw-keeping* moves are those after which the position is still drawn (for the
other side, now to move). Positions are taken up to the board's symmetries
(:mod:`solver.neutreeko.model.symmetry`): a node of the graph is a class of drawn positions, seen from the
side to move as the index sees them (so colours do not matter), numbered in the order of its canonical
index; an edge goes from a class to each class that one of its draw-keeping moves leads to, once
however many moves lead there. Two mirror-image moves from a symmetric position are one edge.

:meth:`DrawGraph.widths` walks the graph from many positions at once: after ``k`` plies of draw-keeping
play from a position, how many classes can stand on the board? A width of 1 means that, symmetric twins
aside, there has been only one way to keep the draw so far.

The graph is built from a table in one pass with numpy (on 5 x 5, whose 104,660 drawn positions make
13,114 classes).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.neutreeko.model import index
from solver.neutreeko.model.children import children
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import canonical_indices
from solver.neutreeko.model.values import UNDECIDED
from solver.neutreeko.tables.table import Table


@dataclass(frozen=True)
class DrawGraph:
    """The draw-keeping graph of ``game`` (see the module docstring): ``classes``, the canonical index
    of each class (sorted), and its edges, ``sources[e] -> targets[e]`` (class numbers), sorted by
    target."""

    game: Game
    classes: npt.NDArray[np.int64]
    sources: npt.NDArray[np.int64]
    targets: npt.NDArray[np.int64]

    @classmethod
    def of(cls, table: Table) -> DrawGraph:
        """The graph of ``table``'s game, from its results."""
        game = table.game
        drawn = np.flatnonzero(table.result == UNDECIDED)
        classes = np.unique(canonical_indices(drawn, game.board))
        mover, other = index.decode(classes, game.board.size)
        moves = children(game, mover, other)
        keeps = moves.legal & (table.probe(np.maximum(moves.after, 0)) == UNDECIDED)
        sources = np.nonzero(keeps)[0]
        targets = np.searchsorted(classes, canonical_indices(moves.after[keeps], game.board))
        edges = np.unique(np.stack([targets, sources], axis=1), axis=0)  # sorted by target
        return cls(game, classes, edges[:, 1].astype(np.int64), edges[:, 0].astype(np.int64))

    def number(self, position: Position) -> int:
        """The class number of ``position``; raises :class:`KeyError` if it is not drawn."""
        canonical = int(canonical_indices(position.index(), self.game.board))
        number = int(np.searchsorted(self.classes, canonical))
        if number == len(self.classes) or self.classes[number] != canonical:
            raise KeyError(f"{position.fen()} is not a drawn position")
        return number

    def keeping(self) -> npt.NDArray[np.int64]:
        """Per class, how many classes its draw-keeping moves lead to (its draw-keeping moves up to
        symmetry)."""
        counts: npt.NDArray[np.int64] = np.bincount(self.sources, minlength=len(self.classes))
        return counts

    def reached(self, starts: npt.ArrayLike, plies: int) -> Iterator[npt.NDArray[np.bool_]]:
        """After each ply ``k`` from 1 to ``plies``, ``reached[s, c]``: can draw-keeping play reach class
        ``c`` in exactly ``k`` plies from the class number ``starts[s]``?"""
        starts = np.asarray(starts, dtype=np.int64).reshape(-1)
        reached = np.zeros((len(starts), len(self.classes)), dtype=np.bool_)
        reached[np.arange(len(starts)), starts] = True
        # Edges are sorted by target: OR-reduce each target's run of sources.
        targets, firsts = np.unique(self.targets, return_index=True)
        for _ in range(plies):
            following = np.zeros_like(reached)
            if len(self.sources):
                following[:, targets] = np.logical_or.reduceat(reached[:, self.sources], firsts, axis=1)
            reached = following
            yield reached

    def widths(self, starts: npt.ArrayLike, plies: int) -> npt.NDArray[np.int64]:
        """``widths[s, k - 1]``: how many classes draw-keeping play can reach in exactly ``k`` plies
        (``k`` from 1 to ``plies``) from the class number ``starts[s]``."""
        starts = np.asarray(starts, dtype=np.int64).reshape(-1)
        widths = np.zeros((len(starts), plies), dtype=np.int64)
        for ply, reached in enumerate(self.reached(starts, plies)):
            widths[:, ply] = reached.sum(axis=1)
        return widths
