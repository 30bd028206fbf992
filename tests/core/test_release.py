"""Tables that travel: ``publish`` writes a release directory, ``fetch`` (both games) downloads one of its
tables from a mirror, resuming, and moves it into the tables directory only once it matches the
manifest and the committed digests. The mirror is :mod:`solver.web.static_host` on the loopback interface
(byte ranges, which Python's own server lacks), serving a published directory, with a log of the
requests and ways to misbehave: ignore ranges, cut a transfer short, forge headers, send slowly."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import h5py
import numpy as np
import pytest

from solver.cli import group, releases
from solver.core.errors import ReleaseError, TableError
from solver.core.storage import download, release
from solver.core.storage.container import digest, stamp
from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.tables.table import open_table as open_necnon_table
from solver.necnon.tables.table import table_path as necnon_table_path
from solver.neutreeko.model.game import Game
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.digests import committed_digest
from solver.neutreeko.tables.table import open_table, table_path, write_table
from solver.web.static_host import RangeHandler, RangeServer
from tests.helpers import assert_one_line_error, invoke, time_bound

necnon_cli = group("necnon")

FOUR = Game.of("4x4")
THREE = Game.of("3x3")
NECNON = NecnonGame.of("3x3", "nec")
NAMES = {"neutreeko-4x4.h5", "neutreeko-3x3.h5", "necnon-3x3-nec.h5"}
#: No test of this module may take longer: a hang ends the run with the threads' tracebacks.
BOUND_SECONDS = 120
_bounded = time_bound(BOUND_SECONDS)


@pytest.fixture(scope="module")
def source_tables(tables_4x4, necnon_tables, tmp_path_factory) -> Path:
    """A tables directory: 4 x 4 (full), 3 x 3 (folded) and NECNON 3 x 3 (never change it)."""
    directory = tmp_path_factory.mktemp("source-tables")
    shutil.copy(tables_4x4 / table_path(FOUR).name, directory)
    shutil.copy(necnon_tables / necnon_table_path(NECNON).name, directory)
    solved = solve(THREE)
    write_table(THREE, solved.result, directory / table_path(THREE).name, solved.seconds, fold=True)
    return directory


@pytest.fixture(scope="module")
def published(source_tables, tmp_path_factory) -> Path:
    """The release of :func:`source_tables`, published once (never change it: tests copy it)."""
    directory = tmp_path_factory.mktemp("published") / "release"
    result = invoke("publish", str(directory), *(str(source_tables / name) for name in sorted(NAMES)))
    assert result.exit_code == 0, result.stderr
    return directory


@pytest.fixture
def release_copy(published, tmp_path) -> Path:
    """A copy of :func:`published` (real copies, not links) that a test may change."""
    return Path(shutil.copytree(published, tmp_path / "release", copy_function=shutil.copyfile))


@dataclass
class Mirror:
    """A running server of a directory: its address, the requests it received (path, Range header,
    status), and its misbehaviours."""

    url: str
    log: list[tuple[str, str | None, int]] = field(default_factory=list)
    ignore_range: bool = False
    #: File name -> the bytes of it sent before the connection is closed.
    cut: dict[str, int] = field(default_factory=dict)
    #: File name -> headers sent in place of the true ones (``Content-Length``, ``Content-Range``).
    forged: dict[str, dict[str, str]] = field(default_factory=dict)
    #: File name -> seconds between the bytes of its answer, its head too if in :attr:`drip_head` (for 10 s
    #: at most).
    drip: dict[str, float] = field(default_factory=dict)
    drip_head: set[str] = field(default_factory=set)

    def requests_for(self, name: str) -> list[tuple[str, str | None, int]]:
        return [entry for entry in self.log if entry[0] == f"/{name}"]


class _Handler(RangeHandler):
    """The loopback server of :mod:`solver.web.static_host`, with a log and the misbehaviours of
    :class:`Mirror`."""

    mirror: Mirror

    def answer(self) -> tuple[int, dict[str, str], bytes]:
        wanted = self.headers.get("Range")
        if self.mirror.ignore_range:
            del self.headers["Range"]
        status, headers, body = super().answer()
        self.mirror.log.append((self.path, wanted, status))
        headers.update(self.mirror.forged.get(self._name(), {}) if status in (200, 206) else {})
        return status, headers, body

    def reply(self, status: int, headers: dict[str, str], body: bytes) -> None:
        name = self._name()
        if name in self.mirror.drip:
            self._drip(status, headers, body, name)
            return
        cut = self.mirror.cut.get(name)
        if cut is not None:  # a place in the file: the body ends there
            first = int(re.findall("[0-9]+", headers.get("Content-Range", "bytes 0"))[0])
            body, self.close_connection = body[:max(0, cut - first)], True
        super().reply(status, headers, body)

    def _name(self) -> str:
        return Path(self.translate_path(self.path)).name

    def _drip(self, status: int, headers: dict[str, str], body: bytes, name: str) -> None:
        """Send the answer a byte at a time, its head at once unless ``name`` is in :attr:`Mirror.drip_head`,
        until the client goes or 10 s have passed."""
        head = "".join(f"{key}: {value}\r\n" for key, value in headers.items())
        answer = f"HTTP/1.1 {status} OK\r\n{head}\r\n".encode("latin-1")
        sent = 0 if name in self.mirror.drip_head else len(answer)
        answer += body
        self.close_connection = True
        end = time.monotonic() + 10
        try:
            self.wfile.write(answer[:sent])
            while sent < len(answer) and time.monotonic() < end:
                time.sleep(self.mirror.drip[name])
                self.wfile.write(answer[sent:sent + 1])
                sent += 1
        except OSError:  # the client has gone
            pass

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def serve() -> Iterator:
    """A function starting a :class:`Mirror` of a directory on an ephemeral loopback port; every
    server stops at the test's end."""
    running = []

    def start(directory: Path) -> Mirror:
        mirror = Mirror("")
        server = RangeServer(directory, handler=type("Handler", (_Handler,), {"mirror": mirror}))
        mirror.url = server.start().url
        running.append(server)
        return mirror

    yield start
    for server in running:
        server.stop()


@pytest.fixture
def tables(tmp_path, monkeypatch) -> Path:
    """An empty tables directory of the test's own, and no mirror in the environment."""
    directory = tmp_path / "tables"
    monkeypatch.setenv("NEUTREEKO_TABLES", str(directory))
    monkeypatch.delenv(releases.MIRROR_VARIABLE, raising=False)
    return directory


def _manifest(directory: Path) -> dict:
    return json.loads((directory / release.MANIFEST).read_text())


def _entry(directory: Path, name: str) -> dict:
    return next(item for item in _manifest(directory)["tables"] if item["file"] == name)


def _edit_manifest(directory: Path, name: str, **changes: object) -> None:
    manifest = _manifest(directory)
    next(item for item in manifest["tables"] if item["file"] == name).update(changes)
    (directory / release.MANIFEST).write_text(json.dumps(manifest))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _nothing_moved(tables: Path) -> None:
    assert not tables.exists() or list(tables.iterdir()) == []


# -- publish ------------------------------------------------------------------------------------------

def test_the_manifest_says_what_each_table_holds(published, source_tables):
    manifest = _manifest(published)
    assert (manifest["format"], manifest["version"]) == (release.FORMAT, release.VERSION)
    entries = {item["file"]: item for item in manifest["tables"]}
    assert set(entries) == NAMES
    for name, item in entries.items():
        assert item["size"] == (published / name).stat().st_size == (source_tables / name).stat().st_size
        assert item["sha256"] == _sha256(published / name) == _sha256(source_tables / name)
    # The figures are the tables' own, counted again from their data here.
    four, three = open_table(FOUR, source_tables / "neutreeko-4x4.h5"), open_table(THREE, source_tables / "neutreeko-3x3.h5")
    assert entries["neutreeko-4x4.h5"] | {"figures": None} == {
        **entries["neutreeko-4x4.h5"], "game": "neutreeko", "board": "4x4", "rule": "connected", "folded": False,
        "result_digest": digest(four.result), "figures": None}
    assert entries["neutreeko-4x4.h5"]["figures"] == four.summary.counts()
    assert entries["neutreeko-4x4.h5"]["result_digest"] == committed_digest(FOUR)
    assert entries["neutreeko-3x3.h5"]["folded"] is True
    assert entries["neutreeko-3x3.h5"]["result_digest"] == digest(three.result) == committed_digest(THREE)
    assert digest(three.result) != three.attributes["digest"]  # the folded data's digest is another
    necnon = open_necnon_table(NECNON, source_tables / "necnon-3x3-nec.h5")
    assert entries["necnon-3x3-nec.h5"]["protocol"] == "nec"
    assert entries["necnon-3x3-nec.h5"]["figures"] == {**necnon.summary.counts(),
                                                      "best_first": list(necnon.summary.best_first)}
    assert entries["necnon-3x3-nec.h5"]["result_digest"] == digest(necnon.records)


def test_sha256sums_is_what_sha256sum_checks(published):
    lines = (published / release.SUMS).read_text().splitlines()
    listed = {name: sha256 for sha256, name in (line.split("  ") for line in lines)}
    assert set(listed) == NAMES | {release.MANIFEST}
    assert all(_sha256(published / name) == sha256 for name, sha256 in listed.items())
    if shutil.which("sha256sum"):
        done = subprocess.run(["sha256sum", "-c", release.SUMS], cwd=published, capture_output=True, text=True,
                              timeout=30)
        assert done.returncode == 0 and done.stdout.count(": OK") == 4, done.stdout + done.stderr


def test_publish_hard_links_the_tables(source_tables, tmp_path):
    result = invoke("publish", str(tmp_path / "release"), str(source_tables / "neutreeko-4x4.h5"))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "release" / "neutreeko-4x4.h5").stat().st_ino == (source_tables / "neutreeko-4x4.h5").stat().st_ino
    assert result.stdout.splitlines()[-1] == f"published 1 table -> {tmp_path / 'release'} (manifest.json, SHA256SUMS)"


def test_publish_takes_the_tables_directory_by_default(source_tables, tmp_path, monkeypatch):
    monkeypatch.setenv("NEUTREEKO_TABLES", str(source_tables))
    result = invoke("publish", str(tmp_path / "release"), program=necnon_cli)
    assert result.exit_code == 0, result.stderr
    assert {item["file"] for item in _manifest(tmp_path / "release")["tables"]} == NAMES


def test_publish_without_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path / "empty"))
    assert_one_line_error(invoke("publish", str(tmp_path / "release")), "no tables to publish", code=1)


def test_an_existing_release_is_replaced_only_with_force(published, source_tables, release_copy):
    before = (release_copy / release.MANIFEST).read_bytes()
    table = str(source_tables / "neutreeko-4x4.h5")
    assert_one_line_error(invoke("publish", str(release_copy), table), "a release is already in", "--force", code=1)
    assert (release_copy / release.MANIFEST).read_bytes() == before
    assert invoke("publish", str(release_copy), table, "--force").exit_code == 0
    assert [item["file"] for item in _manifest(release_copy)["tables"]] == ["neutreeko-4x4.h5"]


def test_publish_refuses_a_damaged_table(source_tables, tmp_path):
    damaged = tmp_path / "neutreeko-4x4.h5"
    data = bytearray((source_tables / "neutreeko-4x4.h5").read_bytes())
    data[len(data) // 2] ^= 1
    damaged.write_bytes(bytes(data))
    assert_one_line_error(invoke("publish", str(tmp_path / "release"), str(damaged)), "damaged", code=1)
    assert not (tmp_path / "release").exists()


def test_data_that_does_not_match_its_digest_is_refused(source_tables, tmp_path):
    """A file whose digests were all recomputed after a result byte changed passes the container's
    check; the result digest, computed from the data, does not."""
    edited = tmp_path / "neutreeko-4x4.h5"
    shutil.copyfile(source_tables / "neutreeko-4x4.h5", edited)
    with h5py.File(edited, "r+") as file:
        file["result"][100_000] ^= 3
    stamp(edited)
    with pytest.raises(TableError, match="its data does not match its digest"):
        open_table(FOUR, edited).result_digest()
    assert_one_line_error(invoke("publish", str(tmp_path / "release"), str(edited)),
                          "its data does not match its digest", code=1)


def _forged_3x3(path: Path) -> None:
    """A sound 3 x 3 table whose data is not the solver's: one win in 1 made a win in 3."""
    result = solve(THREE).result.copy()
    result[np.flatnonzero(result == 2)[0]] = 4
    write_table(THREE, result, path, 0.0)


@pytest.mark.kernel
def test_publish_refuses_a_table_that_is_not_the_committed_one(tmp_path):
    _forged_3x3(tmp_path / "neutreeko-3x3.h5")
    assert_one_line_error(invoke("publish", str(tmp_path / "release"), str(tmp_path / "neutreeko-3x3.h5")),
                          "does not match the committed digest", committed_digest(THREE), code=1)
    assert not (tmp_path / "release").exists()


def test_two_tables_of_one_name_are_refused(source_tables, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(source_tables / "neutreeko-4x4.h5", other / "copy.h5")
    result = invoke("publish", str(tmp_path / "release"), str(source_tables / "neutreeko-4x4.h5"), str(other / "copy.h5"))
    assert_one_line_error(result, "both neutreeko-4x4.h5", code=2)


# -- fetch: tables that arrive --------------------------------------------------------------------------

def test_fetch_moves_the_table_into_place(published, source_tables, serve, tables):
    mirror = serve(published)
    result = invoke("fetch", "4x4", "--mirror", mirror.url)
    assert result.exit_code == 0, result.stderr
    assert (tables / "neutreeko-4x4.h5").read_bytes() == (source_tables / "neutreeko-4x4.h5").read_bytes()
    assert sorted(path.name for path in tables.iterdir()) == ["neutreeko-4x4.h5"]  # no .part left
    assert result.stdout == (f"fetched neutreeko 4x4 connected from {mirror.url} -> {tables / 'neutreeko-4x4.h5'} "
                             f"(81.3 kB; size, SHA-256 and every byte checked; result digest "
                             f"{committed_digest(FOUR)}, the committed one)\n")
    assert mirror.requests_for("neutreeko-4x4.h5") == [("/neutreeko-4x4.h5", None, 200)]
    assert invoke("query", "start", "--board", "4x4").exit_code == 0


def test_fetch_takes_a_folded_table(published, serve, tables):
    assert invoke("fetch", "3x3", "--mirror", serve(published).url).exit_code == 0
    assert open_table(THREE).folded


def test_necnon_fetch_takes_the_mirror_from_the_environment(published, source_tables, serve, tables, monkeypatch):
    monkeypatch.setenv(releases.MIRROR_VARIABLE, serve(published).url)
    result = invoke("fetch", "3x3", "--protocol", "nec", program=necnon_cli)
    assert result.exit_code == 0, result.stderr
    assert "none is committed" in result.stdout
    assert (tables / "necnon-3x3-nec.h5").read_bytes() == (source_tables / "necnon-3x3-nec.h5").read_bytes()


def test_a_table_already_there_is_replaced_only_with_force(published, serve, tables):
    mirror = serve(published)
    assert invoke("fetch", "4x4", "--mirror", mirror.url).exit_code == 0
    mirror.log.clear()
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), "a table is already at", "--force", code=1)
    assert mirror.log == []  # refused before asking the mirror anything
    assert invoke("fetch", "4x4", "--mirror", mirror.url, "--force").exit_code == 0


def test_progress_shows_on_a_terminal(published, serve, tables, monkeypatch):
    monkeypatch.setattr(releases, "stderr_is_terminal", lambda: True)
    result = invoke("fetch", "4x4", "--mirror", serve(published).url)
    assert result.exit_code == 0
    assert result.stderr.startswith("\rneutreeko-4x4.h5: 0 B of 81.3 kB (0 %)")
    assert result.stderr.endswith("\rneutreeko-4x4.h5: 81.3 kB of 81.3 kB (100 %)\n")
    quiet = invoke("fetch", "3x3", "--mirror", serve(published).url, "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


# -- fetch: resuming ------------------------------------------------------------------------------------

def test_a_partial_download_is_resumed_from_where_it_stopped(published, serve, tables):
    mirror = serve(published)
    whole = (published / "neutreeko-4x4.h5").read_bytes()
    tables.mkdir()
    (tables / "neutreeko-4x4.h5.part").write_bytes(whole[:len(whole) // 2])
    assert invoke("fetch", "4x4", "--mirror", mirror.url).exit_code == 0
    assert mirror.requests_for("neutreeko-4x4.h5") == [("/neutreeko-4x4.h5", f"bytes={len(whole) // 2}-", 206)]
    assert (tables / "neutreeko-4x4.h5").read_bytes() == whole
    assert not (tables / "neutreeko-4x4.h5.part").exists()


def test_a_server_that_ignores_ranges_sends_the_whole_file_again(published, serve, tables):
    mirror = serve(published)
    mirror.ignore_range = True
    whole = (published / "neutreeko-4x4.h5").read_bytes()
    tables.mkdir()
    (tables / "neutreeko-4x4.h5.part").write_bytes(whole[:len(whole) // 2])
    assert invoke("fetch", "4x4", "--mirror", mirror.url).exit_code == 0, "restarted"
    assert mirror.requests_for("neutreeko-4x4.h5") == [("/neutreeko-4x4.h5", f"bytes={len(whole) // 2}-", 200)]
    assert (tables / "neutreeko-4x4.h5").read_bytes() == whole


def test_a_download_cut_short_is_kept_and_the_next_fetch_resumes_it(published, serve, tables):
    mirror = serve(published)
    size = (published / "neutreeko-4x4.h5").stat().st_size
    mirror.cut["neutreeko-4x4.h5"] = 30_000
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), "stopped at 30,000 of",
                          "fetch again to resume", code=1)
    assert (tables / "neutreeko-4x4.h5.part").stat().st_size == 30_000
    assert not (tables / "neutreeko-4x4.h5").exists()
    del mirror.cut["neutreeko-4x4.h5"]
    assert invoke("fetch", "4x4", "--mirror", mirror.url).exit_code == 0
    assert [entry[1:] for entry in mirror.requests_for("neutreeko-4x4.h5")] == [(None, 200), ("bytes=30000-", 206)]
    assert (tables / "neutreeko-4x4.h5").stat().st_size == size


def test_an_interrupted_download_is_kept(published, serve, tables, monkeypatch):
    mirror = serve(published)
    monkeypatch.setattr(download, "_BLOCK", 10_000)  # blocks smaller than the file, to be interrupted between

    def interrupt(held: int, total: int) -> None:
        if held:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        release.fetch(mirror.url, tables / "neutreeko-4x4.h5", {"board": "4x4"}, None, lambda path: {}, False,
                      interrupt)
    assert 0 < (tables / "neutreeko-4x4.h5.part").stat().st_size < (published / "neutreeko-4x4.h5").stat().st_size
    assert not (tables / "neutreeko-4x4.h5").exists()


def test_a_partial_file_of_other_bytes_is_refused_in_the_end(published, serve, tables):
    """Resuming trusts nothing of what the partial file holds: the whole is digested."""
    tables.mkdir()
    (tables / "neutreeko-4x4.h5.part").write_bytes(b"x" * 1000)
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(published).url),
                          "does not match the manifest: its SHA-256", code=1)
    _nothing_moved(tables)


# -- fetch: deadlines ---------------------------------------------------------------------------------

def test_a_table_that_drips_stops_at_its_deadline_and_what_came_is_kept_to_resume(published, serve, tables):
    mirror = serve(published)
    mirror.drip["neutreeko-4x4.h5"] = 0.01
    began = time.monotonic()
    with pytest.raises(ReleaseError) as refused:
        release.fetch(mirror.url, tables / "neutreeko-4x4.h5", {"board": "4x4"}, None, lambda path: {}, timeout=5,
                      deadline=1.5)
    assert time.monotonic() - began < 3
    said = str(refused.value)
    assert "\n" not in said and "past its deadline of 1.5 s; fetch again to resume it" in said
    assert f"'{mirror.url}neutreeko-4x4.h5'" in said
    held = (tables / "neutreeko-4x4.h5.part").stat().st_size
    assert held > 0, "each byte is written as it arrives"
    del mirror.drip["neutreeko-4x4.h5"]
    assert invoke("fetch", "4x4", "--mirror", mirror.url).exit_code == 0
    assert mirror.requests_for("neutreeko-4x4.h5")[-1] == ("/neutreeko-4x4.h5", f"bytes={held}-", 206)
    assert (tables / "neutreeko-4x4.h5").read_bytes() == (published / "neutreeko-4x4.h5").read_bytes()


def test_a_manifest_that_drips_its_head_stops_at_its_deadline(published, serve, tables, monkeypatch):
    """The deadline holds from the connection on: a status line and headers sent a byte at a time too."""
    monkeypatch.setattr(release, "MANIFEST_DEADLINE", 1.0)
    mirror = serve(published)
    mirror.drip[release.MANIFEST] = 0.05
    mirror.drip_head.add(release.MANIFEST)
    began = time.monotonic()
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), f"'{mirror.url}manifest.json'",
                          "its deadline of 1 s passed", code=1)
    assert time.monotonic() - began < 3
    _nothing_moved(tables)


# -- fetch: refusals ------------------------------------------------------------------------------------

def test_a_truncated_file_on_the_mirror_is_refused(release_copy, serve, tables):
    table = release_copy / "neutreeko-4x4.h5"
    table.write_bytes(table.read_bytes()[:-100])
    mirror = serve(release_copy)
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), "does not match the manifest",
                          f"{table.stat().st_size:,} bytes", code=1)
    _nothing_moved(tables)


def _tampered(table: Path) -> Path:
    """``table`` with one bit of its middle byte flipped."""
    data = bytearray(table.read_bytes())
    data[len(data) // 2] ^= 0x10
    table.write_bytes(bytes(data))
    return table


def test_a_tampered_file_is_refused_and_nothing_is_moved(release_copy, serve, tables):
    _tampered(release_copy / "neutreeko-4x4.h5")
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                          "neutreeko-4x4.h5' does not match the manifest: its SHA-256 is", code=1)
    _nothing_moved(tables)


def test_a_tampered_file_with_a_manifest_to_match_fails_the_container_check(release_copy, serve, tables):
    table = _tampered(release_copy / "neutreeko-4x4.h5")
    _edit_manifest(release_copy, "neutreeko-4x4.h5", sha256=_sha256(table))
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                          "is not a sound table", "damaged", code=1)
    _nothing_moved(tables)


def test_a_manifest_without_the_committed_digest_is_refused_before_the_download(release_copy, serve, tables):
    _edit_manifest(release_copy, "neutreeko-4x4.h5", result_digest="sha256:" + "0" * 64)
    mirror = serve(release_copy)
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), "does not match the committed digest",
                          committed_digest(FOUR), code=1)
    assert mirror.requests_for("neutreeko-4x4.h5") == []
    _nothing_moved(tables)


def test_a_forged_table_under_the_committed_digest_is_refused(release_copy, serve, tables):
    """A manifest may claim the committed digest for a file that does not have it: the digest is
    computed again from the data downloaded."""
    table = release_copy / "neutreeko-3x3.h5"
    table.unlink()
    _forged_3x3(table)
    forged = open_table(THREE, table)
    _edit_manifest(release_copy, "neutreeko-3x3.h5", size=table.stat().st_size, sha256=_sha256(table),
                   folded=False, figures=forged.summary.counts())
    assert _entry(release_copy, "neutreeko-3x3.h5")["result_digest"] == committed_digest(THREE)
    assert_one_line_error(invoke("fetch", "3x3", "--mirror", serve(release_copy).url),
                          "does not match the manifest: its result_digest is", forged.attributes["digest"], code=1)
    _nothing_moved(tables)


def test_an_entry_for_another_board_is_refused(release_copy, serve, tables):
    _edit_manifest(release_copy, "neutreeko-4x4.h5", board="5x5")
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                          "gives its board as '5x5', not '4x4'", code=1)
    _nothing_moved(tables)


@pytest.mark.parametrize("forged, words", [
    ({"Content-Length": "\u00b2"}, ["Content-Length", "'\\xb2' is not a number of 1 to 18 ASCII digits"]),
    ({"Content-Length": "0" * 4_400 + "83249"}, ["Content-Length", "'0000000000", "...'", "1 to 18"]),
    ({"Content-Length": "-1"}, ["Content-Length", "'-1'"]),
])
def test_a_length_that_cannot_be_read_is_one_line(published, serve, tables, forged, words):
    mirror = serve(published)
    mirror.forged["neutreeko-4x4.h5"] = forged
    line = assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), *words, code=1)
    assert len(line) < 250
    _nothing_moved(tables)


@pytest.mark.parametrize("content_range", ["bytes 1000-83248/" + "1" * 4_400, "bytes \u00b2-83248/83249",
                                           "bytes 1000-83248/+83249", "bytes */83249"])
def test_a_content_range_that_cannot_be_read_is_one_line(published, serve, tables, content_range):
    mirror = serve(published)
    mirror.forged["neutreeko-4x4.h5"] = {"Content-Range": content_range}
    tables.mkdir()
    (tables / "neutreeko-4x4.h5.part").write_bytes((published / "neutreeko-4x4.h5").read_bytes()[:1000])
    line = assert_one_line_error(invoke("fetch", "4x4", "--mirror", mirror.url), "Content-Range", code=1)
    assert len(line) < 250


def test_values_of_a_manifest_are_quoted_briefly(release_copy, serve, tables):
    _edit_manifest(release_copy, "neutreeko-4x4.h5", board="x" * 5_000_000)
    line = assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                                 "gives its board as 'xxxxxxxx", "...', not '4x4'", code=1)
    assert len(line) < 250
    (release_copy / release.MANIFEST).write_text(json.dumps(
        {"format": "neutreeko-solver release", "version": 1, "tables": [{"file": "y" * 100_000, "size": [0] * 100_000,
                                                                         "sha256": "0"}]}))
    line = assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                                 "'yyyyyyy", "...' has the size [0, 0,", code=1)
    assert len(line) < 250


def test_a_table_not_in_the_release(published, serve, tables):
    assert_one_line_error(invoke("fetch", "5x5", "--mirror", serve(published).url),
                          "has no neutreeko-5x5.h5", "neutreeko-4x4.h5", code=1)


def test_a_missing_manifest(release_copy, serve, tables):
    (release_copy / release.MANIFEST).unlink()
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                          "manifest.json': HTTP 404", code=1)
    _nothing_moved(tables)


@pytest.mark.parametrize("text, why", [("{not json", "it is not JSON"),
                                       ('{"format": "something else"}', "it does not say it is one"),
                                       ('{"format": "neutreeko-solver release", "version": 9}', "of version 9"),
                                       ('{"format": "neutreeko-solver release", "version": 1, "tables": '
                                        '[{"file": "../x", "size": 1, "sha256": "0"}]}', "not a plain file name"),
                                       ('{"version": 1' + "0" * 5_000 + "}", "it is not JSON")])
def test_a_garbled_manifest(release_copy, serve, tables, text, why):
    (release_copy / release.MANIFEST).write_text(text)
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", serve(release_copy).url),
                          "is not a release manifest", why, code=1)
    _nothing_moved(tables)


def test_no_mirror(tables):
    assert_one_line_error(invoke("fetch", "4x4"), "give --mirror URL or set $NEUTREEKO_MIRROR", code=1)
    assert_one_line_error(invoke("fetch", "3x3", program=necnon_cli), "give --mirror URL or set $NEUTREEKO_MIRROR",
                          code=1, program="necnon")


def test_a_board_that_does_not_exist_is_bad_input(tables):
    assert_one_line_error(invoke("fetch", "12x12", "--mirror", "http://127.0.0.1:9/"), "12x12", code=2)
    assert_one_line_error(invoke("fetch", "3x3", "--protocol", "nix", "--mirror", "http://127.0.0.1:9/",
                                 program=necnon_cli), "nix", code=2, program="necnon")


def test_a_mirror_that_is_not_an_http_address(tables):
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", "ftp://example.org/"), "not an http:// or https://",
                          code=1)


def test_a_mirror_that_does_not_answer(tables):
    with socket.socket() as probe:  # a port that was free a moment ago, and that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert_one_line_error(invoke("fetch", "4x4", "--mirror", f"http://127.0.0.1:{port}/"), "cannot download",
                          "manifest.json", "refused", code=1)
    _nothing_moved(tables)


def test_publish_refuses_a_table_whose_count_is_not_one(source_tables, tmp_path):
    """Every digest right, but the count a text: refused where the table is opened, not copied into the
    manifest."""
    edited = tmp_path / "neutreeko-4x4.h5"
    shutil.copyfile(source_tables / "neutreeko-4x4.h5", edited)
    with h5py.File(edited, "r+") as file:
        file.attrs["legal"] = "lots"
    stamp(edited)
    assert_one_line_error(invoke("publish", str(tmp_path / "release"), str(edited)),
                          "its attribute legal is 'lots', not a count", code=1)
    assert not (tmp_path / "release").exists()
