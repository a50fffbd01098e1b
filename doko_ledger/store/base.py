"""The append-only event store: one interface, on SQLite (a file) or PostgreSQL (a server).

- PRIMARY KEY (stream, version) is the optimistic-concurrency check: an append
  with a stale expected version fails and writes nothing.
- `position` is the global order (1, 2, 3, ... without gaps): every write transaction holds
  the log's one write lock, so positions are taken and committed in the same order.
- Every event carries a SHA-256 hash over its position, its content and the hash of the
  event before it in the log: one chain over all positions, so the newest hash (the head)
  covers every event of every stream. `verify` recomputes it, `verify(expect=head)` checks
  that the log still extends a head noted earlier. The same events give the same head on
  either database.
- The database refuses UPDATE and DELETE on the event table (triggers).
- Read models live in the same database and are written in the same transactions.
- Every error of the database leaves the store as a `LedgerError` (locked: exit 3, damaged: exit 4).

`store.open.open_store` takes a path (SQLite, `store.sqlite`) or a `postgresql://` URL
(`store.postgres`); nothing above the store can tell which it is on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import starmap
from typing import Any, ClassVar, NamedTuple

from doko_ledger.errors import DokoError
from doko_ledger.events.codec import decode_event, encode_event
from doko_ledger.events.envelope import GENESIS, Envelope, Recorded, chain_hash
from doko_ledger.i18n import Message, msg, plural
from doko_ledger.numbers import shortened
from doko_ledger.schema_files import known_event_versions
from doko_ledger.store.database import Database
from doko_ledger.store.errors import ConcurrencyError, LedgerBusy, LedgerDamaged, LedgerError, LedgerReadOnly
from doko_ledger.store.verify import COLUMNS, VerifyReport, expected_head, verify_log, verify_stream, verify_v1

__all__ = [
    "ConcurrencyError",
    "EventStore",
    "Head",
    "LedgerBusy",
    "LedgerDamaged",
    "LedgerError",
    "LedgerReadOnly",
    "NewStreamEvents",
    "StreamEvents",
    "VerifyReport",
    "prefix_upper_bound",
]

FORMAT_NAME = "doko-ledger"
FORMAT_VERSION = 2
LEDGER_FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"
BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another writer's lock before giving up (exit 3)."""

EVENTS_TABLE = """CREATE TABLE IF NOT EXISTS {name} (
    position {integer} NOT NULL UNIQUE,
    stream {stream} NOT NULL,
    version {integer} NOT NULL CHECK (version >= 1),
    type TEXT NOT NULL,
    schema_version {integer} NOT NULL,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (stream, version)
)"""
"""The event table, the same on both databases but for the type of its integers and how its
stream names compare (`{integer}`, `{stream}`)."""
LEDGER_TABLE = "CREATE TABLE IF NOT EXISTS ledger (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
SET = "INSERT INTO ledger (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
SET_UNLESS_THERE = "INSERT INTO ledger (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING"
EVENT_TYPES_KEY = "event_types"
"""The `ledger` row every writer keeps: each event type in the log with its newest schema
version (JSON), so that a program can tell in one read that the log holds what it does not know."""
INSERT = f"INSERT INTO events ({COLUMNS}) VALUES ({', '.join('?' * len(COLUMNS.split(', ')))})"


@dataclass(frozen=True, slots=True)
class NewStreamEvents:
    """Events to append to one stream, expecting the stream to be at `expected_version`."""

    stream: str
    expected_version: int
    events: Sequence[Any]


EncodedBatch = tuple[NewStreamEvents, list[tuple[str, int, str]]]
"""A batch with its events encoded: (type name, schema version, payload JSON text) each."""


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


NOTHING_WRITTEN = msg("nothing was written")


def no_ledger(where: str) -> Message:
    """The refusal of a ledger that is not there (and is not to be made)."""
    return msg("no ledger at {where} (import a game or start a card night first, or pass --db)", where=where)


class EventStore:
    """An append-only event log in one database, and the read models beside it.

    The subclass for each database gives the few things that differ: how it is opened and
    made, how a write transaction takes the log's lock, and what its errors mean.
    """

    busy_timeout_ms = BUSY_TIMEOUT_MS
    database_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """The database's own exceptions, which the store turns into `LedgerError`s."""
    integrity_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """The database's exception for a duplicate key (a stream version taken meanwhile)."""
    damaged_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """Errors that, while reading the log, mean it cannot be read any further."""

    def __init__(self, db: Database, *, where: str, read_only: str | None = None) -> None:
        self.db = db
        self.where = where
        """The ledger as messages name it: the file's path, or the URL without its password."""
        self.read_only = read_only
        """Why this ledger cannot be written, or None when it can."""
        self.format_version = FORMAT_VERSION
        """The format the `format` row names (0 when it names none this program can read)."""
        self.format_text = LEDGER_FORMAT
        """The `format` row as it reads."""
        self.appended = 0
        """How many events this store has appended (committed) since it was opened."""
        self._types: dict[str, int] = {}
        self._types_text: str | None = None
        self._log_types_checked = False
        self._scratch = False

    # -- what each database gives ------------------------------------------------------

    def _begin(self) -> None:
        """Begin a write transaction holding the log's write lock (waiting at most
        `busy_timeout_ms` for another writer's)."""
        raise NotImplementedError

    def _commit(self) -> None:
        raise NotImplementedError

    def _rollback(self) -> None:
        raise NotImplementedError

    def _translate(self, exc: Exception) -> LedgerError:
        """One line for an error of the database, as the ledger error it stands for."""
        raise NotImplementedError

    def _to_scratch(self) -> None:
        """Make read-model writes go where they change nothing of the ledger (a private copy)."""
        raise NotImplementedError

    @property
    def read_models_private(self) -> bool:
        """Whether this store's read models are a private copy (`_to_scratch`), not the ledger's."""
        return self._scratch

    def _create_tables(self) -> None:
        """Make the event table, its triggers and the `ledger` table, inside a transaction."""
        raise NotImplementedError

    @contextmanager
    def read_models_beside(self) -> Iterator[tuple[Database, dict[str, str]]]:
        """A connection on which each read model's tables are new, empty and private (a
        projection's `create` makes them there, never in the ledger), beside this ledger's log,
        in one snapshot of it; and this ledger's own tables there, each by its name as that
        connection reads it (`stored."games"`). Nothing of it is kept: what `doko verify`
        folds the log into, to compare it with the ledger's read models."""
        raise NotImplementedError
        yield  # a generator, for the type checker

    # -- opening -------------------------------------------------------------------------

    def _prepare(self, create: bool) -> None:
        if "events" not in self.db.table_names():
            self._make(create)
        self.format_version = self._read_format()
        if self.format_version > FORMAT_VERSION:
            self.read_only = (
                f"it is format {FORMAT_NAME}/{self.format_version}, newer than this doko_ledger"
                f" ({LEDGER_FORMAT}): it can be read, not written"
            )
        elif self.format_version == 0:
            self.read_only = f"its format row reads {shortened(self.format_text, 40)!r}, no format of doko_ledger"

    def _make(self, create: bool) -> None:
        """Make a ledger where there is nothing yet. The tables are made inside the write
        transaction, after looking again under its lock: of several processes making the same
        ledger at once, the first makes it and the others find it made (and read its format)."""
        self._refuse_making(create, self.db.table_names())
        with self.transaction():
            names = self.db.table_names()
            if "events" not in names:  # else made by another process meanwhile
                self._refuse_making(create, names)
                self._create_tables()
                for key, value in (("format", LEDGER_FORMAT), (EVENT_TYPES_KEY, "{}")):
                    self.db.execute(SET_UNLESS_THERE, [key, value])

    def _refuse_making(self, create: bool, names: Sequence[str]) -> None:
        """Refuse to make a ledger beside other tables (`names`), or when not asked to."""
        if "events" in names:  # made meanwhile
            return
        if names:
            raise LedgerError(msg("{where} is not a doko_ledger ledger (it has no event table)", where=self.where))
        if not create:
            raise LedgerError(no_ledger(self.where))

    def _read_format(self) -> int:
        """The format number the `format` row names; 0 for a row that names none (`format_problem`).
        A database without the row is no ledger."""
        row = None
        if "ledger" in self.db.table_names():
            row = self.db.execute("SELECT value FROM ledger WHERE key = 'format'").fetchone()
        if row is None:
            raise LedgerError(
                msg(
                    "{where} is not a doko_ledger ledger (no {format} format recorded)",
                    where=self.where,
                    format=FORMAT_NAME,
                )
            )
        self.format_text = str(row[0])
        name, _, number = self.format_text.partition("/")
        if name != FORMAT_NAME or not number.isdigit() or len(number) > 6 or int(number) < 1:
            return 0
        return int(number)

    @property
    def format_problem(self) -> Message | None:
        """What is wrong with the `format` row, or None for a format this doko_ledger knows."""
        if 1 <= self.format_version <= FORMAT_VERSION:
            return None
        return msg(
            "the format row reads {text}, not a format this doko_ledger knows ({first} or {format}):"
            " changed by hand, or written by a newer doko_ledger (upgrade doko_ledger to verify it);"
            " its log was checked as {format}",
            text=repr(shortened(self.format_text, 40)),
            first=f"{FORMAT_NAME}/1",
            format=LEDGER_FORMAT,
        )

    def close(self) -> None:
        self.db.close()

    keeps_open: ClassVar[bool] = False
    """Whether a store of this backend may be kept open for another use (`reopened`)."""

    def reopened(self) -> bool:
        """Make this store, kept open after an earlier use, as if just opened for the next, and
        say whether it can be: False when it must be closed and the ledger opened anew. A
        backend that `keeps_open` says when; by default a store is never used twice."""
        return False

    def at_rest(self) -> None:
        """Leave the ledger as a store closed now would, while it is kept open for another use
        (a backend that `keeps_open` says how)."""

    def _fresh_use(self) -> None:
        """Forget what this store did for its earlier use (`reopened`): what it appended, and
        the check of the whole log's types, which each use makes once."""
        self.appended = 0
        self._log_types_checked = False

    def failure(self, exc: BaseException | None) -> DokoError | None:
        """The `LedgerError` that an error of the database raised while using this store stands for."""
        if isinstance(exc, self.database_errors):
            return self._translate(exc)
        return None

    @contextmanager
    def transaction(self, *, derived: bool = False) -> Iterator[None]:
        """One write transaction, holding the log's write lock from its start, so that reading
        the stream heads and appending cannot interleave with another writer.

        A ledger that cannot be written refuses it, unless `derived` (read models only): then
        the writes go to a private copy, never to the ledger.
        """
        if self.read_only is not None:
            if not derived:
                raise LedgerReadOnly(
                    msg(
                        "cannot write to {where}: {reason}; {outcome}",
                        where=self.where,
                        reason=self.read_only,
                        outcome=self.nothing_written(),
                    )
                )
            self._to_scratch()
        try:
            self._begin()
        except self.database_errors as exc:
            self._rollback()
            raise self._translate(exc) from None
        try:
            yield
        except BaseException as exc:
            self._rollback()
            if isinstance(exc, self.database_errors):
                raise self._translate(exc) from None
            raise
        try:
            self._commit()
        except self.database_errors as exc:
            self._rollback()
            raise self._translate(exc) from None

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
        envelopes = self._append_encoded(encoded, recorded_at, recorded_by)
        self.appended += len(envelopes)
        return envelopes

    def _append_encoded(self, encoded: Sequence[EncodedBatch], at: str, by: str) -> list[Envelope]:
        """The write of `append_streams`, its events encoded: under the write lock, check the
        event types and every stream's version, chain the hashes on from the head, insert the
        rows and note the event types; commit. A store may do the same in fewer round trips to
        its database, with the same rows, hashes and errors."""
        envelopes: list[Envelope] = []
        written = {(name, schema_version) for _, items in encoded for name, schema_version, _ in items}
        with self.transaction():
            self._check_event_types()
            position, prev = self._last()
            versions = self._stream_versions({batch.stream for batch, _ in encoded})
            rows = []
            for batch, items in encoded:
                stream, version = batch.stream, versions.get(batch.stream, 0)
                if version != batch.expected_version:
                    raise self._stale(stream, version, batch.expected_version)
                for name, schema_version, payload in items:
                    version += 1
                    position += 1
                    digest = chain_hash(prev, position, stream, version, name, schema_version, payload, at, by)
                    envelopes.append(_envelope((stream, version, position, at, by, name, schema_version, prev, digest)))
                    rows.append((position, stream, version, name, schema_version, payload, at, by, prev, digest))
                    prev = digest
                versions[stream] = version  # a later batch of the same stream follows on
            try:
                # One statement for every row of every stream: a plain executemany of tuples on
                # SQLite, a COPY on PostgreSQL (bench/).
                self.db.executemany(INSERT, rows)
            except self.integrity_errors as exc:  # another client wrote without the write lock
                raise self.changed_while_appending(exc) from exc
            self._note_event_types(written)
        return envelopes

    def _stale(self, stream: str, version: int, expected: int) -> ConcurrencyError:
        """The error of an append to `stream` expecting it at `expected`, found at `version`."""
        return ConcurrencyError(
            msg(
                "stream {stream} is at version {version}, expected {expected}: someone else recorded first; {outcome}",
                stream=repr(stream),
                version=version,
                expected=expected,
                outcome=self.nothing_written(),
            )
        )

    def changed_while_appending(self, exc: Exception) -> ConcurrencyError:
        """The error of an append that met another client's rows (written without the lock)."""
        return ConcurrencyError(
            msg("the log changed while appending ({problem}); {outcome}", problem=exc, outcome=self.nothing_written())
        )

    def nothing_written(self) -> Message:
        """What a write that failed wrote, in words: nothing; or, after this store has appended
        (a command that writes in steps), nothing more: the steps before it stand."""
        if not self.appended:
            return NOTHING_WRITTEN
        return plural(
            "nothing more was written (the {count} event recorded before it stands)",
            "nothing more was written (the {count} events recorded before it stand)",
            self.appended,
        )

    def _check_event_types(self) -> None:
        row = self.db.execute("SELECT value FROM ledger WHERE key = ?", [EVENT_TYPES_KEY]).fetchone()
        if row is not None and row[0] == self._types_text:  # as this store last checked it
            return
        if row is None:  # kept by every writer since format 2; made once if missing
            rows = self.db.execute("SELECT type, max(schema_version) FROM events GROUP BY type")
            types = {str(kind): int(version) for kind, version in rows}
            text = json.dumps(types, sort_keys=True)
            self.db.execute(SET, [EVENT_TYPES_KEY, text])
            self._refuse_unknown(types)
            self._types, self._types_text = types, text
        else:
            self._accept_event_types(str(row[0]))

    def _accept_event_types(self, text: str) -> None:
        """Take the `event_types` row as it reads now (`text`) as the types this store has
        checked, or refuse it: `LedgerError` when it cannot be read, `LedgerReadOnly` when it
        lists a type this doko_ledger does not know."""
        try:
            types = {str(k): int(v) for k, v in json.loads(text).items()}
        except (ValueError, TypeError, AttributeError):
            raise LedgerError(
                msg(
                    "{where}: its {row} row is not readable: {text}",
                    where=self.where,
                    row=repr(EVENT_TYPES_KEY),
                    text=repr(text[:60]),
                )
            ) from None
        self._refuse_unknown(types)
        self._types, self._types_text = types, text

    def _refuse_unknown(self, types: dict[str, int], rebuild: bool = False) -> None:
        """Raise `LedgerReadOnly` when `types` (event type: newest schema version) holds one this
        doko_ledger does not know (`rebuild`: refusing a rebuild of the read models, else a write)."""
        known = known_event_versions()
        unknown = [f"{kind} v{version}" for kind, version in types.items() if known.get(kind, 0) < version]
        if not unknown:
            return
        events = ", ".join(sorted(unknown)[:3])
        if rebuild:
            raise LedgerReadOnly(
                msg(
                    "cannot rebuild the read models of {where}: it holds events this doko_ledger does not know"
                    " ({events}); upgrade doko_ledger to rebuild the read models of it; nothing was changed",
                    where=self.where,
                    events=events,
                )
            )
        raise LedgerReadOnly(
            msg(
                "cannot write to {where}: it holds events this doko_ledger does not know ({events});"
                " upgrade doko_ledger to write to it; nothing was written",
                where=self.where,
                events=events,
            )
        )

    def check_log_types(self, *, rebuild: bool = False) -> None:
        """Refuse (`LedgerReadOnly`) a ledger whose log holds an event type or version this
        doko_ledger does not know, whatever its `event_types` row lists (a hand-inserted event):
        one read of the whole log's types, done once per store (an import checks before its
        first append, a rebuild before it drops anything)."""
        if self._log_types_checked:
            return
        try:
            rows = self.db.execute("SELECT type, max(schema_version) FROM events GROUP BY type").fetchall()
        except self.database_errors as exc:
            raise self._translate(exc) from None
        self._refuse_unknown({str(kind): int(version) for kind, version in rows}, rebuild)
        self._log_types_checked = True

    def _note_event_types(self, written: set[tuple[str, int]]) -> None:
        noted = self._types_with(written)
        if noted is not None:
            self._types, self._types_text = noted
            self.db.execute(SET, [EVENT_TYPES_KEY, self._types_text])

    def _types_with(self, written: set[tuple[str, int]]) -> tuple[dict[str, int], str] | None:
        """The event types checked with those `written` (type, schema version) added, and the
        `event_types` row for them; None when they add nothing."""
        new = {kind: version for kind, version in written if self._types.get(kind, 0) < version}
        if not new:
            return None
        types = self._types | new
        return types, json.dumps(types, sort_keys=True)

    # -- the ledger's own settings --------------------------------------------

    def settings(self, keys: Sequence[str]) -> dict[str, str]:
        """Those of the settings `keys` this ledger holds: rows of its `ledger` table that are
        the ledger's own (what a server keeps between starts), never events of its log."""
        rows = self.db.execute(f"SELECT key, value FROM ledger WHERE key IN ({_marks(keys)})", list(keys))
        return {str(key): str(value) for key, value in rows}

    def change_settings(
        self, keys: Sequence[str], change: Callable[[dict[str, str]], Mapping[str, str]]
    ) -> dict[str, str]:
        """Change the settings `keys` in one write transaction: `change` is given those this
        ledger holds and returns those to write (none: nothing is written); what they then are
        is returned. The transaction holds the log's write lock, so of several processes
        changing them at once each sees what the one before wrote. `LedgerReadOnly` on a ledger
        that cannot be written; the log's own rows (`format`, `event_types`) are no settings."""
        if {"format", EVENT_TYPES_KEY} & set(keys):
            raise ValueError("the format and event_types rows are the log's, not settings")
        with self.transaction():
            for key, value in change(self.settings(keys)).items():
                if key not in keys:
                    raise ValueError(f"{key!r} is not one of the settings being changed")
                self.db.execute(SET, [key, value])
            return self.settings(keys)

    # -- reading -----------------------------------------------------------

    def last_position(self) -> int:
        row = self.db.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
        return int(row[0])

    def _last(self) -> tuple[int, str]:
        row = self.db.execute("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
        return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))

    def newest(self) -> tuple[int, str]:
        """The newest event's position and hash ((0, the genesis hash) for an empty log): one
        look-up that tells whether the log has changed since, and (the hash covering every
        event before it) that it is the same log."""
        return self._last()

    def head(self) -> Head:
        """The log's head: the newest event's hash, which covers every event before it."""
        position, digest = self._last()
        count = int(self.db.execute("SELECT count(*) FROM events").fetchone()[0])
        return Head(digest, position, count)

    def holds(self, stream: str, event_type: str) -> bool:
        """Whether the stream holds an event of that type."""
        row = self.db.execute("SELECT 1 FROM events WHERE stream = ? AND type = ? LIMIT 1", [stream, event_type])
        return row.fetchone() is not None

    def first_event_type(self, stream: str) -> str | None:
        """The type of a stream's first event (what kind of game it is), or None for no stream."""
        row = self.db.execute("SELECT type FROM events WHERE stream = ? AND version = 1", [stream]).fetchone()
        return None if row is None else str(row[0])

    def _stream_versions(self, streams: Iterable[str]) -> dict[str, int]:
        """The version of each of these streams that has events: one index seek a stream (a
        `max` per stream, not a `GROUP BY`, which reads every event of a long stream)."""
        names = list(streams)
        versions: dict[str, int] = {}
        for i in range(0, len(names), 200):
            chunk = names[i : i + 200]
            seeks = " UNION ALL ".join(["SELECT ?, (SELECT max(version) FROM events WHERE stream = ?)"] * len(chunk))
            rows = self.db.execute(seeks, [name for name in chunk for _ in (0, 1)])
            versions.update((str(stream), int(version)) for stream, version in rows if version is not None)
        return versions

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
            f"SELECT stream, min(position), sum(CASE WHEN type = ? THEN 1 ELSE 0 END) FROM events WHERE {where}"
            " GROUP BY stream ORDER BY 2",
            [event_type, *args],
        )
        return [r[0] for r in rows if not r[2]]

    def streams_mentioning(self, prefix: str, text: str) -> list[str]:
        """The streams starting with `prefix` one of whose events' payloads holds `text` (and
        perhaps a few more: a candidate list to fold), in name order: one range of the index,
        its payloads read."""
        where, args = _prefix_where(prefix)
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self.db.execute(
            f"SELECT DISTINCT stream FROM events WHERE {where} AND payload LIKE ? ESCAPE '\\' ORDER BY stream",
            [*args, pattern],
        )
        return [r[0] for r in rows]

    def read_stream(self, stream: str, after_version: int = 0) -> list[Recorded]:
        """A stream's events (those after `after_version`), in order."""
        rows = self.db.execute(
            f"SELECT {COLUMNS} FROM events WHERE stream = ? AND version > ? ORDER BY version", [stream, after_version]
        )
        return [_recorded(r) for r in rows]

    def read_all(self, after_position: int = 0) -> Iterator[Recorded]:
        """Every event after a global position, in global order, streamed."""
        rows = self.db.stream(f"SELECT {COLUMNS} FROM events WHERE position > ? ORDER BY position", [after_position])
        for row in rows:
            yield _recorded(row)

    def read_after(self, position: int, limit: int) -> list[Recorded]:
        """At most `limit` events after a global position, in global order (what a fold kept
        since `position` has to catch up with)."""
        rows = self.db.execute(
            f"SELECT {COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?", [position, limit]
        )
        return [_recorded(r) for r in rows]

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
        rows = self.db.stream(f"SELECT {_EVENT_COLUMNS} FROM events WHERE {where} ORDER BY stream, version", args)
        return _grouped(rows)

    def read_streams_events(self, streams: Sequence[str]) -> Iterator[StreamEvents]:
        """Several streams' decoded events (in stream-name order), a query per 500 streams."""
        return iter(streams_events(self.db, streams))

    def read_stream_events(self, stream: str) -> StreamEvents | None:
        """One stream's decoded events, or None for a stream with none."""
        return stream_events(self.db, stream)

    def changed_streams(self, prefix: str, after_position: int, up_to_position: int) -> list[str]:
        """The streams with events after one global position and up to another."""
        rows = self.db.execute(
            "SELECT DISTINCT stream FROM events WHERE position > ? AND position <= ?",
            [after_position, up_to_position],
        )
        return [r[0] for r in rows if r[0].startswith(prefix)]

    def first_event_types(self, streams: Sequence[str]) -> dict[str, str]:
        """The type of each of these streams' first event (streams with none left out)."""
        types: dict[str, str] = {}
        for i in range(0, len(streams), 500):
            chunk = list(streams[i : i + 500])
            rows = self.db.execute(
                f"SELECT stream, type FROM events WHERE version = 1 AND stream IN ({_marks(chunk)})", chunk
            )
            types.update((str(stream), str(kind)) for stream, kind in rows)
        return types

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
        events before it verify. A `format` row this doko_ledger does not know is a problem of
        its own; the log is then checked as the newest format it knows. Raises `LedgerDamaged`
        for a file SQLite cannot read.
        """
        wanted = None if expect is None else expected_head(expect)
        try:
            if self.format_version == 1:
                report = verify_v1(self.db, stream_name, wanted)
            elif stream_name is None:
                report = verify_log(
                    self.db, wanted, where=self.where, damaged=self.damaged_errors, translate=self._translate
                )
            else:
                report = verify_stream(self.db, stream_name)
        except self.database_errors as exc:
            raise self._translate(exc) from None
        report.format = self.format_text
        if self.format_problem is not None:
            report.problem(None, self.format_problem)
        if wanted is not None and GENESIS.startswith(wanted):
            report.expected_at = 0  # the head of the empty log, which every log extends
        if wanted is not None:
            report.expected = wanted
            if report.expected_at is None:
                report.problem(
                    None,
                    msg(
                        "the expected head {head} is not the hash of any event of this log:"
                        " events before it were changed, or it was the hash of events since deleted",
                        head=wanted[:16],
                    ),
                )
        return report


_EVENT_COLUMNS = "stream, position, type, schema_version, payload"


def stream_events(db: Database, stream: str) -> StreamEvents | None:
    """One stream's decoded events read on a ledger's database, or None for a stream with none
    (`EventStore.read_stream_events`, for a read model that reads a further stream as it folds)."""
    rows = db.execute(f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? ORDER BY version", [stream])
    return next(_grouped(rows), None)


def streams_events(db: Database, streams: Sequence[str]) -> list[StreamEvents]:
    """Several streams' decoded events read on a ledger's database, in stream-name order (a
    query per 500 streams, two for many: `_spanned`; streams with no events are left out)."""
    found: list[StreamEvents] = []
    for i in range(0, len(streams), 500):
        chunk = list(streams[i : i + 500])
        spanned = _spanned(db, chunk) if len(chunk) >= _MANY else None
        if spanned is None:
            rows = db.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream IN ({_marks(chunk)}) ORDER BY stream, version", chunk
            )
            spanned = list(_grouped(rows.fetchall()))
        found.extend(spanned)
    return found


_MANY = 16
"""From how many streams a read takes each stream's span first (`_spanned`): for fewer, the
second query costs more than the columns it saves."""
_SPANS = (
    "SELECT f.stream, (SELECT count(*) FROM events WHERE stream = f.stream), f.position, l.position"
    " FROM events f JOIN events l ON l.stream = f.stream"
    " AND l.version = (SELECT max(version) FROM events WHERE stream = f.stream)"
    " WHERE f.stream IN ({marks}) AND f.version = 1 ORDER BY f.stream"
)
"""Each stream's number of events and the positions of its first and last, by index look-ups."""


def _spanned(db: Database, streams: list[str]) -> list[StreamEvents] | None:
    """These streams' decoded events from two queries: each stream's span (`_SPANS`), then only
    the three columns that decode an event, every stream's rows one after the other, cut by
    those numbers (five columns a row cost a rebuild about a tenth of its time). None when the
    two do not add up: a stream without its first event (a damaged log), or events appended
    between the two reads of a caller outside a transaction (`streams_events` then reads the
    rows as one)."""
    marks = _marks(streams)
    spans = db.execute(_SPANS.format(marks=marks), streams).fetchall()
    rows = db.execute(
        f"SELECT type, schema_version, payload FROM events WHERE stream IN ({marks}) ORDER BY stream, version", streams
    ).fetchall()
    if sum(span[1] for span in spans) != len(rows):
        return None
    decode, found, start = decode_event, [], 0
    for stream, count, first, last in spans:
        end = start + count
        found.append(StreamEvents(stream, list(starmap(decode, rows[start:end])), first, last))
        start = end
    return found


def stream_events_after(db: Database, stream: str, version: int) -> list[Any]:
    """A stream's decoded events after `version`, in order (what a read model kept at that
    version has still to fold)."""
    rows = db.execute(
        "SELECT type, schema_version, payload FROM events WHERE stream = ? AND version > ? ORDER BY version",
        [stream, version],
    )
    return [decode_event(kind, schema_version, payload) for kind, schema_version, payload in rows]


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
        return "1 = 1", []
    upper = prefix_upper_bound(prefix)
    if upper is None:
        return "stream >= ?", [prefix]
    return "stream >= ? AND stream < ?", [prefix, upper]


def prefix_upper_bound(prefix: str) -> str | None:
    """The least text greater than every text that starts with `prefix` (None: no such text).

    The last character is raised by one code point (skipping the surrogates, which are not
    text); both databases compare stream names as UTF-8 bytes (PostgreSQL's `COLLATE "C"`),
    whose order is the code points' order.
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
