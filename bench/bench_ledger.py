"""Benchmark: import N seeded random legal games, rebuild every projection, next to raw baselines.

Run: `make bench` (or `python bench/bench_ledger.py --games 10000`).

Printed per step: events per second, and a raw baseline measured in the same run
on the same ledger file: the same rows read with plain `sqlite3` and
`json.loads` (for the rebuild), and the same rows inserted with plain `sqlite3`
(for the import). Target (issue 2): rebuilding 10,000 games within 5x the raw
read-and-parse baseline.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doko_ledger.cards import deck
from doko_ledger.formats.game_file import LoadedGame
from doko_ledger.game import DealCards, DeclareReservation, GameState, PlayCard, StartGame, decide, evolve
from doko_ledger.game.record import from_events
from doko_ledger.ledger import Ledger
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


def raw_insert(source: Path, target: Path) -> int:
    rows = sqlite3.connect(source).execute("SELECT * FROM events").fetchall()
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode=wal")
    conn.execute(
        "CREATE TABLE events (position INTEGER, stream TEXT, version INTEGER, type TEXT, schema_version INTEGER,"
        " payload TEXT, recorded_at TEXT, recorded_by TEXT, prev_hash TEXT, hash TEXT,"
        " PRIMARY KEY (stream, version))"
    )
    with conn:
        conn.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
    conn.close()
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    gen_s, games = timed(lambda: [(f"g{i}", random_game(rng, f"bench-{i:06d}")) for i in range(args.games)])
    n_events = sum(len(g.events) for _, g in games)
    print(f"generated {args.games} games, {n_events} events in {gen_s:.1f} s (not timed below)")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        ledger = Ledger.open(path, create=True)
        import_s, _ = timed(
            lambda: ledger.import_games(games, recorded_by="bench", recorded_at="2026-11-30T00:00:00+00:00")
        )
        rebuild_s, _ = timed(ledger.rebuild)
        ledger.close()
        raw_read_s, read_count = timed(lambda: raw_read(path))
        raw_insert_s, _ = timed(lambda: raw_insert(path, Path(tmp) / "raw.sqlite"))
        assert read_count == n_events

    rows = [
        ("import (validate, hash, append)", import_s, raw_insert_s, "plain sqlite3 executemany insert"),
        ("rebuild all projections", rebuild_s, raw_read_s, "plain sqlite3 select + json.loads"),
    ]
    print(f"\n{'step':<42} {'seconds':>8} {'events/s':>10} {'raw s':>7} {'ratio':>6}  baseline")
    for name, seconds, raw, baseline in rows:
        print(f"{name:<42} {seconds:8.2f} {n_events / seconds:10,.0f} {raw:7.2f} {seconds / raw:6.1f}x  {baseline}")
    ratio = rebuild_s / raw_read_s
    verdict = "met" if ratio <= 5 else "NOT met"
    print(f"\ntarget: rebuild within 5x the raw read-and-parse baseline: {ratio:.1f}x, {verdict}")


if __name__ == "__main__":
    main()
