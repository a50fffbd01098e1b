"""The append-only SQLite event store (through sqlite-utils).

- PRIMARY KEY (stream, version) is the optimistic-concurrency check: an append
  with a stale expected version fails and writes nothing.
- `position` is the global order (1, 2, 3, ... without gaps); every append is one transaction.
- Every event carries a SHA-256 hash over its position, its content and the hash of the
  event before it in the log: one chain over all positions, so the newest hash (the head)
  covers every event of every stream. `verify` recomputes it, `verify(expect=head)` checks
  that the log still extends a head noted earlier.
- Triggers refuse UPDATE and DELETE on the event table.
- Format `doko-ledger/1` (chains within each stream, positions not hashed) is upgraded once,
  on the first writable open, after its chains verify; a newer format is read, never written.
- A file that cannot be written (or whose directory cannot) is opened read-only; its read
  models, if behind, are brought up to date in a private in-memory copy.
- Every SQLite error leaves the store as a `LedgerError` (locked: exit 3, damaged: exit 4).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from hashlib import sha256
from json.encoder import encode_basestring as _quote
from pathlib import Path
from typing import Any, NamedTuple

from doko_ledger.errors import DokoError
from doko_ledger.events.codec import EventCodecError, decode_event, encode_event, validate
from doko_ledger.events.envelope import GENESIS, Envelope, Recorded, chain_hash, stream_chain_hash
from doko_ledger.events.sqlite import Database
from doko_ledger.schema_files import known_event_versions

FORMAT_NAME = "doko-ledger"
FORMAT_VERSION = 2
LEDGER_FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"
SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""
BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another writer's lock before giving up (exit 3)."""
MAX_PROBLEMS = 50
"""`verify` names at most this many problems (and counts the rest)."""

_TABLE = """CREATE TABLE {name} (
    position INTEGER NOT NULL UNIQUE,
    stream TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (stream, version)
)"""
_TRIGGERS = (
    "CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events"
    " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events"
    " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
    "CREATE TRIGGER events_append_only_replace BEFORE INSERT ON events"
    " WHEN EXISTS (SELECT 1 FROM events WHERE (stream = NEW.stream AND version = NEW.version)"
    " OR position = NEW.position)"
    " BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END",
)
_LEDGER_TABLE = "CREATE TABLE IF NOT EXISTS ledger (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_SET = "INSERT INTO ledger (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
EVENT_TYPES_KEY = "event_types"
"""The `ledger` row every writer keeps: each event type in the log with its newest schema
version (JSON), so that a program can tell in one read that the log holds what it does not know."""

_COLUMNS = "position, stream, version, type, schema_version, payload, recorded_at, recorded_by, prev_hash, hash"
_INSERT = f"INSERT INTO events ({_COLUMNS}) VALUES ({', '.join('?' * len(_COLUMNS.split(', ')))})"


class LedgerError(DokoError):
    """A ledger file that is missing, not a doko_ledger ledger, or cannot be used."""


class LedgerReadOnly(LedgerError):
    """A write to a ledger that can only be read: the file (or its folder) is read-only, or it
    is of a newer format or holds events this doko_ledger does not know."""


class LedgerDamaged(LedgerError):
    """A ledger file SQLite cannot read (a damaged page, a truncated file)."""

    exit_code = 4


class ConcurrencyError(DokoError):
    """An append whose expected stream version is no longer the stream's version."""

    exit_code = 3


class LedgerBusy(ConcurrencyError, LedgerError):
    """Another writer held the ledger's lock for longer than the busy timeout."""


@dataclass(frozen=True, slots=True)
class NewStreamEvents:
    """Events to append to one stream, expecting the stream to be at `expected_version`."""

    stream: str
    expected_version: int
    events: Sequence[Any]


class StreamEvents(NamedTuple):
    """One stream's events in version order, without their envelopes (what projections fold)."""

    stream: str
    events: list[Any]
    first_position: int
    last_position: int


class Head(NamedTuple):
    """The newest event's hash (covering the whole log), its position and the number of events."""

    hash: str
    position: int
    events: int


@dataclass(slots=True)
class VerifyReport:
    """The result of recomputing the hash chain."""

    events: int = 0
    streams: int = 0
    head: str = GENESIS
    position: int = 0
    format: str = LEDGER_FORMAT
    problems: list[str] = field(default_factory=list)
    more_problems: int = 0
    first_bad_position: int | None = None
    expected: str | None = None
    expected_at: int | None = None
    """The position whose hash is the expected head, when one was given and found."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem(self, position: int | None, text: str) -> None:
        if position is not None and self.first_bad_position is None:
            self.first_bad_position = position
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)
        else:
            self.more_problems += 1


class EventStore:
    """An append-only event log in one SQLite file."""

    busy_timeout_ms = BUSY_TIMEOUT_MS

    def __init__(self, db: Database, *, path: Path | None = None, read_only: str | None = None) -> None:
        self.db = db
        self.path = path
        self.read_only = read_only
        """Why this ledger cannot be written, or None when it can."""
        self.format_version = FORMAT_VERSION
        self._scratch = False
        self._types: dict[str, int] = {}
        self._types_text: str | None = None

    @classmethod
    def open(cls, path: str | Path, *, create: bool = False) -> EventStore:
        """Open the ledger at `path`. Only with `create`, and only in a new or empty file, is a
        ledger made (read commands never do); another SQLite database is never touched.
        A file that cannot be written is opened read-only (see `read_only`)."""
        path = Path(path)
        fresh = _check_file(path, create)
        reason = _read_only_reason(path)
        if fresh and reason is not None:
            raise LedgerReadOnly(f"cannot make a ledger at {path}: {reason}")
        store: EventStore | None = None
        try:
            store = cls(Database(_connect(path, reason, cls.busy_timeout_ms)), path=path, read_only=reason)
            store._prepare(create)
        except sqlite3.Error as exc:
            if store is not None:
                store.close()
            raise _translate(exc, path, cls.busy_timeout_ms) from None
        except BaseException:
            if store is not None:
                store.close()
            raise
        return store

    def _prepare(self, create: bool) -> None:
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        if "events" not in names:
            if names:
                raise LedgerError(f"{self.path} is not a doko_ledger ledger (it has no event table)")
            if not create:
                raise LedgerError(f"{self.path} is an empty database, not a ledger")
            self._create()
        else:
            self.format_version = self._read_format()
            if self.format_version > FORMAT_VERSION:
                self.read_only = (
                    f"it is format {FORMAT_NAME}/{self.format_version}, newer than this doko_ledger"
                    f" ({LEDGER_FORMAT}): it can be read, not written"
                )
            elif self.format_version < FORMAT_VERSION and self.read_only is None:
                self._upgrade()
        if self.read_only is None:
            self.db.enable_wal()
            self.db.execute("PRAGMA synchronous = NORMAL")

    def _read_format(self) -> int:
        try:
            row = self.db.execute("SELECT value FROM ledger WHERE key = 'format'").fetchone()
        except sqlite3.OperationalError:
            row = None
        name, _, number = str(row[0] if row else "").partition("/")
        if name != FORMAT_NAME or not number.isdigit() or len(number) > 6:
            raise LedgerError(f"{self.path} is not a doko_ledger ledger (no {FORMAT_NAME} format recorded)")
        return int(number)

    def _create(self) -> None:
        with self.transaction():
            self.db.execute(_TABLE.format(name="events"))
            for trigger in _TRIGGERS:
                self.db.execute(trigger)
            self.db.execute(_LEDGER_TABLE)
            self.db.execute("INSERT OR IGNORE INTO ledger (key, value) VALUES ('format', ?)", [LEDGER_FORMAT])
            self.db.execute(f"INSERT OR IGNORE INTO ledger (key, value) VALUES ('{EVENT_TYPES_KEY}', '{{}}')")

    def _upgrade(self) -> None:
        """Format 1 to 2, once, in one transaction: check the old per-stream chains, then rebuild
        the event table with every hash recomputed from the events as they are (the
        append-only triggers go with the old table and are made again for the new one)."""
        with self.transaction():
            if self._read_format() != 1:  # another process upgraded it meanwhile
                self.format_version = self._read_format()
                return
            if not _verify_v1(self.db, None).ok:
                self.read_only = (
                    f"its {FORMAT_NAME}/1 hash chains do not verify (see `doko verify`),"
                    f" so it was not upgraded to {LEDGER_FORMAT}"
                )
                return
            self.db.execute(_TABLE.format(name="events_upgraded"))
            prev, types, rows = GENESIS, dict[str, int](), []
            for row in self.db.execute(f"SELECT {_COLUMNS} FROM events ORDER BY position"):
                position, stream, version, kind, schema_version, payload, at, by = row[:8]
                digest = chain_hash(prev, position, stream, version, kind, schema_version, payload, at, by)
                rows.append((*row[:8], prev, digest))
                types[kind] = max(types.get(kind, 0), schema_version)
                prev = digest
            self.db.conn.executemany(_INSERT.replace("INTO events", "INTO events_upgraded"), rows)
            self.db.execute("DROP TABLE events")
            self.db.execute("ALTER TABLE events_upgraded RENAME TO events")
            for trigger in _TRIGGERS:
                self.db.execute(trigger)
            self.db.execute(_SET, ["format", LEDGER_FORMAT])
            self.db.execute(_SET, [EVENT_TYPES_KEY, json.dumps(types, sort_keys=True)])
            after = _verify(self.db, None)
            if not after.ok:  # cannot happen unless the rows changed under us: keep the old table
                raise LedgerError(f"{self.path}: the upgraded log does not verify: {after.problems[0]}")
        self.format_version = FORMAT_VERSION

    def close(self) -> None:
        self.db.close()

    def failure(self, exc: BaseException | None) -> DokoError | None:
        """The `LedgerError` that an SQLite error raised while using this store stands for."""
        if isinstance(exc, sqlite3.Error):
            return _translate(exc, self.path, self.busy_timeout_ms)
        return None

    @contextmanager
    def transaction(self, *, derived: bool = False) -> Iterator[None]:
        """One write transaction, taken IMMEDIATE so that reading the stream heads and
        appending cannot interleave with another writer (sqlite-utils' `atomic()`
        opens a deferred one).

        A ledger that cannot be written refuses it, unless `derived` (read models only): then
        the writes go to a private in-memory copy of the ledger, never to the file.
        """
        if self.read_only is not None:
            if not derived:
                raise LedgerReadOnly(f"cannot write to {self.path}: {self.read_only}; nothing was written")
            self._to_memory()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _translate(exc, self.path, self.busy_timeout_ms) from None
        try:
            yield
        except BaseException as exc:
            _rollback(self.db.conn)
            if isinstance(exc, sqlite3.Error):
                raise _translate(exc, self.path, self.busy_timeout_ms) from None
            raise
        try:
            self.db.conn.commit()
        except sqlite3.Error as exc:
            _rollback(self.db.conn)
            raise _translate(exc, self.path, self.busy_timeout_ms) from None

    def _to_memory(self) -> None:
        if self._scratch:
            return
        memory = sqlite3.connect(":memory:")
        self.db.conn.backup(memory)
        self.db.close()
        self.db = Database(memory)
        self._scratch = True

    # -- writing -----------------------------------------------------------

    def append(
        self,
        stream: str,
        events: Sequence[Any],
        *,
        expected_version: int,
        recorded_by: str,
        recorded_at: str,
    ) -> list[Envelope]:
        """Append events to one stream at `expected_version`, atomically."""
        return self.append_streams(
            [NewStreamEvents(stream, expected_version, events)],
            recorded_by=recorded_by,
            recorded_at=recorded_at,
        )

    def append_streams(
        self, batches: Sequence[NewStreamEvents], *, recorded_by: str, recorded_at: str
    ) -> list[Envelope]:
        """Append to several streams in one transaction: all of it or nothing.

        Every event is validated against its JSON Schema before anything is written.
        Raises `ConcurrencyError` when a stream is not at its expected version, and
        `LedgerReadOnly` when the ledger holds event types (or versions) this program does
        not know: it would write beside what it cannot read.
        """
        encoded = [(batch, [encode_event(e) for e in batch.events]) for batch in batches]
        envelopes: list[Envelope] = []
        at, by = recorded_at, recorded_by
        written = {(name, schema_version) for _, items in encoded for name, schema_version, _ in items}
        with self.transaction():
            self._check_event_types()
            position, prev = self._last()
            for batch, items in encoded:
                version = self.stream_version(batch.stream)
                if version != batch.expected_version:
                    raise ConcurrencyError(
                        f"stream {batch.stream!r} is at version {version}, "
                        f"expected {batch.expected_version}: someone else recorded first; nothing was written"
                    )
                stream = batch.stream
                rows = []
                for name, schema_version, payload in items:
                    version += 1
                    position += 1
                    digest = chain_hash(prev, position, stream, version, name, schema_version, payload, at, by)
                    envelopes.append(_envelope((stream, version, position, at, by, name, schema_version, prev, digest)))
                    rows.append((position, stream, version, name, schema_version, payload, at, by, prev, digest))
                    prev = digest
                try:
                    # Plain executemany of tuples rather than sqlite-utils' insert_all: the same
                    # rows go in about ten times faster (bench/), and the table already exists.
                    self.db.conn.executemany(_INSERT, rows)
                except sqlite3.IntegrityError as exc:
                    raise ConcurrencyError(
                        f"stream {batch.stream!r} changed while appending ({exc}); nothing was written"
                    ) from exc
            self._note_event_types(written)
        return envelopes

    def _check_event_types(self) -> None:
        row = self.db.execute("SELECT value FROM ledger WHERE key = ?", [EVENT_TYPES_KEY]).fetchone()
        if row is not None and row[0] == self._types_text:  # as this store last checked it
            return
        if row is None:  # kept by every writer since format 2; made once if missing
            rows = self.db.execute("SELECT type, max(schema_version) FROM events GROUP BY type")
            types = {str(kind): int(version) for kind, version in rows}
            text = json.dumps(types, sort_keys=True)
            self.db.execute(_SET, [EVENT_TYPES_KEY, text])
        else:
            text = str(row[0])
            try:
                types = {str(k): int(v) for k, v in json.loads(text).items()}
            except (ValueError, TypeError, AttributeError):
                raise LedgerError(f"{self.path}: its {EVENT_TYPES_KEY!r} row is not readable: {text[:60]!r}") from None
        known = known_event_versions()
        unknown = [f"{kind} v{version}" for kind, version in types.items() if known.get(kind, 0) < version]
        if unknown:
            raise LedgerReadOnly(
                f"cannot write to {self.path}: it holds events this doko_ledger does not know"
                f" ({', '.join(sorted(unknown)[:3])}); upgrade doko_ledger to write to it; nothing was written"
            )
        self._types, self._types_text = types, text

    def _note_event_types(self, written: set[tuple[str, int]]) -> None:
        new = {kind: version for kind, version in written if self._types.get(kind, 0) < version}
        if new:
            self._types |= new
            self._types_text = json.dumps(self._types, sort_keys=True)
            self.db.execute(_SET, [EVENT_TYPES_KEY, self._types_text])

    # -- reading -----------------------------------------------------------

    def last_position(self) -> int:
        row = self.db.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        return int(row[0])

    def _last(self) -> tuple[int, str]:
        row = self.db.execute("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
        return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))

    def head(self) -> Head:
        """The log's head: the newest event's hash, which covers every event before it."""
        position, digest = self._last()
        count = int(self.db.execute("SELECT count(*) FROM events").fetchone()[0])
        return Head(digest, position, count)

    def stream_version(self, stream: str) -> int:
        row = self.db.execute(
            "SELECT version FROM events WHERE stream = ? ORDER BY version DESC LIMIT 1", [stream]
        ).fetchone()
        return 0 if row is None else int(row[0])

    def streams(self, prefix: str = "") -> list[str]:
        """Stream names in the order they were first recorded."""
        where, args = _prefix_where(prefix)
        rows = self.db.execute(f"SELECT stream FROM events WHERE {where} AND version = 1 ORDER BY position", args)
        return [r[0] for r in rows]

    def stream_names(self, prefix: str, limit: int) -> list[str]:
        """At most `limit` stream names that start with `prefix`, in name order: one range of the
        primary key's index, however long the log."""
        where, args = _prefix_where(prefix)
        rows = self.db.execute(f"SELECT stream FROM events WHERE {where} AND version = 1 LIMIT ?", [*args, limit])
        return [r[0] for r in rows]

    def streams_without(self, prefix: str, event_type: str) -> list[str]:
        """The streams starting with `prefix` that hold no event of type `event_type` (say, the
        nights not closed), in the order they were first recorded: one index range."""
        where, args = _prefix_where(prefix)
        rows = self.db.execute(
            f"SELECT stream, min(position), max(type = ?) FROM events WHERE {where} GROUP BY stream ORDER BY 2",
            [event_type, *args],
        )
        return [r[0] for r in rows if not r[2]]

    def read_stream(self, stream: str) -> list[Recorded]:
        rows = self.db.execute(f"SELECT {_COLUMNS} FROM events WHERE stream = ? ORDER BY version", [stream])
        return [_recorded(r) for r in rows]

    def read_all(self, after_position: int = 0) -> Iterator[Recorded]:
        """Every event after a global position, in global order, streamed."""
        rows = self.db.execute(f"SELECT {_COLUMNS} FROM events WHERE position > ? ORDER BY position", [after_position])
        for row in rows:
            yield _recorded(row)

    def iter_stream_events(
        self, prefix: str = "", up_to_position: int | None = None, first_events: Sequence[str] | None = None
    ) -> Iterator[StreamEvents]:
        """Each stream's decoded events, one stream at a time: the projections' fast path.

        With `first_events`, only the streams whose first event is of one of those types.
        """
        limit = self.last_position() if up_to_position is None else up_to_position
        where, args = _prefix_where(prefix)
        where, args = f"{where} AND position <= ?", [*args, limit]
        if first_events is not None:
            where += (
                f" AND stream IN (SELECT stream FROM events WHERE version = 1 AND type IN ({_marks(first_events)}))"
            )
            args += first_events
        rows = self.db.execute(f"SELECT {_EVENT_COLUMNS} FROM events WHERE {where} ORDER BY stream, version", args)
        return _grouped(rows)

    def read_streams_events(self, streams: Sequence[str]) -> Iterator[StreamEvents]:
        """Several streams' decoded events (in stream-name order), read in one query."""
        rows = self.db.execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream IN ({_marks(streams)}) ORDER BY stream, version",
            list(streams),
        )
        return _grouped(rows.fetchall())

    def read_stream_events(self, stream: str) -> StreamEvents | None:
        """One stream's decoded events, or None for a stream with none."""
        rows = self.db.execute(f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? ORDER BY version", [stream])
        return next(_grouped(rows), None)

    def changed_streams(self, prefix: str, after_position: int, up_to_position: int) -> list[str]:
        """The streams with events after one global position and up to another."""
        rows = self.db.execute(
            "SELECT DISTINCT stream FROM events WHERE position > ? AND position <= ?",
            [after_position, up_to_position],
        )
        return [r[0] for r in rows if r[0].startswith(prefix)]

    def streams_starting_with(self, streams: Sequence[str], first_events: Sequence[str]) -> list[str]:
        """Those of `streams` whose first event is of one of the types `first_events`, in order."""
        found: set[str] = set()
        for i in range(0, len(streams), 500):
            chunk = list(streams[i : i + 500])
            rows = self.db.execute(
                f"SELECT stream FROM events WHERE version = 1 AND stream IN ({_marks(chunk)})"
                f" AND type IN ({_marks(first_events)})",
                [*chunk, *first_events],
            )
            found.update(r[0] for r in rows)
        return [s for s in streams if s in found]

    # -- checking ----------------------------------------------------------

    def verify(self, stream_name: str | None = None, *, expect: str | None = None) -> VerifyReport:
        """Recompute the hash chain over every position (or one stream's events, each against
        the event before it in the log) and check positions and stream versions; name what
        does not match, first bad position first.

        With `expect` (a head noted earlier: a hash, or its first 16 or more hex digits), also
        check that the log extends it: that it is the hash at some position, all of whose
        events before it verify. Raises `LedgerDamaged` for a file SQLite cannot read.
        """
        wanted = None if expect is None else _expected_head(expect)
        if self.format_version > FORMAT_VERSION:
            raise LedgerError(
                f"{self.path} is format {FORMAT_NAME}/{self.format_version}: this doko_ledger can verify"
                f" {LEDGER_FORMAT} and older"
            )
        try:
            if self.format_version == 1:
                report = _verify_v1(self.db, stream_name, wanted)
            elif stream_name is None:
                report = _verify(self.db, wanted, self.path)
            else:
                report = _verify_stream(self.db, stream_name)
        except sqlite3.Error as exc:
            raise _translate(exc, self.path, self.busy_timeout_ms) from None
        report.format = f"{FORMAT_NAME}/{self.format_version}"
        if wanted is not None and GENESIS.startswith(wanted):
            report.expected_at = 0  # the head of the empty log, which every log extends
        if wanted is not None:
            report.expected = wanted
            if report.expected_at is None:
                report.problem(
                    None,
                    f"the expected head {wanted[:16]} is not the hash of any event of this log:"
                    " events before it were changed, or it was the hash of events since deleted",
                )
        return report


class BadHead(DokoError, ValueError):
    """An `--expect` value that is not a head (a SHA-256 hash in hex, or 16+ of its first digits)."""

    exit_code = 2


def _expected_head(text: str) -> str:
    head = text.strip().lower()
    if not 16 <= len(head) <= 64 or any(c not in "0123456789abcdef" for c in head):
        raise BadHead(
            f"--expect {text[:80]!r}: a head is the hash `doko head` prints (64 hex digits, or the first 16+)"
        )
    return head


def _verify(db: Database, wanted: str | None, path: Path | None = None) -> VerifyReport:
    """The one chain over all positions, in a single pass in position order.

    The loop is the hot path of `verify` (bench/): a row that passes every check costs one
    SHA-256 over the text `chain_hash` hashes (built inline, the same way) and a few
    comparisons; only a row that fails one is looked at again, by `_row_problems`.
    """
    report = VerifyReport()
    versions: dict[str, int] = {}
    valid: set[tuple[str, int, str]] = set()
    prev, expected, count = GENESIS, 1, 0
    found: int | None = None
    quote, sha = _quote, sha256
    position = 0
    try:
        rows = db.execute(f"SELECT {_COLUMNS} FROM events ORDER BY position")
        for row in rows:
            position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest = row
            try:
                material = (
                    f"[{quote(prev)},{position},{quote(stream)},{version},{quote(kind)},{schema_version},"
                    f"{quote(payload)},{quote(at)},{quote(by)}]"
                )
                computed: str | None = sha(material.encode("utf-8")).hexdigest()
            except TypeError:  # a value that is not text: `_row_problems` says what
                computed = None
            last = versions.get(stream, 0)
            if not (
                position == expected
                and version == last + 1
                and prev_hash == prev
                and computed == digest
                and type(schema_version) is int
                and ((kind, schema_version, payload) in valid or _valid(kind, schema_version, payload, valid))
            ):
                _row_problems(report, row, prev, expected, last)
            versions[stream] = version
            if wanted is not None and found is None and str(digest).startswith(wanted):
                found = position
            prev, expected = digest, position + 1
            count += 1
    except sqlite3.DatabaseError as exc:
        where = "the ledger" if path is None else path
        raise LedgerDamaged(f"{where} is damaged after position {position}: {exc}") from None
    report.events, report.streams = count, len(versions)
    report.head, report.position, report.expected_at = prev, expected - 1, found
    return report


def _valid(kind: str, schema_version: int, payload: str, valid: set[tuple[str, int, str]]) -> bool:
    if _payload_problem(kind, schema_version, payload) is not None:
        return False
    valid.add((kind, schema_version, payload))
    return True


def _row_problems(report: VerifyReport, row: Sequence[Any], prev: str, expected: int, last: int) -> None:
    """What is wrong with one row of the chain (`prev`: the hash of the row before it)."""
    position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest = row
    if position != expected:
        if isinstance(position, int) and position > expected:
            report.problem(
                expected,
                f"position {expected}: missing (the next event is at {position}); events were deleted or renumbered",
            )
        else:
            report.problem(
                expected, f"position {position!r}: out of order after position {expected - 1}; events were renumbered"
            )
    where = _where(position, stream, version, kind)
    if version != last + 1:
        report.problem(
            position,
            f"{where}: expected version {last + 1} of its stream; an event of the stream is missing or was moved",
        )
    elif prev_hash != prev:
        report.problem(
            position,
            f"{where}: its previous hash is not the hash of the event before it; the chain is broken"
            " (an event before it was altered, deleted or moved)",
        )
    elif chain_hash(prev, position, stream, version, kind, schema_version, payload, at, by) != digest:
        report.problem(position, f"{where}: hash does not match its content; the event was altered")
    else:
        text = _payload_problem(kind, schema_version, payload)
        if text:
            report.problem(position, f"{where}: {text}")


def _where(position: int, stream: str, version: int, kind: str) -> str:
    return f"position {position} (stream {stream!r} version {version}, {kind})"


def _verify_stream(db: Database, stream_name: str) -> VerifyReport:
    """One stream's events, each checked against the hash of the event before it in the log."""
    report = VerifyReport(streams=0)
    expected_version = 1
    rows = db.execute(
        f"SELECT {_COLUMNS}, (SELECT b.hash FROM events b WHERE b.position = events.position - 1)"
        " FROM events WHERE stream = ? ORDER BY version",
        [stream_name],
    )
    for position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest, before in rows:
        report.streams = 1
        report.events += 1
        where = _where(position, stream, version, kind)
        prev = GENESIS if position == 1 else before
        if version != expected_version:
            report.problem(position, f"{where}: expected version {expected_version}; an event is missing")
        elif prev is None:
            report.problem(
                position - 1, f"{where}: the event before it in the log (position {position - 1}) is missing"
            )
        elif prev_hash != prev:
            report.problem(
                position, f"{where}: its previous hash is not the hash of the event before it; the chain is broken"
            )
        elif chain_hash(prev, position, stream, version, kind, schema_version, payload, at, by) != digest:
            report.problem(position, f"{where}: hash does not match its content; the event was altered")
        else:
            text = _payload_problem(kind, schema_version, payload)
            if text:
                report.problem(position, f"{where}: {text}")
        expected_version, report.head, report.position = version + 1, digest, position
    return report


def _verify_v1(db: Database, stream_name: str | None, wanted: str | None = None) -> VerifyReport:
    """Format 1: a chain within each stream, positions not hashed (checked before an upgrade,
    and for a ledger that cannot be upgraded)."""
    report = VerifyReport()
    stream, expected_version, prev = None, 1, GENESIS
    if stream_name is None:
        rows = db.execute(f"SELECT {_COLUMNS} FROM events ORDER BY stream, version")
    else:
        rows = db.execute(f"SELECT {_COLUMNS} FROM events WHERE stream = ? ORDER BY version", [stream_name])
    for row in rows:
        position, name, version, kind, schema_version, payload, at, by, prev_hash, digest = row
        if name != stream:
            stream, expected_version, prev = name, 1, GENESIS
            report.streams += 1
        report.events += 1
        where = _where(position, name, version, kind)
        if version != expected_version:
            report.problem(position, f"{where}: expected version {expected_version}; an event is missing")
        elif prev_hash != prev:
            report.problem(position, f"{where}: previous hash does not match; the chain is broken")
        elif stream_chain_hash(prev, name, version, kind, schema_version, payload, at, by) != digest:
            report.problem(position, f"{where}: hash does not match its content; the event was altered")
        else:
            problem = _payload_problem(kind, schema_version, payload)
            if problem:
                report.problem(position, f"{where}: {problem}")
        if wanted is not None and report.expected_at is None and digest.startswith(wanted):
            report.expected_at = position
        expected_version, prev = version + 1, digest
    if stream_name is not None:
        return report
    positions = db.execute("SELECT count(*), coalesce(max(position), 0) FROM events").fetchone()
    if positions[0] != positions[1]:
        report.problem(
            None, f"global positions run to {positions[1]} but only {positions[0]} events exist; events were deleted"
        )
    head = db.execute("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
    report.position, report.head = (int(head[0]), str(head[1])) if head else (0, GENESIS)
    return report


def _check_file(path: Path, create: bool) -> bool:
    """Whether `path` is new or empty (a ledger may be made there); refuses what is not SQLite."""
    try:
        with path.open("rb") as fh:
            magic = fh.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        if create:
            return True
        raise LedgerError(f"no ledger at {path} (import a game or start a card night first, or pass --db)") from None
    except IsADirectoryError:
        raise LedgerError(f"{path} is a folder, not a ledger") from None
    except OSError as exc:
        raise LedgerError(f"cannot read {path}: {exc.strerror}") from None
    if not magic:
        if create:
            return True
        raise LedgerError(f"{path} is an empty file, not a ledger (import a game or start a card night to make one)")
    if magic != SQLITE_MAGIC:
        raise LedgerError(f"{path} is not a readable SQLite ledger: file is not a database")
    return False


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

    Read-only, the file is opened `immutable` (as it is, without locks or a -shm file) unless a
    -wal file beside it holds changes not yet in it: then SQLite's read-only mode reads those too.
    """
    if read_only is None:
        conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000)
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        return conn
    uri = path.absolute().as_uri()
    wal = path.with_name(path.name + "-wal")
    if not (wal.exists() and wal.stat().st_size > 0):
        return sqlite3.connect(f"{uri}?immutable=1", uri=True)
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        conn.close()
        raise LedgerReadOnly(
            f"cannot read {path}: it is read-only and its -wal file holds changes not yet in it;"
            " open it once where it can be written"
        ) from None
    return conn


def _rollback(conn: sqlite3.Connection) -> None:
    with suppress(sqlite3.Error):
        conn.rollback()


def _translate(exc: sqlite3.Error, path: Path | None, busy_timeout_ms: int) -> LedgerError:
    """One line for an SQLite error, as the ledger error it stands for."""
    text = str(exc)
    where = path if path is not None else "the ledger"
    if "locked" in text or "busy" in text:
        return LedgerBusy(
            f"{where} is locked by another writer (waited {busy_timeout_ms / 1000:g} s): nothing was written; try again"
        )
    if "readonly" in text or "read-only" in text:
        return LedgerReadOnly(f"cannot write to {where}: it is read-only ({text}); nothing was written")
    if any(word in text for word in ("malformed", "not a database", "disk I/O", "corrupt")):
        return LedgerDamaged(f"{where} is damaged: {text}")
    return LedgerError(f"{where}: {text}")


def _payload_problem(kind: str, schema_version: int, payload: str) -> str | None:
    try:
        validate(kind, schema_version, payload)
    except EventCodecError as exc:
        return str(exc)
    return None


_EVENT_COLUMNS = "stream, position, type, schema_version, payload"


def _grouped(rows: Iterable[Sequence[Any]]) -> Iterator[StreamEvents]:
    """Rows of `_EVENT_COLUMNS` ordered by stream, as one `StreamEvents` per stream."""
    decode = decode_event
    stream: str | None = None
    events: list[Any] = []
    first = last = 0
    for name, position, kind, schema_version, payload in rows:
        if name != stream:
            if stream is not None:
                yield StreamEvents(stream, events, first, last)
            stream, events, first = name, [], position
        events.append(decode(kind, schema_version, payload))
        last = position
    if stream is not None:
        yield StreamEvents(stream, events, first, last)


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


def _prefix_where(prefix: str) -> tuple[str, list[Any]]:
    """A condition on `stream` that holds for the names starting with `prefix`, as a range of
    the (stream, version) index: `stream >= prefix AND stream < the next prefix` (a `LIKE`
    is served by no index)."""
    if not prefix:
        return "1", []
    upper = prefix_upper_bound(prefix)
    if upper is None:
        return "stream >= ?", [prefix]
    return "stream >= ? AND stream < ?", [prefix, upper]


def prefix_upper_bound(prefix: str) -> str | None:
    """The least text greater than every text that starts with `prefix` (None: no such text).

    The last character is raised by one code point (skipping the surrogates, which are not
    text); SQLite compares UTF-8 bytes, whose order is the code points' order.
    """
    while prefix:
        last = ord(prefix[-1])
        if last < 0x10FFFF:
            following = last + 1 if last + 1 != 0xD800 else 0xE000
            return prefix[:-1] + chr(following)
        prefix = prefix[:-1]
    return None


def _recorded(row: Sequence[Any]) -> Recorded:
    position, stream, version, kind, schema_version, payload, at, by, prev_hash, digest = row
    envelope = _envelope((stream, version, position, at, by, kind, schema_version, prev_hash, digest))
    return _recorded_of((envelope, decode_event(kind, schema_version, payload)))


_envelope = Envelope._make
_recorded_of = Recorded._make
