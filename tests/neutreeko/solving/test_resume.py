"""Solves that survive an interruption (issue 21): stopped at several levels, in the process (an
exception at a level boundary, as Ctrl-C arriving there) and for real (SIGTERM, SIGKILL for a power
cut, in a child process), a solve continued with its saved state gives the bytes of one never stopped,
over positions and over classes; a saved state that is damaged or of another solve is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from solver.core.storage.container import digest
from solver.neutreeko.model.game import Game
from solver.neutreeko.solving import checkpoint
from solver.neutreeko.solving.checkpoint import Checkpoints, StateError, state_path
from solver.neutreeko.solving.levels import Level
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.solving.solve_classes import solve_classes
from solver.neutreeko.tables.build import build_table
from solver.neutreeko.tables.table import open_table
from tests.helpers import assert_one_line_error, invoke

pytestmark = pytest.mark.kernel

GAME = Game.of("5x4")
SOLVES = {"positions": (solve, lambda solution: solution.result),
          "classes": (solve_classes, lambda solution: solution.folded)}
TIMEOUT = 120


class Stop(Exception):
    """Raised by the progress of a solve to stop it at a level boundary."""


def _stopping_at(plies: int):
    def progress(level: Level) -> None:
        if level.plies == plies:
            raise Stop
    return progress


@pytest.mark.parametrize("unit", SOLVES)
def test_a_solve_stopped_at_several_levels_resumes_to_the_same_bytes(unit, tmp_path):
    run, bytes_of = SOLVES[unit]
    expected = bytes_of(run(GAME)).copy()
    path = tmp_path / "state"
    levels: list[Level] = []
    run(GAME, levels.append)
    last = levels[-1].plies
    for stop in (1, 2, 7, last // 2, last):
        with pytest.raises(Stop):
            run(GAME, _stopping_at(stop), Checkpoints(path, GAME, unit, every=0))
        # The state saved at the start of level `stop`, taken up, stopped again a level later (but at the
        # last level), taken up.
        again = min(stop + 1, last)
        if again > stop:
            with pytest.raises(Stop):
                run(GAME, _stopping_at(again), Checkpoints(path, GAME, unit, every=0, resume=True))
        resumed: list[Level] = []
        result = bytes_of(run(GAME, resumed.append, Checkpoints(path, GAME, unit, every=0, resume=True)))
        assert np.array_equal(result, expected), f"stopped at ply {stop}"
        assert resumed == levels[again:] or [level.count for level in resumed] == [level.count for level in levels[again:]]
        assert resumed[0].plies == again


def test_progress_counts_the_decided_and_the_time_left():
    levels: list[Level] = []
    solution = solve_classes(GAME, levels.append)
    assert [level.decided for level in levels] == list(np.cumsum([level.count for level in levels]))
    assert {level.legal for level in levels} == {len(solution.folded)}
    assert levels[0].seconds_left is None and all(level.seconds_left is not None for level in levels[1:])
    assert all(earlier.seconds <= later.seconds for earlier, later in zip(levels, levels[1:]))


def test_no_state_is_saved_before_its_time(tmp_path):
    solve(GAME, None, Checkpoints(tmp_path / "state", GAME, "positions", every=3600))
    assert not (tmp_path / "state").exists()


def test_a_resume_without_a_saved_state_solves_from_the_start(tmp_path):
    result = solve_classes(GAME, None, Checkpoints(tmp_path / "state", GAME, "classes", every=3600, resume=True))
    assert np.array_equal(result.folded, solve_classes(GAME).folded)


@pytest.fixture
def saved(tmp_path) -> Path:
    """A state of the solve over classes of :data:`GAME`, saved at ply 3."""
    path = tmp_path / "state"
    with pytest.raises(Stop):
        solve_classes(GAME, _stopping_at(3), Checkpoints(path, GAME, "classes", every=0))
    return path


def _damage_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-100] ^= 1
    path.write_bytes(bytes(data))


def _cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1])


def _relabel(path: Path) -> None:
    magic, description, arrays = path.read_bytes().split(b"\n", 2)
    changed = json.loads(description)
    changed["plies"] = 4
    path.write_bytes(magic + b"\n" + json.dumps(changed).encode() + b"\n" + arrays)


@pytest.mark.parametrize("damage, words", [(_damage_a_byte, "not those it was saved with"), (_cut, "cut short"),
                                           (_relabel, "not those it was saved with"),
                                           (lambda path: path.write_text("hello\n"), "not a saved state")])
def test_a_damaged_state_is_refused(saved, damage, words):
    damage(saved)
    with pytest.raises(StateError, match=words):
        solve_classes(GAME, None, Checkpoints(saved, GAME, "classes", resume=True))


def _rewritten(path: Path, change, restamp: bool) -> None:
    """The state at ``path`` with its description changed by ``change`` (given the description, returning
    it changed or its new text), its digest recomputed if ``restamp`` (as a forger would)."""
    magic, description, arrays = path.read_bytes().split(b"\n", 2)
    changed = change(json.loads(description))
    if restamp:
        changed.pop("sha256")
        digest = checkpoint._digest_of(changed)
        digest.update(arrays)
        changed["sha256"] = digest.hexdigest()
    text = changed if isinstance(changed, bytes) else json.dumps(changed).encode()
    path.write_bytes(magic + b"\n" + text + b"\n" + arrays)


def _with(name: str, value):
    return lambda description: {**description, name: value}


@pytest.mark.parametrize("change, restamp, words", [
    (_with("arrays", 5), False, "its arrays is 5, not the arrays words, decided, fresh"),
    (_with("arrays", [["words"], ["decided"], ["fresh"]]), False, "its arrays is"),
    (lambda description: {**description, "arrays": [[name, kind, str(length)] for name, kind, length
                                                     in description["arrays"]]}, False, "its arrays is"),
    (lambda description: b"[" * 30_000 + b"]" * 30_000, False, "its description does not parse"),
    (lambda description: b'{"plies": ' + b"[" * 30_000 + b"]" * 30_000 + b"}", False, "does not parse"),
    (_with("plies", "abc"), True, 'its plies is "abc", not a distance from 0 to 253'),
    (_with("plies", 10**18), True, "its plies is 1000000000000000000, not a distance"),
    (_with("plies", -5), True, "its plies is -5, not a distance"),
    (_with("done", 10**9), True, "its done is 1000000000, not a count of the items decided"),
    (_with("seconds", float("nan")), True, "its seconds is NaN, not a time in seconds"),
    (_with("seconds", "1"), True, 'its seconds is "1", not a time'),
    (lambda description: {key: value for key, value in description.items() if key != "done"}, True,
     "not one of a solve"),
], ids=["arrays a number", "arrays without types", "length a text", "nested brackets", "nested in a field",
        "plies a text", "plies huge", "plies negative", "done too many", "seconds NaN", "seconds a text",
        "done missing"])
def test_a_state_whose_fields_are_not_of_their_kind_is_refused(saved, change, restamp, words):
    _rewritten(saved, change, restamp)
    with pytest.raises(StateError, match=words):
        solve_classes(GAME, None, Checkpoints(saved, GAME, "classes", resume=True))


def _forged(path: Path, change) -> None:
    """The state at ``path`` changed by ``change(description, arrays)``, which changes the description
    and the arrays (by name, writable) in place, its digest recomputed (as a forger would)."""
    magic, description, data = path.read_bytes().split(b"\n", 2)
    described = json.loads(description)
    arrays, at = {}, 0
    for name, dtype, length in described["arrays"]:
        arrays[name] = np.frombuffer(data, dtype, length, at).copy()
        at += arrays[name].nbytes
    change(described, arrays)
    path.write_bytes(magic + b"\n" + description + b"\n" + b"".join(array.tobytes() for array in arrays.values()))
    _rewritten(path, lambda _: described, True)


def _result(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """The result bytes of a state's arrays (a view)."""
    return arrays["words"].view(np.uint8)


def _undecided(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """The items of a state's arrays that are not decided."""
    return np.flatnonzero(np.unpackbits(arrays["decided"], bitorder="little")[:len(_result(arrays))] == 0)


def _saved_at_ply_3(game: Game, out: Path, fold: bool) -> Path:
    """The state of the solve of ``game`` (over classes if ``fold``) for the table ``out``, saved at ply 3."""
    with pytest.raises(Stop):
        build_table(game, out, progress=_stopping_at(3), fold=fold, save_every=0)
    return state_path(out)


@pytest.mark.parametrize("fold", [True, False], ids=["classes", "positions"])
def test_a_table_solved_from_a_forged_state_is_not_written(tmp_path, fold):
    """A state whose first win in 1 was made a loss in 2, its digest recomputed, passes every check of
    the state; the table it gives does not match the committed digest and is not written (its state is
    kept)."""
    out = tmp_path / "neutreeko-5x4.h5"

    def win_in_1_lost_in_2(description, arrays) -> None:
        result = _result(arrays)
        decided = np.setdiff1d(np.arange(len(result)), _undecided(arrays))
        result[decided[result[decided] == 2][0]] = 3

    _forged(_saved_at_ply_3(GAME, out, fold), win_in_1_lost_in_2)
    with pytest.raises(StateError, match=f"the table solved from the saved state {state_path(out)} is wrong: its"):
        build_table(GAME, out, fold=fold, resume=True)
    assert not out.exists() and state_path(out).exists()


# A board without a committed digest, so that a wrong table solved from a forged state is written.
UNCOMMITTED = Game.of("3x8")


def _one_ply_on(description, arrays) -> None:
    description["plies"] += 1


def _out_of_range(description, arrays) -> None:
    arrays["fresh"][-1] = 1 << 40


def _beyond_plies(description, arrays) -> None:
    item = _undecided(arrays)[0]
    _result(arrays)[item] = description["plies"] + 3
    arrays["decided"][item >> 3] |= 1 << (item & 7)


def _no_move(description, arrays) -> None:
    _result(arrays)[_undecided(arrays)] = 0


def _padding_in_level(description, arrays) -> None:
    _result(arrays)[-1] = description["plies"] + 1
    arrays["fresh"][-1] += 1


@pytest.mark.parametrize("forgery, fold, words", [
    (_one_ply_on, False, "it counts 729 positions at distance 4 in row 1, where there are 0"),
    (_one_ply_on, True, "it counts 751 classes at distance 4 in row 0, where there are 0"),
    (_out_of_range, False, "it counts 1,099,511,627,776 positions at distance 3 in row 2023, where there are 0"),
    (_out_of_range, True, "it counts 1,099,511,627,776 classes at distance 3 in row"),
    (_beyond_plies, False, "some positions it has decided are at no distance from 0 to its plies (3)"),
    (_beyond_plies, True, "some classes it has decided are at no distance from 0 to its plies (3)"),
    (_no_move, False, "some of its undecided positions count no move, or more than 24"),
    (_no_move, True, "some of its undecided classes count no move, or more than 96"),
    (_padding_in_level, True, "some of its illegal classes are not decided illegal"),
], ids=["plies+1 positions", "plies+1 classes", "count out of range positions", "count out of range classes",
        "beyond plies positions", "beyond plies classes", "no move positions", "no move classes",
        "padding in the level"])
def test_a_consistently_forged_state_is_refused_before_solving(tmp_path, forgery, fold, words):
    """States forged with their digest recomputed, which the kernels misread (a crash, or a wrong table
    written), are refused in one line, exit 1, in a child process (so that a crash fails the test)."""
    out = tmp_path / f"neutreeko-{UNCOMMITTED.board}.h5"
    _forged(_saved_at_ply_3(UNCOMMITTED, out, fold), forgery)
    process = subprocess.run([sys.executable, "-m", "solver", "solve", "--board", str(UNCOMMITTED.board), "--resume",
                              "--out", str(out), *(["--fold"] if fold else [])],
                             stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
    stderr = process.stderr.decode()
    assert process.returncode == 1, stderr
    assert stderr.count("\n") == 1 and f"cannot be taken up: {words}" in stderr, stderr
    assert not out.exists() and state_path(out).exists()


def test_a_state_whose_done_disagrees_with_its_arrays_is_refused(saved):
    _forged(saved, lambda description, arrays: description.update(done=description["done"] - 1))
    with pytest.raises(StateError, match="its done is .*, but it has decided .* classes at distances below 3"):
        solve_classes(GAME, None, Checkpoints(saved, GAME, "classes", resume=True))


def test_a_damaged_state_is_one_line_and_exit_1(tmp_path):
    out = tmp_path / "neutreeko-4x4.h5"
    state_path(out).write_bytes(b"neutreeko-solver solve state 1\n" + b"[" * 30_000 + b"\n")
    result = invoke("solve", "--board", "4x4", "--resume", "--out", str(out))
    assert_one_line_error(result, "its description does not parse", "--resume", code=1)
    assert not out.exists()


@pytest.mark.parametrize("game, unit", [(Game.of("4x5"), "classes"), (Game.of("5x4", "orthogonal"), "classes"),
                                        (GAME, "positions")])
def test_the_state_of_another_solve_is_refused(saved, game, unit):
    run, _ = SOLVES[unit]
    with pytest.raises(StateError, match="not of this one"):
        run(game, None, Checkpoints(saved, game, unit, resume=True))


# -- real processes and signals -----------------------------------------------------------------------------


def _solve_process(out: Path, *options: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "solver", "solve", "--board", "5x5", "--fold", "--progress",
                             "--save-every", "0", "--out", str(out), *options],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _stop_after_ply(process: subprocess.Popen, plies: int, number: int) -> str:
    """Read the progress until ply ``plies`` is announced (its state saved), then send signal ``number``;
    return what the process wrote on standard error."""
    deadline = time.monotonic() + TIMEOUT
    seen = []
    assert process.stderr is not None
    for line in process.stderr:
        seen.append(line.decode())
        if line.startswith(f"  ply {plies:3d}:".encode()):
            process.send_signal(number)
            break
        assert time.monotonic() < deadline, "no progress"
    _, rest = process.communicate(timeout=TIMEOUT)
    return "".join(seen) + rest.decode()


def _first_ply(stderr: str) -> int:
    """The distance of the first level a solve's progress announces."""
    return int(next(line for line in stderr.splitlines() if line.startswith("  ply ")).split()[1].rstrip(":"))


@pytest.mark.slow
def test_a_solve_terminated_or_killed_resumes_to_the_same_table(tmp_path):
    """5 x 5 over classes: SIGTERM after ply 3, then SIGKILL (no clean-up at all) after ply 9 of the
    resumed solve, then a resume to the end: the table of a solve never stopped."""
    expected = tmp_path / "expected.h5"
    assert invoke("solve", "--board", "5x5", "--fold", "--out", str(expected)).exit_code == 0
    out = tmp_path / "neutreeko-5x5.h5"
    stopped = _solve_process(out)
    stderr = _stop_after_ply(stopped, 3, signal.SIGTERM)
    assert stopped.returncode == 143, stderr
    assert "--resume continues from it" in stderr and stderr.rstrip().endswith("neutreeko: error: terminated")
    assert state_path(out).exists() and not out.exists()
    killed = _solve_process(out, "--resume")
    stderr = _stop_after_ply(killed, 9, signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL and _first_ply(stderr) == 3
    finished = _solve_process(out, "--resume")
    _, stderr = finished.communicate(timeout=TIMEOUT)
    assert finished.returncode == 0, stderr.decode()
    assert _first_ply(stderr.decode()) >= 9  # 10 if the kill came after the next save
    assert not state_path(out).exists()
    leftovers = [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
    assert len(leftovers) <= 1  # the kill may leave the temporary file of a save it cut short
    game = Game.of("5x5")
    assert open_table(game, out).attributes["digest"] == open_table(game, expected).attributes["digest"]
    assert digest(open_table(game, out).result) == digest(open_table(game, expected).result)


def test_a_state_of_another_board_is_refused_in_one_line(saved, tmp_path):
    out = tmp_path / "neutreeko-4x5.h5"
    state_path(out).write_bytes(saved.read_bytes())
    result = invoke("solve", "--board", "4x5", "--fold", "--resume", "--out", str(out))
    assert_one_line_error(result, "is the saved state of the solve over classes of 5x4", "--resume", code=2)
