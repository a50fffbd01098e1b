"""Writing an export to a file: never onto the ledger or another SQLite database, only ever to a
regular file, and atomically (a temporary file beside the target, then a rename), so a failed
write leaves the old file.

A symbolic link is written through, as `> link.txt` in a shell is: its final target is
replaced and the link stays a link. A folder, a device, a named pipe or a socket is refused
before it is opened (a pipe would block the export until someone reads it; a device would be
replaced by a file).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from doko_ledger.errors import DokoError
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.i18n import msg
from doko_ledger.store.location import kind_of
from doko_ledger.store.sqlite import is_sqlite_file

STDOUT = "-"
"""The name `-o` takes for standard output."""

_JOURNALS = ("", "-wal", "-shm", "-journal")
_DISK_TROUBLE = {
    errno.ENOSPC: msg("the disk is full"),
    errno.EDQUOT: msg("the disk quota is used up"),
    errno.EFBIG: msg("the file would grow past the size allowed"),
    errno.EIO: msg("an I/O error"),
}


class ExportNotWritten(DokoError):
    """The disk refused an export (full, over quota, an I/O error): the old file, if any, stays."""


def write_export(path: Path, text: str, *, ledger: str | Path) -> None:
    """Write `text` to the regular file `path` (through a symbolic link to the file it names),
    atomically. Raises `SourceError` (exit 2) naming the file when it is the ledger (or one of
    its journal files), any SQLite database, or not a regular file; `ExportNotWritten` (exit 1)
    when the disk refuses the write."""
    target = _target(path)
    if isinstance(ledger, Path) and any(
        _same_file(target, ledger.with_name(ledger.name + suffix)) for suffix in _JOURNALS
    ):
        raise SourceError(msg("that is the ledger itself: an export is never written onto it"), source=str(path))
    if is_sqlite_file(target):
        raise SourceError(msg("that is an SQLite database: an export never overwrites one"), source=str(path))
    try:
        mode = target.stat().st_mode & 0o777 if target.exists() else _default_mode()
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise _not_written(exc, path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise _not_written(exc, path) from None


def _target(path: Path) -> Path:
    """The file an export to `path` replaces: `path`, or the file its symbolic links lead to.
    Refuses (exit 2) what is not a regular file, looking at it without opening it."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return target  # a new file (a link to a file not yet there: made, as a shell makes it)
    except OSError as exc:
        raise SourceError(msg("cannot write the export: {problem}", problem=exc.strerror), source=str(path)) from None
    if stat.S_ISLNK(mode):
        raise SourceError(msg("cannot write the export: its symbolic links go round in a loop"), source=str(path))
    kind = kind_of(mode)
    if kind is None:
        return target
    if target == path:
        refused = msg("cannot write the export: it is {kind}; an export is written to a file", kind=kind)
    else:
        refused = msg(
            "cannot write the export: it is a symbolic link to {target}, {kind}; an export is written to a file",
            target=target,
            kind=kind,
        )
    raise SourceError(refused, source=str(path))


def _not_written(exc: OSError, path: Path) -> DokoError:
    """The error an export that the system refused stands for: the disk's trouble (exit 1), or
    a path that cannot be written (exit 2: a missing folder, no permission)."""
    trouble = _DISK_TROUBLE.get(exc.errno or 0)
    if trouble is not None:
        return ExportNotWritten(
            msg(
                "{where}: cannot write the export: {trouble} ({problem}); nothing was written",
                where=path,
                trouble=trouble,
                problem=exc.strerror,
            )
        )
    return SourceError(msg("cannot write the export: {problem}", problem=exc.strerror), source=str(path))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return a.absolute() == b.absolute()


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
