"""Ledger files that are not what they seem, or cannot be used as asked: one line, the right exit.

The files are in tests/bad_inputs/ledgers/ (made by tools/make_bad_ledgers.py); each test works on
a copy. Read-only files are exercised for real: as root (which file permissions do not stop),
`doko` runs in a child process without the capabilities that override them.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import as_json, flat, ok, one_error_line, refused, run_doko, snapshot
from typer.testing import Result

from doko_ledger.store.base import EventStore, LedgerBusy

Cli = Callable[..., Result]
TESTS = Path(__file__).resolve().parents[1]
LEDGERS = TESTS / "bad_inputs" / "ledgers"
SAMPLES = TESTS.parent / "sample_games"
GAME = SAMPLES / "01-normal.yaml"
OTHER = SAMPLES / "02-diamond-solo.yaml"


def _copy(name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    shutil.copyfile(LEDGERS / name, path)
    return path


# -- files that are not ledgers ---------------------------------------------------------------------


@pytest.mark.parametrize("command", [("games",), ("verify",), ("head",), ("replay", "#1")])
def test_a_read_command_never_makes_an_empty_file_a_ledger(cli: Cli, tmp_path: Path, command: tuple[str, ...]) -> None:
    path = _copy("empty.sqlite", tmp_path)
    refused(cli(*command, db=path), "is an empty file, not a ledger")
    assert snapshot(path) == {"empty.sqlite": b""}


def test_import_makes_a_ledger_of_a_new_or_empty_file(cli: Cli, tmp_path: Path) -> None:
    path = _copy("empty.sqlite", tmp_path)
    ok(cli("import", GAME, db=path))
    assert ok(cli("verify", db=path)).exit_code == 0
    ok(cli("session", "start", "night", "--players", "Anna,Ben,Clara,Dirk", db=tmp_path / "new.sqlite"))
    assert ok(cli("verify", db=tmp_path / "new.sqlite")).exit_code == 0


@pytest.mark.parametrize(
    "command",
    [("import", str(GAME)), ("games",), ("verify",), ("session", "start", "night", "--players", "Anna,Ben,Clara,Dirk")],
)
def test_another_programs_database_is_never_touched(cli: Cli, tmp_path: Path, command: tuple[str, ...]) -> None:
    path = _copy("foreign.sqlite", tmp_path)
    before = snapshot(path)
    refused(cli(*command, db=path), "is not a doko_ledger ledger (it has no event table)")
    assert snapshot(path) == before
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert tables == {"recipes"}


@pytest.mark.parametrize("command", [("import", str(GAME)), ("games",)])
def test_a_file_that_is_not_sqlite_is_refused(cli: Cli, tmp_path: Path, command: tuple[str, ...]) -> None:
    path = _copy("not_sqlite.sqlite", tmp_path)
    before = snapshot(path)
    refused(cli(*command, db=path), "is not a readable SQLite ledger")
    assert snapshot(path) == before


# -- newer than this program -------------------------------------------------------------------------


def test_a_ledger_of_a_newer_format_is_read_but_never_written(cli: Cli, tmp_path: Path) -> None:
    path = _copy("newer_format.sqlite", tmp_path)
    before = snapshot(path)
    for command in (("import", OTHER), ("annotate", "#1", "a note"), ("rebuild",)):
        refused(cli(*command, db=path), "cannot write to", "doko-ledger/3, newer than this doko_ledger")
    result = cli("verify", db=path)  # its chain is checked; the format row is named
    assert result.exit_code == 4
    assert "the format row reads 'doko-ledger/3', not a format this doko_ledger knows" in flat(result.stdout)
    assert "every hash chain matches" not in flat(result.stdout)
    assert [g["game_id"] for g in as_json(cli("games", "--json", db=path))] == ["2026-11-28-kitchen-01-normal"]
    ok(cli("replay", "#1", "--all", db=path))
    assert snapshot(path) == before


def test_a_ledger_holding_an_unknown_event_type_is_read_but_never_written(cli: Cli, tmp_path: Path) -> None:
    path = _copy("unknown_event.sqlite", tmp_path)
    count = sqlite3.connect(path).execute("SELECT count(*) FROM events").fetchone()[0]
    line = refused(cli("import", OTHER, db=path), "holds events this doko_ledger does not know", "LeagueTableKept v1")
    assert "nothing was written" in line
    refused(cli("annotate", "#1", "a note", db=path), "LeagueTableKept v1")
    assert sqlite3.connect(path).execute("SELECT count(*) FROM events").fetchone()[0] == count
    assert [g["game_id"] for g in as_json(cli("games", "--json", db=path))] == ["2026-11-28-kitchen-01-normal"]


def test_a_new_event_type_is_noted_for_older_programs(ledger_path: Path, cli: Cli) -> None:
    ok(cli("import", GAME))
    ok(cli("annotate", "#1", "well played"))
    row = sqlite3.connect(ledger_path).execute("SELECT value FROM ledger WHERE key = 'event_types'").fetchone()
    assert '"AnnotationAdded": 1' in row[0] and '"GameStarted": 3' in row[0]


# -- a damaged file ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "code"),
    [(("verify",), 4), (("verify", "--json"), 4), (("rebuild",), 4), (("replay", "#1", "--all"), 4), (("games",), 4)],
)
def test_a_damaged_page_isone_error_line(cli: Cli, tmp_path: Path, command: tuple[str, ...], code: int) -> None:
    path = _copy("damaged_page.sqlite", tmp_path)
    result = cli(*command, db=path)
    assert result.exit_code == code
    refused(result, "damaged_page.sqlite is damaged", "database disk image is malformed")


# -- the write lock ----------------------------------------------------------------------------------


def test_a_write_that_waits_too_long_for_the_lock_exits_3_inone_error_line(
    cli: Cli, ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(cli("import", GAME))
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    holder = sqlite3.connect(ledger_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        before = sqlite3.connect(ledger_path).execute("SELECT count(*) FROM events").fetchone()[0]
        for command in (("import", OTHER), ("annotate", "#1", "a note")):
            result = cli(*command)
            assert result.exit_code == 3, result.output
            line = refused(result, "is locked by another writer (waited 0.2 s)", "nothing was written")
            assert line.count("error:") == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert sqlite3.connect(ledger_path).execute("SELECT count(*) FROM events").fetchone()[0] == before
    assert LedgerBusy.exit_code == 3


def test_reading_does_not_wait_for_a_writer(cli: Cli, ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ok(cli("import", GAME))
    ok(cli("games"))  # read models up to date: reading needs no write
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)
    holder = sqlite3.connect(ledger_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        for command in (("verify",), ("head",), ("games",), ("replay", "#1", "--all"), ("score", "#1")):
            ok(cli(*command))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# -- exports -----------------------------------------------------------------------------------------


def test_an_export_never_overwrites_the_ledger_or_another_sqlite_file(
    cli: Cli, ledger_path: Path, tmp_path: Path
) -> None:
    ok(cli("import", GAME))
    before = snapshot(ledger_path)
    refused(cli("export", "#1", "-o", ledger_path), "is the ledger itself")
    refused(cli("export", "#1", "-o", tmp_path / "." / ledger_path.name), "is the ledger itself")
    other = _copy("foreign.sqlite", tmp_path)
    other_bytes = other.read_bytes()
    refused(cli("export", "#1", "--format", "jsonl", "-o", other), "is an SQLite database")
    assert snapshot(ledger_path) == before
    assert other.read_bytes() == other_bytes
    ok(cli("verify"))


def test_an_export_is_written_whole_and_replaces_an_older_export(cli: Cli, ledger_path: Path, tmp_path: Path) -> None:
    ok(cli("import", GAME))
    target = tmp_path / "game.yaml"
    target.write_text("an older export\n", encoding="utf-8")
    ok(cli("export", "#1", "-o", target))
    assert target.read_text(encoding="utf-8") == GAME.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".game.yaml")] == []  # no temporary left
    refused(cli("export", "#1", "-o", tmp_path / "missing" / "game.yaml"), "cannot write the export")


# -- read-only files, for real -------------------------------------------------------------------------


def _without_file_powers() -> None:
    """In the child: drop the capabilities that let root write to read-only files and folders
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from the bounding set, so `exec` keeps neither."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _doko(db: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_doko(db, *args, preexec_fn=_without_file_powers)


@pytest.fixture
def archive(cli: Cli, tmp_path: Path) -> Path:
    """A ledger of two games, checkpointed into its one file, in a folder of its own."""
    folder = tmp_path / "archive"
    folder.mkdir()
    path = folder / "night.sqlite"
    ok(cli("import", GAME, OTHER, db=path))
    ok(cli("games", db=path))
    assert not (folder / "night.sqlite-wal").exists()
    return path


def test_the_child_really_cannot_write_a_read_only_file(archive: Path) -> None:
    archive.chmod(0o444)
    probe = subprocess.run(
        [sys.executable, "-c", f"open({str(archive)!r}, 'ab')"], capture_output=True, preexec_fn=_without_file_powers
    )
    assert probe.returncode != 0 and b"PermissionError" in probe.stderr


@pytest.mark.slow  # every read command in a process of its own
@pytest.mark.parametrize("read_only", ["file", "folder"])
def test_a_read_only_archive_is_read_and_verified_and_writing_says_it_is_read_only(
    archive: Path, read_only: str
) -> None:
    if read_only == "file":
        archive.chmod(0o444)
    else:  # the file could be written, but no -wal or -shm file can be made beside it
        archive.parent.chmod(0o555)
    try:
        before = snapshot(archive)
        verified = _doko(archive, "verify")
        assert verified.returncode == 0, verified.stderr
        assert "ledger verified" in flat(verified.stdout)
        head = _doko(archive, "head", "--json")
        assert head.returncode == 0, head.stderr
        for reading in (("games",), ("replay", "#1", "--all"), ("score", "#2"), ("log", "#1")):
            done = _doko(archive, *reading)
            assert done.returncode == 0, (reading, done.stderr)
        reason = "the file is read-only" if read_only == "file" else "its folder is read-only"
        for command in (("import", SAMPLES / "03-heart-solo.yaml"), ("annotate", "#1", "a note"), ("rebuild",)):
            one_error_line(_doko(archive, *command), 1, f"cannot write to {archive}", reason, "nothing was written")
        assert snapshot(archive) == before  # no -wal or -shm made beside it either
    finally:
        archive.parent.chmod(0o755)
        archive.chmod(0o644)


def test_a_stale_read_model_of_a_read_only_archive_is_caught_up_in_memory(cli: Cli, archive: Path) -> None:
    ok(cli("import", SAMPLES / "03-heart-solo.yaml", db=archive))  # the read models are now behind
    archive.chmod(0o444)
    try:
        before = snapshot(archive)
        done = _doko(archive, "games", "--json")
        assert done.returncode == 0, done.stderr
        assert done.stdout.count('"game_id"') == 3
        assert snapshot(archive) == before
    finally:
        archive.chmod(0o644)


def test_no_ledger_is_made_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        one_error_line(
            _doko(folder / "new.sqlite", "import", GAME), 1, "cannot make a ledger at", "its folder is read-only"
        )
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)
