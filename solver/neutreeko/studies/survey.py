"""The survey: every board from 3 x 3 up to a largest one, under every winning condition offered on it,
solved and tabulated as Markdown and CSV.

Figures come from each table's stored counts (see :mod:`solver.neutreeko.tables.table`) and a probe of the start
position, so a survey of tables already built reads of each its header and one chunk (with ``--check``,
the whole table and its forward check); missing ones are built by the opener it is given. One :class:`SurveyRow` per variant holds every figure; the report
is made from the rows alone: findings computed from them (:func:`findings`), the table of figures, a
diagram of each variant's start (files beside the report, :func:`starts_dir`) and a performance table
(table sizes and solve times, which depend on the machine).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Callable, Iterable, Sequence

from solver.core import files
from solver.core.answers import report
from solver.core.answers.notation import checked, quote
from solver.core.answers.report import csv_path
from solver.core.drawing import svg
from solver.core.errors import InputError
from solver.core.files import size_text
from solver.neutreeko.drawing import diagram
from solver.neutreeko.model.board import MIN_SIDE, Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import MAX_RULE_LENGTH, RULES, Rule, RuleError
from solver.neutreeko.model.values import VALUES, Evaluation, Value
from solver.neutreeko.tables.stats import COUNT_NAMES
from solver.neutreeko.tables.table import Table


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
    #: confirmed from its children (:mod:`solver.neutreeko.checking.check`), else empty.
    verified: str = ""

    @property
    def start(self) -> Evaluation:
        """The start position's value for Black."""
        return Evaluation(self.start_value, self.start_plies)


def select_rules(text: str) -> list[Rule]:
    """``"all"`` or comma-separated rule names, as rules in :data:`~solver.neutreeko.model.rules.RULES` order; raise
    :class:`~solver.neutreeko.model.rules.RuleError` for an unknown name or an empty list."""
    text = checked(text, "rule list", (MAX_RULE_LENGTH + 1) * len(RULES), RuleError)
    if text.lower() == "all":
        return list(RULES.values())
    chosen = {Rule.of(name).name for name in text.split(",") if name.strip(" ")}
    if not chosen:
        raise RuleError(f"no rule named in {quote(text)}; known rules: {', '.join(RULES)} (or all)")
    return [rule for name, rule in RULES.items() if name in chosen]


def survey_games(max_board: Board, rules: Iterable[Rule], also: Iterable[Game] = ()) -> list[Game]:
    """Every board from 3 x 3 to ``max_board`` (each width with each height) and every rule of ``rules``
    offered on it, by width, height, then rule; then the games of ``also`` not among them. Raises
    :class:`~solver.neutreeko.model.rules.RuleError` if there is none."""
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


def starts_dir(markdown: Path) -> Path:
    """Where the diagrams of the start positions go beside the report: ``survey.md`` -> ``survey-starts/``."""
    return markdown.with_name(f"{markdown.stem}-starts")


def start_file(row: SurveyRow) -> str:
    """The name of the diagram of ``row``'s start in :func:`starts_dir`: ``5x5-connected.svg``."""
    return f"{row.board}-{row.rule}.svg"


def report_paths(markdown: Path) -> list[Path]:
    """The files a report at ``markdown`` writes besides its diagrams: the report and its CSV."""
    return [markdown, csv_path(markdown)]


def write_report(rows: list[SurveyRow], markdown: Path, command: str, kept: Sequence[SurveyRow] = ()) -> Path:
    """Write the Markdown report to ``markdown``, the CSV to :func:`~solver.core.answers.report.csv_path` and a diagram of each start
    to :func:`starts_dir` (removing the diagrams of variants no longer in the report), each file
    atomically; return the CSV's path. ``kept`` are the rows taken from the report before, which it
    names (see :func:`to_markdown`). Raises ``OSError`` if they cannot be written."""
    table, diagrams = csv_path(markdown), starts_dir(markdown)
    diagrams.mkdir(exist_ok=True)
    names = set()
    for row in rows:
        names.add(start_file(row))
        start = Position.start(Game.of(row.board, row.rule))
        picture = diagram.frame_picture(diagram.Frame(f"{row.board} {row.rule}", start, row.start))
        files.write_atomically(diagrams / start_file(row), svg.render(picture).encode("utf-8"))
    for stale in diagrams.glob("*x*-*.svg"):
        if stale.name not in names:
            stale.unlink()
    files.write_atomically(markdown, to_markdown(rows, command, diagrams.name, kept))
    files.write_atomically(table, to_csv(rows))
    return table


def survey_row(table: Table, verified: str = "") -> SurveyRow:
    """The figures of an opened table, verified as ``verified`` says (see :attr:`SurveyRow.verified`)."""
    counts = {name: table.attributes[name] for name in COUNT_NAMES}
    start = Evaluation.of_byte(int(table.probe(Position.start(table.game).index())))
    return SurveyRow(
        board=str(table.game.board), rule=table.game.rule.name, **counts,
        draws_percent=round(100 * counts["draws"] / counts["legal"], 2),
        start_value=start.value, start_plies=start.plies,
        table_bytes=table.contents.size,
        solve_seconds=round(table.attributes["solve_seconds"], 2), verified=verified,
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
    return report.to_csv(rows, SurveyRow)


def read_csv(path: Path) -> list[SurveyRow]:
    """The rows of a report's CSV as :func:`to_csv` wrote them.

    Raises :class:`~solver.core.errors.InputError` naming the file (and the line) if it cannot be read
    or is not such a CSV."""
    try:
        with open(path, newline="", encoding="utf-8") as file:
            lines = list(csv.reader(file))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise InputError(f"cannot read the survey {path}: {getattr(error, 'strerror', None) or error}") from None
    names = [field.name for field in fields(SurveyRow)]
    if not lines or lines[0] != names:
        raise InputError(f"{path} is not a survey's CSV: its first line is not {','.join(names)}")
    rows = []
    for number, cells in enumerate(lines[1:], start=2):
        try:
            rows.append(_row_of(dict(zip(names, cells, strict=True))))
        except (ValueError, InputError) as error:
            raise InputError(f"{path}, line {number}: not a survey row ({error})") from None
    return rows


def _row_of(cells: dict[str, str]) -> SurveyRow:
    """A row from its CSV cells, each of its field's type; raises ``ValueError`` for a cell that is not."""
    value = cells["start_value"]
    if value not in VALUES:
        raise ValueError(f"start_value {value!r} is none of {', '.join(VALUES)}")
    game = Game.of(cells["board"], cells["rule"])
    numbers = {name: int(cells[name]) for name in (*COUNT_NAMES, "table_bytes")}
    return SurveyRow(board=str(game.board), rule=game.rule.name, **numbers,
                     draws_percent=float(cells["draws_percent"]), start_value=value,
                     start_plies=int(cells["start_plies"]) if cells["start_plies"] else None,
                     solve_seconds=float(cells["solve_seconds"]), verified=cells["verified"])


_FIGURES = ("board", "rule", "legal", "wins", "losses", "draws", "draws %", "longest win", "longest loss",
            "no move", "start", "verified")
_PERFORMANCE = ("board", "rule", "indices", "table size", "solve time")


def _table(header: Sequence[str], align: str, rows: Iterable[Sequence[str]]) -> list[str]:
    """A Markdown table, each column aligned as ``align`` says (``l`` left, ``r`` right: ``"llrr"``)."""
    return ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if side == "r" else "---" for side in align) + "|",
            *("| " + " | ".join(cells) + " |" for cells in rows)]


def to_markdown(rows: list[SurveyRow], command: str, starts: str = "survey-starts",
                kept: Sequence[SurveyRow] = ()) -> str:
    """The rows as a Markdown report saying it was made by ``command``: findings, the figures, the start
    positions (the diagrams in the folder ``starts`` beside it) and the performance. ``kept``, rows
    taken from the report before rather than from tables, are named under the command."""
    kept_ids = {id(row) for row in kept}
    lines = [
        "# Survey of Neutreeko variants",
        "",
        f"Generated by `{command}`;",
        f"the same figures are in the CSV file beside this one, the start diagrams in `{starts}/`.",
        *([f"Read from their tables by that command: {_names(row for row in rows if id(row) not in kept_ids) or 'none'};",
           f"{len(kept)} {'row was' if len(kept) == 1 else 'rows were'} kept from the report before, as it had "
           "them (figures, verification, solve times)."] if kept else []),
        "",
        "Every board from 3 x 3 up (width x height, files x ranks) under every winning condition offered on",
        "it. Counts are of legal positions with one side to move (the side to move has not already won),",
        "valued from the side to move's point of view; distances are in plies.",
        "",
        "## Findings",
        "",
        *findings(rows),
        "",
        "## Figures",
        "",
        "*No move*: positions whose side to move cannot move, counted as lost for it. *Start*: the value of the",
        "start position for Black, who moves first, and its distance. *Verified*: *forward check* where every",
        "stored value was confirmed from its children's values by `neutreeko check`, which proves a table",
        "right without a reference solver.",
        "",
        *_table(_FIGURES, "ll" + "r" * 9 + "l", [(row.board, row.rule, f"{row.legal:,}", f"{row.wins:,}",
                            f"{row.losses:,}", f"{row.draws:,}", f"{row.draws_percent:.2f}", str(row.longest_win),
                            str(row.longest_loss), f"{row.no_move:,}", row.start.terse(), row.verified or "-")
                           for row in rows]),
        "",
        "## Start positions",
        "",
        "Each variant's start, Black to move, with its value for Black.",
        "",
        *_starts_grid(rows, starts),
        "",
        "## Performance",
        "",
        "*Indices*: the size of the position index, one byte each in a full table before compression. *Table",
        "size*: the table file read; *solve time*: the retrograde analysis on the machine that built the table",
        "(the first table solved in a process includes compiling the kernels, a few seconds).",
        "",
        *_table(_PERFORMANCE, "llrrr", [(row.board, row.rule, f"{_indices(row):,}", size_text(row.table_bytes),
                                f"{row.solve_seconds:.2f} s") for row in rows]),
        "",
    ]
    return "\n".join(lines)


def _indices(row: SurveyRow) -> int:
    return Game.of(row.board, row.rule).positions


def _starts_grid(rows: list[SurveyRow], starts: str) -> list[str]:
    """A table of the start diagrams: a line per board, a column per rule."""
    rules = [name for name in RULES if any(row.rule == name for row in rows)]
    boards = list(dict.fromkeys(row.board for row in rows))
    found = {(row.board, row.rule): row for row in rows}

    def cell(board: str, rule: str) -> str:
        row = found.get((board, rule))
        return f"![{board} {rule}]({starts}/{start_file(row)})" if row else ""

    return _table(("board", *rules), "l" * (len(rules) + 1),
                  [(board, *(cell(board, rule) for rule in rules)) for board in boards])


# -- findings -------------------------------------------------------------------------------------

def _names(rows: Iterable[SurveyRow]) -> str:
    return ", ".join(f"{row.board} {row.rule}" for row in rows)


def _counts(row: SurveyRow) -> tuple[int, ...]:
    return row.legal, row.wins, row.losses, row.draws, row.longest_win, row.longest_loss, row.no_move


def _transposed_pairs(rows: list[SurveyRow]) -> list[tuple[SurveyRow, SurveyRow]]:
    """(W x H, H x W) pairs of one rule with W < H, both surveyed."""
    found = {(row.board, row.rule): row for row in rows}
    pairs = []
    for row in rows:
        board = Board.parse(row.board)
        twin = found.get((str(Board(board.height, board.width)), row.rule))
        if board.width < board.height and twin is not None:
            pairs.append((row, twin))
    return pairs


def findings(rows: list[SurveyRow]) -> list[str]:
    """What the figures show, as Markdown lines, every number computed from ``rows``: the drawn starts,
    who wins the others, the longest games, transposed boards, and the extremes of each rule."""
    drawn = [row for row in rows if row.start_value == "draw"]
    won = [row for row in rows if row.start_value == "win"]
    lost = [row for row in rows if row.start_value == "loss"]
    at_once = [row for row in won if row.start_plies == 1]
    lines = [f"- {len(drawn)} of {len(rows)} variants start drawn: {_names(drawn) or 'none'}."]
    lost_text = ", ".join(f"{row.board} {row.rule} ({row.start.terse()})" for row in lost)
    lines.append(f"- Black, who moves first, wins the start in {len(won)} variants and loses it in {len(lost) or 'none'}"
                 f"{': ' + lost_text if lost else ''}."
                 + (f" {len(at_once)} start{' is' if len(at_once) == 1 else 's are'} won with Black's first move: "
                    f"{_names(at_once)}." if at_once else ""))
    longest = sorted({row.longest_win for row in rows}, reverse=True)[:3]
    ranked = [f"{plies} plies ({_names(row for row in rows if row.longest_win == plies)})" for plies in longest]
    if ranked:
        first = ranked[0].replace(" (", ", on ", 1)[:-1]
        lines.append(f"- The longest forced win: {first}" + (f"; then {', '.join(ranked[1:])}" if ranked[1:] else "")
                     + ".")
    decided = [row for row in rows if row.start_plies is not None]
    if decided:
        slowest = max(decided, key=lambda row: row.start_plies or 0)
        verb = "wins" if slowest.start_value == "win" else "loses"
        lines.append(f"- The slowest decided start: {slowest.board} {slowest.rule}, Black {verb} in "
                     f"{slowest.start_plies} plies.")
    no_move = [row for row in rows if row.no_move]
    lines.append(f"- Positions whose side to move cannot move: {'none in any variant' if not no_move else _names(no_move)}.")
    pairs = _transposed_pairs(rows)
    starts = [(a, b) for a, b in pairs if a.start != b.start]
    if pairs:
        same = [pair for pair in pairs if _counts(pair[0]) == _counts(pair[1])]
        differ = [f"{a.board}/{b.board} {a.rule}" for a, b in pairs if _counts(a) != _counts(b)]
        in_value = [f"{a.board}/{b.board} {a.rule}" for a, b in starts if a.start_value != b.start_value]
        lines.append(f"- Of {len(pairs)} pairs of transposed boards (W x H and H x W, one rule), {len(same)} have the "
                     f"same counts" + (f" and {len(differ)} {'differs' if len(differ) == 1 else 'differ'}: "
                                       f"{', '.join(differ)}" if differ else "")
                     + f". Their starts differ in {len(starts)}"
                     + (f", in value in {len(in_value)}: {', '.join(in_value)}" if in_value else "")
                     + (" (the table below)." if starts else "."))
    lines += ["", "The extremes of each rule (draws % of the legal positions; longest win in plies):", ""]
    lines += _table(("rule", "variants", "starts drawn", "least drawn", "most drawn", "longest win"), "lrrlll",
                    [_extremes([row for row in rows if row.rule == name]) for name in RULES
                     if any(row.rule == name for row in rows)])
    if starts:
        lines += ["", "Transposed boards whose starts differ (the value of each start for Black):", ""]
        lines += _table(("rule", "board", "start", "transposed", "its start"), "lllll",
                        [(a.rule, a.board, a.start.terse(), b.board, b.start.terse())
                         for a, b in sorted(starts, key=lambda pair: list(RULES).index(pair[0].rule))])
    return lines


def _extremes(rows: list[SurveyRow]) -> tuple[str, ...]:
    """One rule's line of the extremes table: its variants, drawn starts, least and most drawn boards,
    longest win (ties all named)."""
    def boards(value: object, key: Callable[[SurveyRow], object]) -> str:
        return ", ".join(row.board for row in rows if key(row) == value)

    least = min(row.draws_percent for row in rows)
    most = max(row.draws_percent for row in rows)
    longest = max(row.longest_win for row in rows)
    return (rows[0].rule, str(len(rows)), str(sum(row.start_value == "draw" for row in rows)),
            f"{boards(least, lambda row: row.draws_percent)} ({least:.2f} %)",
            f"{boards(most, lambda row: row.draws_percent)} ({most:.2f} %)",
            f"{longest} ({boards(longest, lambda row: row.longest_win)})")
