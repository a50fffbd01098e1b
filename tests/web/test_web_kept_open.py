"""The server keeps the ledger open between requests, and opens it anew whenever the kept store
could answer otherwise than a ledger opened now: another file moved into its place, the file
of another format, a transaction left open, or the request failed in the ledger. Between
requests the ledger is as a closed one leaves it: its WAL written back into the file."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CODE, app_for, client, standings, start_night

from doko_ledger.store.base import EventStore, LedgerError
from doko_ledger.store.open import open_store
from doko_ledger.store.sqlite import SqliteEventStore
from doko_ledger.web.kept_open import kept_open


def record(phone: Any, version: int) -> int:
    """The night's version after the phone recorded a deal at `version` (Clara and Dirk play
    the first two deals of five players)."""
    body = {"version": version, "deal": {"re": ["Clara", "Dirk"], "re_points": 151}}
    answer = phone.post("/api/nights/night/deals", json=body, headers={"x-join-code": CODE})
    assert answer.status_code == 201, answer.text
    found: int = answer.json()["version"]
    return found


def store_of(db: str | Path) -> EventStore:
    """The store a request used (kept when it ended)."""
    with kept_open(db) as ledger:
        return ledger.store


def closed(store: EventStore) -> bool:
    try:
        store.db.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        return True
    return False


def test_the_next_request_uses_the_store_again_and_forgets_what_it_appended(ledger_path: Path) -> None:
    start_night(ledger_path)
    with kept_open(ledger_path) as ledger:
        first = ledger.store
        first.appended = 3  # as after a write
    with kept_open(ledger_path) as ledger:
        assert ledger.store is first
        assert ledger.store.appended == 0  # "nothing was written" is said of this request alone


def test_the_server_records_into_a_ledger_moved_into_the_place_of_its_own(tmp_path: Path) -> None:
    """A copy moved over the path (a backup restored) is the ledger from then on: the stores
    kept of the old file are closed, and its WAL goes with them, not read beside the new file."""
    db, backup = tmp_path / "ledger.sqlite", tmp_path / "backup.sqlite"
    start_night(db)
    shutil.copy(db, backup)  # the night with no deal (the last connection wrote its WAL back)
    phone = client(app_for(db))
    assert record(phone, 1) == 2
    assert record(phone, 2) == 3
    kept = store_of(db)
    os.replace(backup, db)
    assert record(phone, 1) == 2  # the restored night had no deal
    assert closed(kept) and len(standings(db)["deals"]) == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_ledger_of_another_format_is_opened_anew(ledger_path: Path) -> None:
    start_night(ledger_path)
    kept = store_of(ledger_path)
    with sqlite3.connect(ledger_path) as conn:
        conn.execute("UPDATE ledger SET value = 'doko-ledger/99' WHERE key = 'format'")
    with kept_open(ledger_path) as ledger:
        assert ledger.store is not kept and closed(kept)
        assert ledger.store.read_only is not None and "newer than this doko_ledger" in ledger.store.read_only
        newer = ledger.store
    with kept_open(ledger_path) as ledger:  # a read-only store is never used again
        assert ledger.store is not newer


def test_a_transaction_left_open_is_not_used_again(ledger_path: Path) -> None:
    start_night(ledger_path)
    store = open_store(ledger_path)
    assert isinstance(store, SqliteEventStore)
    try:
        store.db.execute("BEGIN IMMEDIATE")
        assert not store.reopened()
        store.db.conn.rollback()
        assert store.reopened()
    finally:
        store.close()


def test_a_request_that_failed_in_the_ledger_closes_its_store(ledger_path: Path) -> None:
    start_night(ledger_path)
    kept = store_of(ledger_path)
    with pytest.raises(LedgerError), kept_open(ledger_path) as ledger:
        assert ledger.store is kept
        ledger.store.db.execute("SELECT * FROM no_such_table")
    assert closed(kept)
    again = store_of(ledger_path)
    with pytest.raises(KeyError), kept_open(ledger_path) as ledger:  # the route's own error: kept
        assert ledger.store is again
        raise KeyError("not the ledger's")
    assert store_of(ledger_path) is again


def test_a_request_leaves_the_ledger_at_rest_its_wal_written_back(ledger_path: Path) -> None:
    start_night(ledger_path)
    phone = client(app_for(ledger_path))
    assert record(phone, 1) == 2
    kept = store_of(ledger_path)
    assert not closed(kept)
    assert Path(f"{ledger_path}-wal").stat().st_size == 0  # what a copy of the file alone holds is the ledger
    shutil.copy(ledger_path, ledger_path.with_name("copy.sqlite"))
    assert len(standings(ledger_path.with_name("copy.sqlite"))["deals"]) == 1


def test_a_reader_is_not_waited_for_the_next_request_writes_back(ledger_path: Path) -> None:
    start_night(ledger_path)
    phone = client(app_for(ledger_path))
    with sqlite3.connect(ledger_path) as reader:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()  # a read holding its snapshot
        assert record(phone, 1) == 2
        assert Path(f"{ledger_path}-wal").stat().st_size > 0
        reader.rollback()
    assert store_of(ledger_path) is not None
    assert Path(f"{ledger_path}-wal").stat().st_size == 0


def test_a_postgresql_ledger_is_opened_per_request(ledger_target: str | Path) -> None:
    start_night(ledger_target)
    first = store_of(ledger_target)
    assert first.keeps_open is isinstance(ledger_target, Path)
    assert (store_of(ledger_target) is first) is isinstance(ledger_target, Path)


def test_a_write_back_that_fails_leaves_what_was_written_and_closes_the_store(
    ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start_night(ledger_path)
    phone = client(app_for(ledger_path))
    kept = store_of(ledger_path)

    def failing(store: SqliteEventStore) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqliteEventStore, "at_rest", failing)
    assert record(phone, 1) == 2
    monkeypatch.undo()
    assert closed(kept) and len(standings(ledger_path)["deals"]) == 1
    assert store_of(ledger_path) is not kept
