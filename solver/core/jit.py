"""numba's ``njit`` for the package's kernels, with their cache on disk kept apart for each version of
the kernels' sources.

numba checks a cached function against its own source file only, yet the machine code of a kernel
holds every function it calls and every constant it reads, from whatever module: after such a module
changes, the cache would go on serving the old code (until its ``__pycache__`` is deleted by hand). So
the kernels' cache lives in a directory named by a digest of the kernel modules (those that take
:func:`njit` from here) and of every module of the package they import, directly or not:
``numba-<digest>`` in the package's ``__pycache__``, or under ``NUMBA_CACHE_DIR`` when that is set. A
change to any of those sources starts a new directory, and the package's older ones are removed.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import shutil
from pathlib import Path
from typing import Any, Callable

import numba

#: The directory of the ``solver`` package.
PACKAGE = Path(__file__).resolve().parent.parent
_PREFIX = "numba-"
_MARK = "from solver.core.jit import"


def module_path(name: str) -> Path | None:
    """The source file of the package's module ``name`` (dotted), or None if it is not one."""
    if name != "solver" and not name.startswith("solver."):
        return None
    base = PACKAGE.parent.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def package_imports(path: Path) -> set[str]:
    """The package's modules (dotted names) that the source file ``path`` imports, in any statement,
    those inside functions too (``from A import B`` imports the module A, and A.B if that is one)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return {name for name in names if module_path(name) is not None}


def kernel_sources() -> list[Path]:
    """The kernel modules and every module of the package they import, directly or not, in order of
    path."""
    pending = [path for path in PACKAGE.rglob("*.py") if _MARK in path.read_text(encoding="utf-8")]
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path not in seen:
            seen.add(path)
            pending += [found for name in package_imports(path) if (found := module_path(name)) not in seen and found]
    return sorted(seen)


@functools.lru_cache(maxsize=None)
def cache_dir() -> Path:
    """The kernels' cache directory for their sources as they are (made on first use, the package's
    older ones removed)."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    name = _PREFIX + digest.hexdigest()[:16]
    if numba.config.CACHE_DIR:
        return Path(numba.config.CACHE_DIR) / name
    base = PACKAGE / "__pycache__"
    for older in base.glob(_PREFIX + "*"):
        if older.name != name:
            shutil.rmtree(older, ignore_errors=True)
    return base / name


def njit(*args: Any, **options: Any) -> Any:
    """numba's ``njit``, used as it is (``@njit``, ``@njit(**options)``, ``njit(function, **options)``),
    but for a function cached (``cache=True``) in :func:`cache_dir`. numba reads where to cache when it
    makes the function's dispatcher; its setting is restored after, so that other code's functions
    cache where they would."""
    if args and callable(args[0]):
        return njit(**options)(args[0])
    decorate = numba.njit(*args, **options)
    if not options.get("cache"):
        return decorate

    def cached(function: Callable[..., Any]) -> Any:
        previous = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = str(cache_dir())
        try:
            return decorate(function)
        finally:
            numba.config.CACHE_DIR = previous

    return cached
