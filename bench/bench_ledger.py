"""Benchmark: import N seeded random legal games, rebuild every projection, next to raw baselines.

Run: `make bench` (or `python bench/bench_ledger.py --games 10000`).

Printed per step: events per second, and a raw baseline measured in the same run
on the same ledger file: the same rows read with plain `sqlite3` and
`json.loads` (for the rebuilds and scoring), and the same rows inserted with plain
`sqlite3` (for the import). Targets (issue 7): the rebuild of the six Doppelkopf read
models within 3x the raw read-and-parse baseline; an import of at least 100,000 events/s.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from doko_ledger.cards import deck
from doko_ledger.events.doppelkopf import PenaltyImposed
from doko_ledger.events.store import _COLUMNS
from doko_ledger.formats.game_file import LoadedGame
from doko_ledger.game import DealCards, DeclareReservation, GameState, PlayCard, StartGame, decide, evolve
from doko_ledger.game.record import from_events
from doko_ledger.ledger import Ledger
from doko_ledger.projections import runner
from doko_ledger.projections.games import GamesProjection
from doko_ledger.rules import legal_plays, preset
from doko_ledger.rules.reservations import asking_order

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


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


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


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of this process (user + system) spent in `fn`."""
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


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
    rows = sqlite3.connect(source).execute("SELECT * FROM events")
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode=wal")
    conn.execute(
        "CREATE TABLE events (position INTEGER, stream TEXT, version INTEGER, type TEXT, schema_version INTEGER,"
        " payload TEXT, recorded_at TEXT, recorded_by TEXT, prev_hash TEXT, hash TEXT,"
        " PRIMARY KEY (stream, version))"
    )
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


def cold_start(args: list[str], runs: int = 5) -> float:
    """Median wall time of a fresh process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=1000, help="games generated and imported at a time")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    gen_s = import_s = 0.0
    n_events = 0
    rows: list[tuple[str, float, float, str, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        ledger = Ledger.open(path, create=True)
        for start in range(0, args.games, args.chunk):
            ids = range(start, min(start + args.chunk, args.games))
            seconds, games = timed(lambda ids=ids: [(f"g{i}", random_game(rng, f"bench-{i:06d}")) for i in ids])
            gen_s += seconds
            n_events += sum(len(g.events) for _, g in games)
            seconds, _ = timed(
                lambda games=games: ledger.import_games(
                    games, recorded_by="bench", recorded_at="2026-11-30T00:00:00+00:00"
                )
            )
            import_s += seconds
        print(
            f"generated {args.games} games, {n_events} events in {gen_s:.1f} s (not timed); peak {peak_mib():.0f} MiB"
        )
        locks = LockTimer(ledger.store)
        ledger.store.transaction = locks  # type: ignore[method-assign]
        rebuild_s, _ = timed(ledger.rebuild)
        ledger.store.transaction = locks._inner  # type: ignore[method-assign]
        games_s, _ = timed(lambda: runner.rebuild(ledger.store, GamesProjection()))
        after_rebuild = peak_mib()
        ids = ledger.game_ids()
        score_s, _ = timed(lambda: [ledger.score(g) for g in ids])
        after_scoring = peak_mib()
        append_s = ledger_append(ledger, 200)
        ledger.close()
        with Ledger.open(path) as reopened:
            verify_cpu, report = cpu(reopened.verify)
        floor_cpu, hashed = cpu(lambda: raw_read_and_hash(path))
        assert report.ok and hashed == report.events
        raw_read_s, read_count = timed(lambda: raw_read(path))
        raw_insert_s, _ = timed(lambda: raw_insert(path, Path(tmp) / "raw.sqlite"))
        raw_append_s = raw_append(Path(tmp) / "one.sqlite", 200)
        assert read_count == n_events + 200
        doko = str(Path(sys.executable).with_name("doko"))
        score_cold = cold_start([doko, "--db", str(path), "score", ids[-1]])
        import_cold = cold_start([sys.executable, "-c", "import typer, rich"])
        typer_cold = cold_start([sys.executable, "-c", TYPER_HELLO, "hello"])

    rows = [
        ("import (validate, hash, append)", import_s, raw_insert_s, "plain sqlite3 executemany insert", n_events),
        ("rebuild all projections", rebuild_s, raw_read_s, "plain sqlite3 select + json.loads", n_events),
        ("rebuild the six Doppelkopf models", games_s, raw_read_s, "plain sqlite3 select + json.loads", n_events),
        ("score every game", score_s, raw_read_s, "plain sqlite3 select + json.loads", n_events),
        ("one append (median)", append_s, raw_append_s, "plain sqlite3 insert + commit", 1),
        ("verify (CPU s)", verify_cpu, floor_cpu, "plain sqlite3 select + sha256 per row (CPU s)", n_events + 200),
        ("cold `doko score GAME` (median)", score_cold, import_cold, 'python -c "import typer, rich"', 1),
        ("cold `doko score GAME` (median)", score_cold, typer_cold, "a one-command Typer app printing with Rich", 1),
    ]
    print(f"\n{'step':<36} {'seconds':>10} {'per second':>11} {'raw s':>10} {'ratio':>6}  baseline")
    for name, seconds, raw, baseline, count in rows:
        rate = f"{count / seconds:11,.0f}" if count > 1 else f"{'':>11}"
        print(f"{name:<36} {seconds:10.6f} {rate} {raw:10.6f} {seconds / raw:6.1f}x  {baseline}")
    print(
        f"\nrebuild: the write lock held at most {locks.longest:.3f} s at a time ({locks.count} transactions);"
        f" verify within 1.2x the read + sha256 floor: {verify_cpu / floor_cpu:.2f}x (CPU time)"
    )
    print(f"\npeak memory after the rebuild {after_rebuild:.0f} MiB, after scoring every game {after_scoring:.0f} MiB")
    print(
        f"targets (issue 7): the six Doppelkopf read models rebuilt within 3x the raw read-and-parse"
        f" baseline: {games_s / raw_read_s:.1f}x (all projections: {rebuild_s / raw_read_s:.1f}x);"
        f" import at least 100,000 events/s: {n_events / import_s:,.0f};"
        f" cold `doko score GAME` within 2x `import typer, rich`: {score_cold / import_cold:.1f}x"
        f" (a bare one-command Typer app alone is {typer_cold / import_cold:.1f}x)"
    )


if __name__ == "__main__":
    main()
