"""What the distributions carry: the sdist holds everything its own test suite needs, the wheel the
licence text and the metadata (licence, classifiers, extras). Both are built by setuptools' own backend
in a child process (a second or so each, no network): the sdist from the checkout, the wheel from the
unpacked sdist, as an installer builds it."""

from __future__ import annotations

import email
import subprocess
import sys
import tarfile
import zipfile
from email.message import Message
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent

#: What the sdist's test suite reads beyond the test modules (tests/**/test_*.py).
SUITE_FILES = ["conftest.py", "tests/helpers.py", "tests/reference.py", "tests/necnon_reference.py",
               "tests/lowest-versions.txt", "docs/table-format.md", "docs/survey.md", "README.md",
               "docs/reference/bad-input.md", "docs/guide/solving.md", "docs/getting-started.md",
               "docs/guide/notebooks.md", "CHANGELOG.md", "CITATION.cff", ".ci/run", "scripts/screenshots.py",
               "scripts/run_notebooks.py", "scripts/bench_engine.py", "scripts/match_engines.py",
               "scripts/cluster_projection.py", "docs/benchmarks/cluster.md", "docs/benchmarks/cluster-8x8.json",
               "notebooks/statistics.ipynb", "notebooks/necnon.ipynb"]


def _build(kind: str, source: Path, out: Path) -> Path:
    """Build a ``sdist`` or ``wheel`` of the project at ``source`` into ``out`` with setuptools'
    backend, in a child process whose working directory is ``source``; the file built."""
    out.mkdir(exist_ok=True)
    code = f"from setuptools import build_meta; print(build_meta.build_{kind}({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return out / done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    return _build("sdist", ROOT, tmp_path_factory.mktemp("sdist"))


@pytest.fixture(scope="module")
def unpacked_sdist(sdist, tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(sdist) as archive:
        # The "data" filter where this Python has it (3.10.12, 3.11.4 and later); the archive is our own.
        archive.extractall(directory, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    (top,) = directory.iterdir()
    return top


@pytest.fixture(scope="module")
def wheel(unpacked_sdist, tmp_path_factory) -> Path:
    return _build("wheel", unpacked_sdist, tmp_path_factory.mktemp("wheel"))


def _wheel_metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(archive.read(name))


def test_sdist_holds_what_its_tests_need(unpacked_sdist):
    missing = [name for name in SUITE_FILES if not (unpacked_sdist / name).is_file()]
    assert not missing
    def suite(root: Path) -> set[Path]:
        return {path.relative_to(root) for path in (root / "tests").rglob("*.py")}
    assert suite(unpacked_sdist) == suite(ROOT)


def test_sdist_holds_the_licence_and_citation(unpacked_sdist):
    for name in ("LICENSE", "CITATION.cff", "CHANGELOG.md"):
        assert (unpacked_sdist / name).read_bytes() == (ROOT / name).read_bytes(), name


def test_wheel_carries_the_licence_text(wheel):
    with zipfile.ZipFile(wheel) as archive:
        licences = [n for n in archive.namelist() if n.endswith("/LICENSE") and ".dist-info/" in n]
        assert licences, archive.namelist()
        text = archive.read(licences[0]).decode()
    assert text.startswith("MIT License") and "the neutreeko-solver authors" in text
    metadata = _wheel_metadata(wheel)
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]


def test_wheel_metadata_has_the_classifiers_and_extras(wheel):
    metadata = _wheel_metadata(wheel)
    classifiers = metadata.get_all("Classifier")
    for version in ("3.10", "3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert "Typing :: Typed" in classifiers
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Neutreeko" in metadata["Keywords"]
    assert "png" in metadata.get_all("Provides-Extra")
    requires = metadata.get_all("Requires-Dist")
    assert not any(r.startswith("matplotlib") and "extra" not in r for r in requires), requires
    with zipfile.ZipFile(wheel) as archive:
        assert any(n.endswith("solver/py.typed") for n in archive.namelist())
        # The committed digests, which fetch and publish check tables against.
        assert "solver/neutreeko/tables/table-digests.csv" in archive.namelist()


def test_citation_is_cff_1_2_with_the_package_version():
    """The fields CFF 1.2.0 requires, and those we promise, with the version of ``solver.__version__``
    (read as text: no YAML parser is a dependency, and the file is plain ``key: value`` lines)."""
    text = (ROOT / "CITATION.cff").read_text()
    fields = {line.split(":", 1)[0]: line.split(":", 1)[1].strip().strip('"')
              for line in text.splitlines() if line and not line.startswith((" ", "#"))}
    assert fields["cff-version"] == "1.2.0"
    for field in ("message", "title", "authors", "type", "version", "date-released", "license", "abstract",
                  "keywords"):
        assert field in fields, field
    assert fields["type"] == "software" and fields["license"] == "MIT"
    assert '  - name: "the neutreeko-solver authors"' in text
    from solver import __version__
    assert fields["version"] == __version__
    assert "research data" in text
    assert f'license = "{fields["license"]}"' in (ROOT / "pyproject.toml").read_text()


def test_ci_runs_ruff_and_pytest_refuses_unknown_markers():
    """CI (``.ci/run``) runs ruff with the rules of ``[tool.ruff]``, the test extra installs it, README's
    test command runs it; pytest is strict about markers."""
    ci = (ROOT / ".ci" / "run").read_text()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert ".venv/bin/ruff check .\n" in ci
    assert ".venv/bin/ruff check ." in (ROOT / "README.md").read_text()
    test_extra = pyproject.split("\ntest = [", 1)[1].split("]", 1)[0]
    assert '"ruff>=' in test_extra
    addopts = next(line for line in pyproject.splitlines() if line.startswith("addopts"))
    assert "--strict-markers" in addopts


def test_ruff_passes():
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    done = subprocess.run([str(ruff), "check", "--no-cache", str(ROOT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout[-3000:]
