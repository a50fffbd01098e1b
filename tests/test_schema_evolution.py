"""A ledger written with version-1 GameStarted events still verifies, replays and scores
after GameStarted gained version 2 (`note`): rows are upcast when read, never rewritten."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from doko_ledger.events.doppelkopf import GameStarted
from doko_ledger.formats import game_file
from doko_ledger.ledger import Ledger

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "ledger-v1.sqlite"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


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
            assert game_file.dumps(ledger.record(game_id)) == by_id[game_id].read_text(encoding="utf-8")
            assert sum(ledger.score(game_id).deltas) == 0
        assert [g["game_id"] for g in ledger.games()] == ids
