"""Benchmark: the same ledger on SQLite and on PostgreSQL, side by side in one run.

Run: `python bench/bench_postgres.py --games 10000` (a throwaway PostgreSQL cluster is started
with tools/postgres-cluster and stopped after; `--url postgresql://...` uses a server you run,
whose user may create databases).

Measured on each database, with the same N seeded random legal games:
- import: `Ledger.import_games` in chunks (validate, hash, append, read models caught up);
- rebuild: `Ledger.rebuild` (drop the read models, fold every stream again);
- verify --quick: `Ledger.verify(quick=True)` (the whole hash chain, not the read models);
- appends per second with 8 writer processes at once, each appending one event at a time to a
  stream of its own (each append a transaction holding the log's write lock).
Wall seconds, and the CPU seconds of this process (PostgreSQL's server works in processes of
its own, so its CPU is not in the client's figure: wall time is the fair comparison there).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_ledger import Took, random_game, timed  # noqa: E402

from doko_ledger.doppelkopf.files.game_file import LoadedGame  # noqa: E402
from doko_ledger.ledger import Ledger  # noqa: E402

WRITERS = 8
APPENDS = 250
"""Appends each writer makes."""

WRITER = """
import json, sys, time
from pathlib import Path
from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.store.base import EventStore
from doko_ledger.store.open import open_store

target, worker, count, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
store = open_store(target)
event = CardPlayed(worker % 4, parse_card("CQ"))
(go.parent / f"ready-{worker}").touch()
while not go.exists():
    time.sleep(0.001)
started = time.perf_counter()
for version in range(count):
    store.append(f"bench/w{worker}", [event], expected_version=version, recorded_by="bench", recorded_at="t")
print(json.dumps({"seconds": time.perf_counter() - started}))
store.close()
"""


@contextmanager
def postgres_server(url: str | None) -> Iterator[str]:
    """A server URL: the one given, or a throwaway cluster's (stopped afterwards)."""
    if url:
        yield url
        return
    folder = Path(tempfile.mkdtemp(prefix="doko-bench-pg-"))
    script = ROOT / "tools" / "postgres-cluster"
    started = subprocess.run([script, "start", folder], capture_output=True, text=True, check=True)
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run([script, "stop", folder], capture_output=True, check=False)


def new_database(server: str, name: str) -> str:
    import psycopg
    from psycopg import sql

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(server)._replace(path="/" + name))


def import_all(target: str | Path, chunks: list[list[LoadedGame]]) -> int:
    with Ledger.open(target, create=True) as ledger:
        games = 0
        for chunk in chunks:
            report = ledger.import_games([(g.record.id, g) for g in chunk], recorded_by="bench", recorded_at="t")
            games += report.games
        return games


def appends_per_second(target: str | Path, folder: Path) -> float:
    """8 processes appending at once; the appends all of them made, over the wall time from
    the start signal until the last one finished."""
    Ledger.open(target, create=True).close()
    go = folder / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), str(w), str(APPENDS), str(go)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    while not all((folder / f"ready-{w}").exists() for w in range(WRITERS)):
        time.sleep(0.01)
    started = time.perf_counter()
    go.touch()
    for writer in writers:
        out, _ = writer.communicate(timeout=600)
        assert writer.returncode == 0
        json.loads(out)
    return WRITERS * APPENDS / (time.perf_counter() - started)


def measure(target: str | Path, chunks: list[list[LoadedGame]], games: int) -> dict[str, Any]:
    took: dict[str, Any] = {}
    took["import"], imported = timed(lambda: import_all(target, chunks))
    assert imported == games
    with Ledger.open(target) as ledger:
        took["rebuild"], rebuilt = timed(ledger.rebuild)
        assert rebuilt == games
        took["verify"], report = timed(lambda: ledger.verify(quick=True))
        assert report.ok
        took["head"] = report.head
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=1000, help="games imported per call")
    parser.add_argument("--url", help="a PostgreSQL server whose user may create databases")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    games = [random_game(rng, f"bench-{i:06d}") for i in range(args.games)]
    chunks = [games[i : i + args.chunk] for i in range(0, len(games), args.chunk)]
    print(f"{args.games} games, {sum(len(g.events) for g in games)} events")
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp, postgres_server(args.url) as server:
        folder = Path(tmp)
        targets: dict[str, Callable[[str], str | Path]] = {
            "sqlite": lambda name: folder / f"{name}.sqlite",
            "postgresql": lambda name: new_database(server, f"doko_bench_{name}"),
        }
        for backend, target_of in targets.items():
            rows[backend] = measure(target_of("ledger"), chunks, args.games)
            (folder / backend).mkdir()
            rows[backend]["appends"] = appends_per_second(target_of("appends"), folder / backend)
    assert rows["sqlite"]["head"] == rows["postgresql"]["head"], "the same events gave different heads"
    print(f"the same head on both: {rows['sqlite']['head'][:16]}")
    print()
    print("| step | SQLite wall s | SQLite CPU s | PostgreSQL wall s | PostgreSQL client CPU s | PostgreSQL / SQLite |")
    print("|---|---:|---:|---:|---:|---:|")
    for step in ("import", "rebuild", "verify"):
        lite: Took = rows["sqlite"][step]
        pg: Took = rows["postgresql"][step]
        name = "verify --quick" if step == "verify" else step
        print(
            f"| {name} | {lite.wall:.2f} | {lite.cpu:.2f} | {pg.wall:.2f} | {pg.cpu:.2f} | {pg.wall / lite.wall:.2f}x |"
        )
    lite_rate, pg_rate = rows["sqlite"]["appends"], rows["postgresql"]["appends"]
    print(
        f"| appends/s, {WRITERS} writers | {lite_rate:,.0f} | | {pg_rate:,.0f} | | {pg_rate / lite_rate:.2f}x (rate) |"
    )


if __name__ == "__main__":
    main()
