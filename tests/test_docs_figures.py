"""No measured time is typed in the documentation's prose: a measurement comes from a file a script
writes (``docs/benchmarks/*.json``, shown by the benchmark page; the surveys' reports), with the command
that writes it. A time the pages may state is a setting or a limit of the program, listed here."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import script

DOCS = Path(__file__).resolve().parent.parent / "docs"
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
