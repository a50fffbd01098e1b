"""Benchmark: the same ledger on SQLite and on PostgreSQL, side by side in one run.

Run: `python bench/bench_postgres.py --games 10000` (a throwaway PostgreSQL cluster is started
with tools/postgres-cluster and stopped after; `--url postgresql://...` uses a server you run,
whose user may create databases). `--games 0` measures the appends alone.

Measured on each database, with the same N seeded random legal games:
- import: `Ledger.import_games` in chunks (validate, hash, append, read models caught up);
- rebuild: `Ledger.rebuild` (drop the read models, fold every stream again);
- verify --quick: `Ledger.verify(quick=True)` (the whole hash chain, not the read models).
Wall seconds, and the CPU seconds of this process (PostgreSQL's server works in processes of
its own, so its CPU is not in the client's figure: wall time is the fair comparison there).
The throwaway cluster runs as the tests run it: `fsync` and `synchronous_commit` off.

Appends per second with 8 writer processes at once, each appending one event at a time to a
stream of its own (each append a transaction holding the log's write lock), at two
durabilities on each database, the runs of the two databases taking turns (`--repeat`, the
median of each): a commit that does not wait for the disk (SQLite in WAL mode with
`synchronous = NORMAL`, as the ledger opens it; PostgreSQL with `fsync` and
`synchronous_commit` off, as tools/postgres-cluster starts it) and one that does (SQLite's
`synchronous = FULL`; PostgreSQL's defaults, `fsync`, `synchronous_commit` and
`full_page_writes` on, set with ALTER SYSTEM and a reload). Beside the wall rate: the CPU
milliseconds per append of the writer processes (the client), and on PostgreSQL of the server
processes serving their connections (from /proc; the WAL writer and checkpointer not counted).
With `--url`, the server's durability is measured as it is set, and named.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_ledger import Took, random_game, timed  # noqa: E402

from doko_ledger.doppelkopf.files.game_file import LoadedGame  # noqa: E402
from doko_ledger.ledger import Ledger  # noqa: E402

WRITERS = 8
APPENDS = 250
"""Appends each writer makes."""

WRITER = """
import json, os, sys, time
from pathlib import Path
from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.store.errors import LedgerBusy
from doko_ledger.store.open import open_store

target, worker, count, go, pragma = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5]
store = open_store(target)
if pragma:
    store.db.execute(pragma)
backend = store.db.execute("SELECT pg_backend_pid()").fetchone()[0] if target.startswith("postgresql") else None

def server_cpu():
    if backend is None:
        return 0.0
    fields = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

event = CardPlayed(worker % 4, parse_card("CQ"))
(go.parent / f"ready-{worker}").touch()
while not go.exists():
    time.sleep(0.001)
started, cpu, served, busy = time.perf_counter(), time.process_time(), server_cpu(), 0
for version in range(count):
    while True:
        try:
            store.append(f"bench/w{worker}", [event], expected_version=version, recorded_by="bench", recorded_at="t")
            break
        except LedgerBusy:  # waited 10 s for the lock (a disk slowed down by others): nothing written, again
            busy += 1
print(json.dumps({
    "seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu, "server_cpu": server_cpu() - served,
    "busy": busy,
}))
store.close()
"""

SQLITE_NORMAL = "WAL, synchronous = NORMAL (the ledger's own): a commit does not wait for the disk"
SQLITE_FULL = "WAL, synchronous = FULL: a commit waits for the disk"
POSTGRES_OFF = "fsync off, synchronous_commit off (tools/postgres-cluster): a commit does not wait for the disk"
POSTGRES_ON = "fsync, synchronous_commit, full_page_writes on (the server's defaults): a commit waits for the disk"


class Appends(NamedTuple):
    """One run of the writers: appends per wall second, and CPU milliseconds per append."""

    rate: float
    client_ms: float
    server_ms: float


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


DURABILITY = ("fsync", "synchronous_commit", "full_page_writes")


def durability(server: str) -> dict[str, str]:
    """The server's settings that say whether a commit waits for the disk, on a new connection."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        return {name: str(conn.execute(f"SHOW {name}").fetchall()[0][0]) for name in DURABILITY}


def set_durability(server: str, on: bool) -> None:
    """Turn the throwaway cluster's durability on (the server's defaults) or off (as the cluster
    starts): ALTER SYSTEM and a reload, then wait until new connections see it."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        for name in DURABILITY:
            conn.execute(f"ALTER SYSTEM SET {name} = {'on' if on else 'off'}")
        conn.execute("SELECT pg_reload_conf()")
    wanted = {name: "on" if on else "off" for name in DURABILITY}
    deadline = time.monotonic() + 10
    while durability(server) != wanted:
        assert time.monotonic() < deadline, f"the server did not take {wanted}"
        time.sleep(0.05)


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


def appends_per_second(target: str | Path, folder: Path, pragma: str = "") -> Appends:
    """8 processes appending at once: the appends all of them made over the wall time from the
    start signal until the last one finished, and the CPU each append took (`pragma`: a
    statement each writer runs on its SQLite connection first)."""
    folder.mkdir()
    Ledger.open(target, create=True).close()
    go = folder / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), str(w), str(APPENDS), str(go), pragma],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    while not all((folder / f"ready-{w}").exists() for w in range(WRITERS)):
        time.sleep(0.01)
    started = time.perf_counter()
    go.touch()
    client = server = 0.0
    for writer in writers:
        out, _ = writer.communicate(timeout=600)
        assert writer.returncode == 0
        took = json.loads(out)
        client, server = client + took["cpu"], server + took["server_cpu"]
        if took["busy"]:
            print(
                f"({target}: a writer waited out the busy timeout {took['busy']} times, and tried again)",
                file=sys.stderr,
            )
    appends = WRITERS * APPENDS
    return Appends(appends / (time.perf_counter() - started), 1000 * client / appends, 1000 * server / appends)


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


def log_table(games: int, chunks: list[list[LoadedGame]], folder: Path, server: str) -> None:
    """Import, rebuild and verify on both databases, at the server's durability as it runs."""
    targets: dict[str, Callable[[str], str | Path]] = {
        "sqlite": lambda name: folder / f"{name}.sqlite",
        "postgresql": lambda name: new_database(server, f"doko_bench_{name}"),
    }
    rows = {backend: measure(target_of("ledger"), chunks, games) for backend, target_of in targets.items()}
    assert rows["sqlite"]["head"] == rows["postgresql"]["head"], "the same events gave different heads"
    print(f"the same head on both: {rows['sqlite']['head'][:16]}")
    settings = ", ".join(f"{name} {value}" for name, value in durability(server).items())
    print(f"SQLite: {SQLITE_NORMAL}; PostgreSQL: {settings}")
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
    print()


def appends_table(folder: Path, server: str, url_given: bool, repeat: int) -> None:
    """Appends per second at both durabilities (the server's as it is set, with `--url`)."""
    cases: list[tuple[str, bool | None, str]]
    if url_given:
        found = durability(server)
        settings = ", ".join(f"{name} {value}" for name, value in found.items())
        waits = found["fsync"] == "on" and found["synchronous_commit"] != "off"
        cases = [(SQLITE_FULL if waits else SQLITE_NORMAL, None, f"{settings} (as the server runs)")]
    else:
        cases = [(SQLITE_NORMAL, False, POSTGRES_OFF), (SQLITE_FULL, True, POSTGRES_ON)]
    print(
        f"| database: durability | appends/s, {WRITERS} writers (wall) | PostgreSQL / SQLite"
        " | client CPU ms / append | server CPU ms / append |"
    )
    print("|---|---:|---:|---:|---:|")
    for n, (lite_durability, on, pg_durability) in enumerate(cases):
        pragma = "PRAGMA synchronous = FULL" if lite_durability == SQLITE_FULL else ""
        runs: dict[str, list[Appends]] = {"sqlite": [], "postgresql": []}
        for r in range(repeat):  # the two databases take turns, so both see the same machine
            runs["sqlite"].append(appends_per_second(folder / f"a{n}-{r}.sqlite", folder / f"sqlite-{n}-{r}", pragma))
            if on is not None:
                set_durability(server, on)
            target = new_database(server, f"doko_bench_appends_{n}_{r}")
            runs["postgresql"].append(appends_per_second(target, folder / f"postgresql-{n}-{r}"))
        lite, pg = (
            Appends(*(statistics.median(getattr(a, field) for a in runs[backend]) for field in Appends._fields))
            for backend in ("sqlite", "postgresql")
        )
        print(f"| SQLite: {lite_durability} | {lite.rate:,.0f} | | {lite.client_ms:.3f} | (in the client) |")
        print(
            f"| PostgreSQL: {pg_durability} | {pg.rate:,.0f} | {pg.rate / lite.rate:.2f}x"
            f" | {pg.client_ms:.3f} | {pg.server_ms:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="0: the appends alone")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=1000, help="games imported per call")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the writers on each database, median")
    parser.add_argument("--url", help="a PostgreSQL server whose user may create databases")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp, postgres_server(args.url) as server:
        folder = Path(tmp)
        if args.games:
            rng = random.Random(args.seed)
            games = [random_game(rng, f"bench-{i:06d}") for i in range(args.games)]
            chunks = [games[i : i + args.chunk] for i in range(0, len(games), args.chunk)]
            print(f"{args.games} games, {sum(len(g.events) for g in games)} events")
            log_table(args.games, chunks, folder, server)
        appends_table(folder, server, args.url is not None, args.repeat)


if __name__ == "__main__":
    main()
