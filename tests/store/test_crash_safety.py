"""A process killed while it imports leaves a ledger that opens, verifies and holds whole games,
on SQLite and on PostgreSQL (`ledger_target`).

300 generated game files are imported by a subprocess, through the Python API in batches
and through `doko import`, which is killed with SIGKILL once it has started writing.
Afterwards the ledger opens, `doko verify` exits 0, every stored game is exactly the game
of its file (its last event its 48th card: replaying it gives a finished game), the read
models catch up with the log, and running the same import again imports the rest and
refuses the games already there as duplicates.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from backends import Client
from cli_helpers import exists
from conftest import random_game
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.numbers import counted
from doko_ledger.store import postgres_append
from doko_ledger.store.location import shown
from doko_ledger.store.open import open_store

pytestmark = [
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
    pytest.mark.slow,  # imports killed in the middle, in processes of their own
]

GAMES = 300
TESTS = Path(__file__).resolve().parents[1]
ENV = {"COLUMNS": "120", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb"}
AT = "2026-11-28T20:00:00+00:00"

# Import the files ten at a time through the Python API, one `import_games` call per batch.
BATCHES = """
import sys
from pathlib import Path
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.ledger import Ledger

files = sorted(Path(sys.argv[2]).glob("*.yaml"))
with Ledger.open(sys.argv[1], create=True) as ledger:
    for start in range(0, len(files), 10):
        batch = [(str(f), game_file.read_file(f)) for f in files[start : start + 10]]
        ledger.import_games(batch, recorded_by="importer", recorded_at="2026-11-28T20:00:00+00:00")
"""

# Import all the games in one `import_games` call: transactions of 200 games.
AT_ONCE = """
import sys
sys.path.insert(0, sys.argv[2])
from backends import Client
from cli_helpers import exists
from conftest import random_game
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.ledger import Ledger

games = [random_game(seed, game_id=f"crash-{seed:03d}") for seed in range(int(sys.argv[3]))]
loaded = [(g.record.id, LoadedGame(g.record, g.events, g.final)) for g in games]
with Ledger.open(sys.argv[1], create=True) as ledger:
    ledger.import_games(loaded, recorded_by="importer", recorded_at="2026-11-28T20:00:00+00:00")
"""


@pytest.fixture(scope="module")
def game_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, LoadedGame]:
    """300 finished random legal games, one file each; returns each file's game (what reading
    the file gives: its record, events and final state)."""
    folder = tmp_path_factory.mktemp("games")
    loaded = {}
    for seed in range(GAMES):
        game = random_game(seed, game_id=f"crash-{seed:03d}")
        assert game.final.finished
        path = folder / f"crash-{seed:03d}.yaml"
        path.write_text(game.text, encoding="utf-8")
        loaded[str(path)] = LoadedGame(game.record, game.events, game.final)
    return loaded


def _folder(game_files: dict[str, LoadedGame]) -> Path:
    return Path(next(iter(game_files))).parent


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "DOKO_DB"} | ENV


def _events_count(target: str | Path) -> int:
    """The events committed so far, read on a connection of the test's own."""
    if not exists(target):
        return 0
    with Client(target) as conn:
        return int(conn.rows("SELECT count(*) FROM events")[0][0]) if conn.has_table("events") else 0


def _inserting(target: str | Path) -> bool:
    """Whether another connection is inside a transaction that has begun inserting events: the
    first pages of it in SQLite's write-ahead log, or its COPY (or INSERT, or call of the append
    function) seen by PostgreSQL."""
    if isinstance(target, Path):
        return _size(target.with_name(target.name + "-wal")) > 64 * 1024
    with Client(target) as conn:
        (row,) = conn.rows(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND state IN ('active', 'idle in transaction')"
            " AND (query LIKE 'COPY events %' OR query LIKE 'INSERT INTO events %'"
            f" OR query LIKE 'SELECT * FROM {postgres_append.NAME}(%')"
        )
    return bool(row and row[0])


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _kill_when(process: subprocess.Popen[bytes], started: Callable[[], bool], timeout: float = 60) -> None:
    """SIGKILL the process as soon as `started()` is true; it must still be running then."""
    deadline = time.monotonic() + timeout
    while not started():
        assert process.poll() is None, f"the import ended before it was killed: {process.communicate()}"
        assert time.monotonic() < deadline, "the import never started writing"
        time.sleep(0.002)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL


def _invoke(db: str | Path, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", str(db), *args], env=ENV, catch_exceptions=True)


def _stored_games_are_whole(db: str | Path, game_files: dict[str, LoadedGame], *, doko_verify: bool = True) -> set[str]:
    """The checks after the crash (with `doko verify` in a process of its own); returns the
    ids of the games stored."""
    by_id = {loaded.record.id: loaded for loaded in game_files.values()}
    store = open_store(db)  # opens without `create`: the file is a ledger
    try:
        report = store.verify()
        assert report.ok, report.problems
        streams = store.streams("game/")
        assert len(streams) == len(set(streams))
        ids = {stream.removeprefix("game/") for stream in streams}
        assert ids <= set(by_id)
        for game_id in ids:
            recorded = store.read_stream(f"game/{game_id}")
            assert [r.event for r in recorded] == by_id[game_id].events, f"{game_id} is not whole"
        assert report.events == sum(len(by_id[g].events) for g in ids)
    finally:
        store.close()
    with Ledger.open(db) as ledger:
        for game_id in ids:
            state = ledger.book_of(DOPPELKOPF).state(game_id)
            assert state.finished and len(state.cards_played) == 48, game_id
        rows = ledger.games()  # the read models catch up with what the crash left
        assert {row["game_id"] for row in rows} == ids
        assert all(row["finished"] for row in rows)
    if not doko_verify:
        return ids
    done = subprocess.run(
        [sys.executable, "-c", "from doko_ledger.cli.app import main; main()", "--db", str(db), "verify"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ledger verified:"), done.stdout
    return ids


def _all_imported_once(db: str | Path, game_files: dict[str, LoadedGame]) -> None:
    ids = _stored_games_are_whole(db, game_files, doko_verify=False)
    assert len(ids) == GAMES


def _import_again(db: str | Path, game_files: dict[str, LoadedGame], stored: set[str]) -> None:
    """The same games through the API once more: the rest imported, the stored ones refused."""
    with Ledger.open(db) as ledger:
        report = ledger.import_games(list(game_files.items()), recorded_by="importer", recorded_at=AT)
    assert report.games == GAMES - len(stored)
    assert sorted(message for _, message in report.refused) == sorted(
        f"game {game_id!r} is already in the ledger" for game_id in stored
    )
    _all_imported_once(db, game_files)


def test_an_api_import_killed_between_batches_keeps_whole_games(
    ledger_target: str | Path, game_files: dict[str, LoadedGame]
) -> None:
    db = ledger_target
    importer = subprocess.Popen(
        [sys.executable, "-c", BATCHES, str(db), str(_folder(game_files))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    _kill_when(importer, lambda: _events_count(db) >= 90 * 55)
    stored = _stored_games_are_whole(db, game_files)
    assert 0 < len(stored) < GAMES
    _import_again(db, game_files, stored)


def test_an_api_import_killed_inside_its_transaction_keeps_whole_games(
    ledger_target: str | Path, game_files: dict[str, LoadedGame]
) -> None:
    db = ledger_target
    importer = subprocess.Popen(
        [sys.executable, "-c", AT_ONCE, str(db), str(TESTS), str(GAMES)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    # killed as soon as its transaction of 200 games has begun inserting them
    _kill_when(importer, lambda: _inserting(db))
    stored = _stored_games_are_whole(db, game_files)
    assert len(stored) in (0, 200, GAMES)  # a transaction is all of its games or none
    _import_again(db, game_files, stored)


def test_doko_import_killed_after_its_first_commit_keeps_whole_games(
    ledger_target: str | Path, game_files: dict[str, LoadedGame]
) -> None:
    db = ledger_target
    files = sorted(game_files)
    importer = subprocess.Popen(
        [sys.executable, "-c", "from doko_ledger.cli.app import main; main()", "--db", str(db), "import", *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    _kill_when(importer, lambda: _events_count(db) > 0)
    stored = _stored_games_are_whole(db, game_files)
    assert len(stored) in (200, GAMES)  # `doko import` appends 200 games a transaction

    result = _invoke(db, "import", *files)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    rest = [g for g in game_files.values() if g.record.id not in stored]
    events = sum(len(g.events) for g in rest)
    imported = f"imported {len(rest):,} games, {events:,} events into {shown(db)}" if rest else ""
    assert " ".join(result.stdout.split()) == imported
    refused = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert sorted(refused) == sorted(
        f"error: {path}: game {loaded.record.id!r} is already in the ledger"
        for path, loaded in game_files.items()
        if loaded.record.id in stored
    )
    assert result.stderr.splitlines()[-1] == f"{counted(len(stored), 'file')} not imported"
    _all_imported_once(db, game_files)
