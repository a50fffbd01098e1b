"""Writing an export to a file: never onto the ledger or another SQLite database, and atomically
(a temporary file beside the target, then a rename), so a failed write leaves the old file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from doko_ledger.events.sqlite_store import is_sqlite_file
from doko_ledger.formats.yaml_source import SourceError

_JOURNALS = ("", "-wal", "-shm", "-journal")


def write_export(path: Path, text: str, *, ledger: str | Path) -> None:
    """Write `text` to `path` unless it is the ledger (or one of its journal files) or any
    SQLite database; raises `SourceError` (exit 2) naming the file otherwise."""
    if isinstance(ledger, Path) and any(
        _same_file(path, ledger.with_name(ledger.name + suffix)) for suffix in _JOURNALS
    ):
        raise SourceError("that is the ledger itself: an export is never written onto it", source=str(path))
    if is_sqlite_file(path):
        raise SourceError("that is an SQLite database: an export never overwrites one", source=str(path))
    if path.is_dir():
        raise SourceError("cannot write the export: it is a folder", source=str(path))
    folder = path.parent
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise SourceError(f"cannot write the export: {exc.strerror}", source=str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise SourceError(f"cannot write the export: {exc.strerror}", source=str(path)) from None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return a.absolute() == b.absolute()


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
