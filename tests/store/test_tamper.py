"""Tamper evidence: one hash chain over every position, so the head covers the whole log.

Every kind of tampering is done the way an attacker with the file or the database would: a
plain `sqlite3` or `psycopg` connection, the append-only triggers dropped or disabled; on
SQLite and on PostgreSQL (`ledger_target`). Each must be caught by `verify`, naming the
first bad position; where the attacker recomputes every hash after the change (the log is
then consistent on its own), `verify --expect` with a head noted before catches it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from backends import Attacker, ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, flat, ok
from typer.testing import Result

from doko_ledger.events.envelope import GENESIS, chain_hash
from doko_ledger.ledger import Ledger
from doko_ledger.store import verify
from doko_ledger.store.open import open_store

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
Cli = Callable[..., Result]
GAMES = ["01-normal.yaml", "14-marriage-first-trick.yaml", "18-poverty.yaml"]


@pytest.fixture
def ledger(cli: Cli, ledger_path: str | Path) -> Iterator[str | Path]:
    """Three games, one after another: the middle game's stream is neither first nor last."""
    ok(cli("import", *(SAMPLES / g for g in GAMES)))
    yield ledger_path


def _conn(target: str | Path) -> Attacker:
    return Attacker(target)


def _rows(conn: Attacker) -> list[tuple[object, ...]]:
    return conn.rows("SELECT * FROM events ORDER BY position")


def _middle(conn: Attacker) -> tuple[int, int]:
    """The first and last positions of the middle game."""
    streams = [r[0] for r in conn.execute("SELECT stream FROM events WHERE version = 1 ORDER BY position")]
    row = conn.execute("SELECT min(position), max(position) FROM events WHERE stream = ?", [streams[1]]).fetchone()
    return int(row[0]), int(row[1])


def _rechain(conn: Attacker, start: int = 1) -> None:
    """Recompute every hash from `start` on, as an attacker covering their tracks would."""
    rows = conn.execute("SELECT * FROM events WHERE position >= ? ORDER BY position", [start]).fetchall()
    before = conn.execute("SELECT hash FROM events WHERE position = ?", [start - 1]).fetchone()
    prev = GENESIS if before is None else before[0]
    for position, stream, version, kind, schema, payload, at, by, _, _ in rows:
        digest = chain_hash(prev, position, stream, version, kind, schema, payload, at, by)
        conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?", [prev, digest, position])
        prev = digest


def _rechain_one(conn: Attacker, position: int) -> None:
    """Recompute only one event's hash from its own stored prev_hash."""
    row = conn.execute("SELECT * FROM events WHERE position = ?", [position]).fetchone()
    _, stream, version, kind, schema, payload, at, by, prev, _ = row
    digest = chain_hash(prev, position, stream, version, kind, schema, payload, at, by)
    conn.execute("UPDATE events SET hash = ? WHERE position = ?", [digest, position])


# Each tampering returns the first bad position verify must name.
Tamper = Callable[[Attacker], int]


def _edit(conn: Attacker, position: int) -> None:
    """A payload changed in a way that still reads (a space after a colon)."""
    edit = "UPDATE events SET payload = replace(payload, '\"seat\":', '\"seat\": ') WHERE position = ?"
    conn.execute(edit, [position])


def edit_payload(conn: Attacker) -> int:
    first, _ = _middle(conn)
    p = first + 20
    _edit(conn, p)
    return p


def edit_payload_and_its_hash(conn: Attacker) -> int:
    first, _ = _middle(conn)
    p = first + 20
    _edit(conn, p)
    _rechain_one(conn, p)
    return p + 1  # its own hash matches now; the next event's link to it does not


def edit_author(conn: Attacker) -> int:
    first, _ = _middle(conn)
    conn.execute("UPDATE events SET recorded_by = 'mallory' WHERE position = ?", [first + 3])
    return first + 3


def edit_time(conn: Attacker) -> int:
    first, _ = _middle(conn)
    conn.execute("UPDATE events SET recorded_at = '2020-01-01T00:00:00+00:00' WHERE position = ?", [first])
    return first


def delete_middle_event(conn: Attacker) -> int:
    first, _ = _middle(conn)
    conn.execute("DELETE FROM events WHERE position = ?", [first + 5])
    return first + 5


def delete_and_renumber(conn: Attacker) -> int:
    """Delete the middle game's last event and close the gap: every later position moves down."""
    _, last = _middle(conn)
    conn.execute("DELETE FROM events WHERE position = ?", [last])
    conn.execute("UPDATE events SET position = -position WHERE position > ?", [last])
    conn.execute("UPDATE events SET position = -position - 1 WHERE position < 0")
    return last


def delete_a_stream_s_last_events_and_renumber_and_rechain_it(conn: Attacker) -> int:
    """The attack of the old per-stream chains: the middle game loses its last two events,
    positions are closed up, and the middle game's events are re-hashed."""
    first, last = _middle(conn)
    conn.execute("DELETE FROM events WHERE position IN (?, ?)", [last - 1, last])
    conn.execute("UPDATE events SET position = -position WHERE position > ?", [last])
    conn.execute("UPDATE events SET position = -position - 2 WHERE position < 0")
    for p in range(first, last - 1):
        _rechain_one(conn, p)
    return last - 1


def insert_event(conn: Attacker) -> int:
    """A copy of an event of the middle game put in after it, later positions moved up."""
    first, _ = _middle(conn)
    p = first + 10
    conn.execute("UPDATE events SET position = -position - 1 WHERE position > ?", [p])
    conn.execute("UPDATE events SET position = -position WHERE position < 0")
    conn.execute(
        "INSERT INTO events SELECT position + 1, stream, version + 1000, type, schema_version, payload,"
        " recorded_at, recorded_by, hash, hash FROM events WHERE position = ?",
        [p],
    )
    return p + 1


def reorder_two_events(conn: Attacker) -> int:
    first, _ = _middle(conn)
    a, b = first + 12, first + 13
    conn.execute("UPDATE events SET position = -1 WHERE position = ?", [a])
    conn.execute("UPDATE events SET position = ? WHERE position = ?", [a, b])
    conn.execute("UPDATE events SET position = ? WHERE position = -1", [b])
    return a


def swap_streams(conn: Attacker) -> int:
    """Two events exchange their streams (and versions): each game gets the other's card."""
    first, last = _middle(conn)
    a, b = first + 14, last + 14
    row_a = conn.execute("SELECT stream, version FROM events WHERE position = ?", [a]).fetchone()
    row_b = conn.execute("SELECT stream, version FROM events WHERE position = ?", [b]).fetchone()
    conn.execute("UPDATE events SET stream = 'x', version = 9999 WHERE position = ?", [a])
    conn.execute("UPDATE events SET stream = ?, version = ? WHERE position = ?", [*row_a, b])
    conn.execute("UPDATE events SET stream = ?, version = ? WHERE position = ?", [*row_b, a])
    return a


def rechain_a_middle_stream(conn: Attacker) -> int:
    """The middle game's payload edited and all its events re-hashed in a chain of their own."""
    first, last = _middle(conn)
    _edit(conn, first + 8)
    prev = conn.execute("SELECT hash FROM events WHERE position = ?", [first - 1]).fetchone()[0]
    for position in range(first, last + 1):
        conn.execute("UPDATE events SET prev_hash = ? WHERE position = ?", [prev, position])
        _rechain_one(conn, position)
        prev = conn.execute("SELECT hash FROM events WHERE position = ?", [position]).fetchone()[0]
    return last + 1  # the next game's first event still links to the old hash


def renumber_positions(conn: Attacker) -> int:
    """Every position from the middle game on moved up by ten."""
    first, _ = _middle(conn)
    conn.execute("UPDATE events SET position = -position - 10 WHERE position >= ?", [first])
    conn.execute("UPDATE events SET position = -position WHERE position < 0")
    return first


TAMPERINGS: list[Tamper] = [
    edit_payload,
    edit_payload_and_its_hash,
    edit_author,
    edit_time,
    delete_middle_event,
    delete_and_renumber,
    delete_a_stream_s_last_events_and_renumber_and_rechain_it,
    insert_event,
    reorder_two_events,
    swap_streams,
    rechain_a_middle_stream,
    renumber_positions,
]


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda t: t.__name__)
def test_every_tampering_is_caught_at_its_first_bad_position(cli: Cli, ledger: str | Path, tamper: Tamper) -> None:
    head = as_json(cli("head", "--json"))
    with _conn(ledger) as conn:
        before = _rows(conn)
        first_bad = tamper(conn)
    with _conn(ledger) as after:
        assert _rows(after) != before
    with Ledger.open(ledger) as opened:
        report = opened.verify()
    assert not report.ok
    assert report.first_bad_position == first_bad, report.problems
    assert str(report.problems[0]).startswith(f"position {first_bad}"), report.problems
    result = cli("verify")
    assert result.exit_code == 4
    assert f"the first at position {first_bad}" in flat(result.stdout)
    assert cli("verify", "--expect", head["head"]).exit_code == 4


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda t: t.__name__)
def test_a_tampering_with_every_later_hash_recomputed_is_caught_by_the_noted_head(
    cli: Cli, ledger: str | Path, tamper: Tamper
) -> None:
    """The attacker recomputes the whole chain after the change: the log is consistent on its
    own, but no longer extends the head noted before."""
    noted = as_json(cli("head", "--json"))
    with _conn(ledger) as conn:
        first_bad = tamper(conn)
        _rechain(conn)
        early = conn.execute("SELECT hash FROM events WHERE position = ?", [first_bad - 1]).fetchone()[0]
    with Ledger.open(ledger) as opened:
        forged = opened.verify()
        assert not opened.verify(expect=noted["head"]).ok
        assert opened.verify(expect=early).expected_at == first_bad - 1  # a head from before is still there
        if forged.ok:  # every hash recomputed: only the noted head tells
            assert forged.head != noted["head"]
            assert opened.verify(expect=early).ok
    result = cli("verify", "--expect", noted["head"])
    assert result.exit_code == 4
    assert "is not the hash of any event of this log" in flat(result.stdout)


def test_deleting_the_newest_event_is_caught_by_the_noted_head(cli: Cli, ledger: str | Path) -> None:
    noted = as_json(cli("head", "--json"))
    with _conn(ledger) as conn:
        conn.execute("DELETE FROM events WHERE position = ?", [noted["position"]])
    with Ledger.open(ledger) as opened:
        assert opened.store.verify().ok  # a shorter log is consistent on its own
    for command in (("verify",), ("verify", "--quick")):  # but the read models have folded the deleted event
        result = cli(*command)
        assert result.exit_code == 4
        folded = f"has folded the log up to position {noted['position']}, but the log ends at position"
        assert folded in flat(result.stdout)
    result = cli("verify", "--expect", noted["head"])
    assert result.exit_code == 4
    data = json.loads(cli("verify", "--expect", noted["head"], "--json").stdout)
    assert data["ok"] is False and data["expected_at"] is None


def test_the_head_names_its_position_and_is_extended_by_later_events(cli: Cli, ledger: str | Path) -> None:
    noted = as_json(cli("head", "--json"))
    assert noted["position"] == noted["events"] > 0
    assert len(noted["head"]) == 64
    line = ok(cli("head")).stdout.strip()
    assert line == f"ledger head {noted['head']} (position {noted['position']}, {noted['events']} events)"
    ok(cli("annotate", "#2", "a later note"))
    later = as_json(cli("head", "--json"))
    assert later["position"] == noted["position"] + 1 and later["head"] != noted["head"]
    for expect in (noted["head"], noted["head"][:16], later["head"].upper()):
        result = ok(cli("verify", "--expect", expect))
        assert "it extends the expected head" in flat(result.stdout)
    data = as_json(cli("verify", "--expect", noted["head"], "--json"))
    assert data["expected_at"] == noted["position"]


@pytest.mark.parametrize("bad", ["abc", "g" * 64, "0" * 15, "1" * 65])
def test_an_expected_head_that_is_not_a_hash_is_a_usage_error(cli: Cli, ledger: str | Path, bad: str) -> None:
    result = cli("verify", "--expect", bad)
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: --expect")


def test_an_empty_ledger_has_the_genesis_head(ledger_path: Path) -> None:
    store = open_store(ledger_path, create=True)
    assert tuple(store.head()) == (GENESIS, 0, 0)
    assert store.verify(expect=GENESIS).ok
    store.close()


# What `verify` remembers is bounded (`store.verify`: the payloads it checked, each stream's last
# version); what it forgets must not change what it finds. With room for one payload and one
# stream it forgets at nearly every row, and must name the same problems as with room for all.

BAD_CARD = '{"card":"CX","seat":1}'


def recur_a_bad_payload(conn: Attacker) -> int:
    """The same card no deck has, played in the first game and again in the last, every hash
    recomputed: only the payload's schema tells, twice, with other payloads checked between."""
    plays = conn.execute("SELECT position FROM events WHERE type = 'CardPlayed' ORDER BY position").fetchall()
    first, last = int(plays[2][0]), int(plays[-2][0])
    conn.execute("UPDATE events SET payload = ? WHERE position IN (?, ?)", [BAD_CARD, first, last])
    _rechain(conn)
    return first


def resume_a_stream_out_of_order(conn: Attacker) -> int:
    """One event of the first game moved to the end of the log: its stream skips a version
    there, and takes it up again after two other games' streams."""
    streams = [r[0] for r in conn.execute("SELECT stream FROM events WHERE version = 1 ORDER BY position")]
    moved, end = conn.execute(
        "SELECT (SELECT position FROM events WHERE stream = ? AND version = 5), max(position) FROM events",
        [streams[0]],
    ).fetchone()
    conn.execute("UPDATE events SET position = ? WHERE position = ?", [end + 1, moved])
    conn.execute("UPDATE events SET position = -position + 1 WHERE position > ?", [moved])
    conn.execute("UPDATE events SET position = -position WHERE position < 0")
    _rechain(conn)
    return moved


def restart_a_stream(conn: Attacker) -> int:
    """The first game's first event put at the end of the log: its stream starts at version 2,
    and its version 1 comes after two other games' streams."""
    first, end = conn.execute("SELECT min(position), max(position) FROM events").fetchone()
    conn.execute("UPDATE events SET position = ? WHERE position = ?", [end + 1, first])
    conn.execute("UPDATE events SET position = -position + 1 WHERE position > ?", [first])
    conn.execute("UPDATE events SET position = -position WHERE position < 0")
    _rechain(conn)
    return first


FORGETTING: list[Tamper] = [recur_a_bad_payload, resume_a_stream_out_of_order, restart_a_stream]


def _report(ledger: str | Path) -> tuple[object, ...]:
    with Ledger.open(ledger) as opened:
        report = opened.store.verify()
    problems = [str(problem) for problem in report.problems]  # as a reader reads them
    return problems, report.more_problems, report.first_bad_position, report.events, report.streams, report.head


@pytest.mark.parametrize("tamper", FORGETTING, ids=lambda t: t.__name__)
def test_what_verify_forgets_is_checked_again(
    cli: Cli, ledger: str | Path, tamper: Tamper, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _conn(ledger) as conn:
        first_bad = tamper(conn)
    remembering = _report(ledger)
    problems, _, first, _, streams, _ = remembering
    assert first == first_bad, problems
    assert streams == len(GAMES)
    monkeypatch.setattr(verify, "PAYLOADS_KEPT", 1)
    monkeypatch.setattr(verify, "STREAMS_KEPT", 1)
    assert _report(ledger) == remembering


def test_a_bad_payload_is_named_each_time_it_recurs(
    cli: Cli, ledger: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _conn(ledger) as conn:
        first = recur_a_bad_payload(conn)
        last = conn.execute("SELECT max(position) FROM events WHERE payload = ?", [BAD_CARD]).fetchone()[0]
    monkeypatch.setattr(verify, "PAYLOADS_KEPT", 1)
    problems = _report(ledger)[0]
    assert isinstance(problems, list) and len(problems) == 2
    assert problems[0].startswith(f"position {first} ") and problems[1].startswith(f"position {last} ")
    assert all("CardPlayed" in p and "CX" in p for p in problems), problems


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda t: t.__name__)
def test_every_tampering_is_named_alike_by_a_verify_that_forgets(
    cli: Cli, ledger: str | Path, tamper: Tamper, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _conn(ledger) as conn:
        tamper(conn)
    remembering = _report(ledger)
    monkeypatch.setattr(verify, "PAYLOADS_KEPT", 1)
    monkeypatch.setattr(verify, "STREAMS_KEPT", 1)
    assert _report(ledger) == remembering


def test_verify_names_what_it_found_in_the_readers_language(cli: Cli, ledger: str | Path) -> None:
    quick = flat(ok(cli("--lang", "de", "verify", "--quick")).stdout)
    assert "Lesemodelle: übersprungen (--quick: die Lesemodelle wurden nicht mit dem Protokoll verglichen)" in quick
    with _conn(ledger) as conn:
        position = edit_payload(conn)
    german = cli("--lang", "de", "verify")
    assert german.exit_code == 4
    said = flat(german.stdout)
    assert f"Position {position} (Strom " in said
    assert "der Hash passt nicht zum Inhalt; das Ereignis wurde geändert" in said
    assert "Lesemodelle: nicht verglichen (das Protokoll selbst ist nicht bestätigt)" in said
    answer = cli("--lang", "fr", "verify", "--json")
    assert answer.exit_code == 4
    english = json.loads(answer.stdout)  # for scripts: English in any language
    assert english["problems"][0].endswith("hash does not match its content; the event was altered")
    assert english["read_models_note"] == "the log itself does not verify"
