"""The event store contract: append-only, optimistic concurrency, hash chains, schemas, upcasting;
every test on SQLite and on PostgreSQL (`ledger_target`) unless it is about a file."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from backends import Attacker, Client, sqlite_only
from cli_helpers import exists

from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.events import CardPlayed, GameStarted
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.events.codec import Event, EventCodecError, decode_event, event, upcaster
from doko_ledger.events.envelope import GENESIS, chain_hash
from doko_ledger.i18n import render
from doko_ledger.store.base import ConcurrencyError, EventStore, LedgerError, NewStreamEvents
from doko_ledger.store.open import open_store
from doko_ledger.store.verify import VerifyReport

AT = "2026-11-28T20:00:00.000000+00:00"
BY = "tester"


# -- throwaway event types for upcasting (registered once, for this module) ------------------


@event(version=2)
class TestThing(Event):
    """v1 had `name`; v2 splits it into `first` and `last`."""

    __test__ = False  # not a pytest test class
    first: str
    last: str


@upcaster("TestThing", 1)
def _thing_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    first, _, last = payload["name"].partition(" ")
    return {"first": first, "last": last}


@event(version=3)
class TestChain(Event):
    """v1 `n`; v2 `count`; v3 `count` and `doubled`."""

    __test__ = False
    count: int
    doubled: int


@upcaster("TestChain", 1)
def _chain_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    return {"count": payload["n"]}


@upcaster("TestChain", 2)
def _chain_v2_to_v3(payload: dict[str, Any]) -> dict[str, Any]:
    return {**payload, "doubled": payload["count"] * 2}


@event(version=3)
class TestGap(Event):
    """Only the 2 -> 3 step is known: a v1 row cannot be read."""

    __test__ = False
    value: int


@upcaster("TestGap", 2)
def _gap_v2_to_v3(payload: dict[str, Any]) -> dict[str, Any]:
    return payload


# -- helpers ---------------------------------------------------------------------------------


def cards(*texts: str) -> list[CardPlayed]:
    return [CardPlayed(i % 4, parse_card(t)) for i, t in enumerate(texts)]


def raw(target: str | Path) -> Client:
    """A plain connection in autocommit mode: what `sqlite3` or `psql` would open."""
    return Client(target)


def count(target: str | Path) -> int:
    with raw(target) as conn:
        return int(conn.rows("SELECT count(*) FROM events")[0][0])


def drop_triggers(target: str | Path) -> Attacker:
    return Attacker(target)


def insert_row(
    target: str | Path, *, position: int, stream: str, version: int, kind: str, schema: int, payload: Any
) -> None:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    with Attacker(target) as conn:
        conn.execute(
            "INSERT INTO events (position, stream, version, type, schema_version, payload, recorded_at, recorded_by,"
            " prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [position, stream, version, kind, schema, text, AT, BY, GENESIS, "0" * 64],
        )


def seed_two_streams(store: EventStore) -> None:
    """s/a: versions 1-4 at positions 1-3 and 6; s/b: versions 1-2 at positions 4-5."""
    store.append("s/a", cards("CQ", "H10", "DA"), expected_version=0, recorded_by=BY, recorded_at=AT)
    store.append("s/b", cards("SK", "S9"), expected_version=0, recorded_by=BY, recorded_at=AT)
    store.append("s/a", cards("CJ"), expected_version=3, recorded_by=BY, recorded_at=AT)


# -- appending and reading -------------------------------------------------------------------


def test_append_returns_envelopes_with_stream_versions_and_global_positions(store: EventStore) -> None:
    first = store.append("s/a", cards("CQ", "H10", "DA"), expected_version=0, recorded_by=BY, recorded_at=AT)
    second = store.append("s/b", cards("SK", "S9"), expected_version=0, recorded_by="other", recorded_at=AT)
    third = store.append("s/a", cards("CJ"), expected_version=3, recorded_by=BY, recorded_at=AT)

    assert [(e.stream, e.version, e.position) for e in first + second + third] == [
        ("s/a", 1, 1),
        ("s/a", 2, 2),
        ("s/a", 3, 3),
        ("s/b", 1, 4),
        ("s/b", 2, 5),
        ("s/a", 4, 6),
    ]
    assert {e.event_type for e in first} == {"CardPlayed"}
    assert {e.schema_version for e in first} == {1}
    assert second[0].recorded_by == "other"
    assert first[0].recorded_at == AT


def test_envelopes_chain_their_hashes_over_every_position(store: EventStore) -> None:
    seed_two_streams(store)
    prev = GENESIS
    for r in store.read_all():
        e = r.envelope
        assert e.prev_hash == prev
        payload = json.dumps({"card": str(r.event.card), "seat": r.event.seat}, separators=(",", ":"))
        assert e.hash == chain_hash(prev, e.position, e.stream, e.version, e.event_type, 1, payload, AT, BY)
        prev = e.hash
    assert store.head() == (prev, 6, 6)


def test_read_stream_is_in_version_order_and_holds_the_events(store: EventStore) -> None:
    seed_two_streams(store)
    a = store.read_stream("s/a")
    assert [r.envelope.version for r in a] == [1, 2, 3, 4]
    assert [r.envelope.position for r in a] == [1, 2, 3, 6]
    assert [r.event for r in a] == cards("CQ", "H10", "DA") + [CardPlayed(0, parse_card("CJ"))]
    assert store.read_stream("s/nothing") == []


def test_read_all_is_in_global_order_and_resumes_after_a_position(store: EventStore) -> None:
    seed_two_streams(store)
    everything = list(store.read_all())
    assert [r.envelope.position for r in everything] == [1, 2, 3, 4, 5, 6]
    assert [r.envelope.stream for r in everything] == ["s/a"] * 3 + ["s/b"] * 2 + ["s/a"]
    assert [str(r.event.card) for r in everything] == ["CQ", "H10", "DA", "SK", "S9", "CJ"]
    assert [r.envelope.position for r in store.read_all(after_position=4)] == [5, 6]
    assert list(store.read_all(after_position=6)) == []


def test_heads_and_stream_names(store: EventStore) -> None:
    assert store.last_position() == 0
    assert store.stream_version("s/a") == 0
    seed_two_streams(store)
    assert store.last_position() == 6
    assert store.stream_version("s/a") == 4
    assert store.stream_version("s/b") == 2
    assert store.streams() == ["s/a", "s/b"]
    assert store.streams("s/b") == ["s/b"]
    grouped = list(store.iter_stream_events("s/"))
    assert [(s.stream, len(s.events), s.first_position, s.last_position) for s in grouped] == [
        ("s/a", 4, 1, 6),
        ("s/b", 2, 4, 5),
    ]
    assert grouped[0].events == [r.event for r in store.read_stream("s/a")]
    assert next(store.iter_stream_events("s/", up_to_position=2)).events == grouped[0].events[:2]


def test_stream_prefix_treats_like_wildcards_literally(store: EventStore) -> None:
    for stream in ("game/a_b", "game/axb", "game/a%c", "game/abc"):
        store.append(stream, cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    assert store.streams("game/a_") == ["game/a_b"]
    assert store.streams("game/a%") == ["game/a%c"]
    assert len(store.streams("game/")) == 4


def test_events_survive_reopening_the_file(ledger_target: str | Path) -> None:
    first = open_store(ledger_target, create=True)
    seed_two_streams(first)
    first.close()
    again = open_store(ledger_target)
    try:
        assert [r.envelope.position for r in again.read_all()] == [1, 2, 3, 4, 5, 6]
        assert again.verify().ok
    finally:
        again.close()


# -- optimistic concurrency ------------------------------------------------------------------


@pytest.mark.parametrize("stale", [0, 2, 4])
def test_append_at_a_stale_expected_version_raises_and_writes_nothing(
    store: EventStore, ledger_target: str | Path, stale: int
) -> None:
    store.append("s/a", cards("CQ", "H10", "DA"), expected_version=0, recorded_by=BY, recorded_at=AT)
    before = count(ledger_target)
    with pytest.raises(ConcurrencyError, match=r"'s/a' is at version 3, expected " + str(stale)):
        store.append("s/a", cards("CJ", "SJ"), expected_version=stale, recorded_by=BY, recorded_at=AT)
    assert count(ledger_target) == before == 3
    assert store.stream_version("s/a") == 3
    assert store.last_position() == 3


def test_concurrency_error_exit_code_is_distinct() -> None:
    assert ConcurrencyError.exit_code == 3


def test_append_streams_is_all_or_nothing(store: EventStore, ledger_target: str | Path) -> None:
    store.append("s/b", cards("SK"), expected_version=0, recorded_by=BY, recorded_at=AT)
    batches = [NewStreamEvents("s/a", 0, cards("CQ", "H10")), NewStreamEvents("s/b", 0, cards("S9"))]
    with pytest.raises(ConcurrencyError, match="s/b"):
        store.append_streams(batches, recorded_by=BY, recorded_at=AT)
    assert count(ledger_target) == 1
    assert store.read_stream("s/a") == []
    # the store is still usable after the rolled-back transaction
    store.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    assert count(ledger_target) == 2


def test_second_connection_with_a_stale_version_fails(ledger_target: str | Path) -> None:
    one = open_store(ledger_target, create=True)
    two = open_store(ledger_target)
    try:
        # both read the head of the stream before either writes
        assert one.stream_version("game/x") == two.stream_version("game/x") == 0
        one.append("game/x", cards("CQ", "H10"), expected_version=0, recorded_by="one", recorded_at=AT)
        with pytest.raises(ConcurrencyError):
            two.append("game/x", cards("SK"), expected_version=0, recorded_by="two", recorded_at=AT)
        assert [r.envelope.recorded_by for r in two.read_stream("game/x")] == ["one", "one"]
        assert count(ledger_target) == 2
        # with the fresh version the second writer succeeds
        two.append("game/x", cards("SK"), expected_version=2, recorded_by="two", recorded_at=AT)
        assert one.stream_version("game/x") == 3
        assert one.verify().ok
    finally:
        one.close()
        two.close()


def test_racing_writers_in_threads_exactly_one_wins(ledger_target: str | Path) -> None:
    open_store(ledger_target, create=True).close()
    writers = 4
    barrier = threading.Barrier(writers)
    outcome: dict[str, str] = {}

    def write(name: str) -> None:
        store = open_store(ledger_target)
        try:
            barrier.wait(timeout=10)
            store.append("game/race", cards("CQ", "H10", "DA"), expected_version=0, recorded_by=name, recorded_at=AT)
            outcome[name] = "ok"
        except ConcurrencyError:
            outcome[name] = "refused"
        finally:
            store.close()

    threads = [threading.Thread(target=write, args=(f"w{i}",)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcome.values()) == ["ok"] + ["refused"] * (writers - 1)
    winner = next(name for name, result in outcome.items() if result == "ok")
    store = open_store(ledger_target)
    try:
        recorded = store.read_stream("game/race")
        assert [r.envelope.version for r in recorded] == [1, 2, 3]
        assert {r.envelope.recorded_by for r in recorded} == {winner}
        assert store.verify().ok
    finally:
        store.close()


# -- schemas ---------------------------------------------------------------------------------


def test_an_event_that_breaks_its_schema_is_refused_before_anything_is_written(
    store: EventStore, ledger_target: str | Path
) -> None:
    store.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    bad = [CardPlayed(1, parse_card("H10")), CardPlayed(7, parse_card("DA"))]
    with pytest.raises(EventCodecError, match=r"CardPlayed v1 .* at seat"):
        store.append("s/a", bad, expected_version=1, recorded_by=BY, recorded_at=AT)
    assert count(ledger_target) == 1
    assert store.stream_version("s/a") == 1


def test_a_bad_event_in_a_later_stream_of_a_batch_refuses_the_whole_batch(
    store: EventStore, ledger_target: str | Path
) -> None:
    bad_start = GameStarted("g", ("Anna", "Ben", "Clara"), 0, preset("standard"))
    batches = [NewStreamEvents("s/a", 0, cards("CQ")), NewStreamEvents("s/b", 0, [bad_start])]
    with pytest.raises(EventCodecError, match=r"GameStarted v3 .* at players"):
        store.append_streams(batches, recorded_by=BY, recorded_at=AT)
    assert count(ledger_target) == 0


# -- append-only -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        'UPDATE events SET payload = \'{"card":"CQ","seat":1}\' WHERE position = 2',
        "UPDATE events SET recorded_by = 'mallory'",
        "DELETE FROM events WHERE position = 2",
        "DELETE FROM events",
    ],
)
def test_update_and_delete_are_refused_by_triggers(
    store: EventStore, ledger_target: str | Path, statement: str
) -> None:
    seed_two_streams(store)
    before = [tuple(r) for r in raw(ledger_target).execute("SELECT * FROM events ORDER BY position")]
    with pytest.raises(store.database_errors, match="append-only"):
        raw(ledger_target).execute(statement)
    with pytest.raises(store.database_errors, match="append-only"):
        store.db.execute(statement)
    after = [tuple(r) for r in raw(ledger_target).execute("SELECT * FROM events ORDER BY position")]
    assert after == before


def _replace_position_2(conn: Any) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO events SELECT position, stream, version, type, schema_version,"
        ' \'{"card":"CQ","seat":1}\', recorded_at, recorded_by, prev_hash, hash FROM events WHERE position = 2'
    )


@sqlite_only
def test_insert_or_replace_cannot_overwrite_an_event(store: EventStore, ledger_target: str | Path) -> None:
    """REPLACE deletes the old row; the store's own connection (recursive triggers on) refuses it,
    and so must a plain sqlite3 connection (recursive triggers off), as in the sqlite3 shell."""
    seed_two_streams(store)
    original = raw(ledger_target).execute("SELECT payload FROM events WHERE position = 2").fetchone()
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        _replace_position_2(raw(ledger_target))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        _replace_position_2(store.db.conn)
    store.db.conn.rollback()
    assert raw(ledger_target).execute("SELECT payload FROM events WHERE position = 2").fetchone() == original


def said(report: VerifyReport) -> list[str]:
    """The report's problems as a reader reads them (in English here)."""
    return [render(problem) for problem in report.problems]


@sqlite_only
def test_verify_names_a_row_overwritten_by_replace(store: EventStore, ledger_target: str | Path) -> None:
    """An attacker who drops the append-only triggers and REPLACEs a row is still caught."""
    seed_two_streams(store)
    conn = raw(ledger_target)
    for trigger in ("events_append_only_replace", "events_append_only_delete"):
        conn.execute(f"DROP TRIGGER {trigger}")
    _replace_position_2(conn)
    report = store.verify()
    assert [p.split(":")[0] for p in said(report)] == ["position 2 (stream 's/a' version 2, CardPlayed)"]
    assert report.first_bad_position == 2


# -- verify ----------------------------------------------------------------------------------


def test_verify_passes_on_a_clean_ledger(store: EventStore) -> None:
    assert store.verify().ok
    assert store.verify().head == GENESIS
    seed_two_streams(store)
    report = store.verify()
    assert report.ok
    assert said(report) == []
    assert (report.events, report.streams, report.position) == (6, 2, 6)
    assert report.head == next(r for r in store.read_all(after_position=5)).envelope.hash
    assert report.first_bad_position is None


def test_verify_names_an_edited_payload(store: EventStore, ledger_target: str | Path) -> None:
    seed_two_streams(store)
    conn = drop_triggers(ledger_target)
    conn.execute("UPDATE events SET payload = ? WHERE stream = 's/a' AND version = 2", ['{"card":"HA","seat":1}'])
    report = store.verify()
    assert not report.ok
    assert len(said(report)) == 1
    assert "position 2 (stream 's/a' version 2, CardPlayed)" in said(report)[0]
    assert "altered" in said(report)[0]


def test_verify_names_the_next_event_when_an_attacker_also_rewrites_the_hash(
    store: EventStore, ledger_target: str | Path
) -> None:
    seed_two_streams(store)
    conn = drop_triggers(ledger_target)
    position, stream, version, kind, schema, _, at, by, prev, _ = conn.execute(
        "SELECT * FROM events WHERE position = 2"
    ).fetchone()
    payload = '{"card":"HA","seat":1}'
    forged = chain_hash(prev, position, stream, version, kind, schema, payload, at, by)
    conn.execute("UPDATE events SET payload = ?, hash = ? WHERE position = 2", [payload, forged])
    report = store.verify()
    assert not report.ok
    assert len(said(report)) == 1
    assert "position 3 (stream 's/a' version 3, CardPlayed)" in said(report)[0]
    assert "chain is broken" in said(report)[0]


def test_verify_names_an_edited_envelope_column(store: EventStore, ledger_target: str | Path) -> None:
    seed_two_streams(store)
    drop_triggers(ledger_target).execute("UPDATE events SET recorded_by = 'mallory' WHERE position = 5")
    report = store.verify()
    assert [p.split(":")[0] for p in said(report)] == ["position 5 (stream 's/b' version 2, CardPlayed)"]


def test_verify_names_both_events_when_two_payloads_are_swapped(store: EventStore, ledger_target: str | Path) -> None:
    seed_two_streams(store)
    conn = drop_triggers(ledger_target)
    p2, p3 = (conn.execute("SELECT payload FROM events WHERE position = ?", [p]).fetchone()[0] for p in (2, 3))
    conn.execute("UPDATE events SET payload = ? WHERE position = 2", [p3])
    conn.execute("UPDATE events SET payload = ? WHERE position = 3", [p2])
    report = store.verify()
    assert not report.ok
    named = [p.split(":")[0] for p in said(report)]
    assert named == [
        "position 2 (stream 's/a' version 2, CardPlayed)",
        "position 3 (stream 's/a' version 3, CardPlayed)",
    ]
    assert all("altered" in p for p in said(report))


def test_verify_reports_a_missing_middle_event(store: EventStore, ledger_target: str | Path) -> None:
    seed_two_streams(store)
    drop_triggers(ledger_target).execute("DELETE FROM events WHERE position = 2")
    report = store.verify()
    assert not report.ok
    assert report.first_bad_position == 2
    assert said(report)[0].startswith("position 2: missing (the next event is at 3)")


def test_verify_reports_a_payload_that_no_longer_matches_its_schema(
    store: EventStore, ledger_target: str | Path
) -> None:
    seed_two_streams(store)
    conn = drop_triggers(ledger_target)
    # rewrite the payload and recompute the whole chain from there: only the schema check is left
    rows = conn.execute("SELECT * FROM events ORDER BY position").fetchall()
    prev = GENESIS
    for position, stream, version, kind, schema, payload, at, by, _, _ in rows:
        if position == 4:
            payload = '{"card":"XZ","seat":9}'
        digest = chain_hash(prev, position, stream, version, kind, schema, payload, at, by)
        conn.execute(
            "UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE position = ?",
            [payload, prev, digest, position],
        )
        prev = digest
    report = store.verify()
    assert len(said(report)) == 1
    assert said(report)[0].startswith("position 4 (stream 's/b' version 1, CardPlayed): CardPlayed v1")


def test_verify_names_a_chained_row_it_has_no_schema_for(store: EventStore, ledger_target: str | Path) -> None:
    """A row written by a newer doko_ledger (or another game module) cannot be checked against a
    schema here; verify must say so by name rather than fail."""
    seed_two_streams(store)
    prev = store.head().hash
    for position, stream, kind, schema in [(7, "s/c", "FutureEvent", 1), (8, "s/d", "CardPlayed", 2)]:
        payload = '{"x":1}'
        digest = chain_hash(prev, position, stream, 1, kind, schema, payload, AT, BY)
        with raw(ledger_target) as conn:
            conn.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [position, stream, 1, kind, schema, payload, AT, BY, prev, digest],
            )
        prev = digest
    report = store.verify()
    named = [p.split(":")[0] for p in said(report)]
    assert named == [
        "position 7 (stream 's/c' version 1, FutureEvent)",
        "position 8 (stream 's/d' version 1, CardPlayed)",
    ]


# -- upcasting and unreadable rows -----------------------------------------------------------


def test_decode_event_upcasts_an_old_row() -> None:
    assert decode_event("TestThing", 1, '{"name": "Anna Schmidt"}') == TestThing("Anna", "Schmidt")
    assert decode_event("TestThing", 2, '{"first": "Ben", "last": "Meier"}') == TestThing("Ben", "Meier")


def test_decode_event_upcasts_step_by_step() -> None:
    assert decode_event("TestChain", 1, '{"n": 4}') == TestChain(4, 8)
    assert decode_event("TestChain", 2, '{"count": 5}') == TestChain(5, 10)
    assert decode_event("TestChain", 3, '{"count": 5, "doubled": 1}') == TestChain(5, 1)


def test_an_old_row_is_read_upcast_and_never_rewritten(store: EventStore, ledger_target: str | Path) -> None:
    old_payload = '{"name": "Clara Vogel"}'
    insert_row(ledger_target, position=1, stream="test/1", version=1, kind="TestThing", schema=1, payload=old_payload)
    (recorded,) = store.read_stream("test/1")
    assert recorded.event == TestThing("Clara", "Vogel")
    assert recorded.envelope.event_type == "TestThing"
    assert recorded.envelope.schema_version == 1  # the stored version, not the current one
    assert [r.event for r in store.read_all()] == [TestThing("Clara", "Vogel")]
    row = raw(ledger_target).execute("SELECT schema_version, payload FROM events").fetchone()
    assert row == (1, old_payload)


def test_a_row_without_an_upcast_path_is_refused(store: EventStore, ledger_target: str | Path) -> None:
    with pytest.raises(EventCodecError, match="no upcaster for TestGap v1"):
        decode_event("TestGap", 1, '{"value": 1}')
    assert decode_event("TestGap", 2, '{"value": 1}') == TestGap(1)


def test_a_row_newer_than_the_code_is_refused(store: EventStore, ledger_target: str | Path) -> None:
    with pytest.raises(EventCodecError, match=r"CardPlayed v2 is newer than this doko_ledger knows \(v1\)"):
        decode_event("CardPlayed", 2, '{"seat": 0, "card": "CQ"}')
    insert_row(ledger_target, position=1, stream="s/new", version=1, kind="CardPlayed", schema=2, payload={})
    with pytest.raises(EventCodecError, match="newer than this doko_ledger knows"):
        store.read_stream("s/new")
    with pytest.raises(EventCodecError, match="newer than this doko_ledger knows"):
        list(store.read_all())


def test_a_row_of_an_unknown_type_is_refused(store: EventStore, ledger_target: str | Path) -> None:
    with pytest.raises(EventCodecError, match="unknown event type 'NoSuchEvent'"):
        decode_event("NoSuchEvent", 1, "{}")
    insert_row(ledger_target, position=1, stream="s/x", version=1, kind="NoSuchEvent", schema=1, payload={})
    with pytest.raises(EventCodecError, match="unknown event type"):
        store.read_stream("s/x")


def test_a_row_missing_a_field_is_refused() -> None:
    with pytest.raises(EventCodecError, match="cannot read CardPlayed"):
        decode_event("CardPlayed", 1, '{"seat": 0}')


# -- opening ---------------------------------------------------------------------------------


def test_open_without_create_refuses_a_missing_ledger_and_creates_nothing(ledger_target: str | Path) -> None:
    with pytest.raises(LedgerError, match="no ledger at"):
        open_store(ledger_target)
    assert not exists(ledger_target)


@sqlite_only
def test_open_refuses_a_file_that_is_not_sqlite(ledger_target: str | Path) -> None:
    ledger_target.write_text("just some text, not a database\n" * 10)
    with pytest.raises(LedgerError, match="not a readable SQLite ledger"):
        open_store(ledger_target)


def test_open_refuses_another_sqlite_database(ledger_target: str | Path) -> None:
    with raw(ledger_target) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(LedgerError, match="not a doko_ledger ledger"):
        open_store(ledger_target)
    assert not raw(ledger_target).has_table("events")


def test_a_new_ledger_records_its_format(store: EventStore, ledger_target: str | Path) -> None:
    assert raw(ledger_target).rows("SELECT value FROM ledger WHERE key = 'format'") == [("doko-ledger/2",)]
