"""An append to a PostgreSQL ledger in one round trip (`store.postgres_append`): the same rows,
hashes and errors as the statements of `EventStore` on SQLite, the lock and the version check
whole under concurrent writers, and the function made on open in a ledger made before it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from test_store import AT, BY, cards
from typer.testing import Result

from doko_ledger.doppelkopf.events import AbandonReason, DealAbandoned
from doko_ledger.store.base import ConcurrencyError, EventStore, LedgerReadOnly, NewStreamEvents
from doko_ledger.store.open import open_store
from doko_ledger.store.postgres import PostgresEventStore
from doko_ledger.store.postgres_append import NAME, ROWS_AT_MOST

ODD_NAMES = ['s/quote"back\\slash', "s/ä\nnew\tline\x01\x1f", "s/🂡\u2028\u007f", "s/plain"]
"""Stream names (and authors) that JSON writes with escapes or as they are, in the hashed text."""


def _appends(store: EventStore) -> None:
    """The same appends on any store: streams of odd names, one event and many, several streams
    at once (a stream twice in one append), authors and times of odd text."""
    for n, name in enumerate(ODD_NAMES):
        store.append(name, cards("CQ", "H10"), expected_version=0, recorded_by=ODD_NAMES[-1 - n], recorded_at=AT)
    store.append_streams(
        [
            NewStreamEvents("s/plain", 2, cards("DA")),
            NewStreamEvents("s/many", 0, cards(*["SK", "S9", "CJ"] * 10)),
            NewStreamEvents("s/plain", 3, cards("HA", "D10")),
        ],
        recorded_by="Jürgen 😀",
        recorded_at="2026-12-02T19:00:00\u2028+01:00",
    )
    store.append("s/many", cards("CA"), expected_version=30, recorded_by=BY, recorded_at=AT)


def _rows(store: EventStore) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in store.db.execute("SELECT * FROM events ORDER BY position").fetchall()]


def _statements(store: PostgresEventStore) -> list[str]:
    """The statements `store` sends from now on (each one round trip to the server)."""
    sent: list[str] = []
    db: Any = store.db
    for method in ("execute", "executemany", "executescript", "stream"):
        original: Callable[..., Any] = getattr(db, method)

        def counted(sql: str, *args: Any, _original: Callable[..., Any] = original) -> Any:
            sent.append(sql)
            return _original(sql, *args)

        setattr(db, method, counted)
    return sent


def _has_function(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT to_regproc(%s)", [NAME]).fetchall() != [(None,)]


def _open(url: str, *, create: bool = False) -> PostgresEventStore:
    store = open_store(url, create=create)
    assert isinstance(store, PostgresEventStore)
    return store


def test_an_append_is_one_statement_and_writes_the_rows_sqlite_writes(
    tmp_path: Path, postgres_url: str, cli: Callable[..., Result]
) -> None:
    lite = open_store(tmp_path / "ledger.sqlite", create=True)
    postgres = _open(postgres_url, create=True)
    postgres.append("s/first", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    lite.append("s/first", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    sent = _statements(postgres)
    try:
        _appends(lite)
        _appends(postgres)
        assert len(sent) == 6 and all(sql.startswith(f"SELECT * FROM {NAME}(") for sql in sent)
        assert _rows(postgres) == _rows(lite)
        assert postgres.head() == lite.head()
        assert [r.envelope for r in postgres.read_all()] == [r.envelope for r in lite.read_all()]
        assert postgres.verify().ok and lite.verify().ok
        verified = cli("verify", db=None, env={"DOKO_DB": postgres_url})
        assert verified.exit_code == 0 and verified.stdout.startswith("ledger verified:"), verified.output
        event_types = "SELECT value FROM ledger WHERE key = 'event_types'"
        assert postgres.db.execute(event_types).fetchall() == [tuple(r) for r in lite.db.execute(event_types)]
    finally:
        lite.close()
        postgres.close()


def test_the_envelopes_an_append_returns_are_those_stored(postgres_url: str) -> None:
    store = _open(postgres_url, create=True)
    try:
        written = store.append_streams(
            [NewStreamEvents("s/a", 0, cards("CQ", "H10")), NewStreamEvents("s/b", 0, cards("DA"))],
            recorded_by=BY,
            recorded_at=AT,
        )
        more = store.append("s/a", cards("SK"), expected_version=2, recorded_by=BY, recorded_at=AT)
        assert [r.envelope for r in store.read_all()] == written + more
        assert [(e.stream, e.version, e.position) for e in written + more] == [
            ("s/a", 1, 1),
            ("s/a", 2, 2),
            ("s/b", 1, 3),
            ("s/a", 3, 4),
        ]
    finally:
        store.close()


def test_of_two_appends_at_the_same_version_one_wins_and_the_other_writes_nothing(postgres_url: str) -> None:
    setup = _open(postgres_url, create=True)
    setup.append("s/table", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    head = setup.head()
    writers = [_open(postgres_url), _open(postgres_url)]
    outcomes: list[object] = []

    def append(store: EventStore, card: str) -> None:
        try:
            store.append_streams(
                [NewStreamEvents("s/other", 0, cards("DA")), NewStreamEvents("s/table", 1, cards(card, card))],
                recorded_by=card,
                recorded_at=AT,
            )
            outcomes.append(card)
        except ConcurrencyError as exc:
            outcomes.append(exc)

    with psycopg.connect(postgres_url, autocommit=True) as holder:
        with holder.transaction():
            holder.execute("LOCK TABLE events IN EXCLUSIVE MODE")  # both wait for it, then race
            threads = [
                threading.Thread(target=append, args=(w, c)) for w, c in zip(writers, ("H10", "SK"), strict=True)
            ]
            for thread in threads:
                thread.start()
            waiting = "SELECT count(*) FROM pg_locks WHERE relation = 'events'::regclass AND NOT granted"
            while holder.execute(waiting).fetchall() != [(2,)]:
                threading.Event().wait(0.01)
        for thread in threads:
            thread.join(timeout=30)
    try:
        (winner,) = [o for o in outcomes if isinstance(o, str)]
        (lost,) = [o for o in outcomes if isinstance(o, ConcurrencyError)]
        assert str(lost) == (
            "stream 's/other' is at version 1, expected 0: someone else recorded first; nothing was written"
        )
        events = setup.read_stream("s/table")
        assert [r.envelope.recorded_by for r in events] == [BY, winner, winner]
        assert setup.head().events == head.events + 3
        assert setup.verify().ok
    finally:
        for store in (setup, *writers):
            store.close()


def test_a_stale_version_names_the_stream_as_on_sqlite(tmp_path: Path, postgres_url: str) -> None:
    messages = []
    for target in (tmp_path / "ledger.sqlite", postgres_url):
        store = open_store(target, create=True)
        try:
            store.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
            store.append("s/b", cards("CQ", "DA"), expected_version=0, recorded_by=BY, recorded_at=AT)
            for batches in (
                [NewStreamEvents("s/a", 1, cards("H10")), NewStreamEvents("s/b", 1, cards("SK"))],
                [NewStreamEvents("s/a", 1, cards("H10")), NewStreamEvents("s/a", 1, cards("SK"))],
                [NewStreamEvents("s/new", 0, cards("H10")), NewStreamEvents("s/a", 0, cards("SK"))],
            ):
                with pytest.raises(ConcurrencyError) as stale:
                    store.append_streams(batches, recorded_by=BY, recorded_at=AT)
                messages.append(str(stale.value))
            assert store.head().events == 3
        finally:
            store.close()
    assert messages[:3] == messages[3:]
    assert messages[:3] == [
        f"stream {stream!r} is at version {version}, expected {expected}: someone else recorded first;"
        " nothing more was written (the 3 events recorded before it stand)"
        for stream, version, expected in (("s/b", 2, 1), ("s/a", 2, 1), ("s/a", 1, 0))
    ]


def test_a_ledger_made_before_the_function_gets_it_on_open(postgres_url: str) -> None:
    store = _open(postgres_url, create=True)
    store.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"DROP FUNCTION {NAME}")
    assert not _has_function(postgres_url)
    again = _open(postgres_url)
    try:
        assert _has_function(postgres_url)
        again.append("s/a", cards("H10"), expected_version=1, recorded_by=BY, recorded_at=AT)
        sent = _statements(again)
        again.append("s/a", cards("DA"), expected_version=2, recorded_by=BY, recorded_at=AT)
        assert len(sent) == 1
        assert again.head().events == 3 and again.verify().ok
    finally:
        again.close()


def test_without_the_function_an_append_takes_the_statements_and_writes_the_same(
    tmp_path: Path, postgres_url: str
) -> None:
    lite = open_store(tmp_path / "ledger.sqlite", create=True)
    postgres = _open(postgres_url, create=True)
    postgres._one_trip = False  # as for a user who may not make the function
    try:
        _appends(lite)
        _appends(postgres)
        assert _rows(postgres) == _rows(lite)
    finally:
        lite.close()
        postgres.close()


def test_a_long_append_goes_in_by_the_statements_and_writes_the_same(tmp_path: Path, postgres_url: str) -> None:
    lite = open_store(tmp_path / "ledger.sqlite", create=True)
    postgres = _open(postgres_url, create=True)
    try:
        for store in (lite, postgres):
            store.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        sent = _statements(postgres)
        for store in (lite, postgres):
            store.append("s/long", cards("DA") * (ROWS_AT_MOST + 1), expected_version=0, recorded_by=BY, recorded_at=AT)
            store.append("s/a", cards("DA") * ROWS_AT_MOST, expected_version=1, recorded_by=BY, recorded_at=AT)
        assert sent[0].startswith("BEGIN") and sent[-1] == f"SELECT * FROM {NAME}(?, ?, ?, ?, ?, ?, ?)"
        assert _rows(postgres) == _rows(lite)
        assert postgres.verify().ok
    finally:
        lite.close()
        postgres.close()


def test_unknown_event_types_are_refused_also_after_another_writer_noted_them(postgres_url: str) -> None:
    store = _open(postgres_url, create=True)
    other = _open(postgres_url)
    try:
        store.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        other.append("s/b", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        # another writer notes a type this store has not seen (known): taken, and the append made
        other.append("s/b", [DealAbandoned(AbandonReason.MISDEAL)], expected_version=1, recorded_by=BY, recorded_at=AT)
        store.append("s/a", cards("H10"), expected_version=1, recorded_by=BY, recorded_at=AT)
        # one this doko_ledger does not know: refused, nothing written
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            (row,) = conn.execute("SELECT value FROM ledger WHERE key = 'event_types'").fetchall()
            future = json.dumps(json.loads(row[0]) | {"FutureThing": 1}, sort_keys=True)
            conn.execute("UPDATE ledger SET value = %s WHERE key = 'event_types'", [future])
        with pytest.raises(LedgerReadOnly) as refused:
            store.append("s/a", cards("DA"), expected_version=2, recorded_by=BY, recorded_at=AT)
        assert str(refused.value) == (
            f"cannot write to {store.where}: it holds events this doko_ledger does not know (FutureThing v1);"
            " upgrade doko_ledger to write to it; nothing was written"
        )
        assert store.head().events == 4 and store.verify().ok
    finally:
        store.close()
        other.close()


def test_a_ledgers_connection_plans_for_its_indexes_and_compiles_no_query(postgres_url: str) -> None:
    """Scans priced out (every statement is written for an index) would make a scan that must be
    made look costly enough to compile to machine code: `doko verify`'s comparison of its
    temporary tables took 0.6 s a table that way."""
    store = open_store(postgres_url, create=True)
    try:
        settings = store.db.execute("SELECT current_setting('enable_seqscan'), current_setting('jit')").fetchone()
        assert tuple(settings) == ("off", "off")
    finally:
        store.close()
