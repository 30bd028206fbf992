"""Terminal sessions (``play``, ``train``): at a terminal, lines are read with line editing and history;
from a pipe, as plain lines, echoed after their prompt, without loading the line editor."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from solver.core.answers.console import TerminalLines, read_line
from tests.helpers import read_terminal

#: ``necnon play`` on 3 x 3, both sides typed; on exit, whether the line editor was loaded.
PROGRAM = ("import atexit, sys\n"
           "atexit.register(lambda: sys.stderr.write(f\"readline loaded: {'readline' in sys.modules}\\n\"))\n"
           "from solver.__main__ import run\n"
           "run('necnon')\n")
ARGUMENTS = ["play", "--board", "3x3", "--protocol", "nec", "--as", "both"]
UP = "\x1b[A"  # the up-arrow key: the line before, from the history
HINT = "turns, best first for Black"


def test_a_terminal_gets_line_editing_and_history_and_a_pipe_plain_lines(necnon_env):
    """At a terminal, the up-arrow key brings ``hint`` back; piped, the same keys are a line of their
    own, refused, and the line editor is never loaded."""
    pty = pytest.importorskip("pty")
    pytest.importorskip("readline")
    environment = dict(os.environ, TERM="xterm", INPUTRC=os.devnull)
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", PROGRAM, *ARGUMENTS], stdin=slave, stdout=slave,
                               stderr=slave, env=environment, close_fds=True)
    os.close(slave)
    try:
        typed = b""
        for keys in ("hint\r", f"{UP}\r", "quit\r"):  # each typed at its prompt, as a person does
            typed += read_terminal(master, b"Black> ", 60)
            os.write(master, keys.encode())
        typed = (typed + read_terminal(master, None, 60)).decode(errors="replace")
    finally:
        os.close(master)
        process.wait(10)
    assert process.returncode == 0, typed
    assert typed.count(HINT) == 2, typed  # the second from the history
    assert "readline loaded: True" in typed

    piped = subprocess.run([sys.executable, "-c", PROGRAM, *ARGUMENTS], input=f"hint\n{UP}\nquit\n",
                           capture_output=True, text=True, env=environment, timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.count(HINT) == 1 and "Black> hint\n" in piped.stdout  # echoed after the prompt
    assert "has '\\x1b' (U+001B) at column 1" in piped.stdout  # the up-arrow key, read as it came
    assert piped.stderr.strip().splitlines()[-1] == "readline loaded: False"


def test_terminal_lines_hand_the_prompt_to_input(monkeypatch):
    """The prompt goes to input() (which the line editor redraws), not before it; the end of input
    ends the prompt's line; an undecodable line is U+FFFD, as from a pipe."""
    answers = iter(["c3,d4", EOFError(), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")])
    prompts = []

    def typed(prompt: str = "") -> str:
        prompts.append(prompt)
        answer = next(answers)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    monkeypatch.setattr("builtins.input", typed)
    lines, written = TerminalLines(), []
    assert read_line(lines, "Black> ", written.append, echo=False) == "c3,d4"
    assert read_line(lines, "Green> ", written.append, echo=False) is None
    assert next(lines) == "\ufffd"
    assert prompts == ["Black> ", "Green> ", ""] and written == ["\n"]
