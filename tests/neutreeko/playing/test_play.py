"""``neutreeko play``: scripted games through the command line and through :class:`solver.neutreeko.playing.play.Match`."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

from solver.cli.common import input_lines
from solver.core.answers.console import MAX_LINE_BYTES
from solver.neutreeko.model.position import Position
from solver.neutreeko.playing.play import ENGINES, MARKS, RESULTS, Match, fair, move_list, perfect, random_move, strong
from tests.helpers import LONGEST, START, assert_one_line_error, invoke, random_positions

#: Four plies that lead from the start back to it.
CYCLE = ["B1-A2", "B5-A4", "A2-B1", "A4-B5"]
ORDER = {"loss": 0, "draw": 1, "win": 2}


def play(*arguments, input=""):
    return invoke("play", *arguments, input=input)


def run(tablebase, lines=(), engines=None, start=START, seed=0):
    """A match from ``start`` (persons play the colours without an engine): (outcome, transcript)."""
    written: list[str] = []
    match = Match(tablebase, Position.parse(start), engines or {}, rng=random.Random(seed), write=written.append,
                  echo_input=True)
    outcome = match.run(lines)
    return outcome, "".join(written)


def boards(transcript: str) -> list[str]:
    """The boards of a transcript, each with the status line under it."""
    lines = transcript.splitlines()
    return ["\n".join(lines[at - 5:at + 2]) for at, line in enumerate(lines) if line.startswith("  A B C")
            and at + 1 < len(lines) and "to move" in lines[at + 1]]


def test_a_line_of_input_is_cut_at_the_bound():
    """``play``, ``train`` and ``necnon play`` read lines as they arrive, a byte order mark at the start
    dropped; a line far over the bound is kept up to it and a byte (a command refuses it as too long),
    the rest dropped, and what follows read on."""
    data = "\ufeffhint\n".encode() + b"x" * (3 * MAX_LINE_BYTES) + b"\nC4-C3\r\nlast"
    stream = io.TextIOWrapper(io.BytesIO(data))
    lines = list(input_lines(stream))
    assert [len(line) for line in lines] == [4, MAX_LINE_BYTES + 1, 6, 4]
    assert (lines[0], lines[2:]) == ("hint", ["C4-C3\r", "last"])


# -- whole games ------------------------------------------------------------------------------------

def test_scripted_game_ends_in_three_in_a_row(tables_env):
    """The rules' example, both sides typed: 1. C4-C3? D5-D2! and White wins."""
    result = play("--as", "both", input="c4-c3\nD5-D2\nd1-e1\nB5-B2\n")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    end = lines.index("== White wins: three in a row on B2 C2 D2 ==")
    assert lines[end + 1:end + 5] == [
        "mistakes and blunders:",
        "  Black 1. C4-C3? a mistake: draw -> loss in 4; best B1-C1 D1-C1 (draw)",
        "Black: 2 moves, 1 kept the value (1 best, 0 inaccuracies), 1 mistake, 0 blunders",
        "White: 2 moves, 2 kept the value (2 best, 0 inaccuracies), 0 mistakes, 0 blunders"]
    assert lines[-1] == "1. C4-C3 D5-D2 2. D1-E1 B5-B2"  # the record ends the screen
    assert '[Result "white wins"]' in lines
    assert lines[end - 4:end - 1] == ["3 . . b . .", "2 .[w]w w .", "1 . b . . b"]  # the last move marked


def test_perfect_opponent_punishes_a_blunder(tables_env):
    result = play("--opponent", "perfect", "--seed", "1", input="C4-C3\nB1-A1\nhint\n")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Neutreeko 5x5 connected. You play Black, the perfect engine plays White (seed 1)."
    assert [line for line in lines if line.startswith("White plays")] == ["White plays B5-B2", "White plays D5-A2"]
    assert "== White wins: three in a row on A2 B2 C2 ==" in lines
    assert "1. C4-C3 B5-B2 2. B1-A1 D5-A2" in lines
    assert "hint" not in result.stdout.split("==")[-1]  # the game ended before the extra line was read


def test_engines_play_each_other(tables_env):
    result = play("--as", "none", "--opponent", "perfect")
    assert result.exit_code == 0, result.stderr
    assert "== draw by repetition: the same position for the third time ==" in result.stdout
    assert "Black> " not in result.stdout and "White> " not in result.stdout


def test_engines_play_out_the_longest_win(tables_env):
    result = play("--as", "none", "--opponent", "perfect", "--from", LONGEST)
    assert result.exit_code == 0, result.stderr
    assert "== Black wins: three in a row" in result.stdout
    assert sum(line.startswith(("Black plays", "White plays")) for line in result.stdout.splitlines()) == 51


def test_perfect_plays_the_line(tablebase):
    """Perfect against perfect is :meth:`Tablebase.line`, move for move, ending the same way."""
    for position in [Position.parse(START), *random_positions(12, seed=21)]:
        outcome, _ = run(tablebase, engines={"black": perfect, "white": perfect}, start=position.fen())
        line = tablebase.line(position)
        assert [ply.played.name for ply in outcome.plies] == [step.name for step in line.steps]
        assert outcome.result == line.result


@pytest.mark.parametrize("other", ["random", "fair", "strong"])
def test_perfect_never_lets_a_result_slip(tablebase, other):
    """Against random, fair and strong engines, from the start and random positions, with either
    colour: every perfect move keeps the position's result (checked by probing the table), a won
    game is won and a drawn one is not lost."""
    starts = [Position.parse(START)] * 10 + random_positions(20, seed=5)
    for game, start in enumerate(starts):
        for perfect_side in ("black", "white"):
            engines = {perfect_side: perfect, "white" if perfect_side == "black" else "black": ENGINES[other]}
            outcome, _ = run(tablebase, engines=engines, start=start.fen(), seed=game)
            best = None  # the best result perfect has had so far
            for ply in outcome.plies:
                if ply.side != perfect_side:
                    continue
                before = tablebase.probe(ply.before).value
                after = tablebase.probe(ply.played.position).value  # the opponent's view
                assert after == {"win": "loss", "draw": "draw", "loss": "win"}[before]
                best = before if best is None or ORDER[before] > ORDER[best] else best
            assert outcome.result in RESULTS[:3]
            if best == "win":
                assert outcome.result == f"{perfect_side} wins"
            elif best == "draw":
                assert outcome.result in (f"{perfect_side} wins", "draw by repetition")


# -- repetition and undo ----------------------------------------------------------------------------

def test_threefold_repetition_is_a_draw(tables_env):
    result = play("--as", "both", input="\n".join(CYCLE * 3) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "== draw by repetition: the same position for the third time ==" in result.stdout
    assert f"\n{move_list_text(CYCLE * 2)}\n" in result.stdout  # the start's third time: after 8 plies
    assert result.stdout.count("Black> ") + result.stdout.count("White> ") == 8


def test_a_win_walked_round_in_circles_is_reported(tables_env):
    """Black wins in 7 but only shuffles between winning moves: drawn by repetition, and the end says so."""
    cycle = ["D5-C5", "E4-E5", "C5-D5", "E5-E4"]
    result = play("--as", "both", "--from", "1w1b1/4w/b3b/5/2w2 b", input="\n".join(cycle * 2) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "== draw by repetition: the same position for the third time ==" in result.stdout
    assert "Black kept a win with every move but let positions repeat" in result.stdout
    assert "White: 4 moves, 4 kept the value (2 best, 2 inaccuracies), 0 mistakes, 0 blunders" in result.stdout


def move_list_text(names: list[str]) -> str:
    return " ".join(f"{n // 2 + 1}. {names[n]} {names[n + 1]}" for n in range(0, len(names), 2))


def test_repetition_count_follows_undo(tablebase):
    """A take-back removes its positions from the count: two cycles, one ply taken back and replayed,
    then the draw comes when the start occurs for the third time."""
    lines = CYCLE * 2
    outcome, _ = run(tablebase, [*CYCLE, *CYCLE[:3], "undo", "undo", *CYCLE[2:], *CYCLE])
    assert outcome.result == "draw by repetition"
    assert [ply.played.name for ply in outcome.plies] == lines


def test_undo_restores_the_exact_position(tablebase):
    """Against an engine, undo takes back the person's move and the reply: the board (last-move mark
    included), the notation and the ply count are those before the move."""
    outcome, transcript = run(tablebase, ["B1-C1", "fen", "D1-E1", "undo", "fen", "undo", "fen", "undo"],
                              engines={"white": strong}, seed=3)
    shown = boards(transcript)
    # boards: start, after move 1, after move 2, after the first undo, after the second undo
    assert len(shown) == 5
    assert shown[3] == shown[1] and shown[4] == shown[0]
    fens = [line.split("> ")[-1] for line in transcript.splitlines() if line.count("/") == 4]
    assert fens[0] == fens[1] and fens[2] == START
    assert "nothing to undo" in transcript
    assert outcome.plies == () and outcome.result == "end of input"


def test_undo_with_both_sides_takes_one_ply(tablebase):
    outcome, transcript = run(tablebase, ["C4-C3", "D5-D2", "undo", "fen"])
    assert "took back D5-D2" in transcript
    assert "White> fen\n1w1w1/5/2b2/2w2/1b1b1 w\n" in transcript
    assert [ply.played.name for ply in outcome.plies] == ["C4-C3"]


# -- engines ----------------------------------------------------------------------------------------

def test_seeded_games_are_reproducible(tables_env):
    for opponent in ("fair", "random", "strong"):
        first = play("--as", "none", "--opponent", opponent, "--seed", "11")
        assert first.exit_code == 0, first.stderr
        assert play("--as", "none", "--opponent", opponent, "--seed", "11").stdout == first.stdout
    assert play("--as", "none", "--opponent", "random", "--seed", "12").stdout != \
        play("--as", "none", "--opponent", "random", "--seed", "11").stdout


def test_seed_is_shown_when_not_given(tables_env):
    result = play("--as", "none", "--opponent", "random")
    seed = result.stdout.splitlines()[0].rsplit("seed ", 1)[1].rstrip(").")
    assert play("--as", "none", "--opponent", "random", "--seed", seed).stdout == result.stdout


def test_engine_choices(tablebase):
    """strong keeps the best value and distance; fair never gives an immediate win away when it can
    avoid it and mostly plays a best move; random reaches moves of every kind."""
    rng = random.Random(0)
    for position in random_positions(60, seed=13):
        ranked = tablebase.moves(position)
        if not ranked:
            continue
        assert all(strong(ranked, rng).evaluation == ranked[0].evaluation for _ in range(5))
        safe = [move for move in ranked if not (move.value == "loss" and move.plies == 2)]
        picks = [fair(ranked, rng) for _ in range(20)]
        assert all(pick in safe for pick in picks) or not safe
        assert random_move(ranked, rng) in ranked
    ranked = tablebase.moves(START)
    picks = [fair(ranked, rng) for _ in range(1000)]
    assert 0.7 < sum(pick.evaluation == ranked[0].evaluation for pick in picks) / 1000 < 0.95
    assert {move.value for move in (random_move(ranked, rng) for _ in range(200))} == {"draw", "loss"}


# -- the screen -------------------------------------------------------------------------------------

def test_hint_line_and_fen_match_query_and_line(tables_env):
    fen = "1w1w1/5/2b2/2w2/1b1b1 w"
    result = play("--as", "white", "--from", fen, input="hint\nline\nfen\nhelp\nquit\n")
    assert result.exit_code == 0, result.stderr
    query = invoke("query", fen).stdout.splitlines()
    line = invoke("line", fen).stdout
    assert "\n".join(query[7:]) + "\n" in result.stdout  # the value and every move, as query shows them
    assert line in result.stdout
    assert f"White> fen\n{fen}\nWhite> help\n" in result.stdout
    assert "== game stopped (quit) after 0 plies ==" in result.stdout
    assert "with best play from here: White to move wins in 3 plies" in result.stdout


def test_board_marks_the_last_move():
    position = Position.parse(START)
    after = position.play("B1-A1")
    assert after.diagram(position.parse_move("B1-A1")).splitlines()[4] == "1[b]* . b ."
    move = position.parse_move("D1-E1")
    assert position.play(move).diagram(move).splitlines()[4] == "1 . b . *[b]"
    assert position.diagram() == position.diagram(None)


def test_move_list_when_white_begins(tablebase):
    outcome, transcript = run(tablebase, ["D5-D2", "B1-C1", "quit"], start="1w1w1/5/2b2/2w2/1b1b1 w")
    assert move_list(Position.parse("1w1w1/5/2b2/2w2/1b1b1 w"), outcome.plies) == "1... D5-D2 2. B1-C1"
    assert outcome.result == "quit"


# -- bad input --------------------------------------------------------------------------------------

def test_bad_input_gets_a_message_and_the_prompt_again(tables_env):
    bad = ["", "hnit", "B1-B2", "F1-F2", "z9-a1", "c4c3", "C4-C3-C2", "C4-", "xyzzy", "undo"]
    result = play("--opponent", "perfect", input="\n".join(bad) + "\nfen\n")
    assert result.exit_code == 0, result.stderr
    assert result.exception is None
    output = result.stdout
    assert "unknown command 'hnit'; did you mean hint?" in output
    assert "B1-B2 is not a legal move here (a piece slides as far as it can). Legal moves: B1-A1 " in output
    assert "square F1 is not on the 5x5 board" in output
    assert "square Z9 is not on the 5x5 board" in output
    assert "write a move with a dash between the squares, e.g. C4-C3" in output
    assert "is not of the form FROM-TO" in output
    assert "unknown command 'xyzzy'; type help for the commands" in output
    assert "nothing to undo" in output
    assert output.count("Black> ") == len(bad) + 2  # every line prompted again, then the end of input
    assert f"Black> fen\n{START}\n" in output
    assert "== game stopped (end of input) after 0 plies ==" in output
    assert "Traceback" not in output


def test_end_of_input_ends_cleanly(tables_env):
    result = play(input="C4-C3")  # no line end, then nothing more
    assert result.exit_code == 0, result.stderr
    assert "== game stopped (end of input) after 2 plies ==" in result.stdout
    assert re.search(r'\[Result "\*"\]\n\n1\. C4-C3 [BD]5-[BD]2\n$', result.stdout)  # White wins in 3


@pytest.mark.parametrize("arguments, message", [
    (["--from", "5/5/5/5/5 b"], "black has 0 pieces"),
    (["--as", "red"], "'red' is not one of"),
    (["--opponent", "godlike"], "'godlike' is not one of"),
    (["--board", "12x12"], "not supported"),
])
def test_bad_options(tables_env, arguments, message):
    assert_one_line_error(play(*arguments), message, code=2)


# -- records ----------------------------------------------------------------------------------------

def test_save_record_and_load_continue(tables_env, tmp_path):
    """save FILE mid-game and --record FILE after every move; --load continues the game from its
    record, and the record printed at the end, pasted back, reads as the same game."""
    saved, kept = tmp_path / "saved.txt", tmp_path / "kept.txt"
    result = play("--as", "both", "--record", str(kept), input=f"C4-C3\nsave {saved}\nsave\nsave {tmp_path}\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert f"saved the record of 1 ply to {saved}" in result.stdout
    assert "save the record where? type save FILE" in result.stdout
    assert f"cannot save the record to {tmp_path}: it is a directory" in result.stdout
    assert saved.read_text() == kept.read_text() == ('[Board "5x5"]\n[Rule "connected"]\n[Black "person"]\n'
                                                      '[White "person"]\n[Result "*"]\n\n1. C4-C3\n')
    later = play("--as", "white", "--opponent", "perfect", "--load", str(saved), "--record", str(kept),
                 input="D5-D2\n")
    assert later.exit_code == 0, later.stderr
    assert "The game goes on after 1 ply: 1. C4-C3" in later.stdout
    assert "Black plays" in later.stdout
    printed = later.stdout[later.stdout.index("[Board"):]
    assert printed == kept.read_text()
    assert printed.endswith('[Result "*"]\n\n1. C4-C3 D5-D2 2. B1-A1\n')  # perfect: the first of equal losses
    annotated = invoke("annotate", "-", "--json", input=printed)
    assert annotated.exit_code == 0, annotated.stderr
    assert [move["move"] for move in json.loads(annotated.stdout)["moves"]][:2] == ["C4-C3", "D5-D2"]
    assert "engine, seed" in printed  # the engine and its seed are named in the record


def test_load_a_finished_game_shows_its_end(tables_env, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("1. C4-C3 D5-D2 2. D1-E1 B5-B2\n")
    result = play("--load", str(path))
    assert result.exit_code == 0, result.stderr
    assert "== White wins: three in a row on B2 C2 D2 ==" in result.stdout
    assert "Black> " not in result.stdout


@pytest.mark.parametrize("arguments, message", [
    (["--load", "x.txt", "--from", START], "--load"),
    (["--start", "fair", "--from", START], "--from and --start"),
    (["--start", "fair:99"], "fair:K with K from 1 to"),
    (["--start", "unfair"], "'unfair' is not standard, fair or fair:K"),
])
def test_bad_start_options(tables_env, arguments, message):
    assert_one_line_error(play(*arguments), message, code=2)


def test_record_file_must_be_writable(tables_env, tmp_path):
    (tmp_path / "file").write_text("")
    assert_one_line_error(play("--record", str(tmp_path / "file" / "game.txt")), "cannot write", code=1)


# -- Ctrl-C -----------------------------------------------------------------------------------------

SMALL = "w2w/1b2/2w1/b2b w"


def interrupted_after(*texts: str):
    """Lines of input, then Ctrl-C while the next one is awaited."""
    yield from texts
    raise KeyboardInterrupt


def test_interrupt_shows_the_end_and_goes_on(tables_4x4):
    """Ctrl-C at a prompt: the end screen of a stopped game, record included, then the interrupt."""
    from solver.neutreeko.querying.probe import Tablebase

    start = Position.parse(SMALL)
    first = start.moves()[0].name(start.game.board)
    written: list[str] = []
    match = Match(Tablebase(tables_4x4), start, {}, rng=random.Random(0), write=written.append, echo_input=True)
    with pytest.raises(KeyboardInterrupt):
        match.run(interrupted_after(first, "hint"))
    transcript = "".join(written)
    assert "Black> \n== game stopped (interrupted) after 1 ply ==" in transcript
    assert "with best play from here:" in transcript
    assert transcript.endswith(f"\n\n1... {first}\n")  # White began
    assert "interrupted" in RESULTS


def test_interrupted_play_prints_the_record_and_exits_130(tables_4x4, monkeypatch, tmp_path):
    """Through the command line: the summary quit prints, the record, exit 130 with one line on standard
    error; the --record file (written after every ply) holds the same record."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables_4x4))
    start = Position.parse(SMALL)
    first = start.moves()[0].name(start.game.board)
    monkeypatch.setattr("solver.neutreeko.cli.games.input_lines", lambda stream: interrupted_after("hint", first))
    saved = tmp_path / "game.txt"
    result = play("--board", "4x4", "--from", SMALL, "--as", "white", "--seed", "3", "--record", str(saved))
    assert result.exit_code == 130, result.stderr
    assert result.stderr.splitlines() == ["neutreeko: error: interrupted"]
    assert re.search(r"== game stopped \(interrupted\) after 2 plies ==", result.stdout)
    assert "the record (neutreeko annotate reads it, play --load continues it):" in result.stdout
    assert result.stdout.rstrip("\n").endswith(saved.read_text().rstrip("\n"))


@pytest.mark.parametrize("seed", ["-1", "4294967296", "seven"])
@pytest.mark.parametrize("program, command", [
    ("neutreeko", ["puzzles"]), ("neutreeko", ["train"]), ("neutreeko", ["play"]),
    ("necnon", ["play"]), ("necnon", ["survey"]), ("necnon", ["annotate", "-"]),
])
def test_a_seed_out_of_range_is_a_usage_error_in_every_command(program, command, seed):
    """Seeds are whole numbers from 0 to 2**32 - 1 for every command of both programs."""
    from solver.cli import group
    necnon_cli = group("necnon")
    result = invoke(*command, "--seed", seed, input="", **({"program": necnon_cli} if program == "necnon" else {}))
    assert_one_line_error(result, "--seed", code=2, program=program)


def test_play_help_and_its_help_command_explain_the_board_marks(tables_env):
    assert MARKS in " ".join(invoke("play", "--help").stdout.split())
    result = play("--as", "white", "--from", "1w1w1/5/2b2/2w2/1b1b1 w", input="help\nquit\n")
    assert f"{MARKS}\nWhite> quit\n" in result.stdout
