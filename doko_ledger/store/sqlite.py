"""The event store in one SQLite file (see `events.store` for what every store guarantees).

- A write transaction is `BEGIN IMMEDIATE`: SQLite's one writer lock, taken at its start.
- Format `doko-ledger/1` (chains within each stream, positions not hashed) is upgraded once,
  on the first writable open, after its chains verify; a newer format is read, never written.
- A file that cannot be written (or whose directory cannot) is opened read-only; its read
  models, if behind, are brought up to date in a private in-memory copy.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import ClassVar

from doko_ledger.events.envelope import GENESIS, chain_hash
from doko_ledger.i18n import Message, msg
from doko_ledger.store.base import (
    EVENT_TYPES_KEY,
    EVENTS_TABLE,
    FORMAT_NAME,
    FORMAT_VERSION,
    INSERT,
    LEDGER_FORMAT,
    LEDGER_TABLE,
    NOTHING_WRITTEN,
    SET,
    EventStore,
    no_ledger,
)
from doko_ledger.store.errors import (
    DiskError,
    LedgerBusy,
    LedgerDamaged,
    LedgerError,
    LedgerReadOnly,
    LedgerUnreachable,
)
from doko_ledger.store.location import kind_of
from doko_ledger.store.sqlite_database import Database
from doko_ledger.store.verify import COLUMNS, verify_log, verify_v1

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

TABLE = EVENTS_TABLE.replace("{integer}", "INTEGER").replace("{stream}", "TEXT")
TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events"
    " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events"
    " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS events_append_only_replace BEFORE INSERT ON events"
    " WHEN EXISTS (SELECT 1 FROM events WHERE (stream = NEW.stream AND version = NEW.version)"
    " OR position = NEW.position)"
    " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
)


class SqliteEventStore(EventStore):
    """An append-only event log in one SQLite file."""

    database_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.Error,)
    integrity_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.IntegrityError,)
    damaged_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.DatabaseError,)
    keeps_open: ClassVar[bool] = True
    db: Database

    def __init__(self, db: Database, *, path: Path, read_only: str | None = None) -> None:
        super().__init__(db, where=str(path), read_only=read_only)
        self.path = path
        self.file: FileId | None = None
        """The file this store's connection opened (None when that cannot be told: the path
        named no file, or another one, just before), which the path must still name for the
        store to be `reopened`."""

    @classmethod
    def open_file(cls, path: Path, *, create: bool = False) -> SqliteEventStore:
        fresh = _check_file(path, create)
        reason = _read_only_reason(path)
        if fresh and reason is not None:
            raise LedgerReadOnly(msg("cannot make a ledger at {where}: {reason}", where=path, reason=reason))
        store: SqliteEventStore | None = None
        try:
            before = _file_id(path)
            store = cls(Database(_connect(path, reason, cls.busy_timeout_ms)), path=path, read_only=reason)
            store._prepare(create)
            after = _file_id(path)
            store.file = after if after == before else None
        except sqlite3.Error as exc:
            if store is not None:
                store.close()
            raise _translate(exc, str(path), cls.busy_timeout_ms) from None
        except BaseException:
            if store is not None:
                store.close()
            raise
        return store

    def _prepare(self, create: bool) -> None:
        super()._prepare(create)
        if self.format_version < FORMAT_VERSION and self.read_only is None:
            self._upgrade()
        if self.read_only is None:
            self.db.enable_wal()
            self.db.execute("PRAGMA synchronous = NORMAL")

    def reopened(self) -> bool:
        """A store kept open is used again while its path still names the file it opened (by
        its device and inode: not another file moved into its place), that file can still be
        written, its format row reads as it did, and no transaction of its earlier use is left
        open; a read-only store never is (its read models may be a private copy). Each check
        is a system call or an index look-up, against the schema read anew by a new connection
        and the WAL written back into the file when the last one closes."""
        if self.file is None or self.read_only is not None or self._scratch or self.db.conn.in_transaction:
            return False
        try:
            if _file_id(self.path) != self.file or _read_only_reason(self.path) is not None:
                return False
            text = self.format_text
            if self._read_format() != FORMAT_VERSION or self.format_text != text:
                return False
        except (OSError, LedgerError, sqlite3.Error):
            return False
        self._fresh_use()
        return True

    def at_rest(self) -> None:
        """Write the WAL back into the file and empty it, as the last connection to close would,
        unless another connection reads or writes it now (it is not waited for: the next use
        tries again). A ledger at rest is then its file alone: one moved into its place is never
        read with this one's WAL (SQLite neither writes back nor deletes the WAL of a file that
        moved, and reads a WAL that holds frames with whatever file is at its name)."""
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            if wal.stat().st_size == 0:
                return
        except FileNotFoundError:
            return
        self.db.execute("PRAGMA busy_timeout = 0")
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")

    def _create_tables(self) -> None:
        self.db.execute(TABLE.format(name="events"))
        for trigger in TRIGGERS:
            self.db.execute(trigger)
        self.db.execute(LEDGER_TABLE)

    def _upgrade(self) -> None:
        """Format 1 to 2, once, in one transaction: check the old per-stream chains, then rebuild
        the event table with every hash recomputed from the events as they are (the
        append-only triggers go with the old table and are made again for the new one)."""
        with self.transaction():
            if self._read_format() != 1:  # another process upgraded it meanwhile
                self.format_version = self._read_format()
                return
            if not verify_v1(self.db, None).ok:
                self.read_only = (
                    f"its {FORMAT_NAME}/1 hash chains do not verify (see `doko verify`),"
                    f" so it was not upgraded to {LEDGER_FORMAT}"
                )
                return
            self.db.execute(TABLE.format(name="events_upgraded"))
            prev, types, rows = GENESIS, dict[str, int](), []
            for row in self.db.execute(f"SELECT {COLUMNS} FROM events ORDER BY position"):
                position, stream, version, kind, schema_version, payload, at, by = row[:8]
                digest = chain_hash(prev, position, stream, version, kind, schema_version, payload, at, by)
                rows.append((*row[:8], prev, digest))
                types[kind] = max(types.get(kind, 0), schema_version)
                prev = digest
            self.db.executemany(INSERT.replace("INTO events", "INTO events_upgraded"), rows)
            self.db.execute("DROP TABLE events")
            self.db.execute("ALTER TABLE events_upgraded RENAME TO events")
            for trigger in TRIGGERS:
                self.db.execute(trigger)
            self.db.execute(SET, ["format", LEDGER_FORMAT])
            self.db.execute(SET, [EVENT_TYPES_KEY, json.dumps(types, sort_keys=True)])
            after = verify_log(self.db, None)
            if not after.ok:  # cannot happen unless the rows changed under us: keep the old table
                raise LedgerError(
                    msg(
                        "{where}: the upgraded log does not verify: {problem}",
                        where=self.path,
                        problem=after.problems[0],
                    )
                )
        self.format_version, self.format_text = FORMAT_VERSION, LEDGER_FORMAT

    def _begin(self) -> None:
        # IMMEDIATE: the writer lock at once (sqlite-utils' `atomic()` opens a deferred one)
        self.db.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        self.db.conn.commit()

    def _rollback(self) -> None:
        with suppress(sqlite3.Error):
            self.db.conn.rollback()

    def _translate(self, exc: Exception) -> LedgerError:
        return _translate(exc, self.where, self.busy_timeout_ms, self.nothing_written())

    @contextmanager
    def read_models_beside(self) -> Iterator[tuple[Database, dict[str, str]]]:
        """A private temporary database with the ledger's file attached read-only as `stored`:
        a projection makes its tables there (the first place SQLite looks for a name), reads
        the log through `events` (found in the file), and can write nothing to it. SQLite keeps
        the temporary database in its page cache and the rest in a file deleted on close, so
        the fold of a long log does not have to fit in memory (`verify`, bench/)."""
        if self._scratch:
            raise LedgerError(msg("{where}: its read models were caught up in memory", where=self.where))
        conn = sqlite3.connect("", uri=True)  # "": a temporary database (":memory:" held all of it)
        try:
            conn.execute("ATTACH DATABASE ? AS stored", [_read_only_uri(self.path, self.read_only)])
            conn.execute("BEGIN")
            rows = conn.execute("SELECT name FROM stored.sqlite_master WHERE type = 'table'").fetchall()
            yield Database(conn), {str(name): f'stored."{name}"' for (name,) in rows}
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        finally:
            conn.close()

    def _to_scratch(self) -> None:
        if self._scratch:
            return
        memory = sqlite3.connect(":memory:")
        self.db.conn.backup(memory)
        self.db.close()
        self.db = Database(memory)
        self._scratch = True


def _check_file(path: Path, create: bool) -> bool:
    """Whether `path` is new or empty (a ledger may be made there); refuses what is not SQLite."""
    try:
        kind = kind_of(path.stat().st_mode)  # looked at, not opened: a named pipe would block
        if kind is not None:
            raise LedgerError(
                msg(
                    "{where} is {kind}, not a ledger (a ledger is a file, or a postgresql:// URL)",
                    where=path,
                    kind=kind,
                )
            )
        with path.open("rb") as fh:
            magic = fh.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        if create:
            return True
        raise LedgerError(no_ledger(str(path))) from None
    except OSError as exc:  # no permission, an I/O error, a loop of links: the file is there, not readable
        raise LedgerUnreachable(msg("cannot read {where}: {problem}", where=path, problem=exc.strerror)) from None
    if not magic:
        if create:
            return True
        raise LedgerError(
            msg("{where} is an empty file, not a ledger (import a game or start a card night to make one)", where=path)
        )
    if magic != SQLITE_MAGIC:
        raise LedgerError(msg("{where} is not a readable SQLite ledger: file is not a database", where=path))
    return False


FileId = tuple[int, int]
"""A file as the system knows it: its device and inode."""


def _file_id(path: Path) -> FileId | None:
    """The file at `path` (None when there is none)."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return (found.st_dev, found.st_ino)


def is_sqlite_file(path: Path) -> bool:
    """Whether `path` is an existing file that starts as an SQLite database does."""
    try:
        with path.open("rb") as fh:
            return fh.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def _read_only_reason(path: Path) -> str | None:
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    folder = path.absolute().parent
    if not folder.is_dir():
        return f"there is no folder {folder}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "its folder is read-only"
    return None


def _connect(path: Path, read_only: str | None, busy_timeout_ms: int) -> sqlite3.Connection:
    """A connection to the ledger; one that cannot write makes no -wal or -shm file beside it.
    One that can may be handed from thread to thread (a server keeps it open between requests,
    `reopened`), never used by two at once.

    Read-only, the file is opened `immutable` (as it is, without locks or a -shm file) unless a
    -wal file beside it holds changes not yet in it: then SQLite's read-only mode reads those too.
    """
    if read_only is None:
        conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        return conn
    uri = _read_only_uri(path, read_only)
    if uri.endswith("immutable=1"):
        return sqlite3.connect(uri, uri=True)
    conn = sqlite3.connect(uri, uri=True)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        conn.close()
        raise LedgerReadOnly(
            msg(
                "cannot read {where}: it is read-only and its -wal file holds changes not yet in it;"
                " open it once where it can be written",
                where=path,
            )
        ) from None
    return conn


def _read_only_uri(path: Path, read_only: str | None) -> str:
    """The URI that opens the file without writing to it: for a file that cannot be written,
    `immutable` (as it is, without locks or a -shm file) unless a -wal file beside it holds
    changes not yet in it; otherwise SQLite's read-only mode, which reads what others commit."""
    uri = path.absolute().as_uri()
    wal = path.with_name(path.name + "-wal")
    if read_only is not None and not (wal.exists() and wal.stat().st_size > 0):
        return f"{uri}?immutable=1"
    return f"{uri}?mode=ro"


_NEARLY_FULL = 64 * 1024
"""Free bytes below which a failed write is taken for a full disk: SQLite reports a full disk
as an I/O error when it meets it while growing its shared-memory (-shm) file."""
_READING = ("SQLITE_IOERR_READ", "SQLITE_IOERR_SHORT_READ")


def _translate(
    exc: Exception, where: str, busy_timeout_ms: int, nothing_written: Message = NOTHING_WRITTEN
) -> LedgerError:
    """One line for an SQLite error, as the ledger error it stands for: by SQLite's error code,
    so that a disk that is full or fails is never taken for a damaged file (`nothing_written`:
    what became of the write, `EventStore.nothing_written`)."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    name = str(getattr(exc, "sqlite_errorname", ""))
    primary = None if code is None else code & 0xFF
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return LedgerBusy(where, busy_timeout_ms, nothing_written)
    if primary == sqlite3.SQLITE_READONLY:
        return LedgerReadOnly(
            msg(
                "cannot write to {where}: it is read-only ({problem}); {outcome}",
                where=where,
                problem=text,
                outcome=nothing_written,
            )
        )
    if primary == sqlite3.SQLITE_FULL or (primary == sqlite3.SQLITE_IOERR and name not in _READING and _full(where)):
        return DiskError(msg("the disk holding {where} is full: {outcome}", where=where, outcome=nothing_written))
    if primary == sqlite3.SQLITE_IOERR:
        if name in _READING:
            failed = msg(
                "cannot read {where}: the disk reported an I/O error ({problem}); {outcome}",
                where=where,
                problem=name,
                outcome=nothing_written,
            )
        else:
            failed = msg(
                "cannot write to {where}: the disk reported an I/O error ({problem}); {outcome}",
                where=where,
                problem=name,
                outcome=nothing_written,
            )
        return DiskError(failed)
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return LedgerDamaged(msg("{where} is damaged: {problem}", where=where, problem=text))
    if primary == sqlite3.SQLITE_CANTOPEN:
        return LedgerError(msg("cannot open {where}: {problem}", where=where, problem=text))
    return LedgerError(msg("{where}: {problem}", where=where, problem=text))


def _full(where: str) -> bool:
    """Whether the file system holding the ledger `where` has (almost) no room left."""
    try:
        room = os.statvfs(Path(where).absolute().parent)
    except OSError:
        return False
    return room.f_bavail * room.f_frsize < _NEARLY_FULL
