"""``neutreeko site``: the explorer written as static files, its pages marked and their addresses
relative, the release it reads named in ``site.json``; a --tables that is neither a URL nor a directory
refused in one line."""

from __future__ import annotations

import json
import re

from solver.web.site import compact
from tests.helpers import assert_one_line_error, invoke


def test_a_site_reading_a_release_elsewhere(tmp_path):
    done = invoke("site", str(tmp_path / "site"), "--tables", "https://tables.example.org/r1")
    assert done.exit_code == 0, done.stderr
    site = tmp_path / "site"
    assert json.loads((site / "site.json").read_text()) == {"tables": "https://tables.example.org/r1"}
    page = (site / "index.html").read_text()
    assert "<html data-site" in page and 'src="page.js"' in page and not re.search(r'(href|src|value|data-source)="/', page)
    assert {"reader/api.js", "reader/table.js", "reader/neutreeko.js", "train.html"} <= {
        str(path.relative_to(site)) for path in site.rglob("*")}
    assert "needs Python" in (site / "train.html").read_text() and not (site / "train.js").exists()
    assert sum(path.stat().st_size for path in site.rglob("*.js")) < 150_000  # the site's budget, uncompressed
    assert not (site / "tables").exists()


def test_tables_neither_a_url_nor_a_directory_are_refused(tmp_path):
    result = invoke("site", str(tmp_path / "site"), "--tables", str(tmp_path / "none"))
    assert_one_line_error(result, "--tables", "neither an http(s) URL nor a directory", code=2)
    assert not (tmp_path / "site").exists()


def test_the_site_s_scripts_leave_out_comment_lines_blank_lines_and_indentation_only():
    script = ('/* A module.\n * More.\n */\n"use strict";\n\n// why\nconst a = 1;  // kept\n'
              '/* inline */ const b = 2;\n  /** one line */\nif (a) {\n  const url = "http://x/*";\n}\n')
    assert compact(script) == ('"use strict";\nconst a = 1;  // kept\n/* inline */ const b = 2;\nif (a) {\n'
                               'const url = "http://x/*";\n}\n')


def test_a_site_with_its_own_copy_of_the_tables(tables_4x4, tmp_path):
    done = invoke("site", str(tmp_path / "new" / "site"), "--tables", str(tables_4x4))
    assert done.exit_code == 0, done.stderr
    site = tmp_path / "new" / "site"
    assert json.loads((site / "site.json").read_text()) == {"tables": "tables/"}
    manifest = json.loads((site / "tables" / "manifest.json").read_text())
    assert [entry["file"] for entry in manifest["tables"]] == ["neutreeko-4x4.h5"]
    assert (site / "tables" / "neutreeko-4x4.h5").read_bytes() == (tables_4x4 / "neutreeko-4x4.h5").read_bytes()
