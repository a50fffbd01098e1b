"""`Ledger.import_files`: what `doko import` does, as a library call: games and sessions of
either game, each file all or nothing, duplicates refused, the refusals in the order of the
files, and no ledger made when no file is valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from doko_ledger.games import DOPPELKOPF, GAMES
from doko_ledger.ledger import Ledger
from doko_ledger.store.errors import LedgerBusy

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
AT = "2026-12-01T10:00:00+00:00"


def test_games_and_sessions_of_both_games_are_imported_and_the_refused_files_reported_in_order(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: doko-game/1\nplayers: [Anna]\n", encoding="utf-8")
    files = [
        bad,
        SAMPLES / "01-normal.yaml",
        SAMPLES / "sessions" / "01-kitchen-bock.yaml",
        SAMPLES / "doudizhu" / "01-landlord-rocket.yaml",
        SAMPLES / "doudizhu" / "sessions" / "2026-11-29-dorm.yaml",
        SAMPLES / "01-normal.yaml",  # the same game again
    ]
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        report = ledger.import_files(files, by="t", at=AT)
        listed = ledger.games()
        in_sessions = [
            game_id
            for game in GAMES
            for session_id in ledger.book_of(game).session_ids()
            for game_id in ledger.book_of(game).session_game_ids(session_id)
        ]
    assert report.sessions == 2
    assert report.games == 2 and report.events > 0
    assert [error.split(":")[0] for error in report.errors] == [str(bad), str(SAMPLES / "01-normal.yaml")]
    assert "is already in" in report.errors[1]
    assert {row["game"] for row in listed} == {"doppelkopf", "doudizhu"}
    assert len(in_sessions) > 2
    assert len(listed) == report.games + len(in_sessions)


def test_progress_is_told_for_each_game_file_read(tmp_path: Path) -> None:
    told: list[tuple[int, int]] = []
    files = [SAMPLES / "01-normal.yaml", SAMPLES / "02-diamond-solo.yaml", SAMPLES / "sessions" / "03-tournament.yaml"]
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        ledger.import_files(files, by="t", at=AT, progress=lambda done, total: told.append((done, total)))
    assert told == [(1, 2), (2, 2)]


def test_no_ledger_is_made_when_no_file_is_valid(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Anna]\n", encoding="utf-8")
    target = tmp_path / "never.sqlite"
    with Ledger.open(target, create=True, when_needed=True) as ledger:
        report = ledger.import_files([bad, tmp_path / "missing.yaml"], by="t", at=AT)
    assert len(report.errors) == 2 and report.games == report.sessions == 0
    assert not target.exists()


def test_a_failure_of_the_ledger_itself_stops_the_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        book = ledger.book_of(DOPPELKOPF)

        def busy(*args: object, **kwargs: object) -> None:
            raise LedgerBusy(ledger.store.where, 10, "nothing was written")

        monkeypatch.setattr(book, "import_session", busy)
        with pytest.raises(LedgerBusy):
            ledger.import_files([SAMPLES / "sessions" / "01-kitchen-bock.yaml"], by="t", at=AT)
