"""The notation parser under fuzzing, and bulk queries (solver.neutreeko.querying.bulk) against single probes."""

from __future__ import annotations

import io
import json
import os
import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.core.errors import InputError
from solver.core.storage.chunks import Chunks, cache_limit, set_cache_limit
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.querying.bulk import BATCH_LINES, CHUNK_LINES, answer_lines, query_stream, read_lines
from solver.neutreeko.querying.report import error_object, query_object
from tests.helpers import LONGEST, START, random_positions

GAME = Game.of("5x5")
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Strings near the notation: its characters and a few others, and real positions slightly damaged.
notation_like = st.text(alphabet="bwBW0123456789/ x-\t\n", max_size=40)
damaged = st.builds(
    lambda fen, at, cut, insert: fen[:at] + insert + fen[at + cut:],
    st.sampled_from([START, LONGEST, "4w/5/bbw2/5/bw3 w", "3w/3/bbw b", "start"]),
    st.integers(0, 30), st.integers(0, 2), st.text(alphabet="bw0123456789/ ", max_size=3))
any_line = st.one_of(st.text(max_size=60), notation_like, damaged)


def expected_answer(tablebase, text: str, line_number: int, with_moves: bool = False) -> str:
    """What a bulk query must answer for one line: the single-query object, or the error object."""
    if not text.strip():
        return json.dumps(error_object(line_number, text, "empty line"))
    try:
        position = Position.parse(text, game=GAME)
    except InputError as error:
        return json.dumps(error_object(line_number, text, str(error)))
    return json.dumps(query_object(position, tablebase.probe(position),
                                   tablebase.moves(position) if with_moves else None))


@given(any_line)
@FUZZ
def test_parser_never_crashes(text):
    """Random strings parse or raise a InputError (a NotationError, BoardError or RuleError)."""
    try:
        position = Position.parse(text)
    except InputError:
        return
    assert Position.parse(position.fen()) == position


@given(st.lists(any_line, max_size=8))
@FUZZ
def test_bulk_answers_like_single_queries_on_any_input(tablebase, lines):
    lines = [line.replace("\n", " ") for line in lines]  # a line has no line break
    answers = answer_lines(lines, tablebase, GAME)
    assert answers.texts == [expected_answer(tablebase, text, number) for number, text in enumerate(lines, 1)]
    assert answers.errors == sum('"error"' in text for text in answers.texts)


def test_bulk_equals_single_queries(tablebase):
    """Many random positions (both sides to move, with odd spacing) and some bad lines."""
    lines = [position.fen() for position in random_positions(5000, seed=6)]
    lines[::7] = [f"  {line.split()[0]}   {line.split()[1]}  " for line in lines[::7]]
    bad = ["", "start", "x", "bbb2/5/5/5/www2 b", "3w/3/bbw b", "1w1w1/2b2/5/2w2/1b1b1 B", "5/5/5/5/5 b"]
    lines[::50] = (bad * 15)[:100]
    chunks = list(query_stream([lines[:3000], lines[3000:]], tablebase, GAME))
    texts = [text for chunk in chunks for text in chunk.texts]
    assert texts == [expected_answer(tablebase, text, number) for number, text in enumerate(lines, 1)]
    assert sum(chunk.errors for chunk in chunks) == sum('"error"' in text for text in texts) > 0


def test_bulk_with_moves_equals_single_queries(tablebase):
    lines = [position.fen() for position in random_positions(100, seed=7)] + ["start", "", "x"]
    answers = answer_lines(lines, tablebase, GAME, with_moves=True)
    assert answers.texts == [expected_answer(tablebase, text, number, True) for number, text in enumerate(lines, 1)]
    assert answers.errors == 2


def test_bulk_chunks_are_numbered_on(tablebase):
    lines = [START] * (CHUNK_LINES + 5) + [""]
    chunks = list(query_stream([lines], tablebase, GAME))
    assert [len(chunk.texts) for chunk in chunks] == [CHUNK_LINES, 6]
    assert json.loads(chunks[-1].texts[-1]) == {"line": CHUNK_LINES + 6, "input": "", "error": "empty line"}


def test_read_lines_from_a_text_stream():
    stream = io.StringIO("a\r\nb\n\nc")
    assert [line for chunk in read_lines(stream) for line in chunk] == ["a", "b", "", "c"]


def test_read_lines_from_a_pipe_streams():
    """From a file descriptor, a line is handed on as soon as it is complete (no waiting for more)."""
    read_end, write_end = os.pipe()
    chunks = read_lines(os.fdopen(read_end, "r"))
    os.write(write_end, b"first\npart")
    assert next(chunks) == ["first"]
    os.write(write_end, b"ial\xff\r\nlast")
    assert next(chunks) == ["partial\ufffd"]
    threading.Timer(0.05, os.close, [write_end]).start()
    assert list(chunks) == [["last"]]


def test_read_lines_takes_what_has_arrived_in_one_batch(tmp_path):
    """A file (all of it there at once) comes in batches of BATCH_LINES lines, not one read's worth."""
    path = tmp_path / "positions.txt"
    path.write_text("".join(f"{START}\n" for _ in range(BATCH_LINES + 10)))
    with path.open() as stream:
        assert [len(chunk) for chunk in read_lines(stream)][:2] == [BATCH_LINES, 10]


def test_a_batch_reads_each_chunk_of_the_table_once(tablebase, monkeypatch):
    """Random positions of several CHUNK_LINES parts (and their moves) decompress each chunk they need
    once, although the cache keeps none: the batch's result bytes are looked up together, and answered
    as when the table fits the cache and is looked up directly."""
    reads: list[int] = []
    original = Chunks._read
    monkeypatch.setattr(Chunks, "_read", lambda self, number: reads.append(number) or original(self, number))
    lines = [position.fen() for position in random_positions(3 * CHUNK_LINES, seed=8)]

    def answered(with_moves: bool) -> list[str]:
        return [text for answers in query_stream([lines], tablebase, GAME, with_moves) for text in answers.texts]

    direct = {with_moves: answered(with_moves) for with_moves in (False, True)}
    limit = cache_limit()
    set_cache_limit(0)
    try:
        for with_moves in (False, True):
            reads.clear()
            assert answered(with_moves) == direct[with_moves] and len(reads) == len(set(reads)) > 1
    finally:
        set_cache_limit(limit)
