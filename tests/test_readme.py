"""README's front page: its Python example runs as written (a doctest of its ``pycon`` blocks), and
its two commands are the ones CI runs."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _examples(text: str) -> list[str]:
    """The ``pycon`` fenced blocks of ``text``."""
    return re.findall(r"^```pycon\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def test_readme_python_example_runs(tables_env):
    blocks = _examples(README)
    assert blocks, "README shows no Python example"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README example {number + 1}", "README.md", 0))
    results = runner.summarize(verbose=False)
    assert results.failed == 0 and results.attempted > 0, results


def test_readme_commands_are_ci_s():
    """The test command of README is the one ``.ci/run`` runs, step by step; the main job is ``verify``."""
    commands = re.findall(r"^```sh\n(.*?)\n```", README, flags=re.DOTALL | re.MULTILINE)
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/neutreeko verify" in commands
    test = next(command for command in commands if "pytest" in command)
    ci = (ROOT / ".ci" / "run").read_text()
    for step in test.split(" && ")[2:]:
        assert f"\n{step}\n" in ci, step
    extras = re.search(r"pip install -e '([^']*)'", test)
    assert extras is not None and f"pip install --quiet -e '{extras.group(1)}'\n" in ci  # the same extras
    assert "sphinx-build -W -b html docs docs/_build/html" in README


def test_readme_is_a_front_page():
    assert len(README.splitlines()) <= 200 and len(README.encode()) <= 20_000
    for image in re.findall(r"!\[[^]]*\]\(([^)]+)\)", README):
        assert (ROOT / image).is_file(), image
