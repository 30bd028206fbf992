"""Every test of the suite, doctests included, has exactly one tier: one of the markers of ``TIERS`` in
``conftest.py`` (which gives them), registered in ``pyproject.toml``, as ``pytest -m`` sees them; and
every tier has tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: A plugin printing the tiers of ``conftest.py``, the markers registered, and the tier markers of every
#: test collected.
PLUGIN = """
import json
def pytest_collection_finish(session):
    (tiers,) = [plugin.TIERS for plugin in session.config.pluginmanager.get_plugins() if hasattr(plugin, "TIERS")]
    registered = [line.partition(":")[0] for line in session.config.getini("markers")]
    found = {item.nodeid: [mark.name for mark in item.iter_markers() if mark.name in tiers] for item in session.items}
    print("TIERS " + json.dumps([tiers, registered, found]))
"""


def test_every_test_has_exactly_one_tier(tmp_path):
    (tmp_path / "tiers_plugin.py").write_text(PLUGIN)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "tiers_plugin",
                           "-p", "no:cacheprovider"], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("TIERS ")]
    tiers, registered, found = json.loads(line.removeprefix("TIERS "))
    assert tiers == ["unit", "kernel", "integration", "slow", "browser"] and set(tiers) <= set(registered)
    assert found["tests/test_tiers.py::test_every_test_has_exactly_one_tier"] == ["integration"]
    wrong = {test: marks for test, marks in found.items() if len(marks) != 1}
    assert not wrong, list(wrong.items())[:10]
    assert {marks[0] for marks in found.values()} == set(tiers)
