"""The ledger's SQLite connection (the `Database` of `events.database`), with sqlite-utils'
`Database` beside it, imported only when it is used.

Importing sqlite-utils costs a command about as much as reading and scoring a game (its CLI,
plugin manager and helpers load with it). What a read command asks of the database — reads,
and statements inside a transaction, which sqlite-utils passes straight to the connection —
goes to the `sqlite3` connection here; anything else (a write outside a transaction, a script
inside one, switching to WAL, any other sqlite-utils feature) goes to a sqlite-utils
`Database` wrapped around the same connection, made when it is first needed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite_utils

_READS = ("SELECT", "PRAGMA", "EXPLAIN")


class Database:
    """A connection to one SQLite file with sqlite-utils' `Database` interface."""

    def __init__(self, file: str | Path | sqlite3.Connection) -> None:
        self._full: sqlite_utils.Database | None = None
        self.conn = file if isinstance(file, sqlite3.Connection) else sqlite3.connect(str(file))
        self.conn.execute("PRAGMA recursive_triggers=on;")  # as sqlite-utils' Database sets it

    @property
    def full(self) -> sqlite_utils.Database:
        """sqlite-utils' `Database` on this connection."""
        if self._full is None:
            import sqlite_utils

            self._full = sqlite_utils.Database(self.conn)
        return self._full

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> sqlite3.Cursor:
        """`sqlite_utils.Database.execute`: a write outside a transaction is committed."""
        if self.conn.in_transaction or sql.lstrip()[:7].upper().startswith(_READS):
            return self.conn.execute(sql, () if parameters is None else parameters)
        return self.full.execute(sql, parameters)

    def stream(self, sql: str, parameters: Sequence[Any] | None = None) -> sqlite3.Cursor:
        """`execute`: SQLite's cursor reads its rows as they are iterated."""
        return self.execute(sql, parameters)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Plain `executemany` of tuples: many uniform rows go in about ten times faster than
        through sqlite-utils' `insert_all` (bench/)."""
        self.conn.executemany(sql, rows)

    def executescript(self, sql: str) -> None:
        """Several statements; inside a transaction one at a time, without committing it
        (`sqlite3`'s own `executescript` commits first; sqlite-utils splits the script in
        Python at some cost, which a rebuild paid for every read model's tables)."""
        if not self.conn.in_transaction:
            self.conn.executescript(sql)
            return
        statement = ""
        for part in sql.split(";"):
            statement += part + ";"
            if sqlite3.complete_statement(statement):
                if statement.strip(" \n\t;"):
                    self.conn.execute(statement)
                statement = ""

    def table_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]

    def columns(self, table: str) -> list[str]:
        return [r[1] for r in self.conn.execute("SELECT * FROM pragma_table_info(?)", [table])]

    def enable_wal(self) -> None:
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.full.enable_wal()

    def close(self) -> None:
        self.conn.close()
