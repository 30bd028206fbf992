"""Published figures and the check of a table against them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.values import UNDECIDED, Evaluation
from solver.neutreeko.tables.folding import fold
from solver.neutreeko.tables.table import Table


@dataclass(frozen=True)
class Check:
    """One published figure, the figure the tables give, and whether they agree."""

    name: str
    expected: str
    actual: str

    @property
    def passed(self) -> bool:
        return self.expected == self.actual


def _start_value(table: Table) -> str:
    return Evaluation.of_byte(int(table.probe(Position.start(table.game).index()))).terse()


def _figures(table: Table) -> dict[str, str]:
    summary = table.summary
    class_results = fold(table.game, table.result)
    return {
        "legal": f"{summary.legal:,}",
        "draws": f"{summary.draws:,}",
        "longest_win": f"{summary.longest_win} plies",
        "start": _start_value(table),
        "classes": f"{len(class_results):,}",
        "drawn_classes": f"{np.count_nonzero(class_results == UNDECIDED):,}",
    }


# (board, rule) -> [(label, figure name, published value)]; figure names are keys of _figures.
PUBLISHED: dict[tuple[str, str], list[tuple[str, str, str]]] = {
    ("5x5", "connected"): [
        ("legal positions (5 x 5)", "legal", "3,468,080"),
        ("neutral (drawn) positions", "draws", "104,660"),
        ("longest forced win", "longest_win", "51 plies"),
        ("start position 1w1w1/2b2/5/2w2/1b1b1 b", "start", "draw"),
        ("legal symmetry classes (5 x 5)", "classes", "434,500"),
        ("drawn symmetry classes", "drawn_classes", "13,114"),
    ],
    ("4x4", "connected"): [
        ("longest forced win on 4 x 4", "longest_win", "33 plies"),
    ],
}

# Checking the standard game also checks the small board whose figure was published beside it.
_COMPANIONS: dict[tuple[str, str], list[tuple[str, str]]] = {("5x5", "connected"): [("4x4", "connected")]}


def verify(game: Game, open_game_table: Callable[[Game], Table]) -> list[Check]:
    """Check every published figure of ``game`` (and of its companion boards) against the tables,
    opened (or built) by ``open_game_table``. An empty list means nothing is published for ``game``."""
    checks: list[Check] = []
    for board, rule in [(str(game.board), game.rule.name), *_COMPANIONS.get((str(game.board), game.rule.name), [])]:
        published = PUBLISHED.get((board, rule), [])
        if not published:
            continue
        figures = _figures(open_game_table(Game.of(board, rule)))
        checks.extend(Check(label, expected, figures[name]) for label, name, expected in published)
    return checks
