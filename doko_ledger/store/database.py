"""What the store and the read models ask of a database: the one SQL interface both backends give.

Statements are written once, in the SQL that SQLite and PostgreSQL share, with `?` for each
parameter; each backend's `Database` runs them as they are (SQLite) or with its own parameter
marks (PostgreSQL). Column types are TEXT and BIGINT; a Python bool is stored as 0 or 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol


class Rows(Protocol):
    """The result of one statement: rows as tuples, and the names of its columns."""

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Database(Protocol):
    """One connection to the database that holds a ledger."""

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> Rows:
        """Run one statement; its rows are read at once (for results of any size, `stream`)."""

    def stream(self, sql: str, parameters: Sequence[Any] | None = None) -> Rows:
        """Run one query whose rows are read a few at a time as they are iterated (the whole
        log, every game): memory stays flat, and other statements may run meanwhile."""

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once for each row of parameters."""

    def executescript(self, sql: str) -> None:
        """Run several statements without parameters (tables and indexes of a read model)."""

    def table_names(self) -> list[str]:
        """The tables this connection sees."""

    def columns(self, table: str) -> list[str]:
        """The column names of one table, in order (none when there is no such table)."""

    def close(self) -> None: ...
