"""What the reports of every game share: counts in words, the CSV of a table of figures beside its
Markdown report, rows of figures as CSV, and rows of text in aligned columns."""

from __future__ import annotations

import csv
import io
from dataclasses import astuple, fields
from pathlib import Path
from typing import Any, Iterable, Sequence

from solver.core.errors import InputError


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with its noun, singular for 1 and ``plural`` (by default the noun and ``s``) otherwise,
    with thousands separated.

    >>> counted(1, "puzzle"), counted(0, "puzzle"), counted(1200, "ply", "plies")
    ('1 puzzle', '0 puzzles', '1,200 plies')
    """
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def csv_path(markdown: Path) -> Path:
    """Where the CSV goes beside the Markdown report ``markdown``: the same name with ``.csv``.

    Raises :class:`~solver.core.errors.InputError` if that is ``markdown`` itself."""
    table = markdown.with_suffix(".csv")
    if table == markdown:
        raise InputError(f"the report {markdown} would be overwritten by its CSV: name it .md")
    return table


def to_csv(rows: Iterable[Any], row_type: type) -> str:
    """Dataclass ``rows`` of ``row_type`` as CSV: one header line of its field names, then a line a
    row (None as an empty cell).

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Row:
    ...     board: str
    ...     plies: int | None
    >>> print(to_csv([Row("5x5", None), Row("4x4", 33)], Row), end="")
    board,plies
    5x5,
    4x4,33
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(field.name for field in fields(row_type))
    writer.writerows(["" if cell is None else cell for cell in astuple(row)] for row in rows)
    return out.getvalue()


def line_error(line_number: int, text: str, message: str, longest: int) -> dict[str, Any]:
    """The object answering a line of positions that cannot be read (``query -``, ``POST /api/positions``):
    ``{"line", "input", "error"}``, a line longer than ``longest`` given by its start and ``...``.

    >>> line_error(2, "x" * 9, "bad", 4)
    {'line': 2, 'input': 'xxxx...', 'error': 'bad'}
    """
    if len(text) > longest:
        text = text[:longest] + "..."
    return {"line": line_number, "input": text, "error": message}


def aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    """``rows`` of cells as lines, each column as wide as its widest cell, two spaces apart, no
    trailing spaces.

    >>> aligned([("", "move", "mark"), ("1.", "C4-C3?", "mistake")])
    ['    move    mark', '1.  C4-C3?  mistake']
    """
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))] if rows else []
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
