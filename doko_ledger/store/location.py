"""Where a ledger is: an SQLite file's path, or a PostgreSQL database's URL."""

from __future__ import annotations

import stat
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link",
}

URL_SCHEMES = ("postgresql://", "postgres://")
"""A `--db` that starts with one of these is a PostgreSQL database; anything else is a file."""


def is_url(target: str | Path) -> bool:
    """Whether a `--db` names a PostgreSQL database (else it is an SQLite file)."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def shown(target: str | Path) -> str:
    """The ledger as messages name it: a file's path, or the URL without a password."""
    if not is_url(target):
        return str(target)
    parts = urlsplit(str(target))
    if parts.password is None and "password" not in parts.query:
        return str(target)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", "@", 1)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "password"]
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="/")))


def kind_of(mode: int) -> str | None:
    """What a file of this `st_mode` is when it is not a regular file (`a character device`,
    `a named pipe (FIFO)`, ...), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")
