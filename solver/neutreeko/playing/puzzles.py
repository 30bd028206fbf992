"""Puzzles from exact values: positions of real play where exactly one move keeps the value.

A **win** puzzle: the side to move wins, and exactly one of its moves keeps the win (every other move
draws or loses). A **save** puzzle: the position is drawn, and exactly one move keeps the draw (every
other move loses).

:func:`find_puzzles` samples games (:data:`WALKERS` at once, from the start or from the fair starts of
:mod:`solver.neutreeko.studies.starts`, each side keeping the value but one move in :data:`SLIP` a
random safe one, a game at most :data:`GAME_PLIES` plies), keeps the puzzles among the positions
reached, one per symmetry class, draws them at random with the seed (the same seed, the same puzzles)
and grades them (:func:`grade`, :class:`Grade`, from the side to move's point of view):
``difficulty = plies + 3 * tempting + (6 if gap == 1 else 0)``, where ``plies`` is the plies to the win
(or that the best losing alternative resists), ``tempting`` the wrong moves whose refutation is long
(:data:`TEMPTING_PLIES` plies or more, or that only draw) and ``gap`` how much worse the best
alternative is in steps of the value order. Puzzles are sorted by it, easiest first. It raises
:class:`PuzzleError` for arguments out of range.

Every puzzle is checked again through :meth:`Tablebase.moves <solver.neutreeko.querying.probe.Tablebase.moves>`
before it is returned: the one value-keeping move (:func:`~solver.neutreeko.querying.probe.keeping_moves`) is
its solution. Nothing here imports numba. How the games are sampled and graded: docs/guide/puzzles.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from solver.core.answers.report import counted
from solver.core.errors import InputError
from solver.neutreeko.model import index
from solver.neutreeko.model.children import children
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import canonical_indices
from solver.neutreeko.model.values import ILLEGAL, Evaluation
from solver.neutreeko.playing import KINDS, ORIGINS
from solver.neutreeko.playing.record import numbered
from solver.neutreeko.querying.probe import Line, RankedMove, Tablebase, keeping_moves
from solver.neutreeko.studies.starts import TOP, fair_starts

Kind = Literal["win", "save"]
JSONObject = dict[str, Any]

#: Games sampled at once, and the plies after which a game stops and starts again.
WALKERS, GAME_PLIES = 256, 80
#: How often a side plays a random safe move instead of a value-keeping one.
SLIP = 0.2
#: A wrong move that resists this many plies or more is tempting.
TEMPTING_PLIES = 8
#: The rounds of sampled games (each :data:`WALKERS` x :data:`GAME_PLIES` positions) before giving up.
MAX_ROUNDS = 40
#: A puzzle's solution line stops after this many plies (a save's line runs to a repetition).
LINE_PLIES = 60


class PuzzleError(InputError, ValueError):
    """A request for puzzles that cannot be met: no count, or an empty range of plies."""


@dataclass(frozen=True)
class Grade:
    """How hard a puzzle is (see the module docstring)."""

    plies: int
    tempting: int
    gap: int
    best_alternative: Evaluation

    @property
    def difficulty(self) -> int:
        return self.plies + 3 * self.tempting + (6 if self.gap == 1 else 0)


@dataclass(frozen=True)
class Puzzle:
    """A position, its kind, its only value-keeping move, the line of perfect play from it, its grade
    and the ply of the sampled game at which it was reached."""

    position: Position
    kind: Kind
    evaluation: Evaluation
    solution: RankedMove
    alternatives: tuple[RankedMove, ...]
    line: Line
    grade: Grade
    found_at: int


@dataclass(frozen=True)
class Puzzles:
    """The puzzles found (sorted by difficulty) and how they were sampled."""

    game: Game
    kind: str
    seed: int
    asked: int
    puzzles: tuple[Puzzle, ...]
    games: int
    positions: int
    candidates: int
    origin: str = "standard"


def _move_scores(after_bytes: npt.NDArray[np.uint8], legal: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each move's value for its player as one number, larger better: a win in ``p`` plies ``1000 - p``,
    a draw 0, a loss in ``p`` plies ``p - 1000``; illegal slots far below everything."""
    distance = after_bytes.astype(np.int64) - 1  # the child's distance, from its side to move
    scores = np.where(after_bytes == 0, 0, np.where(distance % 2 == 0, 1000 - (distance + 1), distance + 1 - 1000))
    return np.where(legal, scores, -10**6)


def _sample(tablebase: Tablebase, game: Game, rng: np.random.Generator, kinds: tuple[Kind, ...],
            min_plies: int, max_plies: int | None, count: int,
            starts: list[Position]) -> tuple[dict[int, tuple[int, bool, int]], int, int]:
    """Sample games from ``starts`` (a random one a game) until ``count`` classes of candidate puzzles
    are found (or :data:`MAX_ROUNDS` rounds pass): ``{canonical index: (index, black to move, ply
    reached)}`` in the order found, the games played and the positions seen."""
    table = tablebase.table(game)
    start_indices = np.array([start.index() for start in starts], dtype=np.int64)
    start_black = np.array([start.black_to_move for start in starts], dtype=np.bool_)

    def begun(walkers: int) -> npt.NDArray[np.int64]:  # the starts of new games (one start: no draw)
        return rng.integers(len(starts), size=walkers) if len(starts) > 1 else np.zeros(walkers, dtype=np.int64)

    found: dict[int, tuple[int, bool, int]] = {}
    games = positions = 0
    for _ in range(MAX_ROUNDS):
        chosen_starts = begun(WALKERS)
        current, black = start_indices[chosen_starts], start_black[chosen_starts]
        ply = np.zeros(WALKERS, dtype=np.int64)
        games += WALKERS
        for _ in range(GAME_PLIES):
            mover, other = index.decode(current, game.board.size)
            moves = children(game, mover, other)
            after = np.where(moves.legal, moves.after, 0)
            after_bytes = np.asarray(table.probe(after.reshape(-1)), dtype=np.uint8).reshape(after.shape)
            after_bytes = np.where(moves.legal, after_bytes, np.uint8(ILLEGAL))
            scores = _move_scores(after_bytes, moves.legal)
            best = scores.max(axis=1)
            has_move = moves.legal.any(axis=1)
            winning, drawing = scores > 0, scores == 0
            keep = np.where(best[:, None] > 0, winning, np.where(best[:, None] == 0, drawing, scores == best[:, None]))
            keep &= moves.legal
            positions += int(has_move.sum())
            self_kinds = np.where(best > 0, 1, np.where(best == 0, 2, 0))  # 1 win, 2 draw
            unique = keep.sum(axis=1) == 1
            second = np.sort(np.where(keep, -10**6, scores), axis=1)[:, -1]  # the best alternative
            depth = np.where(best > 0, 1000 - best, second + 1000)
            wanted = np.zeros(WALKERS, dtype=np.bool_)
            if "win" in kinds:
                wanted |= self_kinds == 1
            if "save" in kinds:
                wanted |= (self_kinds == 2) & (second > -10**6)
            wanted &= unique & has_move & (depth >= min_plies)
            if max_plies is not None:
                wanted &= depth <= max_plies
            chosen = np.flatnonzero(wanted)
            if len(chosen):
                for canonical, position_index, side, reached in zip(
                        canonical_indices(current[chosen], game.board).tolist(), current[chosen].tolist(),
                        black[chosen].tolist(), ply[chosen].tolist()):
                    found.setdefault(canonical, (position_index, side, reached))
            # The next move of each game: value-keeping, or (one in SLIP) a random safe one.
            unsafe = (scores < 0) & (scores <= 2 - 1000)
            safe: npt.NDArray[np.bool_] = moves.legal & ~unsafe
            safe = np.where(np.any(safe, axis=1)[:, None], safe, moves.legal)
            slip = rng.random(WALKERS) < SLIP
            allowed = np.where(slip[:, None], safe, keep)
            noise = np.where(allowed, rng.random(allowed.shape), -1.0)
            slot = noise.argmax(axis=1)
            rows = np.arange(WALKERS)
            won = scores[rows, slot] == 999  # the move makes three in a row
            ended = won | ~has_move | (ply + 1 >= GAME_PLIES)
            again = begun(WALKERS)
            current = np.where(ended, start_indices[again], moves.after[rows, slot])
            black = np.where(ended, start_black[again], ~black)
            ply = np.where(ended, 0, ply + 1)
            games += int(ended.sum())
        if len(found) >= count:
            break
    return found, games, positions


def grade(kind: Kind, evaluation: Evaluation, alternatives: list[RankedMove]) -> Grade:
    """The :class:`Grade` of a puzzle of ``kind`` valued ``evaluation`` whose wrong moves are
    ``alternatives`` (best first, each valued for the side to move)."""
    best = alternatives[0].evaluation
    if kind == "win":
        assert evaluation.plies is not None
        plies = evaluation.plies
        tempting = sum(1 for move in alternatives
                       if move.value == "draw" or (move.plies is not None and move.plies >= TEMPTING_PLIES))
        gap = 1 if best.value == "draw" else 2
    else:
        assert best.plies is not None
        plies = best.plies
        tempting = sum(1 for move in alternatives if move.plies is not None and move.plies >= TEMPTING_PLIES)
        gap = 1
    return Grade(plies, tempting, gap, best)


def checked_puzzle(tablebase: Tablebase, position: Position, found_at: int = 0) -> Puzzle | None:
    """The puzzle ``position`` is, checked through :meth:`~solver.neutreeko.querying.probe.Tablebase.moves`: None unless it is won or
    drawn with exactly one move keeping its value (and, drawn, with a move that loses)."""
    evaluation, ranked = tablebase.probe(position), tablebase.moves(position)
    keeping = keeping_moves(evaluation, ranked)
    if evaluation.value == "loss" or len(keeping) != 1 or len(ranked) < 2:
        return None
    kind: Kind = "win" if evaluation.value == "win" else "save"
    solution = keeping[0]
    alternatives = [move for move in ranked if move is not solution]
    line = tablebase.line(position, LINE_PLIES)
    return Puzzle(position, kind, evaluation, solution, tuple(alternatives), line,
                  grade(kind, evaluation, alternatives), found_at)


def find_puzzles(tablebase: Tablebase, game: Game, count: int = 20, kind: str = "all", min_plies: int = 1,
                 max_plies: int | None = None, seed: int = 0, origin: str = "standard") -> Puzzles:
    """Up to ``count`` puzzles of ``kind`` (``win``, ``save`` or ``all``) from sampled games of ``game``
    that begin at ``origin`` (``standard``: its start; ``fair``: its fair starts) (see the module
    docstring), one per symmetry class, whose ``plies`` (the grade's) lie between
    ``min_plies`` and ``max_plies``; the same seed, the same puzzles. Fewer only if the sampling finds
    fewer. Raises :class:`PuzzleError` for a count below 1 or an empty range of plies, and as
    :meth:`~solver.neutreeko.querying.probe.Tablebase.probe` does."""
    if count < 1:
        raise PuzzleError(f"--count must be at least 1, not {count}")
    if kind not in KINDS:
        raise PuzzleError(f"--kind is win, save or all, not {kind!r}")
    if max_plies is not None and min_plies > max_plies:
        raise PuzzleError(f"--min-plies {min_plies} is more than --max-plies {max_plies}")
    if origin not in ORIGINS:
        raise PuzzleError(f"--from is standard or fair, not {origin!r}")
    kinds: tuple[Kind, ...] = ("win", "save") if kind == "all" else (kind,)  # type: ignore[assignment]
    rng = np.random.default_rng(seed)
    starts = [Position.start(game)] if origin == "standard" else _fair_starts(tablebase, game)
    found, games, positions = _sample(tablebase, game, rng, kinds, min_plies, max_plies, count, starts)
    classes = list(found)
    chosen = [classes[number] for number in sorted(rng.permutation(len(classes))[:count].tolist())]
    puzzles = []
    for canonical in chosen:
        position_index, black, reached = found[canonical]
        puzzle = checked_puzzle(tablebase, Position.from_index(game, position_index, black), reached)
        if puzzle is None or puzzle.kind not in kinds:
            raise AssertionError(f"{Position.from_index(game, position_index, black).fen()} is not a puzzle")
        puzzles.append(puzzle)
    puzzles.sort(key=lambda puzzle: (puzzle.grade.difficulty, puzzle.position.fen()))
    return Puzzles(game, kind, seed, count, tuple(puzzles), games, positions, len(found), origin)


def _fair_starts(tablebase: Tablebase, game: Game) -> list[Position]:
    """The top list of ``game``'s fair starts; :class:`PuzzleError` if it has none."""
    listed = [start.position for start in fair_starts(tablebase, game).starts[:TOP]]
    if not listed:
        raise PuzzleError(f"{game} has no fair starts to sample games from (see neutreeko starts)")
    return listed


# -- output -----------------------------------------------------------------------------------------

def _summary(values: list[int]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    return f"{ordered[0]}-{ordered[-1]} (median {ordered[len(ordered) // 2]})"


def summary_line(found: Puzzles) -> str:
    """One line on the sampling: how many puzzles of each kind, from how many positions of how many
    games, at which plies of those games they were reached, and their plies."""
    kinds = Counter(puzzle.kind for puzzle in found.puzzles)
    fewer = f" (of {found.asked:,} asked: no more were found)" if len(found.puzzles) < found.asked else ""
    return (f"{counted(len(found.puzzles), 'puzzle')}{fewer} ({kinds['win']} win, {kinds['save']} save) on {found.game}, one per "
            f"class of {found.candidates:,} found in {found.positions:,} positions of {found.games:,} sampled games "
            f"from {'the fair starts' if found.origin == 'fair' else 'the start'}; "
            f"reached at ply {_summary([puzzle.found_at for puzzle in found.puzzles])} of their games; "
            f"plies {_summary([puzzle.grade.plies for puzzle in found.puzzles])}")


def movetext(line: Line) -> str:
    """The moves of a solution line numbered as in chess, ``!`` after each forced move of the side that
    was to move at its start (the solver's): ``1. D4-E4! E5-A1 2. C2-C1! ...``."""
    names = [step.name + ("!" if step.forced and ply % 2 == 0 else "") for ply, step in enumerate(line.steps)]
    return " ".join(numbered(line.position, names))


def _line_text(puzzle: Puzzle) -> str:
    return movetext(puzzle.line)


def puzzles_text(found: Puzzles) -> str:
    """The puzzles as text, one block each (see the user guide, "Puzzles and fair starts")."""
    blocks = []
    for rank, puzzle in enumerate(found.puzzles, 1):
        side = puzzle.position.side_to_move.capitalize()
        task = "to move and win" if puzzle.kind == "win" else "to move and draw"
        grade_ = puzzle.grade
        blocks.append("\n".join([
            f"{rank}. {puzzle.position.fen()}  {side} {task}  (difficulty {grade_.difficulty})",
            f"   solution {puzzle.solution.name} ({puzzle.solution.evaluation.move_text()}); plies {grade_.plies}, "
            f"tempting {grade_.tempting}, best alternative {grade_.best_alternative.move_text()} (gap {grade_.gap})",
            f"   line: {_line_text(puzzle)} ({puzzle.line.result})",
        ]))
    return "\n".join(blocks)


def _evaluation_object(evaluation: Evaluation) -> JSONObject:
    return {"value": evaluation.value, "plies": evaluation.plies}


def puzzle_object(rank: int, puzzle: Puzzle) -> JSONObject:
    """One puzzle of ``puzzles --json``."""
    grade_ = puzzle.grade
    mover = puzzle.position.side_to_move
    return {
        "rank": rank, "position": puzzle.position.fen(), "side": mover, "kind": puzzle.kind,
        **_evaluation_object(puzzle.evaluation),
        "solution": puzzle.solution.name,
        "line": [{"move": step.name, "side": mover if ply % 2 == 0 else ("white" if mover == "black" else "black"),
                  "solver": ply % 2 == 0, "forced": step.forced, **_evaluation_object(step.evaluation)}
                 for ply, step in enumerate(puzzle.line.steps)],
        "movetext": _line_text(puzzle),
        "result": puzzle.line.result,
        "difficulty": grade_.difficulty,
        "parts": {"plies": grade_.plies, "tempting": grade_.tempting, "gap": grade_.gap,
                  "best_alternative": {"move": puzzle.alternatives[0].name,
                                       **_evaluation_object(grade_.best_alternative)}},
        "found_at": puzzle.found_at,
    }


def puzzles_object(found: Puzzles) -> JSONObject:
    """The ``puzzles --json`` object (see the user guide, "Puzzles and fair starts")."""
    return {
        "board": str(found.game.board), "rule": found.game.rule.name, "kind": found.kind, "seed": found.seed,
        "from": found.origin, "asked": found.asked,
        "sampled": {"games": found.games, "positions": found.positions, "candidates": found.candidates},
        "found_at": dict(sorted(Counter(puzzle.found_at for puzzle in found.puzzles).items())),
        "plies": dict(sorted(Counter(puzzle.grade.plies for puzzle in found.puzzles).items())),
        "puzzles": [puzzle_object(rank, puzzle) for rank, puzzle in enumerate(found.puzzles, 1)],
    }
