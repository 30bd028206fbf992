"""A toy game that lives outside the package, registered as any game is: tic-tac-toe on 3 x 3, solved by
a memoised negamax into a table of the shared container, with a command group of its own, a table
module for releases and a web API. The tests run it through the shared command line and web code.

A position is the nine squares row by row (``x``, ``o``, ``.``), then a space and the side to move:
``"x.o......" x``. Its value is for the side to move: ``1`` won, ``0`` drawn, ``-1`` lost."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click
import numpy as np

from solver.cli.common import CommandGroup
from solver.core.conformance import by_plies
from solver.core.errors import InputError, TableError
from solver.core.games import GameEntry
from solver.core.storage import container

GAME = GameEntry(name="toy", title="Toy", program="toy", example_table="toy-3x3.h5",
                 commands="tests.toy_game:commands", web="tests.toy_game:ToyApi", tables="tests.toy_game",
                 conformance="tests.toy_game:CONFORMANCE")
RECORD = np.dtype([("key", "<u4"), ("value", "i1"), ("plies", "u1")])
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def parse(text: str) -> tuple[str, str]:
    squares, _, mover = text.strip().partition(" ")
    if len(squares) != 9 or set(squares) - set("xo.") or mover not in ("x", "o"):
        raise InputError(f"not a toy position: {text[:60]!r}")
    return squares, mover


def key(squares: str, mover: str) -> int:
    return int(squares.translate(str.maketrans(".xo", "012")), 3) * 2 + (mover == "o")


def won(squares: str) -> bool:
    """Has the side that just moved completed a line?"""
    return any(squares[a] == squares[b] == squares[c] != "." for a, b, c in LINES)


def children(squares: str, mover: str) -> list[tuple[int, str]]:
    if won(squares):
        return []
    return [(i, squares[:i] + mover + squares[i + 1:]) for i, s in enumerate(squares) if s == "."]


@functools.cache
def solve(squares: str, mover: str) -> tuple[int, int]:
    """(value, plies to the end) for the side to move, by negamax."""
    moves = children(squares, mover)
    if not moves:
        return (-1 if won(squares) else 0), 0
    other = "o" if mover == "x" else "x"
    results = [solve(child, other) for _, child in moves]
    value, plies = max((-v, p if v > 0 else -p) for v, p in results)  # win soonest, lose latest
    return value, abs(plies) + 1


def every_position() -> np.ndarray:
    seen: dict[int, tuple[int, int]] = {}
    stack = [("." * 9, "x")]
    while stack:
        squares, mover = stack.pop()
        if key(squares, mover) not in seen:
            seen[key(squares, mover)] = solve(squares, mover)
            stack += [(child, "o" if mover == "x" else "x") for _, child in children(squares, mover)]
    return np.array(sorted((k, v, p) for k, (v, p) in seen.items()), RECORD)


def probe(path: Path, text: str) -> dict[str, Any]:
    squares, mover = parse(text)
    contents = container.open_contents(path)
    try:
        records = contents.read("records", int(contents.attributes["positions"]), RECORD)
    finally:
        contents.close()
    at = int(np.searchsorted(records["key"], key(squares, mover)))
    if at == len(records) or records["key"][at] != key(squares, mover):
        raise InputError(f"not a position of play: {text[:60]!r}")
    return {"position": text, "value": int(records["value"][at]), "plies": int(records["plies"][at])}


@click.group(name="toy", cls=CommandGroup)
def commands() -> None:
    """Tic-tac-toe, solved."""


@commands.command(name="solve")
@click.option("--out", type=click.Path(path_type=Path), required=True)
def solve_command(out: Path) -> None:
    records = every_position()
    container.write(out, "records", records, {"game": "toy", "board": "3x3", "positions": len(records)},
                    sorted_by="key")
    click.echo(f"{len(records)} positions -> {out}")


@commands.command()
@click.argument("position")
@click.option("--table", type=click.Path(path_type=Path), required=True)
def query(position: str, table: Path) -> None:
    click.echo(probe(table, position))


class _Table:
    def __init__(self, path: Path) -> None:
        self.path = path

    def describe(self) -> dict[str, Any]:
        contents = container.open_contents(self.path)
        try:
            return {"game": "toy", "board": "3x3", "result_digest": contents.attributes["digest"]}
        finally:
            contents.close()

    def close(self) -> None:
        pass


def release_entry(path: Path, attributes: Any) -> tuple[str, _Table, None]:
    return "toy-3x3.h5", _Table(path), None


def convert_table(path: Path, attributes: Any, data: Any) -> str:
    raise TableError(f"{path}: the toy game has no tables of the first format")


class ToyApi:
    endpoints = {"/api/position": ("position",)}
    posted: dict[str, tuple[str, ...]] = {}

    def __init__(self, directory: Path | None, builds: object) -> None:
        self.path = (directory or container.tables_dir()) / "toy-3x3.h5"

    def answer(self, endpoint: str, parameters: dict[str, str]) -> dict[str, Any]:
        return probe(self.path, parameters.get("position", "......... x"))

    def answer_body(self, endpoint: str, parameters: dict[str, str], text: str) -> dict[str, Any]:
        raise InputError("the toy game takes no records")

    def games(self) -> list[dict[str, Any]]:
        return [{"game": "toy", "board": "3x3", "table": "ready" if self.path.is_file() else "missing"}]

    def catalogue(self) -> dict[str, Any]:
        return {}


def _symmetries() -> list[tuple[int, ...]]:
    """The eight symmetries of the board, as the square each square goes to, the identity first."""
    turn = tuple(3 * (square % 3) + 2 - square // 3 for square in range(9))
    mirror = tuple(3 * (square // 3) + 2 - square % 3 for square in range(9))
    found = [tuple(range(9))]
    for _ in range(3):
        found.append(tuple(turn[square] for square in found[-1]))
    return found + [tuple(mirror[square] for square in symmetry) for symmetry in found]


class ToyConformance:
    """The toy game's rules, as the conformance test of every game reads them: positions are (squares,
    mover), values (outcome, plies) for the side to move."""

    board = "3x3"
    symmetries = _symmetries()

    def positions(self) -> list[tuple[str, str]]:
        return [self.decode(int(number)) for number in every_position()["key"]]

    def encode(self, position: tuple[str, str]) -> int:
        return key(*position)

    def decode(self, number: int) -> tuple[str, str]:
        digits = "".join(".xo"[number // 2 // 3 ** power % 3] for power in range(8, -1, -1))
        return digits, "o" if number % 2 else "x"

    def children(self, position: tuple[str, str]) -> list[tuple[str, str]]:
        other = "o" if position[1] == "x" else "x"
        return [(child, other) for _, child in children(*position)]

    def parents(self, position: tuple[str, str]) -> list[tuple[str, str]]:
        """A stone of the side that has just moved taken back, where the game was not already won."""
        squares, mover = position
        moved = "o" if mover == "x" else "x"
        found = [(squares[:i] + "." + squares[i + 1:], moved) for i, s in enumerate(squares) if s == moved]
        return [(before, side) for before, side in found if not won(before)]

    def images(self, position: tuple[str, str]) -> list[tuple[str, str]]:
        squares, mover = position
        images = []
        for symmetry in self.symmetries:
            image = ["."] * 9
            for square, stone in zip(symmetry, squares):
                image[square] = stone
            images.append(("".join(image), mover))
        return images

    def solve_small(self) -> dict[int, tuple[int, int]]:
        return {int(k): (int(v), int(p) if v else 0) for k, v, p in every_position()}

    def value(self, position: tuple[str, str], values: list[tuple[int, int]]) -> tuple[int, int]:
        if values:
            return by_plies(values)
        return (-1, 0) if won(position[0]) else (0, 0)


CONFORMANCE = ToyConformance()
