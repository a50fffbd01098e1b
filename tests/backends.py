"""Both databases a ledger can live on, for tests that must hold on each.

- ``ledger_target`` (fixture, parametrized ``sqlite`` / ``postgresql``): where a new ledger may be
  made: a path in the test's folder, or the URL of a new, empty PostgreSQL database; ``store``,
  a new ledger's store there.
- ``Attacker``: a plain connection to the ledger's database with the append-only triggers
  turned off, as someone with the file or the database owner's password would have: what the
  tamper tests edit the log with.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from doko_ledger.store.base import EventStore
from doko_ledger.store.location import is_url
from doko_ledger.store.open import open_store

BACKENDS = ("sqlite", "postgresql")


def new_target(backend: str, request: pytest.FixtureRequest, folder: Path) -> str | Path:
    """A place for a new ledger on `backend`: a file in `folder`, or a new database (dropped
    when the requesting test or fixture ends)."""
    if backend == "sqlite":
        return folder / "ledger.sqlite"
    server = request.getfixturevalue("postgres_server")
    url: str = server.create_database()
    request.addfinalizer(lambda: server.drop_database(url))
    return url


sqlite_only = pytest.mark.parametrize("ledger_target", ["sqlite"], indirect=True)
"""For a test of what only a file has (its bytes, its folder, its permissions) in a module whose
tests run on both databases."""


@pytest.fixture(params=BACKENDS)
def ledger_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    return new_target(request.param, request, tmp_path)


@pytest.fixture
def store(ledger_target: str | Path) -> Iterator[EventStore]:
    """A new, empty ledger's store on each database."""
    opened = open_store(ledger_target, create=True)
    yield opened
    opened.close()


class Client:
    """A plain autocommit connection to a ledger's database, as `sqlite3` or `psql` would open
    it: `execute` takes `?` marks on both and returns a cursor."""

    def __init__(self, target: str | Path) -> None:
        self.postgres = is_url(target)
        if self.postgres:
            import psycopg

            self._pg = psycopg.connect(str(target), autocommit=True)
        else:
            self._lite = sqlite3.connect(target, isolation_level=None, timeout=10)

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        if self.postgres:
            return self._pg.execute(sql.replace("?", "%s"), list(parameters) or None)
        return self._lite.execute(sql, parameters)

    def rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.execute(sql, parameters).fetchall()]

    def has_table(self, name: str) -> bool:
        if self.postgres:
            return self.rows("SELECT to_regclass(?)", [name]) != [(None,)]
        return bool(self.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]))

    def close(self) -> None:
        if self.postgres:
            self._pg.close()
        else:
            self._lite.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Attacker(Client):
    """A `Client` with the append-only triggers dropped (SQLite) or disabled (PostgreSQL)."""

    def __init__(self, target: str | Path) -> None:
        super().__init__(target)
        if self.postgres:
            self.execute("ALTER TABLE events DISABLE TRIGGER USER")
        else:
            for name in ("update", "delete", "replace"):
                self.execute(f"DROP TRIGGER IF EXISTS events_append_only_{name}")

    def close(self) -> None:
        if self.postgres and not self._pg.closed:
            self.execute("ALTER TABLE events ENABLE TRIGGER USER")
        super().close()


@pytest.fixture
def attacker() -> Iterator[type[Attacker]]:
    """`Attacker` connections for a test, closed after it."""
    made: list[Attacker] = []

    class Tracked(Attacker):
        def __init__(self, target: str | Path) -> None:
            super().__init__(target)
            made.append(self)

    yield Tracked
    for connection in made:
        connection.close()


@pytest.fixture(name="ledger_path")
def ledger_path_on_both(ledger_target: str | Path) -> str | Path:
    """`ledger_path` on each database: a module that imports this runs its tests (and its `cli`
    fixture's `--db`) on SQLite and on PostgreSQL."""
    return ledger_target
