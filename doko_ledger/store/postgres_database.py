"""The ledger's PostgreSQL connection (psycopg 3), with the `Database` interface of `events.database`.

The connection is in autocommit: a statement outside `EventStore.transaction()` is its own
transaction, as on SQLite, and `transaction()` opens and ends one explicitly. Statements come
with SQLite's `?` parameter marks and are run with psycopg's (a statement without parameters
is sent as it is); a Python bool goes in as 0 or 1, as SQLite stores it. `stream` reads
through a server-side cursor (held past the end of the statement's transaction), so the rows
of the whole log never sit in memory at once and other statements can run while they are read.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format

_names = itertools.count(1)
STREAM_ROWS = 2_000
"""Rows fetched from the server at a time by `stream`."""
COPY_FROM_ROWS = 20
"""`executemany` of more rows than this goes in by COPY."""


class _BoolAsInteger(Dumper):
    """True and False as the integers 1 and 0 (SQLite's booleans), for BIGINT columns."""

    format = Format.TEXT

    def dump(self, obj: bool) -> bytes:
        return b"1" if obj else b"0"

    oid = psycopg.postgres.types["int8"].oid


@lru_cache(maxsize=512)
def _marks(sql: str) -> str:
    """`?` marks as psycopg's `%s` (a literal `%` doubled); no statement of the project has a
    `?` or `%` inside a string literal."""
    return sql.replace("%", "%%").replace("?", "%s")


_INSERT = re.compile(r"INSERT INTO (\w+)( \([\w, ]+\))? VALUES \(\?(, \?)*\)")


@lru_cache(maxsize=64)
def _copy_of(sql: str) -> str | None:
    """The `COPY` that inserts what a plain multi-row INSERT does, or None for any other statement."""
    found = _INSERT.fullmatch(sql.strip())
    if found is None:
        return None
    return f"COPY {found.group(1)}{found.group(2) or ''} FROM STDIN"


class _Streamed:
    """A server-side cursor's rows, read `STREAM_ROWS` at a time; closed when they are all read."""

    def __init__(self, cursor: psycopg.ServerCursor[Any]) -> None:
        self._cursor = cursor

    @property
    def description(self) -> Any:
        return self._cursor.description

    def fetchone(self) -> Any:
        row = self._cursor.fetchone()
        self._cursor.close()
        return row

    def fetchall(self) -> list[Any]:
        rows = self._cursor.fetchall()
        self._cursor.close()
        return rows

    def __iter__(self) -> Iterator[Any]:
        try:
            yield from self._cursor
        finally:
            self._cursor.close()


class Database:
    """A connection to one PostgreSQL database."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        conn.adapters.register_dumper(bool, _BoolAsInteger)

    @classmethod
    def connect(cls, url: str, *, connect_timeout: int = 10) -> Database:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=connect_timeout)
        # Every statement of the ledger is written for an index: a key, a range of one, or a
        # scan in an index's order. A table that has just grown (an import, a rebuild) has no
        # statistics yet, and the planner would then read all of it for each IN list of a
        # hundred streams: a rebuild of 10,000 games took 16.6 s instead of 9.3 s (bench/).
        # With scans so priced, a query that must scan (`doko verify` comparing its temporary
        # tables) looks costly enough for the planner to compile it to machine code first:
        # 0.6 s a table for a few rows. The ledger's statements are short: no JIT.
        conn.execute("SELECT set_config('enable_seqscan', 'off', false), set_config('jit', 'off', false)")
        return cls(conn)

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> psycopg.Cursor[Any]:
        if parameters is None:  # sent as it is: psycopg reads no marks in it
            return self.conn.execute(sql)
        return self.conn.execute(_marks(sql), parameters)

    def stream(self, sql: str, parameters: Sequence[Any] | None = None) -> _Streamed:
        cursor = self.conn.cursor(f"doko_rows_{next(_names)}", withhold=not self.conn.info.transaction_status)
        cursor.itersize = STREAM_ROWS
        cursor.execute(sql if parameters is None else _marks(sql), parameters)
        return _Streamed(cursor)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Many rows of a plain `INSERT INTO t [(columns)] VALUES (?, ...)` go in by `COPY ...
        FROM STDIN`: the same rows, constraints and errors (a duplicate key is still an
        `IntegrityError`), in one stream instead of a statement per row; a few rows (one card
        played) by the INSERT itself, which is fewer round trips (bench/bench_postgres.py)."""
        rows = rows if isinstance(rows, list) else list(rows)
        copy = _copy_of(sql) if len(rows) > COPY_FROM_ROWS else None
        with self.conn.cursor() as cursor:
            if copy is None:
                cursor.executemany(_marks(sql), rows)
                return
            with cursor.copy(copy) as stream:
                for row in rows:
                    stream.write_row(row)

    def executescript(self, sql: str) -> None:
        self.conn.execute(sql)

    def table_names(self) -> list[str]:
        rows = self.conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY (current_schemas(false)) AND pg_table_is_visible(c.oid)"
        )
        return [r[0] for r in rows]

    def columns(self, table: str) -> list[str]:
        rows = self.conn.execute(
            "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass(%s)"
            " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            [table],
        )
        return [r[0] for r in rows]

    def close(self) -> None:
        self.conn.close()
