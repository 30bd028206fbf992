"""Where tables are: a table's address opened where a path is (``--table https://...``), and a release's
address taken as the tables directory (``NEUTREEKO_TABLES=https://...``); both are a
:class:`~solver.core.storage.remote.Url`, and :func:`~solver.core.storage.remote.location` tells an
address from a path (:data:`~solver.core.storage.remote.Location`). Reading what is at an address is
:mod:`solver.core.storage.remote_file`'s business, imported only when one is read: a local table needs
no HTTP client.
"""

from __future__ import annotations

import re
import urllib.parse
from os import PathLike
from pathlib import Path

from solver.core.answers.notation import quote, shortened
from solver.core.errors import InputError

_ADDRESS = re.compile(r"https?://", re.IGNORECASE)


class AddressError(InputError, ValueError):
    """A text that starts as an address but is not one this reader can ask (exit 2 on the command line)."""


class Url(str):
    """The ``http://`` or ``https://`` address of a table, or of a release's directory: a text that,
    like a :class:`~pathlib.Path`, has a :attr:`name` and gives the address of a file in it with ``/``.
    Formatted into a message (``f"{url}"``) it is cut to
    :data:`~solver.core.answers.notation.QUOTED` characters; ``str(url)`` is whole.

    :class:`AddressError` for a text that is not an ``http://`` or ``https://`` address of a host, in
    printable ASCII, with a port from 0 to 65535 if it names one.

    >>> Url("http://127.0.0.1:8000/release") / "neutreeko-5x5.h5"
    'http://127.0.0.1:8000/release/neutreeko-5x5.h5'
    """

    def __new__(cls, text: str) -> Url:
        why = _fault(text)
        if why:
            raise AddressError(f"{quote(text)} is not an address to read tables from: {why}")
        return super().__new__(cls, text)

    @property
    def name(self) -> str:
        """The last segment of the address's path, decoded (a table's file name)."""
        return urllib.parse.unquote(urllib.parse.urlsplit(self).path.rstrip("/").rpartition("/")[2])

    @property
    def parent(self) -> Url:
        """The address of the directory the address names a file of."""
        return Url(str(self).rstrip("/").rpartition("/")[0] + "/")

    def __truediv__(self, name: str) -> Url:
        return Url(joined(self, name))

    def __format__(self, spec: str) -> str:
        return format(shortened(str(self)), spec)


def joined(directory: str, name: str) -> str:
    """The address of the file ``name`` (percent-encoded) in the directory at the address ``directory``,
    with or without its final slash."""
    return f"{directory.rstrip('/')}/{urllib.parse.quote(name)}"


def _fault(text: str) -> str:
    """What makes ``text`` no address :class:`Url` takes, in a few words, or ``""``."""
    if not text.isascii() or not text.isprintable() or " " in text:
        return "it holds spaces, control characters or non-ASCII (percent-encode them)"
    try:
        parts = urllib.parse.urlsplit(text)
        parts.port  # a port that is not a number from 0 to 65535 raises
    except ValueError as error:
        return shortened(str(error))
    if parts.scheme.lower() not in ("http", "https"):
        return "it is not an http:// or https:// address"
    if not parts.hostname:
        return "it names no host"
    try:
        parts.hostname.encode("idna")
    except UnicodeError:
        return "its host name has an empty part or one over 63 characters"
    return ""


#: Where a table is: a local path or an address.
Location = Path | Url


def is_address(text: str) -> bool:
    """Does ``text`` start as an ``http://`` or ``https://`` address does?"""
    return bool(_ADDRESS.match(text))


def location(place: str | PathLike[str]) -> Location:
    """``place`` as a :class:`Url` if it is an address (:func:`is_address`), else as a path.

    >>> location("https://example.org/t/neutreeko-9x9.h5").name, location("tables/neutreeko-9x9.h5").name
    ('neutreeko-9x9.h5', 'neutreeko-9x9.h5')
    """
    if isinstance(place, Url):
        return place
    return Url(place) if isinstance(place, str) and is_address(place) else Path(place)
