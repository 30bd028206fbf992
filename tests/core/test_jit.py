"""The kernels' cache on disk: a directory for each version of the kernels' sources, those of the
modules they import included, so that a change to any of them is never served stale machine code."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numba
import pytest

from solver.core import jit

KERNEL = "import numpy\nfrom solver.core.jit import njit\nfrom solver.game import constants\n"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package ``solver`` of a kernel module ``game/_kernel.py`` importing ``game/constants.py``, which
    imports ``game/rules.py``, and a module ``game/other.py`` that no kernel imports."""
    root = tmp_path / "solver"
    (root / "core").mkdir(parents=True)
    (root / "game").mkdir()
    for path in ("__init__.py", "core/__init__.py", "core/jit.py", "game/__init__.py"):
        (root / path).write_text("")
    (root / "game" / "_kernel.py").write_text(KERNEL)
    (root / "game" / "constants.py").write_text("from solver.game.rules import SIDE\nLIMIT = 2 * SIDE\n")
    (root / "game" / "rules.py").write_text("SIDE = 5\n")
    (root / "game" / "other.py").write_text("NAME = 'other'\n")
    monkeypatch.setattr(jit, "PACKAGE", root)
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    jit.cache_dir.cache_clear()
    yield root
    jit.cache_dir.cache_clear()


def _fresh_cache_dir() -> Path:
    jit.cache_dir.cache_clear()
    return jit.cache_dir()


def test_the_sources_are_the_kernels_and_what_they_import_directly_or_not(package: Path) -> None:
    sources = [path.relative_to(package).as_posix() for path in jit.kernel_sources()]
    assert sources == ["core/jit.py", "game/__init__.py", "game/_kernel.py", "game/constants.py", "game/rules.py"]


def test_a_change_to_a_module_a_kernel_imports_starts_a_new_cache(package: Path) -> None:
    first = _fresh_cache_dir()
    assert first.parent == package / "__pycache__" and first.name.startswith("numba-")
    first.mkdir(parents=True)
    (package / "game" / "other.py").write_text("NAME = 'changed'\n")
    assert _fresh_cache_dir() == first  # no kernel imports it
    (package / "game" / "rules.py").write_text("SIDE = 7\n")  # imported through constants.py
    second = _fresh_cache_dir()
    assert second != first and second.parent == first.parent
    assert not first.exists()  # the old version's cache is removed


def test_a_cache_dir_the_user_sets_is_the_base_and_kept(package: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "user-cache"
    (user / "numba-0123456789abcdef").mkdir(parents=True)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(user))
    assert _fresh_cache_dir().parent == user
    assert (user / "numba-0123456789abcdef").exists()  # another version's, perhaps in use: left alone


@pytest.mark.kernel
def test_the_kernels_cache_in_it_and_numba_s_setting_is_restored() -> None:
    from solver.necnon.model import _rules

    jit.cache_dir.cache_clear()
    assert Path(_rules.margin._cache._cache_path).is_relative_to(jit.cache_dir())
    assert numba.config.CACHE_DIR != str(jit.cache_dir())  # what it was: other code caches where it would

    def double(x: int) -> int:
        return 2 * x

    assert jit.njit(double)(3) == 6 and jit.njit(error_model="numpy")(double)(4) == 8
