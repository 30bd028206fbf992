"""``scripts/screenshots.py`` draws the documentation's four pictures of the explorer from the real page
(browser tier: skipped without Debian's Chromium, as the other browser tests are)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.test_browser import _missing

ROOT = Path(__file__).resolve().parents[2]


def test_screenshots_draws_the_four_pictures(tables_5x5, tmp_path):
    reason = _missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "screenshots.py"), "--out", str(tmp_path),
                           "--tables", str(tables_5x5)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = {"desktop": (1400, 900), "phone": (390, 844)}
    for device, (width, height) in sizes.items():
        for scheme in ("light", "dark"):
            data = (tmp_path / f"explorer-{device}-{scheme}.png").read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
            assert struct.unpack(">II", data[16:24]) == (width, height)
            assert len(data) > 20_000, (device, scheme, len(data))  # a drawn page, not a blank one
    light = (tmp_path / "explorer-desktop-light.png").read_bytes()
    assert light != (tmp_path / "explorer-desktop-dark.png").read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        f"explorer-{device}-{scheme}.png" for device in sizes for scheme in ("light", "dark"))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "screenshots.py"), "--out", str(tmp_path),
                           "--tables", str(tables_5x5), "--simulate", "deuteranopia"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    simulated = (tmp_path / "explorer-desktop-light-deuteranopia.png").read_bytes()
    assert simulated[:8] == b"\x89PNG\r\n\x1a\n" and simulated != light
