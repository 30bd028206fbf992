"""No measured time is typed in the documentation's prose: a measurement comes from a file a script
writes (``docs/benchmarks/*.json``, shown by the benchmark page; the surveys' reports), with the command
that writes it. A time the pages may state is a setting or a limit of the program, listed here. The
times README and CONTRIBUTING give for the two commands and the test tiers are those of
``docs/benchmarks/commands.json`` (``scripts/bench_commands.py``), and README's three headline figures
those of ``solve-5x5.json`` and ``query-5x5.json``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.helpers import script

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Reports written whole by a command they name (``neutreeko survey``, ``necnon survey``,
#: ``scripts/cluster_projection.py``).
GENERATED = {"survey.md", "necnon-survey.md", "benchmarks/cluster.md"}
TIME = re.compile(r"\b\d[\d,.]*\s?(?:ms|us|µs|ns|s|seconds?|minutes?|min|hours?)\b")
#: The times each page may state, and what they are.
SETTINGS = {
    "reference/records.md": {"2 s"},  # an engine player's tag as play writes it
    "reference/json-api.md": {"10 s", "30 s", "0.1 s", "40 ms"},  # the server's limits; TCP's delayed acknowledgement
    "guide/tables.md": {"30 s", "120 s"},  # fetch's wait for each read, and for a whole request
    "reference/bad-input.md": {"30 s"},  # the wait for each read of a table over HTTP
    "scaling.md": {"10 s"},  # the wait for a Dask scheduler's answer
    "guide/necnon.md": {"1 s"},  # annotate's default --time
    "guide/explorer.md": {"10 s", "60 s", "5 s"},  # the wait for a table being built, the retry after a failed build, the engine's longest time
}


def test_no_measured_time_in_the_pages():
    for path in sorted(DOCS.rglob("*.md")):
        page = path.relative_to(DOCS).as_posix()
        if page in GENERATED:
            continue
        times = {match.group(0) for match in TIME.finditer(path.read_text(encoding="utf-8"))}
        assert times <= SETTINGS.get(page, set()), (page, sorted(times - SETTINGS.get(page, set())))


def test_the_cluster_tables_are_those_their_measurements_give():
    projection = script("cluster_projection")
    assert projection.OUT.read_text() == projection.render(), "run scripts/cluster_projection.py"


def _duration(seconds: float) -> str:
    """``"22 s"``, ``"2 min 50 s"``: as README and CONTRIBUTING write a time."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def test_readme_and_contributing_times_are_the_measured_ones():
    measured = json.loads((DOCS / "benchmarks" / "commands.json").read_text())
    figures = {entry["name"]: entry["median"] for entry in measured["measurements"]}
    main = figures["README's main command, from a fresh clone"]
    tests = figures["README's test command, from a fresh clone"]
    session = figures["pytest's session, in the test command"]
    readme = " ".join((ROOT / "README.md").read_text().split())
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    assert f"{round(main)} s from a fresh clone" in readme
    assert f"about {round(tests / 60)} minutes on 2 cores" in readme
    assert f"{int(figures['tier browser: tests'])} of the tests drive the explorer in a real browser" in readme
    assert f"-m unit` runs the cheap one in {_duration(figures['tier unit: seconds of its tests'])}" in readme
    for tier in ("unit", "kernel", "integration", "slow", "browser"):
        row = f"| {int(figures[f'tier {tier}: tests']):,} | {_duration(figures[f'tier {tier}: seconds of its tests'])} |"
        assert re.search(rf"^\| `{tier}` \|.*" + re.escape(row) + "$", contributing, re.MULTILINE), (tier, row)
    assert f"fixtures: {_duration(session)}." in " ".join(contributing.split())


def test_readme_s_headline_figures_are_the_measured_ones():
    def medians(name: str) -> dict[str, float]:
        measured = json.loads((DOCS / "benchmarks" / f"{name}.json").read_text())
        return {entry["name"]: entry["median"] for entry in measured["measurements"]}

    solve, query = medians("solve-5x5"), medians("query-5x5")
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"the 5 x 5 solve in a median of {solve['warm solve (current, over positions)']:.2f} s (warm)" in readme
    assert f"`neutreeko query start` in {query['query start 5x5 (this), wall']:.2f} s end to end" in readme
    assert f"at {round(query['query - 5x5 (this), rate'], -3):,.0f} random positions a second" in readme
