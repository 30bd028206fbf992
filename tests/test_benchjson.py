"""The benchmark scripts' ``--json FILE`` (``scripts/benchjson.py``) and the benchmark page built from
its files (``docs/_ext/benchmark_page.py``)."""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_script_writes_json():
    for script in sorted((ROOT / "scripts").glob("bench_*.py")):
        text = script.read_text()
        assert "benchjson.add_option(parser)" in text and f'benchjson.write("{script.stem}", ' in text, script.name


@pytest.mark.integration
def test_a_report_holds_the_machine_and_the_measurements(tmp_path):
    benchjson = _module(ROOT / "scripts" / "benchjson.py")
    parser = argparse.ArgumentParser()
    benchjson.add_option(parser)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args(["--json", str(tmp_path / "out.json")])
    benchjson.record("warm solve", [0.5, 0.3, 0.4], "s", compared="a baseline")
    benchjson.record("peak memory", 160, "MB")
    with pytest.raises(ValueError):
        benchjson.record("nothing", [], "s")
    benchjson.write("bench_test", options)
    written = json.loads((tmp_path / "out.json").read_text())
    assert [path.name for path in tmp_path.iterdir()] == ["out.json"]  # the temporary file renamed
    assert written["script"] == "bench_test" and written["options"] == {"runs": 3}
    assert {"cpus", "cpu_model", "python", "platform", "load_average"} <= set(written["machine"])
    assert written["commit"] and written["date"].endswith("Z") and written["peak_rss_mb"]["script"] > 0
    assert written["measurements"] == [
        {"name": "warm solve", "unit": "s", "median": 0.4, "min": 0.3, "max": 0.5, "runs": 3, "compared": "a baseline"},
        {"name": "peak memory", "unit": "MB", "median": 160.0, "min": 160.0, "max": 160.0, "runs": 1}]


def test_the_page_renders_every_committed_file():
    pytest.importorskip("sphinx")
    from docutils.core import publish_doctree

    page = _module(ROOT / "docs" / "_ext" / "benchmark_page.py")
    files = sorted((ROOT / "docs" / "benchmarks").glob("*.json"))
    assert {path.name for path in files} >= {"solve-5x5.json", "query-5x5.json"}
    for path in files:
        data = json.loads(path.read_text())
        text = publish_doctree("\n".join(page.render(data)),
                               settings_overrides={"report_level": 2, "halt_level": 2}).astext()
        assert data["command"] in text
        for entry in data["measurements"]:
            assert entry["name"] in text
