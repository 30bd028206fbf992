"""The NECNON survey: every board up to a number of cells under every protocol setting, solved and
tabulated as Markdown and CSV, with games sampled between random and perfect players, and findings
stated in words computed from the figures.

Figures come from each table's stored summary and from games played by the kernel of
:mod:`solver.necnon.studies._games` (seeded, so the same survey gives the same figures); missing tables are
built by the opener given.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Callable, Iterable

import numpy as np
import numpy.typing as npt

from solver.core import files
from solver.core.answers import report
from solver.core.answers.report import csv_path
from solver.core.files import size_text
from solver.necnon.model.grid import MAX_BASE, MAX_SIDE, MIN_BASE, MIN_SIDE, Grid
from solver.necnon.model.keys import MAX_CELLS
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.solving.solve import KernelInputs
from solver.necnon.tables.table import Table

__all__ = ["SurveyRow", "csv_path", "run_survey", "sample_games", "survey_games", "to_markdown", "write_report"]


@dataclass(frozen=True)
class SurveyRow:
    """The figures of one board and protocol setting. ``value`` and ``turns`` are the empty board's
    (Black's points minus Green's under perfect play); ``best_first`` the first stones that keep that
    value (space-separated). The shares are percentages of ``games`` sampled games each: both players
    random, Black perfect against a random Green, a random Black against a perfect Green."""

    board: str
    grid: str
    cells: int
    protocol: str
    positions: int
    classes: int
    value: int
    turns: int
    best_first: str
    random_black_wins: float
    random_draws: float
    random_green_wins: float
    perfect_black_wins: float
    perfect_green_wins: float
    games: int
    table_bytes: int
    solve_seconds: float

    def __str__(self) -> str:
        return (f"{self.board} {self.protocol}: {self.positions:,} positions, value {self.value:+d}, random play "
                f"{self.random_black_wins:.1f}% Black wins")


def survey_games(max_cells: int) -> list[Game]:
    """Every board of at most ``max_cells`` cells (square boards width >= height, a board turned a
    quarter being the same game; and hexhex boards), by cells, then name, each under every setting."""
    grids = [Grid.square(width, height) for width in range(MIN_SIDE, MAX_SIDE + 1) for height in range(MIN_SIDE, width + 1)]
    grids += [Grid.hexhex(base) for base in range(MIN_BASE, MAX_BASE + 1)]
    chosen = sorted((grid for grid in grids if grid.cells <= min(max_cells, MAX_CELLS)),
                    key=lambda grid: (grid.cells, grid.kind, grid.width))
    return [Game.of(grid, setting) for grid in chosen for setting in SETTINGS]


def sample_games(table: Table, black_perfect: bool, green_perfect: bool, count: int, seed: int) -> npt.NDArray[np.int64]:
    """The final margins (Black minus Green) of ``count`` games from the empty board, each side playing
    the table's best turn (perfect) or uniformly random turns; the same seed, the same games."""
    from solver.necnon.studies import _games  # numba is imported only when games are sampled

    inputs = KernelInputs.of(table.game)
    margins = np.empty(count, dtype=np.int64)
    records = table.records
    _games.sample(inputs.neighbours, inputs.byte_images, inputs.nec, np.ascontiguousarray(records["key"]),
                  np.ascontiguousarray(records["margin"]), np.ascontiguousarray(records["turns"]),
                  np.array([black_perfect, green_perfect]), count, seed, margins)
    return margins


def survey_row(table: Table, games: int, seed: int) -> SurveyRow:
    """The figures of an opened table, with ``games`` games sampled for each kind of play."""
    attributes = table.attributes
    random_play = sample_games(table, False, False, games, seed)
    black_perfect = sample_games(table, True, False, games, seed + 1)
    green_perfect = sample_games(table, False, True, games, seed + 2)
    return SurveyRow(
        board=str(table.game.grid), grid=table.game.grid.kind, cells=table.game.grid.cells,
        protocol=table.game.setting, positions=attributes["positions"], classes=attributes["classes"],
        value=attributes["value"], turns=attributes["turns"],
        best_first=" ".join(str(cell) for cell in attributes["best_first"]),
        random_black_wins=_share(random_play > 0), random_draws=_share(random_play == 0),
        random_green_wins=_share(random_play < 0), perfect_black_wins=_share(black_perfect > 0),
        perfect_green_wins=_share(green_perfect < 0), games=games, table_bytes=table.contents.size,
        solve_seconds=round(attributes["solve_seconds"], 2))


def _share(hits: npt.NDArray[np.bool_]) -> float:
    return round(100 * float(hits.mean()), 1)


def run_survey(games: Iterable[Game], open_game_table: Callable[[Game], Table], sampled: int, seed: int,
               on_row: Callable[[SurveyRow], None] | None = None) -> list[SurveyRow]:
    """A row for each game, whose table ``open_game_table`` opens (or builds); ``on_row`` sees each row."""
    rows = []
    for game in games:
        rows.append(survey_row(open_game_table(game), sampled, seed))
        if on_row:
            on_row(rows[-1])
    return rows


def write_report(rows: list[SurveyRow], markdown: Path, command: str) -> Path:
    """Write the Markdown report to ``markdown`` and the CSV beside it, each atomically; return the
    CSV's path. Raises ``OSError`` if they cannot be written."""
    table = csv_path(markdown)
    files.write_atomically(markdown, to_markdown(rows, command))
    files.write_atomically(table, report.to_csv(rows, SurveyRow))
    return table


# Boards from this many cells up show what perfect play gains against random play (on the smallest
# ones a game can rarely be won at all).
_LARGE = 12

_HEADER = ("board", "protocol", "positions", "classes", "value", "turns", "best first stones",
           "random: Black wins %", "draws %", "Green wins %", "perfect Black wins %", "perfect Green wins %",
           "table", "solve")


def to_markdown(rows: list[SurveyRow], command: str) -> str:
    """The rows as a Markdown report with findings, saying it was made by ``command``."""
    games = rows[0].games if rows else 0
    lines = [
        "# Survey of NECNON boards",
        "",
        f"Generated by `{command}`; the same figures are in the CSV file beside this one.",
        "",
        "Every square board (width x height, width >= height: a board turned a quarter is the same game) and",
        "every hexhex board (`hexN`: base N) solved exactly, under each protocol setting (`nec`, `non`: both",
        "players; `nec-non`, `non-nec`: Black's protocol first). *Positions*: reachable from the empty board",
        "(passes and the side to move included); *classes*: the same up to the board's symmetries.",
        "*Value*: Black's points minus Green's under perfect play from the empty board, *turns* its",
        "length; *best first stones*: every first stone that keeps that value. *Random*: shares of",
        f"{games:,} games between two random players (uniform over the allowed turns); *perfect Black*: Black",
        "playing the table's best turns against a random Green (Black's wins); *perfect Green*: the",
        "reverse (Green's wins). *Table*: the table file; *solve*: the search on the machine that built it.",
        "",
        "| " + " | ".join(_HEADER) + " |",
        "|" + "|".join("---" if name in ("board", "protocol", "best first stones") else "---:"
                       for name in _HEADER) + "|",
    ]
    for row in rows:
        first = row.best_first if len(row.best_first.split()) < row.cells else "all"
        cells = (row.board, row.protocol, f"{row.positions:,}", f"{row.classes:,}", f"{row.value:+d}",
                 str(row.turns), first, f"{row.random_black_wins:.1f}", f"{row.random_draws:.1f}",
                 f"{row.random_green_wins:.1f}", f"{row.perfect_black_wins:.1f}", f"{row.perfect_green_wins:.1f}",
                 size_text(row.table_bytes), f"{row.solve_seconds:.2f} s")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## Findings", "", *(f"- {finding}" for finding in findings(rows)), ""]
    return "\n".join(lines)


def findings(rows: list[SurveyRow]) -> list[str]:
    """Statements computed from the rows (none is written by hand)."""
    if not rows:
        return ["no board was surveyed."]
    said = []
    black = [row for row in rows if row.value > 0]
    green = [row for row in rows if row.value < 0]
    said.append(f"Under perfect play Black wins {len(black)} of the {len(rows)} boards and settings, Green "
                f"{len(green)}, and {len(rows) - len(black) - len(green)} are drawn.")
    widest = max(abs(row.value) for row in rows)
    said.append(f"The widest margin is {widest}: " + ", ".join(f"{row.value:+d} on {row.board} {row.protocol}"
                                                               for row in rows if abs(row.value) == widest) + ".")
    for setting in SETTINGS:
        mine = [row for row in rows if row.protocol == setting]
        if mine:
            said.append(f"`{setting}`: Black wins on {sum(row.value > 0 for row in mine)}, draws on "
                        f"{sum(row.value == 0 for row in mine)}, loses on {sum(row.value < 0 for row in mine)} of "
                        f"{len(mine)} boards; mean value {mean(row.value for row in mine):+.2f}.")
    mixed = [row for row in rows if row.protocol in ("nec-non", "non-nec")]
    if mixed:
        nec_wins = sum((row.value > 0) == (row.protocol == "nec-non") and row.value != 0 for row in mixed)
        non_wins = sum((row.value < 0) == (row.protocol == "nec-non") and row.value != 0 for row in mixed)
        said.append(f"NEC against NON: the NEC player wins on {nec_wins} and the NON player on {non_wins} of the "
                    f"{len(mixed)} boards and settings where they meet, whoever moves first.")
    said += _first_stones(rows)
    decided = [row for row in rows if row.value != 0]
    agree = [row for row in decided if (row.random_black_wins > row.random_green_wins) == (row.value > 0)]
    if decided:
        said.append(f"Random play points to the perfect-play winner (the side winning more random games is the "
                    f"one that wins with perfect play) on {len(agree)} of the {len(decided)} boards and settings "
                    f"that are not drawn.")
    said.append(f"Two random players: Black wins {mean(row.random_black_wins for row in rows):.1f}% of games on "
                f"average, Green {mean(row.random_green_wins for row in rows):.1f}%.")
    large = [row for row in rows if row.cells >= _LARGE]
    if large:
        said.append(f"On the boards of {_LARGE} cells or more, a perfect player wins {_spread(large, 'perfect_black_wins')} "
                    f"of its games against a random one as Black and {_spread(large, 'perfect_green_wins')} as Green.")
    said += _growth(rows)
    return said


def _spread(rows: list[SurveyRow], figure: str) -> str:
    """``"88.2% on average (68.2% to 100.0%)"`` of one figure of the rows."""
    values = [float(getattr(row, figure)) for row in rows]
    return f"{mean(values):.1f}% on average ({min(values):.1f}% to {max(values):.1f}%)"


def _first_stones(rows: list[SurveyRow]) -> list[str]:
    """Where the best first stones are when they are not all the cells: the cells nearest the centre?"""
    few = [row for row in rows if len(row.best_first.split()) < row.cells]
    if not few:
        return []
    central = [row for row in few if set(row.best_first.split()) == _nearest_centre(Grid.parse(row.board))]
    inner = [row for row in few if not set(row.best_first.split()) & _edge_cells(Grid.parse(row.board))]
    return [f"Every first stone keeps the value on {len(rows) - len(few)} of the {len(rows)} boards and settings. "
            f"On the other {len(few)}, the best first stones are exactly the cells nearest the centre on "
            f"{len(central)} ({', '.join(f'{row.board} {row.protocol}' for row in central)}), and none of them is "
            f"on the edge on {len(inner)}."]


def _nearest_centre(grid: Grid) -> set[str]:
    """The names of the cells nearest the middle of ``grid``."""
    width, height = grid.extent()
    distance = {cell: round((grid.centre(cell)[0] - width / 2) ** 2 + (grid.centre(cell)[1] - height / 2) ** 2, 6)
                for cell in range(grid.cells)}
    return {grid.name(cell) for cell in distance if distance[cell] == min(distance.values())}


def _edge_cells(grid: Grid) -> set[str]:
    """The names of the cells with fewer neighbours than a cell inside the board has."""
    inside = max(len(near) for near in grid.neighbours)
    return {grid.name(cell) for cell in range(grid.cells) if len(grid.neighbours[cell]) < inside}


def _growth(rows: list[SurveyRow]) -> list[str]:
    """How positions grow from one board to the next larger one of the same family and setting."""
    said = []
    for small, large in (("4x3", "4x4"), ("4x4", "5x4"), ("6x3", "7x3"), ("hex2", "hex3")):
        pairs = [(next(row for row in rows if row.board == small and row.protocol == setting),
                  next(row for row in rows if row.board == large and row.protocol == setting))
                 for setting in SETTINGS
                 if any(row.board == large and row.protocol == setting for row in rows)
                 and any(row.board == small and row.protocol == setting for row in rows)]
        if pairs:
            ratios = [big.positions / little.positions for little, big in pairs]
            said.append(f"From {small} to {large} the positions grow {min(ratios):,.0f} to {max(ratios):,.0f} "
                        f"times over the four settings.")
    return said
