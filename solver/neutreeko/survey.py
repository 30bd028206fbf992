"""The survey: every board from 3 x 3 up to a largest one, under every winning condition offered on it,
solved and tabulated as Markdown and CSV.

Figures come from each table's stored counts (see :mod:`solver.neutreeko.table`) and a probe of the start position,
so a survey of tables already built takes seconds; missing ones are built by the opener it is given.
"""

from __future__ import annotations

import csv
import io
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Callable, Iterable

from solver.core import files
from solver.core.errors import InputError
from solver.neutreeko.board import MIN_SIDE, Board
from solver.neutreeko.game import Game
from solver.neutreeko.position import Position
from solver.neutreeko.rules import RULES, Rule, RuleError, get_rule
from solver.neutreeko.stats import COUNT_NAMES
from solver.neutreeko.table import Table
from solver.neutreeko.values import Evaluation, Value


@dataclass(frozen=True)
class SurveyRow:
    """The figures of one board and rule; counts are of legal positions, from the side to move's view,
    and the start's value is for Black, who moves first (``start_plies`` is None for a draw)."""

    board: str
    rule: str
    legal: int
    wins: int
    losses: int
    draws: int
    draws_percent: float
    longest_win: int
    longest_loss: int
    no_move: int
    start_value: Value
    start_plies: int | None
    table_bytes: int
    solve_seconds: float
    #: How the table was verified beyond its digest: ``"forward check"`` when every stored value was
    #: confirmed from its children (:mod:`solver.neutreeko.check`), else empty.
    verified: str = ""

    @property
    def start(self) -> Evaluation:
        """The start position's value for Black."""
        return Evaluation(self.start_value, self.start_plies)


def select_rules(text: str) -> list[Rule]:
    """``"all"`` or comma-separated rule names, as rules in :data:`RULES` order; raise
    :class:`RuleError` for an unknown name or an empty list."""
    if text.strip().lower() == "all":
        return list(RULES.values())
    chosen = {get_rule(name).name for name in text.split(",") if name.strip()}
    if not chosen:
        raise RuleError(f"no rule named in {text!r}; known rules: {', '.join(RULES)} (or all)")
    return [rule for name, rule in RULES.items() if name in chosen]


def survey_games(max_board: Board, rules: Iterable[Rule], also: Iterable[Game] = ()) -> list[Game]:
    """Every board from 3 x 3 to ``max_board`` (each width with each height) and every rule of ``rules``
    offered on it, by width, height, then rule; then the games of ``also`` not among them. Raises
    :class:`RuleError` if there is none."""
    rules = list(rules)
    games = []
    for width in range(MIN_SIDE, max_board.width + 1):
        for height in range(MIN_SIDE, max_board.height + 1):
            for rule in rules:
                try:
                    games.append(Game.of(Board(width, height), rule))
                except RuleError:
                    continue  # not offered on this board
    games += [game for game in dict.fromkeys(also) if game not in games]
    if not games:
        raise RuleError(f"no board up to {max_board} offers {', '.join(rule.name for rule in rules)}")
    return games


def csv_path(markdown: Path) -> Path:
    """Where the CSV goes beside the Markdown report ``markdown``: the same name with ``.csv``.

    Raises :class:`~solver.core.errors.InputError` if that is ``markdown`` itself."""
    table = markdown.with_suffix(".csv")
    if table == markdown:
        raise InputError(f"the report {markdown} would be overwritten by its CSV: name it .md")
    return table


def write_report(rows: list[SurveyRow], markdown: Path, command: str) -> Path:
    """Write the Markdown report to ``markdown`` and the CSV to :func:`csv_path`, each atomically;
    return the CSV's path. Raises ``OSError`` if they cannot be written."""
    table = csv_path(markdown)
    files.write_atomically(markdown, to_markdown(rows, command))
    files.write_atomically(table, to_csv(rows))
    return table


def survey_row(table: Table, verified: str = "") -> SurveyRow:
    """The figures of an opened table, verified as ``verified`` says (see :attr:`SurveyRow.verified`)."""
    counts = {name: int(table.attributes[name]) for name in COUNT_NAMES}
    start = Evaluation.of_byte(int(table.lookup(Position.start(table.game).index())))
    return SurveyRow(
        board=str(table.game.board), rule=table.game.rule.name, **counts,
        draws_percent=round(100 * counts["draws"] / counts["legal"], 2),
        start_value=start.value, start_plies=start.plies,
        table_bytes=table.path.stat().st_size,
        solve_seconds=round(float(table.attributes.get("solve_seconds", float("nan"))), 2), verified=verified,
    )


def run_survey(games: Iterable[Game], open_game_table: Callable[[Game], Table],
               on_row: Callable[[SurveyRow], None] | None = None,
               verify_table: Callable[[Table], str] | None = None) -> list[SurveyRow]:
    """A row for each game, whose table ``open_game_table`` opens (or builds); ``verify_table``, if
    given, says how each table was verified; ``on_row`` sees each row as soon as it is made."""
    rows = []
    for game in games:
        table = open_game_table(game)
        rows.append(survey_row(table, verify_table(table) if verify_table else ""))
        if on_row:
            on_row(rows[-1])
    return rows


def to_csv(rows: Iterable[SurveyRow]) -> str:
    """The rows as CSV, one header line of the :class:`SurveyRow` field names; a draw's plies empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(field.name for field in fields(SurveyRow))
    writer.writerows(["" if cell is None else cell for cell in astuple(row)] for row in rows)
    return out.getvalue()


_HEADER = ("board", "rule", "legal", "wins", "losses", "draws", "draws %", "longest win", "longest loss",
           "no move", "start", "table size", "solve time", "verified")


def to_markdown(rows: list[SurveyRow], command: str) -> str:
    """The rows as a Markdown report, saying it was made by ``command``."""
    lines = [
        "# Survey of Neutreeko variants",
        "",
        f"Generated by `{command}`; the same figures are in the CSV file beside this one.",
        "",
        "Every board from 3 x 3 up (width x height, files x ranks) under every winning condition offered on",
        "it. Counts are of legal positions with one side to move (the side to move has not already won),",
        "valued from the side to move's point of view; distances are in plies. *No move*: positions whose",
        "side to move cannot move, counted as lost for it. *Start*: the value of the start position for",
        "Black, who moves first, and its distance. *Table size*: the table file read; *solve time*: the",
        "retrograde analysis on the machine that built the table. *Verified*: *forward check* where every",
        "stored value was confirmed from its children's values by `neutreeko check` (which proves a table",
        "right without a reference solver).",
        "",
        "| " + " | ".join(_HEADER) + " |",
        "|" + "|".join("---" if name in ("board", "rule", "start", "verified") else "---:" for name in _HEADER) + "|",
    ]
    for row in rows:
        start = row.start.terse()
        cells = (row.board, row.rule, f"{row.legal:,}", f"{row.wins:,}", f"{row.losses:,}", f"{row.draws:,}",
                 f"{row.draws_percent:.2f}", str(row.longest_win), str(row.longest_loss), f"{row.no_move:,}",
                 start, _size(row.table_bytes), f"{row.solve_seconds:.2f} s", row.verified or "-")
        lines.append("| " + " | ".join(cells) + " |")
    decided = [f"{row.board} {row.rule} ({row.start.terse()})"
               for row in rows if row.start_plies is not None]
    lines += ["", "Start positions that are not a draw: " + ("; ".join(decided) if decided else "none") + ".",
              ""]
    return "\n".join(lines)


def _size(size: int) -> str:
    for unit, scale in (("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"
