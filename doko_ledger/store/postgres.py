"""The event store in a PostgreSQL database (see `events.store` for what every store guarantees).

- A write transaction takes `LOCK TABLE events IN EXCLUSIVE MODE` first: one writer at a time
  (an INSERT by any other client waits too), readers never blocked. Positions are read and
  taken under that lock, so they are committed in the order they were taken: no gaps and no
  reordering, whatever commits meanwhile (a sequence could not promise that). Waiting for the
  lock ends after `busy_timeout_ms` (exit 3).
- Stream names compare as bytes (`COLLATE "C"`), as on SQLite: prefix ranges and stream
  order are the same on both.
- Triggers refuse UPDATE, DELETE and TRUNCATE on the event table.
- An append is one round trip to the server: a function made with the tables (and on open,
  for a ledger made before it) does the whole of it under the write lock (`store.postgres_append`).
- A ledger of a newer format, or one holding events this doko_ledger does not know, is read,
  never written; its read models, if behind, are brought up to date in temporary tables of
  this connection.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import ClassVar

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus

from doko_ledger.events.envelope import Envelope
from doko_ledger.i18n import msg
from doko_ledger.store import postgres_append
from doko_ledger.store.base import EVENTS_TABLE, LEDGER_TABLE, EncodedBatch, EventStore
from doko_ledger.store.errors import (
    ConcurrencyError,
    DiskError,
    LedgerBusy,
    LedgerDamaged,
    LedgerError,
    LedgerReadOnly,
    LedgerUnreachable,
)
from doko_ledger.store.location import shown
from doko_ledger.store.postgres_database import Database

TABLE = EVENTS_TABLE.format(name="events", integer="BIGINT", stream='TEXT COLLATE "C"')
APPEND_ONLY = """
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only';
END
$$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_append_only_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
"""
_OWN_TABLES = ("events", "ledger")
CREATE_LOCK = 0x646F6B6F  # "doko": the advisory lock held while a ledger's tables are made


class PostgresEventStore(EventStore):
    """An append-only event log in one PostgreSQL database (the tables of its current schema)."""

    database_errors: ClassVar[tuple[type[Exception], ...]] = (psycopg.Error,)
    integrity_errors: ClassVar[tuple[type[Exception], ...]] = (psycopg.IntegrityError,)
    damaged_errors: ClassVar[tuple[type[Exception], ...]] = (errors.DataCorrupted, errors.IndexCorrupted)
    db: Database

    def __init__(self, db: Database, *, where: str, read_only: str | None = None) -> None:
        super().__init__(db, where=where, read_only=read_only)
        self._log_exists = False
        self._one_trip = False
        """Whether appends go through the ledger's append function (`store.postgres_append`)."""

    @classmethod
    def connect(cls, url: str, *, create: bool = False) -> PostgresEventStore:
        where = shown(url)
        try:
            db = Database.connect(url)
        except psycopg.Error as exc:
            text = _first_line(exc)
            if _unreachable(exc):
                raise LedgerUnreachable(msg("cannot reach {where}: {problem}", where=where, problem=text)) from None
            if create and "does not exist" in text and "database" in text:
                raise LedgerError(
                    msg("cannot open {where}: {problem} (make it first: `createdb NAME`)", where=where, problem=text)
                ) from None
            raise LedgerError(msg("cannot open {where}: {problem}", where=where, problem=text)) from None
        store = cls(db, where=where)
        try:
            store._prepare(create)
        except psycopg.Error as exc:
            store.close()
            raise store._translate(exc) from None
        except BaseException:
            store.close()
            raise
        return store

    def _create_tables(self) -> None:
        self.db.execute(TABLE)
        self.db.executescript(APPEND_ONLY)
        self.db.execute(LEDGER_TABLE)
        self.db.executescript(postgres_append.FUNCTION)
        self._one_trip = True

    def _prepare(self, create: bool) -> None:
        super()._prepare(create)
        if self.read_only is None and not self._one_trip:
            self._one_trip = self._ensure_append_function()

    def _ensure_append_function(self) -> bool:
        """Make the append function in a ledger made before it (under the lock its makers take
        turns on, looking again under it); False when it is not there and cannot be made (a
        user who may not create functions): appends then take one round trip a statement."""
        if self._has_append_function():
            return True
        try:
            self.db.executescript(f"BEGIN; SELECT pg_advisory_xact_lock({CREATE_LOCK})")
            if not self._has_append_function():
                self.db.executescript(postgres_append.FUNCTION)
            self._commit()
        except psycopg.Error:
            self._rollback()
            return False
        return True

    def _has_append_function(self) -> bool:
        return self.db.execute(postgres_append.EXISTS, [postgres_append.NAME]).fetchall() != [(0,)]

    def _append_encoded(self, encoded: Sequence[EncodedBatch], at: str, by: str) -> list[Envelope]:
        """One call of the append function, and a second one after taking an `event_types` row
        that another writer changed; the statements of `EventStore` where the function does not
        serve (`postgres_append.serves`; no function, a transaction already open, a missing
        `event_types` row)."""
        idle = self.db.conn.info.transaction_status == TransactionStatus.IDLE
        if not (self._one_trip and idle and self.read_only is None and postgres_append.serves(encoded)):
            return super()._append_encoded(encoded, at, by)
        written = {(name, schema_version) for _, items in encoded for name, schema_version, _ in items}
        for _ in range(2):
            noted = self._types_with(written)
            try:
                arguments = postgres_append.arguments(
                    encoded,
                    at,
                    by,
                    lock_ms=int(self.busy_timeout_ms),
                    types_seen=self._types_text,
                    types_noted=None if noted is None else noted[1],
                )
            except TypeError:  # a value that is not text: hashed as chain_hash hashes it, in Python
                return super()._append_encoded(encoded, at, by)
            answer = postgres_append.Appended._make(self._call(arguments))
            if answer.outcome == "appended":
                if noted is not None:
                    self._types, self._types_text = noted
                return _envelopes(encoded, at, by, answer)
            if answer.outcome == "versions":
                raise self._stale_of(encoded, answer.versions_found or [])
            if answer.types_found is None:  # no row: made under the lock by the statements of `EventStore`
                break
            self._accept_event_types(answer.types_found)
        return super()._append_encoded(encoded, at, by)

    def _call(self, arguments: list[object]) -> tuple[object, ...]:
        """The append function's one row; its errors as the ledger's."""
        try:
            (row,) = self.db.execute(postgres_append.CALL, arguments).fetchall()
        except self.integrity_errors as exc:  # another client wrote without the write lock
            raise self.changed_while_appending(exc) from exc
        except psycopg.Error as exc:
            raise self._translate(exc) from None
        return tuple(row)

    def _stale_of(self, encoded: Sequence[EncodedBatch], found: Sequence[int]) -> ConcurrencyError:
        """The error for the first batch whose stream the function found at another version."""
        versions = dict(zip(dict.fromkeys(batch.stream for batch, _ in encoded), found, strict=True))
        for batch, items in encoded:
            if versions[batch.stream] != batch.expected_version:
                return self._stale(batch.stream, versions[batch.stream], batch.expected_version)
            versions[batch.stream] += len(items)
        raise LedgerError(
            msg("{where}: the append function found other versions but none that differs", where=self.where)
        )

    def _begin(self) -> None:
        if self._scratch:  # read models in this connection's temporary tables: nobody to wait for
            self.db.execute("BEGIN")
            return
        if not self._log_exists:
            self._log_exists = "events" in self.db.table_names()
        # the ledger being made: its makers take turns on one lock of the database
        lock = (
            "LOCK TABLE events IN EXCLUSIVE MODE"
            if self._log_exists
            else f"SELECT pg_advisory_xact_lock({CREATE_LOCK})"
        )
        # one round trip to the server for the three
        self.db.executescript(f"BEGIN; SET LOCAL lock_timeout = {int(self.busy_timeout_ms)}; {lock}")

    def _commit(self) -> None:
        self.db.execute("COMMIT")

    def _rollback(self) -> None:
        with suppress(psycopg.Error):
            self.db.execute("ROLLBACK")

    def _translate(self, exc: Exception) -> LedgerError:
        text = _first_line(exc)
        if isinstance(exc, errors.LockNotAvailable):
            return LedgerBusy(self.where, self.busy_timeout_ms, self.nothing_written())
        if isinstance(exc, errors.ReadOnlySqlTransaction | errors.InsufficientPrivilege):
            return LedgerReadOnly(
                msg(
                    "cannot write to {where}: {reason}; {outcome}",
                    where=self.where,
                    reason=text,
                    outcome=self.nothing_written(),
                )
            )
        if isinstance(exc, errors.DiskFull):
            return DiskError(
                msg(
                    "the disk holding {where} is full: {outcome} ({problem})",
                    where=self.where,
                    outcome=self.nothing_written(),
                    problem=text,
                )
            )
        if isinstance(exc, errors.IoError):
            return DiskError(
                msg(
                    "cannot use {where}: the server's disk reported an I/O error ({problem}); {outcome}",
                    where=self.where,
                    problem=text,
                    outcome=self.nothing_written(),
                )
            )
        if isinstance(exc, self.damaged_errors):
            return LedgerDamaged(msg("{where} is damaged: {problem}", where=self.where, problem=text))
        if self.db.conn.closed or _unreachable(exc):
            return LedgerUnreachable(
                msg("{where}: the connection to the server failed: {problem}", where=self.where, problem=text)
            )
        return LedgerError(msg("{where}: {problem}", where=self.where, problem=text))

    @contextmanager
    def read_models_beside(self) -> Iterator[tuple[Database, dict[str, str]]]:
        """This connection in one transaction (one snapshot of the log) that is rolled back, with
        its temporary tables first on the search path: a projection makes its tables there and
        reads the log through `events` (found in the ledger's schema); the ledger's own tables
        are named with their schema."""
        if self._scratch:
            raise LedgerError(msg("{where}: its read models were caught up in temporary tables", where=self.where))
        try:
            schema = str(self.db.execute("SELECT current_schema()").fetchall()[0][0])
            rows = self.db.execute("SELECT tablename FROM pg_tables WHERE schemaname = ?", [schema]).fetchall()
            self.db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            self.db.execute(f'SET LOCAL search_path = pg_temp, "{schema}"')
            yield self.db, {str(name): f'"{schema}"."{name}"' for (name,) in rows}
        except psycopg.Error as exc:
            raise self._translate(exc) from None
        finally:
            self._rollback()

    def _to_scratch(self) -> None:
        """Copy the read models into temporary tables of this connection, which from now on
        come first on its search path (new tables are made there too)."""
        if self._scratch:
            return
        schema = str(self.db.execute("SELECT current_schema()").fetchall()[0][0])
        for table in self.db.table_names():
            if table not in _OWN_TABLES:
                self.db.execute(f'CREATE TEMPORARY TABLE "{table}" (LIKE "{schema}"."{table}" INCLUDING ALL)')
                self.db.execute(f'INSERT INTO pg_temp."{table}" SELECT * FROM "{schema}"."{table}"')
        self.db.execute(f'SET search_path = pg_temp, "{schema}"')
        self._scratch = True


_NOT_NOW = ("57P01", "57P02", "57P03", "53300", "55000")
"""Shut down, crashed, starting, too many connections, not accepting connections (`ALTER
DATABASE ... ALLOW_CONNECTIONS false`)."""
_TURNED_AWAY = ("not currently accepting connections", "the database system is", "too many clients", "connection slots")
"""The same, as the server says them while connecting (libpq gives no SQLSTATE then)."""


def _unreachable(exc: Exception) -> bool:
    """Whether `exc` says the server cannot be reached now (no answer at all, a connection
    failure, or a server that turns connections away), rather than a refusal of what was asked
    (no such database or role, a wrong password)."""
    if not isinstance(exc, psycopg.OperationalError):
        return False
    if exc.sqlstate is not None:
        return exc.sqlstate.startswith("08") or exc.sqlstate in _NOT_NOW
    text = str(exc)
    return "FATAL:" not in text or any(words in text for words in _TURNED_AWAY)


def _envelopes(encoded: Sequence[EncodedBatch], at: str, by: str, answer: postgres_append.Appended) -> list[Envelope]:
    """The envelopes of the events the append function wrote, from the head it found and the hashes it chained."""
    position, prev = answer.head_position or 0, answer.head_hash or ""
    hashes = iter(answer.hashes or [])
    envelopes = []
    for batch, items in encoded:
        version = batch.expected_version
        for name, schema_version, _ in items:
            version += 1
            position += 1
            digest = next(hashes)
            envelopes.append(Envelope(batch.stream, version, position, at, by, name, schema_version, prev, digest))
            prev = digest
    return envelopes


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
