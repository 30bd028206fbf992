"""The ``benchmarks`` directive: every ``docs/benchmarks/*.json`` written by a benchmark script's
``--json FILE`` (``scripts/benchjson.py``), rendered as a table per file with the machine it ran on.
The benchmark page holds no typed figure: a new file, or a file written again, changes the page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils.core import publish_doctree
from sphinx.util.docutils import SphinxDirective


def _number(value: float) -> str:
    """``value`` with three significant figures, thousands separated."""
    if value == 0:
        return "0"
    digits = max(0, 2 - int(f"{abs(value):e}".split("e")[1]))
    return f"{value:,.{digits}f}"


def render(data: dict[str, Any]) -> list[str]:
    """The reStructuredText of one benchmark file: what ran where, then a table of its measurements."""
    machine = data["machine"]
    lines = [f".. rubric:: {data['script']}", "",
             f"``{data['command']}``, {data['date']}, commit ``{data['commit'][:12]}``; "
             f"{machine['cpus']} CPUs ({machine['cpu_model']}), Python {machine['python']}, load average "
             f"{', '.join(f'{load:.2f}' for load in machine['load_average'])} at the end; peak resident memory "
             f"{_number(data['peak_rss_mb']['script'])} MB (script), {_number(data['peak_rss_mb']['children'])} MB "
             "(its largest child).", "",
             ".. list-table::", "   :header-rows: 1", "",
             "   * - measurement", "     - median", "     - min to max", "     - runs", "     - compared with"]
    for entry in data["measurements"]:
        unit = entry["unit"]
        lines += [f"   * - {entry['name']}", f"     - {_number(entry['median'])} {unit}",
                  f"     - {_number(entry['min'])} to {_number(entry['max'])}" if entry["runs"] > 1 else "     -",
                  f"     - {entry['runs']}", f"     - {entry.get('compared', '')}"]
    return lines + [""]


class Benchmarks(SphinxDirective):
    """Every JSON file of ``docs/benchmarks/``, in name order."""

    def run(self):  # type: ignore[no-untyped-def]
        directory = Path(self.env.srcdir) / "benchmarks"
        lines: list[str] = []
        for path in sorted(directory.glob("*.json")):
            self.env.note_dependency(str(path))
            lines += render(json.loads(path.read_text()))
        # Parsed as reStructuredText whatever the page's own markup (the benchmark page is Markdown).
        return publish_doctree("\n".join(lines), settings_overrides={"report_level": 2, "halt_level": 2}).children


def setup(app):  # type: ignore[no-untyped-def]
    app.add_directive("benchmarks", Benchmarks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
