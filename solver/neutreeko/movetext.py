"""Move text: the moves of a game or a line numbered in pairs, as in chess, the one numbering that
``play``, ``line`` and their pictures use.

A move number counts a Black move and the White reply after it: ``1. C4-C3 D5-D2 2. B1-B4``. A move
list that begins with White to move starts with an ellipsis, ``1... D5-D2 2. B1-C1``, and one ply on its
own is labelled ``3.`` (Black's third move) or ``3...`` (White's).

>>> from solver.neutreeko.position import Position
>>> move_list(Position.parse("start"), ["C4-C3", "D5-D2", "B1-B4"])
'1. C4-C3 D5-D2 2. B1-B4'
>>> move_list(Position.parse("1w1w1/5/2b2/2w2/1b1b1 w"), ["D5-D2", "B1-C1"])
'1... D5-D2 2. B1-C1'
>>> ply_label(Position.parse("start"), 2), move_number(Position.parse("start"), 3)
('1...', 2)
"""

from __future__ import annotations

from typing import Iterable

from solver.neutreeko.position import Position


def move_number(start: Position, ply: int) -> int:
    """The move number of ply ``ply`` (counted from 1) of play from ``start``."""
    return (ply - 1 + (0 if start.black_to_move else 1)) // 2 + 1


def ply_label(start: Position, ply: int) -> str:
    """``3.`` or ``3...``: the label of ply ``ply`` (from 1) of play from ``start``, an ellipsis for a
    White move."""
    black_moves = (ply % 2 == 1) == start.black_to_move
    return f"{move_number(start, ply)}{'.' if black_moves else '...'}"


def numbered_moves(start: Position, names: Iterable[str]) -> list[str]:
    """The moves of :func:`move_list` in groups that a line break should not split: ``1. C4-C3 D5-D2``."""
    groups: list[str] = []
    for ply, name in enumerate(names, 1):
        if groups and ply_label(start, ply).endswith("..."):
            groups[-1] += f" {name}"
        else:
            groups.append(f"{ply_label(start, ply)} {name}")
    return groups


def move_list(start: Position, names: Iterable[str]) -> str:
    """The moves ``names`` (``"C4-C3"``, ...) played from ``start``, numbered in pairs."""
    return " ".join(numbered_moves(start, names))


def wrap(words: list[str], width: int = 78, indent: str = "  ") -> str:
    """``words`` separated by spaces, in lines of at most ``width`` columns (unless a word is longer),
    each line after the first indented."""
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 1 + len(word) > width:
            lines.append(indent + word)
        else:
            lines[-1] += " " + word
    return "\n".join(lines)
