"""``necnon play`` and its records: --record after every turn, save FILE, --load, the record and the
judgement at the end, and Ctrl-C (the end shown, then exit 130)."""

from __future__ import annotations

import re

import pytest

from solver.cli import group
from solver.necnon.playing.play import MARKS, Match
from solver.necnon.playing.record import GameRecord, parse_record, read_record
from solver.necnon.querying.probe import Tablebase
from tests.helpers import assert_one_line_error, invoke

cli = group("necnon")


def necnon(*args: str, input: str | None = None):
    return invoke(*args, input=input, program=cli)


def printed_record(transcript: str) -> str:
    """The record a transcript ends with."""
    return transcript.split("the record (necnon annotate reads it, play --load continues it):\n", 1)[1]


def test_a_whole_game_ends_with_its_judgement_and_record(necnon_env, tmp_path):
    """Both sides played from the input: Green's a1,c3 gives two points away, and the record written
    after every turn is the one printed."""
    saved = tmp_path / "game.txt"
    result = necnon("play", "--board", "3x3", "--as", "both", "--record", str(saved),
                    input="b2\na1,c3\nb1,c1\na2,a3\nc2\nb3\n")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "== Black wins by 1: Black 5 points, Green 4" in text
    assert "turns that gave points away:\n  Green 2. a1,c3?? a blunder: gave 2 points away (-1 -> +1)" in text
    assert "Green: 3 turns (2 best, 0 inaccuracies, 0 mistakes, 1 blunder), 2 points given away" in text
    record = parse_record(printed_record(text))
    assert record.result == "Black wins by 1" and record.tag("Black") == record.tag("Green") == "person"
    assert saved.read_text() == printed_record(text)


def test_the_record_file_follows_every_turn_and_take_back(necnon_env, tmp_path):
    saved = tmp_path / "game.txt"
    seen: list[list[str]] = []

    def lines():
        for line in ("b2", "undo", "c3"):
            yield line
            seen.append(read_record(saved).names() if saved.exists() else [])

    match = Match.setup(GameRecord(parse_record('[Board "3x3"]').start), "black", "perfect", Tablebase(necnon_env),
                        seed=1, write=lambda text: None, record_path=saved)
    match.run(lines())
    # The table replies at once; the file is written after the reply, after the take-back, after the next.
    assert seen == [["b2", "a1,b1"], [], ["c3", "a1,b2"]]
    assert read_record(saved).tag("Green") == "perfect (the table)"


def test_save_writes_the_game_so_far(necnon_env, tmp_path):
    path = tmp_path / "Saved Game.txt"
    result = necnon("play", "--board", "hex2", "--as", "both", input=f"b2\nsave\nsave {path}\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "save the record where? type save FILE" in result.stdout
    assert f"saved the record of 1 turn to {path}" in result.stdout
    assert read_record(path).names() == ["b2"]
    unwritable = necnon("play", "--board", "hex2", "--as", "both", input=f"b2\nsave {tmp_path}\nquit\n")
    assert f"cannot save the record to {tmp_path}: it is a directory" in unwritable.stdout


def test_load_continues_a_record(necnon_env, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text('[Board "3x3"]\n[Event "club night"]\n[Green "Bo"]\n1. b2 2. a1,c3\n')
    result = necnon("play", "--load", str(path), "--as", "both", "--record", str(path), input="b1,c1\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "The game goes on after 2 turns: 1. b2 2. a1,c3" in result.stdout
    assert "turns that gave points away:\n  Green 2. a1,c3??" in result.stdout
    record = read_record(path)
    assert record.names() == ["b2", "a1,c3", "b1,c1"]
    assert record.tag("Event") == "club night" and record.tag("Green") == "person"  # the players are today's
    again = necnon("play", "--load", str(path), "--opponent", "random", "--seed", "2", input="")
    assert again.exit_code == 0 and "Green plays" in again.stdout


@pytest.mark.parametrize("option", [("--board", "3x3"), ("--protocol", "non"), ("--from", "1b1/3/3 g")])
def test_load_takes_the_game_from_the_record(necnon_env, tmp_path, option):
    path = tmp_path / "game.txt"
    path.write_text('[Board "3x3"]\n1. b2\n')
    assert_one_line_error(necnon("play", "--load", str(path), *option), "--load continues a record", code=2,
                          program="necnon")


def test_record_file_must_be_writable(necnon_env, tmp_path):
    (tmp_path / "file").write_text("")
    assert_one_line_error(necnon("play", "--board", "3x3", "--record", str(tmp_path / "file" / "game.txt")),
                          "cannot write", code=1, program="necnon")


# -- Ctrl-C -----------------------------------------------------------------------------------------

def interrupted_after(*texts: str):
    """Lines of input, then Ctrl-C while the next one is awaited."""
    yield from texts
    raise KeyboardInterrupt


def test_interrupt_shows_the_end_and_goes_on(necnon_tables):
    written: list[str] = []
    match = Match.setup(GameRecord(parse_record('[Board "3x3"]').start), "both", "perfect",
                        Tablebase(necnon_tables), seed=1, write=written.append, echo_input=True)
    with pytest.raises(KeyboardInterrupt):
        match.run(interrupted_after("b2", "hint"))
    transcript = "".join(written)
    assert "Green> \n== game stopped (interrupted) after 1 turn ==" in transcript
    assert transcript.endswith('[Result "*"]\n\n1. b2\n')


def test_interrupted_play_prints_the_record_and_exits_130(necnon_env, monkeypatch, tmp_path):
    """Through the command line: the end of the game stopped, its record, exit 130 with one line on
    standard error; the --record file (written after every turn) holds the same record."""
    monkeypatch.setattr("solver.necnon.cli.commands.input_lines", lambda stream: interrupted_after("b2", "hint"))
    saved = tmp_path / "game.txt"
    result = necnon("play", "--board", "3x3", "--record", str(saved))
    assert result.exit_code == 130, result.stderr
    assert result.stderr.splitlines() == ["necnon: error: interrupted"]
    assert re.search(r"== game stopped \(interrupted\) after 2 turns ==", result.stdout)
    assert printed_record(result.stdout) == saved.read_text()
    assert read_record(saved).names() == ["b2", "a1,b1"]


def test_play_help_and_its_help_command_explain_the_board_marks(necnon_env):
    assert MARKS in " ".join(necnon("play", "--help").stdout.split())
    result = necnon("play", "--board", "3x3", "--as", "both", input="help\nquit\n")
    assert f"{MARKS}\nBlack> quit\n" in result.stdout
