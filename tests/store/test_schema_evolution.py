"""A ledger written with version-1 GameStarted events still verifies, replays and scores
after GameStarted gained version 2 (`note`): rows are upcast when read, never rewritten."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import as_json, flat, ok, refused
from typer.testing import Result

from doko_ledger.doppelkopf.events import GameStarted
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.events.envelope import GENESIS, chain_hash
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.store.sqlite_database import Database
from doko_ledger.store.verify import verify_v1

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ledger-v1.sqlite"
Cli = Callable[..., Result]
SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "v1.sqlite"
    shutil.copyfile(FIXTURE, path)
    return path


def test_the_fixture_holds_version_1_rows() -> None:
    assert FIXTURE.stat().st_size > 0
    conn = sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True)
    rows = conn.execute("SELECT schema_version FROM events WHERE type = 'GameStarted'").fetchall()
    assert rows == [(1,), (1,), (1,)]
    assert GameStarted.schema_version == 3


def test_an_old_ledger_verifies_and_upcasts_on_read(tmp_path: Path) -> None:
    with Ledger.open(_copy(tmp_path)) as ledger:
        assert ledger.verify().ok
        for game_id in ledger.game_ids():
            started = ledger.events(game_id)[0]
            assert started.envelope.schema_version == 1
            assert isinstance(started.event, GameStarted)
            assert started.event.note is None


def test_an_old_ledger_replays_exports_and_scores_as_its_sample(tmp_path: Path) -> None:
    with Ledger.open(_copy(tmp_path)) as ledger:
        ids = ledger.game_ids()
        assert len(ids) == 3
        by_id = {game_file.read_file(p).record.id: p for p in SAMPLES.glob("*.yaml")}
        for game_id in ids:
            assert game_file.dumps(ledger.book_of(DOPPELKOPF).record(game_id)) == by_id[game_id].read_text(
                encoding="utf-8"
            )
            assert sum(ledger.book_of(DOPPELKOPF).score(game_id).deltas) == 0
        assert [g["game_id"] for g in ledger.games()] == ids


# -- the ledger format: doko-ledger/1 (chains per stream) upgraded once to doko-ledger/2 ------------


def _format(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("SELECT value FROM ledger WHERE key = 'format'").fetchone()[0])


def _events(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return [tuple(r) for r in conn.execute("SELECT * FROM events ORDER BY position")]


def test_a_format_1_ledger_is_upgraded_once_with_its_hashes_recomputed(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    assert _format(path) == "doko-ledger/1"
    old = _events(path)
    assert verify_v1(Database(sqlite3.connect(path)), None).ok  # verify before: the old chains hold
    with Ledger.open(path) as ledger:
        report = ledger.verify()
        assert report.ok and report.format == "doko-ledger/2"
        assert report.events == len(old)
    assert _format(path) == "doko-ledger/2"
    new = _events(path)
    # the events as they are, only the hashes recomputed: one chain over every position
    assert [r[:8] for r in new] == [r[:8] for r in old]
    prev = GENESIS
    for position, stream, version, kind, schema, payload, at, by, prev_hash, digest in new:
        assert prev_hash == prev
        assert digest == chain_hash(prev, int(str(position)), str(stream), int(str(version)), str(kind),
                                    int(str(schema)), str(payload), str(at), str(by))  # fmt: skip
        prev = str(digest)
    assert [r[9] for r in new] != [r[9] for r in old]
    # once: opening again changes nothing, and the append-only triggers came back with the new table
    with Ledger.open(path) as ledger:
        assert ledger.verify().ok
    assert _events(path) == new
    with sqlite3.connect(path) as conn, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE events SET recorded_by = 'mallory'")
    with sqlite3.connect(path) as conn:
        triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert triggers == {"events_append_only_update", "events_append_only_delete", "events_append_only_replace"}
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} >= {"events"}
        assert "events_upgraded" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


def test_the_upgraded_ledger_takes_new_games_and_the_cli_verifies_it(cli: Cli, tmp_path: Path) -> None:
    path = _copy(tmp_path)
    before = ok(cli("verify", db=path))
    assert "every hash chain matches" in flat(before.stdout)
    ok(cli("import", SAMPLES / "02-diamond-solo.yaml", db=path))
    head = as_json(cli("head", "--json", db=path))
    assert head["events"] == len(_events(path))
    ok(cli("verify", "--expect", head["head"], db=path))


def test_a_format_1_ledger_whose_chains_fail_is_not_upgraded_nor_written(cli: Cli, tmp_path: Path) -> None:
    path = _copy(tmp_path)
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("DROP TRIGGER events_append_only_update")
        conn.execute("UPDATE events SET recorded_by = 'mallory' WHERE position = 7")
    tampered = _events(path)
    result = cli("verify", db=path)
    assert result.exit_code == 4
    assert "position 7 (stream" in result.stdout and "the first at position 7" in flat(result.stdout)
    imported = cli("import", SAMPLES / "02-diamond-solo.yaml", db=path)
    line = refused(imported, "cannot write to", "hash chains do not verify")
    assert "doko-ledger/1" in line
    assert _format(path) == "doko-ledger/1"
    assert _events(path) == tampered
    assert cli("games", db=path).exit_code == 0  # reading what is there still works
