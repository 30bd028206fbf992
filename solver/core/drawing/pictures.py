"""Pictures as file contents: a :class:`~solver.core.drawing.scene.Scene` encoded in a format, and the check
that a file name fits its format.

Formats: ``svg`` (:mod:`solver.core.drawing.svg`), ``png`` (:mod:`solver.core.drawing.png`, through matplotlib) and
``html``, a page a game builds of inline SVG. The command line writes them with
:func:`solver.core.files.write_atomically`.
"""

from __future__ import annotations

from pathlib import Path

from solver.core.drawing import png, svg
from solver.core.drawing.scene import Scene
from solver.core.errors import InputError

#: Each format and the file suffixes that name it (the first is the usual one).
FORMATS = {"svg": (".svg",), "png": (".png",), "html": (".html", ".htm")}


class PictureFormatError(InputError, ValueError):
    """An unknown picture format, or a file name whose suffix names another format."""


def check_format(path: Path | str, format: str) -> None:
    """Raise :class:`PictureFormatError` unless ``format`` is known and ``path`` has no suffix or one
    of the format's (any case): ``--png board.jpg`` is refused rather than written as PNG."""
    if format not in FORMATS:
        raise PictureFormatError(f"unknown picture format {format!r}; known formats: {', '.join(FORMATS)}")
    suffix = Path(path).suffix.lower()
    if suffix and suffix not in FORMATS[format]:
        named = next((name for name, suffixes in FORMATS.items() if suffix in suffixes), None)
        hint = f"; it names {named.upper()}, written with --{named}" if named else ""
        raise PictureFormatError(f"{path}: {format.upper()} files end in {' or '.join(FORMATS[format])}, "
                                 f"not {suffix}{hint}")


def encode(scene: Scene, format: str) -> bytes:
    """``scene`` as an ``svg`` or ``png`` file's bytes."""
    if format == "svg":
        return svg.render(scene).encode("utf-8")
    if format == "png":
        return png.render(scene)
    raise PictureFormatError(f"a single picture is svg or png, not {format!r}")
