"""Fair starts: setups where neither side is favoured by shape, that are draws, ranked by the freedom
they leave.

From the standard start the game is nearly forced: up to symmetry there is only one way to keep the
draw for its first 15 plies. :func:`family` lists the candidates: setups where White's pieces are
Black's moved by a board symmetry that is its own inverse (:func:`involutions`), neither side with
three in a row, Black to move. :func:`fair_starts` keeps those that are draws, one per class under the
board's symmetries, and measures the freedom each leaves on the draw-keeping graph
(:mod:`solver.neutreeko.studies.drawgraph`) up to ``depth`` plies: ``widths``, how many positions
draw-keeping play can reach after each ply; ``forced``, the plies during which that number stays 1;
and Black's first moves that keep the draw. Starts rank by fewest forced plies, then by the most
positions reachable at ``depth``, then by the largest share of first moves that keep the draw, then by
notation.

The family and the measures in full: docs/guide/puzzles.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from solver.core.answers.notation import checked, quote
from solver.core.errors import InputError
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import sorted_triple
from solver.neutreeko.model.symmetry import canonical_indices, symmetries
from solver.neutreeko.model.values import UNDECIDED, Evaluation, encode_result
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.studies import DEPTH as DEPTH  # re-exported: what the game's modules import from here
from solver.neutreeko.studies import TOP as TOP
from solver.neutreeko.studies.drawgraph import DrawGraph

JSONObject = dict[str, Any]


#: A --start longer than this is none of its forms.
_LONGEST_CHOICE = 16


class StartChoiceError(InputError, ValueError):
    """A ``--start`` that is not ``standard``, ``fair`` or ``fair:K`` with K a rank of the list."""


def involutions(board: Board) -> list[int]:
    """The numbers (in :func:`~solver.neutreeko.model.symmetry.symmetries`) of the board's symmetries,
    other than the identity, that are their own inverse: the half turn and the mirrors."""
    table = symmetries(board)
    identity = np.arange(board.size)
    return [number for number in range(1, len(table)) if (table[number][table[number]] == identity).all()]


def family(game: Game) -> list[Position]:
    """Every candidate setup of ``game`` (see the module docstring), Black to move, in index order."""
    board, table = game.board, symmetries(game.board)
    found: dict[int, Position] = {}
    for number in involutions(board):
        for black in combinations(range(board.size), 3):
            white = sorted_triple(int(table[number][square]) for square in black)
            if set(white) & set(black) or black in game.winning_triples or white in game.winning_triples:
                continue
            position = Position(game, black, white, True)
            found.setdefault(position.index(), position)
    return [found[key] for key in sorted(found)]


@dataclass(frozen=True)
class Candidates:
    """How many setups the family has (each count also up to symmetry), how many Black wins at once,
    and how many are drawn."""

    placements: int
    classes: int
    immediate_wins: int
    immediate_win_classes: int
    drawn: int
    drawn_classes: int


@dataclass(frozen=True)
class FairStart:
    """A drawn start and its freedom (see the module docstring); ``rank`` from 1."""

    rank: int
    position: Position
    first_moves: int
    keeping: int
    keeping_up_to_symmetry: int
    forced: int
    widths: tuple[int, ...]
    standard: bool

    @property
    def share(self) -> float:
        """The share of Black's first moves that keep the draw."""
        return self.keeping / self.first_moves


@dataclass(frozen=True)
class FairStarts:
    """The fair starts of ``game``, best first, with the counts of the family, and the standard start's
    value and whether it is in the family."""

    game: Game
    depth: int
    candidates: Candidates
    starts: tuple[FairStart, ...]
    standard_evaluation: Evaluation
    standard_in_family: bool

    @property
    def standard(self) -> FairStart | None:
        """The standard start's entry, if it is a fair start."""
        return next((start for start in self.starts if start.standard), None)

    def choose(self, choice: str, rng_choice: int) -> FairStart:
        """The start ``--start`` names: ``fair:K`` the K-th, ``fair`` the one at ``rng_choice`` (any
        integer, taken modulo the length of the top list: a seeded random one of the top
        :data:`~solver.neutreeko.studies.TOP`).
        Raises :class:`StartChoiceError` for anything else or a K out of the list."""
        kind, _, number = checked(choice, "start", _LONGEST_CHOICE, StartChoiceError).lower().partition(":")
        if kind == "fair" and not number and self.starts:
            return self.starts[rng_choice % min(TOP, len(self.starts))]
        if kind == "fair" and number.isdigit() and 1 <= int(number) <= len(self.starts):
            return self.starts[int(number) - 1]
        raise StartChoiceError(f"start {quote(choice)} is not standard, fair or fair:K with K from 1 to "
                               f"{len(self.starts)} (the {self.game} fair starts; see neutreeko starts)")


def fair_starts(tablebase: Tablebase, game: Game, depth: int = DEPTH) -> FairStarts:
    """The fair starts of ``game`` (see the module docstring), read from its table in ``tablebase``."""
    table = tablebase.table(game)
    candidates = family(game)
    indices = np.array([position.index() for position in candidates], dtype=np.int64)
    classes = canonical_indices(indices, game.board)
    results = np.asarray(table.probe(indices))
    immediate = results == encode_result(1)
    drawn = results == UNDECIDED
    # One start per drawn class: its member with Black nearest rank 1, then the smallest index.
    shown: dict[int, Position] = {}
    for position, canonical in sorted(((position, int(canonical)) for position, canonical, draw
                                       in zip(candidates, classes, drawn) if draw),
                                      key=lambda pair: (_black_height(pair[0]), pair[0].index())):
        shown.setdefault(canonical, position)
    graph = DrawGraph.of(table)
    members = list(shown.values())
    widths = graph.widths([graph.number(position) for position in members], depth)
    keeping_classes = graph.keeping()
    standard = Position.start(game)
    entries = []
    for position, row in zip(members, widths.tolist()):
        moves = tablebase.moves(position)
        forced = next((ply for ply, width in enumerate(row) if width > 1), depth)
        entries.append(FairStart(0, position, len(moves), sum(move.value == "draw" for move in moves),
                                 int(keeping_classes[graph.number(position)]), forced, tuple(row),
                                 position == standard))
    entries.sort(key=lambda start: (start.forced, -start.widths[-1] if start.widths else 0, -start.share,
                                    start.position.fen()))
    counts = Candidates(len(candidates), len(np.unique(classes)), int(immediate.sum()),
                        len(np.unique(classes[immediate])), int(drawn.sum()), len(shown))
    return FairStarts(game, depth, counts, tuple(replace(start, rank=rank) for rank, start in enumerate(entries, 1)),
                      tablebase.probe(standard), standard.index() in set(indices.tolist()))


def _black_height(position: Position) -> int:
    return sum(position.game.board.rank_of(square) for square in position.black)


# -- output -------------------------------------------------------------------------------------------

def starts_object(starts: FairStarts, count: int = TOP) -> JSONObject:
    """The JSON of ``neutreeko starts --json``: the game, the depth, the family's counts, the first
    ``count`` starts, the standard start's rank (null if it is not a fair start), and the standard
    start, whether it is in the family and its value."""
    counts = starts.candidates
    standard = starts.standard
    return {
        "board": str(starts.game.board), "rule": starts.game.rule.name, "depth": starts.depth,
        "candidates": {"placements": counts.placements, "classes": counts.classes,
                       "immediate_wins": counts.immediate_wins, "immediate_win_classes": counts.immediate_win_classes,
                       "drawn": counts.drawn, "drawn_classes": counts.drawn_classes},
        "starts": [{"rank": start.rank, "position": start.position.fen(), "standard": start.standard,
                    "first_moves": start.first_moves, "keeping": start.keeping,
                    "keeping_up_to_symmetry": start.keeping_up_to_symmetry, "forced": start.forced,
                    "widths": list(start.widths)} for start in starts.starts[:count]],
        "standard_rank": standard.rank if standard else None,
        "standard": {"position": Position.start(starts.game).fen(), "in_family": starts.standard_in_family,
                     "value": starts.standard_evaluation.value, "plies": starts.standard_evaluation.plies},
    }


def starts_text(starts: FairStarts, count: int = TOP) -> str:
    """The family's counts, a table of the first ``count`` starts, and the standard start's rank."""
    counts, depth = starts.candidates, starts.depth
    marks = sorted({min(depth, mark) for mark in (4, 8, depth)})
    lines = [
        f"Fair starts of {starts.game}: White's pieces are Black's turned half round or mirrored, "
        f"no three in a row; Black moves first.",
        f"{counts.placements:,} setups ({counts.classes:,} up to symmetry); Black wins at once in "
        f"{counts.immediate_wins:,} ({counts.immediate_win_classes:,}); {counts.drawn:,} are draws "
        f"({counts.drawn_classes:,} up to symmetry), ranked by freedom:",
        "  forced: plies from the start with one way to keep the draw (up to symmetry);",
        f"  reachable: positions (up to symmetry) that draw-keeping play reaches after {', '.join(map(str, marks))} plies;",
        "  first moves: Black's first moves that keep the draw (different up to symmetry), of all.",
    ]
    rows = [("rank", "start", "forced", "reachable", "first moves")]
    for start in starts.starts[:count]:
        reached = " / ".join(str(start.widths[mark - 1]) for mark in marks)
        rows.append((f"{start.rank}", start.position.fen() + (" (standard)" if start.standard else ""),
                     f"{start.forced}{'+' if start.forced == depth else ''}", reached,
                     f"{start.keeping} ({start.keeping_up_to_symmetry}) of {start.first_moves}"))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines += ["  ".join(cell.rjust(width) if column in (0, 2) else cell.ljust(width)
                        for column, (cell, width) in enumerate(zip(row, widths))).rstrip() for row in rows]
    standard = starts.standard
    if standard is not None:
        lines.append(f"The standard start {standard.position.fen()} ranks {standard.rank} of "
                     f"{len(starts.starts)}: forced for {standard.forced}{'+' if standard.forced == depth else ''} plies.")
    else:
        reason = f"Black to move, {starts.standard_evaluation.terse()}" if starts.standard_in_family else \
            "it is not in the family"
        lines.append(f"The standard start {Position.start(starts.game).fen()} is not among them ({reason}).")
    return "\n".join(lines)
