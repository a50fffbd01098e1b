"""Benchmark: import N seeded random legal games, rebuild every projection, next to raw baselines.

Run: `make bench` (or `python bench/bench_ledger.py --games 10000`).

Printed per step: wall and CPU time, and a floor measured in the same run on the same ledger
file: the same rows read with plain `sqlite3` and `json.loads` (for the rebuilds and scoring),
the same rows inserted with plain `sqlite3` into the ledger's own table, triggers and indexes
included (for the import), libyaml's load plus the rules' replay, the append and the catch-up
(for importing game files). Then each command a user types, as a fresh process (bytecode
compiled first): CPU time next to a one-command Typer + Rich app, peak memory, time to the first
line of output. Run it at 1,000, 10,000 and 100,000 games: a command that shows one game, one
night or one player should cost the same at each size, and `doko verify` should take the same
memory (its peak beside the floor's, each in a fresh process). `--keep PATH` keeps the ledger
made; `--ledger PATH` measures verify and the fresh processes on such a ledger again, without
making one.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, NamedTuple

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.cards import deck
from doko_ledger.doppelkopf.events import PenaltyImposed
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.game import DealCards, DeclareReservation, GameState, PlayCard, StartGame, decide, evolve
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.projection import GamesProjection
from doko_ledger.doppelkopf.rules import legal_plays, preset
from doko_ledger.doppelkopf.rules.reservations import asking_order
from doko_ledger.events.codec import _schema_problem
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.projections import runner
from doko_ledger.store.open import open_store
from doko_ledger.store.verify import COLUMNS as _COLUMNS

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")


def random_game(rng: random.Random, game_id: str) -> LoadedGame:
    """One random legal game: a shuffled deal, all four healthy (a normal game, or the silent
    solo of a player dealt both CQ), then a random legal card each turn."""
    cards = list(deck().elements())
    rng.shuffle(cards)
    state = GameState()
    events: list[Any] = []

    def do(command: Any) -> None:
        nonlocal state
        for event in decide(state, command):
            events.append(event)
            state = evolve(state, event)

    dealer = rng.randrange(4)
    do(StartGame(game_id, PLAYERS, dealer, preset("standard")))
    do(DealCards(tuple(tuple(cards[i * 12 : (i + 1) * 12]) for i in range(4))))
    for asked in asking_order(dealer):
        do(DeclareReservation(asked, healthy=True))
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current else ()
        do(PlayCard(seat, rng.choice(legal_plays(state.hands[seat], trick, state.order))))
    return LoadedGame(from_events(events), events, state)


def paired(fn: Callable[[], Any], floor: Callable[[], Any], repeat: int) -> tuple[Took, Took, float]:
    """`fn` and its floor `repeat` times in turn (the machine is shared): the median of each, and
    the median of their ratios, pair by pair (which holds when the machine's speed drifts)."""
    runs, floors = [], []
    for _ in range(max(1, repeat)):
        runs.append(timed(fn)[0])
        floors.append(timed(floor)[0])
    ratio = statistics.median(r.cpu / f.cpu for r, f in zip(runs, floors, strict=True))
    return _median(runs), _median(floors), ratio


def _median(took: list[Took]) -> Took:
    return Took(statistics.median(t.wall for t in took), statistics.median(t.cpu for t in took))


class Took(NamedTuple):
    """Wall and CPU seconds of one step (CPU: this process's, or a child's from `wait4`)."""

    wall: float
    cpu: float


def timed(fn: Callable[[], Any]) -> tuple[Took, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return Took(time.perf_counter() - wall, time.process_time() - cpu), result


def raw_read(path: Path) -> int:
    conn = sqlite3.connect(path)
    count = 0
    for (payload,) in conn.execute("SELECT payload FROM events ORDER BY stream, version"):
        json.loads(payload)
        count += 1
    conn.close()
    return count


def raw_read_and_hash(path: Path) -> int:
    """The floor under `verify`: the same rows read with plain sqlite3, each hashed once with
    SHA-256 over the same canonical text of its fields (built the cheapest way, as the append
    path builds it)."""
    conn = sqlite3.connect(path)
    count = 0
    quote = encode_basestring
    for position, stream, version, kind, schema, payload, at, by, prev, _ in conn.execute(
        f"SELECT {_COLUMNS} FROM events ORDER BY position"
    ):
        material = (
            f"[{quote(prev)},{position},{quote(stream)},{version},{quote(kind)},{schema},"
            f"{quote(payload)},{quote(at)},{quote(by)}]"
        )
        hashlib.sha256(material.encode("utf-8")).hexdigest()
        count += 1
    conn.close()
    return count


class LockTimer:
    """Wraps a store's `transaction` to time how long each write transaction holds the lock."""

    def __init__(self, store: Any) -> None:
        self.store, self.longest, self.count = store, 0.0, 0
        self._inner = store.transaction

    @contextmanager
    def __call__(self, **kwargs: Any) -> Iterator[None]:
        with self._inner(**kwargs):
            start = time.perf_counter()
            yield
            self.longest = max(self.longest, time.perf_counter() - start)
            self.count += 1


def raw_insert(source: Path, target: Path) -> int:
    """The same rows inserted with plain `sqlite3` into the ledger's own table (its schema, indexes
    and append-only triggers: `EventStore.open` creates it), in one transaction."""
    open_store(target, create=True).close()
    rows = sqlite3.connect(source).execute("SELECT * FROM events")
    conn = sqlite3.connect(target)
    with conn:
        cursor = conn.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
    count = cursor.rowcount
    conn.close()
    return count


def raw_append(target: Path, count: int) -> float:
    """Median seconds of one plain sqlite3 insert + commit (the single-append baseline)."""
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode=wal")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS one (stream TEXT, version INTEGER, payload TEXT, PRIMARY KEY (stream, version))"
    )
    times = []
    for i in range(count):
        start = time.perf_counter()
        with conn:
            conn.execute("INSERT INTO one VALUES (?, 1, ?)", (f"s{i}", '{"seat":1,"card":"CQ"}'))
        times.append(time.perf_counter() - start)
    conn.close()
    return statistics.median(times)


def ledger_append(ledger: Ledger, count: int) -> float:
    """Median seconds of one validated, hash-chained append of a single event to a new stream."""
    times = []
    for i in range(count):
        event = PenaltyImposed(seat=i % 4, severe=False)
        start = time.perf_counter()
        ledger.store.append(f"bench/append-{i}", [event], expected_version=0, recorded_by="b", recorded_at="t")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


TYPER_HELLO = """
import typer
from rich.console import Console
app = typer.Typer()
@app.command()
def hello(name: str = "world") -> None:
    Console().print(f"hello {name}")
@app.command()
def other() -> None:
    pass
app()
"""
"""The least any Typer + Rich command costs: the floor under `doko score GAME`'s cold start."""


class Child(NamedTuple):
    """A fresh process, medians of its runs: wall and CPU seconds, peak memory, first output."""

    wall: float
    cpu: float
    mib: float
    first: float


_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
report = f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}"
os.write(2, report.encode())
"""
"""Runs a command as its own child and reports that child's CPU time, peak memory and exit code:
a small process forks it, so the peak is the command's own (a child forked or spawned from the
benchmark would count the benchmark's pages until it execs)."""


def child(args: list[str], runs: int = 5, *, warm: bool = True) -> Child:
    """Run `args` `runs` times (after one run to warm the file cache); medians of wall time, CPU
    time (user + system, from `wait4`), peak resident memory and the time to the first line."""
    measured = []
    for run in range(0 if warm else 1, runs + 1):
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert process.stdout is not None and process.stderr is not None
        process.stdout.readline()
        first = time.perf_counter() - start
        while process.stdout.read(1 << 16):
            pass
        cpu, kib, code = process.stderr.read().split()
        process.wait()
        assert int(code) == 0, args
        if run:
            measured.append((time.perf_counter() - start, float(cpu), int(kib) / 1024, first))
    return Child(*(statistics.median(m[i] for m in measured) for i in range(4)))


RAW_LIST = """
import json, sqlite3, sys
out = sys.stdout
for row in sqlite3.connect(sys.argv[1]).execute("SELECT * FROM games ORDER BY first_position"):
    out.write(f"{row[0]} {row[2]} {row[6]} {json.loads(row[3])} {json.loads(row[16])}\\n")
"""
"""The floor under `doko games --all`: every row of the games table read and written as a line."""


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


NIGHT = Path(__file__).resolve().parent.parent / "sample_games" / "sessions" / "01-kitchen-bock.yaml"
DOUDIZHU_SESSION = NIGHT.parent.parent / "doudizhu" / "sessions" / "2026-11-29-dorm.yaml"
UNIQUE = "sunday-final"
"""One more game at the end, found by the prefix `sunday` (the others are `bench-NNNNNN`)."""


def _copy(game: LoadedGame, number: int) -> LoadedGame:
    """The same game under the id `bench-NNNNNN`."""
    game_id = f"bench-{number:06d}"
    return LoadedGame(
        replace(game.record, id=game_id), [replace(game.events[0], game_id=game_id), *game.events[1:]], game.state
    )


def import_files(ledger_path: Path, files: list[Path]) -> int:
    """What `doko import FILE...` does with game files, in this process: read and check each file,
    append them in batches as they come, bring the read models up to date."""
    from doko_ledger.formats import any_file

    with Ledger.open(ledger_path, create=True) as ledger:
        report = ledger.import_games(
            ((str(f), any_file.read_file(f)) for f in files), recorded_by="bench", recorded_at="t"
        )  # type: ignore[misc]
        ledger.refresh()
    return report.games


def import_floor(ledger_path: Path, files: list[Path], games: list[LoadedGame]) -> Took:
    """The floor under importing game files: libyaml's own load of each file, the rules' replay of
    each game (`to_events`), the append and the read models' catch-up. Returns its time."""
    import yaml

    from doko_ledger.doppelkopf.game.record import to_events

    loaded, _ = timed(lambda: [yaml.load(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) for f in files])
    replayed, _ = timed(lambda: [to_events(g.record) for g in games])
    with Ledger.open(ledger_path, create=True) as ledger:
        appended, _ = timed(
            lambda: ledger.import_games([(g.record.id, g) for g in games], recorded_by="bench", recorded_at="t")
        )
        caught_up, _ = timed(ledger.refresh)
    parts = (loaded, replayed, appended, caught_up)
    return Took(sum(p.wall for p in parts), sum(p.cpu for p in parts))


def game_core() -> str:
    """Which game core the run measures: compiled (a wheel's, or `make core`'s build/core put on
    `PYTHONPATH`) or the sources in pure Python."""
    where = importlib.import_module("doko_ledger.doppelkopf.game.evolve").__file__ or ""
    return "compiled with mypyc" if where.endswith(".so") else "pure Python"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=1000, help="games generated and imported at a time")
    parser.add_argument("--files", type=int, default=1000, help="game files written and imported")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per command")
    parser.add_argument(
        "--repeat", type=int, default=5, help="runs of each rebuild and of scoring every game, each beside its floor"
    )
    parser.add_argument(
        "--copies",
        type=int,
        default=1,
        help="import each random game this many times under new ids (a large ledger made quickly; only the"
        " fresh-process commands are measured then, since copies would flatter the rebuild)",
    )
    parser.add_argument("--keep", type=Path, help="keep the ledger made at this path")
    parser.add_argument(
        "--ledger",
        type=Path,
        help="a ledger kept by an earlier run (--keep): measure only verify and the fresh processes on it",
    )
    args = parser.parse_args()
    print(f"the game core: {game_core()}")
    if args.ledger is not None:
        with tempfile.TemporaryDirectory() as tmp:
            _measure_kept(args, args.ledger, tmp)
        return

    from doko_ledger.doppelkopf.files import game_file
    from doko_ledger.doppelkopf.files import night_file as session_file

    rng = random.Random(args.seed)
    gen_s = 0.0
    import_t = Took(0.0, 0.0)
    n_events = 0
    sample: list[LoadedGame] = []
    distinct: list[LoadedGame] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        ledger = Ledger.open(path, create=True)
        for start in range(0, args.games, args.chunk):
            ids = range(start, min(start + args.chunk, args.games))
            if args.copies > 1:
                distinct = distinct or [random_game(rng, f"bench-{i:06d}") for i in range(args.games // args.copies)]
                seconds, games = Took(0.0, 0.0), [(f"g{i}", _copy(distinct[i % len(distinct)], i)) for i in ids]
            else:
                seconds, games = timed(lambda ids=ids: [(f"g{i}", random_game(rng, f"bench-{i:06d}")) for i in ids])
            gen_s += seconds.wall
            n_events += sum(len(g.events) for _, g in games)
            sample += [g for _, g in games[: max(0, args.files - len(sample))]]
            took, _ = timed(
                lambda games=games: ledger.import_games(
                    games, recorded_by="bench", recorded_at="2026-11-30T00:00:00+00:00"
                )
            )
            import_t = Took(import_t.wall + took.wall, import_t.cpu + took.cpu)
        last = random_game(rng, UNIQUE)
        ledger.import_games([("last", last)], recorded_by="bench", recorded_at="t")
        night = session_file.read(NIGHT.read_text(encoding="utf-8"), str(NIGHT))
        card_nights(ledger).import_night(night.night, by="bench", at="t")
        ledger.import_files([DOUDIZHU_SESSION], by="bench", at="t")
        print(
            f"generated {args.games} games, {n_events} events in {gen_s:.1f} s (not timed); peak {peak_mib():.0f} MiB"
        )
        if args.copies > 1:
            ledger.refresh()
            ids = [row["game_id"] for row in ledger.games() if row["game"] == "doppelkopf"]
            ledger.close()
            _commands(args, path, ids, [], tmp)
            return
        locks = LockTimer(ledger.store)
        ledger.store.transaction = locks  # type: ignore[method-assign]
        ledger.rebuild()  # the write lock's longest hold (then the rebuilds timed below)
        ledger.store.transaction = locks._inner  # type: ignore[method-assign]
        floor = lambda: raw_read(path)  # noqa: E731
        rebuild_t, rebuild_floor, rebuild_x = paired(ledger.rebuild, floor, args.repeat)
        games_t, games_floor, games_x = paired(
            lambda: runner.rebuild(ledger.store, GamesProjection()), floor, args.repeat
        )
        after_rebuild = peak_mib()
        ids = [row["game_id"] for row in ledger.games() if row["game"] == "doppelkopf"]
        score_t, score_floor, score_x = paired(
            lambda: [ledger.book_of(DOPPELKOPF).score(g) for g in ids], floor, args.repeat
        )
        append_s = ledger_append(ledger, 200)
        ledger.refresh()
        ledger.close()
        verify_t, verify_floor, verify_x = verify_beside_floor(path, max(args.repeat, 3))
        _, read_count = timed(lambda: raw_read(path))
        raw_insert_t, _ = timed(lambda: raw_insert(path, Path(tmp) / "raw.sqlite"))
        raw_append_s = raw_append(Path(tmp) / "one.sqlite", 200)
        assert read_count >= n_events + 200

        folder = Path(tmp) / "files"
        folder.mkdir()
        files = []
        for i, game in enumerate(sample):
            files.append(folder / f"{i:05d}.yaml")
            files[-1].write_text(game_file.dumps(game.record), encoding="utf-8")
        files_t, _ = timed(lambda: import_files(Path(tmp) / "files.sqlite", files))
        floor_t = import_floor(Path(tmp) / "floor.sqlite", files, sample)

        rows = [
            (
                "import (validate, hash, append)",
                import_t,
                raw_insert_t,
                "sqlite3 insert into the ledger's table",
                n_events,
            ),
            ("rebuild all projections", rebuild_t, rebuild_floor, "plain sqlite3 select + json.loads", n_events),
            ("rebuild the six Doppelkopf models", games_t, games_floor, "plain sqlite3 select + json.loads", n_events),
            ("score every game", score_t, score_floor, "plain sqlite3 select + json.loads", n_events),
            (f"import {len(files)} game files", files_t, floor_t, "libyaml load + replay + append + catch-up", 0),
            ("one append (median)", Took(append_s, append_s), Took(raw_append_s, raw_append_s), "sqlite3 insert", 0),
            ("verify --quick (hash chain)", verify_t, verify_floor, "sqlite3 select + sha256 per row", n_events),
        ]
        medians = {"rebuild all projections": rebuild_x, "rebuild the six Doppelkopf models": games_x}
        medians["score every game"] = score_x
        medians["verify --quick (hash chain)"] = verify_x
        print(f"\n{'step':<36} {'wall s':>9} {'cpu s':>9} {'floor cpu':>10} {'ratio':>6}  floor")
        for name, took, floor_took, baseline, count in rows:
            rate = f"  ({count / took.cpu:,.0f} events/s)" if count else ""
            ratio = medians.get(name, took.cpu / floor_took.cpu)
            print(f"{name:<36} {took.wall:9.4f} {took.cpu:9.4f} {floor_took.cpu:10.4f} {ratio:5.2f}x  {baseline}{rate}")
        print(
            f"(rebuilds, scoring, verify: medians of {args.repeat}+ runs, each beside its floor's;"
            " ratio: median of pairs)"
        )
        per_file, floor_file = files_t.cpu / len(files) * 1000, floor_t.cpu / len(files) * 1000
        print(f"\nper game file: {per_file:.2f} ms CPU, floor {floor_file:.2f} ms")
        print(f"rebuild: the write lock held at most {locks.longest:.3f} s at a time ({locks.count} transactions)")
        print(f"peak memory after the rebuild {after_rebuild:.0f} MiB", flush=True)

        _commands(args, path, ids, files, tmp)
        if args.keep is not None:
            shutil.copyfile(path, args.keep)


def verify_beside_floor(path: Path, repeat: int) -> tuple[Took, Took, float]:
    """`verify --quick` (the hash chain) in this process, paired with its floor."""
    reports: list[Any] = []

    def verify() -> None:
        _schema_problem.cache_clear()  # as in a fresh `doko verify`: no payload checked yet
        with Ledger.open(path) as reopened:
            reports.append(reopened.verify(quick=True))  # the hash chain, not the read models

    hashes: list[int] = []
    measured = paired(verify, lambda: hashes.append(raw_read_and_hash(path)), repeat)
    report, hashed = reports[-1], hashes[-1]
    assert report.ok and hashed == report.events
    return measured


def _measure_kept(args: argparse.Namespace, path: Path, tmp: str) -> None:
    """Verify and the fresh processes on a ledger an earlier run kept."""
    with Ledger.open(path) as ledger:
        ids = [row["game_id"] for row in ledger.games() if row["game"] == "doppelkopf"]
        events = ledger.head().events
    print(f"{path}: {len(ids)} Doppelkopf games, {events} events")
    verify_t, verify_floor, verify_x = verify_beside_floor(path, max(args.repeat, 3))
    print(
        f"verify --quick (hash chain), in this process: {verify_t.cpu:.3f} s CPU, floor {verify_floor.cpu:.3f} s,"
        f" {verify_x:.2f}x (median of {max(args.repeat, 3)} pairs)",
        flush=True,
    )
    _commands(args, path, ids, [], tmp)


def _commands(args: argparse.Namespace, path: Path, ids: list[str], files: list[Path], tmp: str) -> None:
    """Every command a user types, as a fresh process, next to the one-command Typer app."""
    total = len(ids)
    doko = str(Path(sys.executable).with_name("doko"))
    package = Path(__file__).resolve().parent.parent / "doko_ledger"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    db = ["--db", str(path)]
    runs, big = args.runs, max(1, min(args.runs, 3))
    typer_floor = child([sys.executable, "-c", TYPER_HELLO, "hello"], runs)
    commands: list[tuple[str, list[str], int]] = [
        ('python -c "import typer, rich"', [sys.executable, "-c", "import typer, rich"], runs),
        ("doko score GAME (exact id: a card night's deal)", [doko, *db, "score", ids[-1]], runs),
        ("doko score GAME (exact id: a game of no night)", [doko, *db, "score", ids[0]], runs),
        ("doko score '#1'", [doko, *db, "score", "#1"], runs),
        ("doko score N (the middle game)", [doko, *db, "score", str(total // 2)], runs),
        ("doko score last", [doko, *db, "score", "last"], runs),
        (f"doko score {UNIQUE[:6]} (a prefix)", [doko, *db, "score", UNIQUE[:6]], runs),
        ("doko standings --session (a night)", [doko, *db, "standings", "--session", "2026-11-28-kit"], runs),
        ("doko standings --session (a Dou Dizhu session)", [doko, *db, "standings", "--session", "2026-11-29-d"], runs),
        ("doko games --last 20", [doko, *db, "games", "--last", "20"], runs),
        ("doko games --player Anna --last 20", [doko, *db, "games", "--player", "Anna", "--last", "20"], runs),
        ("doko games --session (a night)", [doko, *db, "games", "--session", "2026-11-28-kitchen"], runs),
        ("doko games --all", [doko, *db, "games", "--all"], big),
        ("doko games --json", [doko, *db, "games", "--json"], big),
        ("the floor: sqlite3 rows of `games` printed", [sys.executable, "-c", RAW_LIST, str(path)], big),
    ]
    print(f"\n{'fresh process (median)':<56} {'wall s':>7} {'cpu s':>7} {'x floor':>7} {'MiB':>6} {'first s':>8}")
    _print_child("a one-command Typer app printing with Rich (the floor)", typer_floor, typer_floor)
    for name, command, count in commands:
        _print_child(name, child(command, count), typer_floor)
    if files:
        cli_import = [doko, "--db", str(Path(tmp) / "cli.sqlite"), "import", *map(str, files)]
        _print_child(f"doko import of {len(files)} game files", child(cli_import, 1, warm=False), typer_floor)
    _cold_starts(doko, db, ids, max(runs, 5))
    _verify_memory(doko, db, path, big)


def _cold_starts(doko: str, db: list[str], ids: list[str], rounds: int) -> None:
    """The commands of one night or one game that a table types most, each run in turn with the
    floor, round after round (the machine is shared): medians, and the median of each round's
    ratio to the floor's run beside it."""
    floor = [sys.executable, "-c", TYPER_HELLO, "hello"]
    commands = {
        "doko score GAME (a card night's deal)": [doko, *db, "score", ids[-1]],
        "doko score GAME (a game of no night)": [doko, *db, "score", ids[0]],
        "doko standings --session (a card night)": [doko, *db, "standings", "--session", "2026-11-28-kit"],
        "doko standings --session (a Dou Dizhu session)": [doko, *db, "standings", "--session", "2026-11-29-d"],
    }
    floors: list[Child] = []
    measured: dict[str, list[Child]] = {name: [] for name in commands}
    for _ in range(rounds):
        floors.append(child(floor, 1))
        for name, command in commands.items():
            measured[name].append(child(command, 1))
    title = f"cold start, CPU of the child (median of {rounds} rounds)"
    print(f"\n{title:<56} {'cpu s':>7} {'floor':>7} {'ratio':>6}")
    for name, runs in measured.items():
        ratio = statistics.median(r.cpu / f.cpu for r, f in zip(runs, floors, strict=True))
        cpu, floor_cpu = statistics.median(r.cpu for r in runs), statistics.median(f.cpu for f in floors)
        print(f"{name:<56} {cpu:7.3f} {floor_cpu:7.3f} {ratio:5.2f}x", flush=True)


RAW_HASH = f"""
import hashlib, sqlite3, sys
from json.encoder import encode_basestring as quote
count = 0
for position, stream, version, kind, schema, payload, at, by, prev, _ in sqlite3.connect(sys.argv[1]).execute(
    "SELECT {_COLUMNS} FROM events ORDER BY position"
):
    material = (
        f"[{{quote(prev)}},{{position}},{{quote(stream)}},{{version}},{{quote(kind)}},{{schema}},"
        f"{{quote(payload)}},{{quote(at)}},{{quote(by)}}]"
    )
    hashlib.sha256(material.encode("utf-8")).hexdigest()
    count += 1
print(count)
"""
"""The floor under `doko verify --quick` as a process of its own (`raw_read_and_hash`)."""


def _verify_memory(doko: str, db: list[str], path: Path, runs: int) -> None:
    """`doko verify --quick` in a fresh process beside its floor: peak memory and CPU."""
    verify = child([doko, *db, "verify", "--quick"], runs)
    floor = child([sys.executable, "-c", RAW_HASH, str(path)], runs)
    print(f"\n{'verify in a fresh process (median)':<56} {'cpu s':>7} {'MiB':>6}")
    print(f"{'doko verify --quick':<56} {verify.cpu:7.2f} {verify.mib:6.1f}")
    print(f"{'the floor: sqlite3 rows read and hashed':<56} {floor.cpu:7.2f} {floor.mib:6.1f}")
    print(f"peak: {verify.mib / floor.mib:.2f}x the floor's, {verify.mib - floor.mib:.1f} MiB above it", flush=True)


def _print_child(name: str, measured: Child, floor: Child) -> None:
    print(
        f"{name:<56} {measured.wall:7.3f} {measured.cpu:7.3f} {measured.cpu / floor.cpu:6.2f}x"
        f" {measured.mib:6.0f} {measured.first:8.3f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
