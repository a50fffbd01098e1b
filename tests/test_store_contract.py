"""The event store's contract, on SQLite and on PostgreSQL alike (`ledger_target` runs each test
on both): appending and reading, optimistic concurrency, the global order, the append-only log,
the hash chain and its head, the write lock, read-only ledgers, and copying between the two.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from backends import Attacker
from conftest import random_game

from doko_ledger.cards import parse_card
from doko_ledger.events.copy import CopyRefused
from doko_ledger.events.doppelkopf import CardPlayed
from doko_ledger.events.envelope import GENESIS, chain_hash
from doko_ledger.events.store import (
    ConcurrencyError,
    EventStore,
    LedgerBusy,
    LedgerError,
    LedgerReadOnly,
    NewStreamEvents,
)
from doko_ledger.ledger import Ledger
from doko_ledger.streams import game_stream

AT = "2026-11-28T20:00:00.000000+00:00"
BY = "tester"


def cards(*texts: str) -> list[CardPlayed]:
    return [CardPlayed(i % 4, parse_card(t)) for i, t in enumerate(texts)]


@pytest.fixture
def store(ledger_target: str | Path) -> Iterator[EventStore]:
    opened = EventStore.open(ledger_target, create=True)
    yield opened
    opened.close()


def seed_two_streams(store: EventStore) -> None:
    """s/a: versions 1-4 at positions 1-3 and 6; s/b: versions 1-2 at positions 4-5."""
    store.append("s/a", cards("CQ", "H10", "DA"), expected_version=0, recorded_by=BY, recorded_at=AT)
    store.append("s/b", cards("SK", "S9"), expected_version=0, recorded_by=BY, recorded_at=AT)
    store.append("s/a", cards("CJ"), expected_version=3, recorded_by=BY, recorded_at=AT)


# -- appending and reading ---------------------------------------------------------------------


def test_envelopes_carry_stream_versions_global_positions_and_one_chain(store: EventStore) -> None:
    first = store.append("s/a", cards("CQ", "H10"), expected_version=0, recorded_by=BY, recorded_at=AT)
    second = store.append("s/b", cards("SK"), expected_version=0, recorded_by=BY, recorded_at=AT)
    assert [(e.stream, e.version, e.position) for e in first + second] == [("s/a", 1, 1), ("s/a", 2, 2), ("s/b", 1, 3)]
    prev = GENESIS
    for envelope in first + second:
        assert envelope.prev_hash == prev
        prev = envelope.hash
    assert store.head() == (prev, 3, 3)


def test_reads_give_the_events_in_stream_and_in_global_order(store: EventStore) -> None:
    seed_two_streams(store)
    assert [r.event for r in store.read_stream("s/a")] == cards("CQ", "H10", "DA") + cards("CJ")
    assert [r.envelope.position for r in store.read_all(after_position=3)] == [4, 5, 6]
    assert store.stream_version("s/a") == 4
    assert store.stream_version("s/none") == 0
    grouped = list(store.iter_stream_events("s/"))
    assert [(g.stream, len(g.events), g.first_position, g.last_position) for g in grouped] == [
        ("s/a", 4, 1, 6),
        ("s/b", 2, 4, 5),
    ]
    assert sorted(store.changed_streams("s/", 4, 6)) == ["s/a", "s/b"]
    assert store.changed_streams("s/", 5, 6) == ["s/a"]
    assert store.streams_without("s/", "CardPlayed") == []


def test_stream_names_sort_as_bytes_and_prefixes_are_literal(store: EventStore) -> None:
    """Prefix look-ups are ranges of the key and names sort by their UTF-8 bytes on both
    databases (on PostgreSQL whatever the database's collation): the same answers everywhere."""
    names = ["g/a_b", "g/a%b", "g/aXb", "g/Zoë", "g/zoe", "g/ä", "g/Ä", "g/a b", "g/🂡", "h/x"]
    for name in names:
        store.append(name, cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    assert store.streams("g/") == names[:-1]  # the order they were first recorded
    assert store.stream_names("g/", 100) == sorted(names[:-1], key=lambda n: n.encode())
    assert store.stream_names("g/a_", 10) == ["g/a_b"]
    assert store.stream_names("g/a%", 10) == ["g/a%b"]
    assert store.stream_names("g/ä", 10) == ["g/ä"]
    assert [s.stream for s in store.iter_stream_events("g/")] == sorted(names[:-1], key=lambda n: n.encode())


# -- optimistic concurrency --------------------------------------------------------------------


def test_a_stale_expected_version_is_refused_and_writes_nothing(store: EventStore) -> None:
    seed_two_streams(store)
    with pytest.raises(ConcurrencyError, match="someone else recorded first; nothing was written") as refused:
        store.append("s/a", cards("S9"), expected_version=3, recorded_by=BY, recorded_at=AT)
    assert refused.value.exit_code == 3
    assert store.head().events == 6


def test_several_streams_are_appended_all_or_nothing(store: EventStore) -> None:
    seed_two_streams(store)
    with pytest.raises(ConcurrencyError):
        store.append_streams(
            [NewStreamEvents("s/c", 0, cards("HA")), NewStreamEvents("s/b", 1, cards("HK"))],
            recorded_by=BY,
            recorded_at=AT,
        )
    assert store.stream_version("s/c") == 0
    assert store.head().events == 6


def test_a_second_connection_with_a_stale_version_loses(store: EventStore, ledger_target: str | Path) -> None:
    other = EventStore.open(ledger_target)
    try:
        version = other.stream_version("s/a")
        store.append("s/a", cards("CQ"), expected_version=version, recorded_by=BY, recorded_at=AT)
        with pytest.raises(ConcurrencyError):
            other.append("s/a", cards("CK"), expected_version=version, recorded_by=BY, recorded_at=AT)
    finally:
        other.close()
    assert [r.event for r in store.read_stream("s/a")] == cards("CQ")


def test_racing_threads_on_one_stream_exactly_one_wins(store: EventStore, ledger_target: str | Path) -> None:
    results: list[str] = []
    start = threading.Barrier(6)

    def write(n: int) -> None:
        own = EventStore.open(ledger_target)
        try:
            start.wait()
            own.append("s/race", cards("CQ"), expected_version=0, recorded_by=f"w{n}", recorded_at=AT)
            results.append("won")
        except ConcurrencyError:
            results.append("lost")
        finally:
            own.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["lost"] * 5 + ["won"]
    assert store.stream_version("s/race") == 1
    assert store.verify().ok


def test_a_writer_waiting_longer_than_the_busy_timeout_gets_exit_3(
    store: EventStore, ledger_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    other = EventStore.open(ledger_target)
    try:
        with store.transaction(), pytest.raises(LedgerBusy, match="locked by another writer") as busy:
            other.append("s/late", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        assert busy.value.exit_code == 3
        other.append("s/late", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)  # free again
    finally:
        other.close()
    assert store.stream_version("s/late") == 1


# -- the log is append-only --------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{}' WHERE position = 2",
        "UPDATE events SET hash = hash",
        "DELETE FROM events WHERE position = 2",
        "DELETE FROM events",
    ],
)
def test_update_and_delete_are_refused_by_the_database(store: EventStore, statement: str) -> None:
    seed_two_streams(store)
    before = [r.envelope for r in store.read_all()]
    with pytest.raises(LedgerError, match="append-only"), store.transaction():
        store.db.execute(statement)
    assert [r.envelope for r in store.read_all()] == before


def test_a_plain_client_cannot_change_the_log_either(store: EventStore, ledger_target: str | Path) -> None:
    """What `psql` or the `sqlite3` shell would send, the triggers on: refused."""
    seed_two_streams(store)
    if isinstance(ledger_target, Path):
        import sqlite3

        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            sqlite3.connect(ledger_target, isolation_level=None).execute("DELETE FROM events")
    else:
        import psycopg

        with psycopg.connect(ledger_target, autocommit=True) as conn:
            for statement in ("DELETE FROM events", "UPDATE events SET payload = '{}'", "TRUNCATE events"):
                with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                    conn.execute(statement)
    assert store.head().events == 6


# -- the hash chain and its head ---------------------------------------------------------------


def test_verify_passes_and_names_the_head(store: EventStore) -> None:
    assert store.verify().ok
    assert store.verify().head == GENESIS
    seed_two_streams(store)
    report = store.verify()
    assert report.ok
    assert (report.events, report.streams, report.position, report.format) == (6, 2, 6, "doko-ledger/2")
    assert report.head == store.head().hash
    assert store.verify(expect=report.head[:16]).ok
    assert store.verify("s/b").ok


def test_verify_names_an_edited_payload_at_its_position(
    store: EventStore, ledger_target: str | Path, attacker: type[Attacker]
) -> None:
    seed_two_streams(store)
    attacker(ledger_target).execute("UPDATE events SET payload = ? WHERE position = 2", ['{"card":"HA","seat":1}'])
    report = store.verify()
    assert not report.ok
    assert report.first_bad_position == 2
    assert report.problems == [
        "position 2 (stream 's/a' version 2, CardPlayed): hash does not match its content; the event was altered"
    ]


def test_verify_names_the_next_event_when_the_hash_is_rewritten_too(
    store: EventStore, ledger_target: str | Path, attacker: type[Attacker]
) -> None:
    seed_two_streams(store)
    edit = attacker(ledger_target)
    payload = '{"card":"HA","seat":1}'
    (prev,) = edit.rows("SELECT prev_hash FROM events WHERE position = 2")[0]
    forged = chain_hash(prev, 2, "s/a", 2, "CardPlayed", 1, payload, AT, BY)
    edit.execute("UPDATE events SET payload = ?, hash = ? WHERE position = 2", [payload, forged])
    report = store.verify()
    assert report.first_bad_position == 3
    assert "position 3 (stream 's/a' version 3, CardPlayed): its previous hash is not the hash" in report.problems[0]


def test_verify_names_a_deleted_event(store: EventStore, ledger_target: str | Path, attacker: type[Attacker]) -> None:
    seed_two_streams(store)
    attacker(ledger_target).execute("DELETE FROM events WHERE position = 4")
    report = store.verify()
    assert report.first_bad_position == 4
    assert "position 4: missing (the next event is at 5)" in report.problems[0]


def test_the_same_events_have_the_same_head_on_both_databases(tmp_path: Path, postgres_url: str) -> None:
    heads = []
    for target in (tmp_path / "ledger.sqlite", postgres_url):
        opened = EventStore.open(target, create=True)
        try:
            seed_two_streams(opened)
            heads.append((opened.head(), opened.verify().head))
        finally:
            opened.close()
    assert heads[0] == heads[1]
    assert heads[0][0].hash == heads[0][1]


# -- ledgers opened where they cannot be written ---------------------------------------------------


def test_a_newer_format_is_read_with_its_read_models_caught_up_privately(
    ledger_target: str | Path, attacker: type[Attacker]
) -> None:
    game = random_game(7, game_id="newer")
    opened = EventStore.open(ledger_target, create=True)
    try:
        opened.append(game_stream("newer"), game.events, expected_version=0, recorded_by=BY, recorded_at=AT)
    finally:
        opened.close()
    attacker(ledger_target).execute("UPDATE ledger SET value = 'doko-ledger/3' WHERE key = 'format'")
    with Ledger.open(ledger_target) as ledger:
        assert ledger.store.read_only is not None
        assert [row["game_id"] for row in ledger.games()] == ["newer"]  # folded where it changes nothing
        with pytest.raises(LedgerReadOnly, match="newer than this doko_ledger"):
            ledger.store.append("s/x", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    assert attacker(ledger_target).rows("SELECT count(*) FROM events") == [(len(game.events),)]
    untouched = EventStore.open(ledger_target)
    try:
        assert "games" not in untouched.db.table_names()  # no read model was written to the ledger
    finally:
        untouched.close()
    with Ledger.open(ledger_target) as again:  # nothing of the first reader's read models was kept
        assert again.store.read_only is not None
        assert [row["game_id"] for row in again.games()] == ["newer"]


def test_a_ledger_holding_unknown_events_refuses_writes(store: EventStore, ledger_target: str | Path) -> None:
    seed_two_streams(store)
    with store.transaction():
        store.db.execute("UPDATE ledger SET value = ? WHERE key = 'event_types'", [json.dumps({"FutureThing": 1})])
    other = EventStore.open(ledger_target)
    try:
        with pytest.raises(LedgerReadOnly, match=r"events this doko_ledger does not know \(FutureThing v1\)"):
            other.append("s/c", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        assert other.verify().ok
    finally:
        other.close()


def test_only_create_makes_a_ledger_and_another_database_is_never_touched(
    ledger_target: str | Path, attacker: type[Attacker]
) -> None:
    with pytest.raises(LedgerError, match=r"no ledger|empty database"):
        EventStore.open(ledger_target)
    EventStore.open(ledger_target, create=True).close()
    attacker(ledger_target).execute("CREATE TABLE other_things (x TEXT)")
    assert EventStore.open(ledger_target).verify().ok  # a ledger with a table more is still one


# -- copying a ledger, SQLite to PostgreSQL and back -----------------------------------------------


def _imported(target: str | Path, games: int) -> Ledger:
    ledger = Ledger.open(target, create=True)
    for seed in range(games):
        ledger.store.append(
            game_stream(f"g{seed}"),
            random_game(seed, game_id=f"g{seed}").events,
            expected_version=0,
            recorded_by=BY,
            recorded_at=AT,
        )
    return ledger


def test_a_copy_there_and_back_keeps_every_event_and_the_head(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "source.sqlite"
    back = tmp_path / "back.sqlite"
    with _imported(source, 3) as ledger:
        head = ledger.head()
        games = ledger.games()
        there = ledger.copy_to(postgres_url)
    assert there.head == head
    assert there.streams == 3
    with Ledger.open(postgres_url) as copy:
        assert copy.verify().head == head.hash
        assert copy.games() == games
        assert copy.copy_to(back).head == head
    with Ledger.open(back) as again, Ledger.open(source) as original:
        assert [r.envelope for r in again.store.read_all()] == [r.envelope for r in original.store.read_all()]


def test_a_copy_into_a_ledger_that_holds_events_is_refused(ledger_target: str | Path, tmp_path: Path) -> None:
    with _imported(tmp_path / "source.sqlite", 1) as source, _imported(ledger_target, 2) as target:
        before = target.head()
        with pytest.raises(CopyRefused, match=r"already holds \d+ events: a ledger is copied only into a new one"):
            source.copy_to(ledger_target)
        assert target.head() == before


def test_a_ledger_that_does_not_verify_is_not_copied(
    ledger_target: str | Path, tmp_path: Path, attacker: type[Attacker]
) -> None:
    with _imported(ledger_target, 2):
        pass
    attacker(ledger_target).execute("UPDATE events SET recorded_by = 'mallory' WHERE position = 3")
    copy = tmp_path / "copy.sqlite"
    with Ledger.open(ledger_target) as tampered, pytest.raises(CopyRefused, match="does not verify"):
        tampered.copy_to(copy)
    with Ledger.open(copy) as empty:
        assert empty.head().events == 0
