"""Several writers at once on one ledger: nothing lost, nothing doubled, every loser told.

On an SQLite file with 4 writers, and on PostgreSQL with 8 and with 16: real OS processes
(`python -c` snippets) race on the same game streams through
`EventStore.append_streams`, each also appending to a stream of its own, while another
process verifies the hash chains over and over. Afterwards every stream holds exactly
the events of its reference game, versions and positions run without gaps, each append
that lost a race raised `ConcurrencyError` and left no trace, and `verify()` is clean.
Through the CLI a lost race is exit 3 with one line on stderr and nothing written.

Once a command has appended, what it appended stands: another process holding the write lock
while the read models catch up leaves them to catch up later (exit 0, a note), never "nothing
was written" (each command that writes and then catches up, the web's record, a copy); a deal
recorded so is refused when tried again with `--deal N`. Many processes making one ledger at
once (48 on SQLite, 8 on PostgreSQL) all import into it; 16 importers beside a lock holder each
import their game once or write nothing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from backends import Client, new_target
from cli_helpers import refused
from conftest import random_game
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.cli.common import BUSY_TIMEOUT as BUSY
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.nights.book import CardNights
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import BUSY_TIMEOUT_MS, EventStore
from doko_ledger.store.open import open_store

TESTS = Path(__file__).resolve().parents[1]
ENV = {"COLUMNS": "120", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb"}
pytestmark = pytest.mark.slow  # many processes at once: 2-3 minutes here

RACES = [("sqlite", 4), ("postgresql", 8), ("postgresql", 16)]
"""The races run: each database with that many writer processes."""
RACE_GAMES = 4
RACE_SEED, OWN_SEED = 100, 200
LOST = "someone else recorded first; nothing was written"

# Each writer: wait for the start signal, then append the next event of a race game (the
# same event whoever wins, at the version it read) and, every other time in the same
# transaction, the next event of its own game; a ConcurrencyError is logged and retried.
WRITER = """
import json, random, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from backends import Client, new_target
from cli_helpers import refused
from conftest import random_game
from doko_ledger.store.base import ConcurrencyError, EventStore, NewStreamEvents
from doko_ledger.store.open import open_store

tests, path, worker, games, race_seed, own_seed = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
signals = Path(sys.argv[7])
rng = random.Random(worker)
races = {f"game/race-{k}": random_game(race_seed + k, game_id=f"race-{k}").events for k in range(games)}
own_stream = f"game/own-{worker}"
own = random_game(own_seed + worker, game_id=f"own-{worker}").events
store = open_store(path)
(signals / f"ready-{worker}").touch()
while not (signals / "go").exists():
    time.sleep(0.002)
log, own_done, attempt = [], 0, 0
while True:
    versions = {s: store.stream_version(s) for s in races}  # read once: a stale one loses its race
    open_races = [s for s, events in races.items() if versions[s] < len(events)]
    if not open_races and own_done == len(own):
        break
    batches = []
    if open_races:
        stream = rng.choice(open_races)
        version = versions[stream]
        batches.append(NewStreamEvents(stream, version, [races[stream][version]]))
    with_own = own_done < len(own) and (not open_races or rng.random() < 0.5)
    if with_own:
        batches.insert(0, NewStreamEvents(own_stream, own_done, [own[own_done]]))
    time.sleep(rng.random() / 1000)  # the others may write between reading the head and appending
    tag = f"w{worker}-{attempt}"
    attempt += 1
    try:
        store.append_streams(batches, recorded_by=tag, recorded_at="2026-11-28T20:00:00+00:00")
        ok = True
        own_done += with_own
    except ConcurrencyError:
        ok = False
    log.append({"tag": tag, "ok": ok, "appends": [[b.stream, b.expected_version, len(b.events)] for b in batches]})
store.close()
print(json.dumps(log))
"""

# The verifier: recompute every chain again and again while the writers write.
VERIFIER = """
import json, sys, time
from pathlib import Path
from doko_ledger.store.base import EventStore
from doko_ledger.store.open import open_store

store, signals = open_store(sys.argv[1]), Path(sys.argv[2])
runs, problems, events = 0, [], []
while not (signals / "stop").exists():
    report = store.verify()
    runs += 1
    problems += report.problems
    events.append(report.events)
    time.sleep(0.005)
print(json.dumps({"runs": runs, "problems": problems, "events": events}))
"""


def _python(code: str, *args: str | int | Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "DOKO_DB"}
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _finish(process: subprocess.Popen[str], timeout: float = 60) -> Any:
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err
    return json.loads(out)


def _rows(target: str | Path) -> list[tuple[int, str, int, str]]:
    store = open_store(target)
    try:
        rows = store.db.execute("SELECT position, stream, version, recorded_by FROM events ORDER BY position")
        return [(int(p), str(s), int(v), str(b)) for p, s, v, b in rows.fetchall()]
    finally:
        store.close()


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


# -- processes racing through the store ----------------------------------------------------------


@pytest.fixture(scope="module", params=RACES, ids=[f"{backend}-{n}-writers" for backend, n in RACES])
def race(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run the writers and the verifier once on each database; the tests below look at what they left."""
    backend, writers_count = request.param
    root = tmp_path_factory.mktemp("race")
    path, signals = new_target(backend, request, root), root / "signals"
    signals.mkdir()
    open_store(path, create=True).close()
    writers = [
        _python(WRITER, TESTS, path, worker, RACE_GAMES, RACE_SEED, OWN_SEED, signals)
        for worker in range(writers_count)
    ]
    verifier = _python(VERIFIER, path, signals)
    try:
        _wait_for(lambda: all((signals / f"ready-{w}").exists() for w in range(writers_count)), "the writers", 120)
        (signals / "go").touch()
        logs = [_finish(w, timeout=300) for w in writers]
    finally:
        (signals / "go").touch()
        (signals / "stop").touch()
        for process in writers:
            if process.poll() is None:
                process.kill()
    return {"path": path, "writers": writers_count, "logs": logs, "verifier": _finish(verifier)}


def test_the_writers_raced_and_some_lost(race: dict[str, Any]) -> None:
    attempts = [entry for log in race["logs"] for entry in log]
    lost = [entry for entry in attempts if not entry["ok"]]
    won = [entry for entry in attempts if entry["ok"]]
    assert lost, "no append lost a race: the test did not test anything"
    appended = sum(count for entry in won for _, _, count in entry["appends"])
    games = [random_game(RACE_SEED + k).events for k in range(RACE_GAMES)]
    games += [random_game(OWN_SEED + w).events for w in range(race["writers"])]
    assert appended == len(_rows(race["path"])) == sum(map(len, games)) > 400  # a few hundred appends


def test_positions_are_unique_and_contiguous_and_versions_have_no_gaps(race: dict[str, Any]) -> None:
    rows = _rows(race["path"])
    assert [position for position, *_ in rows] == list(range(1, len(rows) + 1))
    versions: dict[str, list[int]] = defaultdict(list)
    for _, stream, version, _ in rows:
        versions[stream].append(version)
    assert sorted(versions) == sorted(
        [f"game/race-{k}" for k in range(RACE_GAMES)] + [f"game/own-{w}" for w in range(race["writers"])]
    )
    for stream, seen in versions.items():
        assert seen == list(range(1, len(seen) + 1)), stream


def test_every_stream_holds_its_game_once_nothing_lost_nothing_doubled(race: dict[str, Any]) -> None:
    store = open_store(race["path"])
    try:
        for k in range(RACE_GAMES):
            expected = random_game(RACE_SEED + k, game_id=f"race-{k}").events
            assert [r.event for r in store.read_stream(f"game/race-{k}")] == expected
        for w in range(race["writers"]):
            expected = random_game(OWN_SEED + w, game_id=f"own-{w}").events
            recorded = store.read_stream(f"game/own-{w}")
            assert [r.event for r in recorded] == expected
            assert {r.envelope.recorded_by.split("-")[0] for r in recorded} == {f"w{w}"}
    finally:
        store.close()


def test_a_won_append_is_written_whole_and_a_lost_one_not_at_all(race: dict[str, Any]) -> None:
    rows = _rows(race["path"])
    by_tag: dict[str, list[tuple[int, str, int, str]]] = defaultdict(list)
    for row in rows:
        by_tag[row[3]].append(row)
    attempts = [entry for log in race["logs"] for entry in log]
    assert len({entry["tag"] for entry in attempts}) == len(attempts)
    for entry in attempts:
        written = by_tag.pop(entry["tag"], [])
        if not entry["ok"]:
            assert written == [], entry
            continue
        wanted = [(stream, expected + 1 + i) for stream, expected, count in entry["appends"] for i in range(count)]
        assert [(stream, version) for _, stream, version, _ in written] == wanted, entry
        positions = [position for position, *_ in written]
        assert positions == list(range(positions[0], positions[0] + len(positions))), "one transaction, in one run"
    assert by_tag == {}, "events that no writer says it appended"


def test_every_lost_append_had_lost_to_another_writer(race: dict[str, Any]) -> None:
    """A lost append expected a version that some other won append had already taken."""
    won: dict[tuple[str, int], str] = {}
    attempts = [entry for log in race["logs"] for entry in log]
    for entry in attempts:
        if entry["ok"]:
            for stream, expected, _ in entry["appends"]:
                assert (stream, expected) not in won, "two appends at the same version both won"
                won[stream, expected] = entry["tag"]
    for entry in attempts:
        if not entry["ok"]:
            race_stream, expected, _ = entry["appends"][-1]
            assert won.get((race_stream, expected), entry["tag"]) != entry["tag"], entry


def test_verify_is_clean_during_and_after_the_race(race: dict[str, Any]) -> None:
    during = race["verifier"]
    assert during["runs"] >= 1
    assert during["problems"] == []
    assert during["events"] == sorted(during["events"]), "a verifier saw the log shrink"
    store = open_store(race["path"])
    try:
        report = store.verify()
        assert report.ok, report.problems
        assert report.events == len(_rows(race["path"]))
        assert report.streams == RACE_GAMES + race["writers"]
    finally:
        store.close()


def test_the_raced_games_replay_as_finished_games(race: dict[str, Any]) -> None:
    with Ledger.open(race["path"]) as ledger:
        rows = ledger.games()
        assert len(rows) == RACE_GAMES + race["writers"]
        assert all(row["finished"] for row in rows)
        for row in rows:
            assert ledger.book_of(DOPPELKOPF).state(row["game_id"]).finished


# -- the CLI: a lost race is exit 3, one line, nothing written -------------------------------------


def _invoke(db: str | Path, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", str(db), *args], env=ENV, catch_exceptions=True)


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def _lost(result: Result) -> str:
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert LOST in lines[0]
    return lines[0]


@pytest.fixture
def interloper(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], None]], list[str]]:
    """Make the next append wait until `other()` has written first on a connection of its own:
    the moment between a command reading the log and appending to it, made certain."""

    def arm(other: Callable[[], None]) -> list[str]:
        fired: list[str] = []
        append = EventStore.append_streams

        def racing(self: EventStore, *args: Any, **kwargs: Any) -> Any:
            if not fired:
                fired.append("the other writer went first")
                other()
            return append(self, *args, **kwargs)

        monkeypatch.setattr(EventStore, "append_streams", racing)
        return fired

    return arm


AT = "2026-11-28T21:00:00+00:00"


def _night(db: str | Path) -> None:
    _ok(_invoke(db, "session", "start", "night", "--players", "Anna,Ben,Clara,Dirk"))


def test_record_that_loses_a_race_is_exit_3_and_writes_nothing(
    tmp_path: Path, interloper: Callable[[Callable[[], None]], list[str]]
) -> None:
    db = tmp_path / "ledger.sqlite"
    _night(db)

    def other() -> None:
        with Ledger.open(db) as ledger:
            facts = card_nights(ledger).prepare("night", None, misdeal=True)
            card_nights(ledger).commit(facts, by="other", at=AT)

    fired = interloper(other)
    line = _lost(_invoke(db, "record", "--re", "Ben,Clara", "--re-points", "151", "--yes"))
    assert fired
    assert "'session/night'" in line
    assert line.startswith("error: deal 1 was not recorded: ")
    assert line.endswith("; deal 1 was just recorded (by other)")
    rows = _rows(db)
    assert {by for *_, by in rows} == {"tester", "other"}
    assert not [row for row in rows if row[1] == "game/night-01" and row[3] == "tester"]
    _ok(_invoke(db, "verify"))
    # the retry records the deal after the other one's
    _ok(_invoke(db, "record", "--re", "Ben,Clara", "--re-points", "151", "--yes"))
    assert [row["game_id"] for row in json.loads(_ok(_invoke(db, "games", "--json")).stdout)] == [
        "night-01",
        "night-02",
    ]


def test_a_deal_recorded_while_the_next_deal_is_shown_is_a_lost_race_not_a_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone records deal 1 after `doko record` showed deal 1 as next and before it decides
    the deal: exit 3 with what was recorded meanwhile, as a race lost at the append is."""
    db = tmp_path / "ledger.sqlite"
    _night(db)
    prepare = CardNights.prepare

    def racing(self: CardNights, *args: Any, **kwargs: Any) -> Any:
        with Ledger.open(db) as ledger:
            nights = card_nights(ledger)
            nights.commit(prepare(nights, "night", None, misdeal=True), by="other", at=AT)
        monkeypatch.undo()
        return prepare(self, *args, **kwargs)

    monkeypatch.setattr(CardNights, "prepare", racing)
    line = _lost(_invoke(db, "record", "--re", "Ben,Clara", "--re-points", "151", "--yes"))
    assert line.startswith("error: the deal was not recorded: card night 'night' is at version 2, not 1: "), line
    assert line.endswith("; deal 1 was just recorded (by other)")
    assert {by for *_, by in _rows(db)} == {"tester", "other"}
    assert not [row for row in _rows(db) if row[3] == "tester" and row[1].startswith("game/")]


def test_a_deal_is_refused_not_shifted_when_the_night_moves_on_while_it_is_entered(
    tmp_path: Path, interloper: Callable[[Callable[[], None]], list[str]]
) -> None:
    """Deal 3 is being entered when someone else takes back deal 2: it is refused, not
    recorded as deal 2."""
    db = tmp_path / "ledger.sqlite"
    _night(db)
    for points in ("151", "100"):
        _ok(_invoke(db, "record", "--re", "Ben,Clara", "--re-points", points, "--yes"))

    def other() -> None:
        with Ledger.open(db) as ledger:
            card_nights(ledger).undo("night", by="other", at=AT)

    interloper(other)
    line = _lost(_invoke(db, "record", "--re", "Anna,Dirk", "--re-points", "130", "--yes"))
    assert line.startswith("error: deal 3 was not recorded: ")
    assert line.endswith("; deal 2 was just taken back (by other)")
    assert [deal["game_id"] for deal in _deals(db)] == ["night-01"]


def test_play_that_loses_a_race_is_exit_3_and_writes_nothing(
    tmp_path: Path, interloper: Callable[[Callable[[], None]], list[str]]
) -> None:
    db = tmp_path / "ledger.sqlite"
    _night(db)
    _ok(_invoke(db, "play", "CQ"))
    before = _rows(db)

    def other() -> None:
        with Ledger.open(db) as ledger:
            card_nights(ledger).play("night", ["SA"], by="other", at=AT)

    interloper(other)
    line = _lost(_invoke(db, "play", "H10"))
    assert "'game/night-01'" in line
    after = _rows(db)
    assert after[: len(before)] == before
    assert [(stream, by) for _, stream, _, by in after[len(before) :]] == [("game/night-01", "other")]
    with Ledger.open(db) as ledger:
        assert [str(c) for c in ledger.book_of(DOPPELKOPF).state("night-01").cards_played] == ["CQ", "SA"]
    _ok(_invoke(db, "verify"))


def test_import_that_loses_a_race_is_exit_3_and_the_game_is_there_once(
    tmp_path: Path, interloper: Callable[[Callable[[], None]], list[str]]
) -> None:
    db = tmp_path / "ledger.sqlite"
    game = random_game(7, game_id="raced")
    path = tmp_path / "raced.yaml"
    path.write_text(game.text, encoding="utf-8")
    open_store(db, create=True).close()

    def other() -> None:
        with Ledger.open(db) as ledger:
            ledger.import_games([("other", game_file.read_file(path))], recorded_by="other", recorded_at=AT)

    interloper(other)
    _lost(_invoke(db, "import", str(path)))
    rows = _rows(db)
    assert len(rows) == len(game.events)
    assert {by for *_, by in rows} == {"other"}
    # the retry finds the game recorded and says so
    result = _invoke(db, "import", str(path))
    assert result.exit_code == 2
    assert f"error: {path}: game 'raced' is already in the ledger" in result.stderr
    assert len(_rows(db)) == len(game.events)


def test_record_from_racing_processes_each_wins_or_gets_exit_3(ledger_target: str | Path) -> None:
    """Real `doko record` processes at once on one night, on either database: each deal is
    recorded by exactly one of the processes that exit 0; the others exit 3 with the one-line message."""
    db = ledger_target
    _night(db)
    env = {k: v for k, v in os.environ.items() if k != "DOKO_DB"} | ENV
    command = [sys.executable, "-c", "from doko_ledger.cli.app import main; main()", "--db", str(db), "record"]
    processes = [
        subprocess.Popen(
            [*command, "--re", "Ben,Clara", "--re-points", str(121 + i), "--by", f"p{i}", "--yes"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(6)
    ]
    outcomes = []
    for process in processes:
        _, err = process.communicate(timeout=60)
        outcomes.append((process.returncode, err))
    assert {code for code, _ in outcomes} <= {0, 3}, outcomes
    for code, err in outcomes:
        assert "Traceback" not in err
        if code == 3:
            lines = [line for line in err.splitlines() if line.strip()]
            assert len(lines) == 1 and LOST in lines[0], err
        else:
            assert err == ""
    winners = sorted(f"p{i}" for i, (code, _) in enumerate(outcomes) if code == 0)
    with Ledger.open(db) as ledger:
        night = card_nights(ledger).night("night")
        assert len(night.state.deals) == len(winners)
        recorded = sorted(ledger.events(g)[0].envelope.recorded_by for g in night.state.deals)
        assert recorded == winners
        assert ledger.verify().ok
    rows = _rows(db)
    assert [position for position, *_ in rows] == list(range(1, len(rows) + 1))
    assert {by for *_, by in rows} == {"tester", *winners}


# -- once appended, a write stands: a lock held during the read models' catch-up fails nothing -------

# `doko` as a person runs it, with one pause: once the command has appended, before the read models
# catch up, it touches `committed` and waits for `locked` (by then another process holds the
# ledger's write lock). The store and the catch-up are the real ones.
PAUSED_DOKO = """
import sys, time
from pathlib import Path
from doko_ledger.projections import runner

signals = Path(sys.argv.pop(1))
catch_up = runner.catch_up_many


def paused(store, projections):
    if store.appended and not (signals / "committed").exists():
        (signals / "committed").touch()
        while not (signals / "locked").exists():
            time.sleep(0.005)
    return catch_up(store, projections)


runner.catch_up_many = paused
from doko_ledger.cli.app import main

main()
"""
SHORT_WAIT = {BUSY: "0.2"}
"""How long a write waits for the lock in these tests: the waiting, not the behaviour, is shortened."""
NOT_WRITTEN = "nothing was written"
CATCH_UP_NOTE = "they catch up on the next read"


def _doko_env(**more: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("DOKO_DB", BUSY)} | ENV | more


@contextmanager
def _write_lock(target: str | Path) -> Iterator[None]:
    """Hold the ledger's write lock from another connection, as another writer does."""
    with Client(target) as conn:
        if conn.postgres:
            conn.execute("BEGIN")
            conn.execute("LOCK TABLE events IN EXCLUSIVE MODE")
        else:
            conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")


def _locked_after_the_append(folder: Path, db: str | Path, *args: str, lock: str | Path | None = None) -> list[str]:
    """Run `doko --db DB ARGS` in a process of its own; once it has appended, hold the write lock
    of `lock` (the ledger itself by default) until it exits. Returns exit code, stdout, stderr."""
    signals = folder / "signals"
    signals.mkdir()
    command = [sys.executable, "-c", PAUSED_DOKO, str(signals), "--db", str(db), *args]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_doko_env(**SHORT_WAIT)
    )
    try:
        _wait_for(lambda: (signals / "committed").exists() or process.poll() is not None, "the append", 60)
        assert (signals / "committed").exists(), process.communicate()
        with _write_lock(db if lock is None else lock):
            (signals / "locked").touch()
            out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return [str(process.returncode), out, err]


def _stood(outcome: list[str]) -> str:
    """A command that appended and then found the lock held: exit 0, a note that the read models
    catch up later, and no word of nothing written. Returns its output."""
    code, out, err = outcome
    assert code == "0", outcome
    assert "Traceback" not in err
    assert NOT_WRITTEN not in out + err, outcome
    notes = [line for line in err.splitlines() if line.strip()]
    assert len(notes) == 1 and notes[0].startswith("note: "), err
    assert "is locked by another writer (waited 0.2 s)" in notes[0] and CATCH_UP_NOTE in notes[0], err
    return out


def _deals(db: str | Path, *args: str) -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = json.loads(_ok(_invoke(db, "standings", "--json", *args)).stdout)["deals"]
    return deals


def _game_ids(db: str | Path) -> list[str]:
    return [row["game_id"] for row in json.loads(_ok(_invoke(db, "games", "--json")).stdout)]


def test_a_deal_recorded_while_another_writer_holds_the_lock_after_it_stands_and_a_retry_is_refused(
    ledger_target: str | Path, tmp_path: Path
) -> None:
    """The deal is appended, then another process holds the write lock past the busy timeout
    while the read models catch up: `doko record` says what it recorded and exits 0; trying
    again with the deal's number is refused, and the night holds the deal once."""
    db = ledger_target
    _night(db)
    facts = ("--re", "Ben,Clara", "--re-points", "151", "--yes")
    out = _stood(_locked_after_the_append(tmp_path, db, "record", *facts))
    assert "recorded deal 1 as night-01" in out
    assert [deal["game_id"] for deal in _deals(db)] == ["night-01"]
    retry = _invoke(db, "record", "--deal", "1", *facts)
    assert retry.exit_code == 1
    line = refused(retry, "deal 1 is already recorded (night-01, by tester)", "--deal 2")
    assert NOT_WRITTEN not in line
    deals = _deals(db)
    assert [deal["game_id"] for deal in deals] == ["night-01"]
    assert deals[0]["totals"] == {"Anna": -2, "Ben": 2, "Clara": 2, "Dirk": -2}
    assert _game_ids(db) == ["night-01"]  # the read models caught up on this read
    _ok(_invoke(db, "verify"))


def _ddz(db: Path) -> None:
    _ok(_invoke(db, "ddz", "start", "dorm", "--players", "Li,Wang,Zhang"))


def _recorded(db: Path) -> None:
    _night(db)
    _ok(_invoke(db, "record", "--re", "Ben,Clara", "--re-points", "151", "--yes"))


def _game_file(db: Path) -> None:
    (db.parent / "raced.yaml").write_text(random_game(7, game_id="raced").text, encoding="utf-8")


def _penalty_scored(db: Path, out: str) -> None:
    """The score shown right after the penalty (read from the log) is the score read later."""
    shown = json.loads(out)["score"]
    assert shown is not None and shown == json.loads(_ok(_invoke(db, "score", "night-01", "--json")).stdout)
    assert [penalty["player"] for penalty in shown["penalties"]] == ["Anna"]
    assert shown["night"]["session"] == "night", shown["night"]


def _played(db: Path, out: str) -> None:
    with Ledger.open(db) as ledger:
        assert [str(c) for c in ledger.book_of(DOPPELKOPF).state("night-01").cards_played] == ["CQ"]


WRITES_THEN_CATCH_UP: dict[str, tuple[Callable[[Path], None], tuple[str, ...], Callable[[Path, str], None]]] = {
    "correct": (
        _recorded,
        ("correct", "1", "--re", "Ben,Clara", "--re-points", "100", "--yes"),
        lambda db, out: _deals(db)[0]["game_id"] == "night-01-c1" or pytest.fail(str(_deals(db))),
    ),
    "undo": (_recorded, ("undo", "--deal", "1", "-y"), lambda db, out: _deals(db) == [] or pytest.fail(out)),
    "deal": (_night, ("deal", "--seed", "x"), lambda db, out: _game_ids(db) == ["night-01"] or pytest.fail(out)),
    "play": (_night, ("play", "CQ"), _played),
    "penalty": (_recorded, ("penalty", "1", "--player", "Anna", "--minor", "--yes", "--json"), _penalty_scored),
    "import": (_game_file, ("import", "raced.yaml"), lambda db, out: _game_ids(db) == ["raced"] or pytest.fail(out)),
    "ddz record": (
        _ddz,
        ("ddz", "record", "--landlord", "Li", "--bid", "1", "--out-first", "Li"),
        lambda db, out: len(_deals(db, "--session", "dorm")) == 1 or pytest.fail(out),
    ),
}
"""Each command that appends and then brings the read models up to date: how its ledger is made
ready, its arguments, and what must hold afterwards (given the command's stdout)."""


@pytest.mark.parametrize("name", list(WRITES_THEN_CATCH_UP))
def test_every_write_stands_once_appended_whatever_becomes_of_the_catch_up(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ready, args, check = WRITES_THEN_CATCH_UP[name]
    db = tmp_path / "ledger.sqlite"
    ready(db)
    before = len(_rows(db)) if db.exists() else 0
    monkeypatch.chdir(tmp_path)
    out = _stood(_locked_after_the_append(tmp_path, db, *args))
    assert len(_rows(db)) > before
    check(db, out)
    _ok(_invoke(db, "verify"))


def test_a_copy_stands_when_the_copy_is_locked_while_its_read_models_are_built(tmp_path: Path) -> None:
    db, copy = tmp_path / "ledger.sqlite", tmp_path / "copy.sqlite"
    _recorded(db)
    out = _stood(_locked_after_the_append(tmp_path, db, "copy", "--to", str(copy), lock=copy))
    assert f"copied {len(_rows(db))} events" in out
    assert _rows(copy) == _rows(db)
    assert _game_ids(copy) == _game_ids(db) == ["night-01"]


def test_a_write_that_finds_the_lock_held_before_it_appends_writes_nothing_and_names_the_deal(
    ledger_target: str | Path,
) -> None:
    db = ledger_target
    _night(db)
    before = _rows(db)
    command = [sys.executable, "-c", "from doko_ledger.cli.app import main; main()", "--db", str(db), "record"]
    with _write_lock(db):
        done = subprocess.run(
            [*command, "--re", "Ben,Clara", "--re-points", "151", "--yes"],
            capture_output=True,
            text=True,
            env=_doko_env(**SHORT_WAIT),
            timeout=60,
        )
    assert done.returncode == 3, done
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: deal 1 was not recorded: ")
    assert lines[0].endswith("is locked by another writer (waited 0.2 s): nothing was written; try again with --deal 1")
    assert _rows(db) == before
    _ok(_invoke(db, "record", "--deal", "1", "--re", "Ben,Clara", "--re-points", "151", "--yes"))
    assert [deal["game_id"] for deal in _deals(db)] == ["night-01"]


# -- many processes at once: making one ledger, importing while another writer holds the lock --------

IMPORT = [sys.executable, "-c", "from doko_ledger.cli.app import main; main()"]


def _importers(db: str | Path, files: list[Path], **env: str) -> list[subprocess.Popen[str]]:
    return [
        subprocess.Popen(
            [*IMPORT, "--db", str(db), "import", str(path), "--by", f"p{i}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_doko_env(**env),
        )
        for i, path in enumerate(files)
    ]


def _outcomes(processes: list[subprocess.Popen[str]]) -> list[tuple[int, str, str]]:
    """Each process's exit code, stdout and stderr, once it has ended."""
    outcomes = []
    for process in processes:
        out, err = process.communicate(timeout=300)
        outcomes.append((process.returncode, out, err))
    return outcomes


def _game_files(folder: Path, count: int) -> list[Path]:
    files = []
    for i in range(count):
        path = folder / f"g{i}.yaml"
        path.write_text(random_game(300 + i, game_id=f"g{i}").text, encoding="utf-8")
        files.append(path)
    return files


def _imported_once(db: str | Path, outcomes: list[tuple[int, str, str]]) -> list[str]:
    """Each importer's game is in the ledger once if it exited 0 and not at all if it exited 3
    before appending; no importer exited otherwise, and none said nothing was written after it
    had. Returns the ids of the games imported."""
    streams = [stream for _, stream, version, _ in _rows(db) if version == 1]
    assert len(streams) == len(set(streams)), "a game imported twice"
    imported = []
    for i, (code, out, err) in enumerate(outcomes):
        assert "Traceback" not in err and "already exists" not in err, err
        if code == 0:
            assert f"game/g{i}" in streams, (i, out, err)
            assert "imported 1 game" in out and NOT_WRITTEN not in out + err, (out, err)
            imported.append(f"g{i}")
        else:
            assert code == 3, (code, out, err)
            lines = [line for line in err.splitlines() if line.strip()]
            assert len(lines) == 1 and "is locked by another writer" in lines[0], err
            assert lines[0].endswith(f"{NOT_WRITTEN}; try again"), err
            assert f"game/g{i}" not in streams, (i, err)
    assert sorted(streams) == sorted(f"game/{g}" for g in imported)
    return imported


@pytest.mark.parametrize(("backend", "processes"), [("sqlite", 48), ("postgresql", 8)])
def test_many_processes_making_one_ledger_at_once_all_import(
    backend: str, processes: int, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Every one of them imports into the ledger the first one makes (a lost race for the lock
    is at worst exit 3, nothing written); none fails because another made the tables first."""
    db = new_target(backend, request, tmp_path)
    started = _importers(db, _game_files(tmp_path, processes))
    outcomes = _outcomes(started)
    imported = _imported_once(db, outcomes)
    assert imported, outcomes
    with Ledger.open(db) as ledger:
        assert ledger.verify().ok
        assert sorted(ledger.game_ids()) == sorted(imported)


def test_importers_while_another_writer_holds_the_lock_import_once_or_write_nothing(tmp_path: Path) -> None:
    """16 importers while another writer takes the lock again and again: each imports its game
    once (exit 0, perhaps leaving the read models to catch up later) or writes nothing (exit 3,
    and says so); imported again, every game is there once. (The same on PostgreSQL: a lock
    held after the append, and before it, in the tests above.)"""
    db = tmp_path / "ledger.sqlite"
    open_store(db, create=True).close()
    files = _game_files(tmp_path, 16)
    started = _importers(db, files, **SHORT_WAIT)
    while any(p.poll() is None for p in started):
        with _write_lock(db):
            time.sleep(0.3)
        time.sleep(0.02)
    outcomes = _outcomes(started)
    imported = _imported_once(db, outcomes)
    again = [files[i] for i, (code, _, _) in enumerate(outcomes) if code == 3]
    for process in _importers(db, again):
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    assert sorted(_game_ids(db)) == sorted(f"g{i}" for i in range(16))
    assert len(imported) + len(again) == 16


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "3601"])
def test_a_busy_timeout_that_is_not_a_number_of_seconds_is_bad_input(tmp_path: Path, value: str) -> None:
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "ledger.sqlite"), "games"], env=ENV | {BUSY: value})
    assert result.exit_code == 2
    refused(result, f"Invalid value for ${BUSY}: {value!r} is not a number of seconds from 0 to 3600")
    assert EventStore.busy_timeout_ms == BUSY_TIMEOUT_MS


def test_a_deal_recorded_from_a_phone_stands_when_the_lock_is_held_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web's record: once its deal is appended, another writer holding the lock while the
    read models catch up does not turn it into "nothing was recorded" (409): the page goes on."""
    from web_helpers import app_for, deal, joined, post_deal, start_night
    from web_helpers import standings as web_standings

    from doko_ledger.projections import runner

    db = tmp_path / "ledger.sqlite"
    start_night(db)
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)  # another writer's connection
    catch_up = runner.catch_up_many

    def locked_after_the_append(store: EventStore, projections: Sequence[runner.Projection]) -> int:
        if store.appended and not holder.in_transaction:
            holder.execute("BEGIN IMMEDIATE")
        return catch_up(store, projections)

    monkeypatch.setattr(runner, "catch_up_many", locked_after_the_append)
    phone = joined(app_for(db))
    try:
        answer = post_deal(phone, "night", deal(["Ben", "Clara"], 151))
        assert holder.in_transaction, "the lock was not held after the append"
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == "/nights/night?new=night-01"
    assert [d["game_id"] for d in web_standings(db)["deals"]] == ["night-01"]


def test_a_deal_from_a_phone_that_finds_the_lock_held_is_503_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lock held too long before the append is not another phone's deal: the page says the
    ledger is locked (503, Retry-After) and keeps the form; the API answers 503 too."""
    from web_helpers import CODE, app_for, client, deal, joined, post_deal, start_night

    db = tmp_path / "ledger.sqlite"
    start_night(db)
    before = _rows(db)
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    app = app_for(db)
    phone, script = joined(app), client(app)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        page = post_deal(phone, "night", deal(["Ben", "Clara"], 151))
        body = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}
        api = script.post("/api/nights/night/deals", json=body, headers={"x-join-code": CODE})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert page.status_code == 503 and "locked by another writer" in page.text
    assert "someone else recorded first" not in page.text and 'value="151"' in page.text
    assert api.status_code == 503 and api.headers["retry-after"]
    assert "locked by another writer" in api.json()["error"]
    assert "--deal" not in page.text and "--deal" not in api.json()["error"]  # a phone has no command line
    assert _rows(db) == before


def test_a_dou_dizhu_deal_that_finds_the_lock_held_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock held too long before the append is said as it is, not as a session that changed."""
    db = tmp_path / "ledger.sqlite"
    _ddz(db)
    before = _rows(db)
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    with _write_lock(db):
        result = _invoke(db, "ddz", "record", "--landlord", "Li", "--bid", "1", "--out-first", "Li")
    assert result.exit_code == 3
    line = refused(result, "is locked by another writer (waited 0.2 s): nothing was written; try again")
    assert "session" not in line
    assert _rows(db) == before


def test_a_rebuild_cut_short_by_the_lock_never_says_nothing_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rebuild empties the read models in its first transaction: a lock held after that is
    said as what it is (the log unchanged, the read models catching up), and the next read
    catches them up to exactly the fold of the log."""
    from doko_ledger.projections import runner

    db = tmp_path / "ledger.sqlite"
    for seed in (3, 4):
        (tmp_path / f"g{seed}.yaml").write_text(random_game(seed, game_id=f"g{seed}").text, encoding="utf-8")
    _ok(_invoke(db, "import", str(tmp_path / "g3.yaml"), str(tmp_path / "g4.yaml")))
    before = _rows(db)
    monkeypatch.setattr(EventStore, "busy_timeout_ms", 200)  # the waiting, not the behaviour, is shortened
    holder = sqlite3.connect(db, isolation_level=None)
    fold_all = runner._fold_all

    def locked_after_the_drop(*args: Any) -> tuple[int, int]:
        holder.execute("BEGIN IMMEDIATE")
        return fold_all(*args)

    monkeypatch.setattr(runner, "_fold_all", locked_after_the_drop)
    try:
        result = _invoke(db, "rebuild")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    monkeypatch.undo()
    assert result.exit_code == 3, result.output
    assert "nothing was written" not in result.output and "the log is unchanged" in result.output
    assert _rows(db) == before
    with Ledger.open(db) as ledger:
        assert [row["game_id"] for row in ledger.games()] == ["g3", "g4"]
        assert ledger.verify().ok
