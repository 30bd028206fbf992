"""``check-file`` and ``convert``, in both command groups, as a person runs them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.tables.table import open_table as open_necnon_table
from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.table import open_table
from tests.helpers import assert_one_line_error, invoke, write_first_format
from tests.necnon.test_necnon_cli import necnon


def _flip(path: Path, offset: int) -> None:
    descriptor = os.open(path, os.O_RDWR)
    byte = os.pread(descriptor, 1, offset)
    os.pwrite(descriptor, bytes([byte[0] ^ 0x10]), offset)
    os.close(descriptor)


def test_check_file_digests_whole_files_of_either_game(tables_4x4, necnon_tables, tmp_path):
    neutreeko_table = tables_4x4 / "neutreeko-4x4.h5"
    necnon_file = necnon_tables / "necnon-3x3-nec.h5"
    result = invoke("check-file", str(neutreeko_table), str(necnon_file))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{neutreeko_table}: intact ({neutreeko_table.stat().st_size:,} bytes digested)",
        f"{necnon_file}: intact ({necnon_file.stat().st_size:,} bytes digested)"]
    assert necnon("check-file", str(necnon_file)).exit_code == 0
    damaged = Path(shutil.copy(neutreeko_table, tmp_path / "damaged.h5"))
    entry = open_table(Game.of("4x4"), damaged).chunks.entries[0]
    _flip(damaged, int(entry["offset"] + entry["size"] // 2))  # inside the one chunk: no probe needs it yet
    assert assert_one_line_error(invoke("check-file", str(damaged)), code=1).endswith(
        f"table {damaged} is damaged: its contents do not match their digest; rebuild it")
    assert_one_line_error(invoke("check-file", str(tmp_path / "none.h5")), "no table at", code=1)


def test_convert_rewrites_first_format_tables_of_either_game(tables_4x4, necnon_tables, tmp_path):
    game, necnon_game = Game.of("4x4"), NecnonGame.of("3x3", "nec")
    intact = open_table(game, tables_4x4 / "neutreeko-4x4.h5")
    intact_necnon = open_necnon_table(necnon_game, necnon_tables / "necnon-3x3-nec.h5")
    old, old_necnon = tmp_path / "neutreeko-4x4.h5", tmp_path / "necnon-3x3-nec.h5"
    write_first_format(old, "result", intact.result, intact.attributes)
    write_first_format(old_necnon, "classes", intact_necnon.records, intact_necnon.attributes)
    refused = invoke("query", "start", "--board", "4x4", "--table", str(old))
    assert_one_line_error(refused, f"rewrite it with neutreeko convert {old}", code=1)
    result = invoke("convert", str(old))
    assert result.exit_code == 0 and result.stdout == f"converted {old} (4x4 connected): {intact.attributes['digest']}\n"
    assert necnon("convert", str(old_necnon)).exit_code == 0
    assert open_table(game, old).result.tobytes() == intact.result.tobytes()
    assert open_necnon_table(necnon_game, old_necnon).records.tobytes() == intact_necnon.records.tobytes()
    assert invoke("query", "start", "--board", "4x4", "--table", str(old)).stdout == \
        invoke("query", "start", "--board", "4x4", "--table", str(tables_4x4 / "neutreeko-4x4.h5")).stdout
    again = invoke("convert", str(old))
    assert_one_line_error(again, f"{old} is not a table in the first container format", code=1)
    write_first_format(old_necnon, "classes", intact_necnon.records, intact_necnon.attributes)
    _flip(old_necnon, old_necnon.stat().st_size - 100)
    assert_one_line_error(invoke("convert", str(old_necnon)), f"table {old_necnon} is damaged: its contents do not "
                          "match their digest", code=1)


def test_a_first_format_table_is_refused_naming_the_convert_of_the_command_run(tables_4x4, necnon_tables, tmp_path):
    intact_necnon = open_necnon_table(NecnonGame.of("3x3", "nec"), necnon_tables / "necnon-3x3-nec.h5")
    old = tmp_path / "necnon-3x3-nec.h5"
    write_first_format(old, "classes", intact_necnon.records, intact_necnon.attributes)
    remedy = f"{old} is a table in the first container format; rewrite it with necnon convert {old}"
    for command in (["query", "empty", "--board", "3x3", "--table", str(old)], ["check-file", str(old)],
                    ["publish", str(tmp_path / "release"), str(old)]):
        assert_one_line_error(necnon(*command), remedy, code=1, program="necnon")
    assert_one_line_error(invoke("check-file", str(old)), remedy.replace("necnon convert", "neutreeko convert"), code=1)


def test_convert_checks_the_attributes_it_reads_of_either_game(tables_4x4, necnon_tables, tmp_path):
    """A first-format table whose digests hold but whose attributes are of the wrong kind is refused in
    one line, exit 1, and left as it was."""
    intact = open_table(Game.of("4x4"), tables_4x4 / "neutreeko-4x4.h5")
    intact_necnon = open_necnon_table(NecnonGame.of("3x3", "nec"), necnon_tables / "necnon-3x3-nec.h5")
    cases = [("neutreeko", "result", intact.result, intact.attributes, "solve_seconds", "abc", "not a time in seconds"),
             ("neutreeko", "result", intact.result, intact.attributes, "board", 5, "not a text"),
             ("neutreeko", "result", intact.result, intact.attributes, "folded", "yes", "not true or false"),
             ("necnon", "classes", intact_necnon.records, intact_necnon.attributes, "solve_seconds", [1, 2],
              "not a time in seconds")]
    for program, dataset, data, attributes, name, value, why in cases:
        old = tmp_path / f"{dataset}-{name}.h5"
        write_first_format(old, dataset, data, {**attributes, name: value})
        before = old.read_bytes()
        run = invoke if program == "neutreeko" else necnon
        message = assert_one_line_error(run("convert", str(old)), code=1, program=program)
        assert f"table {old} is damaged: its attribute {name} is {value!r}, {why}" in message
        assert old.read_bytes() == before
