"""More of the event store's contract on SQLite and on PostgreSQL alike (`ledger_target` runs each
test on both), beside test_store.py: stream names and ranges whatever the collation, the write
lock's timeout, the same head on both, ledgers that cannot be written, and copying between the two.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from backends import Attacker
from conftest import random_game
from test_store import AT, BY, cards, seed_two_streams

from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError, EventStore, LedgerBusy, LedgerError, LedgerReadOnly
from doko_ledger.store.copy import CopyRefused
from doko_ledger.store.open import open_store
from doko_ledger.streams import game_stream

# -- appending and reading ---------------------------------------------------------------------


def test_the_streams_changed_between_two_positions_and_the_streams_without_an_event(store: EventStore) -> None:
    seed_two_streams(store)
    assert sorted(store.changed_streams("s/", 4, 6)) == ["s/a", "s/b"]
    assert store.changed_streams("s/", 5, 6) == ["s/a"]
    assert store.changed_streams("t/", 0, 6) == []
    assert store.streams_without("s/", "CardPlayed") == []
    assert store.streams_without("s/", "GameStarted") == ["s/a", "s/b"]
    assert store.streams_starting_with(["s/b", "s/a", "s/none"], ["CardPlayed"]) == ["s/b", "s/a"]


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


def _interleaved_streams(store: EventStore, count: int) -> list[str]:
    """`count` streams of one to four events each, appended in turns (positions not contiguous
    within a stream), named to sort as bytes in another order than they were made."""
    names = [f"g/{'Zoë' if i % 3 else 'zoe'}-{count - i:03d}" for i in range(count)]
    plays = ("CQ", "H10", "DA", "SK")
    for round_ in range(4):
        for i, name in enumerate(names):
            if round_ <= i % 4:
                store.append(name, cards(plays[round_]), expected_version=round_, recorded_by=BY, recorded_at=AT)
    return names


def test_many_streams_read_at_once_are_each_stream_as_read_alone(store: EventStore) -> None:
    """Read together (each stream's span first, then the events one after another), many
    streams give what each gives read alone, in byte order, with their first and last positions;
    a stream with no events is left out."""
    names = _interleaved_streams(store, 40)
    together = store.read_streams_events([*names, "g/none"])
    alone = [store.read_stream_events(name) for name in sorted(names, key=str.encode)]
    assert list(together) == alone
    assert [len(s.events) for s in alone[:4]] != [len(alone[0].events)] * 4  # streams of different lengths


def test_many_streams_read_at_once_where_a_stream_lost_its_first_event(
    store: EventStore, ledger_target: str | Path, attacker: type[Attacker]
) -> None:
    """A damaged log (a stream's first event deleted) is read as the rows are: the spans do not
    add up, and the events are read in one query."""
    names = _interleaved_streams(store, 20)
    attacker(ledger_target).execute("DELETE FROM events WHERE stream = ? AND version = 1", [names[3]])
    alone = [store.read_stream_events(name) for name in sorted(names, key=str.encode)]
    assert [s.stream for s in store.read_streams_events(names)] == [s.stream for s in alone if s is not None]
    assert list(store.read_streams_events(names)) == [s for s in alone if s is not None]
    assert len(next(s for s in alone if s is not None and s.stream == names[3]).events) == 3


def test_many_streams_read_outside_a_transaction_while_another_writer_appends(
    store: EventStore, ledger_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event appended between the spans and the events (a read outside a transaction) does
    not cut a stream short or shift the next: the events are then read in one query."""
    names = _interleaved_streams(store, 20)
    other = open_store(ledger_target)
    execute, appended = store.db.execute, []

    def append_after_the_spans(sql: str, parameters: Any = None) -> Any:
        rows = execute(sql, parameters)
        if "max(version)" in sql and not appended:
            appended.append(other.append(names[0], cards("CJ"), expected_version=1, recorded_by=BY, recorded_at=AT))
        return rows

    monkeypatch.setattr(store.db, "execute", append_after_the_spans)
    try:
        together = list(store.read_streams_events(names))
    finally:
        other.close()
    assert appended
    monkeypatch.undo()
    assert together == [store.read_stream_events(name) for name in sorted(names, key=str.encode)]
    assert [type(e).__name__ for e in together[-1].events].count("CardPlayed") == 2


# -- optimistic concurrency --------------------------------------------------------------------


def test_a_writer_waiting_longer_than_the_busy_timeout_gets_exit_3(
    store: EventStore, ledger_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    other = open_store(ledger_target)
    try:
        with store.transaction(), pytest.raises(LedgerBusy, match="locked by another writer") as busy:
            other.append("s/late", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        assert busy.value.exit_code == 3
        other.append("s/late", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)  # free again
    finally:
        other.close()
    assert store.stream_version("s/late") == 1


def test_a_write_that_fails_after_the_same_store_appended_says_that_what_it_appended_stands(
    store: EventStore, ledger_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that writes in steps (an import in batches) and fails at a later step is not
    told that nothing was written: the steps before it stand."""
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    other = open_store(ledger_target)
    try:
        other.append("s/a", cards("CQ", "SA"), expected_version=0, recorded_by=BY, recorded_at=AT)
        with store.transaction(), pytest.raises(LedgerBusy) as busy:
            other.append("s/b", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        assert str(busy.value).endswith(
            "is locked by another writer (waited 0.2 s): nothing more was written"
            " (the 2 events recorded before it stand); try again"
        )
        with pytest.raises(ConcurrencyError) as lost:
            other.append("s/a", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
        assert "nothing was written" not in str(lost.value)
        assert "someone else recorded first; nothing more was written" in str(lost.value)
    finally:
        other.close()
    assert [store.stream_version(s) for s in ("s/a", "s/b")] == [2, 0]
    fresh = open_store(ledger_target)
    try:
        with store.transaction(), pytest.raises(LedgerBusy, match="nothing was written; try again"):
            fresh.append("s/b", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
    finally:
        fresh.close()


# -- the log is append-only --------------------------------------------------------------------


def test_truncate_is_refused_on_postgresql(postgres_url: str) -> None:
    """UPDATE and DELETE are refused on both databases (test_store); PostgreSQL also has TRUNCATE."""
    import psycopg

    opened = open_store(postgres_url, create=True)
    try:
        seed_two_streams(opened)
        with (
            psycopg.connect(postgres_url, autocommit=True) as conn,
            pytest.raises(psycopg.errors.RaiseException, match="append-only"),
        ):
            conn.execute("TRUNCATE events")
        assert opened.head().events == 6
    finally:
        opened.close()


# -- the hash chain and its head ---------------------------------------------------------------


def test_the_same_events_have_the_same_head_on_both_databases(tmp_path: Path, postgres_url: str) -> None:
    heads = []
    for target in (tmp_path / "ledger.sqlite", postgres_url):
        opened = open_store(target, create=True)
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
    opened = open_store(ledger_target, create=True)
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
    untouched = open_store(ledger_target)
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
    other = open_store(ledger_target)
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
        open_store(ledger_target)
    open_store(ledger_target, create=True).close()
    attacker(ledger_target).execute("CREATE TABLE other_things (x TEXT)")
    assert open_store(ledger_target).verify().ok  # a ledger with a table more is still one


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


def test_a_database_user_who_may_only_read_reads_and_is_refused_writes(postgres_url: str) -> None:
    """A user with SELECT only: every read works once the read models are up to date; a write
    is one line, exit 1, and writes nothing."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    from psycopg import sql

    with _imported(postgres_url, 1) as ledger:
        games = ledger.games()
        head = ledger.head()
    role = f"doko_reader_{urlsplit(postgres_url).path.strip('/')}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA public TO {}").format(sql.Identifier(role)))
    parts = urlsplit(postgres_url)
    reader = urlunsplit(parts._replace(netloc=parts.netloc.replace(parts.username or "", role, 1)))
    try:
        with Ledger.open(reader) as read_only:
            assert read_only.games() == games
            assert read_only.verify().head == head.hash
            with pytest.raises(LedgerReadOnly, match="permission denied") as refused:
                read_only.store.append("s/x", cards("CQ"), expected_version=0, recorded_by=BY, recorded_at=AT)
            assert refused.value.exit_code == 1
        with Ledger.open(postgres_url) as ledger:
            assert ledger.head() == head
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_doko_db_may_name_a_postgresql_database(postgres_url: str, cli: Any, tmp_path: Path) -> None:
    with _imported(tmp_path / "source.sqlite", 2) as source:
        source.copy_to(postgres_url)
        expected = source.games()
    result = cli("games", "--json", db=None, env={"DOKO_DB": postgres_url})
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected


def test_doko_copy_there_and_back(postgres_url: str, cli: Any, tmp_path: Path) -> None:
    source, back = tmp_path / "source.sqlite", tmp_path / "back.sqlite"
    with _imported(source, 2) as ledger:
        head = ledger.head()
    result = cli("copy", "--to", postgres_url, "--json", db=source)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "from": str(source),
        "to": postgres_url,
        "streams": 2,
        "head": head.hash,
        "position": head.position,
        "events": head.events,
    }
    printed = cli("copy", "--to", back, db=postgres_url)
    assert printed.exit_code == 0, printed.output
    assert " ".join(printed.stdout.split()) == (
        f"copied {head.events} events in 2 streams from {postgres_url} to {back}"
        f" ledger head {head.hash} (position {head.position}, {head.events} events)"
    )
    again = cli("copy", "--to", postgres_url, db=back)
    assert again.exit_code == 1
    assert again.stderr.splitlines() == [
        f"error: {postgres_url} already holds {head.events} events: a ledger is copied only into a new one"
    ]


def test_a_postgresql_url_without_psycopg_installed_is_one_line() -> None:
    import subprocess
    import sys

    code = "import sys; sys.modules['psycopg'] = None; from doko_ledger.cli.app import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "--db", "postgresql://me@localhost/doko", "games"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error: a PostgreSQL ledger needs psycopg 3 (psycopg is not installed): pip install 'doko-ledger[postgres]'"
    ]


def test_open_store_chooses_the_backend_by_the_targets_scheme(ledger_target: str | Path) -> None:
    from doko_ledger.store.postgres import PostgresEventStore
    from doko_ledger.store.sqlite import SqliteEventStore

    opened = open_store(ledger_target, create=True)
    try:
        expected = PostgresEventStore if isinstance(ledger_target, str) else SqliteEventStore
        assert type(opened) is expected
    finally:
        opened.close()


def test_the_store_interface_imports_none_of_its_backends() -> None:
    import subprocess
    import sys

    code = "import sys, doko_ledger.store.base\nprint(sorted(m for m in sys.modules if 'doko_ledger.store' in m))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "doko_ledger.store.base" in shown
    assert "doko_ledger.store.sqlite'" not in shown and "doko_ledger.store.postgres'" not in shown
