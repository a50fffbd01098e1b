"""The append-only SQLite event store (through sqlite-utils).

- PRIMARY KEY (stream, version) is the optimistic-concurrency check: an append
  with a stale expected version fails and writes nothing.
- `position` is the global order; every append is one transaction.
- Every event carries a SHA-256 hash chained to the previous event of its
  stream; `verify` recomputes the chains.
- Triggers refuse UPDATE and DELETE on the event table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from doko_ledger.errors import DokoError
from doko_ledger.events.codec import EventCodecError, decode_event, encode_event, validate
from doko_ledger.events.envelope import GENESIS, Envelope, Recorded, chain_hash
from doko_ledger.events.sqlite import Database

LEDGER_FORMAT = "doko-ledger/1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
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
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE (stream = NEW.stream AND version = NEW.version) OR position = NEW.position)
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TABLE IF NOT EXISTS ledger (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO ledger (key, value) VALUES ('format', 'doko-ledger/1');
"""

_COLUMNS = "position, stream, version, type, schema_version, payload, recorded_at, recorded_by, prev_hash, hash"
_INSERT = f"INSERT INTO events ({_COLUMNS}) VALUES ({', '.join('?' * len(_COLUMNS.split(', ')))})"


class LedgerError(DokoError):
    """A ledger file that is missing or not a doko_ledger ledger."""


class ConcurrencyError(DokoError):
    """An append whose expected stream version is no longer the stream's version."""

    exit_code = 3


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


@dataclass(slots=True)
class VerifyReport:
    """The result of recomputing every hash chain."""

    events: int = 0
    streams: int = 0
    head: str = GENESIS
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class EventStore:
    """An append-only event log in one SQLite file."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    def open(cls, path: str | Path, *, create: bool = False) -> EventStore:
        """Open the ledger at `path`; create it only with `create` (read commands never do)."""
        path = Path(path)
        if not create and not path.exists():
            raise LedgerError(f"no ledger at {path} (import a game or start a card night first, or pass --db)")
        try:
            db = Database(path)
            db.execute("PRAGMA busy_timeout = 10000")
            tables = set(db.table_names())
            if "events" not in tables:
                if not create and path.stat().st_size > 0:
                    raise LedgerError(f"{path} is not a doko_ledger ledger (it has no event table)")
                db.executescript(_SCHEMA)
            db.enable_wal()
            db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{path} is not a readable SQLite ledger: {exc}") from exc
        return cls(db)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction, taken IMMEDIATE so that reading the stream heads and
        appending cannot interleave with another writer (sqlite-utils' `atomic()`
        opens a deferred one)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.conn.rollback()
            raise
        self.db.conn.commit()

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
        Raises `ConcurrencyError` when a stream is not at its expected version.
        """
        encoded = [(batch, [encode_event(e) for e in batch.events]) for batch in batches]
        envelopes: list[Envelope] = []
        at, by = recorded_at, recorded_by
        with self.transaction():
            position = self.last_position()
            for batch, items in encoded:
                version, prev = self._head(batch.stream)
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
                    digest = chain_hash(prev, stream, version, name, schema_version, payload, at, by)
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
        return envelopes

    # -- reading -----------------------------------------------------------

    def last_position(self) -> int:
        row = self.db.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        return int(row[0])

    def stream_version(self, stream: str) -> int:
        return self._head(stream)[0]

    def _head(self, stream: str) -> tuple[int, str]:
        row = self.db.execute(
            "SELECT version, hash FROM events WHERE stream = ? ORDER BY version DESC LIMIT 1", [stream]
        ).fetchone()
        return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))

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

    def verify(self, stream_name: str | None = None) -> VerifyReport:
        """Recompute every stream's hash chain (or one stream's) and check the positions;
        name what does not match."""
        report = VerifyReport()
        stream, expected_version, prev = None, 1, GENESIS
        if stream_name is None:
            rows = self.db.execute(f"SELECT {_COLUMNS} FROM events ORDER BY stream, version")
        else:
            rows = self.db.execute(f"SELECT {_COLUMNS} FROM events WHERE stream = ? ORDER BY version", [stream_name])
        for row in rows:
            position, name, version, kind, schema_version, payload, at, by, prev_hash, digest = row
            if name != stream:
                stream, expected_version, prev = name, 1, GENESIS
                report.streams += 1
            report.events += 1
            where = f"stream {name!r} version {version} (position {position}, {kind})"
            if version != expected_version:
                report.problems.append(f"{where}: expected version {expected_version}; an event is missing")
            elif prev_hash != prev:
                report.problems.append(f"{where}: previous hash does not match; the chain is broken")
            elif chain_hash(prev, name, version, kind, schema_version, payload, at, by) != digest:
                report.problems.append(f"{where}: hash does not match its content; the event was altered")
            else:
                problem = _payload_problem(kind, schema_version, payload)
                if problem:
                    report.problems.append(f"{where}: {problem}")
            expected_version, prev = version + 1, digest
        if stream_name is not None:
            return report
        positions = self.db.execute("SELECT count(*), coalesce(max(position), 0) FROM events").fetchone()
        if positions[0] != positions[1]:
            report.problems.append(
                f"global positions run to {positions[1]} but only {positions[0]} events exist; events were deleted"
            )
        head = self.db.execute("SELECT hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
        report.head = head[0] if head else GENESIS
        return report


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
