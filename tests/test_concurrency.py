"""Several writers at once on one ledger: nothing lost, nothing doubled, every loser told.

On an SQLite file with 4 writers, and on PostgreSQL with 8 and with 16: real OS processes
(`python -c` snippets) race on the same game streams through
`EventStore.append_streams`, each also appending to a stream of its own, while another
process verifies the hash chains over and over. Afterwards every stream holds exactly
the events of its reference game, versions and positions run without gaps, each append
that lost a race raised `ConcurrencyError` and left no trace, and `verify()` is clean.
Through the CLI a lost race is exit 3 with one line on stderr and nothing written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from backends import new_target
from conftest import random_game
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.events.store import EventStore
from doko_ledger.formats import game_file
from doko_ledger.ledger import Ledger

TESTS = Path(__file__).resolve().parent
ENV = {"COLUMNS": "120", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb"}
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
from backends import new_target
from conftest import random_game
from doko_ledger.events.store import ConcurrencyError, EventStore, NewStreamEvents

tests, path, worker, games, race_seed, own_seed = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
signals = Path(sys.argv[7])
rng = random.Random(worker)
races = {f"game/race-{k}": random_game(race_seed + k, game_id=f"race-{k}").events for k in range(games)}
own_stream = f"game/own-{worker}"
own = random_game(own_seed + worker, game_id=f"own-{worker}").events
store = EventStore.open(path)
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
from doko_ledger.events.store import EventStore

store, signals = EventStore.open(sys.argv[1]), Path(sys.argv[2])
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
    store = EventStore.open(target)
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
    EventStore.open(path, create=True).close()
    writers = [
        _python(WRITER, TESTS, path, worker, RACE_GAMES, RACE_SEED, OWN_SEED, signals)
        for worker in range(writers_count)
    ]
    verifier = _python(VERIFIER, path, signals)
    try:
        _wait_for(lambda: all((signals / f"ready-{w}").exists() for w in range(writers_count)), "the writers", 120)
        started = time.monotonic()
        (signals / "go").touch()
        logs = [_finish(w, timeout=300) for w in writers]
        elapsed = time.monotonic() - started
    finally:
        (signals / "go").touch()
        (signals / "stop").touch()
        for process in writers:
            if process.poll() is None:
                process.kill()
    return {"path": path, "writers": writers_count, "logs": logs, "verifier": _finish(verifier), "elapsed": elapsed}


def test_the_writers_raced_and_some_lost(race: dict[str, Any]) -> None:
    attempts = [entry for log in race["logs"] for entry in log]
    lost = [entry for entry in attempts if not entry["ok"]]
    won = [entry for entry in attempts if entry["ok"]]
    assert lost, "no append lost a race: the test did not test anything"
    appended = sum(count for entry in won for _, _, count in entry["appends"])
    games = [random_game(RACE_SEED + k).events for k in range(RACE_GAMES)]
    games += [random_game(OWN_SEED + w).events for w in range(race["writers"])]
    assert appended == len(_rows(race["path"])) == sum(map(len, games)) > 400  # a few hundred appends
    assert race["elapsed"] < 20


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
    store = EventStore.open(race["path"])
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
    store = EventStore.open(race["path"])
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
            assert ledger.state(row["game_id"]).finished


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
            facts = ledger.nights.prepare("night", None, misdeal=True)
            ledger.nights.commit(facts, by="other", at=AT)

    fired = interloper(other)
    line = _lost(_invoke(db, "record", "--re", "Ben,Clara", "--re-points", "151", "--yes"))
    assert fired
    assert "'session/night'" in line
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


def test_play_that_loses_a_race_is_exit_3_and_writes_nothing(
    tmp_path: Path, interloper: Callable[[Callable[[], None]], list[str]]
) -> None:
    db = tmp_path / "ledger.sqlite"
    _night(db)
    _ok(_invoke(db, "play", "CQ"))
    before = _rows(db)

    def other() -> None:
        with Ledger.open(db) as ledger:
            ledger.nights.play("night", ["SA"], by="other", at=AT)

    interloper(other)
    line = _lost(_invoke(db, "play", "H10"))
    assert "'game/night-01'" in line
    after = _rows(db)
    assert after[: len(before)] == before
    assert [(stream, by) for _, stream, _, by in after[len(before) :]] == [("game/night-01", "other")]
    with Ledger.open(db) as ledger:
        assert [str(c) for c in ledger.state("night-01").cards_played] == ["CQ", "SA"]
    _ok(_invoke(db, "verify"))


def test_import_that_loses_a_race_is_exit_3_and_the_game_is_there_once(
    tmp_path: Path, interloper: Callable[[Callable[[], None]], list[str]]
) -> None:
    db = tmp_path / "ledger.sqlite"
    game = random_game(7, game_id="raced")
    path = tmp_path / "raced.yaml"
    path.write_text(game.text, encoding="utf-8")
    EventStore.open(db, create=True).close()

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
        night = ledger.nights.night("night")
        assert len(night.state.deals) == len(winners)
        recorded = sorted(ledger.events(g)[0].envelope.recorded_by for g in night.state.deals)
        assert recorded == winners
        assert ledger.verify().ok
    rows = _rows(db)
    assert [position for position, *_ in rows] == list(range(1, len(rows) + 1))
    assert {by for *_, by in rows} == {"tester", *winners}
