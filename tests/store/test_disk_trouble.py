"""A disk that fails the ledger is not a damaged ledger: a full disk or an I/O error is one line
naming the cause, exit 1, and nothing written; the ledger verifies afterwards. Exit 4 is kept
for a file that really is corrupt, and something that is not a file at all (`--db /dev/null`,
a named pipe) is not a ledger (exit 1).

The conditions are real. A full disk is a small tmpfs, filled (mounting one needs root: without
it, or where mounting is not permitted, those cases are skipped, saying so); on PostgreSQL, the
ledger's tables are in a tablespace on such a disk (that needs a superuser and a server on this
machine). An I/O error is a child process whose files may not grow (RLIMIT_FSIZE 0, SIGXFSZ
ignored): every write fails with EFBIG, which SQLite reports as a disk I/O error.
"""

from __future__ import annotations

import errno
import os
import random
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cli_helpers import as_json, flat, ok, one_error_line, refused, run_doko
from postgres import PostgresServer
from typer.testing import Result

from doko_ledger.store.location import shown

Cli = Callable[..., Result]
SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
GAME = SAMPLES / "01-normal.yaml"
OTHER = SAMPLES / "02-diamond-solo.yaml"
WRITES = (("import", str(OTHER)), ("annotate", "#1", "a note"), ("session", "start", "n", "--players", "A,B,C,D"))


def _games(cli: Cli, db: str | Path) -> list[str]:
    return [g["game_id"] for g in as_json(cli("games", "--json", db=db))]


def _verifies(cli: Cli, db: str | Path) -> None:
    assert "ledger verified: 54 events" in flat(ok(cli("verify", db=db)).stdout)


# -- a full disk ---------------------------------------------------------------------------------


@contextmanager
def _tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A file system of `size` of its own (a tmpfs) mounted on `folder`, unmounted afterwards;
    skips the test where that cannot be done."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system (a tmpfs) to fill needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of 1 MiB of its own."""
    folder = tmp_path / "disk"
    folder.mkdir()
    with _tmpfs(folder, "1m"):
        yield folder


def _fill(disk: Path, room: int) -> Path:
    """Fill the disk, then free `room` bytes; returns the file that fills it."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as fh:
        try:
            while fh.write(b"\0" * 4096):
                pass
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    os.truncate(filler, max(0, filler.stat().st_size - room))
    return filler


@pytest.fixture
def ledger_on_small_disk(cli: Cli, small_disk: Path) -> Path:
    path = small_disk / "night.sqlite"
    ok(cli("import", GAME, db=path))
    ok(cli("games", db=path))  # read models up to date, the log checkpointed into the file
    return path


@pytest.mark.parametrize(
    "room",
    [
        pytest.param(0, id="no room: SQLite's -shm file cannot be made"),
        pytest.param(36 * 1024, id="room for the -shm file but not for the first page of the log"),
    ],
)
@pytest.mark.parametrize("command", WRITES, ids=lambda c: c[0])
def test_a_full_disk_is_one_line_and_nothing_is_written(
    cli: Cli, ledger_on_small_disk: Path, room: int, command: tuple[str, ...]
) -> None:
    before = ledger_on_small_disk.read_bytes()
    filler = _fill(ledger_on_small_disk.parent, room)
    result = cli(*command, db=ledger_on_small_disk)
    assert result.exit_code == 1, result.output
    refused(result, f"the disk holding {ledger_on_small_disk} is full: nothing was written")
    filler.unlink()
    assert ledger_on_small_disk.read_bytes() == before
    _verifies(cli, ledger_on_small_disk)
    assert _games(cli, ledger_on_small_disk) == ["2026-11-28-kitchen-01-normal"]
    assert as_json(cli("session", "list", "--json", db=ledger_on_small_disk)) == []
    ok(cli(*command, db=ledger_on_small_disk))  # with room again, the same command works


def test_an_export_onto_a_full_disk_keeps_the_older_file(cli: Cli, ledger_path: Path, small_disk: Path) -> None:
    ok(cli("import", GAME))
    target = small_disk / "game.yaml"
    target.write_text("an older export\n", encoding="utf-8")
    filler = _fill(small_disk, 0)
    result = cli("export", "#1", "-o", target)
    assert result.exit_code == 1, result.output
    refused(result, f"{target}: cannot write the export: the disk is full", "nothing was written")
    assert target.read_text(encoding="utf-8") == "an older export\n"
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "game.yaml"]  # no temporary left
    filler.unlink()
    ok(cli("export", "#1", "-o", target))
    assert target.read_text(encoding="utf-8") == GAME.read_text(encoding="utf-8")


@pytest.fixture
def postgres_on_small_disk(postgres_server: PostgresServer) -> Iterator[tuple[str, Path]]:
    """A PostgreSQL database whose tables are made in a tablespace on a file system of 8 MiB of
    its own, and that file system; the database, the tablespace and the mount go afterwards."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(postgres_server.url, autocommit=True) as admin:
        superuser, data = admin.execute(
            "SELECT rolsuper, current_setting('data_directory') FROM pg_roles WHERE rolname = current_user"
        ).fetchone() or (False, "")
    if not superuser:
        pytest.skip("a tablespace (on the small file system) can only be made by a PostgreSQL superuser")
    if not os.path.isdir(data):
        pytest.skip("the PostgreSQL server is not on this machine: its tablespace cannot be put on a small disk")
    owner = os.stat(data)
    folder = Path(tempfile.mkdtemp(prefix="doko-pg-disk-"))
    folder.chmod(0o755)  # the server's user passes through
    name = f"doko_test_full_{os.getpid()}"
    tablespace = sql.Identifier(name)
    try:
        with _tmpfs(folder, "8m"):
            os.chown(folder, owner.st_uid, owner.st_gid)
            folder.chmod(0o700)
            url = postgres_server.create_database()
            try:
                with psycopg.connect(postgres_server.url, autocommit=True) as admin:
                    admin.execute(sql.SQL("CREATE TABLESPACE {} LOCATION {}").format(tablespace, str(folder)))
                    admin.execute(
                        sql.SQL("ALTER DATABASE {} SET default_tablespace = {}").format(
                            sql.Identifier(urlsplit(url).path.lstrip("/")), sql.Literal(name)
                        )
                    )
                yield url, folder
            finally:
                postgres_server.drop_database(url)
                with psycopg.connect(postgres_server.url, autocommit=True) as admin:
                    admin.execute(sql.SQL("DROP TABLESPACE IF EXISTS {}").format(tablespace))
    finally:
        folder.rmdir()


def test_a_full_disk_under_postgresql_is_one_line_and_nothing_is_written(
    cli: Cli, postgres_on_small_disk: tuple[str, Path]
) -> None:
    """A game's events need new pages of the event table (a row that fits in a page the table
    has already is written, full disk or not)."""
    url, disk = postgres_on_small_disk
    command = ("import", str(OTHER))
    ok(cli("import", GAME, db=url))
    ok(cli("games", db=url))
    filler = _fill(disk, 0)
    result = cli(*command, db=url)
    assert result.exit_code == 1, result.output
    line = refused(result, f"the disk holding {shown(url)} is full: nothing was written")
    assert "No space left on device" in line
    filler.unlink()
    _verifies(cli, url)
    assert _games(cli, url) == ["2026-11-28-kitchen-01-normal"]
    assert as_json(cli("session", "list", "--json", db=url)) == []
    ok(cli(*command, db=url))


# -- an I/O error --------------------------------------------------------------------------------


def _files_may_not_grow() -> None:
    """In the child: every write to a file fails with EFBIG (the signal it would raise ignored)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


@pytest.fixture
def ledger(cli: Cli, ledger_path: Path) -> Path:
    ok(cli("import", GAME))
    ok(cli("games"))
    return ledger_path


@pytest.mark.parametrize(
    ("reader", "code"),
    [
        pytest.param(False, "SQLITE_IOERR_SHMOPEN", id="making the -shm file"),
        pytest.param(True, "SQLITE_IOERR_WRITE", id="writing the log (another reader holds the -shm file)"),
    ],
)
@pytest.mark.parametrize("command", WRITES, ids=lambda c: c[0])
def test_an_io_error_is_one_line_and_nothing_is_written(
    cli: Cli, ledger: Path, reader: bool, code: str, command: tuple[str, ...]
) -> None:
    before = ledger.read_bytes()
    holder = sqlite3.connect(ledger) if reader else None
    try:
        if holder is not None:
            holder.execute("SELECT count(*) FROM events").fetchone()
        done = run_doko(ledger, *command, preexec_fn=_files_may_not_grow)
    finally:
        if holder is not None:
            holder.close()
    line = one_error_line(done, 1, f"cannot write to {ledger}: the disk reported an I/O error ({code})")
    assert line.endswith("nothing was written") and "damaged" not in line
    assert ledger.read_bytes() == before
    _verifies(cli, ledger)
    assert _games(cli, ledger) == ["2026-11-28-kitchen-01-normal"]


def test_an_export_that_may_not_grow_its_file_keeps_the_older_file(ledger: Path, tmp_path: Path) -> None:
    target = tmp_path / "game.yaml"
    target.write_text("an older export\n", encoding="utf-8")
    holder = sqlite3.connect(ledger)  # the -shm file made: the ledger is read without a write
    try:
        holder.execute("SELECT count(*) FROM events").fetchone()
        done = run_doko(ledger, "export", "#1", "-o", target, preexec_fn=_files_may_not_grow)
    finally:
        holder.close()
    one_error_line(done, 1, f"{target}: cannot write the export: the file would grow past the size allowed")
    assert target.read_text(encoding="utf-8") == "an older export\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".game")) == []


# -- not a ledger file at all ----------------------------------------------------------------------


@pytest.mark.parametrize("command", [("games",), ("verify",), ("import", str(GAME))])
def test_dev_null_is_not_a_ledger(cli: Cli, command: tuple[str, ...]) -> None:
    result = cli(*command, db=Path("/dev/null"))
    assert result.exit_code == 1
    refused(result, "/dev/null is a character device, not a ledger (a ledger is a file, or a postgresql:// URL)")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_named_pipe_is_not_a_ledger_and_is_not_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for command in (("games",), ("import", GAME)):
        one_error_line(run_doko(pipe, *command, timeout=60), 1, f"{pipe} is a named pipe (FIFO), not a ledger")
    assert stat.S_ISFIFO(pipe.lstat().st_mode)


def test_a_folder_is_not_a_ledger(cli: Cli, tmp_path: Path) -> None:
    result = cli("import", GAME, db=tmp_path)
    assert result.exit_code == 1
    refused(result, f"{tmp_path} is a folder, not a ledger")


# -- a file that really is corrupt: still exit 4 ---------------------------------------------------


def _garbage(path: Path, start: int, end: int) -> None:
    data = bytearray(path.read_bytes())
    data[start:end] = random.Random(21).randbytes(len(data[start:end]))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("start", "end", "says"),
    [
        pytest.param(4096, None, "database disk image is malformed", id="every page after the first"),
        pytest.param(16, 24, "file is not a database", id="the header after SQLite's magic"),
    ],
)
@pytest.mark.parametrize("command", [("verify",), ("games",), ("import", str(OTHER))], ids=lambda c: c[0])
def test_a_page_of_garbage_is_damage(
    cli: Cli, ledger: Path, tmp_path: Path, start: int, end: int | None, says: str, command: tuple[str, ...]
) -> None:
    damaged = tmp_path / "damaged.sqlite"
    shutil.copyfile(ledger, damaged)
    _garbage(damaged, start, end or damaged.stat().st_size)
    before = damaged.read_bytes()
    result = cli(*command, db=damaged)
    assert result.exit_code == 4, result.output
    refused(result, f"{damaged} is damaged", says)
    assert damaged.read_bytes() == before
