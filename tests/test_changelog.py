"""CHANGELOG.md is by release, and CITATION.cff cites the version of ``solver.__version__`` with the date
CHANGELOG.md gives it."""

from __future__ import annotations

import re
from pathlib import Path

from solver import __version__

ROOT = Path(__file__).resolve().parent.parent
RELEASE = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?$", re.MULTILINE)


def _releases() -> dict[str, str | None]:
    return {match["version"]: match["date"] for match in RELEASE.finditer((ROOT / "CHANGELOG.md").read_text())}


def test_changelog_is_by_release_in_keep_a_changelog_form():
    text = (ROOT / "CHANGELOG.md").read_text()
    releases = _releases()
    assert list(releases)[0] == "Unreleased" and releases["Unreleased"] is None
    assert all(date for version, date in releases.items() if version != "Unreleased")
    headings = set(re.findall(r"^### (.+)$", text, flags=re.MULTILINE))
    assert headings <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, headings


def test_citation_cites_the_version_with_its_changelog_date():
    fields = {line.split(":", 1)[0]: line.split(":", 1)[1].strip().strip('"')
              for line in (ROOT / "CITATION.cff").read_text().splitlines() if line and not line.startswith((" ", "#"))}
    assert fields["version"] == __version__
    assert fields["date-released"] == _releases()[__version__]
