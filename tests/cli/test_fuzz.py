"""The command line under fuzzing: positions, moves, batch lines, board and rule options, from near-valid
text to huge and non-ASCII input. Every call ends with exit 0, or exit 2 and one line on standard error;
never a traceback; each within a time bound (hypothesis's deadline)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.neutreeko.model.rules import RULES
from tests.helpers import LONGEST, START, invoke

FUZZ = settings(max_examples=120, deadline=timedelta(seconds=3),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Characters near the notation and ones that look like it: full-width and Arabic-Indic digits, odd spaces
# and separators, a byte order mark, the replacement character.
LOOKALIKES = "\uff10\uff12\uff15\u0665\u3000\u0085\u00a0\u2013\ufeff\ufffd\t\r"
near = st.text(alphabet="bwBW0123456789/ xX-" + "ABCDEFGcg" + LOOKALIKES, max_size=60)
damaged = st.builds(lambda fen, at, cut, insert: fen[:at] + insert + fen[at + cut:],
                    st.sampled_from([START, LONGEST, "4w/5/bbw2/5/bw3 w", "start"]),
                    st.integers(0, 30), st.integers(0, 3), st.text(alphabet="bw0123456789/ -" + LOOKALIKES, max_size=3))
huge = st.builds(lambda unit, count: unit * count,
                 st.sampled_from(["5/", "1b/", "9", "C4-C3 ", "B1-B4 C2-E4 B4-B1 E4-C2 ", "\u3000", "x"]),
                 st.integers(100, 100_000))
anything = st.one_of(st.text(max_size=80), near, damaged, huge)
moves = st.one_of(st.just(""), st.lists(st.sampled_from(["C4-C3", "D5-D2", "c4-c3", "B1-B4", "C4C3", "C04-C03",
                                                         "C\uff14-C\uff13", "Z9-A1", "-", "C4-", "C4-C3-C2"]),
                                        max_size=4).map(" ".join), anything)
boards = st.one_of(st.sampled_from(["5x5", "5X5", " 5 x 5 ", "4x4", "9x9", "0x0", "5x", "x5", "\uff15x\uff15",
                                    "5\u00d75", "5x5\t", "99999999999999999999x5", "9" * 5000 + "x5"]), anything)
rules = st.one_of(st.sampled_from([*RULES, "CONNECTED", " centre ", "connected\u3000", "nonsense"]), anything)


def _check(result) -> None:
    """Exit 0, or exit 2 with one line on standard error; no traceback anywhere."""
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr[-500:])
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("neutreeko: error: "), result.stderr[-500:]
        assert len(lines[0]) < 400, lines[0][:500]


@pytest.fixture
def table(table_5x5) -> str:
    """The 5 x 5 table, given with --table so that no fuzzed board gets a table built."""
    return str(table_5x5)


@given(position=anything, played=moves)
@FUZZ
def test_query_any_position_and_moves(table, position, played):
    _check(invoke("query", "--table", table, "--moves", played, "--", position))


@given(position=st.one_of(st.just("start"), anything), board=boards, rule=rules)
@FUZZ
def test_query_any_board_and_rule(table, position, board, rule):
    _check(invoke("query", "--table", table, "--board", board, "--rule", rule, "--", position))


@given(lines=st.lists(st.one_of(anything, st.just(START), st.just("\ufeff" + START)), max_size=6))
@FUZZ
def test_batch_of_any_lines(table, lines):
    _check(invoke("query", "-", "--table", table, input="\n".join(lines)))


@given(position=st.one_of(st.just("start"), damaged), played=moves)
@FUZZ
def test_show_and_line_any_position(table, position, played):
    _check(invoke("show", "--table", table, "--moves", played, "--", position))
    _check(invoke("line", "--table", table, "--max-plies", "3", "--moves", played, "--", position))
